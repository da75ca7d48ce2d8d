"""Shared loading for the commands that play games: rulebook, cards and decks.

Cards live in a folder named for the game id, `<game id>/`, on the card search path (see
interpreter/locations.py), for every rules version of the game (a card for later versions only says
`since:`); a versioned rulebook `<game>@<version>` takes its sample decks from a card folder
`<game>@<version>/` when there is one, else from `<game>/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter import locations
from interpreter.loader.cards import load_cards, load_deck
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.model import Rulebook
from interpreter.loader.rulebook import load_rulebook


def cards_dir(game_id: str) -> Path:
    """The first card folder for a game on the search path (where it would be, if there is none)."""
    found = locations.find("cards", game_id)
    return found if found is not None else locations.shipped("cards") / game_id


def decks_dir(rb: Rulebook) -> Path:
    """Where a rulebook's sample decks are: its version's own folder if it has one (decks legal under
    that version), else the game's card folder."""
    own = cards_dir(rb.directory.name)
    if rb.directory.name != rb.id and own.is_dir() and any(own.glob("deck*.yaml")):
        return own
    return cards_dir(rb.id)


def sample_decks(where: str | Rulebook) -> list[Path]:
    """The sample decks of a game id's card folder, or of a loaded rulebook (see decks_dir)."""
    folder = cards_dir(where) if isinstance(where, str) else decks_dir(where)
    return sorted(folder.glob("deck*.yaml"))


def load_game_env(game: str, decks: list[str] | None) -> tuple[Any, Any, list[dict[str, list[str]]]]:
    rb = load_rulebook(game)
    cards = load_cards(rb, [cards_dir(rb.id)])
    paths = [Path(d) for d in decks] if decks else sample_decks(rb)
    if not paths:
        raise LoadError.single(str(decks_dir(rb)), 1, 1, "no sample decks (deck*.yaml) for this game; looked in: "
                               + locations.describe_search("cards"))
    players = int(rb.raw.get("players", {}).get("count", 2))
    if len(paths) == 1:
        paths = paths * players
    return rb, cards, [load_deck(rb, cards, p) for p in paths[:players]]
