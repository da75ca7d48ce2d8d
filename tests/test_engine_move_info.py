"""Which state of a moved card a trigger on the move reads is rulebook data (moved_card_information):
`this` (for the moved card's own abilities) and `event.card` denote the card before or after the move
as the first matching case says, in the condition and while resolving; `event.old` / `event.new`
always stay before / after. Without the element, triggers see the event as made (the card where it
went) and a card that left reads itself as it was.

The toy rulebook (tests/data/toy) has no such element; these tests add it as one more part (MOVE_INFO):
after between public zones, the public side across a hidden zone, before between hidden zones. The
cards are in tests/data/toy/cards/moves.yaml."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from toy_engine import TOY, play, toy_env

from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.expr import compile_expr
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game
from interpreter.state.objects import GameObject

MOVE_INFO = """
moved_card_information:
  id: moved_card_information
  rules: ["5"]
  cases:
    - id: public_to_public
      rules: ["5"]
      if: "zone_visibility(event.from) == 'public' and zone_visibility(event.to) == 'public'"
      use: after
    - {id: public_to_hidden, rules: ["5"], if: "zone_visibility(event.from) == 'public'", use: before}
    - {id: hidden_to_public, rules: ["5"], if: "zone_visibility(event.to) == 'public'", use: after}
  default: before
"""


@pytest.fixture(scope="module")
def with_rule(tmp_path_factory) -> tuple[Any, Any]:
    """The toy rulebook with the element, loaded as any rulebook is (schema, compiled cases)."""
    root = tmp_path_factory.mktemp("move_info") / "toy"
    shutil.copytree(TOY, root)
    head = root / "rulebook.yaml"
    text = head.read_text()
    assert "parts: [all.yaml, card_text.yaml]" in text
    head.write_text(text.replace("parts: [all.yaml, card_text.yaml]",
                                 "parts: [all.yaml, card_text.yaml, move_info.yaml]"))
    (root / "move_info.yaml").write_text(MOVE_INFO)
    rb = load_rulebook(str(root))
    return rb, load_cards(rb, [root / "cards"])


def run(env: tuple[Any, Any], zones: dict[str, Any], first: list[str]) -> dict[str, Any]:
    """Play the given answers, then pass or take the first option until the step ends; the variables."""
    rb, cards = env
    g = build_game({"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                              "zones": {"P1": zones}}}, rb, cards)
    g.stop_at = "two"
    play(g, first)
    d = g.advance()
    while d is not None:
        g.answer([next((o.id for o in d.options if o.id == "pass"), d.options[0].id)])
        d = g.advance()
    return g.state.vars


def mover_game(env: tuple[Any, Any]) -> dict[str, Any]:
    """Mover (c1) puts itself into the discard pile, a public-to-public move."""
    return run(env, {"field": ["U-MOVER"]}, ["use:c1:a0"])


def seen(v: dict[str, Any]) -> tuple[Any, ...]:
    return v.get("seen_zone"), v.get("card_zone"), v.get("old_zone"), v.get("new_zone")


@pytest.fixture
def rule(with_rule, monkeypatch):
    """Replace the element's cases: [(condition, use)] and a default."""
    rb, _ = with_rule

    def set_rule(cases, default="before"):
        compiled = tuple((f"c{i}", use, compile_expr(src, names=set(rb.names), functions=rb.functions))
                         for i, (src, use) in enumerate(cases))
        monkeypatch.setitem(rb.timing, "moved_card_information",
                            {"id": "moved_card_information", "rules": ["5"], "compiled": (compiled, default)})
    return set_rule


def test_public_to_public_reads_the_card_where_it_went(with_rule):
    # Before the element, `this` was the card that left and event.card the card in the discard pile,
    # so a trigger written `event.card == this` never fired.
    assert with_rule[0].timing["moved_card_information"]["compiled"][1] == "before"
    assert seen(mover_game(with_rule)) == ("discard", "discard", "field", "discard")


def test_public_to_hidden_reads_the_public_side_also_while_resolving(with_rule):
    # Retreat goes to the hand: it triggers reading itself on the field, and resolves reading its last
    # known information there (the hand drops pending abilities of cards that enter it, not this one).
    v = run(with_rule, {"field": ["U-RETREAT"]}, ["use:c1:a0"])
    assert seen(v) == ("field", "field", "field", "hand")


@pytest.mark.parametrize(("mover", "card_zone", "new_zone"), [
    ("U-MOVER", "discard", "discard"), ("U-RETREAT", "field", "hand")])
def test_other_cards_and_delayed_triggers_see_event_card_the_same_way(with_rule, mover, card_zone, new_zone):
    v = run(with_rule, {"field": [mover, "U-WAITER", "U-SEER"]}, ["use:c2:a0", "use:c1:a0"])
    assert (v["seer_card_zone"], v["waiter_card_zone"], v["seer_new_zone"]) == (card_zone, card_zone, new_zone)


def test_an_ability_working_where_the_card_was_and_where_it_went_triggers_once(with_rule):
    # Both works in the hand and on the board: the object that left and the one that arrived both
    # watch the move, and both now read the card as the same object; it is still one trigger.
    assert run(with_rule, {"hand": ["U-BOTH"]}, ["use:c1:a0"])["both_seen"] == ["field"]


def test_without_the_element_triggers_see_the_event_as_made():
    env = toy_env()
    assert not env[0].timing.get("moved_card_information")
    assert "seen_zone" not in mover_game(env)  # event.card (in the discard pile) is not `this` (that left)
    v = run(env, {"field": ["U-RETREAT", "U-WAITER", "U-SEER"]}, ["use:c2:a0", "use:c1:a0"])
    assert (v["seer_card_zone"], v["waiter_card_zone"]) == ("hand", "hand")
    assert run(env, {"hand": ["U-BOTH"]}, ["use:c1:a0"])["both_seen"] == ["field"]


def test_before_when_the_first_matching_case_says_so(with_rule, rule):
    rule([("event.from == 'field'", "before"), ("true", "after")])
    assert seen(mover_game(with_rule)) == ("field", "field", "field", "discard")


def test_default_when_no_case_matches(with_rule, rule):
    rule([("event.from == 'hand'", "before")], default="after")
    assert mover_game(with_rule)["seen_zone"] == "discard"


def test_zone_visibility_function():
    from interpreter.table.context import Ctx

    rb, cards = toy_env()
    g = Game(rb, cards, [{}, {}], seed=0)
    fn = compile_expr("[zone_visibility('deck'), zone_visibility('hand'), zone_visibility('field')]",
                      names=set(rb.names), functions=rb.functions)
    assert fn(Ctx(g, None, you=0)) == ["private", "owner", "public"]


# The games' own data: which side of a move each rulebook reads, move by move.
def read_side(game: str, old: tuple[Any, ...], new: tuple[Any, ...]) -> str:
    """before or after, for a move from old to new: (zone, master[, face])."""
    rb, cards, _ = load_game_env(game, None)
    g = Game(rb, cards, [{}, {}], seed=0)
    cid = next(iter(cards))

    def obj(oid: int, zone: str, master: int, face: str | None = None) -> GameObject:
        return GameObject(oid, cid, 0, master, zone, master, {} if face is None else {"face": face}, 0, 0)

    o, n = obj(1, *old), obj(2, *new)
    event = {"type": "moved", "card": n, "old": o, "new": n, "from": o.zone, "to": n.zone,
             "from_player": o.zone_player, "to_player": n.zone_player}
    view, info = g.triggers._moved_view(event)
    assert view["card"] is info and view["old"] is o and view["new"] is n
    return "before" if info is o else "after"


@pytest.mark.parametrize(("old", "new", "side"), [
    (("attack_area", 0), ("drop_area", 0), "after"),            # public to public
    (("attack_area", 0), ("hand", 0), "before"),                # public to hidden: the public side
    (("hand", 0), ("attack_area", 0), "after"),                 # hidden to public: the public side
    (("deck_area", 0), ("hand", 0), "before"),                  # hidden to hidden: decision
    (("hand", 0), ("set_area", 0, "down"), "before"),           # the set area is hidden (3-11-2)
    (("drop_area", 0), ("set_area", 0, "down"), "before"),
    (("set_area", 0, "down"), ("drop_area", 0), "after"),
    (("set_area", 0, "up"), ("drop_area", 0), "after"),         # a face-up set card is public (3-11-3)
])
def test_haikyu_6_6_2_1(old, new, side):
    assert read_side("haikyu", old, new) == side


@pytest.mark.parametrize(("old", "new", "side"), [
    (("member_center", 0), ("waiting_room", 0), "before"),      # leaves the stage (9.7.4.1.2)
    (("member_center", 0), ("hand", 0), "before"),
    (("member_left", 0), ("member_right", 0), "after"),         # stage to stage, same master (9.7.4.1.3)
    (("member_left", 0), ("member_left", 1), "before"),         # changes master on the stage: decision
    (("waiting_room", 1), ("member_left", 0), "after"),         # onto a stage with a new master
    (("hand", 0), ("member_center", 0), "after"),               # hidden to public (9.7.4.1.1)
    (("waiting_room", 0), ("hand", 0), "before"),               # public to hidden
    (("main_deck", 0), ("waiting_room", 0), "after"),
    (("waiting_room", 0), ("exclusion", 0), "after"),           # public to public
    (("main_deck", 0), ("energy_deck", 0), "before"),           # hidden to hidden: decision
])
def test_lovelive_9_7_4_1(old, new, side):
    assert read_side("lovelive", old, new) == side
