"""The engine's errors, in a module of their own so that compiled builds leave them plain Python
classes (mypyc compiles no subclass of a built-in exception)."""

from __future__ import annotations


class GameError(RuntimeError):
    """A rulebook or card effect did something impossible at run time (a data bug, located)."""


class IllegalAnswer(ValueError):
    """An answer that is not a legal choice for the pending decision."""
