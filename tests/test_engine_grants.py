"""Abilities granted by effects (`grant:` in an effect description, issue 18, item 7), on the toy
rulebook (cards in tests/data/toy/cards/grants.yaml): a one-shot grant for a duration, continuous
abilities that grant auto, activated and continuous abilities, the new-object rule, the recursion
guard, and the registry numbers that pending abilities, options and logs use."""

from __future__ import annotations

import pytest
from toy_engine import TOY, play, texts, toy_env, toy_game

from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.model.rulebook import GRANTED


def obj(g, card_id, zone=None):
    return next(o for o in g.state.objects.values() if o.card_id == card_id and (zone is None or o.zone == zone))


def use(d, name, nth=0):
    """The option playing the nth activated ability of the card named `name` offered in `d`."""
    return [o.id for o in d.options if o.id.startswith("use:") and f"{name} [" in o.label][nth]


def ev(g, src):
    from interpreter.expr import compile_expr
    from interpreter.table.context import Ctx

    rb, _ = toy_env()
    return compile_expr(src, names=rb.names, functions=rb.functions)(Ctx(g, None, you=0))


def test_grants_are_compiled_once_into_the_registry_like_printed_abilities():
    rb, cards = toy_env()
    assert [g.index for g in rb.grants] == list(range(GRANTED, GRANTED + len(rb.grants)))
    heard = next(g for g in rb.grants if "on_ping" in g.base.keywords)
    assert heard.base.kind == "auto" and heard.base.triggers
    # A unit's version takes the card type's default keywords, as a unit's printed ability does.
    assert heard.for_type("unit").keywords == ("on_ping", "on_board")
    assert heard.for_type("unit").index == heard.index
    # Loading the same card files again numbers their grants the same.
    before = list(rb.grants)
    load_cards(rb, [TOY / "cards"])
    assert [g.index for g in rb.grants] == [g.index for g in before]


def test_a_one_shot_grant_changes_a_value_until_its_duration_ends():
    g = toy_game({"P1": {"field": ["U-GIFT", "U-PLAIN"]}})
    d = g.advance()
    plain = obj(g, "U-PLAIN")
    assert g.field(plain, "power") == 2
    d = play(g, [use(d, "Gift")])
    assert g.field(plain, "power") == 7  # the granted continuous ability: +5 to itself
    assert ev(g, "ability_count((cards('field', you) where it.name == 'Plain')[0])") == 1
    assert ev(g, "has_ability_kind((cards('field', you) where it.name == 'Plain')[0], 'aura')") is True
    fork = g.fork()
    assert fork.field(obj(fork, "U-PLAIN"), "power") == 7
    play(g, ["pass"])  # the round ends (its durations with it); the next round's play timing
    assert g.state.turn == 2
    assert g.field(plain, "power") == 2
    assert ev(g, "ability_count((cards('field', you) where it.name == 'Plain')[0])") == 0


def test_a_card_that_becomes_a_new_object_loses_a_one_shot_grant():
    g = toy_game({"P1": {"field": ["U-GIFT", "U-PLAIN"]}}, stop="two")
    d = g.advance()
    d = play(g, [use(d, "Gift")])
    play(g, [use(d, "Gift", 1)])  # to the hand and back: a new object
    assert g.field(obj(g, "U-PLAIN"), "power") == 2
    assert g.continuous.granted() == {}


def test_a_card_that_keeps_its_identity_keeps_a_one_shot_grant():
    g = toy_game({"P1": {"field": ["U-GIFT", "U-PLAIN"]}}, stop="two")
    d = g.advance()
    d = play(g, [use(d, "Gift")])
    play(g, [use(d, "Gift", 2)])  # to the pile: the same object (identity kept within the board)
    assert obj(g, "U-PLAIN").zone == "pile"
    assert g.field(obj(g, "U-PLAIN"), "power") == 7


def test_a_granted_auto_ability_triggers_and_resolves():
    g = toy_game({"P1": {"field": ["U-HERALD", "U-PLAIN", "U-PLAIN"]}}, stop="two")
    d = g.advance()
    assert d.prompt == "choose_pending_ability" and all("granted ability 2" in o.label for o in d.options)
    while d is not None and d.prompt != "play_timing":
        d = play(g, [d.options[0].id])
    assert g.state.vars["heard"] == ["Plain", "Plain"]
    assert any(t.endswith(": granted ability 2 triggers") for t in texts(g))
    assert any(t.endswith(": granted ability 2 resolves") for t in texts(g))
    # Herald's own card has no such ability; a card with no printed ability gets it all the same.
    assert len(ev(g, "cards('field', you) where has_keyword(it, 'on_ping')")) == 2


def test_no_grant_without_its_source():
    g = toy_game({"P1": {"field": ["U-PLAIN"], "hand": ["U-HERALD"]}}, stop="two")
    g.advance()
    assert "heard" not in g.state.vars  # Herald in hand: its ability works on the board only (on_board)
    assert "heard" not in toy_game({"P1": {"field": ["U-PLAIN"]}}, stop="two").state.vars


def test_a_granted_activated_ability_is_offered_and_played():
    g = toy_game({"P1": {"field": ["U-TEACHER", "U-PLAIN"]}}, stop="two")
    d = g.advance()
    plain = obj(g, "U-PLAIN")
    option = use(d, "Plain")
    granted = int(option.rsplit(":a", 1)[1])
    assert granted >= GRANTED and option == f"use:c{plain.oid}:a{granted}"
    assert g.field(plain, "power") == 3  # the second granted ability, a continuous one: +1
    play(g, [option])
    assert g.state.vars["taught"] == "Plain"
    assert any("plays granted ability" in t for t in texts(g))


def test_the_recursion_guard_while_grants_are_worked_out():
    # Mentor grants to cards with no ability: while that is worked out, cards have their printed
    # abilities only, so Plain (none printed) gets it and keeps it, and Mentor (one) does not.
    g = toy_game({"P1": {"field": ["U-MENTOR", "U-PLAIN"]}}, stop="two")
    d = g.advance()
    assert [o.label.split(" [")[0] for o in d.options if o.id.startswith("use:")] == ["use Plain"]
    assert ev(g, "cards('field', you) select ability_count(it)") == [1, 1]
    assert ev(g, "count(cards('field', you) where ability_count(it) == 0)") == 0
    play(g, [use(d, "Plain")])
    assert g.state.vars["mentored"] == ["Plain"]


def test_abilities_of_returns_printed_then_granted_and_only_printed_while_granting():
    g = toy_game({"P1": {"field": ["U-TEACHER", "U-PLAIN"]}}, stop="two")
    g.advance()
    plain, teacher = obj(g, "U-PLAIN"), obj(g, "U-TEACHER")
    assert [ab.kind for ab in g.abilities_of(plain)] == ["activated", "continuous"]
    assert [ab.index for ab in g.abilities_of(teacher)] == [0]
    g.continuous.granting = True
    try:
        assert g.abilities_of(plain) == []
    finally:
        g.continuous.granting = False


def test_a_grant_needs_affects_and_a_written_ability(tmp_path):
    rb, _ = toy_env()
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: toy\n"
        "cards:\n"
        "  - id: X-BAD\n"
        "    type: unit\n"
        "    name: Bad\n"
        "    abilities:\n"
        "      - kind: aura\n"
        "        effect: {grant: {kind: quick, effect: []}}\n"
        "      - kind: aura\n"
        "        effect: {affects: this, grant: {kind: nosuch}}\n"
        "      - kind: aura\n"
        "        effect: {affects: this, grant: {kind: quick, keywords: [from_discard]}}\n",
        encoding="utf-8")
    with pytest.raises(LoadError) as e:
        load_cards(rb, [bad])
    text = str(e.value)
    assert "bad.yaml:8:" in text and "needs 'affects'" in text
    assert "bad.yaml:10:" in text and "unknown ability kind 'nosuch'" in text
    assert "bad.yaml:12:" in text and "a granted ability works where its card's abilities work" in text
