"""The engine's run-time error, in a module of its own so that compiled builds leave it a plain
Python class (mypyc compiles no subclass of a built-in exception)."""

from __future__ import annotations


class GameError(RuntimeError):
    """A rulebook or card effect did something impossible at run time (a data bug, located)."""
