"""Evaluation environments.

The game supplies an `Env`; the expression layer never touches Python attributes directly so that the
game decides what ``it.cost`` means (printed value, continuous effects, hidden information...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from .errors import ExprRuntimeError, type_name

AttrHook = Callable[[Any, str], Any]


@runtime_checkable
class Env(Protocol):
    """What a compiled expression needs from its caller at evaluation time."""

    def lookup(self, name: str) -> Any:
        """Value of a free name; raise ExprRuntimeError if it is not defined."""
        ...

    def attr(self, obj: Any, name: str) -> Any:
        """Value of ``obj.name`` as the game defines it."""
        ...

    def with_it(self, value: Any) -> Env:
        """An environment identical to this one except that ``it`` is ``value``."""
        ...


def default_attr(obj: Any, name: str) -> Any:
    """Attribute hook for plain data: dict keys, and null propagates (``null.x`` is null)."""
    if type(obj) is dict:  # fast path: isinstance against the Mapping ABC is slow
        return obj.get(name)
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(name)
    raise ExprRuntimeError(f"cannot read attribute '{name}' of {type_name(obj)}")


class DictEnv:
    """An `Env` over a mapping of names, with an optional attribute hook (default: `default_attr`)."""

    __slots__ = ("names", "attr")

    def __init__(self, names: Mapping[str, Any] | None = None, attr: AttrHook | None = None) -> None:
        self.names: Mapping[str, Any] = names if names is not None else {}
        # Stored as an instance attribute (not a method) so env.attr(...) calls the hook directly.
        self.attr: AttrHook = attr if attr is not None else default_attr

    def lookup(self, name: str) -> Any:
        try:
            return self.names[name]
        except KeyError:
            raise ExprRuntimeError(f"name '{name}' is not defined") from None

    def with_it(self, value: Any) -> Env:
        return ItEnv(self, value)

    def extend(self, names: Mapping[str, Any]) -> DictEnv:
        """A new DictEnv with extra or overriding names and the same attribute hook."""
        return DictEnv({**self.names, **names}, self.attr)


class ItEnv:
    """Binds ``it`` on top of any `Env`; reusable by game environments to implement ``with_it``."""

    __slots__ = ("base", "it", "attr")

    def __init__(self, base: Env, it: Any) -> None:
        # Nested where/select rebind ``it``; always wrap the base so chains never grow.
        self.base: Env = base.base if type(base) is ItEnv else base
        self.it = it
        self.attr: AttrHook = self.base.attr

    def lookup(self, name: str) -> Any:
        if name == "it":
            return self.it
        return self.base.lookup(name)

    def with_it(self, value: Any) -> Env:
        return ItEnv(self.base, value)

    def __getattr__(self, name: str) -> Any:
        # Anything else is the base environment's, so readers of fixed names work here too.
        return getattr(self.base, name)
