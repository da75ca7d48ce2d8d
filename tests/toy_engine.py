"""Helpers for engine unit tests on the toy rulebook (tests/data/toy): a generic game with a deck, a
hand, a pile whose top card alone is in play, a field and a discard pile; one turn of three steps."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import _match, build_game

TOY = Path(__file__).resolve().parent / "data" / "toy"
_ENV: dict[str, Any] = {}


def toy_env() -> tuple[Any, Any]:
    if "env" not in _ENV:
        rb = load_rulebook(str(TOY))
        _ENV["env"] = (rb, load_cards(rb, [TOY / "cards"]))
    return _ENV["env"]


def toy_game(zones: dict[str, Any], start: str = "round", vars: dict[str, Any] | None = None,
             stop: str | None = None) -> Game:
    rb, cards = toy_env()
    sc = {"setup": {"start_at": start, "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                    "vars": vars or {}, "zones": zones}}
    g = build_game(sc, rb, cards)
    g.stop_at = stop
    return g


def toy_variant(tmp_path: Path, *, replace: tuple[tuple[str, str], ...] = (), append: str = "",
                head: tuple[tuple[str, str], ...] = (), cards: str | None = None) -> tuple[Any, Any]:
    """A copy of the toy rulebook with text edits (`replace` in all.yaml, `head` in rulebook.yaml,
    `append` to all.yaml), loaded with the toy cards and, if given, one more card file."""
    d = tmp_path / "toy"
    shutil.copytree(TOY, d)
    for name, edits, extra in (("all.yaml", replace, append), ("rulebook.yaml", head, "")):
        text = (d / name).read_text(encoding="utf-8")
        for old, new in edits:
            assert old in text, f"{old!r} is not in the toy {name}"
            text = text.replace(old, new)
        (d / name).write_text(text + extra, encoding="utf-8")
    folders = [TOY / "cards"]
    if cards is not None:
        (tmp_path / "cards").mkdir()
        (tmp_path / "cards" / "extra.yaml").write_text(cards, encoding="utf-8")
        folders.append(tmp_path / "cards")
    rb = load_rulebook(str(d))
    return rb, load_cards(rb, folders)


def game_of(env: tuple[Any, Any], zones: dict[str, Any], vars: dict[str, Any] | None = None) -> Game:
    """A toy game (any toy variant) set up at the start of a round, P1 moving."""
    rb, cards = env
    sc = {"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                    "vars": vars or {}, "zones": zones}}
    return build_game(sc, rb, cards)


def play(g: Game, answers: list[Any]) -> Any:
    """Answer decisions in order; returns the first unanswered decision (None if the walk stopped)."""
    for a in answers:
        d = g.advance()
        assert d is not None, f"no decision left for answer {a!r}"
        g.answer(_match(d, [str(x) for x in (a if isinstance(a, list) else [a])], g))
    return g.advance()


def texts(g: Game) -> list[str]:
    return [e.text for e in g.entries]
