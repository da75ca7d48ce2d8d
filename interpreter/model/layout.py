"""The play mat of a game as the loader compiles it (`Rulebook.layout`): plain records read by the
viewers (interpreter/viewer/mat.py), never by the engine. Written by the rulebook's layout.yaml
(schemas/layout.schema.json) or, for a rulebook without one, made from its zones (`generic`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Fn = Callable[[Any], Any]

SHOWS = ("row", "stack", "fan", "count")
"""How a zone shows: its cards side by side, its top card with a count, overlapping, or a count only."""


@dataclass(frozen=True)
class Cell:
    """One zone's place in a row of the mat."""

    zone: str
    show: str
    label: str
    width: int
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    id: str
    cells: tuple[Cell, ...]
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class TileField:
    """One value on a card tile: a field through continuous effects, a counter, or an expression."""

    id: str
    at: str  # corner | badge | icons | stat | meter
    label: str
    field: str | None = None
    counter: str | None = None
    value: Fn | None = None
    max: Fn | None = None
    hide_zero: bool = False


@dataclass(frozen=True)
class Tile:
    id: str
    types: tuple[str, ...]
    fields: tuple[TileField, ...]


@dataclass(frozen=True)
class StateLook:
    id: str
    state: str
    value: str
    look: str  # sideways | face_down | dim | tag
    label: str
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeldLook:
    id: str
    types: tuple[str, ...]
    look: str  # under | attached
    color: str | None = None


@dataclass(frozen=True)
class PlayerValue:
    id: str
    label: str
    counter: str | None = None
    value: Fn | None = None
    hide_zero: bool = False


@dataclass
class Layout:
    id: str
    title: str
    rows: tuple[Row, ...]
    shared: tuple[Cell, ...] = ()
    tiles: tuple[Tile, ...] = ()
    states: tuple[StateLook, ...] = ()
    held: tuple[HeldLook, ...] = ()
    player_values: tuple[PlayerValue, ...] = ()
    roles: tuple[tuple[str, str], ...] = ()  # (role, label), in the order shown
    palette: dict[str, str] = field(default_factory=dict)
    theme: dict[str, str] = field(default_factory=dict)
    generic: bool = False  # made from the zones: the rulebook has no layout.yaml
    file: str = ""

    def tile_for(self, card_type: str) -> Tile | None:
        return next((t for t in self.tiles if card_type in t.types), None)

    def held_look(self, card_type: str) -> HeldLook | None:
        return next((h for h in self.held if card_type in h.types), None)

    def zones(self) -> list[str]:
        """Every zone the mat places, in the order written."""
        return [c.zone for r in self.rows for c in r.cells] + [c.zone for c in self.shared]
