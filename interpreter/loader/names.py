"""The names a rulebook or card file binds (`as:`, `let`, `set_var`, parameters), which expressions
may then use, and the check that none of them takes a name the engine gives."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from interpreter.loader.compile import Loc
from interpreter.loader.diagnostics import Diagnostics
from interpreter.table.context import GLOBAL_NAMES

BINDING_KEYS = {"as"}

BINDINGS: dict[str, str] = {
    "as": "a step's result under the name given (`choose`, `choose_player`, `look`, `roll`, `for_each` and "
          "the others with an `as` argument), from that step on",
    "let": "each name of a `let` step, in the scope the step runs in",
    "set_var": "a game variable (`set_var: {name: N, ...}`), read by every later step until it is set again",
    "params": "the parameters of a template (`call` passes them) or of a rulebook function",
    "for_each_player": "`p` in a rule process that is checked for each player",
    "for_each_zone": "`z` in a rule process that is checked for each zone",
    "roles": "each of the rulebook's `roles` (the player holding it; null until one does)",
    "designations": "each of the rulebook's `designations` (a name such as \"the opponent\" that a played "
                    "effect designates as it starts, and its `otherwise` expression elsewhere)",
    "functions": "each of the rulebook's own `functions` (called like the built-in ones)",
}
"""How a name becomes known to the loader, by the key (or section) that binds it: for the generated
reference (docs/reference.md). The loader accepts a name bound anywhere in a rulebook or card file in
every expression of it; tests/test_reference.py checks that each BINDING_KEYS entry is here."""

GIVEN_NAMES: dict[str, tuple[str, str, str]] = {
    "it": ("in `where` and `select`, and in a rulebook part that judges one item at a time",
           "Each item in turn: in a `where` condition or a `select` expression, and the item a part of the "
           "rulebook is judging (a candidate card in an action's `legal`, a card in a zone's `hidden_facts`, "
           "a candidate in `choose ... where`).", "cards('field', you) where it.power > 2"),
    "target": ("in a rulebook with `responses`",
               "What a response ability answers: a mapping with `kind` (what is being played), `card`, "
               "`player`, `ability_kind`, `keywords` and `negated`.", "target.player != you"),
    "chooser": ("in `choosing.unchoosable` entries",
                "The player who makes the choice (`you` is the master of the effect making it).",
                "chooser != it.owner"),
    "leavers": ("in a format's `after_leaving.winners`",
                "The players who have just left the game.", "players() where it not in leavers"),
    "p": ("in a rule process with `for_each_player`", "The player the process is checked for.",
          "count(cards('hand', p)) > 7"),
    "z": ("in a rule process with `for_each_zone`", "The zone the process is checked for.",
          "count(cards(z, you)) == 0"),
}
"""Names the engine gives only in some places (where, what, example), for the generated reference;
tests/test_reference.py checks that every name the loader adds for a part of the rulebook is here."""


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
