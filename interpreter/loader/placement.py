"""`zone_rules.placement_restrictions`, compiled once: moves into zones that do not happen.

A restriction guards zones (or zone groups) and, with `kinds`, only moves of those kinds (a `move`
or `swap` step's `kind`, one of `zone_rules.move_kinds`). Its condition sees names of its own
beside `it` and `you` (interpreter/timing/moves.py, placement_refusal), so it is compiled with
them here instead of adding them to every expression's names.
"""

from __future__ import annotations

from typing import Final

from interpreter.loader.compile import Compiler
from interpreter.loader.sections import Ids, Merged
from interpreter.model.rulebook import PlacementRestriction

PLACEMENT_NAMES: Final = frozenset({"arriving", "dest", "dest_player", "leaving", "arriving_with", "mover",
                                    "by_ability"})
"""What a restriction's condition reads besides `it` and `you`: the card again (for filters whose
own `it` hides it), the zone it would enter, that zone's player, the cards leaving at the same
time (the other card of a swap), those chosen to arrive with it (`arriving_with`, given to
`can_move_to` by a choice of several cards to appear together), the player making the move
(`mover`: in a rulebook's restriction also `you`; in one an effect adds, `you` is the effect's
master) and whether an ability makes it (`by_ability`: its cost or effect, not a step of the rules)."""


def compile_placement(m: Merged, ids: Ids, comp: Compiler) -> dict[str, tuple[PlacementRestriction, ...]]:
    """The restrictions by the zone they guard (a group stands for each of its zones), in the order
    written; an unknown zone, group or move kind is reported where it is written."""
    zr = m.data.get("zone_rules")
    entries = zr.get("placement_restrictions") if isinstance(zr, dict) else None
    if not isinstance(entries, list) or not entries:
        return {}
    known = ids.known
    by_zone: dict[str, list[PlacementRestriction]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "if" not in entry:
            continue  # the schema reports it
        loc = m.loc("zone_rules").at("placement_restrictions", i)
        zones: list[str] = []
        for j, z in enumerate(entry.get("zones") or []):
            if z in known.zones:
                zones.append(z)
            elif z in known.groups:
                zones.extend(ids.groups[z])
            else:
                comp.error(loc.at("zones", j), f"unknown zone or zone group '{z}'")
        kinds = entry.get("kinds")
        for j, k in enumerate(kinds or []):
            if k not in known.move_kinds:
                known_kinds = ", ".join(sorted(known.move_kinds))
                comp.error(loc.at("kinds", j), f"unknown move kind '{k}' (known: {known_kinds})")
        cond = comp.expr(entry["if"], loc.at("if"), extra_names=set(PLACEMENT_NAMES))
        r = PlacementRestriction(str(entry.get("id")), tuple(str(x) for x in entry.get("rules", ()) or ()),
                                 frozenset(str(k) for k in kinds) if kinds else None, cond)
        for z in dict.fromkeys(zones):
            by_zone.setdefault(z, []).append(r)
    return {z: tuple(rs) for z, rs in by_zone.items()}


__all__ = ["PLACEMENT_NAMES", "compile_placement"]
