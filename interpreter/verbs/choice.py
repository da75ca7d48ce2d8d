"""Verbs that ask players to choose, and the chance verb."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.decisions import Decision, Option
from interpreter.state.objects import GameObject
from interpreter.verbs.registry import Gen, verb

if TYPE_CHECKING:
    from interpreter.engine.game import Game


@verb("choose", {"player": "expr", "from": "expr", "min": "expr?", "max": "expr?", "as": "name",
                 "prompt": "str?", "where": "expr?"})
def v_choose(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose between `min` and `max` items (default exactly 1) of a list, binding them to `as`.
    With fewer candidates than asked for, as many as possible are chosen; cards searched in a zone
    their chooser cannot fully see may be declared not found (fail to find)."""
    name = a["as"]
    candidates = a["from"](ctx)
    if candidates is None:
        candidates = []
    elif not isinstance(candidates, list):
        candidates = [candidates]
    if "where" in a:
        cond = a["where"]
        candidates = [c for c in candidates if cond(ctx.child(vars={name: c}))]
    lo = a["min"](ctx) if "min" in a else 1
    hi = a["max"](ctx) if "max" in a else lo
    player = a["player"](ctx)
    hi = max(0, min(hi, len(candidates)))
    lo = max(0, min(lo, hi))
    if lo > 0 and any(isinstance(c, GameObject) and not game.zone_fully_visible(c, player) for c in candidates):
        lo = 0  # fail to find in a hidden zone
    chosen = yield from game.choose_items(player, candidates, lo, hi, a.get("prompt", name), ctx)
    ctx.set(name, chosen)


@verb("choose_one", {"player": "expr", "options": "options", "prompt": "str?", "as": "name?"})
def v_choose_one(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose one of several named courses of action whose condition holds, then carry it out."""
    player = a["player"](ctx)
    legal = [o for o in a["options"] if o["if"] is None or o["if"](ctx)]
    if not legal:
        return
    if len(legal) == 1:
        chosen = legal[0]
    else:
        d = Decision(player, "one", a.get("prompt", "choose"),
                     [Option(o["id"], o["label"], o) for o in legal], 1, 1, ctx.rules)
        (chosen,) = yield from game.ask(d, ctx)
    game.log("choice", f"P{player + 1} chooses {chosen['id']}", ctx.rules)
    if "as" in a:
        ctx.set(a["as"], chosen["id"])
    if chosen["do"]:
        yield from game.run(chosen["do"], ctx)


@verb("choose_player", {"player": "expr", "as": "name", "prompt": "str?", "from": "expr?"})
def v_choose_player(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose a player."""
    player = a["player"](ctx)
    pool = a["from"](ctx) if "from" in a else list(range(game.state.num_players))
    d = Decision(player, "player", a.get("prompt", "choose_player"),
                 [Option(f"p{p + 1}", f"P{p + 1}", p) for p in pool], 1, 1, ctx.rules)
    (chosen,) = yield from game.ask(d, ctx)
    game.log("choice", f"P{player + 1} chooses P{chosen + 1}", ctx.rules)
    ctx.set(a["as"], chosen)


@verb("random_player", {"as": "name", "from": "expr?"})
def v_random_player(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Pick a player at random (a chance event, logged)."""
    pool = a["from"](ctx) if "from" in a else list(range(game.state.num_players))
    p = pool[game.state.rng.randrange(len(pool))]
    game.log("random", f"P{p + 1} is chosen at random", ctx.rules, chance=True)
    ctx.set(a["as"], p)
    return
    yield
