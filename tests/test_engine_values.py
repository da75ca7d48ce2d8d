"""Card values: fields printed "-" (dash) that no effect changes, the printed value and a field named
at run time, the physical card behind successive objects, enum-checked string lists, and deck
construction counts bounded by at_least / at_most."""

from __future__ import annotations

import pytest
from toy_engine import play, toy_env, toy_game

from interpreter.loader.cards import check_deck, load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx
from interpreter.timing.moves import forget_departed


def ev(g, src, **vars):
    """Evaluate an expression in the game with extra variables."""
    from interpreter.expr import compile_expr

    fn = compile_expr(src, names=set(g.rb.names) | set(vars), functions=g.rb.functions)
    return fn(Ctx(g, None, you=0, vars=dict(vars)))


def test_dash_is_no_value_and_no_effect_changes_it():
    g = toy_game({"P1": {"field": ["U-AURA", "U-DASH", "U-PLAIN"]}}, stop="one")
    play(g, [])
    dash = next(o for o in g.state.objects.values() if o.card_id == "U-DASH")
    plain = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    assert g.field(dash, "power") is None
    assert g.field(plain, "power") == 3
    assert ev(g, "printed(c, 'power')", c=plain) == 2
    assert ev(g, "field(c, 'power')", c=plain) == 3
    assert ev(g, "printed(c, 'power')", c=dash) is None


def test_origin_is_the_same_physical_card_across_moves():
    g = toy_game({"P1": {"field": ["U-LOOP"], "hand": ["U-PLAIN"]}}, stop="one")
    play(g, [])
    plain = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    first = ev(g, "origin(c)", c=plain)
    from interpreter.verbs.cards import v_move

    ctx = Ctx(g, None, you=0)
    list(v_move(g, {"cards": lambda c: [plain], "to": "discard"}, ctx))
    moved = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    assert moved.oid != plain.oid and ev(g, "origin(c)", c=moved) == first


def test_string_lists_are_checked_against_their_enum(tmp_path):
    rb, _ = toy_env()
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: toy\ncards:\n  - {id: X, type: unit, name: X, power: 1, tags: [green]}\n", encoding="utf-8")
    with pytest.raises(LoadError) as e:
        load_cards(rb, [bad])
    assert any("'green' is not a tag" in d.message for d in e.value.diagnostics)


def test_deck_counts_with_bounds():
    rb, cards = toy_env()
    ok = {"deck": ["U-PLAIN", "U-PLAIN", "U-DASH", "U-AURA"]}
    assert check_deck(rb, cards, ok) == []
    two_blue = {"deck": ["U-PLAIN", "U-DASH", "U-DASH", "U-AURA"]}
    assert any("at most 1" in m for _, m in check_deck(rb, cards, two_blue))
    no_red = {"deck": ["U-DASH", "U-AURA", "U-AURA", "U-AURA"]}
    assert any("at least 1" in m for _, m in check_deck(rb, cards, no_red))


def test_what_is_done_to_a_card_that_left_its_zone_is_skipped():
    """A card that moved is a new object; marking, counting, revealing or showing the old one does
    nothing, so its last known information never changes (state copies share it)."""
    from interpreter.verbs.cards import v_counter, v_look, v_mark, v_move, v_reveal

    g = toy_game({"P1": {"field": ["U-LOOP"], "hand": ["U-PLAIN"]}}, stop="one")
    play(g, [])
    old = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    ctx = Ctx(g, None, you=0)
    list(v_move(g, {"cards": lambda c: [old], "to": "discard"}, ctx))
    new = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    copy = g.state.copy()
    before = (dict(old.marks), dict(old.counters), set(old.known_to))
    both = lambda c: [old, new]  # noqa: E731
    list(v_mark(g, {"cards": both, "key": "seen", "value": lambda c: 1}, ctx))
    list(v_counter(g, {"target": both, "name": "n", "add": lambda c: 2}, ctx))
    list(v_reveal(g, {"cards": both}, ctx))
    list(v_look(g, {"cards": both, "player": lambda c: 1, "as": "looked"}, ctx))
    assert (dict(old.marks), dict(old.counters), set(old.known_to)) == before
    assert new.marks.get("seen") == 1 and new.counters.get("n") == 2 and new.known_to == {0, 1}
    assert ctx.vars["looked"] == [new]
    assert copy.lki[old.oid].marks == before[0]  # the copy shares the untouched object


def test_last_known_information_is_kept_only_while_something_may_ask_for_it():
    """As a turn begins, departed cards are forgotten unless a pending ability or an effect names
    them as its source; origin() still follows a card across every move."""
    from interpreter.state.objects import Pending
    from interpreter.verbs.cards import v_move

    g = toy_game({"P1": {"field": ["U-LOOP"], "hand": ["U-PLAIN", "U-DASH"]}}, stop="one")
    play(g, [])
    ctx = Ctx(g, None, you=0)
    plain = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    dash = next(o for o in g.state.objects.values() if o.card_id == "U-DASH")
    first = ev(g, "origin(c)", c=plain)
    for _ in range(3):  # back and forth: three departed objects of the same card
        list(v_move(g, {"cards": lambda c: [o for o in g.state.objects.values() if o.card_id == "U-PLAIN"],
                        "to": "discard" if _ % 2 == 0 else "hand"}, ctx))
    list(v_move(g, {"cards": lambda c: [dash], "to": "discard"}, ctx))
    assert {plain.oid, dash.oid} <= set(g.state.lki)
    g.state.pending.append(Pending(g.state.new_id(), dash.oid, dash.card_id, 0, 0, {"type": "test"}))
    forget_departed(g)
    assert set(g.state.lki) == {dash.oid}  # the pending ability's source stays
    now = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    assert now.oid != plain.oid and ev(g, "origin(c)", c=now) == first


def test_count_of_a_zone_is_counted_without_listing_it():
    """`count(cards(zone, player))` is compiled to the zone's size (no list is built): same values
    as counting the list, the same error for an unknown zone, and the same calls recorded."""
    from interpreter.expr import ExprRuntimeError, compile_expr
    from interpreter.table import functions

    g = toy_game({"P1": {"field": ["U-AURA", "U-DASH", "U-PLAIN"], "hand": ["U-PLAIN"]}}, stop="one")
    play(g, [])
    listed = []
    real = functions.f_cards

    def spy(env, zone, player):
        listed.append(zone)
        return real(env, zone, player)

    specs = dict(g.rb.functions)
    specs["cards"] = functions.FuncSpec("cards", spy, 2, 2, pass_env=True, sized=functions.f_count_cards)
    ctx = Ctx(g, None, you=0)
    for zone in ("field", "hand"):
        fast = compile_expr(f"count(cards('{zone}', you))", names=set(g.rb.names), functions=specs)
        assert fast(ctx) == len(real(ctx, zone, 0)) > 0
        assert "cards" in fast.calls_used and "count" in fast.calls_used
    assert listed == []  # neither count listed the zone
    slow = compile_expr("count(cards('field', you) where it.id != 'none')", names=set(g.rb.names), functions=specs)
    assert slow(ctx) == 3 and listed == ["field"]
    bad = compile_expr("count(cards('nowhere', you))", names=set(g.rb.names), functions=specs)
    with pytest.raises(Exception) as caught:
        bad(ctx)
    listed_bad = compile_expr("len(cards('nowhere', you))", names=set(g.rb.names), functions=specs)
    with pytest.raises(type(caught.value)) as caught_listed:
        listed_bad(ctx)
    assert str(caught.value) == str(caught_listed.value)
    assert not isinstance(caught.value, ExprRuntimeError) or caught.value.offset is not None
