"""Verbs that ask players to choose, and the chance verbs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.vocabulary import Gen
from interpreter.state.decisions import Decision, Option
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.functions import (
    cover_choices,
    cover_symbols,
    coverable,
    f_as_list,
    f_distinct_count,
    field_values,
)
from interpreter.table.log import log
from interpreter.table.views import zone_fully_visible
from interpreter.timing.choosable import choosable
from interpreter.timing.runner import ask, choose_items, run
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play


@verb("choose")
def v_choose(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose between `min` and `max` items (default exactly 1) of a list, binding them to `as`.
    With fewer candidates than asked for, as many as possible are chosen; cards searched in a zone
    their chooser cannot fully see may be declared not found (fail to find). With `distinct: FIELD`
    the chosen cards must each give a different value of that field (see `_choose_distinct`).

    Example:
        choose: {player: you, from: "cards('hand', you)", min: 0, max: 2, as: picked,
                 prompt: "Choose up to two cards to discard"}
    """
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
    candidates = choosable(game, candidates, player, ctx)
    hi = max(0, min(hi, len(candidates)))
    lo = max(0, min(lo, hi))
    if lo > 0 and any(isinstance(c, GameObject) and not zone_fully_visible(game, c, player) for c in candidates):
        lo = 0  # fail to find in a hidden zone
    if "distinct" in a:
        chosen = yield from _choose_distinct(game, player, candidates, lo, hi, a["distinct"](ctx),
                                             a.get("prompt", name), ctx)
    else:
        chosen = yield from choose_items(game, player, candidates, lo, hi, a.get("prompt", name), ctx)
    ctx.set(name, chosen)


def _choose_distinct(game: Play, player: int, candidates: list[Any], lo: int, hi: int, field: str, prompt: str,
                     ctx: Ctx) -> Gen:
    """Cards with pairwise different values of `field`, chosen one at a time: as many as possible up to
    `lo` must be chosen, more up to `hi` may be. Each offer holds only the cards that keep the chosen
    ones distinct; since sets of cards that can give distinct values form a matroid (a transversal
    one), any such set grows to the largest possible, so choosing one at a time never strands the
    player below what could have been chosen."""
    chosen: list[Any] = []
    best = f_distinct_count(ctx, candidates, field)
    need, cap = min(lo, best), min(hi, best)
    while len(chosen) < cap:
        allowed = [c for c in candidates if not any(c is x for x in chosen)
                   and f_distinct_count(ctx, chosen + [c], field) == len(chosen) + 1]
        if not allowed:
            break
        pick = yield from choose_items(game, player, allowed, 1 if len(chosen) < need else 0, 1, prompt, ctx)
        if not pick:
            break
        chosen.extend(pick)
    return chosen


@verb("choose_cover")
def v_choose_cover(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose cards that cover requirements one card per symbol (see `covers`): one requirement at a
    time, the specific symbols in the order given and the wildcard last, each offer holding only the
    cards that can pay that symbol and leave the remaining requirements coverable by the remaining
    cards, so a player never paints themselves into a corner; an offer of one card is taken without
    asking. Binds the chosen cards, or [] (nothing asked) when no cover exists: a rulebook checks
    `covers` first where that matters (a cost's `can`).

    Example:
        choose_cover: {player: you, from: "cards('hand', you)", field: tags, requirements: "this.needs",
                       as: payment}
    """
    player = a["player"](ctx)
    cards = choosable(game, [c for c in f_as_list(ctx, a["from"](ctx)) if isinstance(c, GameObject)], player, ctx)
    wildcard = a.get("wildcard")
    specific, wild = cover_symbols(a["requirements"](ctx), wildcard)
    pays = [field_values(ctx, c, a["field"]) for c in cards]
    chosen: list[GameObject] = []
    if coverable(pays, specific, wild):
        prompt = a.get("prompt", a["as"])
        left = list(range(len(cards)))
        while (specific or wild > 0) and not game.state.halted():
            allowed = cover_choices(pays, left, specific, wild)
            symbol = specific[0] if specific else wildcard
            pick = yield from choose_items(game, player, [cards[i] for i in allowed], 1, 1, f"{prompt}: {symbol}", ctx)
            i = next((i for i in allowed if pick and cards[i] is pick[0]), -1)
            if i < 0:
                break
            left.remove(i)
            chosen.append(cards[i])
            if specific:
                specific = specific[1:]
            else:
                wild -= 1
    ctx.set(a["as"], chosen)


@verb("choose_one")
def v_choose_one(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose one of several named courses of action whose condition holds, then carry it out.

    Example:
        choose_one:
          player: you
          options:
            - {id: take, if: "count(cards('deck', you)) > 0", do: [{move: {cards: "top('deck', you, 1)", to: hand}}]}
            - {id: charge, do: [{counter: {target: this, name: charge, add: 1}}]}
    """
    player = a["player"](ctx)
    legal = [o for o in a["options"] if o["if"] is None or o["if"](ctx)]
    if not legal:
        return
    if len(legal) == 1:
        chosen = legal[0]
    else:
        d = Decision(player, "one", a.get("prompt", "choose"),
                     [Option(o["id"], o["label"], o) for o in legal], 1, 1, ctx.rules)
        (chosen,) = yield from ask(game, d, ctx)
    log(game, "choice", f"P{player + 1} chooses {chosen['id']}", ctx.rules)
    if "as" in a:
        ctx.set(a["as"], chosen["id"])
    if chosen["do"]:
        yield from run(game, chosen["do"], ctx)


@verb("choose_player")
def v_choose_player(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Choose a player. With `min` or `max`, choose that many of the pool (as many as there are, at
    most) and bind the list: a choice that leaves nothing to choose (every player of the pool) is
    made without asking, so "designate N opponents" costs no decision where there are only N.

    Example:
        choose_player: {player: you, from: "opponents(you)", as: victim}
    """
    player = a["player"](ctx)
    pool = a["from"](ctx) if "from" in a else list(range(game.state.num_players))
    pool = [p for p in (pool if isinstance(pool, list) else [pool]) if p is not None]
    options = [Option(f"p{p + 1}", f"P{p + 1}", p) for p in pool]
    if "min" not in a and "max" not in a:
        (chosen,) = yield from ask(game, Decision(player, "player", a.get("prompt", "choose_player"), options, 1, 1,
                                                  ctx.rules), ctx)
        log(game, "choice", f"P{player + 1} chooses P{chosen + 1}", ctx.rules)
        ctx.set(a["as"], chosen)
        return
    hi = min(len(pool), int(a["max"](ctx)) if "max" in a else len(pool))
    lo = min(hi, max(0, int(a["min"](ctx)) if "min" in a else hi))
    if lo == hi == len(pool):
        ctx.set(a["as"], list(pool))
        return
    picked = yield from ask(game, Decision(player, "player", a.get("prompt", "choose_player"), options, lo, hi,
                                           ctx.rules), ctx)
    log(game, "choice", f"P{player + 1} chooses " + (", ".join(f"P{p + 1}" for p in picked) or "no player"),
        ctx.rules)
    ctx.set(a["as"], list(picked))


@verb("random_player")
def v_random_player(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Pick a player at random (a chance event, logged).

    Example:
        random_player: {as: starter}
    """
    pool = a["from"](ctx) if "from" in a else list(range(game.state.num_players))
    p = pool[game.state.rng.randrange(len(pool))]
    log(game, "random", f"P{p + 1} is chosen at random", ctx.rules, chance=True)
    ctx.set(a["as"], p)
    return
    yield


@verb("roll")
def v_roll(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Roll a die with `sides` sides and bind the number rolled (1 to `sides`): a chance event drawn
    from the game's seeded generator and logged, so a seed gives the same rolls. `player` (default:
    the effect's master) is who rolls, for the log.

    Example:
        roll: {sides: 6, as: rolled}
    """
    sides = a["sides"](ctx)
    if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
        game.fail(ctx, f"roll: a die needs at least 1 side, got {sides!r}")
    player = a["player"](ctx) if "player" in a else ctx.you
    n = game.state.rng.randrange(sides) + 1
    die = f"a {sides}-sided die"
    log(game, "random", f"P{player + 1} rolls {die}: {n}" if isinstance(player, int) else f"{die} is rolled: {n}",
        ctx.rules, chance=True)
    ctx.set(a["as"], n)
    return
    yield
