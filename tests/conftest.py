"""Shared fixtures (the Love Live rulebook, cards and sample decks, loaded once per session) and the
session's hooks: how many pytest-xdist workers `-n auto` starts, the fuzz volume at the end."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def lovelive():
    from interpreter.cli.setup import load_game_env

    return load_game_env("lovelive", None)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The fuzz volume (tests/test_fuzz.py), added up from the tests' reports: a module-level tally
    would see only one worker's share under pytest-xdist, or nothing when the order changes."""
    played = [value for report in terminalreporter.stats.get("passed", [])
              for name, value in getattr(report, "user_properties", ()) if name == "fuzz_games"]
    if not played:
        return
    rulebooks = sorted(str(key) for key, _, _ in played)
    games = sum(int(n) for _, n, _ in played)
    decisions = sum(int(d) for _, _, d in played)
    terminalreporter.write_line(f"fuzz volume: {games} random legal deck sets x seeds played to the end with every "
                                f"invariant checked, over {len(rulebooks)} rulebooks and formats "
                                f"({', '.join(rulebooks)}), {decisions} decisions")


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: without xdist, never called
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker per CPU this process may run on. pytest-xdist would count physical cores
    when psutil is installed (Dask brings it), which gives one worker on a two-CPU machine whose CPUs
    are the two threads of one core. PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return max(1, len(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
