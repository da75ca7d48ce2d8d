"""Whether a cost can be paid in full, and whether an ability's choices let it be played.

Costs are all or nothing in every game: a cost is payable only if all of it can be done now. A
cost may be written with any steps (a template, a choice, a move, a state change), so payability
is worked out from the steps themselves, by a dry run that changes nothing:

- a `choose` needs at least its minimum of candidates (cards already spent by an earlier step of
  the same cost do not count twice, cards its chooser may not choose, `choosing.unchoosable`, do
  not count at all); its name is bound to the first candidates so later steps can be judged;
- a `choose_cover` needs its candidates (less cards spent) to cover its requirements; its name is
  bound to one such cover;
- a `move` or `set_state` needs its cards still in play, and a state change needs a card not
  already in that state (an action that would change nothing is not done, so it pays nothing);
  a `move` needs its cards allowed into its zone (placement restrictions, `owner_locked`), and a
  `swap` both its cards allowed into each other's places;
- a template call is judged by the template's own `can` when it states one, else by its steps;
- a `replaceable` event is doable when its `do` is, or when a replacement effect that would apply
  to it can be carried out in its place (its `instead` steps, or its `change` made to the event):
  an optional action that cannot be done is done by doing what a replacement of it would do
  (a rule some games have), and the payment then takes that replacement (abilities.pay_cost);
- `let`, `if` and `cite` are followed; every other step is taken to be doable.

A step whose values depend on what is only known while paying (it cannot be evaluated now) is
judged when it is paid, as before.

Which choices keep an ability from being played is the rulebook's decision (`choosing.short_choice`):
`allowed` (never: only costs stop a play), `blocks_partial` (a set-number choice that can be only
partly filled stops it; one that cannot be filled at all is skipped) or `blocks` (any set-number
choice that cannot be filled stops it). Cards chosen from a zone the chooser cannot fully see never
stop a play: such a search may find nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from interpreter.model.vocabulary import Step
from interpreter.state.objects import GameObject, as_objects
from interpreter.table.context import Ctx
from interpreter.table.functions import cover_choices, cover_symbols, coverable, f_distinct_count, field_values
from interpreter.table.views import zone_fully_visible
from interpreter.timing import moves  # a module import: moves, replacement and payability use one another
from interpreter.timing.choosable import choosable
from interpreter.timing.runner import template_params

if TYPE_CHECKING:
    from interpreter.derive.play import Play

SHORT_CHOICE: Final = ("allowed", "blocks_partial", "blocks")
"""The values of `choosing.short_choice`, in order of strictness."""


def _pool(step: Step, ctx: Ctx) -> list[Any]:
    cands = step.args["from"](ctx)
    return cands if isinstance(cands, list) else ([] if cands is None else [cands])


def _candidates(game: Play, step: Step, ctx: Ctx, spent: set[int], pool: list[Any] | None = None) -> list[Any]:
    """What a `choose` step may pick now: its pool less cards spent, filtered by `where`, less cards
    its chooser may not choose (`choosing.unchoosable`)."""
    a = step.args
    cands = _pool(step, ctx) if pool is None else pool
    if spent:
        cands = [c for c in cands if not (isinstance(c, GameObject) and c.oid in spent)]
    if "where" in a:
        cond, name = a["where"], a["as"]
        cands = [c for c in cands if cond(ctx.child(vars={name: c}))]
    return choosable(game, cands, a["player"](ctx), ctx) if game.rb.unchoosable else cands


def _available(step: Step, ctx: Ctx, cands: list[Any]) -> int:
    """How many of the candidates can be chosen together (with `distinct`, only cards giving
    different values of a field)."""
    if "distinct" in step.args:
        return f_distinct_count(ctx, cands, step.args["distinct"](ctx))
    return len(cands)


def _doable(game: Play, steps: tuple[Step, ...], ctx: Ctx, spent: set[int]) -> bool:
    for step in steps:
        try:
            ok = _step_doable(game, step, ctx, spent)
        except Exception:  # noqa: BLE001 - needs values bound while paying: judged when it is paid
            ok = True
        if not ok:
            return False
    return True


def _step_doable(game: Play, step: Step, ctx: Ctx, spent: set[int]) -> bool:
    verb, a = step.verb, step.args
    if verb == "choose":
        cands = _candidates(game, step, ctx, spent)
        lo = a["min"](ctx) if "min" in a else 1
        if _available(step, ctx, cands) < lo:
            return False
        ctx.vars[a["as"]] = cands[:max(lo, 0)]
        return True
    if verb == "choose_cover":
        cands = [c for c in _pool(step, ctx) if isinstance(c, GameObject) and c.oid not in spent]
        if game.rb.unchoosable:
            cands = choosable(game, cands, a["player"](ctx), ctx)
        specific, wild = cover_symbols(a["requirements"](ctx), a.get("wildcard"))
        pays = [field_values(ctx, c, a["field"]) for c in cands]
        if not coverable(pays, specific, wild):
            return False
        left, cover = list(range(len(cands))), []
        while specific or wild > 0:  # one cover, for the steps after it to be judged
            i = cover_choices(pays, left, specific, wild)[0]
            left.remove(i)
            cover.append(cands[i])
            specific, wild = (specific[1:], wild) if specific else ([], wild - 1)
        ctx.vars[a["as"]] = cover
        return True
    if verb == "move" or verb == "set_state":
        objs = as_objects(a["cards"](ctx))
        live = game.state.objects
        for o in objs:
            if o.oid not in live or o.oid in spent:
                return False
            if verb == "set_state" and (a["state"] not in o.states or o.states[a["state"]] == a["value"]):
                return False
        if verb == "move":
            if not _may_enter(game, a, objs, ctx):
                return False
            spent.update(o.oid for o in objs)
        return True
    if verb == "swap":
        xs, ys = as_objects(a["a"](ctx)), as_objects(a["b"](ctx))
        if len(xs) != 1 or len(ys) != 1 or xs[0].oid in spent or ys[0].oid in spent:
            return False
        x, y = xs[0], ys[0]
        for card, other in ((x, y), (y, x)):
            if moves.move_refusal(game, card, other.zone, other.zone_player, ctx, kind=a.get("kind"), leaving=(other,),
                                  replacements=True) is not None:
                return False
        spent.update((x.oid, y.oid))
        return True
    if verb == "call":
        tpl = game.rb.templates[a["template"]]
        inner = ctx.child(vars=template_params(tpl, a, ctx))
        if tpl.can is not None:
            return bool(tpl.can(inner))
        return _doable(game, tpl.steps, inner, spent)
    if verb == "replaceable":
        event = event_of(a, ctx)
        trial = set(spent)
        ok = event_happens(game, a, event, ctx, trial)
        for eff, ectx in [] if ok else _replacements(game, event):
            trial = set(spent)
            if replacement_doable(game, a, event, eff.spec, ectx, ctx, trial):
                ok = True
                break
        if ok:
            spent |= trial
        return ok
    if verb == "let":
        for k, f in a.items():
            ctx.vars[k] = f(ctx)
        return True
    if verb == "if":
        branch = a.get("then") if a["cond"](ctx) else a.get("else")
        return _doable(game, branch or (), ctx.child(), spent)
    if verb == "cite":
        return _doable(game, a["do"], ctx.child(), spent)
    return True


def _may_enter(game: Play, a: dict[str, Any], objs: list[GameObject], ctx: Ctx) -> bool:
    """Whether a `move` step's cards may all enter its zone: none is kept out by a placement
    restriction or, for a zone the step names of another player, by `zone_rules.owner_locked`."""
    if not game.rb.placement and not game.owner_locked:
        return True
    zone = a["to"] if "to" in a else a["to_expr"](ctx)
    named = "player" in a
    player = a["player"](ctx) if named else ctx.you
    return all(moves.move_refusal(game, o, zone, player, ctx, kind=a.get("kind"), named=named) is None for o in objs)


def event_of(a: dict[str, Any], ctx: Ctx) -> dict[str, Any]:
    """The event a step naming an `event` and its `fields` (`replaceable`, `resolve_abilities`) raises,
    its fields as they are now."""
    event: dict[str, Any] = {"type": a["event"]}
    for k, f in (a.get("fields") or {}).items():
        event[k] = f(ctx)
    return event


def event_happens(game: Play, a: dict[str, Any], event: dict[str, Any], ctx: Ctx,
                  spent: set[int] | None = None) -> bool:
    """Whether a `replaceable` step's `do` can be carried out for this event now (its `as` bound)."""
    name = a.get("as")
    inner = ctx.child(vars={name: event} if name else None)
    return _doable(game, a.get("do", ()), inner, set() if spent is None else spent)


def replacement_doable(game: Play, a: dict[str, Any], event: dict[str, Any], spec: dict[str, Any], ectx: Ctx,
                       ctx: Ctx, spent: set[int] | None = None) -> bool:
    """Whether a replacement of a `replaceable` step's event could be carried out now: its `before`
    steps, then its `instead` steps, or the event with its `change` made."""
    spent = set() if spent is None else spent
    if not _doable(game, spec.get("before", ()), ectx.child(), spent):
        return False
    if "instead" in spec:
        return _doable(game, spec["instead"], ectx.child(), spent)
    try:
        changed = dict(event)
        changed.update({k: f(ectx) for k, f in (spec.get("change") or {}).items()})
    except Exception:  # noqa: BLE001 - a value only known while it happens: judged then
        return True
    return event_happens(game, a, changed, ctx, spent)


def _replacements(game: Play, event: dict[str, Any]) -> list[tuple[Any, Ctx]]:
    """The replacement effects that would apply to an event now (none without any effect)."""
    if not (game.state.effects or game.replacing_abilities):
        return []
    from interpreter.timing.replacement import candidates

    return candidates(game, event)


_CALL_DEPTH = 8  # templates calling templates: deeper than any rulebook nests them


def _template_ctx(game: Play, a: dict[str, Any], ctx: Ctx) -> Ctx | None:
    """The scope a template call runs in, or None when its arguments depend on values bound only
    while the effect resolves (decided then)."""
    try:
        return ctx.child(vars=template_params(game.rb.templates[a["template"]], a, ctx))
    except Exception:  # noqa: BLE001 - e.g. a name an earlier step binds
        return None


def can_pay(game: Play, steps: tuple[Step, ...], ctx: Ctx) -> bool:
    """Whether every step of a cost can be done now (nothing is changed by asking)."""
    if not steps:
        return True
    return _doable(game, steps, ctx.child(), set())


def choices_allow_play(game: Play, effect: tuple[Step, ...], ctx: Ctx, depth: int = 0) -> bool:
    """Whether the effect's own set-number choices let its ability be played, by the rulebook's
    `choosing.short_choice` (see the module docstring). Only the effect's top-level choices are
    judged, and those of the templates with `text_choices` it calls at its top level (a keyword's
    words written once as a template are the card's own text; a game action the text names, such
    as "recover 2", chooses as the action, not as the text): later ones depend on what earlier
    steps do."""
    rule = (game.rb.timing.get("choosing") or {}).get("short_choice", "allowed")
    if rule == "allowed":
        return True
    for step in effect:
        if step.verb == "call":
            tpl = game.rb.templates[step.args["template"]]
            if tpl.text_choices and depth < _CALL_DEPTH:
                inner = _template_ctx(game, step.args, ctx)
                if inner is not None and not choices_allow_play(game, tpl.steps, inner, depth + 1):
                    return False
            continue
        if step.verb != "choose":
            continue
        a = step.args
        try:
            lo = a["min"](ctx) if "min" in a else 1
            if lo <= 0:
                continue  # "up to N": any number, none included
            pool = _pool(step, ctx)
            player = a["player"](ctx)
            if any(isinstance(c, GameObject) and not zone_fully_visible(game, c, player) for c in pool):
                continue  # a search of cards the chooser cannot all see may find nothing
            cands = _candidates(game, step, ctx, set(), pool)
        except Exception:  # noqa: BLE001 - depends on values bound while resolving: decided then
            continue
        if _available(step, ctx, cands) < lo and (rule == "blocks" or cands):
            return False
    return True


def cost_payable(game: Play, card: GameObject, kind: str) -> bool:
    """Whether the card has an ability of this kind (a rulebook ability kind) whose cost its controller
    can pay now (the function `payable`)."""
    engine_kind = game.kind_of.get(kind, kind)
    return any(can_pay(game, ab.cost, Ctx(game, None, you=card.controller, this=card, rules=ab.rules, ability=ab))
               for ab in game.abilities_of(card) if ab.kind == engine_kind)
