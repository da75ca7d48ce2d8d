"""Changes to the state and what they make stale: every change bumps the game's version (facts that
cannot tell what they read are kept for one version); a change to a zone's cards or states forgets
the derived facts that read that place (table/derived.py), and the cards whose abilities work when
abilities work there; a change outside the zones forgets those that read GLOBAL; continuous effects
that lapse are observed after every change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.state.objects import GameObject
from interpreter.table.derived import ABILITY_ZONES, GLOBAL

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def place_changed(game: Play, zone: str, player: int | None, abilities: bool = True) -> None:
    """A zone's cards, or their states, changed: what was derived from that zone is stale
    (`abilities`: and which abilities work there may have changed)."""
    derived = game.derived
    derived.changed((zone, player))
    if abilities and zone in game.ability_zone_set:
        derived.changed(ABILITY_ZONES)


def touched(game: Play, target: Any = None) -> None:
    """Record a change made outside move/set_state: to a card (its zone) or to the game."""
    game.version += 1
    if isinstance(target, GameObject):
        place_changed(game, target.zone, target.zone_player)
    else:
        game.global_version += 1
        game.derived.changed(GLOBAL)
    if game.continuous.lapse:
        game.continuous.observe()
