"""Replaceable events (`replaceable` verb): an event a rulebook declares, offered to replacement
effects before it happens. A replacement replaces it (`instead`), changes its values (`change`) or
adds steps `before` / `after` it; each applies once, the affected card's controller orders several;
an optional one with a `cost` is offered only if payable, and a card's replacing ability keeps its
use limit. Also: `limit` keywords with `uses_per_game`, and delayed triggers that fire when nothing
else remains (`when_idle`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, play, texts, toy_variant

EVENTS = ('  - {id: ping, rules: ["5"], fields: []}',
          '  - {id: ping, rules: ["5"], fields: []}\n  - {id: hit, rules: ["5"], fields: [card, amount]}')
KEYWORDS = ('  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}',
            '  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}\n'
            '  - {id: once_a_turn, rules: ["4"], kind: limit, uses_per_turn: 1}\n'
            '  - {id: once_a_game, rules: ["4"], kind: limit, uses_per_game: 1}')

# The game action that raises the event hit: 10 to each of its player's units, each offered to the
# replacements first (a rulebook raises the events it declares).
STRIKE = """templates:
  - id: strike
    rules: ["5"]
    do:
      - for_each:
          in: "cards('field', you)"
          as: u
          do:
            - replaceable:
                event: hit
                fields: {card: "u", amount: 10}
                as: h
                do:
                  - set_var: {name: hits, value: "as_list(hits) + [h.amount]"}
"""

CARDS = """game: toy
cards:
  - id: T-STRIKE
    type: unit
    name: Strike
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - call: {template: strike}
  - id: T-ARMOR
    type: unit
    name: Armor
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: hit
          if: "event.card == this"
          change: {amount: "event.amount - 3"}
  - id: T-DOUBLER
    type: unit
    name: Doubler
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: hit
          if: "event.card.controller == you"
          change: {amount: "event.amount * 2"}
          after:
            - set_var: {name: log, value: "as_list(log) + ['after']"}
  - id: T-DODGE
    type: unit
    name: Dodge
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field, once_a_turn]
        effect:
          event: hit
          if: "event.card == this"
          optional: true
          cost:
            - choose: {player: you, from: "cards('pile', you)", min: 1, max: 1, as: paid}
            - move: {cards: "paid", to: discard}
          before:
            - set_var: {name: log, value: "as_list(log) + ['before']"}
          instead:
            - set_var: {name: dodged, value: "sum([dodged]) + 1"}
  - id: T-ONCE
    type: unit
    name: Once
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere, once_a_game]
        effect:
          - set_var: {name: onces, value: "sum([onces]) + 1"}
  - id: T-ENCORE
    type: unit
    name: Encore
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - set_var: {name: log, value: "as_list(log) + ['played']"}
          - delayed_trigger:
              effect:
                when_idle: true
                do:
                  - set_var: {name: log, value: "as_list(log) + ['idle']"}
          - emit: {event: ping}
"""


def _game(tmp_path: Path, zones: dict[str, Any]) -> Any:
    env = toy_variant(tmp_path, replace=(EVENTS, KEYWORDS), append=STRIKE, cards=CARDS)
    return game_of(env, zones)


def _use(g: Any, name: str) -> Any:
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and name in o.label)])
    return g.advance()


def test_without_replacements_the_event_happens_as_given(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["U-PLAIN"], "hand": ["T-STRIKE"]}})
    _use(g, "Strike")
    assert g.state.vars["hits"] == [10]


def test_change_applies_once_each_ordered_by_the_affected_cards_controller(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-ARMOR", "T-DOUBLER"], "hand": ["T-STRIKE"]}})
    d = _use(g, "Strike")
    # The armor is hit: both its own armor and the doubler apply; P1 (its controller) orders them.
    assert d.prompt == "choose_replacement" and d.player == 0 and len(d.options) == 2
    g.answer([next(o.id for o in d.options if "T-ARMOR" in o.label)])
    d = g.advance()
    # Then the doubler's hit: only the doubler applies (each once), no question.
    assert g.state.vars["hits"][0] == (10 - 3) * 2, "armor first, then doubled"
    assert g.state.vars["hits"][1] == 20
    assert g.state.vars["log"] == ["after", "after"], "the after steps ran after each hit"
    assert "hit is changed: amount 7" in texts(g)


def test_the_other_order(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-ARMOR"], "hand": ["T-STRIKE"]}, "P2": {"field": ["T-DOUBLER"]}})
    d = _use(g, "Strike")
    # P2's doubler replaces only hits to P2's cards: the armor alone applies, no question.
    assert d is None or d.prompt != "choose_replacement"
    assert g.state.vars["hits"] == [7]


def test_instead_with_cost_optional_and_limit(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-DODGE"], "hand": ["T-STRIKE", "T-STRIKE"], "pile": ["U-PLAIN"]}})
    d = _use(g, "Strike")
    assert d.prompt == "apply_replacement" and d.player == 0
    g.answer(["yes"])
    g.advance()
    assert g.state.vars.get("hits") is None, "replaced: the event did not happen"
    assert g.state.vars["dodged"] == 1 and g.state.vars["log"] == ["before"]
    assert [g.state.objects[o].card_id for o in g.state.zone("discard", 0)][-1] == "U-PLAIN", "cost paid"
    # Once a turn: the second hit is not offered to it.
    _use(g, "Strike")
    assert g.state.vars["hits"] == [10]


def test_a_replacement_whose_cost_cannot_be_paid_is_not_offered(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-DODGE"], "hand": ["T-STRIKE"]}})
    d = _use(g, "Strike")
    assert d is None or d.prompt != "apply_replacement"
    assert g.state.vars["hits"] == [10]


def test_declining_an_optional_replacement_lets_the_event_happen(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-DODGE"], "hand": ["T-STRIKE"], "pile": ["U-PLAIN"]}})
    _use(g, "Strike")
    g.answer(["no"])
    g.advance()
    assert g.state.vars["hits"] == [10] and g.state.vars.get("dodged") is None
    assert g.state.zone("discard", 0) == [], "no cost paid"


def test_uses_per_game_outlasts_the_turn(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["T-ONCE"]}})
    d = _use(g, "Once")
    assert g.state.vars["onces"] == 1
    assert not any(o.id.startswith("use:") for o in d.options), "used up"
    g.state.ability_uses.clear()  # a new turn clears the uses of the turn, not those of the game
    from interpreter.derive.abilities import limit_ok

    obj = next(o for o in g.state.objects.values() if o.card_id == "T-ONCE")
    ab = g.abilities_of(obj)[0]
    assert ab.game_limit == 1 and ab.limit is None
    assert not limit_ok(g, obj, ab)
    assert g.state.copy().ability_uses_game == g.state.ability_uses_game


def test_when_idle_delayed_trigger_waits_for_everything_else(tmp_path):
    g = _game(tmp_path, {"P1": {"field": ["U-PINGED"], "hand": ["T-ENCORE"]}})
    _use(g, "Encore")
    # The ping's auto ability (the step's ping, then the Encore's) resolved first; the idle trigger
    # only then.
    i_ping = max(i for i, t in enumerate(texts(g)) if "Pinged" in t and "resolves" in t)
    i_idle = texts(g).index("a delayed trigger triggers (nothing else remains)")
    assert i_ping < i_idle
    assert g.state.vars["log"] == ["played", "idle"] and g.state.vars["pinged"] == 2
    assert not any(e.kind == "delayed_trigger" for e in g.state.effects), "it fires once"


def test_play(tmp_path):
    # play() helper sanity on this variant: the give_up action still works.
    g = _game(tmp_path, {"P1": {"field": ["U-PLAIN"]}})
    play(g, ["give_up"])
    assert g.state.vars.get("gave_up") == 0
