"""Speed mechanisms that must not change what happens: static reads of conditions (table/reads.py),
rule-process bindings kept idle until a place they read changes (timing/rule_processing.py), the
trigger prefilter on `event.<key> == this` and the watcher cache keyed by the working abilities
(derive/triggers.py). Engine tests run on a copy of the toy rulebook with a few rule processes and
cards added; equivalence tests play seeded games of the real rulebooks with and without each shortcut."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

import interpreter
import interpreter.table.derived as derived_mod
from interpreter.cli.setup import load_game_env
from interpreter.derive import triggers as trig_mod
from interpreter.expr import parse
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game
from interpreter.sim import play_one
from interpreter.table.derived import EFFECTS, GLOBAL, MISSING, PLAYER_COUNTERS, Derived
from interpreter.table.reads import (
    ANY_PLAYER,
    PLAYER_VAR,
    ZONE_VAR,
    event_subject,
    fields_read,
    role_only,
    zone_keys_read,
    zone_only,
)
from interpreter.timing import rule_processing as rproc
from interpreter.timing.rule_processing import _places

TOY = Path(__file__).resolve().parent / "data" / "toy"
TITLES = ["lovelive", "haikyu"]
SEEDS = range(10)
PLAIN_ONLY = pytest.mark.skipif(
    interpreter.compiled(), reason="it patches or subclasses engine code, which a compiled engine does not look up "
    "(tests/test_compiled.py covers that build)")

# -- static analyses ---------------------------------------------------------------------------


@pytest.mark.parametrize(("src", "key"), [
    ("event.card == this and x", "card"),
    ("x and event.card == this", "card"),
    ("x and (y and event.card == this)", "card"),
    ("this == event.old", "old"),
    ("event.card.oid == this.oid", "card"),
    ("this.oid == event.old.oid", "old"),
    ("event.card == this or x", None),
    ("event.card != this", None),
    ("not (event.card == this)", None),
    ("event.card.zone == this", None),
    ("event.card == this.holder", None),
    ("event.card.oid == this.holder", None),
    ("event.card == that", None),
    ("other.card.oid == this.oid", None),                                # not the event's
    ("event.oid == this.oid", None),
    ("x", None),
])
def test_event_subject(src, key):
    assert event_subject(parse(src)) == key


GROUPS = {"board": ["pile", "field"]}


@pytest.mark.parametrize(("src", "zone_var", "player_var", "keys"), [
    ("count(cards('hand', p)) > 0", None, "p", {("hand", PLAYER_VAR)}),
    ("count(cards(z, p)) > 1", "z", "p", {(ZONE_VAR, PLAYER_VAR)}),
    ("count(cards('x', null))", None, "p", {("x", None)}),
    ("count(cards('hand', other(p)))", None, "p", {("hand", ANY_PLAYER)}),
    ("count(cards('hand', p))", None, None, {("hand", ANY_PLAYER)}),      # p is no bound player here
    ("count(cards_in('board', p))", None, "p", {("pile", PLAYER_VAR), ("field", PLAYER_VAR)}),
    ("count(top('deck', p, 2)) + count(bottom('grave', null, 1))", None, "p",
     {("deck", PLAYER_VAR), ("grave", None)}),
    ("count(cards('hand', p) where it.power > 1) + turn", None, "p", {("hand", PLAYER_VAR)}),
    ("stage == 1", None, "p", set()),
    ("count(cards(pick, p))", None, "p", None),                           # a zone named by a variable
    ("count(cards(z, p))", None, "p", None),                              # z without for_each_zone
    ("count(cards('a' + 'b', p))", None, "p", None),                      # a computed zone
    ("count(cards('hand'))", None, "p", None),                            # no player argument
])
def test_zone_keys_read(src, zone_var, player_var, keys):
    assert zone_keys_read(parse(src), GROUPS, {}, zone_var, player_var) == keys


def test_zone_keys_read_follows_rulebook_functions():
    bodies = {"hand_of": parse("cards('hand', who)"), "loop": parse("loop(1)"), "anywhere": parse("cards(z, who)")}
    # Inside a function the player is a parameter: any player's hand.
    assert zone_keys_read(parse("count(hand_of(p)) > 0"), GROUPS, bodies, None, "p") == {("hand", ANY_PLAYER)}
    assert zone_keys_read(parse("count(loop(p)) > 0"), GROUPS, bodies, None, "p") is None
    assert zone_keys_read(parse("count(anywhere(p)) > 0"), GROUPS, bodies, "z", "p") is None


def test_zone_keys_read_follows_the_bound_player_into_functions():
    """Given the parameters' names, a function handed the bound player reads that player's zones only
    (and one handed another player, or something else, any player's)."""
    bodies = {"hand_of": parse("cards('hand', who)"), "both": parse("cards('hand', who) + cards('deck', other(who))"),
              "deep": parse("count(hand_of(q)) + 1"), "zone_of": parse("cards(place, who)")}
    params = {"hand_of": ["who"], "both": ["who"], "deep": ["q"], "zone_of": ["place", "who"]}
    read = lambda src, zv=None: zone_keys_read(parse(src), GROUPS, bodies, zv, "p", params=params)  # noqa: E731
    assert read("count(hand_of(p)) > 0") == {("hand", PLAYER_VAR)}
    assert read("count(hand_of(other(p))) > 0") == {("hand", ANY_PLAYER)}
    assert read("count(both(p)) > 0") == {("hand", PLAYER_VAR), ("deck", ANY_PLAYER)}
    assert read("deep(p) > 1") == {("hand", PLAYER_VAR)}
    assert read("count(zone_of(z, p)) > 0", "z") == {(ZONE_VAR, PLAYER_VAR)}


@pytest.mark.parametrize(("src", "expected"), [
    ("count(cards('hand', p)) > 0", True),
    ("count(cards(z, p) where it.power > 1 and it.name == 'x') > 0", True),
    ("any(cards_in('board', p) select it.holder == null)", True),
    ("count(cards('hand', p)) > stage", False),                           # a game variable
    ("turn > 1", False),
    ("node == 'two' and count(cards('hand', p)) > 0", False),             # a position in the turn
    ("count(cards('hand', turn_player)) > 0", False),
    ("count(cards('hand', you)) > 0", False),
    ("pending_count() > 0", False),                                       # not a function of zones
    ("has_status(p, 'muted')", False),
    ("count(my_cards(p)) > 0", False),                                    # a rulebook function
])
def test_zone_only(src, expected):
    assert zone_only(parse(src), {"p", "z"}) is expected


@pytest.mark.parametrize(("src", "roles", "expected"), [
    ("[first, other(first)]", {"first"}, True),
    ("[current, waiting]", {"current", "waiting"}, True),
    ("[first, other(first)]", {"second"}, False),
    ("[first, you]", {"first"}, False),
    ("[first, turn_player]", {"first"}, False),
    ("players()", set(), True),
    ("[first.zone]", {"first"}, False),
    ("zones_in('board')", set(), True),                                # the rulebook's groups: fixed
    ("cards('hand', first)", {"first"}, False),
    ("my_players(first)", {"first"}, False),
])
def test_role_only(src, roles, expected):
    assert role_only(parse(src), roles) is expected


def test_fields_read():
    assert fields_read(parse("count(cards('h', p) where it.power > 1 and it.name == 'x') > 0"), {}) == {
        "power", "name"}
    assert fields_read(parse("count(cards('h', p)) > 0"), {}) == set()
    assert fields_read(parse("count(cards('h', p) where field(it, 'x') > 0)"), {}) is None
    assert fields_read(parse("count(cards('h', p) where printed(it, 'power') > 0)"), {}) is None
    bodies = {"tagged": parse("cards('h', who) where it.tags != null"), "self": parse("self(1).cost"),
              "computed": parse("cards('h', who) where field(it, n)")}
    assert fields_read(parse("count(tagged(p) where it.power > 1)"), bodies) == {"tags", "power"}
    assert fields_read(parse("self(1)"), bodies) == {"cost"}              # recursion ends
    assert fields_read(parse("count(computed(p, 'x'))"), bodies) is None


# -- the store of derived facts ---------------------------------------------------------------------


def test_derived_facts_are_forgotten_when_their_own_places_change():
    d = Derived()
    a, b, c = ("proc", 0, None), ("proc", 1, None), ("other", None, "field")
    d.keep(d.number(a), False, [("hand", 0), ("pile", 0)], 1)
    d.keep(d.number(b), False, [("hand", 1)], 1)
    d.keep(d.number(c), False, [("field", 0), ("field", 1)], 1)
    assert d.known_keys() == {a, b, c}
    d.changed(("deck", 0))                                                # nobody reads it
    d.changed(("hand", None))
    assert d.known_keys() == {a, b, c}
    d.changed(("hand", 1))
    assert d.known_keys() == {a, c}
    d.changed(("pile", 0))
    assert d.known_keys() == {c}
    d.changed(("field", 1))
    assert d.known_keys() == set()
    d.keep(d.number(c), False, [("field", 0)], 2)                         # kept again: known again
    d.changed(("field", 1))                                               # its old place no longer forgets it
    assert d.known_keys() == {c}
    d.changed(("field", 0))
    assert d.known_keys() == set()
    assert d.number(c) == 2 and len(d.values) == 3                        # one number, one value per fact


def test_derived_facts_that_cannot_tell_what_they_read_hold_for_one_version():
    d = Derived()
    n = d.number(("could_change", 7))
    d.keep(n, True, None, 5)
    assert d.get(n, 5) is True and d.get(n, 6) is MISSING
    m = d.number(("f", 1))
    d.keep(m, [1, 2], [GLOBAL], 5)
    assert d.get(m, 9) == [1, 2]                                          # kept across versions
    d.changed(GLOBAL)
    assert d.get(m, 9) is MISSING


def test_derived_changed_all_forgets_everything_and_off_keeps_nothing():
    d = Derived()
    d.keep(d.number(("p", 0, None)), False, [("hand", 0)], 1)
    d.keep(d.number(("q", None, None)), False, [], 1)                     # reads nothing that can change
    d.changed_all()
    assert d.known_keys() == set() and d.readers == {}
    d.keep(d.number(("p", 0, None)), False, [("hand", 0)], 1)
    assert d.known_keys() == {("p", 0, None)}                              # usable after clearing
    off = Derived(on=False)
    off.keep(off.number("x"), 3, [], 1)
    assert off.get(off.number("x"), 1) is MISSING


def _process_keys(g) -> set:
    """The (process id, player, zone) bindings whose condition is known false now."""
    return {k[1:] for k in g.derived.known_keys() if k[0] == "process"}


# -- a toy rulebook with rule processes ------------------------------------------------------------

PROCESSES = """\
rule_processing:
  id: rule_processing
  rules: ["9"]
  processes:
    - id: crowd
      rules: ["9"]
      for_each_player: "[mover, other_side]"
      if: "count(cards('discard', p)) >= 2"
      do:
        - move: {cards: "cards('discard', p)", to: deck}
        - set_var: {name: crowd_hits, value: "sum([crowd_hits]) + 1"}
    - id: alarm
      rules: ["9"]
      for_each_player: "[mover, other_side]"
      if: "alarm == p"
      do:
        - set_var: {name: alarm, value: -1}
        - set_var: {name: alarm_hits, value: "sum([alarm_hits]) + 1"}
    - id: stack
      rules: ["9"]
      for_each_zone: "zones_in('board')"
      for_each_player: "[mover, other_side]"
      if: "count(cards(z, p) where it.name == 'Plain') >= 2"
      do:
        - move: {cards: "cards(z, p) where it.name == 'Plain'", to: hand}
        - set_var: {name: stack_hits, value: "sum([stack_hits]) + 1"}
    - id: strong
      rules: ["9"]
      for_each_player: "[mover, other_side]"
      if: "count(cards('field', p) where it.power >= 4) > 0"
      do:
        - move: {cards: "cards('field', p) where it.power >= 4", to: hand}
        - set_var: {name: strong_hits, value: "sum([strong_hits]) + 1"}
"""

CARDS = """\
game: toy
cards:
  - id: W-DUMP
    type: unit
    name: Dump
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you)", to: discard}
  - id: W-SPREAD
    type: unit
    name: Spread
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you)", to: field}
  - id: W-TOSS
    type: unit
    name: Toss
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you) where it.name == 'Plain'", to: discard}
  - id: W-SWAP
    type: unit
    name: Swap
    power: 1
    abilities:
      - kind: quick
        effect:
          - set_role: {role: other_side, player: opponent}
  - id: W-RING
    type: unit
    name: Ring
    power: 1
    abilities:
      - kind: quick
        effect:
          - set_var: {name: alarm, value: you}
  - id: W-SELF
    type: unit
    name: Self
    power: 1
    abilities:
      - kind: reflex
        trigger: {event: moved, if: "event.card == this and event.to == 'field'"}
        effect:
          - set_var: {name: self_hits, value: "sum([self_hits]) + 1"}
  - id: W-LEAVE
    type: unit
    name: Leave
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_board, in_hand]
        trigger: {event: moved, if: "this == event.old and event.to == 'discard'"}
        effect:
          - set_var: {name: leave_hits, value: "sum([leave_hits]) + 1"}
"""


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    root = tmp_path_factory.mktemp("watch") / "toy"
    shutil.copytree(TOY, root)
    head = root / "rulebook.yaml"
    text = head.read_text()
    assert "parts: [all.yaml, card_text.yaml]" in text
    head.write_text(text.replace("parts: [all.yaml, card_text.yaml]", "parts: [all.yaml, card_text.yaml, watch.yaml]"))
    (root / "watch.yaml").write_text(PROCESSES)
    (root / "cards" / "watch.yaml").write_text(CARDS)
    rb = load_rulebook(str(root))
    return rb, load_cards(rb, [root / "cards"])


def game(toy, zones: dict[str, Any], vars: dict[str, Any] | None = None, other_side: str = "P2"):
    rb, cards = toy
    sc = {"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": other_side},
                    "vars": vars or {}, "zones": zones}}
    g = build_game(sc, rb, cards)
    g.stop_at = "three"
    return g


def proc(g, pid):
    return next(p for p in g.rb.rule_processes if p.id == pid)


def use(g, d, name):
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and name in o.label)])
    return g.advance()


def names_in(g, zone, player=0):
    return sorted(g.cards[g.state.objects[i].card_id].fields["name"] for i in g.state.zones[(zone, player)])


class Counting:
    """A condition that records who it was evaluated for (it keeps `ast` for the static analyses)."""

    def __init__(self, fn, key):
        self.fn, self.key, self.ast, self.calls = fn, key, fn.ast, []

    def __call__(self, ctx):
        self.calls.append(self.key(ctx))
        return self.fn(ctx)


def count_process(monkeypatch, g, pid):
    p = proc(g, pid)
    c = Counting(p.cond, lambda ctx: (ctx.vars.get("p"), ctx.vars.get("z")))
    monkeypatch.setattr(p, "cond", c)
    return c


def test_loader_records_what_each_process_reads(toy):
    rb, _ = toy
    by_id = {p.id: p for p in rb.rule_processes}
    assert by_id["crowd"].watch_keys == (("discard", PLAYER_VAR),) and by_id["crowd"].zone_only
    assert by_id["alarm"].watch_keys == () and not by_id["alarm"].zone_only
    assert by_id["stack"].watch_keys == ((ZONE_VAR, PLAYER_VAR),) and by_id["stack"].zone_only
    assert by_id["strong"].reads_fields == frozenset({"power"})
    assert all(p.static_bindings for p in rb.rule_processes)


def test_places_of_a_binding(toy):
    g = game(toy, {})
    stack = proc(g, "stack")
    also = [EFFECTS, PLAYER_COUNTERS]  # what effects make of the cards, and players' counters
    assert _places(g, stack, 1, "pile") == [("pile", 1), *also]           # and what effects make of them
    assert _places(g, stack, None, "field") == [("field", 0), ("field", 1), *also]  # no bound player
    assert _places(g, dataclasses.replace(stack, watch_keys=(("hand", ANY_PLAYER),)), 0, None) == [
        ("hand", 0), ("hand", 1), *also]
    assert _places(g, dataclasses.replace(stack, watch_keys=(("hand", None),)), 0, None) == [("hand", None), *also]
    assert _places(g, dataclasses.replace(stack, watch_keys=(("nowhere", PLAYER_VAR),)), 0, None) is None
    assert _places(g, dataclasses.replace(stack, watch_keys=None), 0, None) is None


def test_a_zone_process_found_idle_fires_once_cards_arrive(toy, monkeypatch):
    g = game(toy, {"P1": {"field": ["W-DUMP"], "hand": ["U-PLAIN", "U-PLAIN"]}})
    crowd = count_process(monkeypatch, g, "crowd")
    d = g.advance()                                               # play timing: check timing found nothing
    assert {("crowd", 0, None), ("crowd", 1, None)} <= _process_keys(g)
    assert sorted(crowd.calls) == [(0, None), (1, None)]
    d = use(g, d, "Dump")                                         # two cards into P1's discard
    assert g.state.vars.get("crowd_hits") == 1
    assert names_in(g, "discard") == [] and names_in(g, "deck") == ["Plain", "Plain"]
    assert (1, None) not in crowd.calls[2:]                       # P2's discard never changed
    assert d is not None and "pass" in d.ids()


def test_a_zone_process_ignores_changes_outside_its_zones(toy, monkeypatch):
    g = game(toy, {"P1": {"field": ["W-RING"]}}, vars={"alarm": -1})
    crowd = count_process(monkeypatch, g, "crowd")
    alarm = count_process(monkeypatch, g, "alarm")
    d = g.advance()
    assert len(crowd.calls) == 2 and len(alarm.calls) == 2
    use(g, d, "Ring")                                             # a game variable changes, no zone does
    assert g.state.vars["alarm_hits"] == 1 and g.state.vars["alarm"] == -1
    assert len(crowd.calls) == 2                                  # not evaluated again
    assert len(alarm.calls) > 2


def test_a_variable_process_found_idle_fires_after_the_variable_changes(toy):
    g = game(toy, {"P1": {"field": ["W-RING"]}}, vars={"alarm": -1})
    d = g.advance()
    # a condition reading a game variable is never kept idle: variables change without notice
    assert not {("alarm", 0, None), ("alarm", 1, None)} & _process_keys(g)
    d = use(g, d, "Ring")
    assert g.state.vars["alarm_hits"] == 1
    use(g, d, "Ring")                                             # again: the idle binding wakes again
    assert g.state.vars["alarm_hits"] == 2


def test_a_process_bound_to_zones_wakes_for_its_own_zone(toy, monkeypatch):
    g = game(toy, {"P1": {"field": ["W-SPREAD"], "hand": ["U-PLAIN", "U-PLAIN"]}})
    stack = count_process(monkeypatch, g, "stack")
    d = g.advance()
    assert {("stack", p, z) for p in (0, 1) for z in ("pile", "field")} <= _process_keys(g)
    n = len(stack.calls)
    use(g, d, "Spread")                                           # both Plains onto P1's field
    assert g.state.vars.get("stack_hits") == 1
    assert names_in(g, "hand") == ["Plain", "Plain"]
    assert set(stack.calls[n:]) <= {(0, "field")}                 # no other binding's places changed


def test_binding_lists_follow_the_roles(toy, monkeypatch):
    # Both roles on P1 at first: P2's discard is nobody's business until a role moves to P2.
    g = game(toy, {"P1": {"field": ["W-SWAP"]}, "P2": {"discard": ["U-PLAIN", "U-PLAIN"]}}, other_side="P1")
    crowd = count_process(monkeypatch, g, "crowd")
    d = g.advance()
    assert g.state.vars.get("crowd_hits") is None and {p for p, _ in crowd.calls} == {0}
    use(g, d, "Swap")
    assert g.state.roles["other_side"] == 1
    assert g.state.vars.get("crowd_hits") == 1 and names_in(g, "deck", 1) == ["Plain", "Plain"]


def test_a_continuous_effect_wakes_a_process_reading_the_field_it_changes(toy):
    g = game(toy, {"P1": {"field": ["U-BOOST", "U-PLAIN"]}})
    d = g.advance()
    assert ("strong", 0, None) in _process_keys(g)
    use(g, d, "Boost")                                            # +3 power, no card moves
    assert g.state.vars.get("strong_hits") == 1
    assert names_in(g, "hand") == ["Boost", "Plain"]


@PLAIN_ONLY
def test_a_toy_game_is_the_same_without_the_idle_cache(toy):
    def run(fresh: bool):
        g = game(toy, {"P1": {"field": ["W-DUMP", "W-RING", "W-SPREAD"], "hand": ["U-PLAIN", "U-PLAIN"]}},
                 vars={"alarm": -1})
        if fresh:
            g.derived.on = False                                  # nothing kept: every condition evaluated
        d = g.advance()
        for name in ("Ring", "Spread", "Dump", "Ring"):
            d = use(g, d, name)
        return [e.text for e in g.entries], dict(g.state.vars)

    assert run(False) == run(True)


# -- the trigger prefilter ------------------------------------------------------------------------


def count_trigger(monkeypatch, toy, card_id):
    _, cards = toy
    trig = cards[card_id].abilities[0].triggers[0]
    c = Counting(trig["if"], lambda ctx: ctx.this.oid)
    monkeypatch.setitem(trig, "if", c)
    return c


def test_a_self_trigger_fires_for_its_own_card_only(toy, monkeypatch):
    g = game(toy, {"P1": {"field": ["W-SELF", "W-SPREAD"], "hand": ["W-SELF"]}})
    cond = count_trigger(monkeypatch, toy, "W-SELF")
    d = g.advance()
    (staying,) = [o for o in g.state.objects.values() if o.card_id == "W-SELF" and o.zone == "field"]
    use(g, d, "Spread")                                           # the hand's Self moves onto the field
    assert g.state.vars.get("self_hits") == 1
    triggered = [e.text for e in g.entries if e.kind == "trigger"]
    assert len(triggered) == 1 and "Self" in triggered[0]
    (moved,) = [o for o in g.state.objects.values() if o.card_id == "W-SELF" and o.oid != staying.oid]
    # Only the moved card's condition was evaluated: the other Self (and the moved card's last
    # known information in the hand) were skipped without evaluating theirs.
    assert cond.calls == [moved.oid]


def test_watchers_include_cards_that_arrived_after_an_earlier_event(toy):
    g = game(toy, {"P1": {"field": ["W-TOSS", "W-SPREAD"], "hand": ["W-SELF", "U-PLAIN"]}})
    d = g.advance()
    d = use(g, d, "Toss")                                         # a first move: who watches moves is listed
    assert names_in(g, "discard") == ["Plain"] and g.state.vars.get("self_hits") is None
    use(g, d, "Spread")                                           # Self arrives on the field: a new watcher
    assert g.state.vars.get("self_hits") == 1


def test_a_leaving_trigger_fires_for_its_own_card_only(toy, monkeypatch):
    g = game(toy, {"P1": {"field": ["W-LEAVE", "W-DUMP"], "hand": ["W-LEAVE"]}})
    cond = count_trigger(monkeypatch, toy, "W-LEAVE")
    d = g.advance()
    (leaving,) = [o for o in g.state.objects.values() if o.card_id == "W-LEAVE" and o.zone == "hand"]
    use(g, d, "Dump")                                             # the hand's Leave goes to the discard
    assert g.state.vars.get("leave_hits") == 1
    assert names_in(g, "discard") == ["Leave"] and names_in(g, "field") == ["Dump", "Leave"]
    assert cond.calls == [leaving.oid]                            # seen through its last known information


def test_self_triggers_without_the_prefilter_agree(toy, monkeypatch):
    def run():
        g = game(toy, {"P1": {"field": ["W-SELF", "W-LEAVE", "W-SPREAD", "W-DUMP"],
                              "hand": ["W-SELF", "W-LEAVE", "U-PLAIN"]}})
        d = g.advance()
        for name in ("Spread", "Dump"):
            d = use(g, d, name)
        return [e.text for e in g.entries], dict(g.state.vars)

    with_prefilter = run()
    monkeypatch.setattr(trig_mod, "event_subject", lambda ast: None)
    assert run() == with_prefilter
    assert with_prefilter[1].get("self_hits") == 1 and with_prefilter[1].get("leave_hits") is None


# -- equivalence on the real rulebooks ------------------------------------------------------------


@pytest.fixture(scope="module", params=TITLES)
def real(request):
    return load_game_env(request.param, None)


def _found(batch):
    return [(p.id, c.vars.get("p"), c.vars.get("z")) for p, c in batch]


@PLAIN_ONLY
def test_idle_cache_finds_what_a_full_check_finds(real, monkeypatch):
    rb, cards, decks = real
    original = rproc.applicable
    seen = {"calls": 0, "idle": 0}
    wrong: list[Any] = []

    def checked(g, procs, ctx):
        seen["calls"] += 1
        seen["idle"] += len(_process_keys(g))
        got = original(g, procs, ctx)
        store = g.derived
        kept, store.values = store.values, [MISSING] * len(store.values)
        store.on = False                                         # the same check with nothing known
        try:
            full = original(g, procs, ctx)
        finally:
            store.on = True
            store.values = kept + [MISSING] * (len(store.values) - len(kept))
        if _found(got) != _found(full):
            wrong.append((g.seed, g.state.decisions, _found(got), _found(full)))
        return got

    monkeypatch.setattr(rproc, "applicable", checked)
    for seed in SEEDS:
        g = play_one(rb, cards, decks, seed, invariants=True)
        assert g.state.result is not None
    assert not wrong, wrong[:3]
    assert seen["calls"] > 0
    if any(proc.zone_only for proc in rb.rule_processes):
        assert seen["idle"] > 0                                  # the cache was in use


def _transcripts(rb, cards, decks, seeds):
    out = []
    for seed in seeds:
        g = play_one(rb, cards, decks, seed, log=True)
        out.append(([e.as_json() for e in g.entries], g.state.fingerprint()))
    return out


_NORMAL: dict[str, Any] = {}


@pytest.mark.parametrize("shortcut", ["prefilter", "watchers"])
def test_trigger_shortcuts_change_no_game(real, monkeypatch, shortcut):
    rb, cards, decks = real
    seeds = list(SEEDS)[:5]
    if rb.id not in _NORMAL:
        _NORMAL[rb.id] = _transcripts(rb, cards, decks, seeds)
    normal = _NORMAL[rb.id]
    if shortcut == "prefilter":
        monkeypatch.setattr(trig_mod, "event_subject", lambda ast: None)
    else:
        monkeypatch.setattr(derived_mod, "KEEP_FACTS", False)   # who waits for an event worked out afresh
    assert _transcripts(rb, cards, decks, seeds) == normal
