"""Sogo's generic interpreter: it loads a game's rulebook (YAML data) and plays it.

The engine may have been compiled by mypyc (setup.py, SOGO_COMPILE=1). Compiled modules sit beside
their sources and Python prefers them, so importing the package first checks that no compiled
module's source has changed since the build."""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_MANIFEST = _PACKAGE / "compiled.json"  # source hashes of the compiled modules, written by setup.py


def compiled() -> bool:
    """Whether this installation runs the engine compiled by mypyc."""
    from interpreter.engine import game

    return not game.__file__.endswith(".py")


def stale_compiled_modules() -> list[str]:
    """Compiled modules whose source changed since they were built (Python would run the old code)."""
    if not _MANIFEST.is_file():
        return []
    stale = []
    for rel, digest in sorted(json.loads(_MANIFEST.read_text(encoding="utf-8")).items()):
        src = _PACKAGE.parent / rel
        if not any(src.with_name(src.stem + suffix).exists() for suffix in EXTENSION_SUFFIXES):
            continue  # not compiled (any more)
        if not src.is_file() or hashlib.sha256(src.read_bytes()).hexdigest() != digest:
            stale.append(rel)
    return stale


_stale = stale_compiled_modules()
if _stale:
    sys.exit(f"sogo: the compiled engine is older than its sources ({', '.join(_stale)} changed since the "
             "build), and Python would run the old compiled code. Rebuild it with "
             "`SOGO_COMPILE=1 python3 -m pip install --no-build-isolation -e .`, or go back to plain Python "
             "with `git clean -fX -- interpreter '*__mypyc*'`.")
