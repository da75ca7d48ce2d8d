"""The game's log as the page shows it: one line per entry, in the words the seat may read
(`LogEntry.for_player`: hidden cards stay hidden), the rules it applies kept apart so the page shows
them on demand rather than on every line.

This is the seam for a log written for people: `line(game, entry)` is the one place that turns an
entry into the text a page shows; a brief renderer (turn and phase headings, names, card texts)
replaces its body without touching the app or the page, which read only the fields returned here.
"""

from __future__ import annotations

from typing import Any

from interpreter.state.log import LogEntry


def line(game: Any, entry: LogEntry) -> str:
    """The text of one entry for people (today: the engine's own text, without its node path)."""
    return entry.text


def log_lines(game: Any, entries: list[LogEntry], seat: int) -> list[dict[str, Any]]:
    """Entries as `seat` may read them: turn, kind, text, rules, and whether chance decided it."""
    out = []
    for e in entries:
        e = e.for_player(seat)
        out.append({"seq": e.seq, "turn": e.turn, "kind": e.kind, "text": line(game, e), "rules": list(e.rules),
                    "chance": e.chance})
    return out
