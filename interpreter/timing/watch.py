"""Which zones a condition reads, found statically, so unchanged conditions need no re-check.

Rule processes are checked at every check timing and (for interrupts) after every action; most
of the time none of the zones they read has changed since they last found nothing to do. A
condition that reads a zone we cannot name statically is treated as reading every zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.expr import walk
from interpreter.expr.nodes import Call, Literal, Name

ZONE_FUNCS = {"cards": 0, "cards_in": 0, "top": 0, "bottom": 0}
ALL = None


def zones_read(ast: Any, groups: Mapping[str, list[str]], bodies: Mapping[str, Any],
               bound: Mapping[str, set[str]], seen: frozenset[str] = frozenset()) -> set[str] | None:
    out: set[str] = set()
    for node in walk(ast):
        if not isinstance(node, Call):
            continue
        if node.name in ZONE_FUNCS:
            arg = node.args[ZONE_FUNCS[node.name]] if node.args else None
            if isinstance(arg, Literal) and isinstance(arg.value, str):
                out.update(groups.get(arg.value, [arg.value]) if arg.value in groups else [arg.value])
            elif isinstance(arg, Name) and arg.name in bound:
                out.update(bound[arg.name])
            else:
                return ALL
        elif node.name in bodies:
            if node.name in seen:
                return ALL
            inner = zones_read(bodies[node.name], groups, bodies, {}, seen | {node.name})
            if inner is None:
                return ALL
            out |= inner
    return out


def literal_zones(ast: Any, groups: Mapping[str, list[str]]) -> set[str] | None:
    """Zones named by a zone-list expression such as zones_in('member_area')."""
    out: set[str] = set()
    for node in walk(ast):
        if isinstance(node, Call) and node.name == "zones_in":
            arg = node.args[0] if node.args else None
            if isinstance(arg, Literal) and isinstance(arg.value, str):
                out.update(groups.get(arg.value, []))
            else:
                return ALL
    return out or ALL
