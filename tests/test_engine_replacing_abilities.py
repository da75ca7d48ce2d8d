"""A continuous ability whose effect description names an `event` and what happens `instead` is a
replacement effect while the ability works (a card's "when this would be discarded, return it to
the hand instead"; Re:Birth 9.3.1.3, 9.11)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, toy_variant

CARDS = """game: toy
cards:
  - id: T-SURVIVOR
    type: unit
    name: Survivor
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: moved
          if: "event.card == this and event.to == 'discard'"
          instead:
            - move: {cards: "this", to: hand}
  - id: T-SWEEP
    type: unit
    name: Sweep
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - move: {cards: "cards('field', you)", to: discard}
"""


def _game(tmp_path: Path, zones: dict[str, Any]) -> Any:
    return game_of(toy_variant(tmp_path, cards=CARDS), zones)


def _names(g: Any, zone: str) -> list[str]:
    return sorted(g.state.objects[oid].card_id for oid in g.state.zone(zone, 0))


def test_a_continuous_ability_replaces_its_cards_move(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-SURVIVOR", "U-PLAIN"], "hand": ["T-SWEEP"]}})
    assert g.replacing_abilities
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    g.advance()
    assert _names(g, "discard") == ["U-PLAIN"], "the other card went"
    assert "T-SURVIVOR" in _names(g, "hand"), "the survivor went to the hand instead"
    assert any(e.text == "moved is replaced" for e in g.entries)


def test_it_replaces_only_while_the_ability_works(tmp_path):
    # In the hand the ability does not work (keyword in_field): nothing replaces the move.
    g = _game(tmp_path, {"P1": {"field": ["U-PLAIN"], "hand": ["T-SWEEP", "T-SURVIVOR"]}})
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and "Sweep" in o.label)])
    g.advance()
    assert _names(g, "discard") == ["U-PLAIN"]
    assert not any(e.text == "moved is replaced" for e in g.entries)
