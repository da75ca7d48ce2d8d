"""The game log: every event names the rule it applies; chance events are marked as such."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class LogEntry:
    seq: int
    turn: int
    node: str
    kind: str
    rules: tuple[str, ...]
    text: str
    data: dict[str, Any]
    chance: bool = False

    def as_text(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else ""
        tag = "[chance] " if self.chance else ""
        return f"T{self.turn:<3} {self.node:<45} {tag}{self.text}{rules}"

    def as_json(self) -> str:
        return json.dumps({"seq": self.seq, "turn": self.turn, "node": self.node, "kind": self.kind,
                           "rules": list(self.rules), "text": self.text, "chance": self.chance,
                           "data": self.data}, ensure_ascii=False, sort_keys=True, default=str)
