"""Playing abilities: validity, play limits, all-or-nothing costs, and resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from interpreter.model.rulebook import Ability, ability_label
from interpreter.state.decisions import Decision, Option
from interpreter.state.events import ABILITY_RESOLVED
from interpreter.state.objects import FACE, GameObject, Pending
from interpreter.table.context import Ctx
from interpreter.timing.payability import can_pay, choices_allow_play

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def base_key(game: Game) -> Any:
    """What the set of cards whose abilities work depends on: the cards (and their states) in the
    zones where abilities work, or the whole state while an effect negates abilities (its affected
    cards may depend on anything). Most moves (draws, cards revealed, paid costs) leave it as is."""
    st = game.state
    for e in st.effects:
        if e.kind == "continuous" and e.spec.get("negate"):
            return ("all", game.version)
    return game.ability_version


def ability_key(game: Game) -> Any:
    """What the working abilities depend on: the cards whose abilities work (`base_key`) and, in a
    game where effects grant abilities, which abilities are granted to which cards now."""
    key = base_key(game)
    if not game.grants_possible:
        return key
    return (key, game.continuous.grants_token())


def ability_objects(game: Game, player: int | None = None) -> list[GameObject]:
    """Objects whose abilities currently work (their card type's valid zones). The list is cached
    until a zone where abilities work changes, since triggers and continuous effects ask for it
    after every event."""
    cache = game.cache.get("ability_objects")
    key = base_key(game)
    if cache is None or cache[0] != key:
        st = game.state
        objects, cards, zones_of = st.objects, game.cards, game.rb.ability_zones
        anyway = game.grants_possible  # a card with no printed ability may be granted one
        objs = []
        for zkey, zone, top_only in game.ability_zone_plan:
            ids = st.zones[zkey]
            if not ids:
                continue
            if top_only:
                ids = ids[:1]  # a pile: only its top card is in play, the cards below are ignored
            for i in ids:
                o = objects[i]
                card = cards[o.card_id]
                if (anyway or card.abilities) and (zone in zones_of.get(card.type, ())
                                       or zone in game.acting_zone_cards.get(o.card_id, ())):
                    if (o.holder is None or held_works(game, o)) and o.states.get(FACE) != "down":
                        objs.append(o)
        negating = [e for e in st.effects if e.kind == "continuous" and e.spec.get("negate")
                    and not game.effect_dormant(e)]
        if negating and not game.cache.get("negating"):
            # Effects that negate abilities: their cards' abilities do not work. While their
            # affected cards are computed, ability_objects answers without negation (no recursion).
            game.cache["ability_objects"] = (key, objs)
            game.cache["negating"] = True
            try:
                negated: set[int] = set()
                for e in negating:
                    negated |= {o.oid for o in _affected(game, e)}
            finally:
                game.cache["negating"] = False
            objs = [o for o in objs if o.oid not in negated]
            if negated:
                # Continuous effects (and grants) read while negation was being worked out saw every ability.
                game.continuous.invalidate()
                game.continuous.forget_grants()
        cache = (key, objs)
        game.cache["ability_objects"] = cache
    if player is None:
        return cache[1]
    return [o for o in cache[1] if o.zone_player == player]


def held_works(game: Game, obj: GameObject) -> bool:
    """Whether a card held under another has working abilities: its type says held cards' do
    (`abilities_when_held`, an attached card) and its holder is in play in the same zone. Read for an
    object that has left too (its holder as things stand now)."""
    if obj.holder is None or game.cards[obj.card_id].type not in game.held_types:
        return False
    h = game.state.objects.get(obj.holder)
    return h is not None and h.zone == obj.zone and h.zone_player == obj.zone_player


def use_key(obj: GameObject, ab: Ability) -> str:
    return f"{obj.oid}:{ab.index}"


def _affected(game: Game, eff: Any) -> list[GameObject]:
    spec = eff.spec
    affects = spec.get("affects")
    if affects is None:
        return []
    objs = affects(game.effect_scope(eff))
    objs = [objs] if isinstance(objs, GameObject) else [o for o in (objs or []) if isinstance(o, GameObject)]
    if eff.locked is not None:
        objs = [o for o in objs if o.oid in eff.locked]
    return objs


def is_negated(game: Game, obj: GameObject) -> bool:
    """Whether an effect negates this object's abilities now."""
    for e in game.state.effects:
        if e.kind == "continuous" and e.spec.get("negate") and not game.effect_dormant(e) \
                and any(o.oid == obj.oid for o in _affected(game, e)):
            return True
    return False


def gate_ok(obj: GameObject, ab: Ability, game: Game | None = None) -> bool:
    """Whether the ability's zone gate and its conditions hold. Conditions come in groups: each
    group needs one of its conditions to hold (several area or timing icons are alternatives)."""
    if ab.gate_zone is not None and obj.zone != ab.gate_zone:
        return False
    if game is not None and game.active_zone_cards and obj.card_id in game.active_zone_cards \
            and not works_in(game, obj.card_id, ab, obj.zone):
        return False
    if ab.conditions and game is not None:
        return conditions_hold(game, obj, ab, ab.conditions)
    return True


def conditions_hold(game: Game, obj: GameObject, ab: Ability, conditions: tuple[tuple[str, Any], ...]) -> bool:
    """Whether every group of conditions has one that holds for the ability of this card."""
    ctx = Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules, ability=ab)
    groups: dict[str, bool] = {}
    for group, cond in conditions:
        groups[group] = groups.get(group, False) or bool(cond(ctx))
    return all(groups.values())


def keywords_in_force(game: Game, obj: GameObject, ab: Ability) -> bool:
    """Whether the keywords of this card's ability are there now: an ability's keywords follow its
    condition keywords ("(condition) keyword": the keyword only while the condition holds), every
    one of them, checked when resolving or not. An ability without any: always. A condition that
    asks, through has_keyword, about the very ability being asked about counts as not holding."""
    conditions = ab.conditions
    if ab.resolving_conditions:
        conditions = conditions + tuple(c for c in ab.resolving_conditions if c not in conditions)
    if not conditions:
        return True
    asking: set[tuple[int, int]] = game.cache.setdefault("keywords_asked", set())
    key = (obj.oid, ab.index)
    if key in asking:
        return False
    asking.add(key)
    try:
        return conditions_hold(game, obj, ab, conditions)
    finally:
        asking.discard(key)


def _unmet_when_resolving(game: Game, src: Any, ab: Ability) -> bool:
    """A condition keyword checked when resolving no longer holds: the ability does not resolve."""
    if not ab.resolving_conditions or not isinstance(src, GameObject):
        return False
    obj = game.state.objects.get(src.oid) or src  # a card that has left is read as it last was
    if conditions_hold(game, obj, ab, ab.resolving_conditions):
        return False
    game.log("resolve", f"{game.describe(src)}: {ability_label(ab)} does not resolve (its condition no longer holds)",
             ab.rules)
    return True


def works_in(game: Game, card_id: str, ab: Ability, zone: str) -> bool:
    """Whether an ability works in a zone: its own `active_zones` keyword's zones if it has one (an
    ability whose text plainly works elsewhere), else where its card type's abilities work. Card
    data, not an engine assumption about any kind of card."""
    zones = game.active_zones.get((card_id, ab.index))
    if zones is not None:
        return zone in zones
    return zone in game.rb.ability_zones.get(game.cards[card_id].type, ())


def limit_ok(game: Game, obj: GameObject, ab: Ability) -> bool:
    """Whether the ability is within its use limits (a `limit` keyword's uses a turn and a game)."""
    if ab.limit is not None and game.state.ability_uses.get(use_key(obj, ab), 0) >= ab.limit:
        return False
    return ab.game_limit is None or game.state.ability_uses_game.get(use_key(obj, ab), 0) < ab.game_limit


def count_use(game: Game, obj: GameObject, ab: Ability) -> None:
    """The ability was used once more (this turn, and this game when it has a limit a game)."""
    st = game.state
    key = use_key(obj, ab)
    st.ability_uses[key] = st.ability_uses.get(key, 0) + 1
    if ab.game_limit is not None:
        st.ability_uses_game[key] = st.ability_uses_game.get(key, 0) + 1


def playable(game: Game, ab: Ability, ctx: Ctx) -> bool:
    """Whether the ability can be played now: its whole cost can be paid, and its choices allow
    it by the rulebook's rule (interpreter/timing/payability.py)."""
    return can_pay(game, ab.cost, ctx) and choices_allow_play(game, ab.effect, ctx)


def pay_cost(game: Game, steps: tuple[Any, ...], ctx: Ctx) -> Any:
    """Pay a cost: its steps run with `ctx.paying` set, so that a replaceable event of it that can
    happen only through a replacement (the cost payable that way, interpreter/timing/payability.py)
    is replaced without asking: the player chose to pay, and that is the only way."""
    was = ctx.paying
    ctx.paying = True
    try:
        yield from game.run(steps, ctx)
    finally:
        ctx.paying = was


def resolve_pending(game: Game, pend: Pending, ctx: Ctx) -> Any:
    st = game.state
    st.pending.remove(pend)
    if pend.created is not None:
        spec = pend.created
        actx = Ctx(game, None, you=pend.master, this=st.objects.get(pend.source) or st.lki.get(pend.source),
                   event=pend.event, rules=spec.get("rules", ()), vars=dict(spec.get("_bindings", {})))
        game.log("resolve", "a delayed trigger resolves", actx.rules)
        yield from game.run(spec.get("do", ()), actx)
        return
    ab = game.ability_at(pend.card_id, pend.ability)
    src = st.objects.get(pend.source) or st.lki.get(pend.source)
    actx = Ctx(game, None, you=pend.master, this=src, event=pend.event, rules=ab.rules, ability=ab)
    name = game.describe(src) if src is not None else pend.card_id  # its last known information, kept while pending
    if not (yield from begin_resolving(game, src, ab, pend.master, actx, name)):
        return
    if game.responses_possible and (yield from _answered(game, src, ab, pend.master, actx)):
        return
    if _unmet_when_resolving(game, src, ab):
        return
    game.log("resolve", f"{name}: {ability_label(ab)} resolves", ab.rules)
    yield from run_effect(game, ab, actx)
    resolved(game, src, ab, pend.master, actx)


def begin_resolving(game: Game, src: Any, ab: Ability, master: int, actx: Ctx, name: str) -> Any:
    """What comes before a waiting ability's effect, wherever it waited (a pending ability, one a
    rule carries out on an event): it is skipped if its card is negated, its use limit is used up,
    its choices cannot be made or its cost cannot be paid; an optional one is asked (with a cost,
    declining is not paying it; without one, not playing it); then the cost is paid and a use counted.
    Returns whether the effect goes on."""
    st = game.state
    if isinstance(src, GameObject) and src.oid in st.objects and is_negated(game, src):
        game.log("resolve", f"{game.describe(src)}: {ability_label(ab)} is negated and does not resolve", ab.rules)
        return False
    if isinstance(src, GameObject) and not limit_ok(game, src, ab):
        game.log("resolve", f"{game.describe(src)}: {ability_label(ab)} already used up this turn", ab.rules)
        return False
    if not choices_allow_play(game, ab.effect, actx):
        game.log("resolve", f"{name}: {ability_label(ab)} cannot be played (too few to choose from)", ab.rules)
        return False
    if ab.cost and not can_pay(game, ab.cost, actx):
        game.log("resolve", f"{name}: the cost cannot be paid", ab.rules)
        return False
    if ab.optional:
        yes = yield from game.ask_yes_no(master, "pay_optional_cost" if ab.cost else "play_optional_ability", actx)
        if not yes:
            game.log("resolve", f"{name}: P{master + 1} declines {'the cost' if ab.cost else 'to play it'}", ab.rules)
            return False
    if ab.cost:
        yield from pay_cost(game, ab.cost, actx)
    if isinstance(src, GameObject):
        count_use(game, src, ab)
    return True


def activate(game: Game, obj: GameObject, ab: Ability, player: int, ctx: Ctx) -> Any:
    """Play an activated ability: pay its cost, then resolve it (it resolves even if its card left)."""
    actx = Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab)
    game.log("activate", f"P{player + 1} plays {ability_label(ab)} of {game.describe(obj)}", ab.rules)
    yield from pay_cost(game, ab.cost, actx)
    count_use(game, obj, ab)  # used even if then negated
    if game.responses_possible and (yield from _answered(game, obj, ab, player, actx)):
        return
    if _unmet_when_resolving(game, obj, ab):
        return
    yield from run_effect(game, ab, actx)
    resolved(game, game.state.objects.get(obj.oid) or obj, ab, player, actx)


def run_effect(game: Game, ab: Ability, actx: Ctx) -> Any:
    """Resolve a played ability's effect: first the designations it reads are made (the rulebook's
    `designations`: a choice of players, none when every candidate is taken), bound for the effect."""
    for d in ab.designates:
        by = d.by(actx)
        pool = [p for p in d.pool(actx) or [] if p is not None]
        n = max(0, min(len(pool), int(d.count(actx) or 0)))
        chosen = list(pool)
        if n < len(pool):
            options = [Option(f"p{p + 1}", f"P{p + 1}", p) for p in pool]
            chosen = list((yield from game.ask(Decision(by, "player", d.id, options, n, n, d.rules), actx)))
            game.log("choice", f"P{by + 1} designates " + ", ".join(f"P{p + 1}" for p in chosen), d.rules)
        actx.vars[d.name] = chosen
    yield from game.run(ab.effect, actx)


def _answered(game: Game, src: Any, ab: Ability, player: int, ctx: Ctx) -> Any:
    """The response window after an ability's cost, where the rulebook opens one; returns whether the
    ability was negated there (it then does not resolve)."""
    from interpreter.timing.responses import opens_after_cost, playing, window

    if not opens_after_cost(game, ab):
        return False
    negated = yield from window(game, playing("ability", src, player, ab), ctx)
    if negated:
        game.log("resolve", f"{ability_label(ab)} of {game.describe(src)} is negated and does not resolve", ab.rules)
    return negated


RESOLVED: Final = ABILITY_RESOLVED


def resolved(game: Game, src: Any, ab: Ability, master: int, ctx: Ctx) -> None:
    """An ability finished resolving: the event `ability_resolved` (card, kind, keywords, player), if
    the rulebook declares it, so an ability can trigger on another ability with some keyword having
    resolved. It is not logged: the resolution already is."""
    if RESOLVED not in game.rb.events or game.state.halted():
        return
    game.triggers.collect({"type": RESOLVED, "card": src, "kind": ab.kind, "keywords": list(ab.keywords),
                           "player": master})
