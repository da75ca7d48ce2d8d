"""The game log: every event names the rule it applies; chance events are marked as such."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(slots=True, init=False)
class LogEntry:
    """One logged event (its own `__init__`: the generated one stays interpreted when compiled)."""

    seq: int
    turn: int
    node: str
    kind: str
    rules: tuple[str, ...]
    text: str
    data: dict[str, Any]
    chance: bool
    hidden_from: frozenset[int]  # players who may not read `text`...
    redacted: str  # ...and read this instead

    def __init__(self, seq: int, turn: int, node: str, kind: str, rules: tuple[str, ...], text: str,
                 data: dict[str, Any], chance: bool = False, hidden_from: frozenset[int] = frozenset(),
                 redacted: str = "") -> None:
        self.seq = seq
        self.turn = turn
        self.node = node
        self.kind = kind
        self.rules = rules
        self.text = text
        self.data = data
        self.chance = chance
        self.hidden_from = hidden_from
        self.redacted = redacted

    def for_player(self, player: int | None) -> LogEntry:
        """The entry as one player may read it (None: the omniscient record)."""
        if player is None or player not in self.hidden_from:
            return self
        return LogEntry(self.seq, self.turn, self.node, self.kind, self.rules, self.redacted, {}, self.chance)

    def as_text(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        tag = "[chance] " if self.chance else ""
        return f"T{self.turn:<3} {self.node:<45} {tag}{self.text}{rules}"

    def as_json(self) -> str:
        return json.dumps({"seq": self.seq, "turn": self.turn, "node": self.node, "kind": self.kind,
                           "rules": list(self.rules), "text": self.text, "chance": self.chance,
                           "data": self.data}, ensure_ascii=False, sort_keys=True, default=str)
