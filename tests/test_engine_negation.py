"""Negation effects (`negate: true`), pending abilities that vanish (verb cancel_pending, zones
with `cancels_pending`), effects that stop applying to cards (verb end_effects) and delayed
triggers that fire once within their duration."""

from __future__ import annotations

from toy_engine import play, toy_game

from interpreter.derive.changes import touched
from interpreter.timing.events import emit
from interpreter.timing.moves import create_card


def use(g, name):
    d = g.advance()
    opt = next(o.id for o in d.options if o.id.startswith("use:") and name in o.label)
    g.answer([opt])


def test_negated_cards_abilities_do_not_work_and_pending_ones_do_not_resolve():
    g = toy_game({"P1": {"field": ["U-HUSH", "U-PINGED"]}}, stop="three")
    use(g, "Hush")
    # Pinged's ping trigger resolved in step one before the negation; the next ping is in a later turn.
    assert g.state.vars.get("pinged") == 1
    from interpreter.derive.abilities import ability_objects

    names = {g.cards[o.card_id].fields["name"] for o in ability_objects(g)}
    assert "Pinged" not in names and "Hush" in names


def test_negation_covers_cards_arriving_later_and_a_pending_negated_ability():
    g = toy_game({"P1": {"field": ["U-HUSH"], "hand": ["U-PINGED"]}}, stop="three")
    use(g, "Hush")
    from interpreter.state.objects import Pending

    obj = next(o for o in g.state.objects.values() if o.card_id == "U-PINGED")
    g.state.pending.append(Pending(999, obj.oid, obj.card_id, 0, 0, {"type": "ping"}))
    # Pinged is in the hand, not negated there (the effect names board cards): it resolves.
    play(g, ["pass"])
    assert g.state.vars.get("pinged") == 1
    # On the board the same pending ability is negated and does not resolve.
    g = toy_game({"P1": {"field": ["U-HUSH", "U-PLAIN"]}}, stop="three")
    use(g, "Hush")
    later = create_card(g, "U-PINGED", 0, "field")
    touched(g, later)
    g.state.pending.append(Pending(998, later.oid, later.card_id, 0, 0, {"type": "ping"}))
    play(g, ["pass"])
    assert g.state.vars.get("pinged") is None
    assert any("is negated and does not resolve" in e.text for e in g.entries)


def test_cancel_pending_and_end_effects():
    g = toy_game({"P1": {"field": ["U-BOOST", "U-PLAIN"]}}, stop="three")
    use(g, "Boost")
    plain = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    assert g.field(plain, "power") == 5
    # A new turn: Clear triggers on ping, cancels every pending ability and ends the boost on the field.
    g2 = toy_game({"P1": {"field": ["U-CLEAR", "U-PINGED", "U-BOOST"]}}, stop="two")
    d = g2.advance()
    clear = next(o.id for o in d.options if "Clear" in o.label)
    g2.answer([clear])
    play(g2, ["pass"])
    assert g2.state.vars.get("pinged") is None
    assert any("pending abilit" in e.text and "vanish" in e.text for e in g2.entries)


def test_end_effects_stops_a_locked_effect_on_those_cards():
    g = toy_game({"P1": {"field": ["U-BOOST", "U-PLAIN"]}}, stop="three")
    use(g, "Boost")
    plain = next(o for o in g.state.objects.values() if o.card_id == "U-PLAIN")
    from interpreter.table.context import Ctx
    from interpreter.verbs.effects import v_end_effects

    list(v_end_effects(g, {"cards": lambda ctx: [plain]}, Ctx(g, None, you=0)))
    assert g.field(plain, "power") == 2
    assert all(plain.oid not in (e.locked or []) for e in g.state.effects)


def test_entering_a_cancelling_zone_removes_pending_abilities():
    g = toy_game({"P1": {"field": ["U-RETURN", "U-PINGED"]}}, stop="two")
    d = g.advance()
    ret = next(o.id for o in d.options if "Return" in o.label)
    g.answer([ret])                                   # Return resolves first: Pinged goes to the hand
    play(g, ["pass"])
    assert g.state.vars.get("pinged") is None
    assert not g.state.pending


def test_delayed_trigger_once_within_its_duration():
    g = toy_game({"P1": {"field": ["U-LATER"]}}, stop="three")
    use(g, "Later")
    g.stop_at = None
    g.state.vars["stop"] = True
    # Two pings before the duration ends: a `once` delayed trigger fires for the first only.
    from interpreter.table.context import Ctx

    emit(g, {"type": "ping"}, Ctx(g, None, you=0))
    emit(g, {"type": "ping"}, Ctx(g, None, you=0))
    assert sum(1 for p in g.state.pending if p.created is not None) == 1
