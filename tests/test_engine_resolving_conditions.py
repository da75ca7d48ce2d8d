"""Condition keywords checked when an ability resolves (`checked_when_resolving`, Re:Birth 11.2.3):
an auto ability triggers whether or not the condition holds and does not resolve if it fails then;
an activated ability is still offered only while it holds; continuous abilities are unaffected."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from toy_engine import TOY

from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game

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


def _env(tmp_path: Path) -> tuple[Any, Any]:
    d = tmp_path / "toy"
    shutil.copytree(TOY, d)
    text = (d / "all.yaml").read_text(encoding="utf-8")
    text = text.replace("  - {id: on_ping, rules: [\"4\"], kind: trigger, trigger: {event: ping}}",
                        "  - {id: on_ping, rules: [\"4\"], kind: trigger, trigger: {event: ping}}\n"
                        "  - {id: when_one, rules: [\"4\"], kind: condition, group: when, if: \"stage == 1\",\n"
                        "     checked_when_resolving: true}\n"
                        "  - {id: when_two, rules: [\"4\"], kind: condition, group: when, if: \"stage == 2\",\n"
                        "     checked_when_resolving: true}")
    (d / "all.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "c.yaml").write_text(CARDS, encoding="utf-8")
    rb = load_rulebook(str(d))
    return rb, load_cards(rb, [TOY / "cards", tmp_path / "cards"])


def _game(env: tuple[Any, Any], zones: dict[str, Any]) -> Any:
    rb, cards = env
    sc = {"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                    "vars": {"resolved": 0}, "zones": zones}}
    return build_game(sc, rb, cards)


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
