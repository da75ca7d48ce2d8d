"""Play a game to the end with one agent per player; the loop every front end shares."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.game import Game


def play(game: Game, agents: list[Any], on_decision: Callable[[Game], None] | None = None) -> dict[str, Any]:
    """Drive the game until it ends; returns its result."""
    while True:
        d = game.advance()
        if d is None:
            break
        if on_decision is not None:
            on_decision(game)
        answer = agents[d.player].decide(d.for_agent(), game.view(d.player))
        game.answer(answer)
    return game.state.result or {"outcome": "unfinished"}
