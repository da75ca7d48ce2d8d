"""Abilities, effects and steps read in plain English, from the readings of what they are made of.

An ability reads as its kind, keywords and trigger, then its cost and its effect:

    Automatic ability, when this card enters the field. Effect: draw 2 cards.

Each step reads by its verb's reading (`reads=` in interpreter/verbs), a template call by the
template's (`reads:` in the rulebook), a keyword, an ability kind and an event by theirs, and the
expressions in them by interpreter/reading/expr.py. A continuous effect reads as what it gives:
"give this card +1 power", "give X the ability “...”". Where a reading is missing the id (and the
arguments, read) is written in backticks and the reading lists it in `missing`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from interpreter.model.readings import ABSENT, Arg, fill
from interpreter.reading.expr import ExprReader, Function, words


@dataclass
class Reading:
    """An ability's description, and the readings it lacked (`template 'draw'`, `function 'f'`...)."""

    text: str
    missing: list[str] = field(default_factory=list)


def _params(fn: Any, skip: int) -> tuple[list[str], bool]:
    """A built-in function's parameter names (read from its source, as the reference does) and
    whether its last one is variadic."""
    from interpreter.reference import parameters

    names = parameters(fn, skip)
    return [n.rstrip("?").removesuffix("...") for n in names], bool(names) and names[-1].endswith("...")


class Reader:
    """Reads the abilities of one rulebook's cards (its templates, keywords, kinds and functions)."""

    def __init__(self, rb: Any) -> None:
        from interpreter.model.vocabulary import VERBS

        raw = rb.raw
        self.templates: dict[str, dict[str, Any]] = {
            str(t["id"]): t for t in raw.get("templates", []) or [] if isinstance(t, dict) and "id" in t}
        self.kinds: dict[str, dict[str, Any]] = {
            str(k["id"]): k for k in raw.get("ability_kinds", []) or [] if isinstance(k, dict) and "id" in k}
        self.keywords: dict[str, dict[str, Any]] = dict(rb.keywords)
        self.events: dict[str, dict[str, Any]] = dict(rb.events)
        self.verbs = VERBS
        own = {str(f["id"]): [str(p) for p in f.get("params", []) or []]
               for f in raw.get("functions", []) or [] if isinstance(f, dict) and "id" in f}
        functions: dict[str, Function] = {}
        for name, spec in rb.functions.items():
            if name in own:
                functions[name] = Function(spec.reads, own[name])
            elif spec.reads:
                params, varargs = _params(spec.fn, 1 if spec.pass_env else 0)
                functions[name] = Function(spec.reads, params, varargs)
        self._missing: list[str] = []
        self.expr = ExprReader(functions, self._note)

    def _note(self, what: str) -> None:
        if what not in self._missing:
            self._missing.append(what)

    # -- abilities ---------------------------------------------------------------------------------
    def ability(self, ability: dict[str, Any]) -> Reading:
        """An ability as a card file writes it, read; with what had no reading."""
        self._missing = []
        text = self._ability(ability)
        return Reading(text, list(self._missing))

    def _ability(self, ab: dict[str, Any]) -> str:
        if "kind" not in ab and isinstance(ab.get("fields"), dict):  # a line of card information
            stated = "; ".join(f"{k} {v}" for k, v in ab["fields"].items())
            return f"Card information: {stated}." if stated else "Annotation (no effect)."
        head = [self.kind(ab.get("kind"))]
        triggers: list[str] = []  # several trigger keywords: it triggers on either
        for k in ab.get("keywords", []) or []:
            text = self.keyword(k)
            kid = next(iter(k)) if isinstance(k, dict) and k else k
            if (self.keywords.get(str(kid)) or {}).get("kind") == "trigger":
                triggers.append(text)
            else:
                head.append(text)
        if triggers:
            head.append(" or ".join(triggers))
        if "trigger" in ab:
            head.append(self.trigger(ab["trigger"]))
        if "answers" in ab:
            head.append(f"played in answer when {self.expr.text(ab['answers'])}")
        sentences = [", ".join(head)]
        optional = " (optional)" if ab.get("optional") else ""
        if ab.get("cost"):
            sentences.append(f"Cost{optional}: {self.steps(ab['cost'])}")
            optional = ""
        effect = ab.get("effect")
        if isinstance(effect, dict) and effect:  # an empty one: the ability is its keywords ({} of a keyword ability)
            sentences.append(f"Effect{optional}: {self.spec(effect)}")
        elif effect:
            sentences.append(f"Effect{optional}: {self.steps(effect)}")
        return ". ".join(s[:1].upper() + s[1:] for s in sentences) + "."

    def kind(self, kind: Any) -> str:
        entry = self.kinds.get(str(kind))
        if entry is not None and entry.get("reads"):
            return str(entry["reads"])
        self._note(f"ability kind '{kind}'")
        return f"`{kind}`"

    def keyword(self, written: Any) -> str:
        """A keyword as an ability lists it (`enter`, `{charge: 3000}`), read with its values."""
        if isinstance(written, dict) and len(written) == 1:
            kid, value = next(iter(written.items()))
        else:
            kid, value = written, None
        kw = self.keywords.get(str(kid))
        reads = kw.get("reads") if kw is not None else None
        if not reads:
            self._note(f"keyword '{kid}'")
            return f"`{kid}`" + (f"({value})" if value is not None else "")
        declared = kw.get("params") if isinstance(kw, dict) else None
        names = list(declared) if isinstance(declared, dict) else []
        values: dict[str, Any] = {}
        for name in names:
            spec = declared[name] if isinstance(declared, dict) else None
            if isinstance(spec, dict) and "default" in spec:
                values[name] = spec["default"]
        if isinstance(value, dict):
            values.update(value)
        elif value is not None and names:
            values[names[0]] = value

        def lookup(name: str) -> Arg:
            if name not in values:
                return ABSENT
            v = values[name]
            if isinstance(v, str):  # a keyword's value is a literal, not an expression
                return Arg(self.expr.literal(v))
            if isinstance(v, list) and all(isinstance(x, str) for x in v):
                return Arg(" or ".join(self.expr.literal(x) for x in v))
            return self.expr.arg(v)

        return fill(str(reads), lookup)

    def trigger(self, trig: Any) -> str:
        if not isinstance(trig, dict):
            return f"`{trig}`"
        if "event" in trig:
            text = f"when {self.event(trig['event'])}"
            if "if" in trig:
                text += f", if {self.expr.text(trig['if'])}"
            return text
        if "state" in trig:
            return f"when {self.expr.text(trig['state'])}"
        return f"`{trig}`"

    def event(self, eid: Any) -> str:
        entry = self.events.get(str(eid))
        if entry is not None and entry.get("reads"):
            return str(entry["reads"])
        self._note(f"event '{eid}'")
        return f"`{eid}`"

    # -- steps -------------------------------------------------------------------------------------
    def steps(self, steps: Any, nested: bool = False) -> str:
        """Effect steps read one after the other ("; "); nested in another step, several in parentheses."""
        if isinstance(steps, dict):
            return self.spec(steps)
        items = [self.step(s) for s in (steps if isinstance(steps, list) else [steps])]
        items = [t for t in items if t]
        if not items:
            return "nothing"
        text = "; ".join(items)
        return f"({text})" if nested and len(items) > 1 else text

    def step(self, step: Any) -> str:
        if not isinstance(step, dict) or len(step) != 1:
            return f"`{step}`"
        verb, args = next(iter(step.items()))
        args = args if isinstance(args, dict) else {}
        if verb == "call":
            return self.call(args)
        spec = self.verbs.get(str(verb))
        if spec is None or not spec.reads:
            self._note(f"verb '{verb}'")
            return f"`{verb}`"
        kinds = spec.args

        def lookup(name: str) -> Arg:
            if name == "*":
                rest = {k: v for k, v in args.items() if k not in kinds}
                if not rest:
                    return ABSENT
                return Arg(", ".join(f"{words(str(k))} = {self._arg(str(verb), kinds.get('*', 'expr'), v).text}"
                                     for k, v in rest.items()))
            if name not in args:
                return ABSENT
            return self._arg(str(verb), kinds.get(name, "expr"), args[name])

        return fill(spec.reads, lookup)

    def _arg(self, verb: str, kind: str, value: Any) -> Arg:
        """A verb's argument read by its kind (ARG_KINDS)."""
        base = kind.rstrip("?").split(":")[0]
        if base == "expr":
            return self.expr.arg(value)
        if base == "effect":
            return Arg(self.steps(value, nested=True))
        if base == "spec":
            return Arg(self.spec(value) if isinstance(value, dict) else f"`{value}`")
        if base == "options":
            return Arg(self.options(value))
        if base == "fields":
            pairs = value.items() if isinstance(value, dict) else []
            return Arg(", ".join(f"{words(str(k))} = {self.expr.text(v)}" for k, v in pairs))
        if base == "bool":
            return Arg("", given=bool(value))
        if base == "duration":
            return Arg(self.duration(value))
        if isinstance(value, list):
            return Arg(" or ".join(words(str(v)) for v in value))
        return Arg(words(str(value)))

    def duration(self, value: Any) -> str:
        if isinstance(value, dict):
            owner = f" (of {self.expr.text(value['owner'])})" if "owner" in value else ""
            return words(str(value.get("id"))) + owner
        return words(str(value))

    def options(self, options: Any) -> str:
        out = []
        for opt in options if isinstance(options, list) else []:
            if not isinstance(opt, dict):
                continue
            label = str(opt.get("label", opt.get("id")))
            cond = f" (if {self.expr.text(opt['if'])})" if "if" in opt else ""
            out.append(f"«{label}»{cond}: {self.steps(opt.get('do', []), nested=True)}")
        return "; or ".join(out) or "nothing"

    def call(self, args: dict[str, Any]) -> str:
        """A template call, read by the template's reading with its parameters (defaults for the rest)."""
        tid = str(args.get("template"))
        given = {k: v for k, v in args.items() if k != "template"}
        tpl = self.templates.get(tid)
        reads = tpl.get("reads") if tpl is not None else None
        if not reads:
            self._note(f"template '{tid}'")
            shown = ", ".join(f"{words(k)}: {self.expr.text(v)}" for k, v in given.items())
            return f"`{tid}`" + (f" ({shown})" if shown else "")
        params = tpl.get("params") if isinstance(tpl, dict) else None
        params = params if isinstance(params, dict) else {}

        def lookup(name: str) -> Arg:
            if name == "*":
                rest = {k: v for k, v in given.items() if k not in params}
                return Arg(", ".join(f"{words(k)} = {self.expr.text(v)}" for k, v in rest.items())) if rest \
                    else ABSENT
            if name in given:
                arg = self.expr.arg(given[name])
                if params.get(name) is not None and str(given[name]) == str(params[name]):
                    arg = dataclasses.replace(arg, default=True)
                return arg
            if params.get(name) is not None:
                return dataclasses.replace(self.expr.arg(params[name]), default=True)
            return ABSENT

        return fill(str(reads), lookup)

    # -- effects created or described --------------------------------------------------------------
    def spec(self, spec: dict[str, Any]) -> str:
        """An effect description: a replacement (`event`), a delayed trigger (`trigger`, `when_idle`),
        or a continuous effect (what it gives the cards or players it `affects`)."""
        if "event" in spec:
            return self._replacement(spec)
        if "trigger" in spec or "when_idle" in spec:
            when = self.trigger(spec["trigger"]) if "trigger" in spec else "when nothing else remains to be done"
            once = " (once)" if spec.get("once") else ""
            return f"{when}: {self.steps(spec.get('do', []), nested=True)}{once}"
        who = self.expr.text(spec["affects"]) if "affects" in spec else "you"
        clauses = []
        changes = self._changes(spec.get("modify")) + self._changes(spec.get("modify_player"))
        if changes:
            clauses.append(f"give {who} {' and '.join(changes)}")
        if "grant" in spec:
            granted = spec["grant"] if isinstance(spec["grant"], list) else [spec["grant"]]
            for g in granted:
                inner = self._ability(g) if isinstance(g, dict) else f"`{g}`"
                clauses.append(f"give {who} the ability “{inner}”")
        if "set_text" in spec:
            given = spec["set_text"] if isinstance(spec["set_text"], list) else [spec["set_text"]]
            inner = "; ".join(self._ability(g) if isinstance(g, dict) else f"`{g}`" for g in given)
            clauses.append(f"make the text of {who} “{inner}”")
        if spec.get("negate"):
            clauses.append(f"negate the abilities of {who}")
        if "restrict" in spec:
            clauses.append(self._restriction(spec["restrict"]))
        text = "; ".join(clauses) or f"`{spec}`"
        if "if" in spec:
            text += f", while {self.expr.text(spec['if'])}"
        return text

    def _restriction(self, restrict: Any) -> str:
        """A placement restriction a continuous effect adds: which moves into which zones it keeps out."""
        r = restrict if isinstance(restrict, dict) else {}
        kinds = " or ".join(str(k) for k in r.get("kinds") or []) or "any"
        zones = " or ".join(str(z) for z in r.get("zones") or [])
        where = f" where {self.expr.text(r['if'])}" if "if" in r else ""
        return f"no card may make a move ({kinds}) into {zones}{where}"

    def _changes(self, modify: Any) -> list[str]:
        out = []
        for name, ops in (modify.items() if isinstance(modify, dict) else []):
            for op, value in (ops.items() if isinstance(ops, dict) else []):
                if op == "add":
                    out.append(f"{self._signed(value)} {words(str(name))}")
                else:
                    out.append(f"{words(str(name))} set to {self._amount(value)}")
        return out

    def _signed(self, value: Any) -> str:
        if isinstance(value, dict):  # a multiset: a count per symbol
            return ", ".join(f"{self._signed(v)} {words(str(k))}" for k, v in value.items())
        text = self.expr.text(value)
        if text.startswith("-"):
            return text
        if text.startswith("minus "):
            return "-" + text[len("minus "):]
        return "+" + text

    def _amount(self, value: Any) -> str:
        if isinstance(value, dict):
            return ", ".join(f"{self._amount(v)} {words(str(k))}" for k, v in value.items())
        return self.expr.text(value)

    def _replacement(self, spec: dict[str, Any]) -> str:
        head = f"whenever {self.event(spec['event'])}"
        if "if" in spec:
            head += f", if {self.expr.text(spec['if'])}"
        parts = []
        if "cost" in spec:
            parts.append(f"paying {self.steps(spec['cost'], nested=True)}")
        may = "you may " if spec.get("optional") else ""
        if "instead" in spec:
            parts.append(f"{may}instead of it, {self.steps(spec['instead'], nested=True)}")
        if "change" in spec and isinstance(spec["change"], dict):
            parts.append(f"{may}change " + ", ".join(f"{words(str(k))} to {self.expr.text(v)}"
                                                      for k, v in spec["change"].items()))
        if "before" in spec:
            parts.append(f"first {self.steps(spec['before'], nested=True)}")
        if "after" in spec:
            parts.append(f"afterwards {self.steps(spec['after'], nested=True)}")
        once = " (once)" if spec.get("once") else ""
        return f"{head}: {', '.join(parts) or 'nothing'}{once}"
