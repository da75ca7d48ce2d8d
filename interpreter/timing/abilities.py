"""Playing abilities: validity, play limits, all-or-nothing costs, and resolution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from interpreter.derive.abilities import ability_objects, conditions_hold, gate_ok, is_negated, limit_ok, use_key
from interpreter.model.rulebook import Ability, ability_label
from interpreter.state.decisions import Decision, Option
from interpreter.state.events import ABILITY_RESOLVED
from interpreter.state.objects import GameObject, Pending
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe
from interpreter.timing.payability import can_pay, choices_allow_play
from interpreter.timing.runner import ask, ask_yes_no, run

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def _unmet_when_resolving(game: Play, src: Any, ab: Ability) -> bool:
    """A condition keyword checked when resolving no longer holds: the ability does not resolve."""
    if not ab.resolving_conditions or not isinstance(src, GameObject):
        return False
    obj = game.state.objects.get(src.oid) or src  # a card that has left is read as it last was
    if conditions_hold(game, obj, ab, ab.resolving_conditions):
        return False
    log(game, "resolve", f"{describe(game, src)}: {ability_label(ab)} does not resolve (its condition no longer holds)",
        ab.rules)
    return True


def count_use(game: Play, obj: GameObject, ab: Ability) -> None:
    """The ability was used once more (this turn, and this game when it has a limit a game)."""
    st = game.state
    key = use_key(obj, ab)
    st.ability_uses[key] = st.ability_uses.get(key, 0) + 1
    if ab.game_limit is not None:
        st.ability_uses_game[key] = st.ability_uses_game.get(key, 0) + 1


def playable(game: Play, ab: Ability, ctx: Ctx) -> bool:
    """Whether the ability can be played now: its whole cost can be paid, and its choices allow
    it by the rulebook's rule (interpreter/timing/payability.py)."""
    return can_pay(game, ab.cost, ctx) and choices_allow_play(game, ab.effect, ctx)


def pay_cost(game: Play, steps: tuple[Any, ...], ctx: Ctx) -> Any:
    """Pay a cost: its steps run with `ctx.paying` set, so that a replaceable event of it that can
    happen only through a replacement (the cost payable that way, interpreter/timing/payability.py)
    is replaced without asking: the player chose to pay, and that is the only way."""
    was = ctx.paying
    ctx.paying = True
    try:
        yield from run(game, steps, ctx)
    finally:
        ctx.paying = was


def resolve_pending(game: Play, pend: Pending, ctx: Ctx) -> Any:
    st = game.state
    st.pending.remove(pend)
    if pend.created is not None:
        spec = pend.created
        actx = Ctx(game, None, you=pend.master, this=st.objects.get(pend.source) or st.lki.get(pend.source),
                   event=pend.event, rules=spec.get("rules", ()), vars=dict(spec.get("_bindings", {})))
        log(game, "resolve", "a delayed trigger resolves", actx.rules)
        yield from run(game, spec.get("do", ()), actx)
        return
    ab = game.ability_at(pend.card_id, pend.ability)
    src = st.objects.get(pend.source) or st.lki.get(pend.source)
    actx = Ctx(game, None, you=pend.master, this=src, event=pend.event, rules=ab.rules, ability=ab)
    name = describe(game, src) if src is not None else pend.card_id  # its last known information, kept while pending
    if not (yield from begin_resolving(game, src, ab, pend.master, actx, name)):
        return
    if game.responses_possible and (yield from _answered(game, src, ab, pend.master, actx)):
        return
    if _unmet_when_resolving(game, src, ab):
        return
    log(game, "resolve", f"{name}: {ability_label(ab)} resolves", ab.rules)
    yield from run_effect(game, ab, actx)
    resolved(game, src, ab, pend.master, actx)


def begin_resolving(game: Play, src: Any, ab: Ability, master: int, actx: Ctx, name: str) -> Any:
    """What comes before a waiting ability's effect, wherever it waited (a pending ability, one a
    rule carries out on an event): it is skipped if its card is negated, its use limit is used up,
    its choices cannot be made or its cost cannot be paid; an optional one is asked (with a cost,
    declining is not paying it; without one, not playing it); then the cost is paid and a use counted.
    Returns whether the effect goes on."""
    st = game.state
    if isinstance(src, GameObject) and src.oid in st.objects and is_negated(game, src):
        log(game, "resolve", f"{describe(game, src)}: {ability_label(ab)} is negated and does not resolve", ab.rules)
        return False
    if isinstance(src, GameObject) and not limit_ok(game, src, ab):
        log(game, "resolve", f"{describe(game, src)}: {ability_label(ab)} already used up this turn", ab.rules)
        return False
    if not choices_allow_play(game, ab.effect, actx):
        log(game, "resolve", f"{name}: {ability_label(ab)} cannot be played (too few to choose from)", ab.rules)
        return False
    if ab.cost and not can_pay(game, ab.cost, actx):
        log(game, "resolve", f"{name}: the cost cannot be paid", ab.rules)
        return False
    if ab.optional:
        yes = yield from ask_yes_no(game, master, "pay_optional_cost" if ab.cost else "play_optional_ability", actx)
        if not yes:
            log(game, "resolve", f"{name}: P{master + 1} declines {'the cost' if ab.cost else 'to play it'}", ab.rules)
            return False
    if ab.cost:
        yield from pay_cost(game, ab.cost, actx)
    if isinstance(src, GameObject):
        count_use(game, src, ab)
    return True


def activate(game: Play, obj: GameObject, ab: Ability, player: int, ctx: Ctx) -> Any:
    """Play an activated ability: pay its cost, then resolve it (it resolves even if its card left)."""
    actx = Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab)
    log(game, "activate", f"P{player + 1} plays {ability_label(ab)} of {describe(game, obj)}", ab.rules)
    yield from pay_cost(game, ab.cost, actx)
    count_use(game, obj, ab)  # used even if then negated
    if game.responses_possible and (yield from _answered(game, obj, ab, player, actx)):
        return
    if _unmet_when_resolving(game, obj, ab):
        return
    yield from run_effect(game, ab, actx)
    resolved(game, game.state.objects.get(obj.oid) or obj, ab, player, actx)


def run_effect(game: Play, ab: Ability, actx: Ctx) -> Any:
    """Resolve a played ability's effect: first the designations it reads are made (the rulebook's
    `designations`: a choice of players, none when every candidate is taken), bound for the effect."""
    for d in ab.designates:
        by = d.by(actx)
        pool = [p for p in d.pool(actx) or [] if p is not None]
        n = max(0, min(len(pool), int(d.count(actx) or 0)))
        chosen = list(pool)
        if n < len(pool):
            options = [Option(f"p{p + 1}", f"P{p + 1}", p) for p in pool]
            chosen = list((yield from ask(game, Decision(by, "player", d.id, options, n, n, d.rules), actx)))
            log(game, "choice", f"P{by + 1} designates " + ", ".join(f"P{p + 1}" for p in chosen), d.rules)
        actx.vars[d.name] = chosen
    yield from run(game, ab.effect, actx)


def _answered(game: Play, src: Any, ab: Ability, player: int, ctx: Ctx) -> Any:
    """The response window after an ability's cost, where the rulebook opens one; returns whether the
    ability was negated there (it then does not resolve)."""
    from interpreter.timing.responses import opens_after_cost, playing, window

    if not opens_after_cost(game, ab):
        return False
    negated = yield from window(game, playing("ability", src, player, ab), ctx)
    if negated:
        log(game, "resolve", f"{ability_label(ab)} of {describe(game, src)} is negated and does not resolve", ab.rules)
    return negated


RESOLVED: Final = ABILITY_RESOLVED


def resolved(game: Play, src: Any, ab: Ability, master: int, ctx: Ctx) -> None:
    """An ability finished resolving: the event `ability_resolved` (card, kind, keywords, player), if
    the rulebook declares it, so an ability can trigger on another ability with some keyword having
    resolved. It is not logged: the resolution already is."""
    if RESOLVED not in game.rb.events or game.state.halted():
        return
    game.triggers.collect({"type": RESOLVED, "card": src, "kind": ab.kind, "keywords": list(ab.keywords),
                           "player": master})


def usable(game: Play, card: GameObject, kind: str) -> bool:
    """Whether the card has an ability of this kind its controller could play now, as play timing
    would offer it (the function `usable`)."""
    if card.oid not in game.state.objects or all(o.oid != card.oid for o in ability_objects(game, None)):
        return False
    engine_kind = game.kind_of.get(kind, kind)
    return any(playable(game, ab, Ctx(game, None, you=card.controller, this=card, rules=ab.rules, ability=ab))
               for ab in game.abilities_of(card)
               if ab.kind == engine_kind and gate_ok(card, ab, game) and limit_ok(game, card, ab))
