"""Functions a rulebook defines as expressions over their parameters (its `functions:`), as
expressions call them. A pure one is kept in the game's store of derived facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from interpreter.expr.errors import ExprRuntimeError
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

    __slots__ = ("fid", "params", "body", "pure", "places", "fn", "src", "p0", "p1", "p2")

    def __init__(self, fid: str, params: list[str]) -> None:
        self.fid = fid
        self.params = params
        self.body: Any = None  # compiled once every function is declared (`define`)
        self.pure = False
        # The (zone, who) places a pure function reads, who being None (a shared zone), PARAM (the
        # player its first argument names) or EVERY (each player's); None: it cannot tell.
        self.places: list[tuple[str, Any]] | None = None
        # The body's raw closure and source text: a call runs the closure itself (one Python call
        # fewer than through the compiled expression) and tags an error with the source as that would.
        self.fn: Callable[[Any], Any] = _undefined
        self.src: str | None = None
        # The first three parameters' names, read by the calls of one to three arguments.
        self.p0 = params[0] if params else ""
        self.p1 = params[1] if len(params) > 1 else ""
        self.p2 = params[2] if len(params) > 2 else ""

    def define(self, body: Any) -> None:
        """Give the function its body: a compiled expression (or a bare closure standing in for one
        that did not compile)."""
        self.body = body
        self.fn = getattr(body, "fn", body)
        self.src = getattr(body, "src", None)

    def entry(self) -> Callable[..., Any]:
        """What expressions call: `(env, *args)`, with the usual calls of one to three arguments kept
        apart (a compiled build parses a star-argument call slowly) and bound straight to their
        method (no closure in between)."""
        if len(self.params) == 1:
            return self.call1
        if len(self.params) == 2:
            return self.call2
        if len(self.params) == 3:
            return self.call3

        def fn(env: Any, *args: Any) -> Any:
            return self.call(env, args)
        return fn

    def call1(self, env: Any, a: Any) -> Any:
        if not self.pure:
            return self.run({self.p0: a}, env)
        return self.kept(env, a if type(a) in _SCALARS else _memo_key(a), (a,))  # the usual call: a player

    def call2(self, env: Any, a: Any, b: Any) -> Any:
        if not self.pure:
            return self.run({self.p0: a, self.p1: b}, env)
        return self.kept(env, (_memo_key(a), _memo_key(b)), (a, b))

    def call3(self, env: Any, a: Any, b: Any, c: Any) -> Any:
        if not self.pure:
            return self.run({self.p0: a, self.p1: b, self.p2: c}, env)
        return self.kept(env, (_memo_key(a), _memo_key(b), _memo_key(c)), (a, b, c))

    def call(self, env: Any, args: tuple[Any, ...]) -> Any:
        if not self.pure:
            return self.run(dict(zip(self.params, args, strict=False)), env)
        return self.kept(env, tuple([_memo_key(a) for a in args]), args)

    def kept(self, env: Any, key: Any, args: tuple[Any, ...]) -> Any:
        """The value for `args` from the game's store of derived facts (by `key`, the arguments as
        keys), worked out and kept with what it reads if it is not known."""
        game: Table = env.game
        derived = game.derived
        nums = derived.table(self.fid)
        try:
            n = nums.get(key)  # no try/except on the usual path: raising is dear when compiled
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run(dict(zip(self.params, args, strict=False)), env)
        if n is None:
            n = derived.number_in(nums, self.fid, key)
        else:
            value = derived.get(n, game.version)
            if value is not MISSING:
                return value
        value = self.run(dict(zip(self.params, args, strict=False)), env)
        derived.keep(n, value, self.reads(game, args), game.version)
        return value

    def run(self, bound: dict[str, Any], env: Any) -> Any:
        """The body, with the parameters bound as `bound` says, in a scope nested in the caller's."""
        try:
            return self.fn(env.child(vars=bound))
        except ExprRuntimeError as err:
            if err.src is None:
                err.src = self.src
            raise

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


def _undefined(env: Any) -> Any:
    """The body of a function not defined yet."""
    return None


def _memo_key(a: Any) -> Any:
    """An argument as a key: a card by its object id (cards compare field by field and do not
    hash), anything else as it is."""
    return ("#", a.oid) if type(a) is GameObject else a
