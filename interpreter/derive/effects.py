"""Lasting effects as they apply: whether one waits outside its owner's turn, and the scope its
expressions read (what its creator saw)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.state.objects import Effect
from interpreter.table.context import Ctx

if TYPE_CHECKING:
    from interpreter.table.table import Table


def effect_dormant(game: Table, eff: Effect) -> bool:
    """Whether an effect waits outside its owner's turn: one of a duration that applies only while
    its owner takes the turn (`only_in_owner_turn`), now in another player's turn or in a part of
    the game that is nobody's (a node whose turn player is none)."""
    return bool(game.owner_turn_durations) and eff.owner is not None \
        and eff.duration in game.owner_turn_durations and eff.owner not in game.turn_team()


def effect_scope(game: Table, eff: Effect, event: dict[str, Any] | None = None, rules: tuple[str, ...] = ()) -> Ctx:
    """The scope an effect's expressions read whenever it applies, made of what its creator saw:
    its master (`you`), its source (`this`; as last known once it has left its zone), the variables
    of every scope around the step that created it, and its creator's event, unless the effect has
    an event of its own (a delayed trigger's or a replacement's: `event` is then that one)."""
    st = game.state
    return Ctx(game, None, you=eff.master, this=st.objects.get(eff.source) or st.lki.get(eff.source),
               event=eff.event if event is None else event, rules=rules, vars=dict(eff.bindings))
