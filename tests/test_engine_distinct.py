"""Cards with pairwise different values of a field: `distinct_count(cards, field)` (a card with several
values gives any one of them) and `choose` with `distinct: FIELD`, which offers only cards that keep
the choice distinct and chooses as many as possible."""

from __future__ import annotations

from toy_engine import play, toy_env, toy_game

from interpreter.expr import compile_expr
from interpreter.table.context import Ctx


def count_distinct(g, ids):
    rb, _ = toy_env()
    objs = {o.card_id: o for o in g.state.objects.values()}
    fn = compile_expr("distinct_count(cs, 'tags')", names=set(rb.names) | {"cs"}, functions=rb.functions)
    return fn(Ctx(g, None, you=0, vars={"cs": [objs[i] for i in ids]}))


def test_distinct_count_matches_cards_to_values():
    g = toy_game({"P1": {"hand": ["U-PLAIN", "U-TWO-TAGS", "U-BLUE", "U-AURA"]}}, stop="one")
    assert count_distinct(g, ["U-PLAIN", "U-TWO-TAGS"]) == 2  # red, then blue from Two Tags
    assert count_distinct(g, ["U-PLAIN", "U-TWO-TAGS", "U-BLUE"]) == 2  # only two tags exist
    assert count_distinct(g, ["U-AURA"]) == 0  # no tag, no value
    assert count_distinct(g, []) == 0


def pick(hand, answers):
    g = toy_game({"P1": {"field": ["U-PICK"], "hand": hand}}, stop="two")
    d = g.advance()
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    left = play(g, [use, *answers])
    return g, left


def discard(g):
    return sorted(g.state.objects[i].card_id for i in g.state.zones[("discard", 0)])


def test_the_second_offer_keeps_the_choice_distinct():
    g, d = pick(["U-PLAIN", "U-PLAIN", "U-BLUE"], ["U-PLAIN"])
    # Blue was the only card left to offer, so it was taken without a question.
    assert discard(g) == ["U-BLUE", "U-PLAIN"]


def test_a_card_with_two_values_can_come_first():
    # Two Tags (red, blue) then Plain (red): Two Tags gives blue. A choice one at a time never strands the player.
    g, d = pick(["U-TWO-TAGS", "U-PLAIN", "U-PLAIN"], ["U-TWO-TAGS"])
    assert discard(g) == ["U-PLAIN", "U-TWO-TAGS"]


def test_as_many_as_possible_when_values_run_out():
    g, d = pick(["U-PLAIN", "U-PLAIN"], [])
    assert discard(g) == ["U-PLAIN"]
