"""Lasting effects begin and end (by their durations, in a fixed order), and pending abilities vanish."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.state.errors import GameError
from interpreter.state.objects import Effect, GameObject
from interpreter.table.context import Ctx
from interpreter.table.derived import PLAYER_COUNTERS
from interpreter.table.log import log

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def drop_pending(game: Play, gone: list[Any], ctx: Ctx, of: str = "") -> None:
    """Pending abilities that vanish unresolved (a cancelling effect or zone)."""
    if not gone:
        return
    game.state.pending = [x for x in game.state.pending if x not in gone]
    touched(game)
    one = len(gone) == 1
    log(game, "cancel", f"{len(gone)} pending abilit{'y' if one else 'ies'}{of} {'vanishes' if one else 'vanish'}",
        ctx.rules)


def add_effect(game: Play, kind: str, spec: dict[str, Any], ctx: Ctx, duration: Any,
               locked: list[int] | None = None) -> Effect:
    """A lasting effect begins. `duration` is a duration id, or (id, owner expression) when the step
    names the player the duration belongs to; a duration declared with an `owner` belongs to the
    player its expression gives here (the effect's `owner`: `end_durations` with `player` ends it
    only at that player's step)."""
    src = ctx.this
    owner: int | None = None
    if isinstance(duration, tuple):
        duration, owner_of = duration
        owner = _duration_owner(duration, owner_of(ctx))
    elif duration is not None:
        dur = game.rb.durations.get(duration)
        if dur is not None and dur.owner is not None:
            owner = _duration_owner(duration, dur.owner(ctx))
    eff = Effect(game.state.new_id(), kind, spec, ctx.you if ctx.you is not None else 0,
                 src.oid if isinstance(src, GameObject) else -1,
                 src.card_id if isinstance(src, GameObject) else "", game.state.tick(), duration,
                 game.state.turn, locked, bindings=ctx.all_vars(), event=ctx.event, owner=owner)
    game.state.effects.append(eff)
    game.version += 1
    if game.logging:
        log(game, "effect", f"a {kind.replace('_', ' ')} effect begins"
            + (f" until {duration}" if duration else "")
            + (f" (P{owner + 1}'s)" if owner is not None else ""), ctx.rules, effect=kind, duration=duration,
            owner=owner)
    return eff


def _duration_owner(duration: str, who: Any) -> int:
    if not isinstance(who, int) or isinstance(who, bool):
        raise GameError(f"the player duration '{duration}' belongs to is not a player: {who!r}")
    return who


def end_durations(game: Play, durations: set[str], ctx: Ctx, player: int | None = None) -> None:
    """End the effects lasting for one of these durations: with `player`, only those whose duration
    belongs to that player (`owner`). An effect of a duration with `skip_creation_turn` outlives the
    turn it was created in. The effects that end together end in a fixed order: those belonging to
    no player first, then each player's, from the turn player on in turn order (`players_from`),
    each in the order they began; status effects are lifted and the log written in that order."""
    st = game.state
    keep: list[Effect] = []
    ended: list[Effect] = []
    for e in st.effects:
        if e.duration in durations and (player is None or e.owner == player) \
                and not (e.created_turn >= st.turn and _skips_creation_turn(game, e.duration)):
            ended.append(e)
        else:
            keep.append(e)
    if not ended:
        return
    unowned = [e for e in ended if e.owner is None]
    by_owner = [(p, [e for e in ended if e.owner == p]) for p in game.players_from(game.cur_tp)]
    by_owner += [(p, [e for e in ended if e.owner == p])  # an owner who has left (ended with them)
                 for p in sorted({e.owner for e in ended if e.owner is not None} - {q for q, _ in by_owner})]
    st.effects = keep
    game.version += 1
    for who, group in [(None, unowned), *by_owner]:
        if not group:
            continue
        for e in group:
            if e.kind == "status":
                st.player_counters[e.spec["player"]].pop("status:" + e.spec["status"], None)
                game.derived.changed(PLAYER_COUNTERS)  # a player's counters changed (see the counter verb)
        log(game, "effect", (f"P{who + 1}'s " if who is not None else "") + f"{len(group)} effect(s) end",
            ctx.rules)


def _skips_creation_turn(game: Play, duration: str | None) -> bool:
    dur = game.rb.durations.get(duration) if duration is not None else None
    return dur is not None and dur.skip_creation_turn
