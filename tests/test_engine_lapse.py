"""Continuous abilities that lapse (`continuous.lapse: turn`): once one stops applying to a card, it
does not apply to that card again until the turn ends, even if nothing read the card while it was off;
without the option (the default) it applies whenever its condition holds."""

from __future__ import annotations

import pytest
from toy_engine import play, toy_env, toy_game


@pytest.fixture
def lapse(monkeypatch):
    rb, _ = toy_env()

    def set_rule(value):
        monkeypatch.setitem(rb.timing, "continuous", {**rb.timing["continuous"], "lapse": value})
    return set_rule


def ember_power(g):
    ember = next(o for o in g.state.objects.values() if o.card_id == "U-EMBER")
    return g.field(ember, "power")


def cycled(stop):
    g = toy_game({"P1": {"field": ["U-EMBER", "U-CYCLE"], "discard": ["U-PLAIN"], "hand": []}}, stop=stop)
    d = g.advance()
    assert ember_power(g) == 4
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    play(g, [use])
    return g


def test_without_lapse_it_applies_again():
    g = cycled(stop=None)
    assert ember_power(g) == 4


def test_a_lapsed_ability_stays_off_for_the_turn(lapse):
    lapse("turn")
    g = cycled(stop=None)
    assert ember_power(g) == 1
    assert g.state.lapsed


def test_it_applies_again_next_turn(lapse):
    lapse("turn")
    g = cycled(stop=None)
    play(g, ["pass"])  # end the turn; the next round's play timing is asked
    assert g.state.turn == 2
    assert ember_power(g) == 4
    assert not g.state.lapsed


def test_forks_carry_the_lapse(lapse):
    lapse("turn")
    g = cycled(stop=None)
    assert ember_power(g.fork()) == 1
