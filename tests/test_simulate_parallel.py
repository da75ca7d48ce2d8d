"""Simulation results depend on the seeds only: the same for any number of workers and any backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.sim import simulate

# Keys that describe how a run went, not what happened in its games.
RUN_KEYS = {"seconds", "games_per_second", "workers", "backend", "failures"}


def games_only(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in RUN_KEYS}


def same_games(a: dict, b: dict) -> bool:
    return games_only(a) == games_only(b)


def cli_json(*args: str) -> dict:
    r = CliRunner().invoke(cli, ["simulate", "lovelive", "--json", *args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    summary = json.loads(r.stdout)
    assert r.exit_code == (1 if summary["errors"] else 0), r.stderr  # a failed game fails the command
    return summary


def test_workers_do_not_change_results():
    one = cli_json("-n", "8", "--seed", "11", "--workers", "1")
    two = cli_json("-n", "8", "--seed", "11", "--workers", "2")
    assert one["workers"] == 1 and two["workers"] == 2
    for key in ("game", "games", "completed", "errors", "results", "mean_turns", "games_per_second",
                "workers", "failures"):
        assert key in one
    assert one["errors"] == 0 and one["completed"] == 8
    assert same_games(one, two), (one, two)


def test_failures_are_the_same_files_for_any_workers(tmp_path: Path):
    a = cli_json("-n", "4", "--seed", "2", "--workers", "1", "--max-decisions", "30",
                 "--failures-dir", str(tmp_path / "a"))
    b = cli_json("-n", "4", "--seed", "2", "--workers", "2", "--max-decisions", "30",
                 "--failures-dir", str(tmp_path / "b"))
    assert a["errors"] == b["errors"] == 4
    assert [Path(p).name for p in a["failures"]] == [Path(p).name for p in b["failures"]]
    for pa, pb in zip(a["failures"], b["failures"], strict=True):
        assert Path(pa).read_bytes() == Path(pb).read_bytes()
    assert [{k: v for k, v in e.items() if k != "replay"} for e in a["error_samples"]] == \
        [{k: v for k, v in e.items() if k != "replay"} for e in b["error_samples"]]


def test_progress_counts_every_game(lovelive):
    rb, cards, decks = lovelive
    done: list[int] = []
    s = simulate(rb, cards, decks, 5, 3, workers=2, progress=done.append)
    assert sum(done) == 5 and s["games"] == 5 and s["workers"] == 2


def test_dask_local_cluster_gives_the_same_results():
    pytest.importorskip("dask.distributed")
    from interpreter.cli.setup import load_game_env

    # Loaded here, not from the session fixture: Dask workers load the files afresh and refuse
    # files that changed since the run's start (their content hash is checked).
    rb, cards, decks = load_game_env("lovelive", None)
    local = simulate(rb, cards, decks, 4, 21, workers=1)
    dask = simulate(rb, cards, decks, 4, 21, workers=2, backend="dask")
    assert dask["backend"] == "dask"
    assert same_games(local, dask), (local, dask)


def test_dask_from_the_command_line_reports_the_same_failures(tmp_path: Path):
    """`sogo simulate --backend dask` (a local cluster here): same summary and the same replay
    files for failed games as the process pool, and the same exit code."""
    pytest.importorskip("dask.distributed")
    args = ("-n", "3", "--seed", "2", "--workers", "2", "--max-decisions", "30")
    pool = cli_json(*args, "--failures-dir", str(tmp_path / "pool"))
    dask = cli_json(*args, "--backend", "dask", "--failures-dir", str(tmp_path / "dask"))
    assert dask["backend"] == "dask" and dask["errors"] == pool["errors"] == 3
    def samples(s: dict) -> list[dict]:  # the replay paths differ only by --failures-dir
        return [{k: v for k, v in e.items() if k != "replay"} for e in s["error_samples"]]

    assert samples(pool) == samples(dask)
    assert same_games({**pool, "error_samples": []}, {**dask, "error_samples": []})
    assert [Path(f).name for f in dask["failures"]] == [Path(f).name for f in pool["failures"]]
    for a, b in zip(pool["failures"], dask["failures"], strict=True):
        assert Path(a).read_text(encoding="utf-8") == Path(b).read_text(encoding="utf-8")
