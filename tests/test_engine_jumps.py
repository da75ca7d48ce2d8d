"""Jumps from effects: a pending jump ends the turn structure's own steps and its check timing and
play timing procedures at once, while the effect that asked for it finishes; card-less declared
actions in play timing; skips that are cancelled before they are used."""

from __future__ import annotations

from toy_engine import play, texts, toy_game


def test_jump_from_a_triggered_ability_ends_the_step_but_not_the_ability():
    g = toy_game({"P1": {"field": ["U-JUMPER", "U-PINGED"]}})
    d = play(g, [])
    # Both abilities trigger on ping; P1 orders them: the jumper first.
    assert d is not None and d.prompt == "choose_pending_ability"
    jumper = next(o.id for o in d.options if "Jumper" in o.label)
    g.answer([jumper])
    d = g.advance()                                   # the next turn's ping: the same question again
    assert d is not None and d.prompt == "choose_pending_ability" and g.state.turn == 2
    st = g.state
    assert st.vars.get("after_jump") is True          # the rest of the ability still ran
    assert st.vars.get("pinged") is None              # the check timing stopped: nothing else resolved
    assert st.vars.get("one_done") is None            # the step's own remaining steps did not run
    assert st.vars.get("two_done") is None            # step two was jumped over
    assert st.vars.get("three_done") is True          # the walk went on at the target
    assert any("play moves to three" in t for t in texts(g))


def test_declare_action_is_offered_and_its_jump_ends_play_timing():
    g = toy_game({"P1": {"field": ["U-PLAIN"]}})
    d = play(g, [])
    assert d.kind == "play" and "give_up" in d.ids() and "pass" in d.ids()
    g.answer(["give_up"])
    d = g.advance()                                   # the next turn's play timing
    assert d.kind == "play" and g.state.turn == 2
    assert g.state.vars["gave_up"] == 0
    assert g.state.vars.get("one_done") is None and g.state.vars.get("two_done") is None
    assert g.state.vars["three_done"] is True
    assert any("P1 declares give_up" in t for t in texts(g))


def test_declare_action_respects_its_legality():
    # An ability waiting in play timing's check timing is resolved first, so pending is empty again;
    # with a pending ability the action would not be offered.
    g = toy_game({"P1": {"field": ["U-PLAIN"]}}, stop="two")
    d = play(g, [])
    assert "give_up" in d.ids()


def test_cancel_skips_removes_unused_skips():
    g = toy_game({"P1": {"field": ["U-CLEAR"]}}, stop="three")
    g.state.skips.append("two")
    play(g, ["pass"])
    assert g.state.skips == []
    assert g.state.vars.get("two_done") is True       # step two was not skipped after all
