"""Deck rules over several decks counted together: at most N of "the same card", one shared value, and
sets compared with a designated card's (each card's colours among the leader's).

Some games count copies across decks (a leader card and a deck together) and call two cards the same when
either of two printed keys matches (the card number without its variant letter, or the code), which
makes sameness an equivalence only once carried through: a card sharing its number with one card and
its code with another joins all three. Groups are found with a union-find over the cards of the decks
named, so the limit means what a player counting "copies" means.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from networkx.utils import UnionFind

from interpreter.model.rulebook import CardDef, Rulebook, SameCardLimit, SameValueRule, SetRelation

if TYPE_CHECKING:
    from interpreter.loader.compile import Compiler
    from interpreter.loader.sections import Merged

Problem = tuple[str, str | None, str]
"""A deck problem: the zone, the card it is best shown at (None: the zone) and the message."""


def _zones(section: dict[str, Any], rule: dict[str, Any], at: Any, comp: Compiler,
           key: str = "decks") -> tuple[str, ...]:
    """The zones of the decks a rule names under `key` (a list of deck ids, or one id; every deck when it
    names none); an unknown id is an error where it is written."""
    decks = {d["id"]: d.get("zone") for d in section.get("decks", []) or [] if isinstance(d, dict) and "id" in d}
    named = rule.get(key)
    if named is None:
        return tuple(str(z) for z in decks.values())
    where = [(named, at.at(key))] if isinstance(named, str) else [(n, at.at(key, i)) for i, n in enumerate(named)]
    out: list[str] = []
    for name, loc in where:
        if name not in decks:
            comp.error(loc, f"unknown deck '{name}' (decks: {', '.join(decks) or 'none'})")
        else:
            out.append(str(decks[name]))
    return tuple(out)


def compile_across(m: Merged, comp: Compiler) -> tuple[SameCardLimit | None, SameValueRule | None]:
    """`deck_construction.max_copies` and `same_value`, their expressions compiled once."""
    section = m.data.get("deck_construction")
    if not isinstance(section, dict):
        return None, None
    loc = m.loc("deck_construction")
    limit = value = None
    mc = section.get("max_copies")
    if isinstance(mc, dict):
        at = loc.at("max_copies")
        keys = tuple(comp.expr(src, at.at("same", i)) for i, src in enumerate(mc.get("same", []) or []))
        unlimited = comp.expr(mc["except"], at.at("except")) if "except" in mc else None
        limit = SameCardLimit(str(mc.get("id")), tuple(str(r) for r in mc.get("rules", ()) or ()),
                              _zones(section, mc, at, comp), keys, int(mc.get("max", 1)), unlimited)
    sv = section.get("same_value")
    if isinstance(sv, dict):
        at = loc.at("same_value")
        value = SameValueRule(str(sv.get("id")), tuple(str(r) for r in sv.get("rules", ()) or ()),
                              _zones(section, sv, at, comp), comp.expr(sv.get("value"), at.at("value")),
                              str(sv.get("value")))
    return limit, value


RELATIONS = ("subset_of", "intersects", "disjoint_from")
"""How a card's set stands to the designated cards' (`set_relations[].relation`)."""


def compile_set_relations(m: Merged, comp: Compiler) -> tuple[SetRelation, ...]:
    """`deck_construction.set_relations`, their expressions compiled once; an unknown deck or relation is
    a located error."""
    section = m.data.get("deck_construction")
    if not isinstance(section, dict):
        return ()
    loc = m.loc("deck_construction")
    out: list[SetRelation] = []
    for i, rel in enumerate(section.get("set_relations", []) or []):
        at = loc.at("set_relations", i)
        if not isinstance(rel, dict):
            continue  # the schema reports it
        relation = str(rel.get("relation"))
        if relation not in RELATIONS:
            comp.error(at.at("relation"), f"unknown relation {rel.get('relation')!r} "
                                          f"(relations: {', '.join(RELATIONS)})")
        if rel.get("of") is None:
            comp.error(at, f"set relation {rel.get('id')}: 'of' names the deck(s) whose cards' set it compares with")
        of_zones = _zones(section, rel, at, comp, "of") if rel.get("of") is not None else ()
        value = comp.expr(rel.get("value"), at.at("value"))
        of_value = comp.expr(rel["of_value"], at.at("of_value")) if "of_value" in rel else value
        out.append(SetRelation(str(rel.get("id")), tuple(str(r) for r in rel.get("rules", ()) or ()),
                               _zones(section, rel, at, comp), value, relation, of_zones, of_value,
                               str(rel.get("value"))))
    return tuple(out)


def as_set(value: Any) -> list[Any]:
    """A card's value as a set, in order: a list's distinct items, one value alone, nothing for null."""
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    return list(dict.fromkeys(_hashable(v) for v in items if v is not None))


def holds(relation: str, mine: list[Any], theirs: set[Any]) -> bool:
    """Whether a card's set stands in `relation` to the designated cards' set."""
    if relation == "subset_of":
        return all(v in theirs for v in mine)
    if relation == "intersects":
        return any(v in theirs for v in mine)
    return not any(v in theirs for v in mine)


def reference_set(rel: SetRelation, cards: dict[str, CardDef], deck: dict[str, list[str]],
                  env: Callable[[CardDef], Any]) -> list[Any] | None:
    """The designated cards' values together, in order (None when those decks hold no card: their
    own counts say what is missing)."""
    ids = [c for z in rel.of for c in deck.get(z, [])]
    if not ids:
        return None
    return list(dict.fromkeys(v for c in ids for v in as_set(rel.of_value(env(cards[c])))))


def _set_problems(rb: Rulebook, cards: dict[str, CardDef], deck: dict[str, list[str]],
                  env: Callable[[CardDef], Any]) -> list[Problem]:
    problems: list[Problem] = []
    for rel in rb.set_relations:
        theirs = reference_set(rel, cards, deck, env)
        if theirs is None:
            continue
        shown = ", ".join(map(str, theirs)) or "none"
        wanted = {"subset_of": f"its {rel.source} among those of {', '.join(rel.of)} ({shown})",
                  "intersects": f"a {rel.source} of {', '.join(rel.of)} ({shown})",
                  "disjoint_from": f"no {rel.source} of {', '.join(rel.of)} ({shown})"}[rel.relation]
        seen: set[str] = set()
        for z in rel.zones:
            for c in deck.get(z, []):
                if c in seen:
                    continue
                seen.add(c)
                mine = as_set(rel.value(env(cards[c])))
                if not holds(rel.relation, mine, set(theirs)):
                    problems.append((z, c, f"deck construction {rel.id} ({', '.join(rel.rules)}): every card of "
                                           f"{', '.join(rel.zones)} must have {wanted}; {c} has "
                                           f"{', '.join(map(str, mine)) or 'none'}"))
    return problems


def _hashable(value: Any) -> Any:
    return value if isinstance(value, str | int | bool) else repr(value)


def same_card_groups(card_ids: Iterable[str], keys: tuple[Callable[[Any], Any], ...],
                     env: Callable[[str], Any]) -> dict[str, str]:
    """Each card id -> the first card id of its group: cards are joined when one of `keys` gives both
    the same (non-null, non-empty) value, and joins carry through (networkx's union-find)."""
    ids = list(dict.fromkeys(card_ids))
    joined = UnionFind(ids)
    for key in keys:
        first: dict[Any, str] = {}
        for c in ids:
            value = key(env(c))
            if value is not None and value != "":
                joined.union(first.setdefault(_hashable(value), c), c)
    order = {c: i for i, c in enumerate(ids)}
    out: dict[str, str] = {}
    for group in joined.to_sets():
        name = min(group, key=order.__getitem__)  # a group is named by its first card in deck order
        out.update((c, name) for c in group)
    return {c: out[c] for c in ids}


def _card_list(copies: list[tuple[str, str]]) -> str:
    """`A x2 (lead_zone, deck), B (deck)`: each card with its copies and the zones they are in."""
    counts: Counter[str] = Counter(c for c, _ in copies)
    zones: dict[str, list[str]] = defaultdict(list)
    for c, z in copies:
        if z not in zones[c]:
            zones[c].append(z)
    return ", ".join(f"{c}{f' x{n}' if n > 1 else ''} ({', '.join(zones[c])})" for c, n in counts.items())


def across_problems(rb: Rulebook, cards: dict[str, CardDef], deck: dict[str, list[str]],
                    env: Callable[[CardDef], Any]) -> list[Problem]:
    """The problems of the rules over several decks (`env` makes a card's expression scope)."""
    problems: list[Problem] = []
    limit, same = rb.same_card, rb.same_value
    if limit is not None:
        copies = [(c, z) for z in limit.zones for c in deck.get(z, [])
                  if limit.unlimited is None or not limit.unlimited(env(cards[c]))]
        group = same_card_groups((c for c, _ in copies), limit.keys, lambda c: env(cards[c]))
        members: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for c, z in copies:
            members[group[c]].append((c, z))
        for found in members.values():
            if len(found) > limit.most:
                problems.append((found[-1][1], found[-1][0],  # at the copy too many
                                 f"deck construction {limit.id} ({', '.join(limit.rules)}): at most {limit.most} "
                                 f"copies of the same card in {', '.join(limit.zones)}, found {len(found)}: "
                                 f"{_card_list(found)}"))
    if same is not None:
        by_value: dict[Any, list[tuple[str, str]]] = defaultdict(list)
        for z in same.zones:
            for c in deck.get(z, []):
                by_value[_hashable(same.value(env(cards[c])))].append((c, z))
        if len(by_value) > 1:
            ranked = sorted(by_value.items(), key=lambda kv: -len(kv[1]))  # stable: the first most common
            odd = ranked[1][1][0]
            listed = "; ".join(f"{value!r}: {_card_list(found)}" for value, found in ranked)
            problems.append((odd[1], odd[0], f"deck construction {same.id} ({', '.join(same.rules)}): every card "
                                             f"of {', '.join(same.zones)} must have the same {same.source}; "
                                             f"found {listed}"))
    problems.extend(_set_problems(rb, cards, deck, env))
    return problems


__all__ = ["RELATIONS", "Problem", "across_problems", "as_set", "compile_across", "compile_set_relations", "holds",
           "reference_set", "same_card_groups"]
