"""Costs and the replacements of what they do: a `replaceable` event in a cost is payable when it
can happen, or when a replacement that would apply to it can be carried out in its place (an
optional action done by doing what its replacement does); paying such a cost then takes that
replacement without asking, and the cost counts as paid. When the event can happen by itself, an
optional replacement is asked as ever. Outside costs nothing changes (interpreter/timing/payability.py,
abilities.pay_cost, verb replaceable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, texts, toy_variant

EVENTS = ('  - {id: ping, rules: ["5"], fields: []}',
          '  - {id: ping, rules: ["5"], fields: []}\n  - {id: spend, rules: ["5"], fields: [player, n]}')

CARDS = """game: toy
cards:
  - id: T-SPEND
    type: unit
    name: Spend
    power: 1
    abilities:
      - kind: quick
        keywords: [in_field]
        cost:
          - call: {template: spend, player: "you", n: 1}
        effect:
          - set_var: {name: spent, value: "sum([spent]) + 1"}
  - id: T-PROXY
    type: unit
    name: Proxy
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: spend
          if: "event.player == you and event.n >= 1"
          optional: true
          before:
            - move: {cards: "this", to: discard}
          change: {n: "event.n - 1"}
  - id: T-STANDIN
    type: unit
    name: Standin
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: spend
          if: "event.player == you"
          optional: true
          instead:
            - move: {cards: "this", to: discard}
"""


# The rulebook's action of spending cards from the pile, which raises the replaceable event spend.
TEMPLATES = """templates:
  - id: spend
    rules: ["5"]
    params: {player: null, n: 1}
    do:
      - replaceable:
          event: spend
          fields: {player: "player", n: "n"}
          as: s
          do:
            - choose: {player: "s.player", from: "cards('pile', s.player)", min: "s.n", max: "s.n", as: paid}
            - move: {cards: "paid", to: discard}
"""


def _game(tmp_path: Path, zones: dict[str, Any]) -> Any:
    return game_of(toy_variant(tmp_path, replace=(EVENTS,), append=TEMPLATES, cards=CARDS), zones)


def _offered(g: Any) -> bool:
    d = g.advance()
    return d is not None and any(o.id.startswith("use:") and "Spend" in o.label for o in d.options)


def _use(g: Any) -> Any:
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and "Spend" in o.label)])
    return g.advance()


def _zone(g: Any, zone: str) -> list[str]:
    return sorted(g.state.objects[o].card_id for o in g.state.zone(zone, 0))


def test_a_replaceable_cost_that_cannot_happen_is_not_payable(tmp_path):
    assert not _offered(_game(tmp_path / "none", {"P1": {"field": ["T-SPEND"]}}))
    assert _offered(_game(tmp_path / "one", {"P1": {"field": ["T-SPEND"], "pile": ["U-PLAIN"]}}))


def test_a_replacement_that_can_be_done_in_its_place_pays_it_without_asking(tmp_path):
    for proxy in ("T-PROXY", "T-STANDIN"):
        g = _game(tmp_path / proxy, {"P1": {"field": ["T-SPEND", proxy]}})
        assert _offered(g), f"{proxy}: payable through the replacement"
        d = _use(g)
        assert d is None or d.prompt != "apply_replacement", "the only way: not asked"
        assert g.state.vars["spent"] == 1, "the cost counts as paid: the effect happened"
        assert _zone(g, "discard") == [proxy]


def test_when_the_cost_can_be_paid_as_written_the_optional_replacement_is_asked(tmp_path):
    g = _game(tmp_path / "yes", {"P1": {"field": ["T-SPEND", "T-PROXY"], "pile": ["U-PLAIN"]}})
    d = _use(g)
    assert d.prompt == "apply_replacement" and d.player == 0
    g.answer(["yes"])
    g.advance()
    assert g.state.vars["spent"] == 1 and _zone(g, "discard") == ["T-PROXY"] and _zone(g, "pile") == ["U-PLAIN"]
    assert "spend is changed: n 0" in texts(g)
    g = _game(tmp_path / "no", {"P1": {"field": ["T-SPEND", "T-PROXY"], "pile": ["U-PLAIN"]}})
    _use(g)
    g.answer(["no"])
    g.advance()
    assert g.state.vars["spent"] == 1 and _zone(g, "discard") == ["U-PLAIN"], "paid as written"
