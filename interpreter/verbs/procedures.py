"""Verbs that run the rulebook's timing procedures, and the requirement solver."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.vocabulary import Gen
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe
from interpreter.timing.check_timing import check_timing
from interpreter.timing.play_timing import play_timing
from interpreter.timing.runner import ask, ask_yes_no
from interpreter.timing.solver import can_cover
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play
    from interpreter.model.rulebook import Ability


@verb("check_timing")
def v_check_timing(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run the check timing procedure; `as` records whether anything was resolved in it.

    Example:
        check_timing: {as: anything_resolved}
    """
    resolved = yield from check_timing(game, ctx)
    if "as" in a:
        game.state.vars[a["as"]] = resolved


@verb("play_timing")
def v_play_timing(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Give a player play timing: act with one of `actions` or pass; acting gives it again. A list of
    players take turns, an action passing to the next, until all have passed one after another
    (`end: passed_in_order`: one after another starting with the first of the list).

    Example:
        play_timing: {player: turn_player, actions: [use, give_up]}
    """
    yield from play_timing(game, a["player"](ctx), a["actions"], ctx, in_order=a.get("end") == "passed_in_order")


@verb("satisfy")
def v_satisfy(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Decide whether one pool of symbols can pay every requirement at once. `symbols` names the
    enum of specific symbols; `wildcard` pays any specific symbol; `generic` demands are paid by
    any usable symbol. Other pool symbols do not count.

    Example:
        satisfy: {pool: "merge(cards('field', you) select it.needs)", requirements: "[this.needs]",
                  symbols: tag, as: needs_met}
    """
    symbols = game.rb.enums[a["symbols"]]
    pool = a["pool"](ctx) or {}
    reqs = a["requirements"](ctx) or []
    ok = can_cover(pool, reqs, symbols, a.get("wildcard"), a.get("generic"))
    game.state.vars[a["as"]] = ok
    if game.logging:
        log(game, "requirement", f"requirements {'met' if ok else 'not met'}: pool {dict(pool)} "
                                 f"for {[dict(r) for r in reqs]}", ctx.rules,
            met=ok, pool=dict(pool), requirements=[dict(r) for r in reqs])
    return
    yield


@verb("respond")
def v_respond(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """A card is being played: open the response window (interpreter/timing/responses.py); `as` names
    whether it was negated, so the rulebook can say what becomes of it.

    Example:
        respond: {card: this, as: was_negated}
    """
    from interpreter.timing.responses import playing, window

    card = a["card"](ctx)
    if isinstance(card, list):
        card = card[0] if card else None
    negated = yield from window(game, playing("card", card, ctx.you if ctx.you is not None else 0), ctx)
    if "as" in a:
        ctx.set(a["as"], negated)


@verb("negate")
def v_negate(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Negate a card or ability being played (the `target` of a response): it does not resolve.

    Example:
        negate: {target: target}
    """
    target = a["target"](ctx)
    if isinstance(target, dict) and "negated" in target and not target["negated"]:
        target["negated"] = True
        card = target.get("card")
        name = describe(game, card) if card is not None and hasattr(card, "card_id") else "?"
        log(game, "negate", f"{target.get('kind')} {name} is negated", ctx.rules)
    return
    yield


@verb("resolve_abilities")
def v_resolve_abilities(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Carry out a card's own abilities of one kind now, wherever the card is: each pays its cost (one
    that cannot be paid is skipped) and resolves, in the order its controller chooses. For abilities
    a rule carries out itself, not played at play timing nor triggered (a card's text carried out as
    it is played; abilities carried out inside a rule process). With `index`, only the card's ability
    of that index (`ability_index()`: the one being resolved, played again); with `keyword`, only its
    abilities with that keyword; with `one`, only one of them, the controller's choice ("activate one
    of that card's enter abilities"). An ability with an optional cost asks its controller whether to
    pay it (declined: it does not resolve). With `event` (and its
    `fields`) instead of `card`: the abilities of that kind of every card whose abilities work, whose
    trigger names the event and holds over it (see `_on_event`).

    Example:
        resolve_abilities: {card: this, kind: quick}
    """
    from interpreter.model.rulebook import ability_label
    from interpreter.state.decisions import Decision, Option
    from interpreter.timing.abilities import pay_cost, run_effect
    from interpreter.timing.payability import can_pay

    if "event" in a:
        yield from _on_event(game, a, ctx)
        return
    if "card" not in a:
        game.fail(ctx, "resolve_abilities needs 'card' or 'event'")
    card = a["card"](ctx)
    obj = card[0] if isinstance(card, list) and card else card
    if not isinstance(obj, GameObject):
        return
    kind = game.kind_of.get(a["kind"], a["kind"])
    todo = [ab for ab in game.abilities_of(obj) if ab.kind == kind]
    if "index" in a:
        only = a["index"](ctx)
        todo = [ab for ab in todo if ab.index == only]
    if "keyword" in a:
        todo = [ab for ab in todo if a["keyword"] in ab.keywords]
    master = obj.controller
    one = bool(a.get("one"))
    while todo and not game.state.halted():
        ab = todo[0]
        if len(todo) > 1:
            d = Decision(master, "one", "choose_ability" if one else "choose_ability_order",
                         [Option(f"a{x.index}", ability_label(x), x) for x in todo], 1, 1, ctx.rules)
            (ab,) = yield from ask(game, d, ctx)
        todo = [] if one else [x for x in todo if x is not ab]
        actx = Ctx(game, None, you=master, this=game.state.objects.get(obj.oid) or obj, rules=ab.rules, ability=ab)
        if ab.cost and not can_pay(game, ab.cost, actx):
            log(game, "resolve", f"{describe(game, obj)}: {ability_label(ab)}: the cost cannot be paid", ab.rules)
            continue
        if ab.optional:
            yes = yield from ask_yes_no(game, master, "pay_optional_cost" if ab.cost else "play_optional_ability", actx)
            if not yes:
                log(game, "resolve", f"{describe(game, obj)}: {ability_label(ab)}: P{master + 1} declines "
                                     f"{'the cost' if ab.cost else 'to play it'}", ab.rules)
                continue
        log(game, "resolve", f"{describe(game, obj)}: {ability_label(ab)} resolves", ab.rules)
        if ab.cost:
            yield from pay_cost(game, ab.cost, actx)
        yield from run_effect(game, ab, actx)


def _on_event(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Abilities of one kind that a rule carries out when its event happens, not auto abilities: those
    of every card whose abilities work now whose trigger names the event and holds over it (`event`,
    `this`, `you` bound as for a trigger) and whose use limit is not used up, found once as the event
    happens. Their controllers carry them out in the order of `players` (default: from the turn
    player in turn order), each player choosing one of theirs at a time until none is left, then the
    next player. Each is carried out as a pending ability is (timing/abilities.begin_resolving)."""
    from interpreter.derive.abilities import ability_objects, gate_ok, limit_ok
    from interpreter.model.rulebook import ability_label
    from interpreter.state.decisions import Decision, Option
    from interpreter.timing.abilities import begin_resolving, run_effect
    from interpreter.timing.payability import event_of

    st = game.state
    event = event_of(a, ctx)
    kind = game.kind_of.get(a["kind"], a["kind"])
    found: list[tuple[GameObject, Ability]] = []
    for obj in ability_objects(game):
        for ab in game.abilities_of(obj):
            if ab.kind != kind or not gate_ok(obj, ab, game) or not limit_ok(game, obj, ab):
                continue
            tctx = Ctx(game, None, you=obj.controller, this=obj, event=event, rules=ab.rules, ability=ab)
            if any(t.get("event") == event["type"] and (t.get("if") is None or t["if"](tctx)) for t in ab.triggers):
                found.append((obj, ab))
    if not found:
        return
    order = list(a["players"](ctx)) if "players" in a else game.players_from(game.cur_tp)
    order += [p for p in game.players_from(game.cur_tp) if p not in order]
    while found and not st.halted():
        player = next((p for p in order if any(o.controller == p for o, _ in found)), found[0][0].controller)
        mine = [x for x in found if x[0].controller == player]
        pick = mine[0]
        if len(mine) > 1:
            d = Decision(player, "one", "choose_ability_order",
                         [Option(f"c{o.oid}.a{ab.index}", f"{describe(game, o)}: {ability_label(ab)}", (ab, o))
                          for o, ab in mine], 1, 1, ctx.rules)
            ((picked_ab, picked),) = yield from ask(game, d, ctx)
            pick = next(x for x in mine if x[0] is picked and x[1] is picked_ab)
        found.remove(pick)
        obj, ab = pick
        this = st.objects.get(obj.oid) or st.lki.get(obj.oid) or obj
        actx = Ctx(game, None, you=player, this=this, event=event, rules=ab.rules, ability=ab)
        if not (yield from begin_resolving(game, this, ab, player, actx, describe(game, obj))):
            continue
        log(game, "resolve", f"{describe(game, obj)}: {ability_label(ab)} resolves", ab.rules)
        yield from run_effect(game, ab, actx)
