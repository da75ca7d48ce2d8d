"""Functions a rulebook defines as expressions over their parameters (its `functions:`), as
expressions call them. A pure one is memoised until the game state changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from interpreter.state.objects import GameObject

if TYPE_CHECKING:
    from interpreter.table.table import Table

_SCALARS: Final = frozenset({int, str, bool, type(None)})
_MISSING: Final = object()


class RulebookFunction:
    """A function the rulebook defines as an expression over its parameters.

    A pure one (it reads nothing but its parameters, the roles and the turn) is memoised until the
    game state changes: play legality asks the same question for every card in hand."""

    __slots__ = ("fid", "params", "body", "pure")

    def __init__(self, fid: str, params: list[str]) -> None:
        self.fid = fid
        self.params = params
        self.body: Any = None  # compiled once every function is declared
        self.pure = False

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
            memo = _memo(env.game, self.fid)
            value = memo.get(a, _MISSING)  # no try/except: a compiled build pays dearly for raising
            if value is _MISSING:
                value = memo[a] = self.body(env.child(vars={self.params[0]: a}))
            return value
        return self.call(env, (a,))

    def call(self, env: Any, args: tuple[Any, ...]) -> Any:
        if not self.pure:
            return self.run(env, args)
        memo = _memo(env.game, self.fid)
        key = tuple([_memo_key(a) for a in args])
        try:
            value = memo.get(key, _MISSING)
        except TypeError:  # an unhashable argument (a list): just compute
            return self.run(env, args)
        if value is _MISSING:
            value = memo[key] = self.run(env, args)
        return value

    def run(self, env: Any, args: tuple[Any, ...]) -> Any:
        """The body, with the parameters bound to `args`."""
        return self.body(env.child(vars=dict(zip(self.params, args, strict=False))))


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
