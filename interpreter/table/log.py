"""Writing the game's log: every entry names the rule it applies (state/log.py holds the entries)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.state.log import LogEntry

if TYPE_CHECKING:
    from interpreter.table.table import Table


def log(game: Table, kind: str, text: str, rules: tuple[str, ...] = (), *, chance: bool = False,
        hidden_from: frozenset[int] = frozenset(), redacted: str = "", **data: Any) -> None:
    if not game.logging:
        return
    node = game.cur_node.id if game.cur_node is not None else "setup"
    game.entries.append(LogEntry(len(game.entries), game.state.turn, node, kind, tuple(rules), text, data,
                                 chance, hidden_from, redacted))
