"""How a card reads to a player: a one-line summary for the board and its full text on request.

Which fields a summary shows is worked out from the rulebook: numbers, choices and icon counts (a
card's cost and stats), not names, texts or lists of groups, which the full text shows.
"""

from __future__ import annotations

from typing import Any

from interpreter.loader.keyword_params import label
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.multiset import Multiset

_SUMMARY_TYPES = ("int", "multiset", "enum")


def _value(v: Any) -> str:
    if isinstance(v, (Multiset, dict)):
        return " ".join(f"{k}×{n}" if n != 1 else str(k) for k, n in v.items() if n) or "-"
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "-"
    return "-" if v is None else str(v)


def summary_fields(rb: Rulebook, card: CardDef) -> list[str]:
    """The fields a one-line summary of this card shows, in the rulebook's order."""
    fields = list(rb.raw.get("common_fields", []) or []) + list(rb.card_types[card.type].get("fields", []) or [])
    return [f["id"] for f in fields if f.get("type") in _SUMMARY_TYPES and f["id"] in card.fields]


def card_name(card: CardDef) -> str:
    return str(card.fields.get("name", card.id))


def card_summary(rb: Rulebook, card: CardDef, states: dict[str, Any] | None = None) -> str:
    """`Name [ID] (cost 2, power 3, icons red×2) rested`: what a player needs at a glance."""
    parts = [f"{f} {_value(card.fields[f])}" for f in summary_fields(rb, card)]
    shown = [str(v) for k, v in (states or {}).items() if v and v != (rb.states.get(k) or {}).get("default")]
    text = f"{card_name(card)} [{card.id}]"
    if parts:
        text += f" ({', '.join(parts)})"
    if shown:
        text += " " + " ".join(shown)
    return text


def card_details(rb: Rulebook, card: CardDef, readings: dict[int, str] | None = None) -> list[str]:
    """A card's full record: type, every field, its text and each ability with its rules (and, given
    `readings` by ability index, how it reads in plain English: interpreter/reading)."""
    lines = [f"{card_name(card)} [{card.id}] - {card.type}"]
    for k, v in card.fields.items():
        if k != "name":
            lines.append(f"  {k}: {_value(v)}")
    if card.text:
        lines.append(f"  text: {card.text}")
    for ab in card.abilities:
        head = f"  ability {ab.index + 1} ({ab.kind}"
        shown = [label(kw, ab.keyword_params.get(kw)) for kw in ab.keywords]  # with their values: charge(3000)
        head += f"; {', '.join(shown)})" if shown else ")"
        lines.append(head + (f": {ab.text}" if ab.text else ""))
        if ab.rules:
            lines.append(f"    rules {', '.join(ab.rules)}")
        if readings and ab.index in readings:
            lines.append(f"    reads: {readings[ab.index]}")
    return lines
