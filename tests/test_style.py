"""Project-wide standing checks: ruff and mypy are clean and the interpreter names no game."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAME_TERMS = re.compile(
    r"love ?live|lovelive|haikyu|hololive|holomem|osica|re ?birth|ラブライブ|ハイキュー|ホロライブ|ホロメン|推し|"
    r"oshi\b|bloom|collab|holopower|blade|live_card|baton|サーブ|レシーブ|トス|アタック|ライブ|エール|ブレード|ハート|heart",
    re.IGNORECASE,
)


def test_interpreter_names_no_game():
    hits = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if GAME_TERMS.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_ruff_is_clean():
    if shutil.which("ruff") is None and subprocess.run([sys.executable, "-m", "ruff", "--version"],
                                                       capture_output=True).returncode != 0:
        pytest.skip("ruff is not installed")
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "interpreter", "tests"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean():
    """The interpreter's type hints agree with its code (configuration in pyproject.toml)."""
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed")
    r = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
