"""Verbs that create lasting effects: continuous effects, delayed triggers, replacements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.model.vocabulary import Gen
from interpreter.state.objects import as_objects
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.timing.effects import add_effect, drop_pending, end_durations
from interpreter.timing.runner import run
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play


@verb("continuous")
def v_continuous(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Create a continuous effect. With `lock` (the default), the cards it affects are fixed now,
    so cards that later leave or arrive are not affected. Whenever it applies, its expressions read
    what this step saw (`derive/effects.effect_scope`): its event, `this`, `you` and every variable in scope.

    Example:
        continuous:
          effect: {affects: "cards('field', you)", modify: {power: {add: 1}}}
          duration: round
    """
    spec = a["effect"]
    locked = None
    if a.get("lock", True) and "affects" in spec:
        locked = [o.oid for o in as_objects(spec["affects"](ctx))]
    add_effect(game, "continuous", spec, ctx, a.get("duration"), locked=locked)
    return
    yield


@verb("delayed_trigger")
def v_delayed_trigger(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Create an ability that triggers later; without a duration it triggers once. With `when_idle`
    in its description (and no trigger) it triggers at a check timing when nothing else remains: no
    rule process applies and no other ability is pending.

    Example:
        delayed_trigger:
          effect: {trigger: {event: ping}, do: [{counter: {target: this, name: charge, add: 1}}]}
    """
    add_effect(game, "delayed_trigger", a["effect"], ctx, a.get("duration"))
    return
    yield


@verb("replacement")
def v_replacement(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Create a replacement effect: when its event would happen, `instead` happens.

    Example:
        replacement:
          effect:
            event: moved
            if: "event.card == this and event.to == 'discard'"
            instead: [{move: {cards: this, to: hand}}]
            once: true
          duration: round
    """
    add_effect(game, "replacement", a["effect"], ctx, a.get("duration"))
    return
    yield


@verb("replaceable")
def v_replaceable(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """An event (a rulebook-declared event with these fields) about to happen, offered first to the
    replacement effects that apply to it (timing/replacement.py): each may replace it (`instead`),
    change its values (`change`) or add steps before or after it. Unless it was replaced, `as` names
    the event as it happens and `do` carries it out; then the replacements' `after` steps run. In a
    cost being paid, an event that cannot happen by itself is carried out by a replacement that can
    (the cost was payable only so).

    Example:
        replaceable: {event: swapped, fields: {outgoing: this}, do: [{move: {cards: this, to: discard}}]}
    """
    from interpreter.timing.payability import event_of
    from interpreter.timing.replacement import offer

    event = event_of(a, ctx)
    afters: list[Any] = []
    if game.state.effects or game.replacing_abilities:
        replaced, afters = yield from offer(game, event, ctx, a if ctx.paying else None)
        if replaced:
            return
        event.pop("_applied", None)
    if "as" in a:
        ctx.set(a["as"], event)
    yield from run(game, a.get("do", ()), ctx)
    for steps, ectx in afters:
        yield from run(game, steps, ectx)


@verb("end_durations")
def v_end_durations(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """End every effect that lasts for one of these durations; with `player`, only the effects whose
    duration belongs to that player (durations declared with an `owner`).

    Example:
        end_durations: {durations: [round]}
    """
    player = a["player"](ctx) if "player" in a else None
    if "player" in a and (not isinstance(player, int) or isinstance(player, bool)):
        return  # no such player (a role nobody holds): nobody's effects end
    end_durations(game, set(a["durations"]), ctx, player)
    return
    yield


@verb("cancel_pending")
def v_cancel_pending(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Pending triggered abilities vanish unresolved: all of them, or those `player` masters.

    Example:
        cancel_pending: {player: opponent}
    """
    st = game.state
    who = a["player"](ctx) if "player" in a else None
    drop_pending(game, [x for x in st.pending if who is None or x.master == who], ctx)
    return
    yield


@verb("end_effects")
def v_end_effects(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Continuous effects created for these cards stop applying to them (an effect left with no card
    ends).

    Example:
        end_effects: {cards: this}
    """
    ids = {o.oid for o in as_objects(a["cards"](ctx))}
    ended = 0
    for e in list(game.state.effects):
        if e.kind != "continuous" or e.locked is None or not ids & set(e.locked):
            continue
        e.locked = [i for i in e.locked if i not in ids]
        ended += 1
        if not e.locked:
            game.state.effects.remove(e)
    if ended:
        touched(game)
        log(game, "effect", f"{ended} effect(s) stop applying", ctx.rules)
    return
    yield
