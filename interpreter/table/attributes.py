"""What an expression's `card.name` reads of a card: its type, a placement state, a field (through
continuous effects), or one of the object's own slots.

How each name is read is decided once (`attr_kind`) and kept per game (`Table.attr_kinds`); the
slots are read by number in one chain of integer tests, which a compiled build runs natively where
a getter per name would be a call. The speed idioms of attribute reads live here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from interpreter.state.objects import GameObject

# What an expression's `card.name` reads: its card's type, a placement state, a field (through
# continuous effects), or one of the object's own slots (each its own number, read natively).
TYPE: Final = 0
STATE: Final = 1
FIELD: Final = 2
SLOTS: Final = {"holder": 10, "owner": 11, "marks": 12, "zone": 13, "oid": 14, "controller": 15, "id": 16,
                "zone_player": 17, "timestamp": 18, "counters": 19, "entered_turn": 20}

ATTRIBUTES: Final[dict[str, tuple[str, str]]] = {
    "type": ("The card's type id (a `card_types` entry).", "this.type == 'unit'"),
    "id": ("The card's id in its card file: the same for every copy of the card.", "this.id == event.card.id"),
    "oid": ("The object's id: a card gets a new one whenever it becomes a new object (most zone changes), so it "
            "tells this object from the same card before or after a move (`origin(card)` stays the same).",
            "event.new.oid != event.old.oid"),
    "owner": ("The player who owns the card (players are numbered from 0 in seat order).", "this.owner == you"),
    "controller": ("The player who controls the card: the player whose zone it entered (its owner in a shared "
                   "zone).", "this.controller != this.owner"),
    "zone": ("The id of the zone the card is in.", "this.zone == 'field'"),
    "zone_player": ("The player whose zone the card is in; null for a shared zone.", "this.zone_player == you"),
    "holder": ("The `oid` of the card this one is held under (attached to), or null; `holder_of(card)` gives "
               "that card.", "count(cards('field', you) where it.holder == this.oid) > 0"),
    "timestamp": ("When the card was put where it is: a number that grows with every placement, so a higher one "
                  "came later (`newest` orders by it).", "this.timestamp > event.card.timestamp"),
    "entered_turn": ("The turn in which the card became this object (entered its zone), from `turn`.",
                     "this.entered_turn < turn"),
    "counters": ("The card's counters (the `counter` verb) as a mapping of name to number; an absent one is "
                 "null here and 0 for `counter(card, name)`.", "this.counters.charge == 2"),
    "marks": ("The card's marks (the `mark` verb, `move` with `mark`, `zone_rules.arrival_marks`) as a mapping of "
              "name to value; they vanish when the card becomes a new object.", "this.marks.chosen == true"),
}
"""The object attributes `card.NAME` reads, besides the rulebook's placement states and card fields,
with an example each: the source of the generated reference (docs/reference.md);
tests/test_reference.py checks that every name `attr_kind` reads natively is here."""


def read_slot(obj: GameObject, kind: int) -> Any:
    """The slot numbered `kind` in `SLOTS`: a chain of integer tests that a compiled build runs
    natively, where a getter per name would be a call."""
    if kind == 10:
        return obj.holder
    if kind == 11:
        return obj.owner
    if kind == 12:
        return obj.marks
    if kind == 13:
        return obj.zone
    if kind == 14:
        return obj.oid
    if kind == 15:
        return obj.controller
    if kind == 16:
        return obj.card_id
    if kind == 17:
        return obj.zone_player
    if kind == 18:
        return obj.timestamp
    if kind == 19:
        return obj.counters
    return obj.entered_turn


def attr_kind(name: str, states: Collection[str]) -> int:
    """How `card.NAME` is read: a slot's number, the card's type, a placement state (one of
    `states`, the rulebook's) or else a field."""
    slot = SLOTS.get(name)
    if slot is not None:
        return slot
    if name == "type":
        return TYPE
    if name in states:
        return STATE
    return FIELD
