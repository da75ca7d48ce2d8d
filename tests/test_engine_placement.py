"""Placement restrictions (`zone_rules.placement_restrictions`) and atomic swaps, on the toy rulebook.

A restriction guards zones: a move into them for which its condition holds does not happen,
whoever makes it (an effect, a cost, a swap); one limited to `kinds` holds only for moves of those
kinds. A swap judges both moves before either happens, each as if the other card had left: if
either card cannot move (a restriction, a replacement effect that would take its move's place),
neither does. Costs and choices agree: a cost that would move a card where it may not go is not
payable, and `can_move_to` lets a choice offer only the places a move would reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY, game_of, play, toy_variant

from interpreter.loader.diagnostics import LoadError

ZONE_RULES = '''zone_rules:
  id: zone_rules
  rules: ["3"]
  identity_kept_within: [board]
  to_owner_except: []
  move_kinds:
    - {id: summon, rules: ["3.1"]}
  placement_restrictions:
    - id: field_holds_two
      rules: ["3.2"]
      zones: [field]
      if: "count(cards(dest, dest_player) where not (it in leaving)) >= 2"
    - id: one_of_a_name
      rules: ["3.3"]
      zones: [board]
      if: "it.name in (cards_in('board', dest_player) where it != arriving and not (it in leaving) select it.name)"
    - {id: no_dash_summoned, rules: ["3.4"], zones: [pile], kinds: [summon], if: "it.power == null"}
    - {id: anchors_stay_out_of_hands, rules: ["3.5"], zones: [hand], if: "it.name == 'Anchor'"}
'''
OLD_ZONE_RULES = 'zone_rules: {id: zone_rules, rules: ["3"], identity_kept_within: [board], to_owner_except: []}\n'

CARDS = """game: toy
cards:
  - id: P-PUSH
    type: unit
    name: Push
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        effect:
          - choose: {player: "you", from: "cards('hand', you)", as: pushed}
          - move: {cards: "pushed", to: field, as: arrived}
          - set_var: {name: pushed_in, value: "count(arrived)"}
  - id: P-SUMMON
    type: unit
    name: Summon
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        effect:
          - choose: {player: "you", from: "cards('hand', you)", as: called}
          - move: {cards: "called", to: pile, kind: summon}
      - kind: quick
        keywords: [anywhere]
        effect:
          - choose: {player: "you", from: "cards('hand', you)", as: called}
          - move: {cards: "called", to: pile}
  - id: P-SWAP
    type: unit
    name: Swapper
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('hand', you)", as: other}
          - swap: {a: "this", b: "other"}
  - id: P-ANCHOR
    type: unit
    name: Anchor
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('hand', you)", as: other}
          - swap: {a: "this", b: "other"}
  - id: P-FEED
    type: unit
    name: Feed
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        cost:
          - choose: {player: "you", from: "cards('hand', you)", as: paid}
          - move: {cards: "paid", to: field}
        effect:
          - set_var: {name: fed, value: true}
  - id: P-PICK
    type: unit
    name: Pick
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        effect:
          - choose: {player: "you", from: "cards('hand', you) where can_move_to(it, 'field', you)", min: 0, max: 1,
                     as: picked}
          - move: {cards: "picked", to: field}
  - id: P-WARD
    type: unit
    name: Ward
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: moved
          if: "event.card.name == 'Plain' and event.to == 'hand'"
          instead:
            - set_var: {name: warded, value: true}
  - id: P-TRADE
    type: unit
    name: Trade
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        effect:
          - choose: {player: "you", from: "cards('hand', you) where it != this", as: other}
          - swap: {a: "cards('field', you) where it.name == 'Plain'", b: "other"}
  - id: P-RECALL
    type: unit
    name: Recall
    power: 1
    abilities:
      - kind: quick
        keywords: [anywhere]
        effect:
          - move: {cards: "cards('field', you) where it.name == 'Plain'", to: hand}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("placement"), replace=((OLD_ZONE_RULES, ZONE_RULES),), cards=CARDS)


def use(g: Any, card_id: str, index: int = 0) -> str:
    """The option that plays ability `index` (0: the first) of the card."""
    d = g.advance()
    assert d is not None
    oids = [o.oid for o in g.state.objects.values() if o.card_id == card_id]
    return next(o.id for o in d.options
                if o.id.startswith("use:") and any(o.id.endswith(f":c{oid}:a{index}") for oid in oids))


def uses(g: Any, card_id: str) -> list[str]:
    d = g.advance()
    oids = [o.oid for o in g.state.objects.values() if o.card_id == card_id]
    return [o.id for o in (d.options if d is not None else []) if o.id.startswith("use:")
            and any(f":c{oid}:" in o.id for oid in oids)]


def ids(g: Any, zone: str, player: int = 0) -> list[str]:
    return sorted(g.state.objects[oid].card_id for oid in g.state.zones[(zone, player)])


def refusals(g: Any) -> list[Any]:
    return [e for e in g.entries if e.kind == "move" and ("does not move" in e.text or "not swapped" in e.text)]


def test_a_move_into_a_full_zone_does_not_happen(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-PLAIN", "U-AURA"], "hand": ["P-PUSH", "U-DASH"]}})
    play(g, [use(g, "P-PUSH"), "U-DASH"])
    assert ids(g, "field") == ["U-AURA", "U-PLAIN"] and "U-DASH" in ids(g, "hand")
    assert g.state.vars["pushed_in"] == 0, "the move binds no card: it did not happen"
    (entry,) = refusals(g)
    assert "Dash" in entry.text and "field_holds_two" in entry.text and "3.2" in entry.rules
    # With room, the same move happens.
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "hand": ["P-PUSH", "U-DASH"]}})
    play(g, [use(g, "P-PUSH"), "U-DASH"])
    assert ids(g, "field") == ["U-DASH", "U-PLAIN"] and g.state.vars["pushed_in"] == 1 and not refusals(g)


def test_a_restriction_on_a_group_guards_each_of_its_zones(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"pile": ["U-PLAIN"], "hand": ["P-PUSH", "U-PLAIN"]}})
    play(g, [use(g, "P-PUSH"), "U-PLAIN"])
    assert ids(g, "field") == [], "another Plain is on the board (the pile): one of a name"
    assert "one_of_a_name" in refusals(g)[0].text


def test_a_restriction_limited_to_a_kind_of_move(env: tuple[Any, Any]) -> None:
    # A move of kind `summon` of a card with no power is refused; a plain move there is not.
    g = game_of(env, {"P1": {"hand": ["P-SUMMON", "U-DASH"]}})
    play(g, [use(g, "P-SUMMON", 0), "U-DASH"])
    assert ids(g, "pile") == [] and "no_dash_summoned" in refusals(g)[0].text
    g = game_of(env, {"P1": {"hand": ["P-SUMMON", "U-DASH"]}})
    play(g, [use(g, "P-SUMMON", 1), "U-DASH"])
    assert ids(g, "pile") == ["U-DASH"] and not refusals(g)


def test_a_swap_where_the_other_card_may_not_move_moves_neither(env: tuple[Any, Any]) -> None:
    # The swapper may go to the hand, but the Plain from the hand may not join the field, which
    # already has a Plain: neither moves (before, the swapper left and its place stayed empty).
    g = game_of(env, {"P1": {"field": ["P-SWAP", "U-PLAIN"], "hand": ["U-PLAIN"]}})
    play(g, [use(g, "P-SWAP")])
    assert ids(g, "field") == ["P-SWAP", "U-PLAIN"] and ids(g, "hand") == ["U-PLAIN"]
    (entry,) = refusals(g)
    assert "are not swapped" in entry.text and "one_of_a_name" in entry.text and "3.3" in entry.rules
    assert not [e for e in g.entries if e.kind == "move" and "moves from" in e.text]


def test_a_swap_where_the_first_card_may_not_move_moves_neither(env: tuple[Any, Any]) -> None:
    # An Anchor may not enter a hand: the card from the hand does not come to the field either.
    g = game_of(env, {"P1": {"field": ["P-ANCHOR"], "hand": ["U-DASH"]}})
    play(g, [use(g, "P-ANCHOR")])
    assert ids(g, "field") == ["P-ANCHOR"] and ids(g, "hand") == ["U-DASH"]
    assert "anchors_stay_out_of_hands" in refusals(g)[0].text


def test_a_swap_both_may_make_moves_both_the_leaving_card_making_room(env: tuple[Any, Any]) -> None:
    # The field is full (two units), but the swapper leaves as the Dash enters: both move.
    g = game_of(env, {"P1": {"field": ["P-SWAP", "U-PLAIN"], "hand": ["U-DASH"]}})
    play(g, [use(g, "P-SWAP")])
    assert ids(g, "field") == ["U-DASH", "U-PLAIN"] and ids(g, "hand") == ["P-SWAP"] and not refusals(g)


def test_a_replacement_that_would_replace_either_move_stops_the_swap(env: tuple[Any, Any]) -> None:
    # The Ward replaces a Plain's move to the hand. Swapping the Plain out of the field would be so
    # replaced: the swap does not happen, and nothing is replaced (no move was made).
    g = game_of(env, {"P1": {"field": ["P-WARD", "U-PLAIN"], "hand": ["P-TRADE", "U-DASH"]}})
    play(g, [use(g, "P-TRADE")])
    assert ids(g, "field") == ["P-WARD", "U-PLAIN"] and ids(g, "hand") == ["P-TRADE", "U-DASH"]
    assert "warded" not in g.state.vars and "replacement" in refusals(g)[0].text
    # Without the Ward the same swap happens; and the Ward does replace a plain move of the Plain.
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "hand": ["P-TRADE", "U-DASH"]}})
    play(g, [use(g, "P-TRADE")])
    assert ids(g, "field") == ["U-DASH"] and ids(g, "hand") == ["P-TRADE", "U-PLAIN"]
    g = game_of(env, {"P1": {"field": ["P-WARD", "U-PLAIN"], "hand": ["P-RECALL"]}})
    play(g, [use(g, "P-RECALL")])
    assert g.state.vars.get("warded") is True and ids(g, "field") == ["P-WARD", "U-PLAIN"]


def test_payability_agrees_with_the_restrictions(env: tuple[Any, Any]) -> None:
    # A cost that moves a card from the hand into a full field cannot be paid: not offered.
    g = game_of(env, {"P1": {"field": ["U-PLAIN", "U-AURA"], "hand": ["P-FEED", "U-DASH"]}})
    assert uses(g, "P-FEED") == []
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "hand": ["P-FEED", "U-DASH"]}})
    play(g, [use(g, "P-FEED"), "U-DASH"])
    assert g.state.vars.get("fed") is True and ids(g, "field") == ["U-DASH", "U-PLAIN"]


def test_can_move_to_offers_only_the_cards_a_move_would_take(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "hand": ["P-PICK", "U-PLAIN", "U-DASH"]}})
    d = play(g, [use(g, "P-PICK")])
    assert d is not None and sorted(o.label.split(" ")[0] for o in d.options) == ["Dash", "Pick"], "not the Plain"


@pytest.mark.parametrize(("old", "new", "message"), [
    ("zones: [field]\n", "zones: [feild]\n", "unknown zone or zone group 'feild'"),
    ("kinds: [summon]", "kinds: [sumon]", "unknown move kind 'sumon' (known: summon)"),
    ('if: "it.name == \'Anchor\'"', 'if: "it.name == nme"', "unknown name 'nme'"),
])
def test_bad_restrictions_are_located_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(LoadError) as info:
        toy_variant(tmp_path, replace=((OLD_ZONE_RULES, ZONE_RULES.replace(old, new)),))
    (diag,) = info.value.diagnostics
    assert message in diag.message and diag.path.endswith("all.yaml")
    start = (TOY / "all.yaml").read_text(encoding="utf-8").splitlines().index(OLD_ZONE_RULES.strip())
    line = next(i for i, text in enumerate(ZONE_RULES.replace(old, new).splitlines()) if new.strip() in text)
    assert diag.line == start + line + 1


def test_a_move_of_an_unknown_kind_is_a_located_error(tmp_path: Path) -> None:
    cards = CARDS.replace("to: pile, kind: summon}", "to: pile, kind: sumon}")
    with pytest.raises(LoadError) as info:
        toy_variant(tmp_path, replace=((OLD_ZONE_RULES, ZONE_RULES),), cards=cards)
    (diag,) = info.value.diagnostics
    assert "unknown move kind 'sumon' (known: summon)" in diag.message and diag.path.endswith("extra.yaml")
