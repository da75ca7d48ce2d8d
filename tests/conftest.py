"""Shared fixtures: the Love Live rulebook, cards and sample decks, loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def lovelive():
    from interpreter.cli.setup import load_game_env

    return load_game_env("lovelive", None)
