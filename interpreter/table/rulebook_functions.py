"""Functions a rulebook defines as expressions over their parameters (its `functions:`), as
expressions call them. A pure one is kept in the game's store of derived facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from interpreter.state.objects import GameObject
from interpreter.table.derived import MISSING, PLAYER_COUNTERS

if TYPE_CHECKING:
    from interpreter.table.table import Table

_SCALARS: Final = frozenset({int, str, bool, type(None)})


class RulebookFunction:
    """A function the rulebook defines as an expression over its parameters.

    A pure one (it reads nothing but its parameters, the roles and the turn, besides the zones and
    cards) is kept in the game's store of derived facts (table/derived.py): play legality and rule
    processes ask the same questions again and again. What it reads is found when the rulebook is
    loaded (`places`): the zones it reads, for the player its first parameter names where it names
    one, when it reads nothing but zones and cards whose fields no continuous effect changes; such a
    value is kept until one of those zones changes, any other until the game changes at all."""

    __slots__ = ("fid", "params", "body", "pure", "places")

    def __init__(self, fid: str, params: list[str]) -> None:
        self.fid = fid
        self.params = params
        self.body: Any = None  # compiled once every function is declared
        self.pure = False
        # The (zone, who) places a pure function reads, who being None (a shared zone), PARAM (the
        # player its first argument names) or EVERY (each player's); None: it cannot tell.
        self.places: list[tuple[str, Any]] | None = None

    def entry(self) -> Callable[..., Any]:
        """What expressions call: `(env, *args)`, with the usual one-argument call kept apart
        (a compiled build parses a star-argument call slowly)."""
        if len(self.params) == 1:
            def one(env: Any, a: Any) -> Any:
                return self.call1(env, a)
            return one

        def fn(env: Any, *args: Any) -> Any:
            return self.call(env, args)
        return fn

    def call1(self, env: Any, a: Any) -> Any:
        if self.pure and type(a) in _SCALARS:  # the usual call: a player
            game: Table = env.game
            derived = game.derived
            key = (self.fid, a)
            n = derived.numbers.get(key)  # no try/except: a compiled build pays dearly for raising
            value = MISSING if n is None else derived.get(n, game.version)
            if value is MISSING:
                if n is None:
                    n = derived.number(key)
                value = self.body(env.child(vars={self.params[0]: a}))
                derived.keep(n, value, self.reads(game, (a,)), game.version)
            return value
        return self.call(env, (a,))

    def call(self, env: Any, args: tuple[Any, ...]) -> Any:
        if not self.pure:
            return self.run(env, args)
        game: Table = env.game
        derived = game.derived
        key = (self.fid, tuple([_memo_key(a) for a in args]))
        try:
            n = derived.number(key)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run(env, args)
        value = derived.get(n, game.version)
        if value is MISSING:
            value = self.run(env, args)
            derived.keep(n, value, self.reads(game, args), game.version)
        return value

    def run(self, env: Any, args: tuple[Any, ...]) -> Any:
        """The body, with the parameters bound to `args`."""
        return self.body(env.child(vars=dict(zip(self.params, args, strict=False))))

    def reads(self, game: Table, args: tuple[Any, ...]) -> list[Any] | None:
        """The places a call with `args` reads: the function's own, and where the cards it is given
        are (None: it cannot tell)."""
        places = self.places
        if places is None:
            return None
        first = args[0] if args else None
        out: list[Any] = []
        for zone, who in places:
            if who is None:
                out.append((zone, None))
            elif who == PARAM and type(first) is int:
                out.append((zone, first))
            else:
                out.extend((zone, p) for p in range(game.state.num_players))
        for a in args:
            if type(a) is GameObject:
                out.append((a.zone, a.zone_player))
        out.append(PLAYER_COUNTERS)
        return out


PARAM: Final = "$param"
"""In `RulebookFunction.places`: the player the first argument names."""

EVERY: Final = "*"
"""In `RulebookFunction.places`: each player's zone."""


def _memo_key(a: Any) -> Any:
    """An argument as a key: a card by its object id (cards compare field by field and do not
    hash), anything else as it is."""
    return ("#", a.oid) if type(a) is GameObject else a
