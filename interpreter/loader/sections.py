"""Compile a merged rulebook section by section.

`load_rulebook` calls these in order: ids and what they name first (every later check looks names
up there), then functions (expressions everywhere may call them), templates, zones, card types,
keywords, actions, rule processing, setup and deck construction, the turn structure (which checks
the jump targets named by everything compiled before it), timing and invariants. Each reports its
problems to the shared `Compiler` and carries on, so one run shows every mistake.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from interpreter.expr import FuncSpec
from interpreter.expr.compiler import constant
from interpreter.loader import keyword_params
from interpreter.loader.compile import Compiler, Known, Loc
from interpreter.loader.diagnostics import Diagnostics
from interpreter.loader.graph import TurnGraph, build_graph, check_reachable, jump_targets
from interpreter.model.rulebook import (
    Action,
    DeckRule,
    Designation,
    Duration,
    RuleProcess,
    Template,
    ZoneDef,
    engine_kind,
)
from interpreter.table.functions import GENERIC_FUNCTIONS
from interpreter.table.rulebook_functions import EVERY, PARAM, RulebookFunction

Raw = dict[str, tuple[dict[str, Any], Loc]]
"""A list section indexed by id: each element with where it was written."""

LIST_SECTIONS = {"invariants", "enums", "card_types", "common_fields", "placement_states", "zones", "templates",
                 "events", "durations", "functions", "keywords", "decisions", "not_encoded", "actions", "roles",
                 "subgraphs", "ability_kinds", "designations"}
"""Sections that are lists of elements: each part of a rulebook may add elements to them."""
TIMING_SECTIONS = ("check_timing", "play_timing", "triggers", "continuous", "replacement", "costs",
                   "last_known_information", "choosing", "moved_card_information", "responses")
CHECK_TIMING_PLAYERS = ("active_player", "non_active_player", "turn_player", "non_turn_player")


class Merged:
    """Rulebook parts merged into one mapping, remembering where each value came from."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}
        self.locs: dict[str, Any] = {}  # section -> Loc, or list of Locs for list sections

    def loc(self, section: str, index: int | None = None) -> Loc:
        v = self.locs[section]
        return v[index] if index is not None else v

    def loc_of(self, path: tuple[Any, ...]) -> Loc:
        """Where the value at `path` (section first) was written, whichever part it came from."""
        if path[0] in LIST_SECTIONS:
            return self.loc(path[0], path[1]).at(*path[2:])
        return self.loc(path[0]).at(*path[1:])


@dataclass
class Ids:
    """The list sections indexed by id (duplicates reported), and what they let later checks know."""

    zones: Raw
    states: Raw
    enums: Raw
    types: Raw
    templates: Raw
    functions: Raw
    keywords: Raw
    events: Raw
    actions: Raw
    roles: Raw
    durations: Raw
    subgraphs: Raw
    known: Known
    groups: dict[str, list[str]]
    field_types: dict[str, dict[str, Any]]


def index_ids(m: Merged, diags: Diagnostics) -> Ids:
    d = m.data

    def unique(section: str) -> Raw:
        out: Raw = {}
        for i, item in enumerate(d.get(section, [])):
            loc = m.loc(section, i)
            if not isinstance(item, dict) or "id" not in item:
                continue
            if item["id"] in out:
                line, col = loc.at("id").pos()
                diags.add(loc.file, line, col, f"duplicate {section} id '{item['id']}' (first at {out[item['id']][1]})")
                continue
            out[item["id"]] = (item, loc)
        return out

    ids = Ids(unique("zones"), unique("placement_states"), unique("enums"), unique("card_types"), unique("templates"),
              unique("functions"), unique("keywords"), unique("events"), unique("actions"), unique("roles"),
              unique("durations"), unique("subgraphs"), Known(), {}, {})
    known = ids.known
    known.zones = set(ids.zones)
    for zid, (z, _) in ids.zones.items():
        for g in z.get("groups", []) or []:
            ids.groups.setdefault(g, []).append(zid)
    known.groups = set(ids.groups)
    known.states = {sid: set(s.get("values", [])) for sid, (s, _) in ids.states.items()}
    known.enums = {eid: set(e.get("values", [])) for eid, (e, _) in ids.enums.items()}
    known.events = set(ids.events)
    known.templates = set(ids.templates)
    known.roles = set(ids.roles)
    known.durations = set(ids.durations)
    known.owned_durations = {did for did, (dur, _) in ids.durations.items() if dur.get("owner") is not None}
    known.actions = set(ids.actions)
    known.keywords = set(ids.keywords)
    known.keyword_params = {kid: tuple(str(n) for n in k["params"]) for kid, (k, _) in ids.keywords.items()
                            if isinstance(k.get("params"), dict)}
    for _tid, (t, _) in ids.types.items():
        for f in t.get("fields", []) or []:
            ids.field_types[f["id"]] = f
    for f in d.get("common_fields", []):
        ids.field_types[f["id"]] = f
    known.fields = set(ids.field_types)
    zr = d.get("zone_rules")
    kinds = zr.get("move_kinds") if isinstance(zr, dict) else None
    known.move_kinds = {str(k["id"]) for k in kinds or [] if isinstance(k, dict) and "id" in k}
    return ids


# -- functions: generic ones plus the rulebook's own, defined as expressions ------------------------
def declare_functions(fn_raw: Raw, diags: Diagnostics) -> tuple[dict[str, FuncSpec], dict[str, RulebookFunction]]:
    """Every function an expression may call. The rulebook's own get their bodies later
    (`compile_functions`), since a body may call any function, its own included."""
    functions: dict[str, FuncSpec] = dict(GENERIC_FUNCTIONS)
    bodies: dict[str, RulebookFunction] = {}
    for fid, (f, loc) in fn_raw.items():
        if fid in GENERIC_FUNCTIONS:
            line, col = loc.at("id").pos()
            diags.add(loc.file, line, col, f"function '{fid}' is built in; choose another name")
            continue
        rf = bodies[fid] = RulebookFunction(fid, [str(p) for p in f.get("params", []) or []])
        functions[fid] = FuncSpec(fid, rf.entry(), len(rf.params), len(rf.params), pass_env=True,
                                  reads=str(f.get("reads", "") or ""))
    return functions, bodies


def compile_functions(fn_raw: Raw, bodies: dict[str, RulebookFunction], comp: Compiler, roles: set[str],
                      groups: dict[str, list[str]], states: Collection[str]) -> None:
    """Each function's body; a function is pure (memoised) when it reads nothing but its
    parameters, the roles and the turn, and calls only pure functions."""
    fn_calls: dict[str, set[str]] = {}
    for fid, (f, loc) in fn_raw.items():
        if fid in bodies:
            c = comp.compile_str(str(f.get("expr", "")), loc.at("expr"))
            bodies[fid].define(c if c is not None else constant(None))
            if c is not None:
                fn_calls[fid] = set(c.calls_used) & set(bodies)
                free = set(c.names_used) - set(f.get("params", []) or []) - {"it"}
                # can_move_to reads what placement restrictions read (variables, turn player...)
                bodies[fid].pure = free <= (roles | {"turn"}) and "can_move_to" not in c.calls_used
    report_cycles(fn_calls, "function", lambda f: fn_raw[f][1], comp, list(fn_raw))
    changed = True
    while changed:  # a function calling an impure function is impure too
        changed = False
        for fid, callees in fn_calls.items():
            if bodies[fid].pure and not all(bodies[c].pure for c in callees):
                bodies[fid].pure = False
                changed = True
    _set_function_places(bodies, groups, states)


def _set_function_places(bodies: dict[str, RulebookFunction], groups: dict[str, list[str]],
                         states: Collection[str]) -> None:
    """The places each pure function reads, when it reads nothing but zones and cards (and no field
    a continuous effect could change): its value is then kept until one of them changes
    (table/rulebook_functions.py). A zone read for the player the first parameter names is that
    player's alone."""
    from interpreter.table.attributes import FIELD, attr_kind
    from interpreter.table.reads import ANY_PLAYER, PLAYER_VAR, fields_read, zone_keys_read, zone_only

    asts = {f: rf.body.ast for f, rf in bodies.items() if hasattr(rf.body, "ast")}
    functions = {f: (ast, set(bodies[f].params)) for f, ast in asts.items()}
    params = {f: rf.params for f, rf in bodies.items()}
    for fid, rf in bodies.items():
        ast = asts.get(fid)
        if not rf.pure or ast is None or not zone_only(ast, set(rf.params), functions) \
                or _reads_other_cards(ast, asts, frozenset()):
            continue
        fields = fields_read(ast, asts)
        if fields is None or any(attr_kind(f, states) == FIELD for f in fields):
            continue
        keys = zone_keys_read(ast, groups, asts, None, rf.params[0] if rf.params else None, params=params)
        if keys is None:
            continue
        rf.places = sorted(((z, PARAM if who == PLAYER_VAR else EVERY if who == ANY_PLAYER else None)
                            for z, who in keys), key=str)


_OTHER_CARDS = frozenset({"under", "holder_of", "holder_present"})
"""Functions that read cards other than those given them, wherever those are (a card's holder, the
cards under it): a function calling one cannot tell the places it reads."""


def _reads_other_cards(ast: Any, asts: dict[str, Any], seen: frozenset[str]) -> bool:
    from interpreter.expr import walk
    from interpreter.expr.nodes import Call

    for node in walk(ast):
        if isinstance(node, Call):
            if node.name in _OTHER_CARDS:
                return True
            if node.name in asts and node.name not in seen \
                    and _reads_other_cards(asts[node.name], asts, seen | {node.name}):
                return True
    return False


# -- templates, zones, card types, keywords, actions ------------------------------------------------
def compile_templates(tpl_raw: Raw, comp: Compiler) -> dict[str, Template]:
    templates: dict[str, Template] = {}
    for tid, (t, loc) in tpl_raw.items():
        comp._current_template = tid
        tparams = t.get("params", {}) or {}
        defaults = {str(n): comp.expr(v, loc.at("params", n)) for n, v in tparams.items()}
        can = comp.expr(t["can"], loc.at("can")) if "can" in t else None
        templates[tid] = Template(tid, tuple(t.get("rules", ())), defaults, comp.steps(t.get("do", []), loc.at("do")),
                                  can, bool(t.get("text_choices", False)))
    comp._current_template = None
    report_cycles(comp.template_calls, "template", lambda t: tpl_raw[t][1], comp, list(tpl_raw))
    return templates


def compile_zones(zones_raw: Raw, known: Known, comp: Compiler) -> dict[str, ZoneDef]:
    zones = {zid: ZoneDef(zid, tuple(z.get("rules", ())), z.get("owner") == "shared", z.get("visibility", "public"),
                          bool(z.get("ordered", False)), tuple(z.get("groups", []) or ()),
                          tuple(z.get("states", []) or ()), bool(z.get("stacking", False)), z)
             for zid, (z, _) in zones_raw.items()}
    for z, loc in zones_raw.values():
        for i, s in enumerate(z.get("states", []) or []):
            if s not in known.states:
                comp.error(loc.at("states", i), f"unknown placement state '{s}'")
        for key in ("adjacent",):
            for i, other in enumerate(z.get(key, []) or []):
                if other not in known.zones:
                    comp.error(loc.at(key, i), f"unknown zone '{other}'")
        if "front" in z and z["front"] not in known.zones:
            comp.error(loc.at("front"), f"unknown zone '{z['front']}'")
        facts = z.get("hidden_facts") or {}
        if isinstance(facts, dict):
            zones[z["id"]].hidden_facts = {str(n): comp.expr(e, loc.at("hidden_facts", n)) for n, e in facts.items()}
    return zones


def check_zone_rules(m: Merged, known: Known, comp: Compiler) -> list[tuple[Any, Any]]:
    """The groups zone rules name; returns the arrival marks (group, mark)."""
    zr = m.data.get("zone_rules", {}) or {}
    zr_loc = m.locs.get("zone_rules")
    for key in ("identity_kept_within", "to_owner_except"):
        for i, g in enumerate(zr.get(key, []) or []):
            if g not in known.groups and g not in known.zones and zr_loc is not None:
                comp.error(zr_loc.at(key, i), f"unknown zone group '{g}'")
    arrival = []
    for i, am in enumerate(zr.get("arrival_marks", []) or []):
        if am.get("group") not in known.groups and zr_loc is not None:
            comp.error(zr_loc.at("arrival_marks", i, "group"), f"unknown zone group '{am.get('group')}'")
        arrival.append((am.get("group"), am.get("mark")))
    return arrival


def check_card_types(ids: Ids, comp: Compiler) -> dict[str, frozenset[str]]:
    """Card types' default keywords and field enums; returns the zones where each type's
    abilities work."""
    known, kw_raw = ids.known, ids.keywords
    ability_zones: dict[str, frozenset[str]] = {}
    for tid, (t, loc) in ids.types.items():
        for i, kw in enumerate(t.get("default_keywords", []) or []):
            if kw not in kw_raw:  # a typo is not "the wrong kind of keyword"
                comp.error(loc.at("default_keywords", i),
                           f"unknown keyword '{kw}' (known: {', '.join(sorted(kw_raw))})")
            elif kw_raw[kw][0].get("kind") != "condition":
                comp.error(loc.at("default_keywords", i), f"default keyword '{kw}' is not a condition keyword")
            else:
                params = kw_raw[kw][0].get("params")
                needed = [n for n, p in params.items() if not (isinstance(p, dict) and "default" in p)] \
                    if isinstance(params, dict) else []
                if needed:
                    comp.error(loc.at("default_keywords", i), f"default keyword '{kw}' needs parameter "
                                                              f"'{needed[0]}': a card type's default keywords take "
                                                              "their parameters' defaults")
        zs: set[str] = set()
        for i, z in enumerate(t.get("abilities_valid_in", []) or []):
            if z in ids.groups:
                zs.update(ids.groups[z])
            elif z in known.zones:
                zs.add(z)
            else:
                comp.error(loc.at("abilities_valid_in", i), f"unknown zone or group '{z}'")
        ability_zones[tid] = frozenset(zs)
        for i, f in enumerate(t.get("fields", []) or []):
            if f.get("type") == "multiset" and f.get("of") not in known.enums:
                comp.error(loc.at("fields", i, "of"), f"unknown enum '{f.get('of')}'")
    return ability_zones


def check_field_links(m: Merged, ids: Ids, comp: Compiler) -> None:
    """Card fields that name another field (`default_from`, `within`) name one the cards have, and
    only list fields take them (`split` goes with `default_from`)."""
    located = [(f, loc.at("fields", i)) for _tid, (t, loc) in ids.types.items()
               for i, f in enumerate(t.get("fields", []) or [])]
    located += [(f, m.loc("common_fields", i)) for i, f in enumerate(m.data.get("common_fields", []) or [])]
    for f, loc in located:
        if not isinstance(f, dict):
            continue
        for key in ("default_from", "within"):
            other = f.get(key)
            if other is None:
                continue
            if other not in ids.field_types or other == f.get("id"):
                comp.error(loc.at(key), f"'{key}' names no other card field: '{other}' "
                                        f"(fields: {', '.join(sorted(ids.field_types))})")
        if f.get("within") is not None and f.get("type") != "strings_map":
            comp.error(loc.at("within"), "'within' is for a strings_map field (the strings its lists hold)")
        if f.get("default_from") is not None and f.get("type") not in ("strings", "strings_map"):
            comp.error(loc.at("default_from"), "'default_from' is for a strings or strings_map field")
        if f.get("split") is not None and f.get("default_from") is None:
            comp.error(loc.at("split"), "'split' splits the value 'default_from' takes: give 'default_from'")


def compile_keywords(kw_raw: Raw, known: Known, comp: Compiler,
                     groups: dict[str, list[str]] | None = None) -> dict[str, dict[str, Any]]:
    groups = groups or {}
    keywords: dict[str, dict[str, Any]] = {}
    for kid, (k, loc) in kw_raw.items():
        entry = dict(k)
        params = keyword_params.declare(kid, k, loc, comp)
        if params:
            # Its expressions read the values an ability gives (`kw.NAME`): compiled here with the
            # defaults, and again for each set of values cards give (loader/cards.py).
            entry["params_c"], entry["loc_c"] = params, loc
            keyword_params.check_reads(kid, params, k.get("if"), loc.at("if"), comp)
            trig = k.get("trigger")
            for key in ("if", "state"):
                if isinstance(trig, dict):
                    keyword_params.check_reads(kid, params, trig.get(key), loc.at("trigger", key), comp)
            entry.update(keyword_params.compile_exprs(entry, keyword_params.defaults(params), comp))
        elif "trigger" in k:
            entry["trigger_c"] = comp.trigger(k["trigger"], loc.at("trigger"))
        if k.get("kind") == "condition" and not params:
            entry["if_c"] = comp.expr(k.get("if", True), loc.at("if"))
        if k.get("kind") == "zone_gate" and k.get("zone") not in known.zones:
            comp.error(loc.at("zone"), f"unknown zone '{k.get('zone')}'")
        if k.get("kind") == "active_zones":
            # An ability that plainly works from another zone than its card type's (e.g. a card's
            # ability that says it works from a pile of scored cards): its zones, groups expanded.
            zs: set[str] = set()
            for i, z in enumerate(k.get("zones", []) or []):
                if z in groups:
                    zs.update(groups[z])
                elif z in known.zones:
                    zs.add(z)
                else:
                    comp.error(loc.at("zones", i), f"unknown zone or group '{z}'")
            entry["zones_c"] = frozenset(zs)
        if k.get("kind") == "action" and k.get("template") not in known.templates:
            comp.error(loc.at("template"), f"unknown template '{k.get('template')}'")
        keywords[kid] = entry
    return keywords


def compile_actions(act_raw: Raw, comp: Compiler) -> dict[str, Action]:
    return {aid: Action(aid, tuple(a.get("rules", ())), a.get("kind", "play_card"),
                        comp.expr(a["candidates"], loc.at("candidates")) if "candidates" in a else None,
                        comp.expr(a["legal"], loc.at("legal")) if "legal" in a else None,
                        comp.steps(a.get("do", []), loc.at("do")))
            for aid, (a, loc) in act_raw.items()}


# -- rule processing --------------------------------------------------------------------------------
def compile_rule_processing(m: Merged, ids: Ids, bodies: dict[str, RulebookFunction],
                            comp: Compiler) -> tuple[list[RuleProcess], dict[str, Any] | None]:
    """The processes, with what each reads (so unchanged ones are not checked again), and the
    redirect of cards a rule process moves."""
    rp = m.data.get("rule_processing", {}) or {}

    def at(*path: Any) -> Loc:  # only asked when the section is there
        return m.loc("rule_processing").at(*path)

    processes: list[RuleProcess] = []
    seen: set[str] = set()
    for i, p in enumerate(rp.get("processes", []) or []):
        loc = at("processes", i)
        if p.get("id") in seen:
            comp.error(loc.at("id"), f"duplicate rule process id '{p.get('id')}'")
        seen.add(p.get("id"))
        processes.append(RuleProcess(
            p["id"], tuple(p.get("rules", ())), p.get("when", "check_timing"),
            comp.expr(p["for_each_player"], loc.at("for_each_player")) if "for_each_player" in p else None,
            comp.expr(p["for_each_zone"], loc.at("for_each_zone")) if "for_each_zone" in p else None,
            comp.expr(p.get("if", True), loc.at("if")), comp.steps(p.get("do", []), loc.at("do")),
            p.get("stage")))
    _set_watches(processes, ids.groups, {f: rf.body.ast for f, rf in bodies.items() if hasattr(rf.body, "ast")},
                 ids.known.roles, {f: (rf.body.ast, set(rf.params)) for f, rf in bodies.items()
                                   if hasattr(rf.body, "ast")},
                 {f: rf.params for f, rf in bodies.items()})
    redirect = None
    if "redirect" in rp:
        r = rp["redirect"]
        redirect = {"if": comp.expr(r.get("if", True), at("redirect", "if")), "from": r.get("from"),
                    "to": r.get("to"), "rules": tuple(r.get("rules", ()))}
        for key in ("from", "to"):
            if r.get(key) not in ids.known.zones:
                comp.error(at("redirect", key), f"unknown zone '{r.get(key)}'")
    return processes, redirect


def _set_watches(processes: list[RuleProcess], groups: dict[str, list[str]], bodies: dict[str, Any],
                 roles: set[str], functions: dict[str, tuple[Any, set[str]]],
                 params: dict[str, list[str]]) -> None:
    """Record what each rule process reads, so unchanged ones are not re-evaluated."""
    from interpreter.table.reads import fields_read, role_only, zone_keys_read, zone_only

    for proc in processes:
        cond_ast = getattr(proc.cond, "ast", None)
        if cond_ast is None:
            continue
        fields = fields_read(cond_ast, bodies)
        proc.reads_fields = frozenset(fields) if fields is not None else None
        proc.zone_only = zone_only(cond_ast, {"p", "z"}, functions)
        proc.static_bindings = all(role_only(fn.ast, roles) for fn in (proc.players, proc.zones)
                                   if fn is not None and hasattr(fn, "ast"))
        keys = zone_keys_read(cond_ast, groups, bodies, "z" if proc.zones is not None else None,
                              "p" if proc.players is not None else None, params=params)
        proc.watch_keys = tuple(sorted(keys, key=str)) if keys is not None else None


# -- deck construction, turn structure, timing, invariants ---------------------------------------
def compile_deck_rules(m: Merged, known: Known, comp: Compiler) -> list[DeckRule]:
    deck_rules: list[DeckRule] = []
    for i, dk in enumerate((m.data.get("deck_construction", {}) or {}).get("decks", []) or []):
        loc = m.loc("deck_construction").at("decks", i)
        if dk.get("zone") not in known.zones:
            comp.error(loc.at("zone"), f"unknown zone '{dk.get('zone')}'")
        counts = [(c["id"], tuple(c.get("rules", ())), comp.expr(c.get("where", True), loc.at("counts", j, "where")),
                   int(c.get("exactly", 0))) for j, c in enumerate(dk.get("counts", []) or [])
                  if "exactly" in c or ("at_least" not in c and "at_most" not in c)]
        bounds = [(c["id"], tuple(c.get("rules", ())), comp.expr(c.get("where", True), loc.at("counts", j, "where")),
                   c.get("at_least"), c.get("at_most")) for j, c in enumerate(dk.get("counts", []) or [])
                  if "exactly" not in c and ("at_least" in c or "at_most" in c)]
        mc = dk.get("max_copies")
        unlimited = comp.expr(mc["except"], loc.at("max_copies", "except")) if mc and "except" in mc else None
        deck_rules.append(DeckRule(dk["id"], tuple(dk.get("rules", ())), dk.get("zone"), counts,
                                   (mc["id"], tuple(mc.get("rules", ())), mc.get("by", "id"), int(mc["max"]),
                                    unlimited) if mc else None, bounds))
    return deck_rules


def compile_turn(m: Merged, ids: Ids, comp: Compiler, diags: Diagnostics, directory: Path) -> TurnGraph:
    """The turn structure; then every jump or skip target named by what was compiled before it,
    and reachability. From here on, effects compiled later (cards) check their targets at once."""
    d = m.data
    if "turn" not in d:
        diags.add(str(directory / "rulebook.yaml"), 1, 1, "the rulebook has no 'turn' structure")
        return TurnGraph()
    turn_loc = m.loc("turn")
    graph = build_graph(d["turn"], dict(ids.subgraphs), turn_loc, comp, ids.known.roles)
    jump_targets(graph, comp.node_refs, comp)
    ids.known.resolve_node = lambda name: graph.resolve(name, None)
    check_reachable(graph, comp, lambda nid: graph.locs.get(nid, turn_loc))
    return graph


def check_timing_sections(m: Merged, comp: Compiler, processes: list[RuleProcess]) -> dict[str, Any]:
    """The timing procedures' settings, as written (the procedures read them); the check timing's
    player order compiled and its stages checked against the rule processes' `stage` names."""
    d = m.data
    timing = {k: d.get(k) for k in TIMING_SECTIONS}
    ct = timing.get("check_timing") or {}
    order = []
    for i, o in enumerate(ct.get("order", []) or []):
        if "players" in o:
            order.append({**o, "compiled": comp.expr(o["players"], m.loc("check_timing").at("order", i, "players"))})
            continue
        if o.get("player") not in CHECK_TIMING_PLAYERS:
            comp.error(m.loc("check_timing").at("order", i, "player"),
                       "expected active_player, non_active_player, turn_player or non_turn_player")
        order.append(o)
    if ct:
        chosen_by: dict[str, Any] = {}
        if "order_chosen_by" in ct:  # who chooses whose pending abilities go next
            loc = m.loc("check_timing").at("order_chosen_by")
            chosen_by["compiled_chosen_by"] = comp.expr(ct["order_chosen_by"], loc)
        timing["check_timing"] = {**ct, "order": order, **chosen_by}
    _check_stages(m, comp, ct.get("stages"), processes)
    resp = timing.get("responses")
    if resp:
        loc = m.loc("responses")
        kinds = {str(k.get("id")): k for k in d.get("ability_kinds", []) or [] if isinstance(k, dict)}
        for i, k in enumerate(resp.get("after_cost_of", []) or []):
            if kinds and k not in kinds:
                comp.error(loc.at("after_cost_of", i), f"unknown ability kind '{k}' (expected one of: "
                                                        f"{', '.join(sorted(kinds))})")
        engine_kinds = [engine_kind(kinds.get(k) or {"id": k}) for k in resp.get("after_cost_of", []) or []]
        timing["responses"] = {**resp, "after_cost_of": engine_kinds,
                               "compiled_players": comp.expr(resp["players"], loc.at("players"))
                               if "players" in resp else None,
                               "compiled_may_answer": comp.expr(resp["may_answer"], loc.at("may_answer"))
                               if "may_answer" in resp else None}
    mci = timing.get("moved_card_information")
    if mci:
        loc = m.loc("moved_card_information")
        cases = tuple((c.get("id"), c.get("use"), comp.expr(c.get("if", True), loc.at("cases", i, "if")))
                      for i, c in enumerate(mci.get("cases", []) or []))
        timing["moved_card_information"] = {**mci, "compiled": (cases, mci.get("default", "before"))}
    return timing


def _check_stages(m: Merged, comp: Compiler, stages: list[dict[str, Any]] | None,
                  processes: list[RuleProcess]) -> None:
    """Every stage runs processes that exist, and every check-timing process has a stage to run it."""
    named = {st.get("processes") for st in stages or () if "processes" in st}
    used = {p.stage for p in processes if p.stage is not None}
    for i, st in enumerate(stages or ()):
        if "processes" in st and st["processes"] not in used:
            comp.error(m.loc("check_timing").at("stages", i, "processes"),
                       f"no rule process has stage '{st['processes']}'")
    rp = (m.data.get("rule_processing") or {}).get("processes", []) or []
    for i, p in enumerate(processes):
        if p.stage is not None and p.stage not in named:
            comp.error(m.loc("rule_processing").at("processes", i, "stage"),
                       f"unknown check-timing stage '{p.stage}' (expected one of the check_timing stages: "
                       f"{', '.join(sorted(n for n in named if n)) or 'none declared'})")
        elif stages and p.stage is None and p.when == "check_timing" and i < len(rp):
            comp.error(m.loc("rule_processing").at("processes", i),
                       "a rule process checked at check timing needs a `stage` when check_timing has stages")


def compile_invariants(m: Merged, comp: Compiler) -> list[dict[str, Any]]:
    return [{"id": inv.get("id"), "rules": tuple(inv.get("rules", ())),
             "check": comp.expr(inv.get("check", True), m.loc("invariants", i).at("check"))}
            for i, inv in enumerate(m.data.get("invariants", []))]


def report_cycles(calls: dict[str, set[str]], what: str, loc_of: Any, comp: Compiler, order: list[str]) -> None:
    """Report each call cycle once, at its member defined first (`order`), in a stable order: the
    calls are sets, so otherwise the report would change with PYTHONHASHSEED."""
    rank = {name: i for i, name in enumerate(order)}

    def key(name: str) -> tuple[int, str]:
        return rank.get(name, len(rank)), name

    g = nx.DiGraph()
    for a in sorted(calls, key=key):
        for b in sorted(calls[a], key=key):
            g.add_edge(a, b)
    cycles = []
    for cycle in nx.simple_cycles(g):
        start = cycle.index(min(cycle, key=key))
        cycles.append(cycle[start:] + cycle[:start])
    for cycle in sorted(cycles, key=lambda c: [key(n) for n in c]):
        comp.error(loc_of(cycle[0]), f"{what} '{cycle[0]}' calls itself without end: "
                                     f"{' -> '.join(cycle + [cycle[0]])}")


def compile_durations(dur_raw: Raw, comp: Compiler) -> dict[str, Duration]:
    """The durations, each with the player it belongs to (`owner`, an expression read where an effect is
    created: `you`, `opponent`...) if it belongs to one."""
    out: dict[str, Duration] = {}
    for did, (dur, loc) in dur_raw.items():
        owner = comp.expr(dur["owner"], loc.at("owner")) if dur.get("owner") is not None else None
        skip = bool(dur.get("skip_creation_turn", False))
        if skip and owner is None:
            comp.error(loc.at("skip_creation_turn"), f"duration '{did}': 'skip_creation_turn' is for a duration "
                                                     "that belongs to a player (give it an 'owner')", at_key=True)
        only_owner = bool(dur.get("only_in_owner_turn", False))
        if only_owner and owner is None:
            comp.error(loc.at("only_in_owner_turn"), f"duration '{did}': 'only_in_owner_turn' is for a duration "
                                                     "that belongs to a player (give it an 'owner')", at_key=True)
        out[did] = Duration(str(did), tuple(str(r) for r in dur.get("rules", ()) or ()), owner, skip, only_owner)
    return out


def compile_designations(m: Merged, comp: Compiler) -> dict[str, Designation]:
    """The `designations` section: names played effects designate as they resolve, by name."""
    out: dict[str, Designation] = {}
    for i, x in enumerate(m.data.get("designations", []) or []):
        loc = m.loc("designations", i)
        name = str(x["name"])
        if name in out:
            comp.error(loc.at("name"), f"the name '{name}' is designated twice (first by '{out[name].id}')")
            continue
        out[name] = Designation(str(x["id"]), name, tuple(x.get("rules", ()) or ()),
                                comp.expr(x.get("by", "you"), loc.at("by")), comp.expr(x["from"], loc.at("from")),
                                comp.expr(x.get("count", 1), loc.at("count")),
                                comp.expr(x["otherwise"], loc.at("otherwise")))
    return out
