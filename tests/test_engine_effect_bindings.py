"""Effects created by an ability read, whenever they apply, the names the ability saw when it
created them (issue 29, item 14): its event (a triggered ability's `event.card`), its master and
source, and every variable of its scopes, not only those of the innermost one. A delayed trigger or a
replacement reads its own event as `event`; a value of the creating event is kept in a variable."""

from __future__ import annotations

from toy_engine import play, toy_game

from interpreter.table.context import Ctx
from interpreter.verbs.registry import load_all


def obj(g, card_id, zone=None):
    return next(o for o in g.state.objects.values() if o.card_id == card_id and (zone is None or o.zone == zone))


def use(g, d, card_id):
    """Play the quick ability of this card (the only use option naming it)."""
    oid = obj(g, card_id).oid
    opt = next(o.id for o in d.options if o.id.startswith("use:") and str(oid) in o.id)
    return play(g, [opt])


def enter_both(g):
    """P1 puts U-BOTH from the hand onto the field; the abilities that trigger resolve (in any order),
    and P1 is asked to act again."""
    d = use(g, g.advance(), "U-BOTH")
    while d is not None and d.kind != "play":
        d = play(g, [d.options[0].id])
    return d


def test_a_triggered_effect_on_event_card_applies_to_it():
    g = toy_game({"P1": {"field": ["U-BOOSTER"], "hand": ["U-BOTH"]}}, stop="three")
    enter_both(g)
    assert any(e.kind == "continuous" for e in g.state.effects)
    assert g.field(obj(g, "U-BOTH", "field"), "power") == 3


def test_an_unlocked_triggered_effect_on_event_card_applies_to_it():
    g = toy_game({"P1": {"field": ["U-BOOSTER-OPEN"], "hand": ["U-BOTH"]}}, stop="three")
    enter_both(g)
    assert g.field(obj(g, "U-BOTH", "field"), "power") == 6


def test_an_effect_created_in_a_nested_scope_reads_the_abilitys_variables():
    g = toy_game({"P1": {"field": ["U-SCOPED", "U-PLAIN"]}}, stop="three")
    use(g, g.advance(), "U-SCOPED")
    assert g.field(obj(g, "U-PLAIN"), "power") == 6


def test_a_delayed_trigger_reads_the_variables_of_every_scope_around_it():
    g = toy_game({"P1": {"field": ["U-DEFER"]}}, stop="three")
    use(g, g.advance(), "U-DEFER")
    assert g.state.vars.get("later_saw") == ["from the ability", 1]


def test_a_replacement_reads_a_variable_kept_from_the_creating_event():
    g = toy_game({"P1": {"field": ["U-WARD"], "hand": ["U-BOTH"]}}, stop="three")
    enter_both(g)
    both = obj(g, "U-BOTH", "field")
    move = load_all()["move"]
    list(move.fn(g, {"cards": lambda c: [both], "to": "discard"}, Ctx(g, None, you=0)))
    assert obj(g, "U-BOTH").zone == "hand", "the replacement put it in the hand instead"


def test_a_forked_game_keeps_the_event_of_an_effect_on_the_copied_card():
    g = toy_game({"P1": {"field": ["U-BOOSTER-OPEN"], "hand": ["U-BOTH"]}}, stop="three")
    assert enter_both(g) is not None, "P1 is asked to act again"
    f = g.fork()
    both = obj(f, "U-BOTH", "field")
    (eff,) = f.state.effects
    assert eff.event is not None and eff.event["card"] is both, "the copy's event names the copied card"
    assert f.field(both, "power") == 6


def test_an_effect_whose_source_left_reads_it_as_it_last_was():
    g = toy_game({"P1": {"field": ["U-PARTING", "U-PLAIN"]}}, stop="three")
    use(g, g.advance(), "U-PARTING")
    assert obj(g, "U-PARTING").zone == "discard"
    assert g.field(obj(g, "U-PLAIN"), "power") == 5


def test_the_nearer_scope_wins_a_name():
    g = toy_game({"P1": {"field": ["U-PLAIN"]}})
    outer = Ctx(g, None, you=0, vars={"a": 1, "b": 1})
    assert outer.child(vars={"a": 2}).child().all_vars() == {"a": 2, "b": 1}
