"""The game's log as one page shows it, in the words its seat may read (`LogEntry.for_player`: hidden
cards stay hidden), the rules each line applies kept apart so the page shows them on demand.

By default it is the brief log (viewer/brief_log.py, as `sogo play` tells a game on a terminal):
turn and phase headings, cards by name and followed across moves, abilities by their text. The page's
"full log" switch shows the engine's own log instead: every entry with its kind and turn.
Each page keeps its own `PageLog` (a brief log remembers which card is which across batches); a page
that starts over (another seat at a hotseat table, a new game, the switch) gets a new one.
"""

from __future__ import annotations

from typing import Any

from interpreter.state.log import LogEntry
from interpreter.viewer.brief_log import BriefLog


class PageLog:
    """The log one page is sent, read on from where the last read ended."""

    def __init__(self, rb: Any, cards: Any, seat: int, full: bool = False) -> None:
        self.seat, self.full = seat, full
        self.read_to = 0  # log entries sent so far
        self.brief = None if full else BriefLog(rb, cards)

    def read(self, entries: list[LogEntry]) -> list[dict[str, Any]]:
        """The lines for the entries not sent yet. A brief line: its text, rules and `heading` (setup,
        turn or phase, or "" for what happened); a full one also its entry's `seq`, `turn`, `kind`
        and whether chance decided it."""
        fresh = [e.for_player(self.seat) for e in entries[self.read_to:]]
        self.read_to = len(entries)
        if self.brief is not None:
            return [{"heading": "" if x.kind == "line" else x.kind, "text": x.text, "rules": list(x.rules)}
                    for x in self.brief.items(fresh)]
        return [{"heading": "", "seq": e.seq, "turn": e.turn, "kind": e.kind, "text": e.text,
                 "rules": list(e.rules), "chance": e.chance} for e in fresh]
