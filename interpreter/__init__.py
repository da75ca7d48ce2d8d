"""Sogo's generic interpreter: it loads a game's rulebook (YAML data) and plays it.

The engine may have been compiled by mypyc (setup.py, SOGO_COMPILE=1). Compiled modules sit beside
their sources and Python prefers them, so importing the package first checks that they still match
their sources (`compiled_build_problems`)."""

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


def compiled_build_problems() -> list[str]:
    """How the compiled modules fail to match their sources: a source changed since the build (Python
    would run the old compiled code), or a module no longer compiled while others are (compiled code
    expects the others compiled too)."""
    if not _MANIFEST.is_file():
        return []
    changed, missing, present = [], [], 0
    for rel, digest in sorted(json.loads(_MANIFEST.read_text(encoding="utf-8")).items()):
        src = _PACKAGE.parent / rel
        if not any(src.with_name(src.stem + suffix).exists() for suffix in EXTENSION_SUFFIXES):
            missing.append(rel)
            continue
        present += 1
        if not src.is_file() or hashlib.sha256(src.read_bytes()).hexdigest() != digest:
            changed.append(rel)
    if not present:
        return []  # not compiled (any more): plain Python
    return [f"{rel} changed since the build" for rel in changed] + [f"{rel} is no longer compiled" for rel in missing]


_problems = compiled_build_problems()
if _problems:
    sys.exit(f"sogo: the compiled engine does not match its sources ({'; '.join(_problems)}), and Python "
             "would run old or mismatched compiled code. Rebuild it with "
             "`SOGO_COMPILE=1 python3 -m pip install --no-build-isolation -e .`, or go back to plain Python "
             "with `git clean -fX -- interpreter '*__mypyc*'`.")
