"""Running effect steps and asking the players: the frames of the steps being run (what a fork
restarts from), the decisions yielded to the caller of `Game.advance()`, and the choices every
verb asks through."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from interpreter.model.vocabulary import Step
from interpreter.state.decisions import Decision, Option
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import can_see, describe, describe_for
from interpreter.timing.outcomes import loop_draw

if TYPE_CHECKING:
    from interpreter.derive.play import Play

Gen = Generator[Any, Any, Any]


def run(game: Play, steps: tuple[Step, ...], ctx: Ctx, *, tail: bool = False, first: int = 0,
        resume: Gen | None = None) -> Gen:
    """Run effect steps in order.

    Each run is a frame on `frames` (steps, current index, context, tail): `tail` says the
    caller does nothing after this run ends (a template call, a branch), so the frames alone
    tell where the game stands. A fork restarts a run at `first`, with `resume` standing in for
    the step that was in progress there."""
    st = game.state
    frame = [steps, first, ctx, tail]
    game.frames.append(frame)
    try:
        for i in range(first, len(steps)):
            if st.result is not None:
                return
            if st.left and ctx.ability is not None and ctx.you in st.left:
                return  # an ability whose master has left ends where it stands (Re:Birth 12.4.4)
            if st.jump is not None and ctx.node is not None:
                # A jump is pending: the turn structure's own steps stop here (the effect that
                # asked for the jump still finishes, since its context belongs to no node).
                return
            frame[1] = i
            step = steps[i]
            if resume is not None:
                inner, resume = resume, None
                yield from inner
                continue
            game.auto_steps += 1
            if game.auto_steps > game.max_auto_steps:
                loop_draw(game, "automatic steps")
                return
            try:
                yield from step.spec.fn(game, step.args, ctx)
            except GameError:
                raise
            except (IllegalAnswer, GeneratorExit):
                raise
            except Exception as e:  # noqa: BLE001 - turn data bugs into located errors
                raise GameError(f"{step.where}: {step.verb}: {e}") from e
    finally:
        game.frames.pop()


def ask(game: Play, decision: Decision, ctx: Ctx, *, restartable: bool = False) -> Gen:
    """Yield a decision to the caller of advance() and return the chosen option values.

    `restartable`: the asking procedure, started afresh in the current state, comes back to
    this same decision (a play timing). When it runs as a step of a turn-structure node, maybe
    through template calls, a fork restarts it there instead of replaying the game."""
    game.state.decisions += 1
    if game.state.decisions > game.max_decisions:
        loop_draw(game, "decisions")
        return [decision.options[0].value] if decision.min > 0 else []
    if game.state.left and decision.player in game.state.left:
        # Nothing is processed for a player who has left (Re:Birth 12.4.7): a pass where there
        # is one, else the least answer.
        passing = [o.value for o in decision.options if o.id == "pass"]
        return passing[:1] if passing and decision.min <= 1 else [o.value for o in decision.options[:decision.min]]
    if restartable and _restartable_here(game, ctx):
        game.resume_at = [(steps, i, c) for steps, i, c, _ in game.frames]
    game.asking = ctx
    values = yield decision
    return values


def automatic(game: Play, decision: Decision) -> Gen:
    """A decision whose one legal answer the engine takes itself (a play timing where passing is all
    the player may do). Only a caller that set `show_automatic` (the scenario runner, which checks
    what is offered there and may stop there) gets it from advance(), marked `automatic`, and
    answers it with that answer; for everyone else it does not exist and counts as no decision."""
    if game.show_automatic and decision.player not in game.state.left:
        decision.automatic = True
        yield decision


def _restartable_here(game: Play, ctx: Ctx) -> bool:
    frames = game.frames
    if not frames or ctx is not frames[-1][2] or game.cur_node is None:
        return False
    root = frames[0][2]
    if root.node is not game.cur_node or root.parent is not None or root.vars:
        return False  # not the node's own steps, or its steps bound names a restart would lose
    return all(f[3] for f in frames[1:])


def ask_yes_no(game: Play, player: int, prompt: str, ctx: Ctx) -> Gen:
    d = Decision(player, "yes_no", prompt, [Option("yes", "yes", True), Option("no", "no", False)], 1, 1,
                 ctx.rules)
    (v,) = yield from ask(game, d, ctx)
    return v


def choose_items(game: Play, player: int, items: list[Any], lo: int, hi: int, prompt: str, ctx: Ctx) -> Gen:
    if hi <= 0:
        return []
    if lo == hi == len(items):
        return list(items)
    if lo == hi and _interchangeable(game, items):
        return list(items[:lo])
    options = []
    for i, it in enumerate(items):
        if isinstance(it, GameObject):
            options.append(Option(f"c{it.oid}", describe_for(game, it, player), it))
        elif isinstance(it, str):
            options.append(Option(f"z:{it}" if it in game.rb.zones else f"s:{it}", it, it))
        elif isinstance(it, int) and not isinstance(it, bool):
            options.append(Option(f"n{i}", str(it), it))
        else:
            options.append(Option(f"i{i}", str(it), it))
    d = Decision(player, "select", prompt, options, lo, hi, ctx.rules)
    chosen = yield from ask(game, d, ctx)
    if chosen and game.logging:
        objs = [c for c in chosen if isinstance(c, GameObject)]
        hidden = frozenset(p for p in range(game.state.num_players)
                           if any(not can_see(game, o, p) for o in objs))
        log(game, "choice", f"P{player + 1} chooses " + ", ".join(
            describe(game, c) if isinstance(c, GameObject) else str(c) for c in chosen), ctx.rules,
            hidden_from=hidden, redacted=f"P{player + 1} chooses {len(chosen)} card(s)")
    return chosen


def _interchangeable(game: Play, items: list[Any]) -> bool:
    """Whether choosing among these cards changes nothing: the same card in the same zone and
    states, with nothing of its own (marks, counters, cards held under it). The same card in two
    places, or holding different cards, is a real choice."""
    first = items[0] if items else None
    if not isinstance(first, GameObject):
        return False
    if not all(isinstance(o, GameObject) and o.card_id == first.card_id and o.states == first.states
               and o.holder is None and not o.marks and not o.counters
               and o.zone == first.zone and o.zone_player == first.zone_player for o in items):
        return False
    objs = game.state.objects
    holders = {objs[i].holder for i in game.state.zones.get((first.zone, first.zone_player), ())}
    return not any(o.oid in holders for o in items)


def template_params(tpl: Any, a: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
    """A template call's parameters, evaluated in the caller's scope: each argument given, and the
    default of each parameter the call leaves out (evaluated only then)."""
    params = {name: (a[name] if name in a and name != "template" else default)(ctx)
              for name, default in tpl.defaults.items()}
    for k, f in a.items():
        if k != "template" and k not in params:
            params[k] = f(ctx)
    return params
