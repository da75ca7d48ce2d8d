"""Which state of a moved card its own move trigger reads is rulebook data (moved_card_information):
`this` and `event.card` denote the card before or after the move as the first matching case says;
`event.old` / `event.new` always stay before / after. Without the element, triggers see the event as
made (the card where it went) and a card that left reads itself as it was."""

from __future__ import annotations

import pytest
from toy_engine import play, toy_env, toy_game

from interpreter.expr import compile_expr


def mover_game():
    g = toy_game({"P1": {"field": ["U-MOVER"]}}, stop="two")
    d = g.advance()
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    play(g, [use, "pass"])
    return g.state.vars


@pytest.fixture
def rule(monkeypatch):
    rb, _ = toy_env()

    def set_rule(cases, default="before"):
        compiled = tuple((f"c{i}", use, compile_expr(src, names=set(rb.names), functions=rb.functions))
                         for i, (src, use) in enumerate(cases))
        monkeypatch.setitem(rb.timing, "moved_card_information",
                            {"id": "moved_card_information", "rules": ["5"], "compiled": (compiled, default)})
    return set_rule


def test_without_the_element_the_card_that_left_reads_itself_as_it_was():
    # event.card is the card in the discard pile, `this` the card that left: they differ, so the
    # trigger (written `event.card == this`) does not fire.
    assert "seen_zone" not in mover_game()


def test_after_a_public_to_public_move(rule):
    rule([("zone_visibility(event.from) == 'public' and zone_visibility(event.to) == 'public'", "after")])
    v = mover_game()
    assert (v["seen_zone"], v["card_zone"], v["old_zone"], v["new_zone"]) == ("discard", "discard", "field", "discard")


def test_before_when_the_first_matching_case_says_so(rule):
    rule([("event.from == 'field'", "before"), ("true", "after")])
    v = mover_game()
    assert (v["seen_zone"], v["card_zone"], v["old_zone"], v["new_zone"]) == ("field", "field", "field", "discard")


def test_default_when_no_case_matches(rule):
    rule([("event.from == 'hand'", "before")], default="after")
    assert mover_game()["seen_zone"] == "discard"


def test_zone_visibility_function():
    rb, _ = toy_env()
    g = toy_game({}, stop="one")
    from interpreter.engine.context import Ctx

    fn = compile_expr("[zone_visibility('deck'), zone_visibility('hand'), zone_visibility('field')]",
                      names=set(rb.names), functions=rb.functions)
    assert fn(Ctx(g, None, you=0)) == ["private", "owner", "public"]
