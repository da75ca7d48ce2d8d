"""Replacement effects: when an event would happen, something else happens instead, or it happens
changed.

They come from resolving effects (the `replacement` verb) and from continuous abilities whose
effect description names an `event` and what the replacement does (a card's "when X would happen,
do Y instead"), while the ability works. A replacement does one or more of:

- `instead`: steps run in place of the event, which does not happen;
- `change`: {FIELD: EXPR}: the event happens with these values (read over `event`, the event as
  earlier replacements left it);
- `before` / `after`: steps run before the event happens, or after it has happened.

Besides, it may be `optional` (its master is asked), have a `cost` (steps paid when it is taken; it
is offered only if they can be paid) and, as a card's ability, a use limit (keyword kind `limit`),
counted when it is taken. Each replacement applies at most once to the same event; among several,
the affected card's controller (or, with no card, the event's `player`) chooses which applies first,
then again among those left. Card moves are offered to them by timing/moves.move_card (`instead` only); any
other event a rulebook declares is offered by the `replaceable` verb.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.abilities import ability_objects, gate_ok, limit_ok
from interpreter.derive.effects import effect_dormant, effect_scope
from interpreter.model.rulebook import REPLACING
from interpreter.state.decisions import Decision, Option
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.timing.abilities import count_use, pay_cost
from interpreter.timing.payability import can_pay, event_happens, replacement_doable
from interpreter.timing.runner import ask, ask_yes_no, run

if TYPE_CHECKING:
    from interpreter.derive.play import Play



class _Printed:
    """A continuous ability that replaces, as a candidate beside the effects: its key in the event's
    applied set, its master, its description and its card."""

    __slots__ = ("eid", "master", "spec", "source_card", "obj", "ab")

    def __init__(self, obj: GameObject, ab: Any, spec: dict[str, Any]) -> None:
        self.eid = f"a{obj.oid}:{ab.index}"
        self.master = obj.controller
        self.spec = spec
        self.source_card = obj.card_id
        self.obj = obj
        self.ab = ab


def _printed(game: Play, event: dict[str, Any], applied: set[Any], keys: tuple[str, ...]) -> list[tuple[Any, Ctx]]:
    out: list[tuple[Any, Ctx]] = []
    for obj in ability_objects(game, None):
        for ab in game.abilities_of(obj):
            spec = ab.continuous
            if ab.kind != "continuous" or not spec or spec.get("event") != event["type"] \
                    or not any(k in spec for k in keys) or f"a{obj.oid}:{ab.index}" in applied \
                    or not gate_ok(obj, ab, game) or not limit_ok(game, obj, ab):
                continue
            ectx = Ctx(game, None, you=obj.controller, this=obj, event=event, rules=ab.rules, ability=ab)
            cond = spec.get("if")
            if (cond is None or cond(ectx)) and _payable(game, spec, ectx):
                out.append((_Printed(obj, ab, spec), ectx))
    return out


def _payable(game: Play, spec: dict[str, Any], ectx: Ctx) -> bool:
    """A replacement with a cost is offered only if the cost can be paid now (an optional one whose
    choice cannot be made does not apply)."""
    cost = spec.get("cost")
    return not cost or can_pay(game, cost, ectx)


def _candidates(game: Play, event: dict[str, Any], applied: set[Any],
                keys: tuple[str, ...] = REPLACING) -> list[tuple[Any, Ctx]]:
    cands: list[tuple[Any, Ctx]] = []
    for eff in game.state.effects:
        if eff.kind != "replacement" or eff.eid in applied or eff.spec.get("event") != event["type"] \
                or effect_dormant(game, eff):
            continue
        ectx = effect_scope(game, eff, event, eff.spec.get("rules", ()))
        cond = eff.spec.get("if")
        if (cond is None or cond(ectx)) and _payable(game, eff.spec, ectx):
            cands.append((eff, ectx))
    if game.replacing_abilities:
        cands.extend(_printed(game, event, applied, keys))
    return cands


def candidates(game: Play, event: dict[str, Any]) -> list[tuple[Any, Ctx]]:
    """Every replacement effect that would apply to this event now (each with its context)."""
    return _candidates(game, event, set())


def _chooser(event: dict[str, Any], cands: list[tuple[Any, Ctx]]) -> int:
    card = event.get("card")
    if isinstance(card, GameObject):
        return card.controller
    player = event.get("player")
    if isinstance(player, int) and not isinstance(player, bool):
        return player
    return int(cands[0][0].master)


def _pick(game: Play, event: dict[str, Any], cands: list[tuple[Any, Ctx]], ctx: Ctx) -> Any:
    """The replacement that applies next: the only one, or the one the affected player chooses."""
    if len(cands) == 1:
        return cands[0]
    d = Decision(_chooser(event, cands), "one", "choose_replacement",
                 [Option(f"r{e.eid}", f"replacement from {e.source_card or 'the rules'}", (e, c))
                  for e, c in cands], 1, 1, cands[0][1].rules)
    (picked,) = yield from ask(game, d, ctx)
    return picked


def _take(game: Play, eff: Any, ectx: Ctx, ask: bool = True) -> Any:
    """Ask an optional replacement's master (unless `ask` is off: it is the only way), pay its cost
    and count its use; returns whether it is taken."""
    spec = eff.spec
    if spec.get("optional") and ask:
        yes = yield from ask_yes_no(game, eff.master, "apply_replacement", ectx)
        if not yes:
            return False
    if spec.get("cost"):
        yield from pay_cost(game, spec["cost"], ectx)
    if isinstance(eff, _Printed):
        count_use(game, eff.obj, eff.ab)
    else:
        eff.uses += 1
        if spec.get("once") and eff in game.state.effects:
            game.state.effects.remove(eff)
    return True


def would_replace(game: Play, event: dict[str, Any]) -> bool:
    """Whether a replacement would take the place of this card move now (`instead`): one whose
    condition holds and whose cost can be paid, an optional one too (its master may take it). Asked
    without changing anything, before a swap moves either card."""
    return bool(_candidates(game, event, set(), ("instead",)))


def try_replace(game: Play, event: dict[str, Any], ctx: Ctx) -> Any:
    """A card move offered to the replacements that take its place (`instead`); returns whether one
    did."""
    applied = event.setdefault("_applied", set())
    cands = _candidates(game, event, applied, ("instead",))
    if not cands:
        return False
    eff, ectx = yield from _pick(game, event, cands, ctx)
    applied.add(eff.eid)
    if not (yield from _take(game, eff, ectx)):
        return False
    log(game, "replace", f"{event['type']} is replaced", ectx.rules)
    yield from run(game, eff.spec.get("before", ()), ectx)
    yield from run(game, eff.spec.get("instead", ()), ectx)
    return True


def offer(game: Play, event: dict[str, Any], ctx: Ctx, step: dict[str, Any] | None = None) -> Any:
    """An event about to happen, offered to every replacement that applies to it, one at a time in
    the affected player's order, each at most once. Returns (whether it was replaced by `instead`,
    the `after` steps to run once it has happened, each with its context); `event` holds the values
    it happens with. `step` (the arguments of the `replaceable` step raising it, given while a cost
    is paid) says the event must happen: while its own steps cannot be carried out, only the
    replacements that can carry it out are offered, and an optional one is taken without asking
    (the cost was payable that way, interpreter/timing/payability.py)."""
    applied = event.setdefault("_applied", set())
    afters: list[tuple[Any, Ctx]] = []
    while not game.state.halted():
        cands = _candidates(game, event, applied)
        needed = step is not None and bool(cands) and not event_happens(game, step, event, ctx)
        if needed:
            assert step is not None
            cands = [(e, c) for e, c in cands if replacement_doable(game, step, event, e.spec, c, ctx)]
        if not cands:
            break
        eff, ectx = yield from _pick(game, event, cands, ctx)
        applied.add(eff.eid)
        if not (yield from _take(game, eff, ectx, ask=not needed)):
            continue
        spec = eff.spec
        yield from run(game, spec.get("before", ()), ectx)
        if "instead" in spec:
            log(game, "replace", f"{event['type']} is replaced", ectx.rules)
            yield from run(game, spec["instead"], ectx)
            return True, afters
        changed = {k: f(ectx) for k, f in (spec.get("change") or {}).items()}
        if changed:
            event.update(changed)
            log(game, "replace", f"{event['type']} is changed: "
                + ", ".join(f"{k} {_shown(v)}" for k, v in changed.items()), ectx.rules)
        if spec.get("after"):
            afters.append((spec["after"], ectx))
    return False, afters


def _shown(v: Any) -> str:
    return v.card_id if isinstance(v, GameObject) else str(v)
