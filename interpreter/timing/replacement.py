"""Replacement effects: when an event would happen, something else happens instead.

Each replacement applies at most once to the same event; among several, the affected card's
master chooses which applies first; an optional replacement asks its master.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.decisions import Decision, Option

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def try_replace(game: Game, event: dict[str, Any], ctx: Ctx) -> Any:
    applied = event.setdefault("_applied", set())
    cands = []
    for eff in game.state.effects:
        if eff.kind != "replacement" or eff.eid in applied or eff.spec.get("event") != event["type"]:
            continue
        ectx = Ctx(game, None, you=eff.master, this=game.state.objects.get(eff.source), event=event,
                   rules=eff.spec.get("rules", ()), vars=dict(eff.bindings))
        cond = eff.spec.get("if")
        if cond is None or cond(ectx):
            cands.append((eff, ectx))
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
    eff.uses += 1
    if eff.spec.get("once"):
        game.state.effects.remove(eff)
    yield from game.run(eff.spec.get("instead", ()), ectx)
    return True
