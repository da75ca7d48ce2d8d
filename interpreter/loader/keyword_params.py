"""Keywords with parameters: 〔チャージ3000〕, 【ドン!!×1】, a counter value.

A keyword declares its parameters (`params: {n: {type: int, default: 1}}`); an ability lists it bare
(every parameter takes its default) or with values (`{charge: 3000}` for a keyword of one parameter,
`{unity: {n: 3, name: X}}` for several); a default of null makes a parameter that may be left out and
then reads as null (a keyword printed with or without its value). The keyword's own expressions (a
condition's `if`, a trigger's `if` / `state`) read the values as `kw.NAME`: they are compiled once for
each set of values the cards give, with `kw` fixed to those values, so nothing is looked up while the
game runs.
"""

from __future__ import annotations

from typing import Any, Final

from interpreter.expr import ExprError, parse, walk
from interpreter.expr.compiler import constant
from interpreter.expr.nodes import Attr, Name
from interpreter.loader.compile import IDENT, Compiler, Loc
from interpreter.loader.schema import did_you_mean

KW: Final = "kw"
"""The name a keyword's expressions read its parameters by."""
TYPES: Final = ("int", "string", "strings", "bool")

Param = tuple[str, str, bool, Any]
"""A declared parameter: (name, type, whether it has a default, the default)."""


def type_ok(kind: str, value: Any) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, bool)


def _expected(kind: str) -> str:
    return {"int": "an integer", "string": "a string", "strings": "a list of strings", "bool": "true or false"}[kind]


def declare(kid: str, k: dict[str, Any], loc: Loc, comp: Compiler) -> tuple[Param, ...]:
    """The parameters a keyword declares (`params`), each checked: a name, a known type, a default of
    that type or null (the parameter may be left out: a keyword printed with or without its value)."""
    raw = k.get("params")
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        comp.error(loc.at("params"), f"keyword '{kid}': 'params' is a mapping of parameter names to their "
                                     "types, e.g. {n: {type: int}}")
        return ()
    out: list[Param] = []
    for name, spec in raw.items():
        pl = loc.at("params", name)
        if not isinstance(name, str) or not IDENT.match(name):
            comp.error(pl, f"keyword '{kid}': a parameter is named with letters, digits and _, got {name!r}",
                       at_key=True)
            continue
        if isinstance(spec, str):
            spec = {"type": spec}
        if not isinstance(spec, dict) or spec.get("type") not in TYPES:
            got = spec.get("type") if isinstance(spec, dict) else spec
            comp.error(pl, f"keyword '{kid}': parameter '{name}' has type {got!r}; expected one of "
                           f"{', '.join(TYPES)} (as {{type: int}} or {{type: int, default: 1}})")
            continue
        for key in spec:
            if key not in ("type", "default"):
                comp.error(pl.at(key), f"unknown key '{key}' in parameter '{name}' (allowed: type, default)"
                                       f"{did_you_mean(key, ('type', 'default'))}", at_key=True)
        kind = str(spec["type"])
        if "default" in spec and spec["default"] is not None and not type_ok(kind, spec["default"]):
            comp.error(pl.at("default"), f"keyword '{kid}': the default of parameter '{name}' must be "
                                         f"{_expected(kind)}, got {spec['default']!r}")
        out.append((name, kind, "default" in spec, spec.get("default")))
    return tuple(out)


def check_reads(kid: str, params: tuple[Param, ...], src: Any, loc: Loc, comp: Compiler) -> None:
    """A keyword expression reads only parameters the keyword declares (`kw.NAME`)."""
    if not params or not isinstance(src, str):
        return
    try:
        tree = parse(src)
    except ExprError:
        return  # reported where it is compiled
    names = {p[0] for p in params}
    for node in walk(tree):
        if isinstance(node, Attr) and isinstance(node.obj, Name) and node.obj.name == KW and node.name not in names:
            comp.error(loc, f"keyword '{kid}' has no parameter '{node.name}' (its parameters: {', '.join(names)})")


def defaults(params: tuple[Param, ...]) -> dict[str, Any]:
    return {name: default for name, _, has, default in params if has}


def given(kid: str, params: tuple[Param, ...], value: Any, loc: Loc, comp: Compiler,
          bare: bool) -> dict[str, Any]:
    """The parameters an ability gives a keyword: its defaults, then the values written (`bare`: the
    keyword is listed by its id alone), each checked against the declaration (a located error for a
    missing, unknown or mistyped one)."""
    out = defaults(params)
    names = [p[0] for p in params]
    if not params:
        if not bare:
            comp.error(loc, f"keyword '{kid}' takes no parameters; list it by its id alone")
        return out
    if bare:
        written: dict[str, Any] = {}
    elif isinstance(value, dict):
        written = value
        for name in value:
            if name not in names:
                comp.error(loc.at(name), f"keyword '{kid}' has no parameter '{name}' (its parameters: "
                                         f"{', '.join(names)})", at_key=True)
    elif len(params) == 1:
        written = {names[0]: value}
    else:
        comp.error(loc, f"keyword '{kid}' takes parameters {', '.join(names)}: write "
                        f"{{{kid}: {{{', '.join(n + ': ...' for n in names)}}}}}")
        return out
    for name, kind, _, _ in params:
        if name in written:
            if not type_ok(kind, written[name]):
                at = loc.at(name) if isinstance(value, dict) else loc
                comp.error(at, f"keyword '{kid}': parameter '{name}' must be {_expected(kind)}, got "
                               f"{written[name]!r}")
            out[name] = written[name]
        elif name not in out:
            comp.error(loc, f"keyword '{kid}' needs parameter '{name}' ({kind}): write "
                            + (f"{{{kid}: VALUE}}" if len(params) == 1 else f"{{{kid}: {{{name}: VALUE, ...}}}}"))
    return {name: out[name] for name in names if name in out}  # in the order declared


def _key(values: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items()))


def compile_for(entry: dict[str, Any], values: dict[str, Any], comp: Compiler) -> dict[str, Any]:
    """The keyword's expressions compiled with `kw` fixed to these values (once per set of values:
    cached in the keyword's entry). Returns {"if_c": ..., "trigger_c": ...} as the keyword has them."""
    cache: dict[tuple[Any, ...], dict[str, Any]] = entry.setdefault("variants_c", {})
    key = _key(values)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = compile_exprs(entry, dict(values), comp)
    return hit


def compile_exprs(entry: dict[str, Any], values: dict[str, Any], comp: Compiler) -> dict[str, Any]:
    """Compile a keyword's `if` and `trigger` with `kw` fixed to `values` (its declaration's `loc_c`
    locates any report)."""
    loc: Loc = entry["loc_c"]
    out: dict[str, Any] = {}
    saved = comp.bound
    comp.bound = {**saved, KW: constant(values)}
    try:
        if entry.get("kind") == "condition":
            out["if_c"] = comp.expr(entry.get("if", True), loc.at("if"))
        if "trigger" in entry:
            out["trigger_c"] = comp.trigger(entry["trigger"], loc.at("trigger"))
    finally:
        comp.bound = saved
    return out


def label(kid: str, values: dict[str, Any] | None) -> str:
    """How a keyword with its values is shown to players: `charge(3000)`, `unity(n=3, name=X)`; a
    parameter left null is not shown (`blocker`, not `blocker(None)`)."""
    values = {k: v for k, v in (values or {}).items() if v is not None}
    if not values:
        return kid
    if len(values) == 1:
        return f"{kid}({next(iter(values.values()))})"
    return f"{kid}({', '.join(f'{k}={v}' for k, v in values.items())})"


__all__ = ["KW", "TYPES", "check_reads", "compile_exprs", "compile_for", "declare", "given", "label"]
