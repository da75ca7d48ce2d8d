"""Control-flow verbs: sequencing, conditions, loops, variables and template calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.vocabulary import Gen
from interpreter.table.context import Ctx
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.engine.game import Game


@verb("if")
def v_if(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run `then` when `cond` holds, else `else`.

    Example:
        if:
          cond: "count(cards('hand', you)) == 0"
          then: [{move: {cards: "top('deck', you, 1)", to: hand}}]
          else: [{log: {message: "'the hand is not empty'"}}]
    """
    branch = a.get("then", ()) if a["cond"](ctx) else a.get("else", ())
    if branch:
        yield from game.run(branch, ctx, tail=True)


@verb("repeat")
def v_repeat(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
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
                answer = yield from game.ask_yes_no(p, "continue", ctx)
                if not answer:
                    return
        yield from game.run(a["do"], ctx)
        if game.state.over() or (until is not None and until(ctx)):
            return


@verb("for_each")
def v_for_each(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
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
        yield from game.simultaneously(_each(game, a, items, ctx), ctx)
    else:
        yield from _each(game, a, items, ctx)


def _each(game: Game, a: dict[str, Any], items: list[Any], ctx: Ctx) -> Gen:
    name = a["as"]
    for item in list(items):
        inner = ctx.child(vars={name: item})
        yield from game.run(a["do"], inner)
        if game.state.over():
            return


@verb("let")
def v_let(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
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
def v_set_var(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Set a game variable, visible to every later step until changed.

    Example:
        set_var: {name: rounds_left, value: 3}
    """
    game.state.vars[a["name"]] = a["value"](ctx)
    game.touched()
    return
    yield


def template_params(tpl: Any, a: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
    """A template call's parameters, evaluated in the caller's scope: each argument given, and the
    default of each parameter the call leaves out (evaluated only then)."""
    params = {name: (a[name] if name in a and name != "template" else default)(ctx)
              for name, default in tpl.defaults.items()}
    for k, f in a.items():
        if k != "template" and k not in params:
            params[k] = f(ctx)
    return params


@verb("call")
def v_call(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run an effect template with parameters evaluated in the caller's scope.

    Example:
        call: {template: discard_cards, cards: "cards('hand', you) where it.power < 2"}
    """
    tpl = game.rb.templates[a["template"]]
    params = template_params(tpl, a, ctx)
    # The log cites both the rule that asked for the action and the rules defining it.
    rules = ctx.rules + tuple(r for r in tpl.rules if r not in ctx.rules) if len(ctx.rules) <= 3 else tpl.rules
    inner = ctx.child(vars=params, rules=rules)
    yield from game.run(tpl.steps, inner, tail=True)


@verb("log")
def v_log(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Write a line to the game log.

    Example:
        log: {message: "'deck left: ' + str(count(cards('deck', you)))"}
    """
    game.log("note", str(a["message"](ctx)), ctx.rules)
    return
    yield


@verb("cite")
def v_cite(game: Game, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Run steps that apply particular rules, so the log names them (e.g. one rule of a procedure).

    Example:
        cite: {rules: ["6"], do: [{shuffle: {zone: deck, player: you}}]}
    """
    yield from game.run(a["do"], ctx.child(rules=a["rules"]), tail=True)
