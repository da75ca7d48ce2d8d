"""Rule processing: every applicable process is found first, then all are carried out together,
and the check repeats until none applies. Outcomes declared in one pass are simultaneous."""

from __future__ import annotations

from typing import Any

from interpreter.engine.context import Ctx
from interpreter.loader.model import RuleProcess


def applicable(game: Any, procs: list[RuleProcess], ctx: Ctx) -> list[tuple[RuleProcess, Ctx]]:
    batch = []
    for proc in procs:
        players = proc.players(ctx) if proc.players is not None else [None]
        zones = proc.zones(ctx) if proc.zones is not None else [None]
        for p in players:
            for z in zones:
                pctx = ctx.child(vars={"p": p, "z": z}, rules=proc.rules)
                if p is not None:
                    pctx.you = p
                if proc.cond(pctx):
                    batch.append((proc, pctx))
    return batch


def run_processes(game: Any, procs: list[RuleProcess], ctx: Ctx) -> Any:
    """Run rule processes until none applies; returns whether any ran."""
    any_done = False
    rounds = 0
    key = ("rule_processing_clean", id(procs))
    while game.state.result is None:
        # Nothing changed since these processes last found nothing to do: skip the check.
        if game.cache.get(key) == game.version:
            break
        batch = applicable(game, procs, ctx)
        if not batch:
            game.cache[key] = game.version
            break
        rounds += 1
        if rounds > 1000:
            game.loop_draw("rule processing")
            break
        any_done = True
        outer = game._collecting
        game._collecting = []
        try:
            for proc, pctx in batch:
                game.log("rule", f"rule process {proc.id}", proc.rules)
                yield from game.run(proc.steps, pctx)
        finally:
            outcomes, game._collecting = game._collecting, outer
        if outcomes:
            game.finalize_outcomes(outcomes, tuple(r for proc, _ in batch for r in proc.rules))
    return any_done
