"""The names a rulebook or card file binds (`as:`, `let`, `set_var`, parameters), which expressions
may then use, and the check that none of them takes a name the engine gives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from interpreter.engine.context import GLOBAL_NAMES
from interpreter.loader.compile import Loc
from interpreter.loader.diagnostics import Diagnostics

BINDING_KEYS = {"as"}


def collect_names(value: Any, out: set[str]) -> None:
    """Add every name bound anywhere in `value` to `out`, for expression checks."""
    out.update(name for name, _, _ in bound_names(value, ()))


def bound_names(value: Any, path: tuple[Any, ...]) -> Iterator[tuple[str, tuple[Any, ...], bool]]:
    """Every name bound in `value`: (name, path, whether the path's last key is the name itself)."""
    if isinstance(value, dict):
        for k, v in value.items():
            here = (*path, k)
            if k in BINDING_KEYS and isinstance(v, str):
                yield v, here, False
            elif k == "let" and isinstance(v, dict):
                yield from ((str(n), (*here, n), True) for n in v)
            elif k == "set_var" and isinstance(v, dict) and isinstance(v.get("name"), str):
                yield v["name"], (*here, "name"), False
            elif k == "params":
                if isinstance(v, dict):
                    yield from ((str(n), (*here, n), True) for n in v)
                elif isinstance(v, list):
                    yield from ((str(n), (*here, i), False) for i, n in enumerate(v))
            elif k == "check_timing" and isinstance(v, dict) and isinstance(v.get("as"), str):
                yield v["as"], (*here, "as"), False
            elif k == "for_each_player":
                yield "p", here, True
            elif k == "for_each_zone":
                yield "z", here, True
            yield from bound_names(v, here)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from bound_names(v, (*path, i))


def positional_bindings(value: Any, where: Callable[[tuple[Any, ...]], Loc], diags: Diagnostics) -> None:
    """Report every binding of a name the engine gives (`you`, `this`, `turn`...): expressions read
    those straight from the context, so a rulebook or card binding one would be silently ignored."""
    for name, path, at_key in bound_names(value, ()):
        if name in GLOBAL_NAMES:
            loc = where(path)
            line, col = loc.key_pos() if at_key else loc.pos()
            diags.add(loc.file, line, col, f"'{name}' is a name the engine gives "
                      f"({', '.join(sorted(GLOBAL_NAMES))}); bind another name")
