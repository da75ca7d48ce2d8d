"""Stacks, attached cards, dice and covers, on a variant of the toy rulebook: `stack_onto` (a card put
on top of a stack takes over its identity), cards held under another whose abilities work
(`abilities_when_held`, `holder_of`), the `roll` verb, a copy limit with exceptions (`max_copies.except`),
and covering requirements one card per symbol (`covers`, `choose_cover`)."""

from __future__ import annotations

from typing import Any

import pytest
from toy_engine import game_of, play, texts, toy_variant

from interpreter.engine.invariants import check_invariants
from interpreter.expr import compile_expr
from interpreter.loader.cards import check_deck
from interpreter.loader.diagnostics import LoadError
from interpreter.scenarios.runner import build_game
from interpreter.state.errors import GameError
from interpreter.table.context import Ctx

# The toy rulebook with: an event raised when a card is stacked, a placement state of the field, a
# use limit, a card type whose abilities work while held.
EDITS = (
    ("events:\n", 'events:\n  - {id: stacked, rules: ["5"], fields: [card, under, from]}\n'),
    ("placement_states:\n",
     'placement_states:\n  - {id: pose, rules: ["3"], values: [upright, sideways], default: upright}\n'),
    ("visibility: public, ordered: false, groups: [board]}",
     "visibility: public, ordered: false, groups: [board], states: [pose]}"),
    ("common_fields:\n", "  - {id: gear, rules: ['2'], abilities_valid_in: [board], default_keywords: [on_board],\n"
                         "     abilities_when_held: true}\n"
                         "  - {id: trinket, rules: ['2'], abilities_valid_in: [board], default_keywords: [on_board]}\n"
                         "common_fields:\n"),
    ("at_least: 1}\n", "at_least: 1}\n      max_copies: {id: two_of_a_name, rules: ['2'], by: name, max: 2,\n"
                        "                   except: \"it.name == 'Plain'\"}\n"),
    ("  - {id: on_board, rules:", '  - {id: once_a_turn, rules: ["4"], kind: limit, uses_per_turn: 1}\n'
                                 "  - {id: on_board, rules:"),
)

# The rulebook's action of putting a card on a stack, which raises the event stacked.
TEMPLATES = """templates:
  - id: stack_on
    rules: ["5"]
    params: {card: null, onto: null}
    do:
      - stack_onto: {card: "card", onto: "onto", event: stacked}
"""

CARDS = """game: toy
cards:
  - id: S-BASE
    type: unit
    name: Base
    power: 1
    abilities:
      - kind: quick
        keywords: [once_a_turn]
        effect:
          - set_var: {name: base_used, value: true}
  - id: S-TOP
    type: unit
    name: Top
    power: 4
    abilities:
      - kind: quick
        keywords: [once_a_turn]
        effect:
          - set_var: {name: top_used, value: true}
      - kind: quick
        keywords: [in_hand]
        effect:
          - call: {template: stack_on, card: this, onto: "cards('field', you) where it.name == 'Base'"}
  - id: S-WATCH
    type: unit
    name: Watch
    power: 1
    abilities:
      - kind: reflex
        trigger: {event: stacked}
        effect:
          - set_var: {name: heard, value: "[event.card.name, event.under.name, event.from]"}
          - set_var: {name: heard_ids, value: "[event.card.oid, event.under.holder]"}
  - id: S-LIFT
    type: unit
    name: Lift
    power: 1
    abilities:
      - kind: quick
        effect:
          - let: {base: "(cards('field', you) where it.name == 'Base')[0]"}
          - stack_onto: {card: "under(base) where it.name == 'Top'", onto: base}
      - kind: quick
        effect:
          - let: {base: "(cards('field', you) where it.name == 'Base')[0]"}
          - stack_onto: {card: base, onto: base}
          - stack_onto: {card: "cards('hand', you)", onto: "cards('discard', you)"}
  - id: S-PILE-UP
    type: unit
    name: Pile Up
    power: 1
    abilities:
      - kind: quick
        effect:
          - stack_onto: {card: "cards('hand', you)", onto: "top('pile', you, 1)"}
      - kind: quick
        effect:
          - stack_onto: {card: "cards('hand', you)", onto: "top('deck', you, 1)"}
  - id: S-RECALL
    type: unit
    name: Recall
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('field', you) where it.name == 'Base'", to: hand}
      - kind: quick
        effect:
          - move: {cards: "under((cards('field', you) where it.name == 'Base')[0])", to: discard}
  - id: G-SHIELD
    type: gear
    name: Shield
    abilities:
      - kind: aura
        effect: {affects: "holder_of(this)", modify: {power: {add: 2}}}
  - id: T-SHIELD
    type: trinket
    name: Trinket Shield
    abilities:
      - kind: aura
        effect: {affects: "holder_of(this)", modify: {power: {add: 2}}}
  - id: G-BELL
    type: gear
    name: Bell
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: bell, value: "as_list(bell) + [holder_of(this).name]"}
      - kind: reflex
        trigger: {event: moved, if: "event.old.oid == this.oid"}
        effect:
          - set_var: {name: bell_left, value: "event.to"}
  - id: T-BELL
    type: trinket
    name: Trinket Bell
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: bell, value: "as_list(bell) + ['trinket']"}
  - id: S-DIE
    type: unit
    name: Die
    power: 1
    abilities:
      - kind: quick
        effect:
          - roll: {sides: 6, as: r, player: you}
          - set_var: {name: rolled, value: "as_list(rolled) + [r]"}
      - kind: quick
        effect:
          - roll: {sides: "count(cards('hand', you))", as: r}
          - set_var: {name: rolled, value: "as_list(rolled) + [r]"}
  - {id: S-NEEDY, type: unit, name: Needy, power: 1, needs: {red: 1, blue: 1}}
  - id: S-PAY
    type: unit
    name: Pay
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose_cover: {player: you, from: "cards('hand', you)", field: tags, requirements: "['red', 'blue', 'any']",
                           wildcard: any, as: paid, prompt: pay}
          - move: {cards: paid, to: discard}
          - set_var: {name: paid, value: "paid select it.name"}
      - kind: quick
        cost:
          - choose_cover: {player: you, from: "cards('hand', you)", field: tags, requirements: "['red', 'blue']",
                           as: paid}
          - move: {cards: paid, to: discard}
        effect:
          - set_var: {name: cost_paid, value: "count(cards('discard', you))"}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("stacks"), replace=EDITS, append=TEMPLATES, cards=CARDS)


def obj(g, card_id, zone=None):
    return next(o for o in g.state.objects.values() if o.card_id == card_id and (zone is None or o.zone == zone))


def use(d, name, nth=0):
    """The option playing the nth offered ability of the card named `name`."""
    return [o.id for o in d.options if o.id.startswith("use:") and f"{name} [" in o.label][nth]


def ev(g, src, **names):
    fn = compile_expr(src, names=set(g.rb.names) | set(names), functions=g.rb.functions)
    return fn(Ctx(g, None, you=0, vars=dict(names)))


def ids_of(g, zone, player=0):
    return [(g.state.objects[i].card_id, g.state.objects[i].holder) for i in g.state.zones[(zone, player)]]


# -- 1. stack_onto ------------------------------------------------------------------------------------
def test_a_card_put_on_a_stack_takes_over_its_identity(env):
    g = game_of(env, {"P1": {"field": [{"card": "S-BASE", "pose": "sideways", "counters": {"damage": 2},
                                        "marks": {"tagged": True}, "under": ["U-PLAIN"]}, "S-WATCH", "U-BOOST"],
                             "hand": ["S-TOP", "U-DASH"]}})
    d = g.advance()
    total = len(g.state.objects)
    d = play(g, [use(d, "Boost")])  # +3 power to the field's cards, fixed on them now (locked)
    d = play(g, [use(d, "Base")])  # Base's once-a-turn ability: used up
    assert not [o for o in d.options if o.id.startswith("use:") and "Base [" in o.label]
    base = obj(g, "S-BASE")
    oid, entered, ts = base.oid, base.entered_turn, base.timestamp
    old_top = obj(g, "S-TOP")
    d = play(g, [use(d, "Top")])
    top = g.state.objects[oid]
    assert top is base and top.card_id == "S-TOP"  # the same object, a new top card
    assert (top.states, top.counters, top.marks) == ({"pose": "sideways"}, {"damage": 2}, {"tagged": True})
    assert (top.entered_turn, top.timestamp, top.zone, top.controller) == (entered, ts, "field", 0)
    assert g.field(top, "power") == 4 + 3  # the locked effect keeps applying to the stack
    under = obj(g, "S-BASE")
    assert under.oid != oid and under.holder == oid and under.states == {"pose": "upright"}
    assert not under.counters and not under.marks
    # Below the top: the old top card first, then what was already held.
    assert ids_of(g, "field")[:3] == [("S-TOP", None), ("S-BASE", oid), ("U-PLAIN", oid)]
    assert old_top.oid not in g.state.objects and g.state.lki[old_top.oid].zone == "hand"
    assert g.state.vars["heard"] == ["Top", "Base", "hand"]
    assert g.state.vars["heard_ids"] == [oid, oid]
    # The top card's abilities are new ones: its once-a-turn ability is offered though Base used one.
    assert use(d, "Top") == f"use:c{oid}:a0"
    assert any("Top [S-TOP#" in t and "is put on top of Base [S-BASE#" in t for t in texts(g))
    assert check_invariants(g, d, total) == total
    fork = g.fork()
    assert fork.state.objects[oid].card_id == "S-TOP" and fork.state.objects[oid] is not top
    assert [o.card_id for o in ev(fork, "under(s)", s=fork.state.objects[oid])] == ["S-BASE", "U-PLAIN"]
    play(g, [use(d, "Top")])
    assert g.state.vars["top_used"] is True


def test_a_card_from_under_the_stack_replaces_its_old_object(env):
    g = game_of(env, {"P1": {"field": [{"card": "S-BASE", "under": ["S-TOP", "U-PLAIN"]}, "S-LIFT"]}})
    d = g.advance()
    total = len(g.state.objects)
    oid = obj(g, "S-BASE").oid
    held_top = obj(g, "S-TOP").oid
    d = play(g, [use(d, "Lift")])
    assert ids_of(g, "field") == [("S-TOP", None), ("S-BASE", oid), ("U-PLAIN", oid), ("S-LIFT", None)]
    assert g.state.objects[oid].card_id == "S-TOP" and held_top not in g.state.objects
    assert check_invariants(g, d, total) == total


def test_nothing_happens_without_two_different_cards(env):
    g = game_of(env, {"P1": {"field": ["S-BASE", "S-LIFT"], "hand": ["U-PLAIN"]}})
    d = g.advance()
    before = ids_of(g, "field") + ids_of(g, "hand")
    play(g, [use(d, "Lift", 1)])  # onto itself; onto an empty discard pile
    assert ids_of(g, "field") + ids_of(g, "hand") == before
    assert not any("put on top" in t for t in texts(g))


def test_a_stack_in_a_pile_keeps_its_top_in_play(env):
    g = game_of(env, {"P1": {"pile": ["U-AURA", "U-PLAIN"], "field": ["S-PILE-UP", "U-DASH"], "hand": ["U-PINGED"]}})
    d = g.advance()
    aura = obj(g, "U-AURA")
    assert g.field(obj(g, "S-PILE-UP"), "power") == 2
    play(g, [use(d, "Pile Up")])
    assert ids_of(g, "pile") == [("U-PINGED", None), ("U-AURA", aura.oid), ("U-PLAIN", None)]
    # Aura is under the top now: only the top card of a pile is in play, so its ability stops.
    assert g.field(obj(g, "S-PILE-UP"), "power") == 1


def test_a_stack_made_in_a_hidden_zone_is_logged_for_those_who_saw_both_cards(env):
    g = game_of(env, {"P1": {"deck": ["U-AURA", "U-PLAIN"], "field": ["S-PILE-UP"], "hand": ["U-PINGED"]}})
    d = g.advance()
    play(g, [use(d, "Pile Up", 1)])
    entry = next(e for e in g.entries if e.kind == "stack")
    # P1 knew the card from their hand but not the deck's top card; P2 knew neither.
    assert entry.hidden_from == frozenset({0, 1}) and entry.redacted.startswith("a card is put on top of #")
    assert [g.state.objects[i].card_id for i in g.state.zones[("deck", 0)]] == ["U-PINGED", "U-AURA", "U-PLAIN"]


# -- 2. attached cards: abilities_when_held, holder_of -------------------------------------------------
def test_an_attached_card_with_a_continuous_ability_modifies_its_holder(env):
    g = game_of(env, {"P1": {"field": [{"card": "S-BASE", "under": ["G-SHIELD"]}, {"card": "U-PLAIN",
                                                                                   "under": ["T-SHIELD"]}]}})
    g.advance()
    base, shield = obj(g, "S-BASE"), obj(g, "G-SHIELD")
    assert g.field(base, "power") == 3  # 1 + 2 from the attached Shield
    assert g.field(obj(g, "U-PLAIN"), "power") == 2  # a trinket's abilities do not work while held
    assert ev(g, "holder_of(s)", s=shield) is base
    assert ev(g, "holder_of(b)", b=base) is None


def test_an_attached_card_stops_working_when_its_holder_leaves(env):
    g = game_of(env, {"P1": {"field": [{"card": "S-BASE", "under": ["G-SHIELD"]}, "S-RECALL"]}})
    d = g.advance()
    shield = obj(g, "G-SHIELD")
    play(g, [use(d, "Recall")])
    base = obj(g, "S-BASE")
    assert base.zone == "hand" and shield.zone == "field"
    assert g.field(base, "power") == 1
    assert ev(g, "holder_of(s)", s=shield) is None


def test_an_attached_card_with_a_triggered_ability(env):
    g = game_of(env, {"P1": {"field": [{"card": "S-BASE", "under": ["G-BELL"]},
                                       {"card": "U-PLAIN", "under": ["T-BELL"]}, "S-RECALL"]}})
    d = g.advance()
    assert g.state.vars["bell"] == ["Base"]  # the ping: the attached Bell triggers, the trinket does not
    play(g, [use(d, "Recall", 1)])  # Bell goes from under Base to the discard pile
    assert obj(g, "G-BELL").zone == "discard"
    assert g.state.vars["bell_left"] == "discard"  # it saw its own move: it worked where it was


# -- 3. dice: roll ----------------------------------------------------------------------------------
def rolls(env, seed, times=8, nth=0, hand=()):
    rb, cards = env
    g = build_game({"seed": seed, "setup": {"start_at": "round", "turn": 0,
                                            "roles": {"mover": "P1", "other_side": "P2"},
                                            "zones": {"P1": {"field": ["S-DIE"], "hand": list(hand)}}}}, rb, cards)
    d = g.advance()
    play(g, [use(d, "Die", nth)] * times)
    return g, g.state.vars.get("rolled")


def test_a_die_roll_is_a_logged_chance_event_the_seed_decides(env):
    g, got = rolls(env, 5)
    assert len(got) == 8 and all(1 <= n <= 6 for n in got)
    logged = [e for e in g.entries if e.kind == "random"]
    assert [e.text for e in logged] == [f"P1 rolls a 6-sided die: {n}" for n in got]
    assert all(e.chance for e in logged)
    assert rolls(env, 5)[1] == got  # the same seed, the same rolls
    assert any(rolls(env, s)[1] != got for s in (6, 7, 8))


def test_a_die_with_sides_from_an_expression(env):
    g, got = rolls(env, 1, times=3, nth=1, hand=["U-PLAIN"])
    assert got == [1, 1, 1]  # one card in hand: a one-sided die
    assert "P1 rolls a 1-sided die: 1" in texts(g)  # the master rolls when no player is named
    with pytest.raises(GameError, match="roll: a die needs at least 1 side, got 0"):
        rolls(env, 1, times=1, nth=1)


# -- 4. a copy limit with exceptions: max_copies.except ----------------------------------------------
def test_cards_the_exception_holds_for_have_no_copy_limit(env):
    rb, cards = env
    assert check_deck(rb, cards, {"deck": ["U-PLAIN"] * 4}) == []  # any number of Plain
    assert check_deck(rb, cards, {"deck": ["U-PLAIN", "U-PLAIN", "U-PINGED", "U-PINGED"]}) == []
    assert check_deck(rb, cards, {"deck": ["U-PLAIN", "U-PINGED", "U-PINGED", "U-PINGED"]}) == [
        ("deck", "deck construction two_of_a_name (2): at most 2 copies of name Pinged, found 3")]


def test_a_bad_exception_is_a_located_error(tmp_path):
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(("at_least: 1}\n", "at_least: 1}\n      max_copies: {id: m, rules: ['2'], "
                                                           "max: 2, except: \"it.name ==\"}\n"),))
    assert "all.yaml:" in str(e.value) and "in expression" in str(e.value)


# -- 5. covering requirements one card per symbol: covers, choose_cover ------------------------------
def covers(g, names, requirements, wildcard="'any'"):
    objs = {o.card_id: o for o in g.state.objects.values()}
    cs = [objs[n] for n in names]
    return ev(g, f"covers(cs, 'tags', {requirements}" + (f", {wildcard})" if wildcard else ")"), cs=cs)


def test_covers_gives_each_required_symbol_its_own_card(env):
    g = game_of(env, {"P1": {"hand": ["U-TWO-TAGS", "U-PLAIN", "U-BLUE", "U-AURA", "S-NEEDY"]}})
    g.advance()
    assert covers(g, ["U-TWO-TAGS", "U-PLAIN"], "['red', 'blue']")  # Plain red, Two Tags blue
    assert not covers(g, ["U-TWO-TAGS"], "['red', 'blue']")  # a card with two symbols pays one
    assert not covers(g, ["U-TWO-TAGS", "U-BLUE"], "['red', 'red']")
    assert covers(g, ["U-PLAIN", "U-BLUE", "U-AURA"], "['red', 'any', 'any']")  # any card pays the wildcard
    assert not covers(g, ["U-PLAIN", "U-BLUE", "U-AURA"], "['red', 'blue', 'any', 'any']")
    assert not covers(g, ["U-AURA", "U-AURA"], "['red']") and covers(g, ["U-AURA"], "['any']")
    assert covers(g, [], "[]") and not covers(g, [], "['any']")
    needs = obj(g, "S-NEEDY")
    assert ev(g, "covers(cs, 'tags', n.needs)", cs=[obj(g, "U-PLAIN"), obj(g, "U-TWO-TAGS")], n=needs) is True
    assert ev(g, "covers(cs, 'tags', n.needs, 'any')", cs=[obj(g, "U-PLAIN"), obj(g, "U-BLUE")], n=needs) is True
    assert ev(g, "covers(cs, 'tags', n.needs)", cs=[obj(g, "U-PLAIN"), obj(g, "U-AURA")], n=needs) is False


def test_covers_with_symbols_worked_out_for_each_payer(env):
    # A null field: each item is what one payer pays (a list, or one symbol), e.g. a card's own colours
    # for one payer and what a rule says another counts as.
    g = game_of(env, {"P1": {"field": ["U-PLAIN"]}})
    assert ev(g, "covers([['red', 'blue'], 'red'], null, ['red', 'blue'])") is True
    assert ev(g, "covers([['red', 'blue']], null, ['red', 'blue'])") is False, "one payer pays one symbol"
    assert ev(g, "covers([['red'], [], null], null, ['red', 'any', 'any'], 'any')") is True
    assert ev(g, "covers(cs select it.tags, null, ['red'])", cs=[obj(g, "U-PLAIN")]) is True
    assert ev(g, "covers([], null, ['red'])") is False


def test_choose_cover_offers_only_cards_that_keep_the_cover_possible(env):
    g = game_of(env, {"P1": {"field": ["S-PAY"], "hand": ["U-TWO-TAGS", "U-PLAIN", "U-BLUE", "U-AURA"]}})
    d = g.advance()
    total = len(g.state.objects)
    d = play(g, [use(d, "Pay")])
    assert d.prompt == "pay: red" and sorted(o.label.split(" [")[0] for o in d.options) == ["Plain", "Two Tags"]
    d = play(g, ["U-TWO-TAGS"])  # blue: only Blue can pay it now, taken without asking
    assert d.prompt == "pay: any" and sorted(o.label.split(" [")[0] for o in d.options) == ["Aura", "Plain"]
    d = play(g, ["U-AURA"])
    assert g.state.vars["paid"] == ["Two Tags", "Blue", "Aura"]
    assert [g.state.objects[i].card_id for i in g.state.zones[("hand", 0)]] == ["U-PLAIN"]
    assert check_invariants(g, d, total) == total


def test_choose_cover_never_paints_the_player_into_a_corner(env):
    g = game_of(env, {"P1": {"field": ["S-PAY"], "hand": ["U-TWO-TAGS", "U-PLAIN", "U-AURA"]}})
    d = g.advance()
    d = play(g, [use(d, "Pay")])
    # Red: Two Tags would leave no card for blue, so only Plain is offered (and taken); then Two
    # Tags pays blue, Aura the wildcard: no question at all.
    assert d.prompt == "play_timing"
    assert g.state.vars["paid"] == ["Plain", "Two Tags", "Aura"]


def test_choose_cover_binds_nothing_when_no_cover_exists(env):
    g = game_of(env, {"P1": {"field": ["S-PAY"], "hand": ["U-PLAIN", "U-PLAIN", "U-AURA"]}})
    d = g.advance()
    d = play(g, [use(d, "Pay")])
    assert d.prompt == "play_timing" and g.state.vars["paid"] == []
    assert len(g.state.zones[("hand", 0)]) == 3 and not any("chooses" in t for t in texts(g))


def test_a_cost_that_must_cover_requirements_is_offered_only_when_it_can(env):
    g = game_of(env, {"P1": {"field": ["S-PAY"], "hand": ["U-PLAIN", "U-PLAIN", "U-AURA"]}})
    d = g.advance()
    assert len([o for o in d.options if o.id.startswith("use:")]) == 1  # the second ability cannot be paid
    g = game_of(env, {"P1": {"field": ["S-PAY"], "hand": ["U-PLAIN", "U-TWO-TAGS", "U-AURA"]}})
    d = g.advance()
    play(g, [use(d, "Pay", 1)])
    assert g.state.vars["cost_paid"] == 2
    assert [g.state.objects[i].card_id for i in g.state.zones[("hand", 0)]] == ["U-AURA"]
