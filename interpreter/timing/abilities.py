"""Playing abilities: validity, play limits, all-or-nothing costs, and resolution."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.engine.context import Ctx
from interpreter.loader.model import Ability
from interpreter.state.objects import GameObject, Pending


def ability_objects(game: Any, player: int | None = None) -> Iterator[GameObject]:
    """Objects whose abilities currently work (their card type's valid zones). The list is cached
    until the state changes, since triggers and continuous effects ask for it after every event."""
    cache = game.cache.get("ability_objects")
    if cache is None or cache[0] != game.version:
        st = game.state
        objs = []
        for key in game.ability_zone_keys:
            for i in st.zones[key]:
                o = st.objects[i]
                card = game.cards[o.card_id]
                if card.abilities and key[0] in game.rb.ability_zones.get(card.type, ()):
                    if o.holder is None and o.states.get("face") != "down":
                        objs.append(o)
        cache = (game.version, objs)
        game.cache["ability_objects"] = cache
    if player is None:
        return iter(cache[1])
    return (o for o in cache[1] if o.zone_player == player)


def use_key(obj: GameObject, ab: Ability) -> str:
    return f"{obj.oid}:{ab.index}"


def gate_ok(obj: GameObject, ab: Ability) -> bool:
    return ab.gate_zone is None or obj.zone == ab.gate_zone


def limit_ok(game: Any, obj: GameObject, ab: Ability) -> bool:
    return ab.limit is None or game.state.ability_uses.get(use_key(obj, ab), 0) < ab.limit


def can_pay(game: Any, ab: Ability, ctx: Ctx) -> bool:
    """All-or-nothing costs: every part must be payable before any is paid."""
    return all(f(ctx) for f in ab.cost_can)


def resolve_pending(game: Any, pend: Pending, ctx: Ctx) -> Any:
    st = game.state
    st.pending.remove(pend)
    if pend.created is not None:
        spec = pend.created
        actx = Ctx(game, None, you=pend.master, this=st.objects.get(pend.source) or st.lki.get(pend.source),
                   event=pend.event, rules=spec.get("rules", ()), vars=dict(spec.get("_bindings", {})))
        game.log("resolve", "a delayed trigger resolves", actx.rules)
        yield from game.run(spec.get("do", ()), actx)
        return
    card = game.cards[pend.card_id]
    ab = card.abilities[pend.ability]
    src = st.objects.get(pend.source) or st.lki.get(pend.source)
    actx = Ctx(game, None, you=pend.master, this=src, event=pend.event, rules=ab.rules, ability=ab)
    if isinstance(src, GameObject) and not limit_ok(game, src, ab):
        game.log("resolve", f"{game.describe(src)}: ability {ab.index + 1} already used up this turn", ab.rules)
        return
    if ab.cost:
        if not can_pay(game, ab, actx):
            game.log("resolve", f"{game.describe(src)}: the cost cannot be paid", ab.rules)
            return
        if ab.optional:
            yes = yield from game.ask_yes_no(pend.master, "pay_optional_cost", actx)
            if not yes:
                game.log("resolve", f"{game.describe(src)}: P{pend.master + 1} declines the cost", ab.rules)
                return
        yield from game.run(ab.cost, actx)
    if isinstance(src, GameObject):
        key = use_key(src, ab)
        st.ability_uses[key] = st.ability_uses.get(key, 0) + 1
    game.log("resolve", f"{game.describe(src)}: ability {ab.index + 1} resolves", ab.rules)
    yield from game.run(ab.effect, actx)


def activate(game: Any, obj: GameObject, ab: Ability, player: int, ctx: Ctx) -> Any:
    """Play an activated ability: pay its cost, then resolve it (it resolves even if its card left)."""
    actx = Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab)
    game.log("activate", f"P{player + 1} plays ability {ab.index + 1} of {game.describe(obj)}", ab.rules)
    yield from game.run(ab.cost, actx)
    key = use_key(obj, ab)
    game.state.ability_uses[key] = game.state.ability_uses.get(key, 0) + 1
    yield from game.run(ab.effect, actx)
