"""The closed vocabulary of primitive verbs.

A rulebook's effects are lists of steps; each step is a one-key mapping `{verb: {args}}`.
Every verb registers here with the kinds of its arguments, so the loader can compile and check
steps once, and `schemas/effect.schema.json` can be checked against this list in the tests.

Argument kinds are listed in ARG_KINDS; a trailing `?` marks an optional argument, and the key `*`
stands for any other key (its kind is that of every such argument).

Each verb's docstring says what it does and ends with an `Example:` section, one step in YAML: the
generated reference (`sogo reference`, docs/reference.md) reads both, and tests/test_reference.py
checks that every verb has them and that each example compiles. Each verb also says how a step of it
reads in plain English (`reads`, a reading with its arguments as placeholders, interpreter/reading):
`sogo cards review` and `sogo card` describe an ability with it, for a reviewer who reads no YAML.
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
    reads: str = ""  # how a step reads in English, its arguments as placeholders (interpreter/reading/fill.py)

    def required(self) -> set[str]:
        return {k for k, v in self.args.items() if not v.endswith("?")}


VERBS: dict[str, VerbSpec] = {}

ARG_KINDS: dict[str, str] = {
    "expr": "an expression (or a literal number, true, false, null, or a list of expressions)",
    "zone": "a zone id the rulebook declares",
    "zones": "a list of zone ids",
    "effect": "a list of steps",
    "name": "a name (letters, digits and `_`, not starting with a digit), e.g. one the step binds",
    "str": "a literal string",
    "bool": "true or false",
    "enum": "one of the words given (`enum:a|b` in the registry, shown here as \"`a` or `b`\")",
    "options": "a list of options, each `{id, label?, if?, do}`",
    "fields": "a mapping of names to expressions",
    "event": "an event id the rulebook declares (`events:`)",
    "state": "a placement state id the rulebook declares (`placement_states:`)",
    "template": "a template id the rulebook declares (`templates:`)",
    "role": "a role id the rulebook declares (`roles:`)",
    "node": "the id of a turn, phase or step of the turn structure",
    "duration": "a duration id the rulebook declares (`durations:`)",
    "durations": "a list of duration ids",
    "actions": "a list of action ids the rulebook declares (`actions:`)",
    "move_kind": "a kind of move the rulebook declares (`zone_rules.move_kinds`)",
    "keyword": "a keyword id the rulebook declares (`keywords:`)",
    "rules": "a list of rule numbers, each a string",
    "spec": "a mapping describing the effect created (the keys it reads are listed with the verb)",
    "value": "any literal value",
}
"""What each kind of verb argument takes (`enum:a|b` takes a or b): the generated reference lists a
verb's arguments with their kinds, and tests/test_reference.py checks that every kind a verb uses is here."""


def verb(name: str, args: dict[str, str], reads: str = "") -> Callable[[VerbFn], VerbFn]:
    """Register a verb implementation `fn(game, args, ctx)` (a generator) and how a step of it reads."""

    def deco(fn: VerbFn) -> VerbFn:
        VERBS[name] = VerbSpec(name, fn, args, (fn.__doc__ or "").strip(), reads)
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
