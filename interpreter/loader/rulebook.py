"""Load a rulebook directory: read every part safely, validate it, check references, compile it.

All problems of all files are collected and raised together as one LoadError, so a maintainer
sees every mistake in one run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from interpreter import locations
from interpreter.loader.cards import compile_grants
from interpreter.loader.choosing import CHOOSER, compile_unchoosable, unchoosable_entries
from interpreter.loader.compile import Compiler, Loc
from interpreter.loader.decks import compile_across, compile_set_relations
from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.events import check_events
from interpreter.loader.inferred import check_inferred
from interpreter.loader.layout import load_layout
from interpreter.loader.names import collect_names, positional_bindings
from interpreter.loader.overlay import EDITS, Doc, apply_edits, read_docs
from interpreter.loader.placement import compile_placement
from interpreter.loader.readings import check_readings
from interpreter.loader.schema import schema_names, validate
from interpreter.loader.sections import (
    LIST_SECTIONS,
    Merged,
    check_card_types,
    check_field_links,
    check_timing_sections,
    check_zone_rules,
    compile_actions,
    compile_deck_rules,
    compile_designations,
    compile_durations,
    compile_functions,
    compile_invariants,
    compile_keywords,
    compile_rule_processing,
    compile_templates,
    compile_turn,
    compile_zones,
    declare_functions,
    index_ids,
)
from interpreter.loader.yaml_safe import SourceMap, load_yaml
from interpreter.model.rulebook import Rulebook
from interpreter.table.context import GLOBAL_NAMES

PART_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.yaml$")
"""The pattern of `parts` entries in schemas/rulebook.schema.json: the schema reports a name that fails it."""


def known_rulebooks() -> list[str]:
    """The rulebook names found on the search path (interpreter/locations.py), sorted."""
    names: set[str] = set()
    for root in locations.search_path("rulebooks"):
        if root.is_dir():
            names.update(d.name for d in root.iterdir() if (d / "rulebook.yaml").is_file())
    return sorted(names)


def find_rulebook(name_or_path: str) -> Path:
    """A rulebook is named by its directory, or by a game id on the rulebook search path
    (`game@version` selects a versioned sibling directory `game@version`)."""
    p = Path(name_or_path)
    if (p / "rulebook.yaml").is_file():
        return p
    found = locations.find("rulebooks", name_or_path, "rulebook.yaml")
    if found is not None and (found / "rulebook.yaml").is_file():
        return found
    known = ", ".join(known_rulebooks()) or "none"
    raise LoadError.single(str(p), 1, 1, f"no rulebook '{name_or_path}' (known: {known}; looked in: "
                                         f"{locations.describe_search('rulebooks')})")


def rulebook_versions(game_id: str) -> list[str]:
    """Names of the versioned rulebooks of a game on the search path (`game@1.02`, ...), oldest first."""
    found = [n for n in known_rulebooks() if n.startswith(f"{game_id}@")]

    def key(name: str) -> tuple[tuple[int, str], ...]:
        return tuple((int(p), "") if p.isdigit() else (-1, p) for p in name.split("@", 1)[1].split("."))

    return sorted(found, key=key)


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


def _read_parts(directory: Path, diags: Diagnostics, fmt: str | None = None) -> tuple[Merged, list[Path]]:
    """The rulebook's documents (a version overlay's edits applied, then a format's) merged section
    by section."""
    merged = Merged()
    files: list[Path] = []
    docs = read_docs(directory, _read_plain, diags)
    if fmt is not None and docs:
        docs = apply_format(directory, docs, fmt, diags)
    for doc in docs:
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


FORMAT_HEAD = ("id", "title", "rules", "teams", "after_leaving", "extends")
"""What of a format file the loaded rulebook keeps as its `format` value."""


def apply_format(directory: Path, docs: list[Doc], fmt: str, diags: Diagnostics,
                 seen: tuple[str, ...] = ()) -> list[Doc]:
    """The documents with format `fmt` applied: its file formats/FMT.yaml (beside the rulebook.yaml
    that lists it in `formats`) gives the players, the teams and edits in the language of rules
    versions; the format's id, title, rules and teams become the `format` head value."""
    head = next((d for d in docs if isinstance(d.data.get("formats"), list)), None)
    listed = [str(x) for x in head.data["formats"]] if head is not None else []
    if fmt not in listed:
        where = head or docs[0]
        line, col = where.smap.get(("formats",)) if head is not None else (1, 1)
        diags.add(str(where.path), line, col, f"no format '{fmt}' (this rulebook has: {', '.join(listed) or 'none'})")
        return docs
    assert head is not None
    path = head.path.parent / "formats" / f"{fmt}.yaml"
    try:
        data, smap = load_yaml(path)
    except LoadError as e:
        diags.extend(e.diagnostics)
        return docs
    if not isinstance(data, dict):
        diags.add(str(path), 1, 1, "expected a mapping at the top of the format file")
        return docs
    if "rulebook-format" in schema_names():
        problems = validate(data, "rulebook-format", smap, str(path))
        if problems:
            diags.extend(problems)
            return docs
    base = data.get("extends")
    if base is not None:
        # A variant of another format (an optional rule): that format is applied first, then this
        # one's edits; players, teams and after_leaving not given here are that format's.
        if base == fmt or base in seen:
            line, col = smap.get(("extends",))
            diags.add(str(path), line, col, f"format '{fmt}' extends itself (through '{base}')")
            return docs
        known_problems = len(diags)
        docs = apply_format(directory, docs, base, diags, seen + (fmt,))
        if len(diags) > known_problems:
            return docs
        inherited = next((d.data for d in docs if isinstance(d.data.get("format"), dict)), {})
        data = {**{k: inherited["format"][k] for k in ("teams", "after_leaving") if k in inherited["format"]},
                "players": inherited.get("players"), **data}
    if not data.get("players"):
        diags.add(str(path), 1, 1, "a format gives its players (count, counts), or extends a format that does")
        return docs
    pseudo: dict[str, Any] = {"players": data["players"],
                              "format": {k: data[k] for k in FORMAT_HEAD if k in data},
                              EDITS: data.get("edits") or []}
    return apply_edits(docs, pseudo, smap, path, diags)


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


def load_rulebook(name_or_path: str | Path, fmt: str | None = None) -> Rulebook:
    """Load, validate and compile a rulebook, in one of its formats if `fmt` names one; raises
    LoadError listing every problem."""
    directory = find_rulebook(str(name_or_path))
    diags = Diagnostics()
    m, files = _read_parts(directory, diags, fmt)
    diags.raise_if_any()
    d = m.data
    ids = index_ids(m, diags)
    check_inferred(m, diags)
    check_events(m, ids, diags)
    known = ids.known

    names: set[str] = set(GLOBAL_NAMES) | known.roles | {"it"}
    if d.get("responses"):
        names.add("target")  # what a response ability answers (interpreter/timing/responses.py)
    if unchoosable_entries(d):
        names.add(CHOOSER)  # who makes a choice, for `choosing.unchoosable` (interpreter/timing/choosable.py)
    for x in d.get("designations", []) or []:
        if isinstance(x, dict) and isinstance(x.get("name"), str):
            names.add(x["name"])  # a designated name is read like a variable (Table.builtin_name)
    fmt_head: dict[str, Any] = d["format"] if isinstance(d.get("format"), dict) else {}
    if fmt_head.get("after_leaving"):
        names.add("leavers")  # the players who just left (timing/outcomes.apply_after_leaving)
    collect_names(d, names)
    positional_bindings(d, m.loc_of, diags)
    for f, _ in ids.functions.values():
        names.update(f.get("params", []) or [])
    functions, bodies = declare_functions(ids.functions, diags)
    comp = Compiler(diags, known, names, functions)
    compile_functions(ids.functions, bodies, comp, known.roles, ids.groups, ids.states)

    templates = compile_templates(ids.templates, comp)
    kinds = [(k, m.loc("ability_kinds", i)) for i, k in enumerate(d.get("ability_kinds", []) or [])
             if isinstance(k, dict)]
    check_readings({"templates": list(ids.templates.values()), "keywords": list(ids.keywords.values()),
                    "functions": list(ids.functions.values()), "events": list(ids.events.values()),
                    "ability_kinds": kinds}, comp)
    zones = compile_zones(ids.zones, known, comp)
    arrival = check_zone_rules(m, known, comp)
    ability_zones = check_card_types(ids, comp)
    check_field_links(m, ids, comp)
    keywords = compile_keywords(ids.keywords, known, comp, ids.groups)
    actions = compile_actions(ids.actions, comp)
    processes, redirect = compile_rule_processing(m, ids, bodies, comp)
    setup = comp.steps((d.get("setup", {}) or {}).get("do", []), m.loc("setup").at("do")) if "setup" in d else ()
    deck_rules = compile_deck_rules(m, known, comp)
    same_card, same_value = compile_across(m, comp)
    set_relations = compile_set_relations(m, comp)
    graph = compile_turn(m, ids, comp, diags, directory)
    timing = check_timing_sections(m, comp, processes)
    invariants = compile_invariants(m, comp)
    card_text = _card_text(m, diags)
    designations = compile_designations(m, comp)
    durations = compile_durations(ids.durations, comp)
    unchoosable = compile_unchoosable(m, comp)
    placement = compile_placement(m, ids, comp)
    leaving = fmt_head.get("after_leaving")
    after_leaving = (leaving, comp.expr(leaving["winners"], m.loc("format").at("after_leaving", "winners"))) \
        if leaving else None
    diags.raise_if_any()

    zr = d.get("zone_rules", {}) or {}
    groups = ids.groups
    rb = Rulebook(
        id=str(d.get("id")), title=str(d.get("title", "")), rules_version=str(d.get("rules_version", "")),
        rules_date=str(d.get("rules_date", "")), directory=directory, raw=d, zones=zones, groups=groups,
        group_sets={g: frozenset(zs) for g, zs in groups.items()},
        states={sid: s for sid, (s, _) in ids.states.items()},
        enums={eid: list(e.get("values", [])) for eid, (e, _) in ids.enums.items()},
        card_types={tid: t for tid, (t, _) in ids.types.items()}, field_types=ids.field_types,
        templates=templates, functions=functions, keywords=keywords,
        events={eid: e for eid, (e, _) in ids.events.items()}, actions=actions, rule_processes=processes,
        redirect=redirect, setup=setup, deck_rules=deck_rules, roles=list(ids.roles), graph=graph,
        timing=timing, outcomes=d.get("outcomes", {}) or {}, names=names,
        identity_groups=tuple(zr.get("identity_kept_within", []) or ()),
        owner_except_groups=tuple(zr.get("to_owner_except", []) or ()), arrival_marks=arrival,
        ability_zones=ability_zones, files=files, compiler=comp, invariants=invariants, card_text=card_text,
    )
    rb.raw["infinite_loop"] = d.get("infinite_loop") or (d.get("outcomes", {}) or {}).get("infinite_loop")
    rb.format = d.get("format") if isinstance(d.get("format"), dict) else None
    rb.after_leaving = after_leaving
    rb.designations = designations
    rb.unchoosable = unchoosable
    rb.placement = placement
    rb.same_card, rb.same_value = same_card, same_value
    rb.durations = durations
    rb.set_relations = set_relations
    compile_grants(rb, comp)  # abilities the rulebook's own effects grant: compiled as a card's are
    rb.layout = load_layout(rb, comp, diags)  # the play mat, for viewers
    diags.raise_if_any()
    return rb


def _card_text(m: Merged, diags: Diagnostics) -> Any:
    """The card-text phrases (interpreter/cardtext), checked now so `sogo validate` reports their
    problems where they are written; None when the rulebook declares no phrases."""
    section = m.data.get("card_text")
    if not isinstance(section, dict) or not section.get("phrases"):
        return None
    from interpreter.cardtext.grammar import Grammar

    def where(path: tuple[Any, ...]) -> tuple[str, int, int]:
        loc = m.loc("card_text").at(*path)
        return (loc.file, *loc.pos())

    # The ability kinds that take an effect description: played never, or named `continuous` (the
    # engine's own kind) with no `played` (loader/cards.py compile_ability reads kinds alike).
    kinds = [k for k in m.data.get("ability_kinds", []) or [] if isinstance(k, dict)]
    continuous = frozenset(str(k.get("id")) for k in kinds
                           if k.get("played", "never" if k.get("id") == "continuous" else "") == "never")
    grammar = Grammar(section, where, continuous if kinds else frozenset({"continuous"}))
    for path, line, col, message in grammar.problems:
        diags.add(path, line, col, message)
    return grammar
