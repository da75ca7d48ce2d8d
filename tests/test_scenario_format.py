"""The scenario format's starting players (counters, statuses), preset pending abilities, the pending
list expectation and scripted concessions: they work, and bad ones are located errors."""

from __future__ import annotations

from pathlib import Path

import yaml

from interpreter.scenarios.runner import run_scenario

ROOT = Path(__file__).resolve().parents[1]

BASE = {
    "id": "fmt", "title": "format check", "rulebook": "haikyu", "rules": ["5-4-2"],
    "cards": [str(ROOT / "cards" / "haikyu"), str(ROOT / "tests" / "data" / "haikyu")],
    "setup": {"start_at": "serve_free_step", "roles": {"server": "P1", "current": "P1", "waiting": "P2"},
              "vars": {"sets_played": 1, "serve_turn": True},
              "zones": {"P1": {"serve_area": ["SGH-021"], "block_center": ["PRB-022"]},
                        "P2": {"block_center": ["PRB-022"]}}},
}


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True  # Sogo refuses YAML aliases: write repeated values out in full


def run(tmp_path, **changes):
    sc = yaml.safe_load(yaml.safe_dump(BASE))
    for key, value in changes.items():
        if key.startswith("setup_"):
            sc["setup"][key[len("setup_"):]] = value
        else:
            sc[key] = value
    path = tmp_path / "fmt.yaml"
    path.write_text(yaml.dump(sc, Dumper=_NoAliases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return run_scenario(path)


def messages(outcome):
    return [d.message for d in outcome.diagnostics]


def test_pending_list_expectation(tmp_path):
    pending = [{"player": "P1", "zone": "block_center", "card": "PRB-022", "ability": 1},
               {"player": "P2", "zone": "block_center", "card": "PRB-022", "ability": 2}]
    ok = run(tmp_path, setup_pending=pending, stop={"at": "serve_free_step"},
             expect={"pending": pending})
    assert ok.passed, messages(ok)
    wrong = run(tmp_path, setup_pending=pending, stop={"at": "serve_free_step"},
                expect={"pending": list(reversed(pending))})
    assert not wrong.passed and "expected pending" in messages(wrong)[0]


def test_counters_and_statuses_start_and_are_checked(tmp_path):
    players = {"P1": {"counters": {"tokens": 3}, "statuses": ["probe_mark"]}}
    ok = run(tmp_path, setup_players=players, stop={"at": "serve_free_step"},
             expect={"players": {"P1": {"counters": {"tokens": 3}, "statuses": ["probe_mark"]},
                                 "P2": {"counters": {"tokens": 0}, "statuses": []}}})
    assert ok.passed, messages(ok)
    wrong = run(tmp_path, setup_players=players, stop={"at": "serve_free_step"},
                expect={"players": {"P1": {"counters": {"tokens": 2}, "statuses": []}}})
    assert sorted(messages(wrong)) == ["P1: expected counter tokens = 2, got 3",
                                       "P1: expected statuses [], got ['probe_mark']"]


def test_concession_ends_the_game(tmp_path):
    out = run(tmp_path, answers=[{"concede": "P1"}], expect={"result": "P2"})
    assert out.passed, messages(out)


def test_bad_players_pending_and_concessions_are_located(tmp_path):
    out = run(tmp_path, setup_players={"P3": {"counters": {"x": 1}}},
              setup_pending=[{"player": "P1", "zone": "block_center", "card": "PRB-022", "ability": 5},
                             {"player": "P1", "zone": "hand", "card": "PRB-022", "ability": 1}],
              answers=[{"concede": "P4"}])
    text = "\n".join(str(d) for d in out.diagnostics)
    assert not out.passed
    assert "setup.players: no player P3 (this game has P1 and P2)" in text
    assert "setup.pending: PRB-022 has no triggered ability 5 (its triggered abilities: 1, 2)" in text
    assert "setup.pending: no PRB-022 is placed in P1 hand (setup.zones)" in text
    assert "answer 1: no player P4" in text
    assert all(":" in str(d).split(" ")[0] for d in out.diagnostics)  # file:line:col first



# -- when placed cards came, checks of what is offered, automatic passes, one refusal message ------

LOVELIVE = {
    "id": "fmt_ll", "title": "format check", "rulebook": "lovelive", "rules": ["9.6.2"],
    "setup": {"start_at": "first_normal_phase.main_phase", "turn": 2,
              "zones": {"P1": {"hand": ["SGL-M02"], "energy_zone": ["SGL-E01"], "main_deck": ["SGL-M01"]}}},
}
PLAY_OR_PASS = "play_member:c2 (play_member Kaede Minase [SGL-M02#2]), pass (pass)"
"""What P1's main phase offers in LOVELIVE (its energy card is object 1, the member in hand 2)."""


def run_ll(tmp_path, **changes):
    sc = yaml.safe_load(yaml.safe_dump(LOVELIVE))
    for key, value in changes.items():
        if key.startswith("setup_"):
            sc["setup"][key[len("setup_"):]] = value
        else:
            sc[key] = value
    path = tmp_path / "fmt_ll.yaml"
    path.write_text(yaml.dump(sc, Dumper=_NoAliases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return run_scenario(path)


def located(outcome):
    """Every diagnostic as `TEXT: message`, TEXT the scenario's text where it points (to its line's end)."""
    lines = Path(outcome.path).read_text(encoding="utf-8").splitlines()
    return [f"{lines[d.line - 1][d.col - 1:].strip()}: {d.message}" for d in outcome.diagnostics]


def test_entered_turn_sets_the_engines_record_and_the_arrival_marks(tmp_path):
    zones = {"P1": {"member_left": [{"card": "SGL-M05", "entered_turn": 1, "under": ["SGL-E01"]}],
                    "member_right": ["SGL-M05"], "main_deck": ["SGL-M01"]}}
    states = [{"player": "P1", "zone": "member_left", "card": "SGL-M05", "marks": {"arrived": 1}},
              {"player": "P1", "zone": "member_right", "card": "SGL-M05", "marks": {"arrived": None}}]
    out = run_ll(tmp_path, setup_zones=zones, stop={"when": "answers_used"}, expect={"states": states})
    assert out.passed, messages(out)
    objs = {(o.zone, o.holder is None): o for o in out.game.state.objects.values()}
    assert objs[("member_left", True)].entered_turn == 1
    assert objs[("member_left", False)].entered_turn == 1 and objs[("member_left", False)].marks["arrived"] == 1
    assert objs[("member_right", True)].entered_turn == 2     # the default: this turn, no arrival mark
    wrong = run_ll(tmp_path, setup_zones=zones, stop={"when": "answers_used"},
                   expect={"states": [{"player": "P1", "zone": "member_left", "card": "SGL-M05",
                                       "marks": {"arrived": 2}}]})
    assert messages(wrong) == ["SGL-M05 in member_left: expected mark arrived 2, got 1"]


def test_entered_turn_misuse_is_located(tmp_path):
    zones = {"P1": {"member_left": [{"card": "SGL-M05", "entered_turn": 3}],
                    "member_right": [{"card": "SGL-M05", "marks": {"arrived": 1}}]}}
    out = run_ll(tmp_path, setup_zones=zones)
    assert located(out) == [
        "3: setup.zones.P1.member_left: entered_turn 3 is after the scenario's turn (2)",
        "arrived: 1: setup.zones.P1.member_right: 'arrived' is this zone's arrival mark: give the card's "
        "entered_turn instead, which sets it and the engine's record of the turn alike"]


def test_answers_used_stops_at_a_pass_the_engine_makes(tmp_path):
    """Before, the game ran on through every automatic pass, here for thousands of turns to a draw
    by the loop cap; now it stops at the first one after the script, unless an auto_pass entry takes
    it, and the game goes on to the next."""
    play = ["play_member:SGL-M02", "z:member_center"]
    out = run_ll(tmp_path, answers=play, stop={"when": "answers_used"},
                 expect={"result": "none", "turn": 2, "zones": {"P1": {"member_center": ["SGL-M02"]}},
                         "no_log": [{"text": "P1 passes"}]})
    assert out.passed, messages(out)
    on = run_ll(tmp_path, answers=[*play, {"auto_pass": "P1", "not_offered": ["play_member"]}],
                stop={"when": "answers_used"},
                expect={"result": "none", "turn": 2, "log": [{"text": "P1 passes"}],
                        "no_log": [{"text": "P2 passes"}]})
    assert on.passed, messages(on)


def test_auto_pass_meeting_an_asked_decision_is_refused(tmp_path):
    out = run_ll(tmp_path, answers=[{"auto_pass": "P1", "not_offered": ["play_member:SGL-M02"]}])
    assert located(out) == [
        "P1: answer 1 ({auto_pass: P1, not_offered: [play_member:SGL-M02]}) refused at P1 play_timing "
        "(choose 1 of 2): expected P1 to pass by itself here (passing the only legal answer), but P1 is asked, "
        f"and play_member:SGL-M02 is offered; offered: {PLAY_OR_PASS}"]


def test_offered_and_not_offered_checks(tmp_path):
    zones = {"P1": {"hand": ["SGL-M02"], "energy_zone": ["SGL-E01"], "main_deck": ["SGL-M01"],
                    "member_right": [{"card": "SGL-M05", "entered_turn": 2}]}}
    ok = run_ll(tmp_path, setup_zones=zones, answers=[
        {"player": "P1", "offered": ["play_member", "SGL-M02"], "not_offered": ["SGL-M05"],
         "choose": "play_member:SGL-M02"},
        {"not_offered": ["z:member_right"], "offered": ["z:member_left"], "choose": "z:member_center"}],
        stop={"when": "answers_used"}, expect={"zones": {"P1": {"member_center": ["SGL-M02"]}}})
    assert ok.passed, messages(ok)
    wrong = run_ll(tmp_path, setup_zones=zones, answers=[
        "play_member:SGL-M02", {"not_offered": ["z:member_left"], "offered": ["z:member_right"],
                                "choose": "z:member_center"}])
    assert located(wrong) == [
        "z:member_right: answer 2: expected 'z:member_right' to be offered at P1 choose_member_area (choose 1 of "
        "2), but it is not; offered: z:member_left (member_left), z:member_center (member_center)",
        "z:member_left: answer 2: expected 'z:member_left' not to be offered at P1 choose_member_area (choose 1 "
        "of 2), but it is: z:member_left (member_left)"]


def test_misspelt_names_in_checks_are_located_before_the_game_runs(tmp_path):
    out = run_ll(tmp_path, answers=[
        {"not_offered": ["play_membr:SGL-M02", "play_member:SGL-X99", "z:member_middle"], "choose": "pass"}])
    assert located(out) == [
        "play_membr:SGL-M02: answer 1 not_offered: 'play_membr:SGL-M02': no action 'play_membr' in this "
        "rulebook (known: play_member, activate_ability); write ACTION:CARD_ID",
        "play_member:SGL-X99: answer 1 not_offered: unknown card 'SGL-X99'",
        "z:member_middle: answer 1 not_offered: unknown zone 'member_middle'"]


def test_every_refusal_reads_the_same(tmp_path):
    """No option matches, another player is asked, too many picks: one message each, naming the
    entry, the decision and what it offers; the play stops there, so no later check can pass."""
    no_match = run_ll(tmp_path, answers=["play_member:SGL-M01", {"not_offered": ["SGL-M05"], "choose": "pass"}])
    assert located(no_match) == [
        "play_member:SGL-M01: answer 1 (play_member:SGL-M01) refused at P1 play_timing (choose 1 of 2): no "
        f"option matches 'play_member:SGL-M01'; offered: {PLAY_OR_PASS}"]
    other_player = run_ll(tmp_path, answers=[{"player": "P2", "choose": "pass"}])
    assert located(other_player) == [
        "P2: answer 1 ({player: P2, choose: pass}) refused at P1 play_timing (choose 1 of 2): it is P1's "
        f"decision, not P2's; offered: {PLAY_OR_PASS}"]
    too_many = run_ll(tmp_path, answers=[["play_member:SGL-M02", "pass"]])
    assert located(too_many) == [
        "- play_member:SGL-M02: answer 1 ([play_member:SGL-M02, pass]) refused at P1 play_timing (choose 1 of "
        f"2): it takes 1 pick(s), the answer gives 2; offered: {PLAY_OR_PASS}"]


def test_an_error_after_an_accepted_answer_is_not_a_refusal(tmp_path, monkeypatch):
    from interpreter.engine.game import Game
    from interpreter.state.errors import GameError

    def broken(self, ids):
        raise GameError("rulebook step failed")

    monkeypatch.setattr(Game, "answer", broken)
    out = run_ll(tmp_path, answers=["play_member:SGL-M02"])
    assert located(out) == ["play_member:SGL-M02: after answer 1 (play_member:SGL-M02): rulebook step failed"]


def test_card_counters_are_checked(tmp_path):
    zones = {"P1": {"member_left": [{"card": "SGL-M05", "counters": {"tokens": 2}}], "main_deck": ["SGL-M01"]}}
    ok = run_ll(tmp_path, setup_zones=zones, stop={"when": "answers_used"},
                expect={"states": [{"player": "P1", "zone": "member_left", "card": "SGL-M05",
                                    "counters": {"tokens": 2, "other": 0}}]})
    assert ok.passed, messages(ok)
    wrong = run_ll(tmp_path, setup_zones=zones, stop={"when": "answers_used"},
                   expect={"states": [{"player": "P1", "zone": "member_left", "card": "SGL-M05",
                                       "counters": {"tokens": 3}}]})
    assert messages(wrong) == ["SGL-M05 in member_left: expected counter tokens 3, got 2"]
