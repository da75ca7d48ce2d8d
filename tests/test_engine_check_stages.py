"""Check timing in stages (check_timing.stages): a stage that does anything sends the procedure back
to the first stage; a `one_action` stage carries out only the first process binding that applies; a
loss checked in the last stage comes after pending abilities (Re:Birth 9.6.2, hololive 11.3)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY

from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game

PROCESSES = """
rule_processing:
  id: rule_processing
  rules: ["10"]
  processes:
    - id: noticed_alone
      rules: ["10"]
      {stage_recovery}
      for_each_player: "[turn_player, other(turn_player)]"
      if: "alone_seen == null and count(cards('pile', p)) == 1 and count(cards('pile', other(p))) == 0"
      do:
        - set_var: {{name: alone_seen, value: "p"}}
    - id: fill_pile
      rules: ["10"]
      {stage_entry}
      for_each_player: "[turn_player, other(turn_player)]"
      if: "count(cards('pile', p)) == 0 and count(cards('deck', p)) > 0"
      do:
        - move: {{cards: "top('deck', p, 1)", to: pile, player: "p"}}
    - id: defeat
      rules: ["10"]
      {stage_defeat}
      for_each_player: "[turn_player, other(turn_player)]"
      if: "count(cards('discard', p)) >= 1"
      do:
        - lose: {{player: "p"}}
"""

STAGES = """check_timing:
  id: check_timing
  rules: ["7"]
  order:
    - {id: ct_mover, rules: ["7"], player: turn_player}
    - {id: ct_other, rules: ["7"], players: "[other(turn_player)]"}
  stages:
    - {id: recovery, rules: ["7"], processes: recovery}
    - {id: autos, rules: ["7"], pending: true}
    - {id: entry, rules: ["7"], processes: entry, one_action: true}
    - {id: defeat_stage, rules: ["7"], processes: defeat}
"""


def _rulebook(tmp_path: Path, staged: bool, **override: str) -> Any:
    d = tmp_path / ("staged" if staged else "plain")
    shutil.copytree(TOY, d)
    text = (d / "all.yaml").read_text(encoding="utf-8")
    if staged:
        start = text.index("check_timing:")
        end = text.index("play_timing:")
        text = text[:start] + override.get("stages", STAGES) + text[end:]
    names = {"stage_recovery": "stage: recovery", "stage_entry": "stage: entry", "stage_defeat": "stage: defeat"}
    if not staged:
        names = {k: "" for k in names}
    names.update({k: v for k, v in override.items() if k.startswith("stage_")})
    text += PROCESSES.format(**names)
    (d / "all.yaml").write_text(text, encoding="utf-8")
    rb = load_rulebook(str(d))
    return rb, load_cards(rb, [TOY / "cards"])


def _game(rb: Any, cards: Any, zones: dict[str, Any]) -> Any:
    sc = {"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                    "vars": {"alone_seen": None}, "zones": zones}}
    return build_game(sc, rb, cards)


def _cards(g: Any, zone: str, player: int) -> list[str]:
    return [g.state.objects[oid].card_id for oid in g.state.zone(zone, player)]


def _to_play_timing(g: Any) -> Any:
    d = g.advance()
    assert d is not None and d.kind != "choose_pending_ability"
    return d


ZONES = {"P1": {"field": ["U-SALVAGE"], "discard": ["U-PLAIN"], "deck": ["U-PLAIN", "U-DASH"]},
         "P2": {"deck": ["U-PLAIN", "U-DASH"], "pile": []}}


def test_pending_abilities_come_before_the_loss_stage(tmp_path):
    rb, cards = _rulebook(tmp_path, staged=True)
    g = _game(rb, cards, ZONES)
    _to_play_timing(g)
    assert g.state.result is None, "the auto ability emptied the discard pile before the defeat stage"
    assert _cards(g, "hand", 0) == ["U-PLAIN"]


def test_without_stages_rule_processes_come_first(tmp_path):
    rb, cards = _rulebook(tmp_path, staged=False)
    g = _game(rb, cards, ZONES)
    g.advance()
    assert g.state.result is not None and g.state.result["outcome"] == "win"
    assert g.state.result["winner"] == 1


def test_one_action_fills_one_pile_per_pass_turn_player_first(tmp_path):
    rb, cards = _rulebook(tmp_path, staged=True)
    g = _game(rb, cards, ZONES)
    _to_play_timing(g)
    # After the turn player's pile was filled the procedure went back to the first stage, which saw
    # that pile alone before the other player's was filled.
    assert g.state.vars["alone_seen"] == 0
    assert len(_cards(g, "pile", 0)) == 1 and len(_cards(g, "pile", 1)) == 1
    fills = [e.text for e in g.entries if e.text == "rule process fill_pile"]
    assert len(fills) == 2


def test_all_at_once_when_not_one_action(tmp_path):
    rb, cards = _rulebook(tmp_path, staged=True, stages=STAGES.replace(", one_action: true", ""))
    g = _game(rb, cards, ZONES)
    _to_play_timing(g)
    assert g.state.vars["alone_seen"] is None  # both piles were filled in one simultaneous action
    assert len(_cards(g, "pile", 0)) == 1 and len(_cards(g, "pile", 1)) == 1


def test_unknown_stage_is_reported_at_its_line(tmp_path):
    with pytest.raises(LoadError) as err:
        _rulebook(tmp_path, staged=True, stage_defeat="stage: defeet")
    text = str(err.value)
    assert "all.yaml:" in text and "unknown check-timing stage 'defeet'" in text


def test_process_without_stage_is_reported(tmp_path):
    with pytest.raises(LoadError) as err:
        _rulebook(tmp_path, staged=True, stage_defeat="")
    assert "needs a `stage`" in str(err.value)
    assert "no rule process has stage 'defeat'" in str(err.value)


def test_an_interrupt_held_back_by_a_batch_happens_when_the_batch_ends(tmp_path: Path) -> None:
    """A rule-process batch is one action, so no interrupt runs inside it; what it did that calls for
    one (a deck it emptied, for a refresh) is handled as soon as it ends, not at some later move."""
    from toy_engine import game_of, toy_variant

    procs = """
rule_processing:
  id: rule_processing
  rules: ["10"]
  processes:
    - id: fill_pile
      rules: ["10"]
      stage: fill
      for_each_player: "[turn_player]"
      if: "count(cards('pile', p)) == 0 and count(cards('deck', p)) > 0"
      do:
        - move: {cards: "top('deck', p, 1)", to: pile, player: "p"}
    - id: empty_deck_noticed
      rules: ["10"]
      when: always
      for_each_player: "[turn_player]"
      if: "noticed == null and count(cards('deck', p)) == 0"
      do:
        - set_var: {name: noticed, value: "stage"}
"""
    stages = ('    - {id: ct_other, rules: ["7"], player: non_turn_player}',
              '    - {id: ct_other, rules: ["7"], player: non_turn_player}\n'
              '  stages:\n    - {id: fill_stage, rules: ["7"], processes: fill}\n'
              '    - {id: autos, rules: ["7"], pending: true}')
    g = game_of(toy_variant(tmp_path, append=procs, replace=(stages,)), {"P1": {"deck": ["U-PLAIN"]}})
    g.stop_at = "three"
    while (d := g.advance()) is not None:
        g.answer([d.options[-1].id])
    assert g.state.vars.get("noticed") == 1, "noticed at step one's check timing, right after the batch"


def test_a_stage_until_none_repeats_before_the_others_look(tmp_path: Path) -> None:
    """`until_none`: a one-action stage repeats until nothing of it applies before the procedure starts
    over, so an earlier stage never sees it half done (hololive 11.3.2: every down before the losses)."""
    from toy_engine import game_of, toy_variant

    procs = """
rule_processing:
  id: rule_processing
  rules: ["10"]
  processes:
    - id: half_seen
      rules: ["10"]
      stage: watch
      if: "half == null and count(cards('pile', 0)) + count(cards('pile', 1)) == 1"
      do:
        - set_var: {name: half, value: true}
    - id: fill_pile
      rules: ["10"]
      stage: fill
      for_each_player: "[turn_player, other(turn_player)]"
      if: "count(cards('pile', p)) == 0 and count(cards('deck', p)) > 0"
      do:
        - move: {cards: "top('deck', p, 1)", to: pile, player: "p"}
"""
    for until_none, half in ((False, True), (True, None)):
        flag = ", until_none: true" if until_none else ""
        stages = ('    - {id: ct_other, rules: ["7"], player: non_turn_player}',
                  '    - {id: ct_other, rules: ["7"], player: non_turn_player}\n'
                  '  stages:\n    - {id: watch_stage, rules: ["7"], processes: watch}\n'
                  f'    - {{id: fill_stage, rules: ["7"], processes: fill, one_action: true{flag}}}\n'
                  '    - {id: autos, rules: ["7"], pending: true}')
        env = toy_variant(tmp_path / str(until_none), append=procs, replace=(stages,))
        g = game_of(env, {"P1": {"deck": ["U-PLAIN"]}, "P2": {"deck": ["U-PLAIN"]}})
        g.stop_at = "three"
        while (d := g.advance()) is not None:
            g.answer([d.options[-1].id])
        assert len(g.state.zone("pile", 0)) == len(g.state.zone("pile", 1)) == 1
        assert g.state.vars.get("half") == half
