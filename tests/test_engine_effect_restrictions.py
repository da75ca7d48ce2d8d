"""Placement restrictions that continuous effects add (`restrict:` in an effect description): a
card's "the opponent cannot put red units onto the field", as an effect an ability creates or as a
card's continuous ability. A move the restriction refuses does not happen (the card stays, the log
names the card whose effect refuses it); `can_move_to` agrees, so choices offer only what a move
would take. The condition reads the effect's own scope (`you` its master, `this` its source) beside
the placement names, `mover` (who makes the move) and `by_ability` (an ability's cost or effect makes
it, not a step of the rules). On the toy rulebook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, play, texts, toy_variant

from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx
from interpreter.timing.moves import move_card, move_refusal

CARDS = """game: toy
cards:
  # Creates an effect (for the rest of the game) that keeps red units out of its master's opponent's
  # board.
  - id: R-BAN
    type: unit
    name: Ban
    power: 0
    abilities:
      - kind: quick
        effect:
          - continuous:
              effect:
                restrict:
                  zones: [board]
                  if: "dest_player == opponent and 'red' in as_list(it.tags)"
                  rules: ["9"]
  # A continuous ability: while it is on the board, no ability of its master's opponent puts a card
  # into that player's hand (a rule's own move is not refused).
  - id: R-WALL
    type: unit
    name: Wall
    power: 0
    abilities:
      - kind: aura
        effect:
          restrict: {zones: [hand], if: "dest_player == opponent and by_ability and mover == opponent"}
  # At most two units on its master's field, counting those chosen to arrive together.
  - id: R-TWO
    type: unit
    name: Two
    power: 0
    abilities:
      - kind: aura
        effect:
          restrict:
            zones: [field]
            if: "dest_player == you and count(cards('field', you)) + count(arriving_with) >= 2"
  # Moves every unit of its master's hand onto their field.
  - id: R-PUT
    type: unit
    name: Put
    power: 0
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you) where it.type == 'unit'", to: field}
  # Takes the top card of its master's deck into their hand.
  - id: R-DRAW
    type: unit
    name: Draw
    power: 0
    abilities:
      - kind: quick
        effect:
          - move: {cards: "top('deck', you, 1)", to: hand}
  - {id: R-RED, type: unit, name: Red, power: 1, tags: [red]}
  - {id: R-BLUE, type: unit, name: Blue, power: 1, tags: [blue]}
"""

TURN = ("        - play_timing: {player: \"turn_player\", actions: [use, give_up]}\n",
        "        - play_timing: {player: \"turn_player\", actions: [use, give_up]}\n"
        "        - set_role: {role: mover, player: \"other(turn_player)\"}\n")


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("restrict"), replace=(TURN,), cards=CARDS)


def use(d: Any, card: str) -> str:
    return next(o.id for o in d.options if o.id.startswith("use:") and card in o.label)


def zone_of(g: Any, card: str) -> list[str]:
    return sorted(o.zone + f"@P{o.zone_player + 1}" for o in g.state.objects.values() if o.card_id == card)


def test_an_effect_keeps_matching_cards_out_for_its_duration(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["R-BAN"]}, "P2": {"field": ["R-PUT"], "hand": ["R-RED", "R-BLUE"]}})
    d = play(g, [use(g.advance(), "Ban")])        # P1 creates the effect, then passes
    d = play(g, ["pass"])
    assert d.player == 1                          # P2's turn
    ctx = Ctx(g, None, you=1)
    red = next(o for o in g.state.objects.values() if o.card_id == "R-RED")
    assert move_refusal(g, red, "field", 1, ctx) is not None  # can_move_to agrees with the move
    play(g, [use(d, "Put")])
    assert zone_of(g, "R-RED") == ["hand@P2"] and zone_of(g, "R-BLUE") == ["field@P2"]
    assert any("cannot move to field of P2: it does not move (a restriction of Ban" in t for t in texts(g))


def test_a_continuous_ability_restricts_while_it_works(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["R-WALL"], "hand": ["R-DRAW"]},
                      "P2": {"field": ["R-DRAW"], "deck": ["R-RED", "R-BLUE"]}})
    st = g.state
    wall = next(o for o in st.objects.values() if o.card_id == "R-WALL")
    top = next(o for o in st.objects.values() if o.card_id == "R-RED")
    # A rule's own move (no ability): not refused; the same move by P2's ability: refused.
    assert move_refusal(g, top, "hand", 1, Ctx(g, None, you=1)) is None
    d = play(g, ["pass"])
    assert d.player == 1
    play(g, [use(d, "Draw")])
    assert zone_of(g, "R-RED") == ["deck@P2"]
    # The wall leaves the board: the restriction is gone with its ability.
    list(move_card(g, wall, "discard", 0, Ctx(g, None, you=0)))
    assert move_refusal(g, top, "hand", 1, Ctx(g, None, you=1)) is None


def test_cards_arriving_together_count_for_a_limit(env: tuple[Any, Any]) -> None:
    """`can_move_to`'s `joining` cards (those chosen to arrive with it) are `arriving_with`."""
    from interpreter.table.functions import f_can_move_to

    g = game_of(env, {"P1": {"field": ["R-TWO"], "hand": ["R-RED", "R-BLUE"]}})
    red, blue = (next(o for o in g.state.objects.values() if o.card_id == c) for c in ("R-RED", "R-BLUE"))
    ctx = Ctx(g, None, you=0)
    assert f_can_move_to(ctx, red, "field", 0) is True             # one unit there, none with it
    assert f_can_move_to(ctx, red, "field", 0, None, [blue]) is False  # the blue one arrives too
    assert f_can_move_to(ctx, red, "field", 0, None, [red]) is True    # itself is not another card


def test_a_restriction_naming_an_unknown_zone_is_reported(tmp_path: Path) -> None:
    bad = CARDS.replace("zones: [board]", "zones: [nowhere]")
    with pytest.raises(LoadError) as err:
        toy_variant(tmp_path, replace=(TURN,), cards=bad)
    assert "unknown zone or zone group 'nowhere'" in str(err.value)
