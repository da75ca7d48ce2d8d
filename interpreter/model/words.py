"""Rulebook ids and engine values in words for people: the brief log, the play mat, prompts.

Ids are written in snake_case English (`main_deck`, `until_end_of_turn`), so their words are the id
with spaces; a turn node may say better with `reads:` ("attack phase: damage"). Values the log
records as data (multisets of symbols, durations) read as a person would say them ("3 pink, 1 blue",
"until end of turn"), never as Python reprs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_UNTIL = ("until ", "while ", "during ", "for ", "this ", "as long as ")


def id_words(ident: str) -> str:
    """An id in words: `front_row` -> "front row"."""
    return ident.replace("_", " ").strip()


def node_words(node: Any) -> str:
    """A turn-structure node (loader.graph.CNode) in words: its `reads:`, else its id in words."""
    raw = getattr(node, "raw", None) or {}
    reads = raw.get("reads") if isinstance(raw, dict) else None
    return str(reads) if reads else id_words(str(getattr(node, "base", node)))


def duration_words(duration: str) -> str:
    """A duration id as it reads after an effect: `until_end_of_turn` -> "until end of turn",
    `end_of_turn` -> "until end of turn", `this_turn` -> "this turn"."""
    words = id_words(duration)
    return words if words.startswith(_UNTIL) else f"until {words}"


def count_words(value: Any) -> str:
    """A multiset or a list of them as counts: {'pink': 3, 'blue': 1} -> "3 pink, 1 blue"; a list of
    multisets joins them with "and"; anything else as text."""
    if isinstance(value, Mapping):
        parts = [f"{n} {id_words(str(k))}" for k, n in value.items() if n]
        return ", ".join(parts) or "nothing"
    if isinstance(value, (list, tuple)):
        return " and ".join(count_words(v) for v in value) or "nothing"
    return str(value)
