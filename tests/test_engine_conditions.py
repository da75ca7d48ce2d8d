"""Ability conditions from `condition` keywords (alternatives share a group), card types' default
keywords, ability kinds named by the rulebook and treated by how they are played, and piles whose
top card alone is in play."""

from __future__ import annotations

from toy_engine import play, toy_env, toy_game


def test_kinds_are_mapped_by_how_they_are_played():
    _, cards = toy_env()
    assert cards["U-TIMED"].abilities[0].kind == "activated"
    assert cards["U-PINGED"].abilities[0].kind == "auto"
    assert cards["U-AURA"].abilities[0].kind == "continuous"


def test_default_keyword_applies_without_a_condition_of_its_group():
    _, cards = toy_env()
    assert "on_board" in cards["U-PINGED"].abilities[0].keywords          # none of group place given
    assert "on_board" not in cards["U-HANDY"].abilities[0].keywords       # in_hand is of group place


def test_conditions_of_one_group_are_alternatives():
    g = toy_game({"P1": {"field": ["U-TIMED"]}}, stop="three")
    d = play(g, [])
    assert any(i.startswith("use:") for i in d.ids())                     # at_one holds in step one
    g.answer([next(i for i in d.ids() if i.startswith("use:"))])
    d = g.advance()
    assert g.state.vars["timed_used"] == 1


def test_a_failing_condition_hides_the_ability():
    g = toy_game({"P1": {"hand": ["U-TIMED"]}}, stop="three")             # in the hand: not on the board
    d = play(g, [])
    assert d is None or not any(i.startswith("use:") for i in d.ids())


def test_hand_condition_lets_a_card_trigger_from_the_hand():
    g = toy_game({"P1": {"hand": ["U-HANDY"], "field": ["U-PLAIN"]}}, stop="two")
    play(g, ["pass"])
    assert g.state.vars.get("handy") is True


def test_only_the_top_card_of_a_pile_is_in_play():
    g = toy_game({"P1": {"pile": ["U-PLAIN", "U-PINGED"]}}, stop="two")   # Pinged is under Plain
    play(g, ["pass"])
    assert g.state.vars.get("pinged") is None
    g = toy_game({"P1": {"pile": ["U-PINGED", "U-PLAIN"]}}, stop="two")   # Pinged on top
    play(g, ["pass"])
    assert g.state.vars.get("pinged") == 1
