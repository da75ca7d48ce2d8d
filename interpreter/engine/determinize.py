"""Worlds a player may picture: the game as one player knows it, with what they cannot see filled in.

A search agent that played its tries on a plain fork would know the opponent's hand and every
deck's order. `redeal_hidden` turns a copied state into one world the player cannot tell from
the real one: the cards hidden from them (by `table/views.can_see`: hidden zones, face-down cards not
known to them) swap identities at random with the other hidden cards that started the game in
the same owner's same deck zone (a card from the main deck can only be where main-deck cards
go), and the game's random generator is reseeded, so future draws and shuffles are unknown too.

What it does not use: anything the player might infer from the opponent's past choices, and
restrictions the rules put on where a card type may lie face down. The world is still a state
the engine can play; it is a sample, not a belief.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from interpreter.state.objects import GameObject, GameState
from interpreter.table.views import can_see

if TYPE_CHECKING:
    from interpreter.engine.game import Game


def deck_zones(decks: list[dict[str, list[str]]]) -> dict[tuple[int, str], str]:
    """(owner, card id) -> the deck zone that owner's copies of the card started in; a card that
    started in two zones is left out (its copies are never swapped)."""
    seen: dict[tuple[int, str], set[str]] = {}
    for owner, deck in enumerate(decks):
        for zone, ids in deck.items():
            for cid in ids:
                seen.setdefault((owner, cid), set()).add(zone)
    return {key: next(iter(zones)) for key, zones in seen.items() if len(zones) == 1}


def redeal_hidden(game: Game, state: GameState, player: int, rng: random.Random) -> int:
    """Re-deal, in `state` (a copy of `game`'s), the cards `player` cannot see; returns how many
    took part. Cards an effect or pending ability refers to keep their identity."""
    pools = deck_zones(game.decks)
    kept = {p.source for p in state.pending} | {e.source for e in state.effects}
    groups: dict[tuple[int, str], list[GameObject]] = {}
    for oid in sorted(state.objects):
        obj = state.objects[oid]
        if oid in kept or can_see(game, obj, player):
            continue
        pool = pools.get((obj.owner, obj.card_id))
        if pool is not None:
            groups.setdefault((obj.owner, pool), []).append(obj)
    moved = 0
    for key in sorted(groups):
        objs = groups[key]
        # The identities are drawn from their sorted list, so the world depends only on what the
        # player knows (which cards are hidden where), never on which hidden card is really which.
        ids = sorted(o.card_id for o in objs)
        rng.shuffle(ids)
        for obj, cid in zip(objs, ids, strict=True):
            obj.card_id = cid
        moved += len(objs)
    state.rng = random.Random(rng.getrandbits(64))
    return moved
