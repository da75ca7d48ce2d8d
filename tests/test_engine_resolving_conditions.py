"""Condition keywords checked when an ability resolves (`checked_when_resolving`, Re:Birth 11.2.3):
an auto ability triggers whether or not the condition holds and does not resolve if it fails then;
an activated ability is still offered only while it holds; continuous abilities are unaffected."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, toy_variant

CARDS = """game: toy
cards:
  - id: T-WATCHER-ONE
    type: unit
    name: Watcher One
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping, when_one]
        effect:
          - set_var: {name: resolved, value: "sum([resolved]) + 1"}
  - id: T-WATCHER-TWO
    type: unit
    name: Watcher Two
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping, when_two]
        effect:
          - set_var: {name: resolved, value: "sum([resolved]) + 1"}
  - id: T-LEVER-ONE
    type: unit
    name: Lever One
    power: 1
    abilities:
      - kind: quick
        keywords: [when_one]
        effect:
          - set_var: {name: pulled, value: true}
  - id: T-LEVER-TWO
    type: unit
    name: Lever Two
    power: 1
    abilities:
      - kind: quick
        keywords: [when_two]
        effect:
          - set_var: {name: pulled, value: true}
"""


CONDITIONS = """  - {id: when_one, rules: ["4"], kind: condition, group: when, if: "stage == 1",
     checked_when_resolving: true}
  - {id: when_two, rules: ["4"], kind: condition, group: when, if: "stage == 2",
     checked_when_resolving: true}"""


def _env(tmp_path: Path) -> tuple[Any, Any]:
    keyword = "  - {id: on_ping, rules: [\"4\"], kind: trigger, trigger: {event: ping}}"
    return toy_variant(tmp_path, cards=CARDS, replace=((keyword, keyword + "\n" + CONDITIONS),))


def _game(env: tuple[Any, Any], zones: dict[str, Any]) -> Any:
    return game_of(env, zones, {"resolved": 0})


def test_auto_ability_triggers_but_does_not_resolve_when_unmet(tmp_path):
    # The ping comes in the first step (stage 1): the condition "stage 2" fails when it triggers and
    # when it resolves, at the check timing of that step.
    g = _game(_env(tmp_path), {"P1": {"field": ["T-WATCHER-TWO"]}})
    g.advance()
    texts = [e.text for e in g.entries]
    assert any("triggers" in t and "Watcher Two" in t for t in texts), "it triggered although the condition failed"
    assert any("does not resolve (its condition no longer holds)" in t for t in texts)
    assert g.state.vars["resolved"] == 0


def test_auto_ability_resolves_when_met(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-WATCHER-ONE"]}})
    g.advance()
    assert g.state.vars["resolved"] == 1


def test_activated_ability_offered_only_while_met(tmp_path):
    env = _env(tmp_path)
    off = _game(env, {"P1": {"field": ["T-LEVER-TWO"]}})
    d = off.advance()
    assert d is None or not any(o.id.startswith("use:") for o in d.options)
    on = _game(env, {"P1": {"field": ["T-LEVER-ONE"]}})
    d = on.advance()
    assert any(o.id.startswith("use:") for o in d.options)
