"""Decisions the engine takes itself: a play timing where passing is all the player may do passes
without asking. A caller that sets `Game.show_automatic` (the scenario runner) is shown each such
pass as a decision marked `automatic`, and nothing else changes: the same game is played, the
passes are no part of the game's answers, and no such pause can be forked."""

from __future__ import annotations

import pytest
from toy_engine import game_of, texts, toy_variant

from interpreter.state.errors import GameError

NO_GIVING_UP = (('legal: "pending_count() == 0"', 'legal: "stage != 1"'),)  # never in step one


def _game(tmp_path, show: bool):
    g = game_of(toy_variant(tmp_path, replace=NO_GIVING_UP), {"P1": {"field": ["U-PLAIN"]}})
    g.show_automatic = show
    return g


def test_a_pass_the_engine_makes_is_shown_only_to_who_asked(tmp_path):
    hidden = _game(tmp_path / "a", show=False)
    assert hidden.advance() is None                   # nothing to ask: the rounds run to the loop cap
    shown = _game(tmp_path / "b", show=True)
    d = shown.advance()
    assert d is not None and d.automatic and d.kind == "play" and d.player == 0
    assert d.ids() == ["pass"]
    assert shown.state.decisions == 0                 # it counts as no decision


def test_showing_the_passes_plays_the_same_game(tmp_path):
    hidden = _game(tmp_path / "a", show=False)
    hidden.advance()
    shown = _game(tmp_path / "b", show=True)
    passes = 0
    while (d := shown.advance()) is not None:
        assert d.automatic
        shown.answer(["pass"])
        passes += 1
    assert passes > 1 and shown.answers == []         # the engine's own answers are not recorded
    assert texts(shown) == texts(hidden) and shown.state.result == hidden.state.result


def test_an_automatic_pass_cannot_be_forked(tmp_path):
    g = _game(tmp_path, show=True)
    assert g.advance() is not None
    with pytest.raises(GameError, match="engine takes itself"):
        g.fork()


def test_a_real_choice_is_not_marked_automatic(tmp_path):
    g = game_of(toy_variant(tmp_path), {"P1": {"field": ["U-PLAIN"]}})
    g.show_automatic = True
    d = g.advance()
    assert d is not None and not d.automatic and "give_up" in d.ids()
