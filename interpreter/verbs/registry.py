"""The closed vocabulary of primitive verbs.

A rulebook's effects are lists of steps; each step is a one-key mapping `{verb: {args}}`.
Every verb registers here with the kinds of its arguments, so the loader can compile and check
steps once, and `schemas/effect.schema.json` can be checked against this list in the tests.

Argument kinds: expr (an expression or literal), zone, zones, effect (nested steps), name,
str, bool, enum:a|b, options, fields (name -> expr), event, state, template, role, node,
duration, spec (a raw mapping checked by the verb), value (any literal). A trailing `?` marks
an optional argument.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

Gen = Generator[Any, Any, Any]
VerbFn = Callable[..., Gen]


@dataclass(frozen=True)
class VerbSpec:
    name: str
    fn: VerbFn
    args: dict[str, str]
    doc: str

    def required(self) -> set[str]:
        return {k for k, v in self.args.items() if not v.endswith("?")}


VERBS: dict[str, VerbSpec] = {}


def verb(name: str, args: dict[str, str]) -> Callable[[VerbFn], VerbFn]:
    """Register a verb implementation `fn(game, args, ctx)` (a generator)."""

    def deco(fn: VerbFn) -> VerbFn:
        VERBS[name] = VerbSpec(name, fn, args, (fn.__doc__ or "").strip())
        return fn

    return deco


@dataclass(frozen=True, slots=True)
class Step:
    """One compiled effect step."""

    verb: str
    fn: VerbFn
    args: dict[str, Any]
    where: str  # file:line:col of the step, for runtime error messages


def load_all() -> dict[str, VerbSpec]:
    """Import every verb module so the registry is complete."""
    from interpreter.verbs import cards, choice, control, effects, flow, procedures  # noqa: F401

    return VERBS
