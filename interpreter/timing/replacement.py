"""Replacement effects: when an event would happen, something else happens instead.

They come from resolving effects (the `replacement` verb) and from continuous abilities whose
effect description names an `event` and what happens `instead` (a card's "when X would happen,
do Y instead"), while the ability works. Each replacement applies at most once to the same event;
among several, the affected card's master chooses which applies first; an optional replacement
asks its master.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.decisions import Decision, Option
from interpreter.state.objects import GameObject
from interpreter.timing.abilities import ability_objects, gate_ok

if TYPE_CHECKING:
    from interpreter.engine.game import Game


class _Printed:
    """A continuous ability that replaces, as a candidate beside the effects: its key in the event's
    applied set, its master, its description and its card."""

    __slots__ = ("eid", "master", "spec", "source_card", "obj")

    def __init__(self, obj: GameObject, index: int, spec: dict[str, Any]) -> None:
        self.eid = f"a{obj.oid}:{index}"
        self.master = obj.controller
        self.spec = spec
        self.source_card = obj.card_id
        self.obj = obj


def _printed(game: Game, event: dict[str, Any], applied: set[Any]) -> list[tuple[Any, Ctx]]:
    out: list[tuple[Any, Ctx]] = []
    for obj in ability_objects(game, None):
        for ab in game.abilities_of(obj):
            spec = ab.continuous
            if ab.kind != "continuous" or not spec or "instead" not in spec or spec.get("event") != event["type"] \
                    or f"a{obj.oid}:{ab.index}" in applied or not gate_ok(obj, ab, game):
                continue
            ectx = Ctx(game, None, you=obj.controller, this=obj, event=event, rules=ab.rules, ability=ab)
            cond = spec.get("if")
            if cond is None or cond(ectx):
                out.append((_Printed(obj, ab.index, spec), ectx))
    return out


def try_replace(game: Game, event: dict[str, Any], ctx: Ctx) -> Any:
    applied = event.setdefault("_applied", set())
    cands: list[tuple[Any, Ctx]] = []
    for eff in game.state.effects:
        if eff.kind != "replacement" or eff.eid in applied or eff.spec.get("event") != event["type"]:
            continue
        ectx = Ctx(game, None, you=eff.master, this=game.state.objects.get(eff.source), event=event,
                   rules=eff.spec.get("rules", ()), vars=dict(eff.bindings))
        cond = eff.spec.get("if")
        if cond is None or cond(ectx):
            cands.append((eff, ectx))
    if game.replacing_abilities:
        cands.extend(_printed(game, event, applied))
    if not cands:
        return False
    card = event.get("card")
    chooser = card.controller if card is not None else cands[0][0].master
    eff, ectx = cands[0]
    if len(cands) > 1:
        d = Decision(chooser, "one", "choose_replacement",
                     [Option(f"r{e.eid}", f"replacement from {e.source_card or 'the rules'}", (e, c))
                      for e, c in cands], 1, 1, ectx.rules)
        ((eff, ectx),) = yield from game.ask(d, ctx)
    applied.add(eff.eid)
    if eff.spec.get("optional"):
        yes = yield from game.ask_yes_no(eff.master, "apply_replacement", ectx)
        if not yes:
            return False
    game.log("replace", f"{event['type']} is replaced", ectx.rules)
    if not isinstance(eff, _Printed):
        eff.uses += 1
        if eff.spec.get("once"):
            game.state.effects.remove(eff)
    yield from game.run(eff.spec.get("instead", ()), ectx)
    return True
