"""Control-flow verbs: sequencing, conditions, loops, variables and template calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.model.vocabulary import Gen
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.timing.events import simultaneously
from interpreter.timing.runner import ask_yes_no, run, template_params
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play


@verb("if")
def v_if(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run `then` when `cond` holds, else `else`.

    Example:
        if:
          cond: "count(cards('hand', you)) == 0"
          then: [{move: {cards: "top('deck', you, 1)", to: hand}}]
          else: [{log: {message: "'the hand is not empty'"}}]
    """
    branch = a.get("then", ()) if a["cond"](ctx) else a.get("else", ())
    if branch:
        yield from run(game, branch, ctx, tail=True)


@verb("repeat")
def v_repeat(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Repeat `do` `times` times (none when <= 0, 1.3.2.2-style); `may_stop` names a player who may
    end the loop before each repetition ("up to N"); `until` ends it when it holds.

    Example:
        repeat: {times: 3, may_stop: you, do: [{move: {cards: "top('deck', you, 1)", to: hand}}]}
    """
    n = a["times"](ctx) or 0
    stopper = a.get("may_stop")
    until = a.get("until")
    for _ in range(n):
        if stopper is not None:
            p = stopper(ctx)
            if p is not None:
                answer = yield from ask_yes_no(game, p, "continue", ctx)
                if not answer:
                    return
        yield from run(game, a["do"], ctx)
        if game.state.over() or (until is not None and until(ctx)):
            return


@verb("for_each")
def v_for_each(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run `do` once per item of a list, binding it to `as`. `simultaneous`: the runs are one step
    done for every item at the same time ("each player ..."): interrupts wait until all are done.

    Example:
        for_each: {in: "players()", as: each_player, simultaneous: true,
                   do: [{shuffle: {zone: deck, player: each_player}}]}
    """
    items = a["in"](ctx)
    if items is None:
        return
    if not isinstance(items, list):
        items = [items]
    if a.get("simultaneous"):
        yield from simultaneously(game, _each(game, a, items, ctx), ctx)
    else:
        yield from _each(game, a, items, ctx)


def _each(game: Play, a: dict[str, Any], items: list[Any], ctx: Ctx) -> Gen:
    name = a["as"]
    for item in list(items):
        inner = ctx.child(vars={name: item})
        yield from run(game, a["do"], inner)
        if game.state.over():
            return


@verb("let")
def v_let(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Bind names in the current scope (all values are computed before any is bound).

    Example:
        let: {best: "max(cards('field', you) select it.power)", seen_turn: turn}
    """
    values = {k: f(ctx) for k, f in a.items()}
    for k, v in values.items():
        ctx.set(k, v)
    return
    yield


@verb("set_var")
def v_set_var(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Set a game variable, visible to every later step until changed.

    Example:
        set_var: {name: rounds_left, value: 3}
    """
    game.state.vars[a["name"]] = a["value"](ctx)
    touched(game)
    return
    yield


@verb("call")
def v_call(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run an effect template with parameters evaluated in the caller's scope.

    Example:
        call: {template: discard_cards, cards: "cards('hand', you) where it.power < 2"}
    """
    tpl = game.rb.templates[a["template"]]
    params = template_params(tpl, a, ctx)
    # The log cites both the rule that asked for the action and the rules defining it.
    rules = ctx.rules + tuple(r for r in tpl.rules if r not in ctx.rules) if len(ctx.rules) <= 3 else tpl.rules
    inner = ctx.child(vars=params, rules=rules)
    yield from run(game, tpl.steps, inner, tail=True)


@verb("log")
def v_log(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Write a line to the game log. `brief`: the line as the brief log for people says it (names
    of players and cards in words), when `message` reads as the engine's record.

    Example:
        log: {message: "'deck left: ' + str(count(cards('deck', you)))"}
    """
    if "brief" in a and game.logging:
        log(game, "note", str(a["message"](ctx)), ctx.rules, brief=str(a["brief"](ctx)))
    else:
        log(game, "note", str(a["message"](ctx)), ctx.rules)
    return
    yield


@verb("cite")
def v_cite(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run steps that apply particular rules, so the log names them (e.g. one rule of a procedure).

    Example:
        cite: {rules: ["6"], do: [{shuffle: {zone: deck, player: you}}]}
    """
    yield from run(game, a["do"], ctx.child(rules=a["rules"]), tail=True)
