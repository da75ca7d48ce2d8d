"""The engine's errors, in a module of their own so that compiled builds leave them plain Python
classes (mypyc compiles no subclass of a built-in exception)."""

from __future__ import annotations

from typing import Any


class GameError(RuntimeError):
    """A rulebook or card effect did something impossible at run time (a data bug, located)."""


class IllegalAnswer(ValueError):
    """An answer that is not a legal choice for the pending decision."""


def asked_of_nobody(decision: Any, node: str) -> GameError:
    """The error for a decision asked of no player: the turn structure names a role (the turn player,
    a choosing player) that no player holds, because no step set it (set_role)."""
    return GameError(f"the game asks no one ('{decision.prompt}' at {node}): a role the rulebook names for it "
                     f"holds no player; give it one in the setup (set_role)")
