"""Smaller generic constructs Re:Birth needed: triggers once per instance of a repeated step
(`emit ... once_per`), the most recent cards (`newest(cards, n)`), and face-down cards their master
may look at (a zone's `face_down_seen_by_master`)."""

from __future__ import annotations

from toy_engine import game_of, toy_game, toy_variant

from interpreter.table.context import Ctx
from interpreter.table.functions import f_newest
from interpreter.table.views import can_see, describe_for
from interpreter.timing.events import emit
from interpreter.timing.moves import set_state
from interpreter.verbs.registry import load_all


def _ping(g, scope):
    emit(g, {"type": "ping"}, Ctx(g, None, you=0), once_per_turn=True, once_scope=scope)


def test_once_per_scope_triggers_once_for_each_value():
    g = toy_game({"P1": {"field": ["U-PINGED"]}})
    _ping(g, 1)
    _ping(g, 1)
    assert len(g.state.pending) == 1, "the second ping of attack 1 triggers nothing"
    assert g.triggers.untriggered("ping", 1) == 0
    assert g.triggers.untriggered("ping", 2) == 1
    _ping(g, 2)
    assert len(g.state.pending) == 2, "a new value of the scope triggers again"
    assert g.triggers.untriggered("ping") == 0, "it triggered this turn"


def test_newest_n_is_the_most_recently_placed_first():
    g = toy_game({"P1": {"field": ["U-PLAIN", "U-DASH", "U-PINGED"]}})
    objs = [g.state.objects[oid] for oid in g.state.zone("field", 0)]
    by_time = sorted(objs, key=lambda o: o.timestamp, reverse=True)
    env = Ctx(g, None, you=0)
    assert f_newest(env, objs, 2) == by_time[:2]
    assert f_newest(env, objs) == by_time[0]
    assert f_newest(env, objs, 0) == []
    assert f_newest(env, [], None) is None


def test_face_down_cards_seen_by_their_master_only(tmp_path):
    old = "groups: [board]}"
    env = toy_variant(tmp_path, replace=(("ordered: false, " + old,
                                          "ordered: false, groups: [board], states: [face], "
                                          "face_down_seen_by_master: true}"),))
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "pile": ["U-DASH"]}})
    (field_card,) = [g.state.objects[oid] for oid in g.state.zone("field", 0)]
    set_state(g, field_card, "face", "down", Ctx(g, None, you=0))
    assert can_see(g, field_card, 0) and not can_see(g, field_card, 1)
    set_state(g, field_card, "face", "up", Ctx(g, None, you=0))
    assert can_see(g, field_card, 1)


def test_hidden_facts_are_shown_for_hidden_cards(tmp_path):
    facts = "hidden_facts: {blue: \"'blue' in as_list(it.tags)\"}"
    env = toy_variant(tmp_path, replace=(("cancels_pending: true}", f"cancels_pending: true, {facts}}}"),))
    g = game_of(env, {"P1": {"hand": ["U-PLAIN", "U-DASH"]}})
    seen_by_other = g.view(1)["zones"]["hand@P1"]
    assert all(c["card"] is None for c in seen_by_other), "the cards stay hidden"
    assert sorted(c["facts"]["blue"] for c in seen_by_other) == [False, True]
    assert all("facts" not in c for c in g.view(0)["zones"]["hand@P1"]), "the owner sees the cards themselves"
    dash = next(g.state.objects[oid] for oid in g.state.zone("hand", 0) if g.state.objects[oid].card_id == "U-DASH")
    assert describe_for(g, dash, 1) == f"hidden card #{dash.oid} (blue)"


def test_owner_locked_zones_refuse_a_move_into_another_players_zone(tmp_path):
    env = toy_variant(tmp_path, replace=(("to_owner_except: []}", "to_owner_except: [], owner_locked: true}"),))
    g = game_of(env, {"P1": {"hand": ["U-PLAIN", "U-DASH"]}})
    move = load_all()["move"]
    ctx = Ctx(g, None, you=0)
    plain, dash = (g.state.objects[oid] for oid in list(g.state.zone("hand", 0)))
    args = {"cards": lambda c: [plain], "to": "discard", "player": lambda c: 1}
    list(move.fn(g, args, ctx))
    assert len(g.state.zone("discard", 1)) == 0 and len(g.state.zone("hand", 0)) == 2, "the move did not happen"
    assert any("it does not move" in e.text for e in g.entries)
    list(move.fn(g, {"cards": lambda c: [dash], "to": "discard"}, ctx))
    assert len(g.state.zone("discard", 0)) == 1, "a zone named without a player is the owner's"
