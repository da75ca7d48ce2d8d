"""Compile rulebook and card data into closures, reporting every problem with its location.

Expressions are parsed once here; effect steps become `Step` records whose arguments are
ready-to-call closures, so nothing is parsed or looked up by name during play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.expr import Compiled, ExprError, FuncSpec, compile_expr
from interpreter.expr.compiler import constant, list_of, mapping_of
from interpreter.loader.diagnostics import Diagnostics
from interpreter.loader.schema import did_you_mean, misspelt_key
from interpreter.loader.yaml_safe import SourceMap
from interpreter.model.rulebook import EffectRestriction
from interpreter.model.vocabulary import VERBS, Step, VerbSpec
from interpreter.table.context import POSITIONAL

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_SPEC_KEYS = ("affects", "if", "do", "instead", "change", "before", "after", "cost", "modify", "trigger", "event",
              "optional", "once", "when_idle", "negate", "no_stack", "modify_player", "grant", "set_text", "restrict",
              "rules")
"""The keys an effect description may have (Compiler.spec)."""

CREATED_KEYS: dict[str, tuple[str, ...]] = {
    "continuous": ("affects", "modify", "modify_player", "grant", "set_text", "negate", "no_stack", "restrict",
                   "rules"),
    "delayed_trigger": ("trigger", "do", "once", "when_idle", "rules"),
    "replacement": ("event", "if", "instead", "change", "before", "after", "cost", "optional", "once", "rules"),
}
"""The keys each kind of created effect reads (derive/continuous.py, derive/triggers.py, timing/replacement.py):
any other key of a created effect would be silently ignored, so the loader reports it."""


@dataclass(frozen=True)
class Loc:
    """Where a value came from: file, its source map and the path inside it."""

    file: str
    smap: SourceMap
    path: tuple[Any, ...]

    def at(self, *more: Any) -> Loc:
        return Loc(self.file, self.smap, self.path + more)

    def pos(self) -> tuple[int, int]:
        return self.smap.get(self.path)

    def key_pos(self) -> tuple[int, int]:
        try:
            return self.smap.key(self.path)
        except Exception:  # noqa: BLE001 - a missing key position falls back to the value
            return self.smap.get(self.path)

    def __str__(self) -> str:
        line, col = self.pos()
        return f"{self.file}:{line}:{col}"


@dataclass
class Known:
    """The ids a rulebook defines, for checking references."""

    zones: set[str] = field(default_factory=set)
    groups: set[str] = field(default_factory=set)
    states: dict[str, set[str]] = field(default_factory=dict)
    events: set[str] = field(default_factory=set)
    templates: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    durations: set[str] = field(default_factory=set)
    owned_durations: set[str] = field(default_factory=set)  # durations that belong to a player (`owner`)
    enums: dict[str, set[str]] = field(default_factory=dict)
    actions: set[str] = field(default_factory=set)
    keywords: set[str] = field(default_factory=set)
    keyword_params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the parameters each declares
    fields: set[str] = field(default_factory=set)
    move_kinds: set[str] = field(default_factory=set)  # zone_rules.move_kinds
    resolve_node: Callable[[str], str | None] | None = None
    """Set once the turn structure is built: effects compiled later (cards) check jump targets here."""


class Compiler:
    """Turns raw YAML values into closures, collecting diagnostics instead of stopping."""

    def __init__(self, diags: Diagnostics, known: Known, names: set[str],
                 functions: Mapping[str, FuncSpec]) -> None:
        self.diags = diags
        self.known = known
        self.names = names
        self.functions = functions
        self.verbs = VERBS
        self.template_calls: dict[str, set[str]] = {}
        self.node_refs: list[tuple[str, Loc]] = []
        """Jump / skip targets met before the turn structure exists, for loader.graph.jump_targets."""
        self._current_template: str | None = None
        self._eventless = False  # compiling the steps of an effect that has no event to read
        self.bound: dict[str, Callable[[Any], Any]] = {}
        """Names given a fixed value while some expressions are compiled (a keyword's `kw`, its
        parameters): read through `fixed` readers, no scope can bind them."""
        self.pending_grants: list[tuple[Any, Loc, list[Any]]] = []
        """Abilities met in `grant:` (raw, where, the list its compiled Grant goes into), compiled by
        loader/cards.py `compile_grants` once the rulebook's keywords are: like a printed ability."""

    # -- errors ------------------------------------------------------------------------
    def error(self, loc: Loc, message: str, *, at_key: bool = False) -> None:
        line, col = loc.key_pos() if at_key else loc.pos()
        self.diags.add(loc.file, line, col, message)

    # -- expressions -------------------------------------------------------------------
    def expr(self, value: Any, loc: Loc, extra_names: set[str] | None = None) -> Callable[[Any], Any]:
        if isinstance(value, bool) or isinstance(value, int) or value is None:
            return constant(value)
        if isinstance(value, list):
            parts = [self.expr(v, loc.at(i), extra_names) for i, v in enumerate(value)]
            return list_of(parts)
        if not isinstance(value, str):
            self.error(loc, f"expected an expression (string or integer), got {type(value).__name__}")
            return constant(None)
        compiled = self.compile_str(value, loc, extra_names)
        return compiled if compiled is not None else constant(None)

    def compile_str(self, src: str, loc: Loc, extra_names: set[str] | None = None) -> Compiled | None:
        names = self.names | extra_names if extra_names else self.names
        fixed: Mapping[str, Callable[[Any], Any]] = POSITIONAL
        if self.bound:
            names = names | set(self.bound)
            fixed = {**POSITIONAL, **self.bound}
        try:
            c = compile_expr(src, names=names, functions=self.functions, fixed=fixed)
        except ExprError as e:
            line, col = expr_pos(loc, src, e.offset)
            self.diags.add(loc.file, line, col, f"in expression {_shown(src)}: {e.message}")
            return None
        except (ValueError, RecursionError) as e:  # the contract is "located errors only", never a crash
            line, col = loc.pos()
            why = "it is nested too deeply" if isinstance(e, RecursionError) else str(e)
            self.diags.add(loc.file, line, col, f"in expression {_shown(src)}: {why}")
            return None
        if self._eventless and "event" in c.names_used:
            line, col = loc.pos()
            self.diags.add(loc.file, line, col, f"in expression {_shown(src)}: a delayed trigger with 'when_idle' "
                           "has no event to read; keep what it needs of the creating event in a variable (let)")
        for lit in _zone_literals(c):
            if lit not in self.known.zones and lit not in self.known.groups:
                line, col = loc.pos()
                self.diags.add(loc.file, line, col, f"unknown zone or zone group '{lit}' in expression {src!r}")
        if "keyword_value" in c.calls_used or "keyword_values" in c.calls_used:
            for problem in _keyword_reads(c, self.known):
                line, col = loc.pos()
                self.diags.add(loc.file, line, col, f"in expression {_shown(src)}: {problem}")
        return c

    # -- effects -----------------------------------------------------------------------
    def steps(self, raw: Any, loc: Loc) -> tuple[Step, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self.error(loc, "expected a list of effect steps")
            return ()
        out = []
        for i, item in enumerate(raw):
            s = self.step(item, loc.at(i))
            if s is not None:
                out.append(s)
        return tuple(out)

    def step(self, item: Any, loc: Loc) -> Step | None:
        if not isinstance(item, dict) or len(item) != 1:
            self.error(loc, "an effect step is a mapping with exactly one verb, e.g. {move: {...}}")
            return None
        (name, args), = item.items()
        spec = self.verbs.get(name)
        if spec is None:
            self.error(loc.at(name), f"unknown verb '{name}' (known verbs: {', '.join(sorted(self.verbs))})"
                                     f"{did_you_mean(name, self.verbs)}", at_key=True)
            return None
        if args is None:
            args = {}
        if not isinstance(args, dict):
            self.error(loc.at(name), f"verb '{name}' takes a mapping of arguments")
            return None
        compiled = self.verb_args(spec, args, loc.at(name))
        return Step(name, spec, compiled, str(loc))

    def verb_args(self, spec: VerbSpec, args: dict[str, Any], loc: Loc) -> dict[str, Any]:
        out: dict[str, Any] = {}
        wildcard = spec.args.get("*")
        for key, value in args.items():
            kind = spec.args.get(key) or wildcard
            if kind is None:
                allowed = ", ".join(k for k in spec.args if k != "*")
                self.error(loc.at(key), f"verb '{spec.name}' has no argument '{key}' (allowed: {allowed})"
                                        f"{did_you_mean(key, (k for k in spec.args if k != '*'))}", at_key=True)
                continue
            out[key] = self.arg(kind.rstrip("?"), value, loc.at(key), spec.name)
        for req in spec.required():
            if req != "*" and req not in args:
                # A near-miss is named here only when the verb lets it through (`*`): else it has its own error.
                hint = misspelt_key(req, args) if wildcard else ""
                self.error(loc, f"verb '{spec.name}' needs argument '{req}'{hint}")
        if spec.name == "end_durations" and "player" in args and isinstance(args.get("durations"), list):
            for i, d in enumerate(args["durations"]):
                if d in self.known.durations and d not in self.known.owned_durations:
                    self.error(loc.at("durations", i), f"duration '{d}' belongs to no player (its declaration has "
                                                       "no 'owner'): an end_durations step with 'player' ends only "
                                                       "durations that do")
        if spec.name == "call" and isinstance(args.get("template"), str):
            if self._current_template is not None:
                self.template_calls.setdefault(self._current_template, set()).add(args["template"])
        return out

    def arg(self, kind: str, value: Any, loc: Loc, verb: str) -> Any:
        k = self.known
        if kind == "expr":
            return self.expr(value, loc)
        if kind == "effect":
            return self.steps(value, loc)
        if kind in ("name", "str"):
            if not isinstance(value, str) or (kind == "name" and not IDENT.match(value)):
                self.error(loc, f"expected a {'name' if kind == 'name' else 'string'}, got {value!r}")
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                self.error(loc, f"expected true or false, got {value!r}")
            return bool(value)
        if kind == "value":
            return value
        if kind == "rules":
            if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
                self.error(loc, "expected a list of rule numbers written as strings, e.g. [\"7.4.1\"]")
                return ()
            return tuple(value)
        if kind.startswith("enum:"):
            allowed = kind[5:].split("|")
            if value not in allowed:
                self.error(loc, f"expected one of {', '.join(allowed)}, got {value!r}")
            return value
        if kind == "node":
            # Node names resolve like the engine resolves them (dotted tails too), so only the built
            # turn structure can check them, and only once.
            if not isinstance(value, str):
                self.error(loc, f"expected a node name, got {value!r}")
            elif k.resolve_node is None:
                self.node_refs.append((value, loc))
            elif k.resolve_node(value) is None:
                self.error(loc, f"no node '{value}' in the turn structure")
            return value
        if kind == "duration" and isinstance(value, dict):
            return self.duration_of(value, loc)
        table = {"zone": k.zones, "event": k.events, "template": k.templates, "role": k.roles,
                 "duration": k.durations, "state": set(k.states), "action": k.actions, "move_kind": k.move_kinds,
                 "keyword": k.keywords}
        if kind in table:
            if value not in table[kind]:
                self.error(loc, f"unknown {kind.replace('_', ' ')} '{value}' (known: {', '.join(sorted(table[kind]))})")
            return value
        if kind in ("zones", "durations", "actions"):
            base = kind[:-1]
            if not isinstance(value, list):
                self.error(loc, f"expected a list of {base} ids")
                return []
            return [self.arg(base, v, loc.at(i), verb) for i, v in enumerate(value)]
        if kind == "fields":
            if not isinstance(value, dict):
                self.error(loc, "expected a mapping of names to expressions")
                return {}
            return {n: self.expr(v, loc.at(n)) for n, v in value.items()}
        if kind == "options":
            return self.options(value, loc)
        if kind == "spec":
            return self.spec(value, loc, created=verb)
        raise AssertionError(f"verb {verb}: unknown argument kind {kind}")

    def duration_of(self, value: dict[str, Any], loc: Loc) -> Any:
        """`duration: {id: D, owner: EXPR}`: a duration that belongs to a player, with the player named
        here rather than by the declaration's `owner` (compiled as the pair (id, owner))."""
        for key in value:
            if key not in ("id", "owner"):
                self.error(loc.at(key), f"unknown key '{key}' in a duration (allowed: id, owner)"
                                        f"{did_you_mean(key, ('id', 'owner'))}", at_key=True)
        did = value.get("id")
        if did not in self.known.durations:
            self.error(loc.at("id") if "id" in value else loc,
                       f"unknown duration {did!r} (known: {', '.join(sorted(self.known.durations))})")
        elif did not in self.known.owned_durations:
            self.error(loc.at("id"), f"duration '{did}' belongs to no player (its declaration has no 'owner'), "
                                     "so no owner can be named for it")
        if "owner" not in value:
            self.error(loc, "a duration written as a mapping names its 'owner' (else write its id alone)")
            return did
        return (did, self.expr(value["owner"], loc.at("owner")))

    def options(self, value: Any, loc: Loc) -> list[dict[str, Any]]:
        if not isinstance(value, list) or not value:
            self.error(loc, "expected a non-empty list of options")
            return []
        out = []
        seen: set[str] = set()
        for i, opt in enumerate(value):
            ol = loc.at(i)
            if not isinstance(opt, dict) or "id" not in opt:
                self.error(ol, "an option needs an 'id'")
                continue
            if opt["id"] in seen:
                self.error(ol.at("id"), f"duplicate option id '{opt['id']}'")
            seen.add(opt["id"])
            for key in opt:
                if key not in ("id", "label", "if", "do", "rules"):
                    self.error(ol.at(key), f"unknown key '{key}' in option (allowed: id, label, if, do, rules)"
                                           f"{did_you_mean(key, ('id', 'label', 'if', 'do', 'rules'))}", at_key=True)
            out.append({"id": str(opt["id"]), "label": str(opt.get("label", opt["id"])),
                        "if": self.expr(opt["if"], ol.at("if")) if "if" in opt else None,
                        "do": self.steps(opt.get("do", []), ol.at("do"))})
        return out

    def spec(self, value: Any, loc: Loc, created: str | None = None) -> dict[str, Any]:
        """Compile a continuous / delayed / replacement effect description: a continuous ability's
        (any key), or the effect a step creates (`created`: the verb), which must use only the keys
        that kind of effect reads, so that none of it is silently ignored."""
        if not isinstance(value, dict):
            self.error(loc, "expected a mapping")
            return {}
        out: dict[str, Any] = {}
        eventless = self._eventless
        # A delayed trigger waiting for nothing to remain has no event of its own: its steps cannot
        # read one (the creating ability's event is kept through a variable, `let`), nor can a
        # continuous effect they create. An effect with an event of its own reads that one.
        self._eventless = (created == "delayed_trigger" and bool(value.get("when_idle"))) \
            or (created == "continuous" and eventless)
        try:
            self._spec_keys(value, loc, out)
        finally:
            self._eventless = eventless
        if created in CREATED_KEYS:
            self._created(created, value, loc)
        return out

    def _created(self, verb: str, value: dict[str, Any], loc: Loc) -> None:
        allowed = CREATED_KEYS[verb]
        for key in value:
            if key not in allowed:
                self.error(loc.at(key), f"a {verb.replace('_', ' ')} effect does not use '{key}' "
                                        f"(it reads: {', '.join(allowed)})", at_key=True)
        if verb == "continuous" and "affects" not in value and any(k in value for k in ("modify", "negate")):
            self.error(loc, "a continuous effect that changes cards needs 'affects' (the cards it changes)")
        elif verb == "delayed_trigger":
            trig = value.get("trigger")
            if not value.get("when_idle") and not (isinstance(trig, dict) and "event" in trig):
                self.error(loc.at("trigger") if "trigger" in value else loc,
                           "a delayed trigger waits for an event: it needs 'trigger: {event: ID}' or 'when_idle'")
        elif verb == "replacement" and "event" not in value:
            self.error(loc, "a replacement effect needs 'event' (the event it replaces)")

    def _spec_keys(self, value: dict[str, Any], loc: Loc, out: dict[str, Any]) -> None:
        for key, v in value.items():
            kl = loc.at(key)
            if key in ("affects", "if", "state"):
                out[key] = self.expr(v, kl)
            elif key in ("do", "instead", "before", "after", "cost"):
                out[key] = self.steps(v, kl)
            elif key == "change":
                out[key] = self.arg("fields", v, kl, "spec")
            elif key == "modify":
                out[key] = self.modify(v, kl)
            elif key == "modify_player":
                out[key] = self.modify(v, kl, player=True)
            elif key in ("grant", "set_text"):
                out[key] = self.grant(v, kl)
            elif key == "restrict":
                out[key] = self.restriction(v, kl)
            elif key == "trigger":
                out[key] = self.trigger(v, kl)
            elif key == "event":
                out[key] = self.arg("event", v, kl, "spec")
            elif key in ("optional", "once", "negate", "when_idle"):
                out[key] = bool(v)
            elif key == "no_stack":
                if not isinstance(v, (bool, str)):
                    self.error(kl, "expected true or a label naming the text that does not stack")
                out[key] = v if isinstance(v, str) else bool(v)
            elif key == "rules":
                out[key] = tuple(v)
            else:
                self.error(kl, f"unknown key '{key}' (allowed: {', '.join(_SPEC_KEYS)}){did_you_mean(key, _SPEC_KEYS)}",
                           at_key=True)
        if "grant" in out and "affects" not in out:
            self.error(loc, "an effect that grants abilities needs 'affects' (the cards that get them)")
        if "set_text" in out and "affects" not in out:
            self.error(loc, "an effect that sets a card's text needs 'affects' (the cards whose text it sets)")

    def restriction(self, value: Any, loc: Loc) -> EffectRestriction | None:
        """A placement restriction a continuous effect adds while it applies: `{zones?, kinds?, if,
        rules?}`, `if` read with the names of a placement restriction beside the effect's own."""
        from interpreter.loader.placement import PLACEMENT_NAMES

        if not isinstance(value, dict) or "if" not in value:
            self.error(loc, "expected a restriction {zones?, kinds?, if, rules?} ('if': when a move is refused)")
            return None
        zones: frozenset[str] | None = None
        kinds: frozenset[str] | None = None
        for key, v in value.items():
            kl = loc.at(key)
            if key in ("zones", "kinds"):
                if not isinstance(v, list) or not v:
                    self.error(kl, f"expected a list of {'zones or zone groups' if key == 'zones' else 'move kinds'}")
                    continue
                for j, x in enumerate(v):
                    if key == "zones" and x not in self.known.zones and x not in self.known.groups:
                        self.error(kl.at(j), f"unknown zone or zone group '{x}'")
                    elif key == "kinds" and x not in self.known.move_kinds:
                        known_kinds = ", ".join(sorted(self.known.move_kinds)) or "none declared"
                        self.error(kl.at(j), f"unknown move kind '{x}' (known: {known_kinds})")
                if key == "zones":
                    zones = frozenset(str(x) for x in v)
                else:
                    kinds = frozenset(str(x) for x in v)
            elif key not in ("if", "rules"):
                self.error(kl, f"unknown key '{key}' in a restriction (allowed: zones, kinds, if, rules)"
                               f"{did_you_mean(key, ('zones', 'kinds', 'if', 'rules'))}", at_key=True)
        cond = self.expr(value["if"], loc.at("if"), extra_names=set(PLACEMENT_NAMES))
        return EffectRestriction(zones, kinds, cond, tuple(str(r) for r in value.get("rules", ()) or ()))

    def grant(self, value: Any, loc: Loc) -> list[Any]:
        """The abilities an effect gives to the cards it affects: one ability written as a card writes
        it (kind, keywords, trigger, cost, effect...) or a list of them. The list returned is filled
        with their compiled Grants by `compile_grants` (loader/cards.py)."""
        out: list[Any] = []
        if isinstance(value, list):
            if not value:
                self.error(loc, "expected an ability (a mapping with 'kind') or a list of abilities")
            for i, raw in enumerate(value):
                self.pending_grants.append((raw, loc.at(i), out))
        else:
            self.pending_grants.append((value, loc, out))
        return out

    def modify(self, value: Any, loc: Loc, *, player: bool = False) -> list[tuple[str, str, Callable[[Any], Any]]]:
        """Card fields (or, with `player`, players' values read by `player_value`) to {add|set: VALUE}."""
        what = "player values" if player else "card fields"
        if not isinstance(value, dict):
            self.error(loc, f"expected a mapping of {what} to {{add: ...}} or {{set: ...}}")
            return []
        out: list[tuple[str, str, Callable[[Any], Any]]] = []
        for fname, op in value.items():
            fl = loc.at(fname)
            if player:
                if not isinstance(fname, str) or not IDENT.match(fname):
                    self.error(fl, f"expected a name for a player value, got {fname!r}", at_key=True)
            elif fname not in self.known.fields:
                self.error(fl, f"unknown card field '{fname}'", at_key=True)
            if not isinstance(op, dict) or len(op) != 1 or next(iter(op)) not in ("add", "set"):
                self.error(fl, "expected {add: VALUE} or {set: VALUE}")
                continue
            (opname, v), = op.items()
            if isinstance(v, dict):
                parts = {sym: self.expr(n, fl.at(opname, sym)) for sym, n in v.items()}
                out.append((fname, opname, mapping_of(parts)))
            else:
                out.append((fname, opname, self.expr(v, fl.at(opname))))
        return out

    def trigger(self, value: Any, loc: Loc) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.error(loc, "expected a trigger mapping {event: ID, if: EXPR} or {state: EXPR}")
            return {}
        out: dict[str, Any] = {}
        for key, v in value.items():
            kl = loc.at(key)
            if key == "event":
                out["event"] = self.arg("event", v, kl, "trigger")
            elif key in ("if", "state"):
                out[key] = self.expr(v, kl)
            else:
                self.error(kl, f"unknown key '{key}' in trigger (allowed: event, if, state)"
                               f"{did_you_mean(key, ('event', 'if', 'state'))}", at_key=True)
        if "event" not in out and "state" not in out:
            self.error(loc, "a trigger needs 'event' or 'state'")
        return out


def _shown(src: str, limit: int = 80) -> str:
    """Quote an expression for a message; a pathological one (a 5000-digit literal) is cut short."""
    return repr(src if len(src) <= limit else src[: limit - 3] + "...")


def expr_pos(loc: Loc, src: str, offset: int) -> tuple[int, int]:
    """File position of character `offset` of an expression.

    The source map records where the scalar starts: its opening quote, its block indicator
    (`|`, `>-`) or, for a plain scalar, its first character. Which one is only known from the
    text, so the line is read here, on error, rather than kept for every scalar.
    """
    line, col = loc.pos()
    try:
        lines = Path(loc.file).read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError, ValueError):
        return line, col + 1 + offset  # no file to look at (text loaded in memory): assume quoted
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    ch = text[col - 1 : col]
    if ch in ("'", '"'):
        return line, col + 1 + offset
    if ch in ("|", ">"):
        return _block_pos(lines, line, src, offset) or (line, col)
    return line, col + offset


def _block_pos(lines: list[str], line: int, src: str, offset: int) -> tuple[int, int] | None:
    """Position of `offset` in a block scalar whose indicator is on `line`: find each content line
    in the folded or literal text, so the position is right whatever the line breaks became."""
    indent: int | None = None
    cursor, last = 0, None
    for number in range(line + 1, len(lines) + 1):
        text = lines[number - 1].rstrip("\r")
        if not text.strip():
            continue
        here = len(text) - len(text.lstrip(" "))
        if indent is None:
            indent = here
        if here < indent:
            break
        content = text[indent:]
        at = src.find(content, cursor)
        if at < 0:
            break
        if offset < at + len(content):
            return number, indent + 1 + max(0, offset - at)
        cursor, last = at + len(content), (number, indent + 1 + len(content))
    return last


def _keyword_reads(c: Compiled, known: Known) -> list[str]:
    """What is wrong with the keyword and parameter a `keyword_value(s)` call names as literals: a
    keyword the rulebook does not declare, one without parameters, a parameter it does not declare."""
    from interpreter.expr import walk
    from interpreter.expr.nodes import Call, Literal

    out = []
    for node in walk(c.ast):
        if not (isinstance(node, Call) and node.name in ("keyword_value", "keyword_values") and len(node.args) > 1):
            continue
        kw, param = node.args[1], node.args[2] if len(node.args) > 2 else None
        if not (isinstance(kw, Literal) and isinstance(kw.value, str)):
            continue
        params = known.keyword_params.get(kw.value, ())
        if kw.value not in known.keywords:
            out.append(f"{node.name}: unknown keyword '{kw.value}'")
        elif not params:
            out.append(f"{node.name}: keyword '{kw.value}' has no parameters")
        elif isinstance(param, Literal) and param.value not in params:
            out.append(f"{node.name}: keyword '{kw.value}' has no parameter {param.value!r} "
                       f"(its parameters: {', '.join(params)})")
    return out


def _zone_literals(c: Compiled) -> list[str]:
    """String literals passed as the zone argument of zone functions."""
    from interpreter.expr import walk
    from interpreter.expr.nodes import Call, Literal

    out = []
    for node in walk(c.ast):
        if isinstance(node, Call) and node.name in ("cards", "cards_in", "zones_in", "top", "bottom", "in_group"):
            idx = 1 if node.name == "in_group" else 0
            arg = node.args[idx] if len(node.args) > idx else None
            if isinstance(arg, Literal) and isinstance(arg.value, str):
                out.append(arg.value)
    return out
