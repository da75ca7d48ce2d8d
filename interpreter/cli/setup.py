"""Shared loading for the commands that play games: rulebook, cards and decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.loader.cards import load_cards, load_deck
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def cards_dir(game_id: str) -> Path:
    return repo_root() / "cards" / game_id


def sample_decks(game_id: str) -> list[Path]:
    return sorted(cards_dir(game_id).glob("deck*.yaml"))


def load_game_env(game: str, decks: list[str] | None) -> tuple[Any, Any, list[dict[str, list[str]]]]:
    rb = load_rulebook(game)
    cards = load_cards(rb, [cards_dir(rb.id)])
    paths = [Path(d) for d in decks] if decks else sample_decks(rb.id)
    if not paths:
        raise LoadError.single(str(cards_dir(rb.id)), 1, 1, "no sample decks (deck*.yaml) for this game")
    players = int(rb.raw.get("players", {}).get("count", 2))
    if len(paths) == 1:
        paths = paths * players
    return rb, cards, [load_deck(rb, cards, p) for p in paths[:players]]
