"""One ability of another card carried out by an effect ("activate one of that card's enter
abilities"): `resolve_abilities` with `keyword` (only the card's abilities with that keyword) and
`one` (its controller chooses one of them, the others are not carried out), wherever the card is;
an ability whose cost is optional asks whether to pay it. On the toy rulebook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, play, toy_variant

CARDS = """game: toy
cards:
  # Carries out one of the 'on_ping' abilities of a unit of its master's discard pile.
  - id: O-ECHO
    type: unit
    name: Echo
    power: 0
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('discard', you)", min: 1, max: 1, as: picked}
          - resolve_abilities: {card: "picked", kind: reflex, keyword: on_ping, one: true}
  # Two triggered abilities with the keyword (one with an optional cost), one without.
  - id: O-TWIN
    type: unit
    name: Twin
    power: 0
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: first, value: true}
      - kind: reflex
        keywords: [on_ping]
        optional: true
        cost:
          - move: {cards: "top('deck', you, 1)", to: discard}
        effect:
          - set_var: {name: second, value: true}
      - kind: reflex
        trigger: {event: ping}
        effect:
          - set_var: {name: third, value: true}
"""


def _env(tmp_path: Path) -> tuple[Any, Any]:
    return toy_variant(tmp_path, cards=CARDS)


def _use(g: Any) -> Any:
    d = g.advance()
    return play(g, [next(o.id for o in d.options if o.id.startswith("use:") and "Echo" in o.label)])


def test_one_ability_with_the_keyword_is_chosen_and_carried_out(tmp_path: Path) -> None:
    g = game_of(_env(tmp_path), {"P1": {"field": ["O-ECHO"], "discard": ["O-TWIN"], "deck": ["U-PLAIN"]}})
    d = _use(g)
    assert d.prompt == "choose_ability" and len(d.options) == 2  # the third has no on_ping keyword
    d = play(g, [d.options[1].id])                               # the one with the optional cost ...
    assert d.prompt == "pay_optional_cost"
    play(g, ["yes"])                                             # ... paid
    assert g.state.vars.get("second") is True
    assert "first" not in g.state.vars and "third" not in g.state.vars  # only one is carried out


def test_an_optional_cost_declined_carries_out_nothing(tmp_path: Path) -> None:
    g = game_of(_env(tmp_path), {"P1": {"field": ["O-ECHO"], "discard": ["O-TWIN"], "deck": ["U-PLAIN"]}})
    d = _use(g)
    d = play(g, [d.options[1].id, "no"])
    assert "second" not in g.state.vars and "first" not in g.state.vars
    assert [g.state.objects[o].card_id for o in g.state.zone("deck", 0)] == ["U-PLAIN"]
