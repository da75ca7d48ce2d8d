"""Events and interrupts: an event is logged and matched against triggers; rule processes that apply
at any moment are checked after every card move, except inside a simultaneous step, which checks
them once it is done."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe
from interpreter.timing import rule_processing as rproc
from interpreter.timing.outcomes import apply_after_leaving

if TYPE_CHECKING:
    from interpreter.derive.play import Play

Gen = Generator[Any, Any, Any]


def emit(game: Play, event: dict[str, Any], ctx: Ctx, *, once_per_turn: bool = False,
         only_player: int | None = None, departed: list[GameObject] | None = None,
         once_scope: Any = None) -> None:
    """Raise an event; `departed`: cards that left where their abilities work and still see it."""
    if game.logging and event["type"] not in game.unlogged:
        extra = {k: v for k, v in event.items() if k != "type"}
        log(game, "event", f"event {event['type']} {_fmt(game, extra)}".rstrip(), ctx.rules)
    game.triggers.collect(event, once_per_turn=once_per_turn, only_player=only_player, departed=departed,
                          once_scope=once_scope)


def _fmt(game: Play, data: dict[str, Any]) -> str:
    parts = []
    for k, v in data.items():
        if isinstance(v, GameObject):
            v = describe(game, v)
        elif isinstance(v, list):
            v = "[" + ", ".join(describe(game, x) if isinstance(x, GameObject) else str(x) for x in v) + "]"
        elif isinstance(v, int) and k in ("player",):
            v = f"P{v + 1}"
        parts.append(f"{k}={v}")
    return " ".join(parts)


def interrupts(game: Play, ctx: Ctx) -> Gen:
    """Rule processes that happen at any moment (not only at check timing), e.g. a refresh.
    Checked after every card move: when none applies, no procedure is started. A format's
    `after_leaving` rule with `watch` is checked here too once a player has left. Inside a
    simultaneous step (`simultaneously`) nothing is checked: the step checks once it is done."""
    if game.holding:
        return
    if game.after_leaving is not None and game.state.left and game.after_leaving[0].get("watch"):
        apply_after_leaving(game, list(game.state.left))
        if game.state.over():
            return
    if game.in_interrupt or not game.always_processes or not rproc.applicable(game, game.always_processes, ctx):
        return
    game.in_interrupt = True
    try:
        yield from rproc.run_processes(game, game.always_processes, ctx)
    finally:
        game.in_interrupt = False


def simultaneously(game: Play, body: Gen, ctx: Ctx) -> Gen:
    """Run `body` as one simultaneous step (a move of several cards, a step applied to several
    players at once): interrupts wait until the outermost such step is done, then whatever calls
    for one is processed once, in the rulebook's order, seeing the whole step's result. Choices
    inside still come one at a time, in the order the body asks them. Returns the body's value."""
    game.holding += 1
    try:
        result = yield from body
    finally:
        game.holding -= 1
    if not game.holding and not game.state.over():
        yield from interrupts(game, ctx)
    return result
