"""Rule-process bindings known idle: a condition that was false stays false until a place it reads
changes (interpreter/timing/rule_processing.py checks the processes; the game reports changes,
interpreter/derive/changes.py)."""

from __future__ import annotations

from typing import Any

from interpreter.model.rulebook import RuleProcess

Binding = tuple[RuleProcess, Any, Any, int]
"""One binding of a process: the process, its player `p`, its zone `z` and its number in `IdleBindings`."""


class KeptBindings:
    """One process list's bindings, kept per assignment of the roles (`_bindings`)."""

    __slots__ = ("procs", "version", "by_roles", "current")

    def __init__(self, procs: list[RuleProcess], version: int,
                 by_roles: dict[tuple[tuple[str, int], ...], list[Binding]], current: list[Binding]) -> None:
        self.procs = procs  # the list itself: an id alone may be reused once the list is gone
        self.version = version  # the game's global version when `current` was last checked
        self.by_roles = by_roles
        self.current = current


class IdleBindings:
    """Rule-process bindings whose condition was false, until a (zone, player) place they read
    changes. Rule processes are checked after every action, and almost always nothing they read
    has changed.

    Only conditions that read nothing but zones, cards and their bound player and zone are kept
    (`RuleProcess.zone_only`): the game reports every change to a place (`changed`), and a change
    to what continuous effects make of cards clears everything (`changed_all`). A condition that
    reads a variable, a status, a pending ability, the turn or a positional name such as `you` or
    `node` is evaluated every time, since those change in many places that report nothing.

    A binding is known by a number (`number`), not by its (process, player, zone) key, and whether
    it is idle is a flag at that index: it is looked up for every binding at every check."""

    __slots__ = ("idle", "readers", "effects", "places", "numbers", "lists")

    def __init__(self) -> None:
        self.idle: list[bool] = []  # binding -> idle
        # Places are kept as the tuple objects they came in (typed Any): a typed tuple would be
        # unpacked by a compiled build and built again for every dict lookup.
        self.readers: dict[Any, set[int]] = {}
        self.effects: Any = None
        self.places: dict[int, list[Any] | None] = {}  # binding -> `_places`
        self.numbers: dict[tuple[Any, ...], int] = {}  # (process id, player, zone) -> binding
        self.lists: dict[int, KeptBindings] = {}  # `_bindings`' lists (id of the process list -> kept)

    def number(self, key: tuple[Any, ...]) -> int:
        n = self.numbers.get(key)
        if n is None:
            n = self.numbers[key] = len(self.numbers)
            self.idle.append(False)
        return n

    def idle_keys(self) -> set[tuple[Any, ...]]:
        """The (process id, player, zone) keys of the idle bindings, for tests and debugging."""
        keys = {n: k for k, n in self.numbers.items()}
        return {keys[n] for n, idle in enumerate(self.idle) if idle}

    def changed(self, key: Any) -> None:
        """A (zone, player) place changed: the bindings that read it are checked again."""
        readers = self.readers
        gone = readers.get(key)
        if gone is not None:
            del readers[key]
            idle = self.idle
            for n in gone:
                idle[n] = False

    def changed_all(self) -> None:
        self.idle = [False] * len(self.idle)
        self.readers.clear()

    def mark(self, binding: int, keys: list[Any]) -> None:
        """A binding's condition is false until one of these (zone, player) places changes."""
        self.idle[binding] = True
        readers = self.readers
        for k in keys:
            waiting = readers.get(k)
            if waiting is None:
                readers[k] = {binding}
            else:
                waiting.add(binding)
