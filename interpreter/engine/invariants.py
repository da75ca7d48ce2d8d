"""Invariants checked after every step of a game in tests and simulations.

Generic ones: every card is in exactly one zone and none appears or vanishes; the game ends with a
legal result; an agent's view never names a card its player may not see. Game-specific ones are
data: the rulebook's `invariants` list (expressions checked at play timing).
"""

from __future__ import annotations

from typing import Any

from interpreter.state.decisions import Decision
from interpreter.state.objects import GameObject
from interpreter.table.views import can_see


class InvariantError(AssertionError):
    """A game broke an invariant."""


def check_invariants(game: Any, decision: Decision | None, total: int | None) -> int:
    st = game.state
    objects = st.objects
    seen: set[int] = set()
    listed = 0
    for ids in st.zones.values():
        listed += len(ids)
        seen.update(ids)
    if listed != len(seen):
        raise InvariantError(f"card #{_listed_twice(st.zones)} is in two zones")
    for (zone, p), ids in st.zones.items():
        for i in ids:
            o = objects.get(i)
            if o is None or o.zone != zone or o.zone_player != p:
                raise InvariantError(f"card #{i} in {zone}@{p} does not know it is there")
    if len(seen) != len(st.objects):
        raise InvariantError(f"{len(st.objects) - len(seen)} card(s) are in no zone")
    for o in objects.values():
        # A held card whose holder is still in play is in the holder's zone (a stack moves, or is
        # made, as a whole); one whose holder has left may stay behind.
        h = objects.get(o.holder) if o.holder is not None else None
        if h is not None and (h is o or h.zone != o.zone or h.zone_player != o.zone_player):
            raise InvariantError(f"card #{o.oid} in {o.zone}@{o.zone_player} is held under #{h.oid} "
                                 f"in {h.zone}@{h.zone_player}")
    if total is not None and len(seen) + st.cards_gone != total:
        raise InvariantError(f"card count changed from {total} to {len(seen)}"
                             + (f" and {st.cards_gone} gone with players who left" if st.cards_gone else ""))
    if decision is None:
        r = st.result
        if r is None or r.get("outcome") not in ("win", "draw"):
            raise InvariantError(f"the game stopped without a legal result: {r}")
        winners = r.get("winners") or ([r["winner"]] if r.get("winner") is not None else [])
        if r["outcome"] == "win" and (not winners or any(w not in range(st.num_players) or w in st.left
                                                           for w in winners)):
            raise InvariantError(f"a win without a winner still in the game: {r}")
        return len(seen) + st.cards_gone
    for o in decision.options:
        v = o.value
        obj = v if isinstance(v, GameObject) else (v[1] if isinstance(v, tuple) and len(v) > 1 else None)
        if isinstance(obj, GameObject) and obj.oid in st.objects and not can_see(game, obj, decision.player):
            name = str(game.cards[obj.card_id].fields.get("name", obj.card_id))
            if name in o.label or obj.card_id in o.label:
                raise InvariantError(f"option {o.id} shows hidden card {obj.card_id} to P{decision.player + 1}")
    view = game.view(decision.player)
    for cards in view["zones"].values():
        for c in cards:
            if c["card"] is not None and not can_see(game, st.objects[c["oid"]], decision.player):
                raise InvariantError(f"the view of P{decision.player + 1} shows hidden card #{c['oid']}")
    if decision.kind == "play":
        for inv in game.rb.invariants:
            for p in range(st.num_players):
                from interpreter.table.context import Ctx

                ctx = Ctx(game, None, you=p, vars={"p": p})
                if not inv["check"](ctx):
                    raise InvariantError(f"invariant {inv['id']} ({', '.join(inv['rules'])}) fails for P{p + 1}")
    return len(seen) + st.cards_gone  # the total to compare the next step with


def _listed_twice(zones: dict[Any, list[int]]) -> int:
    """The first card found in two places (only looked for once a count says there is one)."""
    seen: set[int] = set()
    for ids in zones.values():
        for i in ids:
            if i in seen:
                return i
            seen.add(i)
    raise AssertionError("no card is listed twice")  # pragma: no cover - the counts said one is
