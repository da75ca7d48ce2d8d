"""The one store of facts the engine derives from the state, each kept with what it read.

A derived fact (a rulebook function's value, whether a rule process's condition is false, which cards'
abilities work, whether a card's text could change the game) is worked out, kept here with the
*reads* that produced it, and answered from here until one of those reads changes:

- a place, `(zone, player)` (the zone's cards and their states, counters and marks: what a move, a state
  change or a card's counter reports through `changed`);
- `GLOBAL`, the game outside its zones (variables, roles, the turn, players' statuses and counters);
- `EFFECTS`, what continuous effects make of cards (their generation, interpreter/derive/continuous.py);
- `PLAYER_COUNTERS`, players' counters and statuses (read by `counter(p, name)`);
- `ABILITY_ZONES`, the cards in the zones where abilities work (which cards' abilities work);
- or `None` as a whole: it cannot tell what it read, so it is kept only while the game's version (bumped
  by every change) stays the same.

What a fact may read is known statically from the rulebook's compiled expressions
(interpreter/table/reads.py); the callers pass it in. The store itself knows nothing of games: it maps
numbers to values and reads to the numbers that read them. With `on` false it keeps nothing, so every fact
is worked out afresh: games must come out the same, byte for byte (tests/test_derived.py), which is how a
missing report of a change is caught.

A fact is known by a number (`number`), given once per key for the game's life: a lookup by number is a
list index, and the hot callers (rule processes, checked after every action) keep their numbers.
"""

from __future__ import annotations

from typing import Any, Final

GLOBAL: Final = ("$global", None)
"""The read of anything outside the zones: variables, roles, the turn, players' statuses and counters."""

EFFECTS: Final = ("$effects", None)
"""The read of what continuous effects make of cards' fields and abilities."""

ABILITY_ZONES: Final = ("$ability_zones", None)
"""The read of the cards in the zones where abilities work (and whether they are face down): which
cards' abilities work."""

PLAYER_COUNTERS: Final = ("$player_counters", None)
"""The read of players' counters and statuses, which conditions that read only zones and cards may read
too (`counter(p, ...)`, table/reads.py)."""

MISSING: Final = object()
"""What `get` answers for a fact not known (never worked out, or forgotten since)."""

KEEP_FACTS = True
"""Whether a new game's store keeps facts at all: tests/test_derived.py sets it false to play every
golden game with each fact worked out afresh."""

_STAYS: Final = -1
"""The stamp of a fact kept until one of its reads changes (the others keep the version they were made at)."""


class Derived:
    """Derived facts by number, with the places and other reads each depends on."""

    __slots__ = ("on", "numbers", "values", "stamps", "readers", "tables")

    def __init__(self, on: bool | None = None) -> None:
        self.on = KEEP_FACTS if on is None else on  # false: nothing is kept (the check that changes are reported)
        self.numbers: dict[Any, int] = {}  # key -> number
        self.values: list[Any] = []  # number -> value, or MISSING
        self.stamps: list[int] = []  # number -> the version it holds at, or _STAYS
        # read -> numbers of the facts that read it. Reads are kept as the tuple objects they came in
        # (typed Any): a typed tuple would be unpacked by a compiled build and built again per lookup.
        self.readers: dict[Any, set[int]] = {}
        self.tables: dict[str, dict[Any, int]] = {}  # owner -> its keys' numbers (`table`)

    def number(self, key: Any) -> int:
        """The number of the fact named by `key` (any hashable value), the same for the game's life."""
        n = self.numbers.get(key)
        if n is None:
            n = self.numbers[key] = len(self.values)
            self.values.append(MISSING)
            self.stamps.append(_STAYS)
        return n

    def table(self, owner: str) -> dict[Any, int]:
        """The numbers of one owner's facts by their own keys (a rulebook function's by its arguments):
        looked up without building a key that names the owner. `number_in` adds to it."""
        nums = self.tables.get(owner)
        if nums is None:
            nums = self.tables[owner] = {}
        return nums

    def number_in(self, nums: dict[Any, int], owner: str, key: Any) -> int:
        """The number of `owner`'s fact `key` (named `(owner, key)` among all facts), added to its table."""
        n = nums[key] = self.number((owner, key))
        return n

    def get(self, n: int, version: int) -> Any:
        """The fact's value, or MISSING if it is not known at this version of the game."""
        value = self.values[n]
        if value is not MISSING:
            stamp = self.stamps[n]
            if stamp != _STAYS and stamp != version:
                return MISSING
        return value

    def keep(self, n: int, value: Any, reads: Any, version: int) -> None:
        """Keep a fact worked out at `version`, until one of `reads` changes (an iterable of reads), or
        with `reads` None until the version moves on."""
        if not self.on:
            return
        self.values[n] = value
        if reads is None:
            self.stamps[n] = version
            return
        self.stamps[n] = _STAYS
        readers = self.readers
        for r in reads:
            waiting = readers.get(r)
            if waiting is None:
                readers[r] = {n}
            else:
                waiting.add(n)

    def forget(self, n: int) -> None:
        self.values[n] = MISSING

    def changed(self, read: Any) -> None:
        """A place (or GLOBAL, or EFFECTS) changed: forget the facts that read it."""
        gone = self.readers.pop(read, None)
        if gone is not None:
            values = self.values
            for n in gone:
                values[n] = MISSING

    def changed_all(self) -> None:
        """Anything may have changed: forget every fact."""
        self.values = [MISSING] * len(self.values)
        self.readers.clear()

    def known_keys(self) -> set[Any]:
        """The keys of the facts known now whatever the version (for tests and debugging)."""
        return {k for k, n in self.numbers.items() if self.values[n] is not MISSING and self.stamps[n] == _STAYS}
