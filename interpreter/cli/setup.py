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
from interpreter.loader.rulebook import load_rulebook
from interpreter.model.rulebook import Rulebook


def cards_dir(game_id: str) -> Path:
    """The first card folder for a game on the search path (where it would be, if there is none)."""
    found = locations.find("cards", game_id)
    return found if found is not None else locations.shipped("cards") / game_id


def card_folders(game_id: str) -> list[Path]:
    """Every card folder of a game: its own (the first on the search path) and those added by
    `--add-cards` (locations.added_folders), whose cards extend it rather than hide it."""
    own = cards_dir(game_id)
    return [own] + [f for f in locations.added_folders(game_id) if f.resolve() != own.resolve()]


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


class SetupError(ValueError):
    """A choice of seats, decks or format the game cannot be set up with; `param` names the option
    (the CLI reports it as a usage error of that option)."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


def seat_counts(rb: Rulebook) -> list[int]:
    """The numbers of players a rulebook (under its format, if one was chosen) may be played by:
    `players.counts`, else just `players.count` (2 when the rulebook says nothing)."""
    spec = rb.raw.get("players") or {}
    count = int(spec.get("count", 2))
    return [int(n) for n in spec.get("counts") or [count]]


def default_seats(rb: Rulebook) -> int:
    """The number of players a game has when none is asked for: the rulebook's `players.count`."""
    return int((rb.raw.get("players") or {}).get("count", 2))


def seat_decks(paths: list[Path], players: int) -> list[Path]:
    """One deck per seat: the decks given, in turn, as many times over as it takes."""
    return [paths[i % len(paths)] for i in range(players)]


def load_game_env(game: str, decks: list[str] | None, players: int | None = None, fmt: str | None = None
                  ) -> tuple[Any, Any, list[dict[str, list[str]]]]:
    """The rulebook (under `fmt`, a format of it, if given), its cards and one deck list per seat.

    `players` (default: the rulebook's `players.count`) must be one of its allowed seat counts. `decks`
    are deck files, at most one per seat, dealt to the seats in turn (a single deck sits at every
    seat); without them the game's sample decks are dealt the same way. SetupError for a seat count or
    a number of decks the game cannot be set up with; LoadError for files that do not load."""
    rb = load_rulebook(game) if fmt is None else load_rulebook(game, fmt=fmt)
    allowed = seat_counts(rb)
    seats = default_seats(rb) if players is None else players
    if seats not in allowed:
        counts = ", ".join(map(str, allowed[:-1])) + " or " + str(allowed[-1]) if len(allowed) > 1 else str(allowed[0])
        under = f" (format {fmt})" if fmt else ""
        raise SetupError(f"{seats} players: {rb.id}{under} is played by {counts} players", "--players")
    if decks and len(decks) > seats:
        raise SetupError(f"{len(decks)} decks for {seats} seats: give at most one deck per seat", "--decks")
    cards = load_cards(rb, card_folders(rb.id))
    paths = [Path(d) for d in decks] if decks else sample_decks(rb)
    if not paths:
        raise LoadError.single(str(decks_dir(rb)), 1, 1, "no sample decks (deck*.yaml) for this game; looked in: "
                               + locations.describe_search("cards"))
    loaded: dict[Path, dict[str, list[str]]] = {}
    for path in dict.fromkeys(seat_decks(paths, seats)):
        loaded[path] = load_deck(rb, cards, path)
    return rb, cards, [{z: list(ids) for z, ids in loaded[p].items()} for p in seat_decks(paths, seats)]
