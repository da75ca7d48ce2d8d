"""Golden games: seeded transcripts in tests/golden must match what `sogo play` prints today.

A rules or engine change that alters a game fails here with the diff; regenerate on purpose with
`python -m interpreter.replay --regenerate-golden` (see tests/golden/README.md).
"""

from __future__ import annotations

import difflib

import pytest

from interpreter.replay import golden_games, golden_path, golden_transcript

CONTEXT = 3
MAX_DIFF_LINES = 60


@pytest.mark.parametrize(("game", "seed"), golden_games(), ids=lambda v: str(v))
def test_golden_transcript(game: str, seed: int) -> None:
    path = golden_path(game, seed)
    assert path.is_file(), f"{path} is missing: python -m interpreter.replay --regenerate-golden"
    want = path.read_text(encoding="utf-8").splitlines()
    got = golden_transcript(game, seed).splitlines()
    if got == want:
        return
    pairs = enumerate(zip(want, got, strict=False))
    first = next((i for i, (a, b) in pairs if a != b), min(len(want), len(got)))
    diff = list(difflib.unified_diff(want, got, f"{path.name} (golden)", f"{path.name} (now)",
                                     n=CONTEXT, lineterm=""))
    shown = "\n".join(diff[:MAX_DIFF_LINES]) + ("\n..." if len(diff) > MAX_DIFF_LINES else "")
    pytest.fail(f"{game} seed {seed} differs from line {first + 1} on "
                f"({len(want)} golden lines, {len(got)} now):\n{shown}\n"
                "If the change is intended: python -m interpreter.replay --regenerate-golden", pytrace=False)
