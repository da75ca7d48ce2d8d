"""Generic effect constructs real cards need (issue 18, item 7), on the toy rulebook: abilities that
work from another zone, effects that do not stack, granted abilities, player values, ability tests,
cost reductions, multiset fields lowered, an event when an ability resolves, and cards that changed
area this turn."""

from __future__ import annotations

from toy_engine import play, texts, toy_env, toy_game


def obj(g, card_id, zone=None):
    return next(o for o in g.state.objects.values() if o.card_id == card_id and (zone is None or o.zone == zone))


# -- 1. where an ability works is card data: active_zones ------------------------------------------
def test_an_active_zones_ability_works_from_its_zone_only():
    g = toy_game({"P1": {"field": ["U-PLAIN"], "discard": ["U-RELIC"]}}, stop="two")
    g.advance()
    # In the discard pile only the ability listing the discard pile works (+2, not +10).
    assert g.field(obj(g, "U-PLAIN"), "power") == 4


def test_an_active_zones_ability_does_not_work_where_its_type_does():
    g = toy_game({"P1": {"field": ["U-PLAIN", "U-RELIC"]}}, stop="two")
    g.advance()
    assert g.field(obj(g, "U-PLAIN"), "power") == 12
    assert g.field(obj(g, "U-RELIC"), "power") == 11


def test_a_bare_statement_working_elsewhere_is_read_but_not_watched_there():
    """An ability that changes nothing (a keyword the card counts as having, e.g. from any zone) does
    not make its card one whose abilities work in that zone: nothing there can trigger or apply. Its
    keywords are read all the same."""
    g = toy_game({"P1": {"field": ["U-PLAIN"], "discard": ["U-MOTTO", "U-RELIC"]}}, stop="two")
    g.advance()
    from interpreter.derive.abilities import ability_objects

    assert "discard" in g.active_zone_cards["U-MOTTO"] and "U-MOTTO" not in g.acting_zone_cards
    working = {o.card_id for o in ability_objects(g)}
    assert "U-RELIC" in working and "U-MOTTO" not in working
    assert ev_has_keyword(g, "U-MOTTO", "from_discard")


def ev_has_keyword(g, card_id, keyword):
    from interpreter.table.context import Ctx
    from interpreter.table.functions import f_has_keyword

    return f_has_keyword(Ctx(g, None, you=0), obj(g, card_id), keyword)


# -- 2. an effect that does not stack: no_stack --------------------------------------------------
def test_copies_of_a_text_that_does_not_stack_apply_once():
    g = toy_game({"P1": {"field": ["U-PLAIN", "U-BANNER", "U-BANNER"]}}, stop="two")
    g.advance()
    assert g.field(obj(g, "U-PLAIN"), "power") == 3


def test_effects_under_one_label_apply_once_and_others_stack():
    g = toy_game({"P1": {"field": ["U-PLAIN", "U-BANNER-ALT", "U-BANNER-LABEL", "U-BANNER"]}}, stop="two")
    g.advance()
    assert g.field(obj(g, "U-PLAIN"), "power") == 4  # the label once (+1), the unlabelled text once (+1)


def test_a_created_effect_that_does_not_stack_applies_once():
    g = toy_game({"P1": {"field": ["U-PLAIN", "U-RALLY"], "hand": []}}, stop="two")
    d = g.advance()
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    d = play(g, [use])
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    play(g, [use])
    assert sum(1 for e in g.state.effects if e.kind == "continuous") == 2
    assert g.field(obj(g, "U-PLAIN"), "power") == 5


# -- 4. a player's value: modify_player, player_value ------------------------------------------------
def ev(g, src):
    """An expression's value now, read by P1."""
    from interpreter.expr import compile_expr
    from interpreter.table.context import Ctx

    rb, _ = toy_env()
    return compile_expr(src, names=rb.names, functions=rb.functions)(Ctx(g, None, you=0))


def value_of(g, player, name):
    return ev(g, f"player_value({player}, '{name}')")


def test_a_player_value_is_changed_by_effects_on_that_player():
    g = toy_game({"P1": {"field": ["U-TALLY"], "hand": []}}, stop="two")
    d = g.advance()
    assert (value_of(g, 0, "total"), value_of(g, 1, "total")) == (0, -1)
    g.state.player_counters[0]["total"] = 5  # the base is the player's counter of that name
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    play(g, [use])
    assert (value_of(g, 0, "total"), value_of(g, 1, "total")) == (7, -1)
    assert value_of(g, 0, "other") == 0


# -- 5. ability tests: ability_count, has_ability_kind, has_keyword ------------------------------
def test_ability_tests():
    g = toy_game({"P1": {"field": ["U-PROBE", "U-PLAIN"]}}, stop="two")
    g.advance()
    probe, plain = "cards('field', you) where it.name == 'Probe'", "cards('field', you) where it.name == 'Plain'"
    assert ev(g, f"ability_count(({probe})[0])") == 2
    assert ev(g, f"ability_count(({plain})[0])") == 0
    assert ev(g, "count(cards('field', you) where ability_count(it) == 0)") == 1
    # a kind the rulebook names, or how abilities of a kind are played
    assert ev(g, f"has_ability_kind(({probe})[0], 'reflex')") is True
    assert ev(g, f"has_ability_kind(({probe})[0], 'auto')") is True
    assert ev(g, f"has_ability_kind(({probe})[0], 'aura')") is False
    assert ev(g, f"has_keyword(({probe})[0], 'on_ping')") is True
    assert ev(g, f"has_keyword(({probe})[0], 'at_one')") is False
    assert ev(g, f"has_keyword(({plain})[0], 'on_ping')") is False


# -- 6. a field of cards in hand lowered (a cost), read as the card leaves the hand ----------------
def test_a_field_of_cards_in_hand_is_lowered_and_kept_as_the_card_leaves():
    g = toy_game({"P1": {"field": ["U-DISCOUNT"], "hand": ["U-PLAIN"]}}, stop="two")
    d = g.advance()
    assert g.field(obj(g, "U-PLAIN", "hand"), "power") == 1
    use = next(o.id for o in d.options if o.id.startswith("use:"))
    play(g, [use])
    assert g.field(obj(g, "U-PLAIN", "discard"), "power") == 2
    assert g.state.vars["seen_power"] == 1  # what it was in hand, where the effect reached it


# -- 7. a multiset field lowered per symbol, never below 0 ---------------------------------------------
def test_a_multiset_field_is_lowered_per_symbol_never_below_zero():
    g = toy_game({"P1": {"field": ["U-NEEDY", "U-EASE"]}}, stop="two")
    g.advance()
    needs = g.field(obj(g, "U-NEEDY"), "needs")
    assert dict(needs) == {"red": 1}
    assert needs.total() == 1
    assert ev(g, "(cards('field', you) where it.name == 'Needy')[0].needs.blue") == 0


# -- 8. the event ability_resolved ---------------------------------------------------------------------
def test_an_ability_triggers_on_another_ability_with_a_keyword_resolving():
    g = toy_game({"P1": {"field": ["U-ECHO", "U-PINGED", "U-PROBE"]}}, stop="two")
    d = g.advance()
    while d is not None and d.prompt != "play_timing":  # the order of the pending abilities
        d = play(g, [d.options[0].id])
    # Pinged's and Probe's on_ping abilities resolved; Echo's own ability (no keyword) did not count.
    assert sorted(g.state.vars["echoed"]) == ["Pinged", "Probe"]
    assert not any("ability_resolved" in t for t in texts(g))


# -- 9. a card that changed area this turn: moved_within_group_this_turn -----------------------------
def test_a_card_that_moved_within_its_group_this_turn():
    g = toy_game({"P1": {"field": ["U-SHIFT", "U-PLAIN"], "hand": ["U-BOTH"]}}, stop=None)
    d = g.advance()
    assert ev(g, "count(cards_in('board', you) where moved_within_group_this_turn(it))") == 0
    shift = next(o.id for o in d.options if o.id.startswith("use:") and "Shift" in o.label)
    d = play(g, [shift])
    both = next(o.id for o in d.options if o.id.startswith("use:") and "Both" in o.label)
    d = play(g, [both])  # from the hand to the field: not a move within the group
    assert ev(g, "cards_in('board', you) where moved_within_group_this_turn(it) select it.name") == ["Shift"]
    play(g, ["pass"])  # the next round
    assert g.state.turn == 2
    assert ev(g, "count(cards_in('board', you) where moved_within_group_this_turn(it))") == 0
    assert g.fork().state.moved_within == g.state.moved_within


# -- 10. an event after a card left, seen by that card: emit seen_by_departed -------------------------
def swap(ability):
    g = toy_game({"P1": {"field": ["U-SWAPPER", "U-LEAVER"]}}, stop="two")
    d = g.advance()
    use = next(o.id for o in d.options if o.id.startswith("use:") and o.id.endswith(f":a{ability}"))
    play(g, [use, "pass"])
    return g


def test_a_card_that_left_sees_an_event_that_names_it():
    g = swap(0)
    assert g.state.vars.get("left_from") == "field"  # it triggered and read itself as it was


def test_a_card_that_left_does_not_see_an_event_otherwise():
    g = swap(1)
    assert "left_from" not in g.state.vars


def test_the_same_card_in_two_places_is_a_real_choice(tmp_path):
    """Choosing exactly N among copies of a card is made without asking only when nothing tells them
    apart: the same card in two zones, or one holding a card under it, is a real choice."""
    from toy_engine import game_of, toy_variant

    cards = """game: toy
cards:
  - id: C-PICK
    type: unit
    name: Picker
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: you, from: "(cards('hand', you) + cards('field', you)) where it.name == 'Plain'",
                     min: 1, max: 1, as: picked}
          - set_var: {name: picked_zone, value: "picked[0].zone"}
"""
    env = toy_variant(tmp_path, cards=cards)
    g = game_of(env, {"P1": {"pile": ["C-PICK"], "hand": ["U-PLAIN"], "field": ["U-PLAIN"]}})
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    d = g.advance()
    assert d is not None and d.prompt == "picked" and len(d.options) == 2
    g.answer([d.options[1].id])
    g.advance()
    assert g.state.vars["picked_zone"] == "field"
    same = game_of(env, {"P1": {"pile": ["C-PICK"], "hand": ["U-PLAIN", "U-PLAIN"]}})
    d = same.advance()
    same.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    d = same.advance()
    assert d is None or d.prompt != "picked", "two copies in one hand: nothing to choose"
    assert same.state.vars["picked_zone"] == "hand"
