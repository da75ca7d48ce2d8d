"""Load a rulebook directory: read every part safely, validate it, check references, compile it.

All problems of all files are collected and raised together as one LoadError, so a maintainer
sees every mistake in one run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

from interpreter.engine.context import GLOBAL_NAMES
from interpreter.engine.functions import GENERIC_FUNCTIONS
from interpreter.expr import FuncSpec
from interpreter.graph.build import TurnGraph, build_graph, check_reachable, jump_targets
from interpreter.loader.compile import Compiler, Known, Loc, const
from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.model import Action, DeckRule, Rulebook, RuleProcess, Template, ZoneDef
from interpreter.loader.overlay import Doc, read_docs
from interpreter.loader.schema import schema_names, validate
from interpreter.loader.yaml_safe import SourceMap, load_yaml

LIST_SECTIONS = {"invariants", "enums", "card_types", "common_fields", "placement_states", "zones", "templates",
                 "events",
                 "durations", "functions", "keywords", "decisions", "not_encoded", "actions", "roles",
                 "subgraphs", "ability_kinds"}
BINDING_KEYS = {"as"}

RULEBOOKS_ENV = "SOGO_RULEBOOKS"
PART_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.yaml$")
"""The pattern of `parts` entries in schemas/rulebook.schema.json: the schema reports a name that fails it."""


def rulebooks_dir() -> Path:
    env = os.environ.get(RULEBOOKS_ENV)
    return Path(env) if env else Path(__file__).resolve().parents[2] / "rulebooks"


def find_rulebook(name_or_path: str) -> Path:
    """A rulebook is named by its directory, or by a game id under rulebooks/ (`game@version`
    selects a versioned sibling directory `game@version`)."""
    p = Path(name_or_path)
    if (p / "rulebook.yaml").is_file():
        return p
    cand = rulebooks_dir() / name_or_path
    if (cand / "rulebook.yaml").is_file():
        return cand
    known = sorted(d.name for d in rulebooks_dir().iterdir() if (d / "rulebook.yaml").is_file()) \
        if rulebooks_dir().is_dir() else []
    raise LoadError.single(str(p), 1, 1, f"no rulebook '{name_or_path}' (known: {', '.join(known) or 'none'})")


def rulebook_versions(game_id: str) -> list[str]:
    """Names of the versioned rulebooks of a game under rulebooks/ (`game@1.02`, ...), oldest first."""
    root = rulebooks_dir()
    if not root.is_dir():
        return []
    found = [d.name for d in root.iterdir() if d.name.startswith(f"{game_id}@") and (d / "rulebook.yaml").is_file()]

    def key(name: str) -> tuple[tuple[int, str], ...]:
        return tuple((int(p), "") if p.isdigit() else (-1, p) for p in name.split("@", 1)[1].split("."))

    return sorted(found, key=key)


class _Merged:
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


def _read_plain(directory: Path, head: dict[str, Any], smap: SourceMap, diags: Diagnostics) -> list[Doc]:
    """rulebook.yaml and the parts it lists, each checked against its schema."""
    docs = [Doc("rulebook.yaml", directory / "rulebook.yaml", head, smap)]
    names = head.get("parts", []) or []
    for i, name in enumerate(names if isinstance(names, list) else []):  # not a list: the schema says so
        path = _part_path(directory, name, smap.get(("parts", i)), diags)
        if path is None:
            continue
        try:
            data, pmap = load_yaml(path)
        except LoadError as e:
            diags.extend(e.diagnostics)
            continue
        if not isinstance(data, dict):
            diags.add(str(path), 1, 1, "expected a mapping at the top of the file")
            continue
        docs.append(Doc(str(name), path, data, pmap))
    for doc in docs:
        schema = "rulebook" if doc is docs[0] else "rulebook-part"
        if schema in schema_names():
            diags.extend(validate(doc.data, schema, doc.smap, str(doc.path)))
    return docs


def _read_parts(directory: Path, diags: Diagnostics) -> tuple[_Merged, list[Path]]:
    """The rulebook's documents (a version overlay's edits applied) merged section by section."""
    merged = _Merged()
    files: list[Path] = []
    for doc in read_docs(directory, _read_plain, diags):
        if doc.path not in files:
            files.append(doc.path)
        path = str(doc.path)
        for key, value in doc.data.items():
            loc = Loc(path, doc.smap, (key,))
            if key in LIST_SECTIONS and isinstance(value, list):
                merged.data.setdefault(key, []).extend(value)
                merged.locs.setdefault(key, []).extend(loc.at(i) for i in range(len(value)))
            elif key in merged.data:
                line, col = doc.smap.key((key,))
                prev = merged.locs[key]
                diags.add(path, line, col, f"section '{key}' is defined twice (first in {prev})")
            else:
                merged.data[key] = value
                merged.locs[key] = loc
    return merged, files


def _part_path(directory: Path, name: Any, where: tuple[int, int], diags: Diagnostics) -> Path | None:
    """The file a `parts` entry names, or None if it must not be opened: a bad name, a file outside
    the rulebook folder (a symlink too), rulebook.yaml itself, or no regular file (a FIFO blocks)."""
    if not isinstance(name, str) or not PART_NAME.search(name):
        return None  # the schema reports it, at the name
    path = directory / name
    real: Path | None
    home: Path | None
    try:
        real, home = path.resolve(), directory.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        real = home = None
    if real is None or home is None:
        message = f"part '{name}' cannot be resolved (a symlink loop?)"
    elif home not in real.parents:
        message = f"part '{name}' is outside the rulebook folder"
    elif real == home / "rulebook.yaml":
        message = "rulebook.yaml cannot be one of its own parts"
    elif real.exists() and not real.is_file():
        message = f"part '{name}' is not a regular file"
    else:
        return path  # a missing file is reported by load_yaml, at the file
    diags.add(str(directory / "rulebook.yaml"), where[0], where[1], message)
    return None


def _collect_names(value: Any, out: set[str]) -> None:
    """Names the rulebook binds anywhere (`as:`, `let`, `set_var`, params), for expression checks."""
    out.update(name for name, _, _ in _bound_names(value, ()))


def _bound_names(value: Any, path: tuple[Any, ...]) -> Any:
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
            yield from _bound_names(v, here)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _bound_names(v, (*path, i))


def positional_bindings(value: Any, where: Callable[[tuple[Any, ...]], Loc], diags: Diagnostics) -> None:
    """Report every binding of a name the engine gives (`you`, `this`, `turn`...): expressions read
    those straight from the context, so a rulebook or card binding one would be silently ignored."""
    for name, path, at_key in _bound_names(value, ()):
        if name in GLOBAL_NAMES:
            loc = where(path)
            line, col = loc.key_pos() if at_key else loc.pos()
            diags.add(loc.file, line, col, f"'{name}' is a name the engine gives "
                      f"({', '.join(sorted(GLOBAL_NAMES))}); bind another name")


def load_rulebook(name_or_path: str | Path) -> Rulebook:
    """Load, validate and compile a rulebook; raises LoadError listing every problem."""
    directory = find_rulebook(str(name_or_path))
    diags = Diagnostics()
    m, files = _read_parts(directory, diags)
    diags.raise_if_any()
    d = m.data
    known = Known()

    # -- ids ---------------------------------------------------------------------------
    def unique(section: str) -> dict[str, tuple[dict[str, Any], Loc]]:
        out: dict[str, tuple[dict[str, Any], Loc]] = {}
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

    zones_raw = unique("zones")
    states_raw = unique("placement_states")
    enums_raw = unique("enums")
    types_raw = unique("card_types")
    tpl_raw = unique("templates")
    fn_raw = unique("functions")
    kw_raw = unique("keywords")
    ev_raw = unique("events")
    act_raw = unique("actions")
    roles_raw = unique("roles")
    dur_raw = unique("durations")
    sub_raw = unique("subgraphs")

    known.zones = set(zones_raw)
    groups: dict[str, list[str]] = {}
    for zid, (z, _) in zones_raw.items():
        for g in z.get("groups", []) or []:
            groups.setdefault(g, []).append(zid)
    known.groups = set(groups)
    known.states = {sid: set(s.get("values", [])) for sid, (s, _) in states_raw.items()}
    known.enums = {eid: set(e.get("values", [])) for eid, (e, _) in enums_raw.items()}
    known.events = set(ev_raw)
    known.templates = set(tpl_raw)
    known.roles = set(roles_raw)
    known.durations = set(dur_raw)
    known.actions = set(act_raw)
    known.keywords = set(kw_raw)
    field_types: dict[str, dict[str, Any]] = {}
    for _tid, (t, _) in types_raw.items():
        for f in t.get("fields", []) or []:
            field_types[f["id"]] = f
    for f in d.get("common_fields", []):
        field_types[f["id"]] = f
    known.fields = set(field_types)

    names: set[str] = set(GLOBAL_NAMES) | known.roles | {"it"}
    _collect_names(d, names)
    positional_bindings(d, m.loc_of, diags)
    for f, _ in fn_raw.values():
        names.update(f.get("params", []) or [])

    # -- functions: generic ones plus the rulebook's own, defined as expressions ------------
    functions: dict[str, FuncSpec] = dict(GENERIC_FUNCTIONS)
    bodies: dict[str, Any] = {}
    for fid, (f, loc) in fn_raw.items():
        if fid in GENERIC_FUNCTIONS:
            line, col = loc.at("id").pos()
            diags.add(loc.file, line, col, f"function '{fid}' is built in; choose another name")
            continue
        params = list(f.get("params", []) or [])
        holder: dict[str, Any] = {}
        bodies[fid] = holder

        def make(fid: str, params: list[str], holder: dict[str, Any]) -> Any:
            def fn(env: Any, *args: Any) -> Any:
                if holder.get("pure"):
                    # A function of its arguments and the game state only: memoise it until the
                    # state changes (play legality asks the same question for every card in hand).
                    game = env.game
                    memo = game.cache.get("functions")
                    if memo is None or memo[0] != game.version:
                        memo = (game.version, {})
                        game.cache["functions"] = memo
                    if len(args) == 1 and args[0].__class__ in _SCALARS:
                        key: Any = (fid, args[0])  # the usual call: a player
                    else:
                        key = (fid, *(("#", a.oid) if hasattr(a, "oid") else a for a in args))
                    try:
                        return memo[1][key]
                    except KeyError:
                        pass
                    except TypeError:  # an unhashable argument (a list): just compute
                        return holder["body"](env.child(vars=dict(zip(params, args, strict=False))))
                    value = memo[1][key] = holder["body"](env.child(vars=dict(zip(params, args, strict=False))))
                    return value
                return holder["body"](env.child(vars=dict(zip(params, args, strict=False))))
            return fn

        functions[fid] = FuncSpec(fid, make(fid, params, holder), len(params), len(params), pass_env=True)
    comp = Compiler(diags, known, names, functions)
    fn_calls: dict[str, set[str]] = {}
    for fid, (f, loc) in fn_raw.items():
        if fid in bodies:
            c = comp.compile_str(str(f.get("expr", "")), loc.at("expr"))
            bodies[fid]["body"] = c if c is not None else const(None)
            if c is not None:
                fn_calls[fid] = set(c.calls_used) & set(bodies)
                free = set(c.names_used) - set(f.get("params", []) or []) - {"it"}
                bodies[fid]["pure"] = free <= (known.roles | {"turn"})
    _report_cycles(fn_calls, "function", lambda f: fn_raw[f][1], comp, list(fn_raw))
    changed = True
    while changed:  # a function calling an impure function is impure too
        changed = False
        for fid, callees in fn_calls.items():
            if bodies[fid].get("pure") and not all(bodies[c].get("pure") for c in callees):
                bodies[fid]["pure"] = False
                changed = True

    # -- templates ---------------------------------------------------------------------
    templates: dict[str, Template] = {}
    for tid, (t, loc) in tpl_raw.items():
        comp._current_template = tid
        tparams = t.get("params", {}) or {}
        defaults = {str(n): comp.expr(v, loc.at("params", n)) for n, v in tparams.items()}
        can = comp.expr(t["can"], loc.at("can")) if "can" in t else None
        templates[tid] = Template(tid, tuple(t.get("rules", ())), defaults, comp.steps(t.get("do", []), loc.at("do")),
                                  can)
    comp._current_template = None
    _report_cycles(comp.template_calls, "template", lambda t: tpl_raw[t][1], comp, list(tpl_raw))

    # -- zones -------------------------------------------------------------------------
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
    zr = d.get("zone_rules", {}) or {}
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

    # -- card types ----------------------------------------------------------------------
    ability_zones: dict[str, frozenset[str]] = {}
    for tid, (t, loc) in types_raw.items():
        for i, kw in enumerate(t.get("default_keywords", []) or []):
            if kw not in kw_raw:  # a typo is not "the wrong kind of keyword"
                comp.error(loc.at("default_keywords", i),
                           f"unknown keyword '{kw}' (known: {', '.join(sorted(kw_raw))})")
            elif kw_raw[kw][0].get("kind") != "condition":
                comp.error(loc.at("default_keywords", i), f"default keyword '{kw}' is not a condition keyword")
        zs: set[str] = set()
        for i, z in enumerate(t.get("abilities_valid_in", []) or []):
            if z in groups:
                zs.update(groups[z])
            elif z in known.zones:
                zs.add(z)
            else:
                comp.error(loc.at("abilities_valid_in", i), f"unknown zone or group '{z}'")
        ability_zones[tid] = frozenset(zs)
        for i, f in enumerate(t.get("fields", []) or []):
            if f.get("type") == "multiset" and f.get("of") not in known.enums:
                comp.error(loc.at("fields", i, "of"), f"unknown enum '{f.get('of')}'")

    # -- events, keywords ------------------------------------------------------------------
    keywords: dict[str, dict[str, Any]] = {}
    for kid, (k, loc) in kw_raw.items():
        entry = dict(k)
        if "trigger" in k:
            entry["trigger_c"] = comp.trigger(k["trigger"], loc.at("trigger"))
        if k.get("kind") == "condition":
            entry["if_c"] = comp.expr(k.get("if", True), loc.at("if"))
        if k.get("kind") == "zone_gate" and k.get("zone") not in known.zones:
            comp.error(loc.at("zone"), f"unknown zone '{k.get('zone')}'")
        if k.get("kind") == "action" and k.get("template") not in known.templates:
            comp.error(loc.at("template"), f"unknown template '{k.get('template')}'")
        keywords[kid] = entry

    # -- actions -----------------------------------------------------------------------
    actions: dict[str, Action] = {}
    for aid, (a, loc) in act_raw.items():
        actions[aid] = Action(aid, tuple(a.get("rules", ())), a.get("kind", "play_card"),
                              comp.expr(a["candidates"], loc.at("candidates")) if "candidates" in a else None,
                              comp.expr(a["legal"], loc.at("legal")) if "legal" in a else None,
                              comp.steps(a.get("do", []), loc.at("do")))

    # -- rule processing -------------------------------------------------------------------
    rp = d.get("rule_processing", {}) or {}

    def rp_at(*path: Any) -> Loc:  # only asked when the section is there
        return m.loc("rule_processing").at(*path)

    processes: list[RuleProcess] = []
    seen_rp: set[str] = set()
    for i, p in enumerate(rp.get("processes", []) or []):
        loc = rp_at("processes", i)
        if p.get("id") in seen_rp:
            comp.error(loc.at("id"), f"duplicate rule process id '{p.get('id')}'")
        seen_rp.add(p.get("id"))
        processes.append(RuleProcess(
            p["id"], tuple(p.get("rules", ())), p.get("when", "check_timing"),
            comp.expr(p["for_each_player"], loc.at("for_each_player")) if "for_each_player" in p else None,
            comp.expr(p["for_each_zone"], loc.at("for_each_zone")) if "for_each_zone" in p else None,
            comp.expr(p.get("if", True), loc.at("if")), comp.steps(p.get("do", []), loc.at("do"))))
    _set_watches(processes, groups, {f: h["body"].ast for f, h in bodies.items() if hasattr(h.get("body"), "ast")},
                 known.roles)
    redirect = None
    if "redirect" in rp:
        r = rp["redirect"]
        redirect = {"if": comp.expr(r.get("if", True), rp_at("redirect", "if")), "from": r.get("from"),
                    "to": r.get("to"), "rules": tuple(r.get("rules", ()))}
        for key in ("from", "to"):
            if r.get(key) not in known.zones:
                comp.error(rp_at("redirect", key), f"unknown zone '{r.get(key)}'")

    # -- setup and deck construction ---------------------------------------------------------
    setup_raw = d.get("setup", {}) or {}
    setup = comp.steps(setup_raw.get("do", []), m.locs["setup"].at("do")) if "setup" in d else ()
    deck_rules: list[DeckRule] = []
    dc = d.get("deck_construction", {}) or {}
    for i, dk in enumerate(dc.get("decks", []) or []):
        loc = m.locs["deck_construction"].at("decks", i)
        if dk.get("zone") not in known.zones:
            comp.error(loc.at("zone"), f"unknown zone '{dk.get('zone')}'")
        counts = [(c["id"], tuple(c.get("rules", ())), comp.expr(c.get("where", True), loc.at("counts", j, "where")),
                   int(c.get("exactly", 0))) for j, c in enumerate(dk.get("counts", []) or [])
                  if "exactly" in c or ("at_least" not in c and "at_most" not in c)]
        bounds = [(c["id"], tuple(c.get("rules", ())), comp.expr(c.get("where", True), loc.at("counts", j, "where")),
                   c.get("at_least"), c.get("at_most")) for j, c in enumerate(dk.get("counts", []) or [])
                  if "exactly" not in c and ("at_least" in c or "at_most" in c)]
        mc = dk.get("max_copies")
        deck_rules.append(DeckRule(dk["id"], tuple(dk.get("rules", ())), dk.get("zone"), counts,
                                   (mc["id"], tuple(mc.get("rules", ())), mc.get("by", "id"), int(mc["max"]))
                                   if mc else None, bounds))

    # -- turn structure ------------------------------------------------------------------
    graph = TurnGraph()
    if "turn" in d:
        subgraphs = {sid: (s, loc) for sid, (s, loc) in sub_raw.items()}
        graph = build_graph(d["turn"], subgraphs, m.locs["turn"], comp, known.roles)
        # Every jump / skip target the rulebook's effects name, checked once against the built graph.
        jump_targets(graph, comp.node_refs, comp)
        known.resolve_node = lambda name: graph.resolve(name, None)

        def loc_of(nid: str) -> Loc:
            return graph.locs.get(nid, m.locs["turn"])

        check_reachable(graph, comp, loc_of)
    else:
        diags.add(str(directory / "rulebook.yaml"), 1, 1, "the rulebook has no 'turn' structure")

    timing = {k: d.get(k) for k in ("check_timing", "play_timing", "triggers", "continuous", "replacement",
                                     "costs", "last_known_information", "choosing")}
    for i, o in enumerate((timing.get("check_timing") or {}).get("order", []) or []):
        if o.get("player") not in ("active_player", "non_active_player", "turn_player", "non_turn_player"):
            comp.error(m.locs["check_timing"].at("order", i, "player"),
                       "expected active_player, non_active_player, turn_player or non_turn_player")

    invariants = []
    for i, inv in enumerate(d.get("invariants", [])):
        loc = m.loc("invariants", i)
        invariants.append({"id": inv.get("id"), "rules": tuple(inv.get("rules", ())),
                           "check": comp.expr(inv.get("check", True), loc.at("check"))})
    diags.raise_if_any()
    rb = Rulebook(
        id=str(d.get("id")), title=str(d.get("title", "")), rules_version=str(d.get("rules_version", "")),
        rules_date=str(d.get("rules_date", "")), directory=directory, raw=d, zones=zones, groups=groups,
        group_sets={g: frozenset(zs) for g, zs in groups.items()},
        states={sid: s for sid, (s, _) in states_raw.items()},
        enums={eid: list(e.get("values", [])) for eid, (e, _) in enums_raw.items()},
        card_types={tid: t for tid, (t, _) in types_raw.items()}, field_types=field_types,
        templates=templates, functions=functions, keywords=keywords,
        events={eid: e for eid, (e, _) in ev_raw.items()}, actions=actions, rule_processes=processes,
        redirect=redirect, setup=setup, deck_rules=deck_rules, roles=list(roles_raw), graph=graph,
        timing=timing, outcomes=d.get("outcomes", {}) or {}, names=names,
        identity_groups=tuple(zr.get("identity_kept_within", []) or ()),
        owner_except_groups=tuple(zr.get("to_owner_except", []) or ()), arrival_marks=arrival,
        ability_zones=ability_zones, files=files, compiler=comp, invariants=invariants,
    )
    rb.raw["infinite_loop"] = d.get("infinite_loop") or (d.get("outcomes", {}) or {}).get("infinite_loop")
    return rb


def _report_cycles(calls: dict[str, set[str]], what: str, loc_of: Any, comp: Compiler, order: list[str]) -> None:
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


def source_map_of(path: Path) -> SourceMap:
    return load_yaml(path)[1]


_SCALARS = frozenset({int, str, bool, type(None)})


def _set_watches(processes: list[RuleProcess], groups: dict[str, list[str]], bodies: dict[str, Any],
                 roles: set[str]) -> None:
    """Record what each rule process reads, so unchanged ones are not re-evaluated."""
    from interpreter.timing.watch import fields_read, role_only, zone_keys_read, zone_only

    for proc in processes:
        cond_ast = getattr(proc.cond, "ast", None)
        if cond_ast is None:
            continue
        fields = fields_read(cond_ast, bodies)
        proc.reads_fields = frozenset(fields) if fields is not None else None
        proc.zone_only = zone_only(cond_ast, {"p", "z"})
        proc.static_bindings = all(role_only(fn.ast, roles) for fn in (proc.players, proc.zones)
                                   if fn is not None and hasattr(fn, "ast"))
        keys = zone_keys_read(cond_ast, groups, bodies, "z" if proc.zones is not None else None,
                              "p" if proc.players is not None else None)
        proc.watch_keys = tuple(sorted(keys, key=str)) if keys is not None else None
