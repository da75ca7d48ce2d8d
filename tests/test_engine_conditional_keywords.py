"""Keywords behind a condition prefix, on the toy rulebook: a keyword of an ability with condition
keywords ("(condition) keyword") is there, for `has_keyword` and what is written with it (a
`choosing.unchoosable` entry), only while the ability's conditions hold; a keyword of an ability
without conditions always is; a condition keyword itself always is (a card "with" that condition)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, play, toy_variant

from interpreter.table.context import Ctx
from interpreter.table.functions import f_has_keyword

KEYWORDS = (
    '  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}\n',
    '  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}\n'
    '  - {id: veiled, rules: ["4"], kind: notation}\n'
    '  - {id: crowded, rules: ["4"], kind: condition, group: crowd, if: "count(cards(\'field\', you)) >= 2"}\n'
    '  - {id: self_asking, rules: ["4"], kind: condition, group: odd, if: "has_keyword(this, \'veiled\')"}\n',
)

CHOOSING = """choosing:
  id: choosing
  rules: ["7"]
  unchoosable:
    - {id: veiled_from_foes, rules: ["7"], if: "has_keyword(it, 'veiled') and it.controller != you"}
"""

CARDS = """game: toy
cards:
  - id: K-VEIL
    type: unit
    name: Veil
    power: 1
    abilities:
      - kind: aura
        keywords: [veiled]
        effect: {}
  - id: K-CROWD-VEIL
    type: unit
    name: Crowd Veil
    power: 1
    abilities:
      - kind: aura
        keywords: [crowded, veiled]
        effect: {}
  - id: K-ODD
    type: unit
    name: Odd
    power: 1
    abilities:
      - kind: aura
        keywords: [self_asking, veiled]
        effect: {}
  - id: K-SNIPE
    type: unit
    name: Snipe
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('field', other(you))", min: 0, max: 1, as: target}
          - move: {cards: "target", to: discard}
"""


def _env(tmp_path: Path) -> Any:
    return toy_variant(tmp_path, replace=(KEYWORDS,), append=CHOOSING, cards=CARDS)


def _has(g: Any, card_id: str, keyword: str) -> bool:
    obj = next(o for o in g.state.objects.values() if o.card_id == card_id)
    return f_has_keyword(Ctx(g, None, you=0), obj, keyword)


def test_a_keyword_behind_a_condition_is_there_only_while_it_holds(tmp_path):
    env = _env(tmp_path)
    alone = game_of(env, {"P1": {"field": ["K-CROWD-VEIL"]}})
    assert not _has(alone, "K-CROWD-VEIL", "veiled")                      # one card on the field
    crowd = game_of(env, {"P1": {"field": ["K-CROWD-VEIL", "U-PLAIN"]}})
    assert _has(crowd, "K-CROWD-VEIL", "veiled")                          # two: the condition holds


def test_a_condition_keyword_itself_is_always_there(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"field": ["K-CROWD-VEIL"]}})
    assert _has(g, "K-CROWD-VEIL", "crowded")


def test_a_keyword_without_a_condition_of_its_own_follows_the_default_keywords(tmp_path):
    # The toy unit's abilities take the default keyword on_board (a condition on where the card is).
    g = game_of(_env(tmp_path), {"P1": {"field": ["K-VEIL"], "hand": ["K-VEIL"]}})
    on_field, in_hand = (o for o in sorted(g.state.objects.values(), key=lambda o: o.zone != "field")
                         if o.card_id == "K-VEIL")
    assert on_field.zone == "field" and f_has_keyword(Ctx(g, None, you=0), on_field, "veiled")
    assert in_hand.zone == "hand" and not f_has_keyword(Ctx(g, None, you=0), in_hand, "veiled")


def test_a_condition_asking_about_its_own_keyword_does_not_hold(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"field": ["K-ODD"]}})
    assert not _has(g, "K-ODD", "veiled")


def _snipe_offers(env: Any, p2_field: list[str]) -> list[str]:
    g = game_of(env, {"P1": {"field": ["K-SNIPE"]}, "P2": {"field": p2_field}})
    d = play(g, [])
    g.answer([next(i for i in d.ids() if i.startswith("use:"))])
    d = g.advance()
    return sorted(g.state.objects[o.value.oid].card_id for o in d.options if o.value is not None)


def test_an_unchoosable_entry_written_with_has_keyword_follows_the_condition(tmp_path):
    env = _env(tmp_path)
    assert _snipe_offers(env, ["K-CROWD-VEIL"]) == ["K-CROWD-VEIL"]               # alone: not veiled
    assert _snipe_offers(env, ["K-CROWD-VEIL", "U-PLAIN"]) == ["U-PLAIN"]         # crowded: veiled
    assert _snipe_offers(env, ["K-VEIL", "U-PLAIN"]) == ["U-PLAIN"]               # always veiled
