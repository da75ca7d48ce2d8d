"""Which candidates a choice may offer: the rulebook's `choosing.unchoosable` entries leave out cards
that may not be chosen (a keyword keeping a card from being chosen by its opponent's effects).

A choice is "an effect's" while a card's ability is paid for or resolves (the context carries the
ability, through templates it calls); entries with `choices: all` restrict the rules' own choices
too. The choose verbs and payability both filter here, so an ability whose cost (or blocking
choice) only unchoosable cards could fill is not offered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.rulebook import CHOOSER
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx

if TYPE_CHECKING:
    from interpreter.derive.play import Play

def choosable(game: Play, candidates: list[Any], player: Any, ctx: Ctx) -> list[Any]:
    """The candidates `player` may choose here: cards for which no applicable entry's condition
    holds (other items, such as zones or numbers, always stay)."""
    entries = game.rb.unchoosable
    if not entries or not candidates:
        return candidates
    by_effect = ctx.ability is not None
    applicable = [e for e in entries if by_effect or e.all_choices]
    if not applicable:
        return candidates
    scope = Ctx(game, ctx, vars={CHOOSER: player})
    return [c for c in candidates
            if not (isinstance(c, GameObject) and any(e.cond(scope.with_it(c)) for e in applicable))]


__all__ = ["choosable"]
