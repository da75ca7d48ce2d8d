"""Card databases and decks, checked against the rulebook's card types, keywords and templates.

A card file lists cards with the fields their type defines and abilities written with the
rulebook's keywords and effect templates. Errors name the file, line and column and say what was
expected; every error of every file is reported at once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from interpreter.cardtext.normalize import TextRules, pin_of, split_abilities
from interpreter.loader import keyword_params
from interpreter.loader.compile import Compiler, Loc
from interpreter.loader.decks import Problem, across_problems
from interpreter.loader.diagnostics import Diagnostic, Diagnostics, LoadError
from interpreter.loader.names import collect_names, positional_bindings
from interpreter.loader.schema import did_you_mean, schema_names, validate
from interpreter.loader.yaml_safe import load_yaml
from interpreter.model.rulebook import ENGINE_KINDS, GRANTED, Ability, CardDef, Grant, Rulebook, engine_kind
from interpreter.model.vocabulary import Step
from interpreter.state.multiset import Multiset

ABILITY_KEYS = {"kind", "keywords", "trigger", "cost", "optional", "effect", "text", "rules", "params", "pin", "hand",
                "todo", "answers", "fields"}
CARD_BASE_KEYS = {"id", "type", "abilities", "text", "since"}
SINCE = "since"
"""A card's first rules version: it uses something older versions lack, so their games leave it out."""


class CardPool(dict[str, CardDef]):
    """The cards a rulebook version plays, by id; `later` holds the ids left out for being newer
    (id -> the `since` version) and `incomplete` those left out for lacking a required field (id ->
    where and what), so a deck naming one is told why rather than "unknown card"."""

    def __init__(self) -> None:
        super().__init__()
        self.later: dict[str, str] = {}
        self.incomplete: dict[str, str] = {}
        self.notices: list[Diagnostic] = []  # abilities to review or write, incomplete cards (not errors)


def version_key(version: str) -> tuple[int, ...] | None:
    """`1.02` as (1, 2) for ordering rules versions; None when it is not dot-separated numbers."""
    parts = str(version).strip().split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def card_schema(rb: Rulebook) -> dict[str, Any]:
    """A JSON Schema for this game's card files, generated from its card types (for editors)."""
    def field_schema(f: dict[str, Any]) -> dict[str, Any]:
        t = f.get("type")
        if t == "int":
            return {"type": "integer"}
        if t == "string":
            return {"type": "string"}
        if t == "strings":
            return {"type": "array", "items": {"type": "string"}}
        if t == "strings_map":
            strings = {"type": "array", "items": {"type": "string"}}
            return {"anyOf": [{"type": "object", "additionalProperties": strings}, strings]}
        if t == "multiset":
            return {"type": "object", "propertyNames": {"enum": rb.enums.get(f.get("of") or "", [])},
                    "additionalProperties": {"type": "integer", "minimum": 0}}
        if t == "enum":
            return {"enum": rb.enums.get(f.get("of") or "", [])}
        return {}

    common = rb.raw.get("common_fields", []) or []
    variants = []
    for tid, t in rb.card_types.items():
        fields = list(common) + list(t.get("fields", []) or [])
        props: dict[str, Any] = {"id": {"type": "string"}, "type": {"const": tid}, "text": {"type": "string"},
                                 SINCE: {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)*$"},
                                 "abilities": {"type": "array", "items": {"$ref": "#/$defs/ability"}}}
        for f in fields:
            props[f["id"]] = field_schema(f)
        variants.append({"type": "object", "properties": props, "additionalProperties": False,
                         "required": ["id", "type"] + [f["id"] for f in fields if f.get("required")]})
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://sogo.dev/schemas/generated/{rb.id}.cards.schema.json",
        "title": f"{rb.title} card database",
        "type": "object", "required": ["game", "cards"], "additionalProperties": False,
        "properties": {"game": {"const": rb.id}, "cards": {"type": "array", "items": {"oneOf": variants}}},
        "$defs": {"ability": {"type": "object", "anyOf": [{"required": ["kind"]}, {"required": ["todo"]},
                                                          {"required": ["fields"]}],
                              "additionalProperties": False,
                              "properties": {k: {} for k in sorted(ABILITY_KEYS)}}},
    }


def _check_field(rb: Rulebook, f: dict[str, Any], value: Any, loc: Loc, comp: Compiler) -> Any:
    t = f.get("type")
    if value == "-" and f.get("dash"):
        return None  # printed as "-": no value at all, not zero
    if t == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            comp.error(loc, f"field '{f['id']}' expects an integer, got {value!r}")
        return value
    if t == "string":
        if not isinstance(value, str):
            comp.error(loc, f"field '{f['id']}' expects a string, got {value!r}")
        return value
    if t == "strings":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            comp.error(loc, f"field '{f['id']}' expects a list of strings")
        elif f.get("of") in rb.enums:
            allowed = rb.enums[f["of"]]
            for i, v in enumerate(value):
                if v not in allowed:
                    comp.error(loc.at(i), f"'{v}' is not a {f['of']} (expected one of: {', '.join(allowed)})")
        return value
    if t == "strings_map":
        return _strings_map(f, value, loc, comp)
    if t == "multiset":
        allowed = rb.enums.get(f.get("of") or "", [])
        if not isinstance(value, dict):
            comp.error(loc, f"field '{f['id']}' expects a mapping of {f.get('of')} to counts, e.g. {{{allowed[0]}: 1}}")
            return Multiset()
        out = Multiset()
        for sym, n in value.items():
            if sym not in allowed:
                comp.error(loc.at(sym), f"'{sym}' is not a {f.get('of')} (expected one of: {', '.join(allowed)})",
                           at_key=True)
            elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                comp.error(loc.at(sym), f"count of '{sym}' must be a whole number >= 0, got {n!r}")
            else:
                out[sym] = n
        return out
    if t == "enum":
        allowed = rb.enums.get(f.get("of") or "", [])
        if value not in allowed:
            comp.error(loc, f"field '{f['id']}' expects one of {', '.join(allowed)}, got {value!r}")
        return value
    return value




def _strings_map(f: dict[str, Any], value: Any, loc: Loc, comp: Compiler) -> dict[str, list[str]]:
    """A `strings_map` field: each string with a list of strings of its own (`{KEY: [V, ...]}`), or a
    list of strings, each with none (`[KEY, ...]`)."""
    if isinstance(value, list) and all(isinstance(k, str) for k in value):
        return {k: [] for k in value}
    if not isinstance(value, dict):
        comp.error(loc, f"field '{f['id']}' expects a mapping of strings to lists of strings, "
                        "e.g. {A: [x], B: [y]}, or a list of strings")
        return {}
    out: dict[str, list[str]] = {}
    for k, vs in value.items():
        vs = [] if vs is None else vs
        if not isinstance(k, str) or not isinstance(vs, list) or not all(isinstance(v, str) for v in vs):
            comp.error(loc.at(k), f"field '{f['id']}': '{k}' expects a list of strings, got {vs!r}")
            continue
        out[k] = list(vs)
    return out


def _filled_fields(allowed: dict[str, Any], fields: dict[str, Any], cid: str, loc: Loc,
                   comp: Compiler) -> list[Diagnostic]:
    """Fields a card leaves out that the rulebook fills from another (`default_from`, split at
    `split`), then each `within` check: every string a `strings_map` field lists must be a value of
    that other field on the card (a located error). A card with several keys and several values of
    the `within` field that gives some key no list of its own is returned as a notice: each such key
    is then read as having every value."""
    for fid, f in allowed.items():
        src = f.get("default_from")
        if fid in fields or src is None or fields.get(src) in (None, ""):
            continue
        base = fields[src]
        items = [x for x in (base if isinstance(base, list) else [base]) if isinstance(x, str)]
        if f.get("split"):
            items = [part.strip() for x in items for part in x.split(f["split"]) if part.strip()]
        fields[fid] = {k: [] for k in items} if f.get("type") == "strings_map" else items
    notices: list[Diagnostic] = []
    for fid, f in allowed.items():
        within = f.get("within")
        value = fields.get(fid)
        if within is None or not isinstance(value, dict):
            continue
        have = fields.get(within)
        have_list = [x for x in (have if isinstance(have, list) else [have]) if x is not None]
        for k, vs in value.items():
            for v in vs:
                if v not in have_list:
                    comp.error(loc.at(fid, k), f"'{v}' is not one of card {cid}'s {within} "
                                               f"({', '.join(map(str, have_list)) or 'none'})")
        bare = [k for k, vs in value.items() if not vs]
        if len(value) > 1 and len(have_list) > 1 and bare:
            line, col = (loc.at(fid) if fid in fields else loc).pos()
            notices.append(Diagnostic(loc.file, line, col, f"review: card {cid} has several {fid} and several "
                                                           f"{within} but does not say which {within} "
                                                           f"each of {', '.join(bare)} has: each is read as "
                                                           f"having all of them"))
    return notices


def compile_ability(rb: Rulebook, raw: Any, index: int, loc: Loc, comp: Compiler,
                    card_type: str | None = None) -> Ability | None:
    if not isinstance(raw, dict):
        comp.error(loc, "an ability is a mapping with at least 'kind'")
        return None
    for key in raw:
        if key not in ABILITY_KEYS:
            comp.error(loc.at(key), f"unknown key '{key}' in ability (allowed: {', '.join(sorted(ABILITY_KEYS))})"
                                    f"{did_you_mean(key, ABILITY_KEYS)}", at_key=True)
    if "todo" in raw:
        return None  # not written yet (interpreter/cardtext): validate reports it, the game does not play it
    if "fields" in raw and "kind" not in raw:
        return None  # a line of card information: the card's fields say it (checked with the card)
    kind_defs = {k["id"]: k for k in rb.raw.get("ability_kinds", [])}
    kinds = set(kind_defs) or {"activated", "auto", "continuous"}
    kind = raw.get("kind")
    if kind not in kinds:
        comp.error(loc.at("kind"), f"unknown ability kind {kind!r} (expected one of: {', '.join(sorted(kinds))})")
        return None
    # A rulebook names its ability kinds; the engine treats each by how it is played.
    kind = engine_kind(kind_defs.get(kind) or {"id": kind})
    triggers: list[dict[str, Any]] = []
    limit: int | None = None
    game_limit: int | None = None
    gate: str | None = None
    conditions: list[tuple[str, Any]] = []
    resolving: list[tuple[str, Any]] = []
    rules: list[str] = list(raw.get("rules", []) or [])
    kws, values = _keywords_given(rb, raw.get("keywords", []), loc.at("keywords"), comp)
    for kw in _default_keywords(rb, kws, card_type):
        kws.append(kw)
        if "params_c" in rb.keywords[kw]:
            values[kw] = keyword_params.defaults(rb.keywords[kw]["params_c"])
    for i, kw in enumerate(kws):
        k = rb.keywords.get(kw)
        if k is None:
            comp.error(loc.at("keywords", i), f"unknown keyword '{kw}' (known: {', '.join(sorted(rb.keywords))})"
                                              f"{did_you_mean(kw, rb.keywords)}")
            continue
        if kw in values:  # its expressions, compiled for the values this ability gives
            k = {**k, **keyword_params.compile_for(rb.keywords[kw], values[kw], comp)}
        rules.extend(k.get("rules", []))
        kk = k.get("kind")
        if kk == "trigger":
            if not takes_trigger(kind):
                comp.error(loc.at("keywords", i), f"keyword '{kw}' makes an auto ability; this one is {kind}")
            triggers.append(k["trigger_c"])
        elif kk == "limit":
            if "uses_per_game" in k:
                game_limit = int(k["uses_per_game"])
            if "uses_per_turn" in k or "uses_per_game" not in k:
                limit = int(k.get("uses_per_turn", 1))
        elif kk == "zone_gate":
            gate = k["zone"]
        elif kk == "condition":
            if k.get("checked_when_resolving"):
                resolving.append((_condition_group(rb, kw), k["if_c"]))
                if kind == "auto":
                    continue  # it triggers whether or not the condition holds
            conditions.append((_condition_group(rb, kw), k["if_c"]))
        elif kk == "action":
            comp.error(loc.at("keywords", i), f"keyword '{kw}' is an action: use it in an effect as "
                                              f"call: {{template: {k.get('template')}}}")
    if "trigger" in raw:
        if not takes_trigger(kind):
            comp.error(loc.at("trigger"), f"a 'trigger' is for an auto ability or a kind a rule carries out on an "
                                          f"event (resolve_abilities with event); this one is {kind}", at_key=True)
        triggers.append(comp.trigger(raw["trigger"], loc.at("trigger")))
    if kind == "auto" and not triggers:
        comp.error(loc, "an auto ability needs a trigger keyword or a 'trigger'")
    cost = comp.steps(raw.get("cost", []), loc.at("cost"))
    continuous = None
    effect: tuple[Step, ...] = ()
    if kind == "continuous":
        continuous = comp.spec(raw.get("effect", {}), loc.at("effect"))
    else:
        effect = comp.steps(raw.get("effect", []), loc.at("effect"))
    answers = None
    if kind == "response":
        if "answers" not in raw:
            comp.error(loc, "a response ability needs 'answers': what it may be presented against (a condition "
                            "over target)")
        else:
            answers = comp.expr(raw["answers"], loc.at("answers"))
    elif "answers" in raw:
        comp.error(loc.at("answers"), f"'answers' is for abilities played in response; this one is {kind}",
                   at_key=True)
    designates = tuple(rb.designations[n] for n in _names_read(rb, raw.get("effect"), set(rb.designations))) \
        if rb.designations and kind != "continuous" else ()
    return Ability(index, kind, tuple(rules), triggers, cost,
                   bool(raw.get("optional", False)), effect, continuous, limit, gate, tuple(kws),
                   str(raw.get("text", "")), tuple(conditions), answers,
                   tuple(resolving) if kind != "continuous" else (), designates, game_limit, values)


def _keywords_given(rb: Rulebook, raw: Any, loc: Loc, comp: Compiler) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """An ability's keywords as written: each an id, or `{ID: VALUE}` / `{ID: {PARAM: VALUE}}` giving a
    keyword its parameters. Returns the ids in order and, for each keyword that declares parameters,
    the values (its defaults filled in), checked against its declaration."""
    kws: list[str] = []
    values: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(raw or []):
        at = loc.at(i)
        if isinstance(item, str):
            kid, value, bare, vat = item, None, True, at
        elif isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item)), str):
            (kid, value), = item.items()
            bare, vat = False, at.at(kid)
        else:
            comp.error(at, "a keyword is its id, or {ID: VALUE} (or {ID: {PARAM: VALUE, ...}}) for a keyword "
                           "with parameters")
            continue
        kws.append(kid)
        k = rb.keywords.get(kid)
        if k is None:
            continue  # reported with the others (unknown keyword)
        params = k.get("params_c", ())
        if kid in values:
            comp.error(at, f"keyword '{kid}' is given twice in one ability: its parameters would be ambiguous")
            continue
        given = keyword_params.given(kid, params, value, vat, comp, bare)
        if params:
            values[kid] = given
    return kws, values


def takes_trigger(kind: str) -> bool:
    """Whether an ability of this engine kind has a trigger: an auto ability, or one of a kind the
    rulebook never has played (no `played`), which a rule carries out when its event happens
    (`resolve_abilities` with `event`, e.g. abilities carried out inside a rule process)."""
    return kind == "auto" or kind not in ENGINE_KINDS.values()


WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _names_read(rb: Rulebook, raw: Any, wanted: set[str], seen: frozenset[str] = frozenset()) -> list[str]:
    """Which of the `wanted` names an effect's text mentions, in its templates too (a word of an
    expression; a prompt is no expression), in the order of `wanted`'s rulebook."""
    found: set[str] = set()
    stack = [raw]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            found.update(w for w in WORD.findall(v) if w in wanted)
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(x for k, x in v.items() if k != "prompt")
            tpl = v.get("template") if "template" in v else None
            if isinstance(tpl, str) and tpl not in seen:
                body = next((t.get("do") for t in rb.raw.get("templates", []) or [] if t.get("id") == tpl), None)
                found.update(_names_read(rb, body, wanted, seen | {tpl}))
    return [n for n in rb.designations if n in found]


def _default_keywords(rb: Rulebook, kws: list[Any], card_type: str | None) -> list[str]:
    """A card type's default keywords an ability takes: those of a group none of its own condition
    keywords is in."""
    given_groups = {_condition_group(rb, kw) for kw in kws
                    if isinstance(kw, str) and (rb.keywords.get(kw) or {}).get("kind") == "condition"}
    return [kw for kw in (rb.card_types.get(card_type or "") or {}).get("default_keywords", []) or []
            if _condition_group(rb, kw) not in given_groups]


def compile_grants(rb: Rulebook, comp: Compiler) -> None:
    """Compile the abilities the `grant:` of effect descriptions give (met by `comp` in rulebook or card
    data), each once, by the code that compiles printed abilities, into the rulebook's registry.
    Where a grant is written keys its registry number, so loading a card file again renumbers
    nothing. A granted ability is also made for each card type with default keywords (the version a
    card of that type gets), and may itself grant (those are compiled in turn)."""
    while comp.pending_grants:
        pending, comp.pending_grants = comp.pending_grants, []
        for raw, loc, out in pending:
            key = f"{loc.file}:{'/'.join(str(p) for p in loc.path)}"
            pos = rb.grant_keys.get(key, len(rb.grants))
            base = compile_ability(rb, raw, GRANTED + pos, loc, comp)
            if base is None:
                if isinstance(raw, dict) and "todo" in raw:
                    comp.error(loc, "a granted ability must be written (it has 'todo')")
                continue
            for i, kw in enumerate(base.keywords):
                if (rb.keywords.get(kw) or {}).get("kind") == "active_zones":
                    comp.error(loc.at("keywords", i), f"keyword '{kw}' sets where an ability works; a granted "
                                                      f"ability works where its card's abilities work")
            by_type: dict[str, Ability] = {}
            for tid in rb.card_types:
                extra = _default_keywords(rb, list(base.keywords), tid)
                if extra:
                    conditions = [(_condition_group(rb, kw), rb.keywords[kw]["if_c"]) for kw in extra
                                  if "if_c" in rb.keywords.get(kw, {})]
                    rules = [r for kw in extra for r in rb.keywords[kw].get("rules", [])]
                    values = dict(base.keyword_params)
                    values.update((kw, keyword_params.defaults(rb.keywords[kw]["params_c"])) for kw in extra
                                  if "params_c" in rb.keywords.get(kw, {}))
                    by_type[tid] = replace(base, keywords=base.keywords + tuple(extra),
                                           rules=base.rules + tuple(rules),
                                           conditions=base.conditions + tuple(conditions), keyword_params=values)
            grant = Grant(GRANTED + pos, base, by_type)
            if pos == len(rb.grants):
                rb.grants.append(grant)
                rb.grant_keys[key] = pos
            else:
                rb.grants[pos] = grant
            out.append(grant)


def _condition_group(rb: Rulebook, kw: str) -> str:
    """The group of a condition keyword: alternatives share a group (default: the keyword alone)."""
    return str((rb.keywords.get(kw) or {}).get("group", kw))


def load_cards(rb: Rulebook, paths: Iterable[Path]) -> CardPool:
    """Load card files (or directories of them) for a rulebook; raises LoadError with every problem.
    A card whose `since` is a later rules version than the rulebook's is left out (see CardPool)."""
    diags = Diagnostics()
    cards = CardPool()
    ours = version_key(rb.rules_version)
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(x for x in p.glob("*.yaml") if not x.name.startswith("deck")))
        else:
            files.append(p)
    common = {f["id"]: f for f in rb.raw.get("common_fields", []) or []}
    for path in files:
        try:
            data, smap = load_yaml(path)
        except LoadError as e:
            diags.extend(e.diagnostics)
            continue
        shape = validate(data, "cards", smap, str(path)) if "cards" in schema_names() else []
        diags.extend(shape)
        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            continue
        # The shape check knows no card type's fields, so cards are still checked field by field;
        # what it already reported (a misshapen ability) is not compiled again, to say it once.
        flagged = _ability_spans_with(smap, data["cards"], {d.line for d in shape}) if shape else set()
        if data.get("game") != rb.id:
            line, col = smap.get(("game",))
            diags.add(str(path), line, col, f"card file is for game {data.get('game')!r}, not {rb.id!r}")
            continue
        names = set(rb.names)
        collect_names(data, names)
        # With shape problems, what the compiler finds on a line the shape check already reported is
        # the same mistake worded otherwise: it is left out.
        found = Diagnostics() if shape else diags
        positional_bindings(data, partial(Loc, str(path), smap), found)
        comp = Compiler(found, rb.compiler.known, names, rb.functions)
        _compile_cards(rb, data, path, smap, comp, cards, common, ours, flagged)
        compile_grants(rb, comp)
        if found is not diags:
            shape_lines = {d.line for d in shape}
            diags.extend(d for d in found.sorted() if d.line not in shape_lines)
    diags.raise_if_any()
    return cards


def _compile_cards(rb: Rulebook, data: dict[str, Any], path: Path, smap: Any, comp: Compiler, cards: CardPool,
                   common: dict[str, Any], ours: tuple[int, ...] | None, flagged: set[tuple[int, int]]) -> None:
    """Check and compile each card of one file into `cards` (problems go to the compiler's collector)."""
    for i, raw in enumerate(data["cards"]):
        loc = Loc(str(path), smap, ("cards", i))
        if not isinstance(raw, dict):
            comp.error(loc, "a card is a mapping")
            continue
        cid = raw.get("id")
        if not isinstance(cid, str):
            comp.error(loc, "a card needs a string 'id'")
            continue
        if cid in cards or cid in cards.later or cid in cards.incomplete:
            first = cards[cid].source if cid in cards else "a card of a later rules version" if cid in cards.later \
                else cards.incomplete[cid]
            comp.error(loc.at("id"), f"duplicate card id '{cid}' (first in {first})")
            continue
        if SINCE in raw:
            since = version_key(raw[SINCE]) if isinstance(raw[SINCE], str) else None
            if since is None:
                comp.error(loc.at(SINCE), f"'since' is a rules version in quotes, e.g. \"1.03\"; "
                                          f"got {raw[SINCE]!r}")
                continue
            if ours is not None and since > ours:
                cards.later[cid] = raw[SINCE]
                continue
        ctype = raw.get("type")
        if ctype not in rb.card_types:
            comp.error(loc.at("type"), f"unknown card type {ctype!r} (expected one of: "
                                       f"{', '.join(rb.card_types)})")
            continue
        tfields = {f["id"]: f for f in rb.card_types[ctype].get("fields", []) or []}
        allowed = {**common, **tfields}
        fields: dict[str, Any] = {}
        for key, value in raw.items():
            if key in CARD_BASE_KEYS:
                continue
            if key not in allowed:
                comp.error(loc.at(key), f"unknown field '{key}' for a {ctype} card (allowed: "
                                        f"{', '.join(sorted(set(allowed) | CARD_BASE_KEYS))})"
                                        f"{did_you_mean(key, set(allowed) | CARD_BASE_KEYS)}", at_key=True)
                continue
            fields[key] = _check_field(rb, allowed[key], value, loc.at(key), comp)
        missing = [fid for fid, f in allowed.items() if f.get("required") and fid not in raw]
        if missing:
            # A card a list left incomplete: the others still load; this one is left out, told where.
            line, col = loc.pos()
            what = f"{ctype} card '{cid}' is missing required field{'s' if len(missing) > 1 else ''} " \
                   f"{', '.join(repr(m) for m in missing)}"
            cards.notices.append(Diagnostic(loc.file, line, col, f"warning: {what}; the card is left out"))
            cards.incomplete[cid] = f"{what} ({loc.file}:{line})"
        cards.notices.extend(_filled_fields(allowed, fields, cid, loc, comp))
        abilities = []
        for j, a in enumerate(raw.get("abilities", []) or []):
            if (i, j) in flagged:
                continue
            if isinstance(a, dict) and isinstance(a.get("fields"), dict) and "kind" not in a:
                _check_information(a["fields"], allowed, fields, cid, loc.at("abilities", j, "fields"), comp)
            ab = compile_ability(rb, a, j, loc.at("abilities", j), comp, ctype)
            if ab is not None:
                abilities.append(ab)
        if not missing:  # an incomplete card is still checked, for its other problems
            cards[cid] = CardDef(cid, ctype, fields, abilities, f"{path}:{smap.get(('cards', i))[0]}",
                                 str(raw.get("text", "") or ""))
        cards.notices.extend(_review(rb, raw, cid, loc))


def _check_information(stated: dict[str, Any], allowed: dict[str, Any], fields: dict[str, Any], cid: str, loc: Loc,
                       comp: Compiler) -> None:
    """A line of card information (an entry with `fields`, no kind) states field values the card must
    have: `sogo cards compile --write` writes them; a card that lacks or contradicts one is an error."""
    for key, value in stated.items():
        if key not in allowed:
            comp.error(loc.at(key), f"card {cid}: its text states field '{key}', which its card type does not have")
        elif fields.get(key) != value:
            comp.error(loc.at(key), f"card {cid}: its text states {key}: {value!r}, the card has "
                                    f"{fields.get(key)!r} (`sogo cards compile --write` writes it)")


def _review(rb: Rulebook, raw: dict[str, Any], cid: str, loc: Loc) -> list[Diagnostic]:
    """Abilities not written yet (`todo`), and pinned abilities whose printed text changed since
    (an errata): ability k encodes line k of the card's text, or its own `text` without one."""
    rules = rb.card_text.rules if rb.card_text is not None else TextRules()
    lines = split_abilities(raw["text"], rules) if isinstance(raw.get("text"), str) else None
    out = []
    for j, a in enumerate(raw.get("abilities", []) or []):
        if not isinstance(a, dict):
            continue
        line, col = loc.at("abilities", j).pos()
        if "todo" in a:
            out.append(Diagnostic(loc.file, line, col, f"todo: card {cid}, ability {j + 1} is not written (no phrase "
                                                       f"matches {a['todo']}); the game leaves it out"))
        source = lines[j][1] if lines is not None and j < len(lines) else a.get("text")
        if isinstance(a.get("pin"), str) and isinstance(source, str) and pin_of(source, rules) != a["pin"]:
            out.append(Diagnostic(loc.file, line, col, f"review: card {cid}, ability {j + 1}: its printed text "
                                                       f"changed since it was pinned; check the ability against "
                                                       f"「{source}」, then `sogo cards pin`"))
    return out


def _ability_spans_with(smap: Any, cards: list[Any], lines: set[int]) -> set[tuple[int, int]]:
    """(card, ability) indexes whose lines hold one of `lines`: an ability runs from its own line
    to the line of the next ability or card."""
    starts: list[tuple[int, tuple[int, int] | None]] = []
    for i, raw in enumerate(cards):
        starts.append((smap.get(("cards", i))[0], None))
        abilities = raw.get("abilities") if isinstance(raw, dict) else None
        for j, _ in enumerate(abilities if isinstance(abilities, list) else []):
            starts.append((smap.get(("cards", i, "abilities", j))[0], (i, j)))
    starts.sort(key=lambda x: x[0])
    out: set[tuple[int, int]] = set()
    for k, (line, key) in enumerate(starts):
        if key is None:
            continue
        end = starts[k + 1][0] if k + 1 < len(starts) else None
        if any(line <= n and (end is None or n < end) for n in lines):
            out.add(key)
    return out


def load_deck(rb: Rulebook, cards: dict[str, CardDef], path: Path) -> dict[str, list[str]]:
    """Load a deck file and check it against the rulebook's deck construction rules."""
    data, smap = load_yaml(path)
    diags = Diagnostics()
    if "deck" in schema_names():
        diags.extend(validate(data, "deck", smap, str(path)))
        diags.raise_if_any()
    if not isinstance(data, dict) or not isinstance(data.get("decks"), dict):
        raise LoadError.single(str(path), 1, 1, "a deck file needs 'game' and a 'decks' mapping of zone to cards")
    if data.get("game") != rb.id:
        line, col = smap.get(("game",))
        raise LoadError.single(str(path), line, col, f"deck is for game {data.get('game')!r}, not {rb.id!r}")
    out: dict[str, list[str]] = {}
    for zone, entries in data["decks"].items():
        zl = smap.get(("decks", zone))
        if zone not in rb.zones:
            diags.add(str(path), zl[0], zl[1], f"unknown zone '{zone}' (known: {', '.join(rb.zones)})")
            continue
        ids: list[str] = []
        for i, e in enumerate(entries or []):
            line, col = smap.get(("decks", zone, i))
            if not isinstance(e, dict) or "card" not in e:
                diags.add(str(path), line, col, "a deck entry is {card: ID, count: N}")
                continue
            if e["card"] not in cards:
                later = getattr(cards, "later", {}).get(e["card"])
                incomplete = getattr(cards, "incomplete", {}).get(e["card"])
                diags.add(str(path), line, col, f"card '{e['card']}' is for rules {later} and later; this rulebook "
                                                f"encodes {rb.rules_version}" if later else
                                                f"card '{e['card']}' is left out: {incomplete}" if incomplete else
                                                f"unknown card '{e['card']}'")
                continue
            n = e.get("count", 1)
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                diags.add(str(path), line, col, f"count must be a whole number >= 1, got {n!r}")
                continue
            ids.extend([e["card"]] * n)
        out[zone] = ids
    diags.raise_if_any()
    problems = deck_problems(rb, cards, out)
    if problems:
        raise LoadError([d for d in (_at(path, data, smap, p) for p in problems)])
    return out


def _at(path: Path, data: dict[str, Any], smap: Any, problem: Problem) -> Any:
    """Where a deck problem is shown: at the entry of the card it names, else at its zone."""
    from interpreter.loader.diagnostics import Diagnostic

    zone, card, msg = problem
    line, col = smap.get(("decks", zone)) if zone else (1, 1)
    entries = data["decks"].get(zone) if zone else None
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if card is not None and isinstance(entry, dict) and entry.get("card") == card:
            line, col = smap.get(("decks", zone, i))
            break
    return Diagnostic(str(path), line, col, msg)


class CardEnv:
    """What a deck-construction condition sees: `it` is a card definition, `it.type` its type and
    other attributes its printed fields (no game is running while decks are checked)."""

    def __init__(self, card: Any) -> None:
        self.card = card

    def lookup(self, name: str) -> Any:
        return self.card if name == "it" else None

    def attr(self, obj: Any, name: str) -> Any:
        if obj is self.card:
            return obj.type if name == "type" else obj.fields.get(name)
        return obj.get(name) if isinstance(obj, dict) else None

    def with_it(self, value: Any) -> Any:
        return CardEnv(value)


def check_deck(rb: Rulebook, cards: dict[str, CardDef], deck: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Deck construction as data: exact counts by condition, a copy limit per deck, which the cards
    its `except` condition holds for are free of, and the rules over several decks (returns (zone,
    message) problems)."""
    return [(zone, message) for zone, _, message in deck_problems(rb, cards, deck)]


def deck_problems(rb: Rulebook, cards: dict[str, CardDef], deck: dict[str, list[str]]) -> list[Problem]:
    """`check_deck`'s problems, each with the card it is best shown at (None: its zone)."""
    problems: list[Problem] = []
    for rule in rb.deck_rules:
        ids = deck.get(rule.zone, [])
        for cid, rules, where, exactly in rule.counts:
            n = sum(1 for c in ids if where(CardEnv(cards[c])))
            if n != exactly:
                problems.append((rule.zone, None, f"deck construction {cid} ({', '.join(rules)}): {rule.zone} "
                                                  f"must have exactly {exactly} matching cards, has {n}"))
        for cid, rules, where, low, high in rule.bounds:
            n = sum(1 for c in ids if where(CardEnv(cards[c])))
            if (low is not None and n < low) or (high is not None and n > high):
                span = (f"at least {low}" if high is None else f"at most {high}" if low is None
                        else f"between {low} and {high}")
                problems.append((rule.zone, None, f"deck construction {cid} ({', '.join(rules)}): {rule.zone} "
                                                  f"must have {span} matching cards, has {n}"))
        if rule.max_copies is not None:
            mid, rules, by, mx, unlimited = rule.max_copies
            counts: dict[str, int] = {}
            for c in ids:
                if unlimited is not None and unlimited(CardEnv(cards[c])):
                    continue  # a card any number of which may be in a deck
                key = str(cards[c].fields.get(by, c)) if by != "id" else c
                counts[key] = counts.get(key, 0) + 1
            for key, n in sorted(counts.items()):
                if n > mx:
                    problems.append((rule.zone, None, f"deck construction {mid} ({', '.join(rules)}): at most "
                                                      f"{mx} copies of {by} {key}, found {n}"))
    problems.extend(across_problems(rb, cards, deck, CardEnv))
    for zone in deck:
        if not any(r.zone == zone for r in rb.deck_rules):
            problems.append((zone, None, f"zone '{zone}' is not a deck zone of this game"))
    return problems
