"""Every conformance scenario under tests/scenarios/<game>/ (not pending/) must pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.scenarios.runner import run_scenario

DIR = Path(__file__).parent / "scenarios"
FILES = sorted(p for p in DIR.glob("*/*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path):
    outcome = run_scenario(path)
    assert outcome.passed, "\n".join(outcome.failures)
    assert outcome.rules, "a scenario cites the rules it checks"


def test_enough_lovelive_scenarios():
    assert len([p for p in FILES if p.parent.name == "lovelive"]) >= 40


def test_a_crash_is_a_located_failure_not_an_exception(monkeypatch):
    """run_scenario never raises: one broken scenario must not stop a whole run."""
    import interpreter.scenarios.runner as runner

    def explode(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(runner, "build_game", explode)
    outcome = run_scenario(FILES[0])
    assert not outcome.passed
    assert outcome.failures == [f"{FILES[0]}:1:1: internal error: RuntimeError: engine bug"]
