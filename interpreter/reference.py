"""The reference of the expression language and the effect vocabulary, generated from the code.

Every entry is read from the registry that defines it, where its text lives beside its code: the
built-in functions (interpreter/table/functions.py, each function's docstring), the verbs
(interpreter/verbs/, each verb's docstring) and their argument kinds (`ARG_KINDS`), the attributes of
a card (`ATTRIBUTES` in interpreter/table/attributes.py), the names the engine gives (`NAME_DOCS` in
interpreter/table/context.py, `GIVEN_NAMES` and `BINDINGS` in interpreter/loader/names.py), what a
player knows (`table/views.can_see`), the kinds of action (`ACTION_KINDS` in interpreter/timing/play_timing.py),
the operators (`OPERATORS` in interpreter/expr/parser.py) and the events the engine raises
(interpreter/state/events.py, examples in `EVENT_EXAMPLES` here). A docstring's `Example:` section is
the entry's example. Docstrings are read from the source files, so a compiled build (which drops them)
gives the same text.

`sogo reference` prints it; docs/reference.md is its output, and tests/test_reference.py checks that
the file is up to date, that no entry lacks a summary or an example (`problems`), and that every
example compiles against a toy rulebook.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

REGENERATE = "sogo reference --write docs/reference.md"
"""The command that rewrites docs/reference.md (`python -m interpreter.cli.main reference ...` in a checkout)."""

EVENT_EXAMPLES: dict[str, str] = {
    "moved": "{event: moved, if: \"event.card.owner == you and event.from == 'field' and event.to == 'discard'\"}",
    "state_changed": "{event: state_changed, if: \"event.card == this and event.state == 'face' and "
                     "event.value == 'up'\"}",
    "ability_resolved": "{event: ability_resolved, if: \"event.player == you and 'on_ping' in event.keywords\"}",
    "game_lost": "{event: game_lost, if: \"event.player != you\"}",
    "game_won": "{event: game_won, if: \"event.player == opponent\"}",
}
"""An example trigger (or replacement `event` and `if`) for each event of ENGINE_EVENTS, whose entries
carry their fields and when they are raised but no example."""


@dataclass(frozen=True)
class Entry:
    """One documented name: its summary and example, and where that text is written."""

    name: str
    summary: str
    example: str
    where: str
    signature: str = ""
    group: str = ""
    reads: str = ""  # how it reads in plain English (functions and verbs), placeholders for its arguments


# -- reading docstrings from the source ----------------------------------------------------------------
@cache
def _module_ast(module: str) -> ast.Module | None:
    """The parsed source of a module (beside a compiled module, its .py file)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin)
    if path.suffix != ".py":
        path = path.with_name(path.name.split(".", 1)[0] + ".py")
    if not path.is_file():
        return None
    return ast.parse(path.read_text(encoding="utf-8"))


def _definition(module: str, qualname: str) -> ast.FunctionDef | ast.ClassDef | ast.Module | None:
    """The function or class `qualname` (dotted for a method) of a module, or the module itself ('')."""
    node: Any = _module_ast(module)
    for part in qualname.split(".") if qualname else []:
        body = getattr(node, "body", [])
        node = next((n for n in body if isinstance(n, ast.FunctionDef | ast.ClassDef) and n.name == part), None)
        if node is None:
            return None
    return node


def docstring(module: str, qualname: str = "") -> str:
    """The cleaned docstring of a function, method, class or module ('' when it has none)."""
    node = _definition(module, qualname)
    text = ast.get_docstring(node) if node is not None else None
    return inspect.cleandoc(text) if text else ""


def _of(fn: Callable[..., Any]) -> tuple[str, str]:
    return fn.__module__, fn.__name__


def split_example(doc: str) -> tuple[str, str]:
    """A docstring as its text and its `Example:` section: what follows `Example:` on its line, or the
    indented lines under it (dedented)."""
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\s*Example:\s*(.*)$", line)
        if m is None:
            continue
        text = " ".join(x.strip() for x in lines[:i] if x.strip())
        inline = m.group(1).strip()
        if inline:
            return text, inline.strip("`")
        return text, textwrap.dedent("\n".join(lines[i + 1:])).strip()
    return " ".join(x.strip() for x in lines if x.strip()), ""


def _paragraph(doc: str) -> str:
    return " ".join(x.strip() for x in doc.splitlines() if x.strip())


def _where(module: str, qualname: str) -> str:
    return f"{module.replace('.', '/')}.py, {qualname}" if qualname else f"{module.replace('.', '/')}.py"


# -- the registries ----------------------------------------------------------------------------------
def _params(module: str, qualname: str, skip: int) -> list[str]:
    """A function's parameters after the first `skip`: optional ones end in `?`, a variadic one in `...`."""
    node = _definition(module, qualname)
    if not isinstance(node, ast.FunctionDef):
        return []
    args = node.args.posonlyargs + node.args.args
    first_default = len(args) - len(node.args.defaults)
    out = [a.arg + ("?" if i >= first_default else "") for i, a in enumerate(args)][skip:]
    if node.args.vararg is not None:
        out.append(node.args.vararg.arg + "...")
    return out


def parameters(fn: Callable[..., Any], skip: int = 0) -> list[str]:
    """A registered function's parameters after the first `skip`, read from its source (so a compiled
    build gives the same): an optional one ends in `?`, a variadic one in `...`."""
    return _params(*_of(fn), skip)


def functions() -> list[Entry]:
    """The built-in functions expressions may call, by name."""
    from interpreter.table.functions import GENERIC_FUNCTIONS

    out = []
    for name, spec in sorted(GENERIC_FUNCTIONS.items()):
        module, qual = _of(spec.fn)
        text, example = split_example(docstring(module, qual))
        params = _params(module, qual, 1 if spec.pass_env else 0)
        out.append(Entry(name, text, example, _where(module, qual), f"{name}({', '.join(params)})",
                         reads=spec.reads))
    return out


def verbs() -> list[Entry]:
    """The verbs effect steps are written in, grouped by the module that defines them."""
    from interpreter.verbs.registry import load_all

    out: list[tuple[str, Entry]] = []
    for name, spec in load_all().items():
        module, qual = _of(spec.fn)
        text, example = split_example(docstring(module, qual))
        args = "; ".join(("any other key" if k == "*" else _code(k)) + " " + _kind(v) for k, v in spec.args.items())
        group = _paragraph(docstring(module)).rstrip(".")
        out.append((module, Entry(name, text, example, _where(module, qual), args, group, spec.reads)))
    # By module (the order modules are imported in varies), each in the order it defines its verbs.
    return [e for _, e in sorted(out, key=lambda me: me[0])]


def _kind(kind: str) -> str:
    """An argument kind as the reference shows it: `enum:a|b` as "a or b", an optional one marked so."""
    base = kind.rstrip("?")
    if base.startswith("enum:"):
        words = base[5:].split("|")
        base = " or ".join(_code(w) for w in words)
    return base + (", optional" if kind.endswith("?") else "")


def _table(entries: dict[str, tuple[str, str]], where: str) -> list[Entry]:
    return [Entry(name, summary, example, where) for name, (summary, example) in entries.items()]


def attributes() -> list[Entry]:
    from interpreter.table.attributes import ATTRIBUTES

    return _table(ATTRIBUTES, "interpreter/table/attributes.py, ATTRIBUTES")


def engine_names() -> list[Entry]:
    from interpreter.table.context import NAME_DOCS

    return _table(NAME_DOCS, "interpreter/table/context.py, NAME_DOCS")


def given_names() -> list[Entry]:
    from interpreter.loader.names import GIVEN_NAMES

    return [Entry(name, summary, example, "interpreter/loader/names.py, GIVEN_NAMES", where)
            for name, (where, summary, example) in GIVEN_NAMES.items()]


def action_kinds() -> list[Entry]:
    from interpreter.timing.play_timing import ACTION_KINDS

    return _table(ACTION_KINDS, "interpreter/timing/play_timing.py, ACTION_KINDS")


def operators() -> list[Entry]:
    from interpreter.expr.parser import OPERATORS

    return [Entry(tokens, summary, example, "interpreter/expr/parser.py, OPERATORS")
            for tokens, summary, example in OPERATORS]


def events() -> list[Entry]:
    from interpreter.state.events import ENGINE_EVENTS

    return [Entry(name, f"When: {ev.when}." + ("" if ev.always else " Only in a rulebook that declares it."),
                  EVENT_EXAMPLES.get(name, ""), "interpreter/reference.py, EVENT_EXAMPLES",
                  ", ".join(ev.fields))
            for name, ev in ENGINE_EVENTS.items()]


def visibility() -> str:
    """What a player knows of a card: the docstring of `table/views.can_see`."""
    return docstring("interpreter.table.views", "can_see")


SECTIONS: dict[str, Callable[[], list[Entry]]] = {
    "operator": operators,
    "engine name": engine_names,
    "given name": given_names,
    "attribute": attributes,
    "function": functions,
    "verb": verbs,
    "action kind": action_kinds,
    "engine event": events,
}
"""Every registry the reference documents, each giving its entries."""


def problems() -> list[str]:
    """Every entry without a summary or an example, each with where to write it."""
    out = []
    for kind, entries in SECTIONS.items():
        for e in entries():
            how = "a docstring" if kind in ("function", "verb") else "its summary"
            if not e.summary:
                out.append(f"{kind} '{e.name}' has no summary: write {how} ({e.where})")
            if not e.example:
                where = (f"an `Example:` section at the end of its docstring ({e.where})"
                         if kind in ("function", "verb") else f"its example ({e.where})")
                out.append(f"{kind} '{e.name}' has no example: add {where}")
            if kind in ("function", "verb") and not e.reads:
                registration = ("its FuncSpec in GENERIC_FUNCTIONS" if kind == "function"
                                else "its declaration in interpreter/model/vocabulary.py")
                out.append(f"{kind} '{e.name}' has no reading: give {registration} a `reads=` "
                           f"(interpreter/model/readings.py; {e.where})")
    return out


# -- rendering ---------------------------------------------------------------------------------------
def _code(text: str) -> str:
    tick = "``" if "`" in text else "`"
    pad = " " if tick == "``" else ""
    return f"{tick}{pad}{text}{pad}{tick}"


def _yaml_block(text: str) -> list[str]:
    return ["```yaml", *text.splitlines(), "```"]


def _anchor(prefix: str, name: str) -> str:
    return f"{prefix}-{re.sub(r'[^a-z0-9_]+', '-', name.lower()).strip('-')}"


def _index(prefix: str, entries: list[Entry]) -> str:
    return " · ".join(f"[{_code(e.name)}](#{_anchor(prefix, e.name)})" for e in entries)


def _under(key: str, text: str, item: bool) -> str:
    """A YAML example shown as the value of `key` (as an item of its list when `item`)."""
    head, pad = (f"{key}:\n  - ", "    ") if item else (f"{key}: ", " " * (len(key) + 2))
    return head + text.replace("\n", "\n" + pad)


def _entry(prefix: str, e: Entry, title: str, example_yaml: bool, level: int = 3, example: str = "") -> list[str]:
    out = [f'<a id="{_anchor(prefix, e.name)}"></a>', f"{'#' * level} {title}", "", e.summary, ""]
    if e.reads:
        out += [f"Reads: {_code(e.reads)}", ""]
    if example_yaml:
        out += _yaml_block(example or e.example)
    else:
        out.append(f"Example: {_code(e.example)}")
    return [*out, ""]


INTRO = """\
# Expressions and effects: the reference

<!-- Generated from the interpreter's registries by `{regenerate}`; do not edit. -->

Every function, verb, name, attribute, kind of action, operator and engine event that a rulebook or
card file may use, with an example each. It is generated from the code that defines them (see
`interpreter/reference.py` for where each entry's text lives), and `tests/test_reference.py` fails
when an entry is missing, lacks an example, or this page is out of date: regenerate it with
`{regenerate}` (in a checkout, `python -m interpreter.cli.main reference --write docs/reference.md`).
How a rulebook is laid out is in [writing-rulebooks.md](writing-rulebooks.md), its parts in
[rulebooks/README.md](../rulebooks/README.md).

Each function and verb also says how it **reads** in plain English: its arguments are placeholders
(`{{cards}}`, `{{player's}}` for a possessive, `{{min..max}}` for a range, `[...]` for a part left out when
an argument in it is not given, `(s)` for a plural), and `sogo cards review` / `sogo card` describe a
card's abilities with these readings (see [writing-cards.md](writing-cards.md#reviewing-abilities)).

The examples are written for a small generic game: zones `deck`, `hand`, `field` and `discard`
(each player has one of each) and the zone group `board`, cards of type `unit` with the fields `name`,
`power` (a number), `tags` (a list of words) and `needs` (a count per word), the placement state
`face` (`up` or `down`), the roles `mover` and `other_side`, the event `ping` and the duration `round`.

- [Values](#values)
- [Operators](#operators)
- [Names](#names)
- [What a player knows of a card](#what-a-player-knows-of-a-card)
- [Attributes of a card](#attributes-of-a-card)
- [Functions](#functions)
- [Verbs](#verbs)
- [Actions at play timing](#actions-at-play-timing)
- [Events the engine raises](#events-the-engine-raises)

## Values

An expression gives one of these: a whole number, a string, true or false, null (no value), a
**player** (a number: the seats from 0, in seat order), a **card** (a card in a zone: see its
attributes), a **list** (of cards, players, zone ids...), a **multiset** (a count per symbol, a field
of type `multiset`: `this.needs.red`) or a **mapping** (an event, a card's counters or marks). Zones,
states, roles and other ids are strings. Expressions are parsed and checked once, when the rulebook
loads: an unknown name, function, zone or wrong number of arguments is reported there with its place.
"""


def render() -> str:
    """The whole reference, as Markdown."""
    from interpreter.loader.compile import CREATED_KEYS
    from interpreter.loader.names import BINDINGS
    from interpreter.model.vocabulary import ARG_KINDS

    out = [INTRO.format(regenerate=REGENERATE)]
    out += ["## Operators", "", "Loosest first: `if then else`; `or`; `and`; `not`; `where` and `select`; "
            "comparisons and `in`; `+ -`; `* // %`; a leading `-`; then `.`, `[]` and calls.", ""]
    out += ["| operator | meaning | example |", "|---|---|---|"]
    for e in operators():
        out.append(f"| {' '.join(_code(t) for t in e.name.split())} | {e.summary.replace('|', '&#124;')} | "
                   f"{_code(e.example)} |")
    out += ["", "## Names", "",
            "A name in an expression is one of these, else the loader reports it. **The engine's names**, "
            "the same in every rulebook (no rulebook or card may bind them):", ""]
    out += [f"- {_code(e.name)}: {e.summary} Example: {_code(e.example)}" for e in engine_names()]
    out += ["", "**Names given in some places:**", ""]
    out += [f"- {_code(e.name)} ({e.signature}): {e.summary} Example: {_code(e.example)}" for e in given_names()]
    out += ["", "**Names a rulebook or card file binds**, known in its every expression once bound anywhere in "
            "it:", ""]
    out += [f"- {_code(k)}: {v}" for k, v in BINDINGS.items()]
    out += ["", "Inside an expression a name is looked up in the nearest scope first (`let`, `as`, "
            "parameters), then in the game's variables (`set_var`), then as a role or designation.", ""]
    out += ["## What a player knows of a card", "", visibility(), ""]
    out += ["## Attributes of a card", "",
            "`card.NAME` reads, in this order: one of the attributes below; else, if the rulebook declares a "
            "placement state NAME, the card's value of it (`this.face == 'down'`); else the card field NAME "
            "as continuous effects make it now (`this.power`; null when the card has none; `printed(card, "
            "'power')` reads it as printed). A card that has left its zone is read as it was last (its "
            "continuous values frozen as it left). `event.FIELD` reads an event's field and `m.KEY` a "
            "mapping's value.", ""]
    out += [f"- {_code(e.name)}: {e.summary} Example: {_code(e.example)}" for e in attributes()]
    fns = functions()
    out += ["", "## Functions", "",
            "Built into every rulebook; a rulebook adds its own in `functions:` (expressions over these). "
            "An argument marked `?` may be left out, one marked `...` repeats.", "", _index("f", fns), ""]
    for e in fns:
        out += _entry("f", e, _code(e.signature), False)
    vbs = verbs()
    out += ["## Verbs", "",
            "An effect is a list of steps, each a mapping of one verb to its arguments. Each verb lists its "
            "arguments with their kinds; an argument whose kind ends in `?` is optional.", "",
            _index("v", vbs), "", "Argument kinds:", ""]
    out += [f"- `{k}`: {v}" for k, v in ARG_KINDS.items()]
    out += ["", "The effect a `continuous`, `delayed_trigger` or `replacement` step creates (`spec`) reads "
            "these keys: " + "; ".join(f"{verb}: {', '.join(_code(k) for k in keys)}"
                                       for verb, keys in CREATED_KEYS.items()) + ".", ""]
    group = None
    for e in vbs:
        if e.group != group:
            group = e.group
            out += [f"### {group}", ""]
        out += _entry("v", e, _code(e.name), True, level=4)
        out += [f"Arguments: {e.signature}." if e.signature else "Arguments: none.", ""]
    out += ["## Actions at play timing", "",
            "A rulebook's `actions` are what a player may do at play timing (the `play_timing` verb), besides "
            "passing; each action's `kind` says what it offers.", ""]
    for e in action_kinds():
        out += _entry("a", e, _code(e.name), True, example=_under("actions", e.example, True))
    out += ["## Events the engine raises", "",
            "Auto abilities trigger on events (`trigger: {event: ID, if: CONDITION}`) and replacement effects "
            "replace them; a rulebook declares each event it uses in `events:` and raises its own with "
            "`emit`, `replaceable` or `stack_onto`. The engine raises these itself; `event.FIELD` reads their "
            "fields.", ""]
    for e in events():
        out += _entry("e", e, _code(e.name), True, example=_under("trigger", e.example, False))
        out += [f"Fields: {', '.join(_code(f) for f in e.signature.split(', '))}.", ""]
    return "\n".join(out).rstrip("\n") + "\n"
