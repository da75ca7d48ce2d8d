"""Rule processing: every applicable process is found first, then all are carried out together,
and the check repeats until none applies. Outcomes declared in one pass are simultaneous."""

from __future__ import annotations

from typing import Any

from interpreter.engine.context import Ctx
from interpreter.loader.model import RuleProcess


def _signature(game: Any, proc: RuleProcess) -> tuple[int, ...] | None:
    if proc.watch is None:
        return None
    zv = game.zone_version
    return (game.global_version, *(zv[z] for z in proc.watch))


def applicable(game: Any, procs: list[RuleProcess], ctx: Ctx) -> list[tuple[RuleProcess, Ctx]]:
    """Every (process, binding) whose condition holds now. A process whose watched zones have not
    changed since it last found nothing is not evaluated again."""
    batch = []
    cache = game.cache.setdefault("rule_process_idle", {})
    for proc in procs:
        sig = _signature(game, proc)
        if sig is not None and cache.get(proc.id) == sig:
            continue
        players = proc.players(ctx) if proc.players is not None else [None]
        zones = proc.zones(ctx) if proc.zones is not None else [None]
        found = False
        for p in players:
            for z in zones:
                pctx = ctx.child(vars={"p": p, "z": z}, rules=proc.rules)
                if p is not None:
                    pctx.you = p
                if proc.cond(pctx):
                    batch.append((proc, pctx))
                    found = True
        if not found and sig is not None:
            cache[proc.id] = sig
    return batch


def run_processes(game: Any, procs: list[RuleProcess], ctx: Ctx) -> Any:
    """Run rule processes until none applies; returns whether any ran."""
    any_done = False
    rounds = 0
    while game.state.result is None:
        batch = applicable(game, procs, ctx)
        if not batch:
            break
        rounds += 1
        if rounds > 1000:
            game.loop_draw("rule processing")
            break
        any_done = True
        outer = game._collecting
        outer_interrupt = game._in_interrupt
        game._collecting = []
        game._in_interrupt = True  # the batch is one simultaneous action: no interrupt inside it
        try:
            for proc, pctx in batch:
                game.log("rule", f"rule process {proc.id}", proc.rules)
                yield from game.run(proc.steps, pctx)
        finally:
            outcomes, game._collecting = game._collecting, outer
            game._in_interrupt = outer_interrupt
        if outcomes:
            game.finalize_outcomes(outcomes, tuple(r for proc, _ in batch for r in proc.rules))
    return any_done
