"""Functions a rulebook defines as expressions over their parameters (its `functions:`), as
expressions call them. A pure one is memoised until the game state changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from interpreter.expr.errors import ExprRuntimeError
from interpreter.state.objects import GameObject

if TYPE_CHECKING:
    from interpreter.table.table import Table

_SCALARS: Final = frozenset({int, str, bool, type(None)})
_MISSING: Final = object()


class RulebookFunction:
    """A function the rulebook defines as an expression over its parameters.

    A pure one (it reads nothing but its parameters, the roles and the turn) is memoised until the
    game state changes: play legality asks the same question for every card in hand."""

    __slots__ = ("fid", "params", "body", "pure", "fn", "src", "p0", "p1", "p2")

    def __init__(self, fid: str, params: list[str]) -> None:
        self.fid = fid
        self.params = params
        self.body: Any = None  # compiled once every function is declared (`define`)
        self.pure = False
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
        memo = _memo(env.game, self.fid)
        if type(a) in _SCALARS:  # the usual call: a player
            value = memo.get(a, _MISSING)  # no try/except: a compiled build pays dearly for raising
            if value is _MISSING:
                value = memo[a] = self.run({self.p0: a}, env)
            return value
        key = (_memo_key(a),)
        try:
            value = memo.get(key, _MISSING)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run({self.p0: a}, env)
        if value is _MISSING:
            value = memo[key] = self.run({self.p0: a}, env)
        return value

    def call2(self, env: Any, a: Any, b: Any) -> Any:
        if not self.pure:
            return self.run({self.p0: a, self.p1: b}, env)
        memo = _memo(env.game, self.fid)
        key = (_memo_key(a), _memo_key(b))
        try:
            value = memo.get(key, _MISSING)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run({self.p0: a, self.p1: b}, env)
        if value is _MISSING:
            value = memo[key] = self.run({self.p0: a, self.p1: b}, env)
        return value

    def call3(self, env: Any, a: Any, b: Any, c: Any) -> Any:
        if not self.pure:
            return self.run({self.p0: a, self.p1: b, self.p2: c}, env)
        memo = _memo(env.game, self.fid)
        key = (_memo_key(a), _memo_key(b), _memo_key(c))
        try:
            value = memo.get(key, _MISSING)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run({self.p0: a, self.p1: b, self.p2: c}, env)
        if value is _MISSING:
            value = memo[key] = self.run({self.p0: a, self.p1: b, self.p2: c}, env)
        return value

    def call(self, env: Any, args: tuple[Any, ...]) -> Any:
        if not self.pure:
            return self.run(dict(zip(self.params, args, strict=False)), env)
        memo = _memo(env.game, self.fid)
        key = tuple([_memo_key(a) for a in args])
        try:
            value = memo.get(key, _MISSING)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run(dict(zip(self.params, args, strict=False)), env)
        if value is _MISSING:
            value = memo[key] = self.run(dict(zip(self.params, args, strict=False)), env)
        return value

    def run(self, bound: dict[str, Any], env: Any) -> Any:
        """The body, with the parameters bound as `bound` says, in a scope nested in the caller's."""
        try:
            return self.fn(env.child(vars=bound))
        except ExprRuntimeError as err:
            if err.src is None:
                err.src = self.src
            raise


def _undefined(env: Any) -> Any:
    """The body of a function not defined yet."""
    return None


def _memo_key(a: Any) -> Any:
    """An argument as a memo key: a card by its object id (cards compare field by field and do
    not hash), anything else as it is."""
    return ("#", a.oid) if type(a) is GameObject else a


def _memo(game: Table, fid: str) -> dict[Any, Any]:
    """The values one rulebook function has given since the game state last changed."""
    if game.fn_memo_version != game.version:
        game.fn_memo = {}
        game.fn_memo_version = game.version
    table = game.fn_memo.get(fid)
    if table is None:
        table = game.fn_memo[fid] = {}
    return table
