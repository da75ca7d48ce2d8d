"""What conditions read, found statically, so that conditions nothing has changed for need no re-check.

Rule processes are checked at every check timing and (for interrupts) after every action; most
of the time none of the places they read has changed since they last found nothing to do. Each
analysis answers conservatively: a zone, field or name it cannot pin down counts as "anything".
Triggers use one more: the event key a condition requires to be its own card.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from interpreter.expr import walk
from interpreter.expr.nodes import Attr, Binary, Call, Compare, Literal, Name

ZONE_FUNCS = {"cards", "cards_in", "cards_of", "top", "bottom"}  # read a zone: (zone, player(s), ...)
FIELD_FUNCS = {"field", "printed", "covers"}  # read a field named by an argument
# Read what the rulebook's placement restrictions read, or what a text may read: any zone, field or
# variable.
OPAQUE_FUNCS = {"can_move_to", "could_change"}
# Functions of their arguments only (and of which players are still in the game: a player leaving
# clears what was kept).
VALUE_FUNCS = {"other", "players", "opponents", "teammates", "players_from", "players_left", "zones_in", "min", "max",
               "abs", "len", "count", "sum", "keys"}
ALL = None


ZONE_VAR = "$z"  # the zone a rule process is bound to (for_each_zone)
PLAYER_VAR = "$p"  # the player a rule process is bound to (for_each_player)
ANY_PLAYER = "*"


def zone_keys_read(ast: Any, groups: Mapping[str, list[str]], bodies: Mapping[str, Any],
                   zone_var: str | None = None, player_var: str | None = None,
                   seen: frozenset[str] = frozenset(),
                   params: Mapping[str, Sequence[str]] | None = None) -> set[tuple[str, str | None]] | None:
    """The (zone, player) places a condition reads: the zone is a name or ZONE_VAR, the player is
    PLAYER_VAR (the bound player), None (a shared zone) or ANY_PLAYER. None: cannot tell (a zone
    given by an expression, a recursive function). With the rulebook functions' `params`, a
    function given the bound player or zone reads that parameter as such (`members_of(p)` reads
    the stage of `p` alone, not every player's)."""
    out: set[tuple[str, str | None]] = set()
    for node in walk(ast):
        if not isinstance(node, Call):
            continue
        if node.name in OPAQUE_FUNCS:
            return ALL
        if node.name in ZONE_FUNCS:
            if len(node.args) < 2:
                return ALL
            zarg, parg = node.args[0], node.args[1]
            if isinstance(zarg, Literal) and isinstance(zarg.value, str):
                zones = groups.get(zarg.value, [zarg.value]) if zarg.value in groups else [zarg.value]
            elif isinstance(zarg, Name) and zone_var is not None and zarg.name == zone_var:
                zones = [ZONE_VAR]
            else:
                return ALL
            if isinstance(parg, Name) and player_var is not None and parg.name == player_var:
                who: str | None = PLAYER_VAR
            elif isinstance(parg, Literal) and parg.value is None:
                who = None
            else:
                who = ANY_PLAYER
            out.update((z, who) for z in zones)
        elif node.name in bodies:
            if node.name in seen:
                return ALL
            names = params.get(node.name, ()) if params is not None else ()
            inner = zone_keys_read(bodies[node.name], groups, bodies, _param_for(node, names, zone_var),
                                   _param_for(node, names, player_var), seen | {node.name}, params)
            if inner is None:
                return ALL
            out |= inner
    return out


def _param_for(call: Call, names: Sequence[str], var: str | None) -> str | None:
    """The parameter of a called function that receives the bound name `var` as it stands."""
    if var is None:
        return None
    for name, arg in zip(names, call.args, strict=False):
        if isinstance(arg, Name) and arg.name == var:
            return name
    return None


def fields_read(ast: Any, bodies: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> set[str] | None:
    """Attribute names an expression reads (with the rulebook functions it calls); None when it
    reads fields by a computed name."""
    out: set[str] = set()
    for node in walk(ast):
        if isinstance(node, Attr):
            out.add(node.name)
        elif isinstance(node, Call):
            if node.name in FIELD_FUNCS or node.name in OPAQUE_FUNCS:
                return ALL
            if node.name in bodies and node.name not in seen:
                inner = fields_read(bodies[node.name], bodies, seen | {node.name})
                if inner is None:
                    return ALL
                out |= inner
    return out


ZONE_PURE_FUNCS = VALUE_FUNCS | ZONE_FUNCS | {
    "in_group", "zone_visibility", "any", "all", "merge", "newest", "holder_present", "holder_of", "under", "str",
    "names", "has_name", "printed", "field", "origin", "as_list", "distinct_count", "covers",
    # A card's counter changes its card's place; a player's counter change clears every idle binding
    # (the counter verb), so counters read like cards.
    "counter"}  # read only their arguments, cards and zones


def zone_only(ast: Any, bound: Collection[str],
              functions: Mapping[str, tuple[Any, Collection[str]]] | None = None,
              seen: frozenset[str] = frozenset()) -> bool:
    """Whether an expression reads nothing but the bound names, cards and zones (no game
    variable, status, role, turn or pending ability), so only a change to a zone can change it.
    A call of a rulebook function (`functions`: name -> (body, parameters)) counts when its body
    does, with its parameters bound."""
    for node in walk(ast):
        if isinstance(node, Name) and node.name not in bound and node.name != "it":
            return False
        if isinstance(node, Call) and node.name not in ZONE_PURE_FUNCS:
            fn = functions.get(node.name) if functions else None
            if fn is None or node.name in seen or not zone_only(fn[0], fn[1], functions, seen | {node.name}):
                return False
    return True


def role_only(ast: Any, roles: Collection[str]) -> bool:
    """Whether an expression depends on the players' roles alone (e.g. `[first, other(first)]`, or
    `[first] + (players() where it != first)`): no zone, no card, no positional name but the `it`
    of a filter over such values, no rulebook function."""
    for node in walk(ast):
        if isinstance(node, Name) and node.name not in roles and node.name != "it":
            return False
        if isinstance(node, Attr) or (isinstance(node, Call) and node.name not in VALUE_FUNCS):
            return False
    return True


def _conjuncts(ast: Any) -> list[Any]:
    if isinstance(ast, Binary) and ast.op == "and":
        return _conjuncts(ast.left) + _conjuncts(ast.right)
    return [ast]


def _subject_key(side: Any, other: Any) -> str | None:
    """`event.K == this` or `event.K.oid == this.oid`: the event key K, else None."""
    if isinstance(side, Attr) and isinstance(side.obj, Name) and side.obj.name == "event" \
            and isinstance(other, Name) and other.name == "this":
        return side.name
    if isinstance(side, Attr) and side.name == "oid" and isinstance(other, Attr) and other.name == "oid" \
            and isinstance(other.obj, Name) and other.obj.name == "this":
        return _subject_key(side.obj, other.obj)
    return None


def event_subject(ast: Any) -> str | None:
    """The event key a trigger condition requires to be its own card (`event.card == this and ...`).

    Most auto abilities watch an event about their own card; knowing that statically lets the
    trigger check skip every other card's ability without evaluating its condition."""
    for c in _conjuncts(ast):
        if isinstance(c, Compare) and c.op == "==":
            key = _subject_key(c.left, c.right) or _subject_key(c.right, c.left)
            if key is not None:
                return key
    return None
