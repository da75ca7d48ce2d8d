"""The invariant checker catches each kind of broken state it is there for (each test breaks a
sound game in one way), and stays quiet on the sound one."""

from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.engine.invariants import InvariantError, check_invariants


@pytest.fixture
def game(lovelive) -> Game:
    rb, cards, decks = lovelive
    g = Game(rb, cards, decks, seed=3, log=False)
    d = g.advance()
    while d is not None and d.kind != "play":  # up to the first play timing
        g.answer([d.options[0].id] if d.min else [])
        d = g.advance()
    assert d is not None
    return g


def _first(g: Game, zone: str) -> int:
    return next(ids[0] for (z, _), ids in g.state.zones.items() if z == zone and ids)


def test_a_sound_game_passes(game: Game):
    d = game.advance()
    assert check_invariants(game, d, None) == len(game.state.objects)


def test_a_card_in_two_zones(game: Game):
    oid = _first(game, "hand")
    game.state.zones[("waiting_room", 0)].append(oid)
    with pytest.raises(InvariantError, match=f"card #{oid} is in two zones"):
        check_invariants(game, game.advance(), None)


def test_a_card_that_does_not_know_where_it_is(game: Game):
    oid = _first(game, "hand")
    game.state.objects[oid].zone = "waiting_room"
    with pytest.raises(InvariantError, match=f"card #{oid} in hand@0 does not know it is there"):
        check_invariants(game, game.advance(), None)


def test_a_card_in_no_zone(game: Game):
    oid = _first(game, "hand")
    game.state.zones[("hand", 0)].remove(oid)
    with pytest.raises(InvariantError, match=r"1 card\(s\) are in no zone"):
        check_invariants(game, game.advance(), None)


def test_a_card_that_vanished(game: Game):
    n = len(game.state.objects)
    oid = _first(game, "hand")
    game.state.zones[("hand", 0)].remove(oid)
    del game.state.objects[oid]
    with pytest.raises(InvariantError, match=f"card count changed from {n} to {n - 1}"):
        check_invariants(game, game.advance(), n)


def test_a_card_held_under_a_card_in_another_zone(game: Game):
    held = game.state.objects[_first(game, "hand")]
    holder = _first(game, "main_deck")
    held.holder = holder
    with pytest.raises(InvariantError, match=rf"card #{held.oid} in hand@\d is held under #{holder} in main_deck@\d"):
        check_invariants(game, game.advance(), None)
    held.holder = held.oid
    with pytest.raises(InvariantError, match=rf"card #{held.oid} in hand@\d is held under #{held.oid} in hand"):
        check_invariants(game, game.advance(), None)


def test_a_view_that_shows_a_hidden_card(game: Game, monkeypatch: pytest.MonkeyPatch):
    real = Game.view

    def leaky(self: Game, player: int) -> dict:
        v = real(self, player)
        for cards in v["zones"].values():
            for c in cards:
                c["card"] = self.state.objects[c["oid"]].card_id  # every card face up
        return v

    monkeypatch.setattr(Game, "view", leaky)
    with pytest.raises(InvariantError, match=r"the view of P\d shows hidden card #\d+"):
        check_invariants(game, game.advance(), None)


def test_a_rulebook_invariant(game: Game):
    """Two members in one area breaks the rulebook's own one_member_per_area invariant."""
    d = game.advance()
    p = d.player
    area = next(z for (z, q) in game.state.zones if z.startswith("member_") and q == p)
    members = [i for (z, q), ids in game.state.zones.items() if z == "hand" and q == p for i in ids
               if game.cards[game.state.objects[i].card_id].type == "member"][:2]
    assert len(members) == 2
    for oid in members:
        game.state.zones[("hand", p)].remove(oid)
        game.state.zones[(area, p)].append(oid)
        o = game.state.objects[oid]
        o.zone, o.zone_player = area, p
    with pytest.raises(InvariantError, match=r"invariant one_member_per_area \(4\.5\.1, 10\.4\.1\) fails"):
        check_invariants(game, d, None)


def test_a_game_that_stopped_without_a_result(game: Game):
    with pytest.raises(InvariantError, match="the game stopped without a legal result: None"):
        check_invariants(game, None, None)
