"""The command line: complete games, JSON summaries, located errors and no tracebacks."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_run import run

ROOT = Path(__file__).resolve().parents[1]


def test_play_prints_a_complete_game_with_rules():
    code, out, _ = run("play", "lovelive", "--seed", "1")
    assert code == 0
    assert "result: P" in out or "result: draw" in out
    assert any("draw_phase.draw_card" in line and "7.6.2" in line for line in out.splitlines())
    assert "[chance]" in out


def test_play_jsonl_is_json_per_line():
    code, out, _ = run("play", "lovelive", "--seed", "2", "--log", "jsonl")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines and all("rules" in x and "text" in x for x in lines)
    assert lines[-1]["kind"] == "result"


def test_play_same_seed_same_output():
    assert run("play", "lovelive", "--seed", "4")[1] == run("play", "lovelive", "--seed", "4")[1]


def test_simulate_json_summary():
    code, out, _ = run("simulate", "lovelive", "-n", "5", "--seed", "1", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("game", "games", "completed", "errors", "results", "mean_turns", "games_per_second"):
        assert key in data
    assert data["games"] == 5 and data["errors"] == 0 and data["completed"] == 5


def test_validate_ok_and_errors(tmp_path: Path):
    code, out, _ = run("validate", str(ROOT / "rulebooks"), str(ROOT / "cards"))
    assert code == 0, out
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: lovelive\ncards:\n  - id: X\n    type: member\n    cost: two\n", encoding="utf-8")
    code, out, err = run("validate", str(bad))
    assert code == 1
    assert f"{bad}:5:" in err
    assert "Traceback" not in err + out


def test_unknown_game_is_a_usage_error():
    """A GAME that names no rulebook is a usage error (exit 2) listing the known games and where Sogo
    looked, for every command that takes a GAME, not a file position."""
    for cmd in (["play", "nosuchgame"], ["simulate", "nosuchgame", "-n", "1"], ["graph", "nosuchgame"],
                ["schema", "nosuchgame"]):
        code, out, err = run(*cmd)
        assert code == 2, cmd
        assert ("Invalid value for GAME: no rulebook 'nosuchgame' (known: haikyu, haikyu@1.02, hololive, lovelive, "
                "osica, rebirth; looked in:") in err, err
        assert "nosuchgame:1:1" not in err and "Traceback" not in err + out


def test_graph_formats():
    code, out, _ = run("graph", "lovelive", "--format", "dot")
    assert code == 0 and out.startswith("digraph")
    code, out, _ = run("graph", "lovelive", "--format", "mermaid")
    assert code == 0 and out.startswith("flowchart")


def test_card_schema_is_generated_from_the_rulebook():
    code, out, _ = run("schema", "lovelive")
    assert code == 0
    schema = json.loads(out)
    assert schema["properties"]["game"]["const"] == "lovelive"


def test_every_command_has_help():
    for cmd in (["--help"], ["play", "--help"], ["simulate", "--help"], ["validate", "--help"],
                ["scenario", "run", "--help"], ["graph", "--help"], ["schema", "--help"]):
        code, out, _ = run(*cmd)
        assert code == 0 and "Usage" in out


def test_simulate_text_report():
    code, out, _ = run("simulate", "lovelive", "-n", "4", "--seed", "2", "--workers", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("lovelive (rules ") and "4 games from seed 2, 1 worker(s) (processes)" in lines[0]
    counts = [int(n) for n in re.findall(r"P\d (\d+) \(", lines[1])]
    assert lines[1].startswith("results:") and sum(counts) == 4
    assert lines[2] == "completed: 4 of 4, 0 error(s)"
    assert lines[3].startswith("per game:") and lines[4].startswith("speed:")


def test_simulate_fails_when_a_game_fails(tmp_path: Path):
    code, out, _ = run("simulate", "lovelive", "-n", "2", "--seed", "1", "--workers", "1",
                       "--max-decisions", "5", "--failures-dir", str(tmp_path))
    assert code == 1
    assert "completed: 0 of 2, 2 error(s)" in out
    assert "per game:" not in out  # no game finished: no averages to give
    replays = sorted(tmp_path.glob("*.jsonl"))
    assert len(replays) == 2
    for r in replays:
        assert f"reproduce it: sogo replay {r}" in out
