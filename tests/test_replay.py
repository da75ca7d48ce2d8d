"""Replays reproduce games exactly, refuse changed rulebooks, and reproduce simulated failures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_run import run

from interpreter.engine.invariants import InvariantError
from interpreter.replay import Replay

ROOT = Path(__file__).resolve().parents[1]


def rulebook_copy(tmp_path: Path, old: str, new: str, part: str) -> Path:
    """A copy of the Love Live rulebook with one edit, under a directory SOGO_RULEBOOKS can name."""
    parent = tmp_path / "rulebooks"
    shutil.copytree(ROOT / "rulebooks" / "lovelive", parent / "lovelive")
    f = parent / "lovelive" / part
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    return parent


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    code, out, err = run("play", "lovelive", "--seed", "3", "--save-replay", str(path))
    assert code == 0, err
    return path, out


def test_replay_file_has_header_answers_and_end(recorded):
    path, _ = recorded
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    head, end = rows[0], rows[-1]
    assert head["replay"] == "sogo" and head["rulebook"] == "lovelive" and head["seed"] == 3
    assert head["agents"] == ["random", "random"] and head["rules_version"]
    assert len(head["content_hash"]) == 64 and set(head["hashes"]) == {"rulebook", "cards", "decks"}
    assert len(head["decks"]) == 2 and "main_deck" in head["decks"][0]
    assert all(isinstance(r["answer"], list) for r in rows[1:-1])
    assert end["end"] == "result" and end["decisions"] == len(rows) - 2 and end["fingerprint"]
    rep = Replay.load(path)
    assert Replay.from_dict(rep.to_dict()).to_lines() == path.read_text(encoding="utf-8").splitlines()


def test_round_trip_reproduces_the_log_and_hash(recorded):
    path, play_out = recorded
    code, out, err = run("replay", str(path))
    assert code == 0, err
    assert "reproduced" in err and "matches" in err
    assert out.splitlines() == play_out.splitlines()[:-1]  # play adds its result line
    code, out, _ = run("replay", str(path), "--log", "jsonl")
    assert code == 0 and all(json.loads(x)["text"] for x in out.splitlines())


def test_tampered_hash_is_refused(recorded, tmp_path):
    path, _ = recorded
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["content_hash"] = "0" * 64
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    code, out, err = run("replay", str(bad))
    assert code == 1
    assert "refused" in err and "--force" in err and out == ""
    code, _, err = run("replay", str(bad), "--force", "--log", "none")
    assert code == 0 and "warning" in err  # the files are the same, so the game is too


def test_changed_rulebook_refused_then_divergence_reported(recorded, tmp_path, monkeypatch):
    path, _ = recorded
    parent = rulebook_copy(tmp_path, "top('main_deck', p, 6)", "top('main_deck', p, 5)", "setup.yaml")
    monkeypatch.setenv("SOGO_RULEBOOKS", str(parent))
    code, _, err = run("replay", str(path))
    assert code == 1 and "refused" in err and "changed: rulebook" in err
    code, _, err = run("replay", str(path), "--force", "--log", "none")
    assert code == 1
    line = next(x for x in err.splitlines() if x.startswith("diverged:"))
    assert "decision " in line or "final state hash" in line
    assert " at " in line  # names the node


def test_illegal_recorded_answer_is_the_divergence(recorded, tmp_path):
    path, _ = recorded
    rep = Replay.load(path)
    rep.steps[5]["answer"] = ["no-such-option"]
    bad = rep.save(tmp_path / "bad-answer.jsonl")
    code, _, err = run("replay", str(bad), "--log", "none")
    assert code == 1
    assert f"diverged: decision 5 at {rep.steps[5]['node']}" in err and "not legal" in err


def test_cut_short_recording_is_reported(recorded, tmp_path):
    path, _ = recorded
    rep = Replay.load(path)
    rep.end = None
    rep.steps = rep.steps[:10]
    code, _, err = run("replay", str(rep.save(tmp_path / "short.jsonl")), "--log", "none")
    assert code == 1 and "cut short after 10 decisions" in err


def test_not_a_replay(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text('{"hello": 1}\n', encoding="utf-8")
    code, _, err = run("replay", str(f))
    assert code == 1 and "not a Sogo replay" in err


@pytest.mark.parametrize("content, message", [
    (b'garbage{\n', "x.jsonl:1:1: not JSON: Expecting value"),
    (b'{"replay": "sogo", "format": 1}\n{"answer": [1}\n', "x.jsonl:2:14: not JSON: Expecting ',' delimiter"),
    (b'{"replay": "sogo",\xff "format": 1}\n', "x.jsonl:1:19: not UTF-8 text (byte 0xff); a replay is JSON lines"),
    (b'[1, 2]\n', "x.jsonl:1:1: expected a JSON object"),
    (b'', 'x.jsonl:1:1: not a Sogo replay (the first line has no "replay": "sogo")'),
    (b'{"replay": "sogo", "format": 9}\n', "x.jsonl:1:1: replay format 9, this Sogo reads 1"),
    (b'{"replay": "sogo", "format": 1}\n\n{"answer": "a"}\n', "x.jsonl:3:1: a decision line needs an 'answer' list"),
])
def test_a_broken_replay_file_is_a_located_error(tmp_path, content, message):
    f = tmp_path / "x.jsonl"
    f.write_bytes(content)
    code, out, err = run("replay", str(f))
    assert code == 1 and out == ""
    assert err.splitlines() == [f"error: {tmp_path / message}"]


def test_validate_checks_replays(recorded, tmp_path):
    path, _ = recorded
    code, out, err = run("validate", str(path))
    assert code == 0 and out.splitlines() == [f"ok replay {path} (lovelive, {len(Replay.load(path).steps)} decisions)"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(Path(path).read_text(encoding="utf-8").replace('"rulebook_dir": "lovelive"',
                                                                  '"rulebook_dir": "lovelivx"'), encoding="utf-8")
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{\n", encoding="utf-8")
    code, out, err = run("validate", str(bad), str(broken))
    assert code == 1 and out == ""
    from interpreter.locations import describe_search

    looked = describe_search("rulebooks")
    assert err.splitlines() == [f"{bad}:1:1: no rulebook 'lovelivx' (known: haikyu, haikyu@1.02, hololive, lovelive, "
                                f"osica, rebirth; looked in: {looked})",
                                f"{broken}:1:2: not JSON: Expecting property name enclosed in double quotes",
                                "2 problem(s)"]


# -- failure traces ------------------------------------------------------------------------------
def _simulate(*args: str) -> dict:
    code, out, err = run("simulate", "lovelive", "--json", *args)
    summary = json.loads(out)
    assert code == (1 if summary["errors"] else 0), err  # a failed game fails the command
    return summary


def test_runtime_error_is_saved_and_reproduced(tmp_path, monkeypatch):
    # From turn 4 on, the draw step divides by zero: a data bug that only shows at run time.
    parent = rulebook_copy(tmp_path, '- call: {template: draw, n: 1, player: "turn_player"}',
                           '- call: {template: draw, n: "1 // (4 - turn)", player: "turn_player"}',
                           "turn.yaml")
    monkeypatch.setenv("SOGO_RULEBOOKS", str(parent))
    fdir = tmp_path / "failures"
    s = _simulate("-n", "2", "--seed", "1", "--workers", "1", "--failures-dir", str(fdir))
    assert s["errors"] == 2 and s["completed"] == 0
    assert s["failures"] == [str(fdir / "lovelive-seed1.jsonl"), str(fdir / "lovelive-seed2.jsonl")]
    sample = s["error_samples"][0]
    assert sample["replay"] == s["failures"][0] and "division by zero" in sample["error"]
    code, out, err = run("replay", s["failures"][0])
    assert code == 2
    assert f"error: {sample['error']}" in err.splitlines()
    assert "reproduced the recorded failure" in err
    assert out.splitlines()[-1].startswith("T4 ")  # the log runs up to the failure


def test_runaway_game_is_a_reported_failure(tmp_path):
    s = _simulate("-n", "2", "--seed", "5", "--workers", "1", "--max-decisions", "40",
                  "--failures-dir", str(tmp_path))
    assert s["errors"] == 2 and len(s["failures"]) == 2
    assert all("RunawayGame: no result after 40 decisions" in e["error"] for e in s["error_samples"])
    code, _, err = run("replay", s["failures"][1], "--log", "none")
    assert code == 2 and f"error: {s['error_samples'][1]['error']}" in err


def test_broken_invariant_is_saved_and_reproduced(tmp_path, monkeypatch):
    import interpreter.replay as replay_mod

    real = replay_mod.check_invariants

    def broken(game, decision, total):  # an engine bug that leaks a card at turn 3
        n = real(game, decision, total)
        if game.state.turn >= 3:
            raise InvariantError(f"card count changed from {n} to {n - 1}")
        return n

    monkeypatch.setattr(replay_mod, "check_invariants", broken)
    s = _simulate("-n", "1", "--seed", "7", "--workers", "1", "--failures-dir", str(tmp_path))
    assert s["errors"] == 1 and s["error_samples"][0]["error"].startswith("InvariantError: card count")
    code, _, err = run("replay", s["failures"][0], "--log", "none")
    assert code == 2 and f"error: {s['error_samples'][0]['error']}" in err
    monkeypatch.setattr(replay_mod, "check_invariants", real)  # fixed: the failure is gone
    code, _, err = run("replay", s["failures"][0], "--log", "none")
    assert code == 1 and "diverged" in err
