"""Where Sogo finds rulebooks, card folders and schemas.

Rulebooks and card folders are looked up along a search path, first match first, so a user's own
rulebook or cards shadow the ones shipped with Sogo:

1. directories given on the command line (`sogo --rulebooks DIR --cards DIR ...`), then
   `$SOGO_RULEBOOKS` / `$SOGO_CARDS`, each a list of directories (separated by `os.pathsep`);
2. `rulebooks/` and `cards/` in the working directory;
3. the data shipped with Sogo: the top-level folders of a source checkout, or the copies a wheel
   carries as package data (`interpreter/data/`, see setup.py), found with importlib.resources.

A card folder found so hides the ones further on (its cards and sample decks replace them). To add
cards to a game's instead, `sogo --add-cards DIR` (or `$SOGO_ADD_CARDS`, a list of directories) names
directories whose `<game id>/` folders are loaded besides the game's own card folder (added_folders).

Schemas are Sogo's own: `$SOGO_SCHEMAS` (tests and tools) or the shipped ones.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Final

KINDS: Final = ("rulebooks", "cards", "schemas", "added_cards")
ENV: Final = {"rulebooks": "SOGO_RULEBOOKS", "cards": "SOGO_CARDS", "schemas": "SOGO_SCHEMAS",
              "added_cards": "SOGO_ADD_CARDS"}
_CHECKOUT: Final = Path(__file__).resolve().parent.parent


def add_search_dirs(kind: str, dirs: Iterable[str | Path]) -> None:
    """Put directories first on a search path (the command line's `--rulebooks` / `--cards`). They
    go into the environment variable, so worker processes of a simulation search them too."""
    given = [str(Path(d).resolve()) for d in dirs]
    if given:
        old = os.environ.get(ENV[kind], "")
        os.environ[ENV[kind]] = os.pathsep.join(given + ([old] if old else []))


def shipped(kind: str) -> Path:
    """The data Sogo ships: a checkout's own folder when Sogo runs from one (an editable install),
    else the wheel's package data."""
    own = _CHECKOUT / kind
    if own.is_dir() and (_CHECKOUT / "pyproject.toml").is_file():
        return own
    return Path(str(resources.files("interpreter.data") / kind))


def source_checkout() -> Path | None:
    """The source checkout Sogo runs from, if any: where its tests and golden transcripts are."""
    return _CHECKOUT if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "tests").is_dir() else None


def search_path(kind: str) -> list[Path]:
    """The directories searched for rulebooks or card folders, in order, each once."""
    env = os.environ.get(ENV[kind], "")
    dirs = [Path(d) for d in env.split(os.pathsep) if d]
    dirs += [Path.cwd() / kind, shipped(kind)]
    out: list[Path] = []
    seen: set[Path] = set()
    for d in dirs:
        key = d.resolve()
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def find(kind: str, name: str, marker: str | None = None) -> Path | None:
    """The first `<dir>/<name>` on the search path that exists (and holds `marker`, if given: a
    folder of the same name that is not a rulebook does not hide one further on)."""
    for d in search_path(kind):
        cand = d / name
        if cand.is_dir() and (marker is None or (cand / marker).is_file()):
            return cand
    return None


def describe_search(kind: str) -> str:
    """Where a lookup looked, for error messages (relative to the working directory when inside it)."""
    here = Path.cwd().resolve()

    def show(d: Path) -> str:
        full = d.resolve()
        return str(full.relative_to(here)) if full.is_relative_to(here) else str(full)

    return ", ".join(show(d) for d in search_path(kind))


def added_folders(game: str) -> list[Path]:
    """The card folders `--add-cards` / `$SOGO_ADD_CARDS` add to a game's own: each `<dir>/<game>/`
    that exists, in order."""
    env = os.environ.get(ENV["added_cards"], "")
    return [Path(d) / game for d in env.split(os.pathsep) if d and (Path(d) / game).is_dir()]


def schemas_dir() -> Path:
    """Where schemas are read from: `$SOGO_SCHEMAS` if set (tests, tools), else the shipped ones."""
    override = os.environ.get(ENV["schemas"])
    return Path(override) if override else shipped("schemas")
