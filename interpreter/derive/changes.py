"""Changes to the state and what they make stale: every change bumps the game's version (which
keys the caches of derived values); a change to a zone's cards or states marks the rule-process
bindings that read the zone to be checked again, and the cards whose abilities work to be found
again when abilities work there; continuous effects that lapse are observed after every change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.state.objects import GameObject

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def place_changed(game: Play, zone: str, player: int | None, abilities: bool = True) -> None:
    """A zone's cards, or their states, changed: what was derived from that zone is stale
    (`abilities`: and which abilities work there may have changed)."""
    game.idle.changed((zone, player))
    if abilities and zone in game.ability_zone_set:
        game.ability_version += 1


def touched(game: Play, target: Any = None) -> None:
    """Record a change made outside move/set_state: to a card (its zone) or to the game."""
    game.version += 1
    if isinstance(target, GameObject):
        place_changed(game, target.zone, target.zone_player)
    else:
        game.global_version += 1
    if game.continuous.lapse:
        game.continuous.observe()
