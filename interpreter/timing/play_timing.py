"""Play timing: the player may take one action from the rulebook's list, or pass.

Every play timing is preceded by a check timing when the rulebook says so, and taking an action
gives play timing again; passing ends it. Several players (a team taking its turn, or players
alternating) are asked in turn: an action moves on to the next player, and play timing ends when
all of them have passed one after another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.abilities import ability_objects, gate_ok, limit_ok
from interpreter.model.rulebook import ability_label
from interpreter.state.decisions import Decision, Option
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe
from interpreter.timing.abilities import activate, playable
from interpreter.timing.check_timing import check_timing
from interpreter.timing.runner import ask, automatic, run

if TYPE_CHECKING:
    from interpreter.derive.play import Play


ACTION_KINDS: dict[str, tuple[str, str]] = {
    "play_card": (
        "One option per card of `candidates` for which `legal` holds (the card is `it` there); taking it runs "
        "`do` with the card as `this` and the acting player as `you`.",
        "{id: put_out, rules: [\"7\"], kind: play_card, candidates: \"cards('hand', you)\",\n"
        " legal: \"count(cards('field', you)) < 5\", do: [{move: {cards: this, to: field}}]}"),
    "activate": (
        "One option per activated ability the player could play now: on a card they control whose abilities "
        "work where it is (not negated, not face down), its conditions holding, its use limits not reached, "
        "its whole cost payable and its choices possible. Taking it plays the ability (cost, then effect); "
        "`candidates`, `legal` and `do` are not read.",
        "{id: use, rules: [\"7\"], kind: activate}"),
    "declare": (
        "One option, the action's id, tied to no card, while `legal` holds; taking it runs `do` with the acting "
        "player as `you`.",
        "{id: concede_round, rules: [\"7\"], kind: declare, legal: \"turn > 1\",\n"
        " do: [{set_var: {name: conceded, value: you}}]}"),
}
"""What each kind of action (`actions:`, its `kind`) offers at play timing, with an example: the source
of the generated reference (docs/reference.md); tests/test_reference.py checks it against the kinds the
rulebook schema allows."""


def legal_actions(game: Play, player: int, action_ids: list[str], ctx: Ctx) -> list[Option]:
    options: list[Option] = []
    pctx = ctx.child(you=player)
    pctx.you = player
    for aid in action_ids:
        act = game.rb.actions[aid]
        if act.kind == "play_card":
            cands = act.candidates(pctx) if act.candidates is not None else []
            for card in cands or []:
                cctx = pctx.with_it(card)
                if act.legal is None or act.legal(cctx):
                    options.append(Option(f"{aid}:c{card.oid}", f"{aid} {describe(game, card)}", (act, card, None)))
        elif act.kind == "activate":
            for obj in ability_objects(game, None):
                if obj.controller != player:
                    continue
                offered: set[int] = set()  # one option per ability (two grants of one give it twice)
                for ab in game.abilities_of(obj):
                    if ab.kind != "activated" or ab.index in offered or not gate_ok(obj, ab, game) \
                            or not limit_ok(game, obj, ab):
                        continue
                    actx = Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab)
                    if playable(game, ab, actx):
                        offered.add(ab.index)
                        options.append(Option(f"{aid}:c{obj.oid}:a{ab.index}",
                                              f"{aid} {describe(game, obj)} {ability_label(ab)}", (act, obj, ab)))
        elif act.kind == "declare":
            # An action tied to no card (e.g. declaring something), legal while `legal` holds.
            if act.legal is None or act.legal(pctx):
                options.append(Option(aid, aid, (act, None, None)))
    return options


def play_timing(game: Play, player: int | list[int], action_ids: list[str], ctx: Ctx,
                in_order: bool = False) -> Any:
    """Play timing for one player, who acts until they pass; or for several (a list), asked in turn
    from the first: an action passes the turn to the next player, and play timing ends when every
    player still in the game has passed, one after another. With `in_order` those passes must
    start with the first player of the list (a round of passes begun by another player goes on:
    the last player passing, then the first, does not end it)."""
    if isinstance(player, list) and len(player) == 1:
        player = player[0]
    if not isinstance(player, list):
        while (yield from _act_or_pass(game, player, action_ids, ctx, restartable=True)):
            pass
        return
    seats = [p for p in player if p is not None]
    i = passes = 0
    while seats and not game.state.halted():
        p = seats[i % len(seats)]
        if p in game.state.left:
            passes += 1
        elif (yield from _act_or_pass(game, p, action_ids, ctx, restartable=i % len(seats) == 0 and passes == 0,
                                      once=True)):
            passes = 0
        else:
            passes += 1
        if passes >= len(seats) and (not in_order or i % len(seats) == len(seats) - 1):
            return
        i += 1


def _act_or_pass(game: Play, player: int, action_ids: list[str], ctx: Ctx, *, restartable: bool,
                 once: bool = False) -> Any:
    """One play timing decision and the action taken; whether the player acted and play timing goes
    on (`repeat_after_action`, or `once`: the caller decides)."""
    cfg = game.rb.timing.get("play_timing") or {}
    rules = tuple(cfg.get("rules", ()))
    if cfg.get("check_timing_first", True):
        yield from check_timing(game, ctx)
        if game.state.halted():
            return False
    options = legal_actions(game, player, action_ids, ctx)
    options.append(Option("pass", "pass", None))
    if len(options) == 1:
        choice = None
        if game.show_automatic:
            yield from automatic(game, Decision(player, "play", "play_timing", options, 1, 1, rules))
    else:
        (choice,) = yield from ask(game, Decision(player, "play", "play_timing", options, 1, 1, rules), ctx,
                                   restartable=restartable)
    if choice is None:
        log(game, "pass", f"P{player + 1} passes", rules)
        return False
    act, obj, ab = choice
    if ab is not None:
        yield from activate(game, obj, ab, player, ctx)
    elif obj is None:
        log(game, "declare", f"P{player + 1} declares {act.id}", act.rules)
        yield from run(game, act.steps, Ctx(game, None, you=player, rules=act.rules))
    else:
        log(game, "play", f"P{player + 1} plays {describe(game, obj)}", act.rules)
        actx = Ctx(game, None, you=player, this=obj, rules=act.rules)
        yield from run(game, act.steps, actx)
    return (once or cfg.get("repeat_after_action", True)) and not game.state.halted()
