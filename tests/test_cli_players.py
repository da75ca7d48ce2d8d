"""More than two players on the command line (issue 20): `--players N` for play and simulate, one
deck and one agent per seat, `--format`, per-player win totals, replays of N-seat games, scenarios of
rulebooks without first/second roles.

The games are a toy rulebook made playable (tests/data/toy with a setup that names the turn player,
a turn that passes to the next player in, and a player whose deck is empty losing), copied into a
temporary folder with `players: count: 3`, seat counts 2-4 and a format `pairs` (two teams of two).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import run
from toy_engine import TOY

from interpreter.cli.setup import SetupError, load_game_env, seat_counts
from interpreter.loader.diagnostics import LoadError
from interpreter.replay import Replay
from interpreter.sim import aggregate, format_summary

PAIRS = """id: pairs
rules: ["1"]
players: {id: pairs_players, rules: ["1"], count: 4}
teams: {id: pairs_teams, rules: ["1"], seats: [[1, 3], [2, 4]], lose_together: true}
"""


def _deck(path: Path, ids: list[str]) -> Path:
    lines = "".join(f"    - {{card: {c}, count: 1}}\n" for c in ids)
    path.write_text(f"game: toy\nname: {path.stem}\ndecks:\n  deck:\n{lines}", encoding="utf-8")
    return path


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A playable toy rulebook for three players (2 to 4 allowed), its cards and two sample decks on
    the card search path; returns the rulebook directory."""
    d = tmp_path / "rulebooks" / "toy"
    shutil.copytree(TOY, d, ignore=shutil.ignore_patterns("cards"))
    head = (d / "rulebook.yaml").read_text(encoding="utf-8")
    head = head.replace("count: 2}", "count: 3, counts: [2, 3, 4]}").replace("parts:", "formats: [pairs]\nparts:")
    (d / "rulebook.yaml").write_text(head, encoding="utf-8")
    (d / "formats").mkdir()
    (d / "formats" / "pairs.yaml").write_text(PAIRS, encoding="utf-8")
    text = (d / "all.yaml").read_text(encoding="utf-8")
    for old, new in (
        ('    - {id: ct_other, rules: ["7"], player: non_turn_player}',
         '    - {id: ct_other, rules: ["7"], players: "opponents(turn_player)"}'),
        ("        - set_var: {name: stage, value: 1}\n",
         "        - set_var: {name: stage, value: 1}\n"
         "        - if:\n"
         "            cond: \"count(cards('deck', turn_player)) == 0\"\n"
         "            then:\n"
         "              - lose: {player: \"turn_player\"}\n"
         "            else:\n"
         "              - move: {cards: \"cards('deck', turn_player)[0]\", to: discard}\n"),
        ("        - end_durations: {durations: [round]}\n",
         "        - end_durations: {durations: [round]}\n"
         "        - set_role: {role: mover, player: \"other(turn_player)\"}\n"),
        ('{id: total, rules: ["2"], where: true, exactly: 4}', '{id: total, rules: ["2"], where: true, at_least: 1}'),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    text += 'setup:\n  id: setup\n  rules: ["6"]\n  do:\n    - set_role: {role: mover, player: "players()[0]"}\n'
    (d / "all.yaml").write_text(text, encoding="utf-8")
    cards = tmp_path / "cards" / "toy"
    shutil.copytree(TOY / "cards", cards)
    _deck(cards / "deck-a.yaml", ["U-PLAIN"] * 4)
    _deck(cards / "deck-b.yaml", ["U-PLAIN", "U-PLAIN", "U-PLAIN"])  # shorter: its player runs out first
    monkeypatch.setenv("SOGO_CARDS", str(tmp_path / "cards"))
    monkeypatch.setenv("SOGO_RULEBOOKS", str(tmp_path / "rulebooks"))
    monkeypatch.chdir(tmp_path)  # a failed simulated game's replay is saved under ./sogo-failures
    return d


def _header(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_seat_counts_and_the_default_seats(toy: Path):
    rb, _, decks = load_game_env(str(toy), None)
    assert seat_counts(rb) == [2, 3, 4] and len(decks) == 3
    # the sample decks (a, b) are dealt to the seats in turn
    assert [len(d["deck"]) for d in decks] == [4, 3, 4]
    rb, _, decks = load_game_env(str(toy), None, players=4, fmt="pairs")
    assert seat_counts(rb) == [4] and len(decks) == 4 and rb.format["id"] == "pairs"
    with pytest.raises(SetupError) as err:
        load_game_env(str(toy), None, players=5)
    assert str(err.value) == "5 players: toy is played by 2, 3 or 4 players" and err.value.param == "--players"
    with pytest.raises(SetupError, match="3 players: toy \\(format pairs\\) is played by 4 players"):
        load_game_env(str(toy), None, players=3, fmt="pairs")


def test_an_unknown_format_is_a_located_error(toy: Path):
    with pytest.raises(LoadError, match="no format 'quartet'"):
        load_game_env(str(toy), None, fmt="quartet")
    code, out, err = run("play", "toy", "--format", "quartet")
    assert code == 1 and "no format 'quartet' (this rulebook has: pairs)" in err and "Traceback" not in err


def test_play_three_players_to_the_end(toy: Path):
    code, out, err = run("play", "toy", "--players", "3", "--seed", "3")
    assert code == 0, err
    assert "P1 leaves the game" not in out or "P2 leaves the game" not in out  # someone is left to win
    assert out.splitlines()[-1].startswith("result: P") and " wins after " in out.splitlines()[-1]
    assert "P3 " in out  # a third seat played
    assert run("play", "toy", "--seed", "3")[1] == out, "3 is the rulebook's players.count"


def test_play_rejects_a_seat_count_the_game_does_not_allow(toy: Path):
    code, _, err = run("play", "toy", "--players", "5")
    assert code == 2
    assert "Invalid value for --players: 5 players: toy is played by 2, 3 or 4 players" in err
    code, _, err = run("play", "lovelive", "--players", "3")
    assert code == 2 and "3 players: lovelive is played by 2 players" in err
    code, _, err = run("simulate", "toy", "--players", "5", "-n", "1")
    assert code == 2 and "toy is played by 2, 3 or 4 players" in err


def test_agents_one_per_seat(toy: Path):
    code, _, err = run("play", "toy", "--players", "3", "--agents", "random,random")
    assert code == 2 and "Invalid value for --agents: need 3 agents, got 2" in err
    code, _, err = run("simulate", "toy", "-n", "1", "--players", "4", "--agents", "random,first,random")
    assert code == 2 and "need 4 agents, got 3" in err
    code, out, err = run("play", "toy", "--players", "3", "--agents", "first,random,first")
    assert code == 0, err


def test_decks_one_per_seat_cycled(toy: Path, tmp_path: Path):
    a = _deck(tmp_path / "a.yaml", ["U-PLAIN"])
    b = _deck(tmp_path / "b.yaml", ["U-PLAIN"] * 2)
    c = _deck(tmp_path / "c.yaml", ["U-PLAIN"] * 3)
    d = _deck(tmp_path / "d.yaml", ["U-PLAIN"] * 4)

    def seats(*args: str) -> list[int]:
        out = tmp_path / "r.jsonl"
        code, _, err = run("play", "toy", *args, "--save-replay", str(out))
        assert code == 0, err
        h = _header(out)
        assert h["players"] == len(h["decks"])
        return [len(x["deck"]) for x in h["decks"]]

    assert seats("--decks", str(a), str(b), str(c)) == [1, 2, 3]
    assert seats("--players", "4", "--decks", str(a), str(b), str(c), str(d)) == [1, 2, 3, 4]
    assert seats("--decks", str(b)) == [2, 2, 2], "one deck sits at every seat"
    assert seats("--players", "4", "--decks", str(a), str(c), "--seed", "2") == [1, 3, 1, 3]
    assert seats("--decks", str(c), str(a), "--players", "2") == [3, 1]
    assert seats("--players", "4") == [4, 3, 4, 3], "the sample decks, in turn"
    code, _, err = run("play", "toy", "--players", "2", "--decks", str(a), str(b), str(c))
    assert code == 2 and "Invalid value for --decks: 3 decks for 2 seats: give at most one deck per seat" in err
    code, _, err = run("play", "toy", "--decks")
    assert code == 2 and "--decks" in err


def test_simulate_counts_wins_by_player(toy: Path):
    code, out, err = run("simulate", "toy", "-n", "6", "--players", "3", "--workers", "1", "--json")
    assert code == 0, out + err
    s = json.loads(out)
    assert s["players"] == 3 and set(s["wins_by_player"]) == {"P1", "P2", "P3"}
    assert sum(s["wins_by_player"].values()) == sum(s["results"].values()) == 6
    code, out, _ = run("simulate", "toy", "-n", "6", "--players", "3", "--workers", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("toy (rules 1), 3 players: 6 games from seed 1")
    assert lines[2].startswith("wins:      P1 ") and "P3 " in lines[2]


def test_simulate_a_format_of_teams_counts_a_shared_win_for_each_winner(toy: Path):
    args = ("simulate", "toy", "--format", "pairs", "-n", "4", "--json")
    code, out, err = run(*args, "--workers", "1")
    assert code == 0, err
    s = json.loads(out)
    assert s["format"] == "pairs" and s["players"] == 4
    assert all("+" in k for k in s["results"]), s["results"]  # teammates win together
    assert sum(s["wins_by_player"].values()) == 2 * 4
    assert s["wins_by_team"] == {"P1+P3": s["results"].get("P1+P3", 0), "P2+P4": s["results"].get("P2+P4", 0)}
    parallel = json.loads(run(*args, "--workers", "2")[1])
    assert parallel["results"] == s["results"] and parallel["wins_by_player"] == s["wins_by_player"]
    text = run("simulate", "toy", "--format", "pairs", "-n", "4", "--workers", "1")[1]
    assert "toy (rules 1, format pairs), 4 players: 4 games" in text
    assert "(a shared win counts for each winner)" in text and "teams:     P1+P3 " in text


def test_the_dask_backend_plays_the_same_three_player_games(toy: Path):
    pytest.importorskip("dask.distributed")
    args = ("simulate", "toy", "-n", "4", "--players", "4", "--json")
    local = json.loads(run(*args, "--workers", "1")[1])
    dask = json.loads(run(*args, "--workers", "2", "--backend", "dask")[1])
    assert dask["backend"] == "dask" and dask["players"] == 4
    assert (dask["results"], dask["wins_by_player"], dask["mean_turns"]) == \
        (local["results"], local["wins_by_player"], local["mean_turns"])


def test_aggregate_counts_a_shared_win_for_each_winner(toy: Path):
    rb = load_game_env(str(toy), None)[0]
    outcomes = [{"seed": i, "key": k, "completed": True, "turns": 3, "decisions": 4}
                for i, k in enumerate(["P1+P3", "P2", "P1+P3", "draw", "P3"])]
    s = aggregate(rb, 5, 0, outcomes, None, players=3)
    assert s["results"] == {"P1+P3": 2, "P2": 1, "P3": 1, "draw": 1}
    assert s["wins_by_player"] == {"P1": 2, "P2": 1, "P3": 3}
    s.update(workers=1, backend="processes", seconds=0.1, games_per_second=50)
    assert "wins:      P1 2 (40.0%), P2 1 (20.0%), P3 3 (60.0%) (a shared win counts for each winner)" in \
        format_summary(s)


def test_two_player_summaries_keep_their_lines():
    s = {"game": "g", "rules_version": "1", "games": 2, "seed": 1, "workers": 1, "backend": "processes",
         "results": {"P1": 1, "P2": 1}, "wins_by_player": {"P1": 1, "P2": 1}, "players": 2, "completed": 2,
         "errors": 0, "error_samples": [], "mean_turns": 1, "mean_decisions": 1, "seconds": 1,
         "games_per_second": 2}
    assert "wins:" not in format_summary(s)


def test_replays_of_three_and_four_player_games(toy: Path, tmp_path: Path):
    rep = tmp_path / "three.jsonl"
    code, _, err = run("play", "toy", "--players", "3", "--seed", "5", "--save-replay", str(rep))
    assert code == 0, err
    h = _header(rep)
    assert h["players"] == 3 and len(h["decks"]) == 3 and "rulebook_format" not in h
    code, _, err = run("replay", str(rep), "--log", "none")
    assert code == 0 and "replay: reproduced" in err and "matches" in err, err
    code, _, err = run("validate", str(rep))
    assert code == 0, err

    rep4 = tmp_path / "pairs.jsonl"
    code, _, err = run("play", "toy", "--format", "pairs", "--seed", "5", "--save-replay", str(rep4))
    assert code == 0, err
    h = _header(rep4)
    assert h["players"] == 4 and h["rulebook_format"] == "pairs"
    code, _, err = run("replay", str(rep4), "--log", "none")
    assert code == 0 and " win, turn " in err and "matches" in err, err

    lines = rep.read_text(encoding="utf-8").splitlines()
    h["players"], h["decks"] = 2, _header(rep)["decks"]
    (tmp_path / "bad.jsonl").write_text("\n".join([json.dumps(h), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(LoadError, match="the header says 2 players but carries 3 decks"):
        Replay.load(tmp_path / "bad.jsonl")


SCENARIO = """id: toy_without_first_and_second
title: A scenario of a rulebook whose roles are not first and second, giving no roles
rulebook: {rulebook}
cards: [{rulebook}/cards/units.yaml]
rules: ["6"]
setup:
  start_at: three
  zones:
    P1: {{field: [U-PLAIN]}}
stop: {{at: one}}
expect:
  result: none
  vars: {{three_done: true}}
"""


def test_a_scenario_needs_no_first_or_second_role(tmp_path: Path):
    """The runner gave every scenario without setup.roles the roles first and second, which a rulebook
    without them does not have ("internal error: ValueError")."""
    sc = tmp_path / "scenario.yaml"
    sc.write_text(SCENARIO.format(rulebook=TOY), encoding="utf-8")
    code, out, err = run("validate", str(sc))
    assert code == 0, err
    assert out.strip() == f"ok scenarios {sc} (1)"
    # A decision asked of a role no one holds (here, the turn player) is located at setup.roles.
    sc.write_text(SCENARIO.format(rulebook=TOY).replace("stop: {at: one}", "stop: {at: two}"), encoding="utf-8")
    code, out, err = run("validate", str(sc))
    assert code == 1
    assert err.splitlines()[0] == (f"{sc}:7:3: the game asks no one ('play_timing' for a role no player holds): "
                                   "give the roles the turn needs in setup.roles (this rulebook's: mover, "
                                   "other_side)")


def test_a_decision_asked_of_nobody_is_an_error_not_a_traceback(toy: Path):
    """A rulebook whose setup never gives the turn player's role to anyone: play and simulate say so."""
    all_yaml = toy / "all.yaml"
    text = all_yaml.read_text(encoding="utf-8")
    start = text.index("        - if:\n            cond: \"count(cards('deck', turn_player)) == 0\"")
    end = text.index("        - emit: {event: ping}")
    text = text[:start] + text[end:]  # the first thing the turn does is ask the turn player
    all_yaml.write_text(text.replace('    - set_role: {role: mover, player: "players()[0]"}\n',
                                     '    - set_var: {name: nothing_set, value: true}\n'), encoding="utf-8")
    code, out, err = run("play", "toy", "--seed", "1")
    assert code == 2 and "Traceback" not in err
    assert "error: the game asks no one ('play_timing' at round.one)" in err
    code, out, err = run("simulate", "toy", "-n", "2", "--workers", "1", "--json")
    assert code == 1 and "Traceback" not in err
    assert "the game asks no one" in json.loads(out)["error_samples"][0]["error"]
