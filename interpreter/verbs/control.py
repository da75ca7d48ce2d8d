"""Verbs that steer the game: events, outcomes, roles, skips and jumps, player statuses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.model.vocabulary import Gen
from interpreter.state.events import GAME_LOST, GAME_WON
from interpreter.state.objects import as_objects
from interpreter.table.context import Ctx
from interpreter.table.derived import PLAYER_COUNTERS
from interpreter.table.log import log
from interpreter.timing.effects import add_effect
from interpreter.timing.events import emit
from interpreter.timing.outcomes import declare_outcomes, end_game
from interpreter.timing.runner import run
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play


@verb("emit")
def v_emit(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Raise an event so auto abilities can trigger. `once_per_turn` lets each ability trigger on it
    at most once a turn; `once_per` at most once for each value of an expression within the turn (a
    step that repeats until quiet, triggering once per instance: `once_per: attack_number`);
    `only_player` limits triggering to that player's abilities;
    `seen_by_departed` names cards that have just left the zones where their abilities work, whose
    abilities still see this event as they were (an event that happens as they leave, after the move).

    Example:
        emit: {event: swapped, outgoing: this, once_per_turn: true}
    """
    event = {"type": a["event"]}
    for k, f in a.items():
        if k not in ("event", "once_per_turn", "once_per", "only_player", "seen_by_departed"):
            event[k] = f(ctx)
    only = a["only_player"](ctx) if "only_player" in a else None
    departed = as_objects(a["seen_by_departed"](ctx)) if "seen_by_departed" in a else None
    scope = a["once_per"](ctx) if "once_per" in a else None
    emit(game, event, ctx, once_per_turn=a.get("once_per_turn", False) or "once_per" in a, only_player=only,
         departed=departed, once_scope=scope)
    return
    yield


@verb("win")
def v_win(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """A player wins, or the players of a list win together (a team). Each win is first offered to
    the replacement effects on `game_won`, if the rulebook declares that event. `reason`: why, in
    words for people (the log's result line: "P2 wins: ten points scored (9.1)").

    Example:
        win: {player: you, reason: "ten points scored"}
    """
    yield from _outcome(game, _players_of(a["player"](ctx)), "win", GAME_WON, ctx, a.get("reason", ""))


@verb("lose")
def v_lose(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """A player loses, or the players of a list lose together. Each loss is first offered to the
    replacement effects on `game_lost`, if the rulebook declares that event ("if you would lose,
    instead ..."); a concession never comes here (Game.concede). `reason`: why, in words for people
    ("no card left to draw").

    Example:
        lose: {player: "players() where count(cards('deck', it)) == 0", reason: "an empty deck"}
    """
    yield from _outcome(game, _players_of(a["player"](ctx)), "lose", GAME_LOST, ctx, a.get("reason", ""))


def _players_of(value: Any) -> list[int]:
    return [p for p in value if isinstance(p, int)] if isinstance(value, list) else [value]


def _outcome(game: Play, players: list[int], kind: str, etype: str, ctx: Ctx, reason: str = "") -> Gen:
    """Declare the outcome of the players whose win or loss no replacement took the place of (each
    offered in turn, the player as the event's `player`, a replacement's `change` able to name
    another); declared together, they are finalised together. The replacements' `after` steps run
    once the outcome is declared. The reason is kept for the log's result (Play.outcome_reasons)."""
    afters: list[Any] = []
    if etype in game.rb.events and (game.state.effects or game.replacing_abilities):
        from interpreter.timing.replacement import offer

        kept: list[int] = []
        for p in players:
            if p in game.state.left:
                kept.append(p)  # gone already: nothing of theirs is processed (finalising skips them)
                continue
            event: dict[str, Any] = {"type": etype, "player": p}
            replaced, after = yield from offer(game, event, ctx)
            afters.extend(after)
            if not replaced and isinstance(event.get("player"), int):
                kept.append(event["player"])
        players = kept
    if players and not game.state.over():
        if reason:
            for p in players:
                game.outcome_reasons[p] = (kind, reason)
        declare_outcomes(game, players, kind, ctx)
    for steps, ectx in afters:
        yield from run(game, steps, ectx)


@verb("draw_game")
def v_draw_game(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """The game ends in a draw (`reason`: why, in words for people).

    Example:
        draw_game: {reason: "both players ran out of cards"}
    """
    if a.get("reason"):
        game.outcome_reasons[-1] = ("draw", a["reason"])
    end_game(game, None, "draw", ctx.rules)
    return
    yield


@verb("set_role")
def v_set_role(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Give a role (first player, holder of a right, ...) to a player.

    Example:
        set_role: {role: mover, player: opponent}
    """
    p = a["player"](ctx)
    if game.state.roles.get(a["role"]) != p:
        game.state.roles[a["role"]] = p
        touched(game)
        log(game, "role", f"P{p + 1} becomes {a['role']}", ctx.rules, role=a["role"], player=p)
    return
    yield


@verb("skip")
def v_skip(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """The next time the walk would enter this turn, phase or step, it passes over it.

    Example:
        skip: {node: two}
    """
    game.state.skips.append(a["node"])
    log(game, "skip", f"{a['node']} will be skipped", ctx.rules)
    return
    yield


@verb("jump")
def v_jump(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """End the current step now and continue the walk at another node.

    Example:
        jump: {to: three}
    """
    game.state.jump = a["to"]
    log(game, "jump", f"play moves to {a['to']}", ctx.rules)
    return
    yield


@verb("status")
def v_status(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Give a player a named status (e.g. a prohibition), optionally until a duration ends.

    Example:
        status: {player: opponent, status: cannot_draw, duration: round}
    """
    p = a["player"](ctx)
    game.state.player_counters[p]["status:" + a["status"]] = 1
    touched(game)
    game.derived.changed(PLAYER_COUNTERS)  # a player's counters changed (see the counter verb)
    if "duration" in a:
        add_effect(game, "status", {"player": p, "status": a["status"]}, ctx, a["duration"])
    log(game, "status", f"P{p + 1} gains status {a['status']}", ctx.rules)
    return
    yield


@verb("cancel_skips")
def v_cancel_skips(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Skips not used yet vanish: all of them, or those of one node.

    Example:
        cancel_skips: {node: two}
    """
    st = game.state
    before = len(st.skips)
    st.skips = [s for s in st.skips if "node" in a and s != a["node"]]
    if len(st.skips) != before:
        touched(game)
        log(game, "skip", f"{before - len(st.skips)} pending skip(s) vanish", ctx.rules)
    return
    yield
