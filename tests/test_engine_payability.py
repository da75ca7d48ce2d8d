"""Payability and playability on the toy rulebook: a cost written as steps is payable only if all of
it can be done now (worked out from the steps, not from a `can` each card would have to write), and
the rulebook's `choosing.short_choice` says which unfillable choices of an effect stop a play."""

from __future__ import annotations

import pytest
from toy_engine import play, toy_env, toy_game

from interpreter.table.context import Ctx
from interpreter.timing.payability import can_pay, choices_allow_play


def options(g):
    d = g.advance()
    return [o.id for o in d.options] if d is not None else []


def uses(g, card_id):
    return [o for o in options(g) if o.startswith("use:") and any(
        ob.card_id == card_id and f":c{ob.oid}:" in o for ob in g.state.objects.values())]


@pytest.fixture
def short_choice(monkeypatch):
    """Set the toy rulebook's short_choice rule for one test (the rulebook is shared)."""
    rb, _ = toy_env()

    def set_rule(rule):
        monkeypatch.setitem(rb.timing, "choosing", {"id": "choosing", "rules": ["7"], "short_choice": rule})
    return set_rule


def test_a_choice_in_a_cost_needs_its_minimum():
    g = toy_game({"P1": {"field": ["U-TWO-COST"], "hand": ["U-PLAIN"]}}, stop="two")
    assert not uses(g, "U-TWO-COST")
    g = toy_game({"P1": {"field": ["U-TWO-COST"], "hand": ["U-PLAIN", "U-DASH"]}}, stop="two")
    assert uses(g, "U-TWO-COST")
    play(g, [uses(g, "U-TWO-COST")[0], "pass"])
    assert g.state.vars.get("two_cost_used") is True
    assert len(g.state.zones[("discard", 0)]) == 2


def test_a_card_spent_by_one_step_of_a_cost_does_not_pay_a_later_step():
    g = toy_game({"P1": {"field": ["U-TWICE-COST"], "hand": ["U-PLAIN"]}}, stop="two")
    assert not uses(g, "U-TWICE-COST")
    g = toy_game({"P1": {"field": ["U-TWICE-COST"], "hand": ["U-PLAIN", "U-PLAIN"]}}, stop="two")
    assert uses(g, "U-TWICE-COST")


def test_a_state_change_that_changes_nothing_pays_nothing():
    # The field carries no face state: putting a card there face down would do nothing.
    g = toy_game({"P1": {"field": ["U-HIDE-COST"]}}, stop="two")
    assert not uses(g, "U-HIDE-COST")


def test_asking_changes_nothing():
    g = toy_game({"P1": {"field": ["U-TWO-COST"], "hand": ["U-PLAIN", "U-DASH"]}}, stop="two")
    g.advance()
    before = (g.version, {k: list(v) for k, v in g.state.zones.items()}, dict(g.state.vars))
    obj = next(o for o in g.state.objects.values() if o.card_id == "U-TWO-COST")
    ab = g.cards[obj.card_id].abilities[0]
    assert can_pay(g, ab.cost, Ctx(g, None, you=0, this=obj))
    assert before == (g.version, {k: list(v) for k, v in g.state.zones.items()}, dict(g.state.vars))


@pytest.mark.parametrize("rule, in_discard, offered", [
    ("allowed", 0, True), ("allowed", 1, True),
    ("blocks_partial", 0, True), ("blocks_partial", 1, False), ("blocks_partial", 2, True),
    ("blocks", 0, False), ("blocks", 1, False), ("blocks", 2, True),
])
def test_short_choice_rule(short_choice, rule, in_discard, offered):
    short_choice(rule)
    g = toy_game({"P1": {"field": ["U-GRAB"], "discard": ["U-PLAIN"] * in_discard}}, stop="two")
    assert bool(uses(g, "U-GRAB")) is offered


def test_as_much_as_possible_when_short_choices_are_allowed(short_choice):
    short_choice("allowed")
    g = toy_game({"P1": {"field": ["U-GRAB"], "discard": ["U-PLAIN"]}}, stop="two")
    play(g, [uses(g, "U-GRAB")[0], "pass"])
    assert g.state.vars.get("grabbed") == 1


@pytest.mark.parametrize("rule", ["blocks_partial", "blocks"])
def test_a_search_of_a_hidden_zone_never_stops_a_play(short_choice, rule):
    # The deck is hidden: whether it holds two red units must not decide whether Dig is offered.
    short_choice(rule)
    g = toy_game({"P1": {"field": ["U-DIG"], "deck": ["U-DASH", "U-PLAIN"]}}, stop="two")
    assert uses(g, "U-DIG")
    obj = next(o for o in g.state.objects.values() if o.card_id == "U-DIG")
    ab = g.cards[obj.card_id].abilities[0]
    assert choices_allow_play(g, ab.effect, Ctx(g, None, you=0, this=obj))


GRAB_TEMPLATE = """
templates:
  - id: grab_two
    rules: ["7"]
    params: {zone: "'discard'"}
    text_choices: true
    do:
      - choose: {player: "you", from: "cards(zone, you)", min: 2, max: 2, as: got}
      - move: {cards: "got", to: hand}
  - id: grab_two_as_an_action
    rules: ["7"]
    params: {zone: "'discard'"}
    do:
      - choose: {player: "you", from: "cards(zone, you)", min: 2, max: 2, as: got}
      - move: {cards: "got", to: hand}
"""
GRAB_CARD = """game: toy
cards:
  - id: U-GRAB-TPL
    type: unit
    name: Grab Template
    power: 1
    abilities:
      - kind: quick
        effect:
          - call: {template: grab_two}
  - id: U-GRAB-ACTION
    type: unit
    name: Grab Action
    power: 1
    abilities:
      - kind: quick
        effect:
          - call: {template: grab_two_as_an_action}
"""


@pytest.mark.parametrize("rule, in_discard, offered", [
    ("allowed", 1, True), ("blocks_partial", 1, False), ("blocks", 0, False), ("blocks", 2, True),
])
def test_a_choice_inside_a_called_template_is_judged_like_the_effects_own(tmp_path, rule, in_discard, offered):
    """A keyword's words written once as a template (`text_choices`) and called by the card: its
    set-number choice stops the play as the same choice written in the card's effect would. A
    template for a game action the text names chooses as the action: it never stops the play."""
    from toy_engine import game_of, toy_variant

    env = toy_variant(tmp_path, append=GRAB_TEMPLATE, cards=GRAB_CARD)
    env[0].timing["choosing"] = {"id": "choosing", "rules": ["7"], "short_choice": rule}
    g = game_of(env, {"P1": {"field": ["U-GRAB-TPL"], "discard": ["U-PLAIN"] * in_discard}})
    g.stop_at = "two"
    assert bool(uses(g, "U-GRAB-TPL")) is offered
    g = game_of(env, {"P1": {"field": ["U-GRAB-ACTION"], "discard": ["U-PLAIN"] * in_discard}})
    g.stop_at = "two"
    assert uses(g, "U-GRAB-ACTION")


def _usable(g, card_id, kind):
    from interpreter.expr import compile_expr

    rb, _ = toy_env()
    obj = next(o for o in g.state.objects.values() if o.card_id == card_id)
    return compile_expr(f"usable(c, '{kind}')", names=rb.names | {"c"}, functions=rb.functions)(
        Ctx(g, None, you=0, vars={"c": obj}))


def test_usable_is_what_play_timing_would_offer():
    """`usable(card, kind)`: an ability of that kind could be played now: its cost can be paid, its
    card's abilities work (not negated), as play timing checks before offering it."""
    g = toy_game({"P1": {"field": ["U-TWO-COST"], "hand": ["U-PLAIN"]}}, stop="two")
    g.advance()
    assert _usable(g, "U-TWO-COST", "quick") is False  # a cost of two hand cards, one in hand
    g = toy_game({"P1": {"field": ["U-TWO-COST"], "hand": ["U-PLAIN", "U-DASH"]}}, stop="two")
    g.advance()
    assert _usable(g, "U-TWO-COST", "quick") is True and _usable(g, "U-TWO-COST", "reflex") is False
    assert _usable(g, "U-PLAIN", "quick") is False  # no such ability at all
    g = toy_game({"P1": {"field": ["U-HUSH", "U-PINGED-QUICK"]}}, stop="three")
    g.advance()
    assert _usable(g, "U-PINGED-QUICK", "quick") is True
    play(g, [next(o.id for o in g.advance().options if o.id.startswith("use:") and "Hush" in o.label)])
    g.advance()
    assert _usable(g, "U-PINGED-QUICK", "quick") is False  # negated: no longer offered either
    assert not any("Pinged" in o.label for o in g.advance().options)
