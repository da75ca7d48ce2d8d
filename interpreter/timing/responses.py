"""Responses (counter processing): while a card or an ability is being played, players may present
abilities of a kind played `in_response` against it, or against a response already presented.

Each presentation starts the asking over, from the first player; when every player has passed in a
row, the presented responses are processed last presented first (Re:Birth 9.7.3). A response that
was itself negated does nothing, and one whose conditions no longer hold is not processed. What a
response does is its effect, run with `target` bound: the `negate` verb marks its target, and the
play it answered then does not resolve (the rulebook says what becomes of a negated card).

The rulebook's `may_answer` (with `you` the player and `target` what they would answer) limits who
may answer what. What is being played is a plain mapping, so expressions read it: `kind` (card, ability or
response), `card` (the card played, or whose ability is played), `player`, `ability_kind`,
`keywords` and `negated`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.abilities import ability_objects, conditions_hold, gate_ok, limit_ok
from interpreter.model.rulebook import Ability, ability_label
from interpreter.state.decisions import Decision, Option
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import describe
from interpreter.timing.abilities import count_use, pay_cost, run_effect
from interpreter.timing.payability import can_pay
from interpreter.timing.runner import ask

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def playing(kind: str, card: Any, player: int, ab: Ability | None = None) -> dict[str, Any]:
    """The record of something being played, as responses see it."""
    return {"kind": kind, "card": card, "player": player, "ability_kind": ab.kind if ab is not None else None,
            "keywords": list(ab.keywords) if ab is not None else [], "negated": False}


def opens_after_cost(game: Play, ab: Ability) -> bool:
    """Whether playing this ability opens a response window once its cost is paid."""
    cfg = game.rb.timing.get("responses") or {}
    return game.responses_possible and ab.kind in (cfg.get("after_cost_of") or ())


def _players(game: Play, ctx: Ctx) -> list[int]:
    cfg = game.rb.timing.get("responses") or {}
    fn = cfg.get("compiled_players")
    if fn is not None:
        return [p for p in fn(ctx) if p is not None]
    tp = game.cur_tp if game.cur_tp is not None else game.cur_ap
    everyone = list(range(game.state.num_players))
    return everyone if tp is None else [tp] + [p for p in everyone if p != tp]


def _options(game: Play, player: int, targets: list[dict[str, Any]]) -> list[Option]:
    may = (game.rb.timing.get("responses") or {}).get("compiled_may_answer")
    if may is not None:  # who may answer what (e.g. only the players beside its master)
        targets = [t for t in targets if may(Ctx(game, None, you=player, vars={"target": t}))]
        if not targets:
            return []
    options: list[Option] = []
    for obj in ability_objects(game, None):
        if obj.controller != player:
            continue
        for ab in game.abilities_of(obj):
            if ab.kind != "response" or ab.answers is None or not gate_ok(obj, ab, game) \
                    or not limit_ok(game, obj, ab):
                continue
            actx = Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab)
            if not can_pay(game, ab.cost, actx):
                continue
            answerable = [t for t in targets if not t["negated"]
                          and ab.answers(Ctx(game, None, you=player, this=obj, rules=ab.rules, ability=ab,
                                             vars={"target": t}))]
            if answerable:
                options.append(Option(f"respond:c{obj.oid}:a{ab.index}",
                                      f"present {describe(game, obj)} {ability_label(ab)}", (obj, ab, answerable)))
    return options


def _label(game: Play, item: dict[str, Any]) -> str:
    card = item["card"]
    name = describe(game, card) if isinstance(card, GameObject) else "?"
    return name if item["kind"] == "card" else f"{item['kind']} of {name}"


def window(game: Play, item: dict[str, Any], ctx: Ctx) -> Any:
    """Run the response window for `item` (something being played); returns whether it was negated."""
    cfg = game.rb.timing.get("responses")
    if not cfg or not game.responses_possible or game.state.halted():
        return bool(item["negated"])
    rules = tuple(cfg.get("rules", ()))
    stack: list[tuple[dict[str, Any], GameObject, Ability, dict[str, Any], int]] = []
    while not game.state.halted():
        presented = False
        for p in _players(game, ctx):
            options = _options(game, p, [item] + [r[0] for r in stack])
            if not options:
                continue
            options.append(Option("pass", "pass", None))
            (choice,) = yield from ask(game, Decision(p, "one", "present_response", options, 1, 1, rules), ctx)
            if choice is None:
                continue
            obj, ab, answerable = choice
            target = answerable[0]
            if len(answerable) > 1:
                (target,) = yield from ask(game, Decision(
                    p, "one", "response_target",
                    [Option(f"target{i}", _label(game, t), t) for i, t in enumerate(answerable)], 1, 1, rules), ctx)
            actx = Ctx(game, None, you=p, this=obj, rules=ab.rules, ability=ab, vars={"target": target})
            log(game, "respond", f"P{p + 1} presents {ability_label(ab)} of {describe(game, obj)} against "
                                 f"{_label(game, target)}", ab.rules)
            yield from pay_cost(game, ab.cost, actx)
            count_use(game, obj, ab)
            stack.append((playing("response", obj, p, ab), obj, ab, target, p))
            presented = True
            break
        if not presented:
            break
    for resp, obj, ab, target, p in reversed(stack):
        if game.state.halted():
            break
        now = game.state.objects.get(obj.oid)
        if resp["negated"]:
            log(game, "respond", f"{ability_label(ab)} of {describe(game, obj)} was negated and does nothing", ab.rules)
            continue
        # 11.2.3.4: its condition keywords are checked again, on the card as it last was if its cost
        # moved it (a cancel that discards itself).
        if ab.conditions and not conditions_hold(game, now or obj, ab, ab.conditions):
            log(game, "respond", f"{ability_label(ab)} of {describe(game, obj)}: its conditions no longer hold",
                ab.rules)
            continue
        log(game, "respond", f"{ability_label(ab)} of {describe(game, obj)} is processed", ab.rules)
        yield from run_effect(game, ab, Ctx(game, None, you=p, this=now or obj, rules=ab.rules, ability=ab,
                                            vars={"target": target}))
    return bool(item["negated"])
