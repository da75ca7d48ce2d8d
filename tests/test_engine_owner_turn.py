"""Durations whose effects apply only in their owner's turn (`only_in_owner_turn`): "during your
opponent's next turn, ..." made in your own turn waits until the opponent's turn begins, applies
through it, waits again in a part of the game that is nobody's turn (a node whose turn player is
none, such as a break between sets) and ends with that turn's `end_durations`. On a toy variant whose
turns alternate between the two players, with a step that belongs to no player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY, game_of, play, toy_variant

from interpreter.loader.diagnostics import LoadError

DURATIONS = ("  - {id: round, rules: [\"5\"]}\n",
             "  - {id: round, rules: [\"5\"]}\n"
             "  - {id: opponent_next_turn, rules: [\"5\"], owner: \"opponent\", only_in_owner_turn: true}\n")

_TURN = (TOY / "all.yaml").read_text(encoding="utf-8").split("\nturn:\n", 1)[1]
TURN = ("\nturn:\n" + _TURN, """
turn:
  id: round
  kind: turn
  rules: ["6"]
  turn_player: mover
  counts_turn: true
  children:
    - id: one
      kind: step
      rules: ["6"]
      do:
        - set_var: {name: stage, value: 1}
        - play_timing: {player: "turn_player", actions: [use]}
    - id: two
      kind: step
      rules: ["6"]
      do:
        - emit: {event: ping}            # the toy rulebook's event, raised where its turn raises it
        - set_var: {name: during, value: "as_list(during) + [sum(cards_of('field', players()) select it.power)]"}
    - id: pause
      kind: step
      rules: ["6"]
      turn_player: none
      do:
        - set_var: {name: paused, value: "as_list(paused) + [sum(cards_of('field', players()) select it.power)]"}
    - id: three
      kind: step
      rules: ["6"]
      do:
        - end_durations: {durations: [opponent_next_turn], player: turn_player}
        - end_durations: {durations: [round]}
        - set_role: {role: mover, player: "other(turn_player)"}
  next:
    - {to: round, rules: ["6"]}
""")

CARDS = """game: toy
cards:
  - id: D-NEXT
    type: unit
    name: Next
    power: 0
    abilities:
      - kind: quick
        effect:
          - continuous:
              effect: {affects: "cards('field', opponent)", modify: {power: {add: 5}}}
              duration: opponent_next_turn
  - {id: D-PLAIN, type: unit, name: Plain, power: 1}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("owner_turn"), replace=(DURATIONS, TURN), cards=CARDS)


def test_declared(env: tuple[Any, Any]) -> None:
    rb, _ = env
    assert rb.durations["opponent_next_turn"].only_in_owner_turn is True
    assert rb.durations["round"].only_in_owner_turn is False


def test_the_effect_applies_in_its_owners_turn_only(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["D-NEXT"]}, "P2": {"field": ["D-PLAIN"]}})
    st = g.state
    d = g.advance()
    d = play(g, [next(o.id for o in d.options if o.id.startswith("use:"))])
    assert [e.owner for e in st.effects] == [1]
    play(g, ["pass"])  # P2 has nothing to do in turn 2 and passes by itself
    # Turn 1 is P1's: the effect made in it waits (P2's unit keeps its power); turn 2 is P2's: it
    # applies, but not in the step that is nobody's turn; the end of P2's turn ends it.
    assert st.turn == 3
    assert st.vars["during"] == [1, 6] and st.vars["paused"] == [1, 1]
    assert st.effects == []


def test_only_in_owner_turn_needs_an_owner(tmp_path: Path) -> None:
    bad = ("  - {id: round, rules: [\"5\"]}\n",
           "  - {id: round, rules: [\"5\"]}\n  - {id: loose, rules: [\"5\"], only_in_owner_turn: true}\n")
    with pytest.raises(LoadError) as err:
        toy_variant(tmp_path, replace=(bad,))
    assert "'only_in_owner_turn' is for a duration that belongs to a player" in str(err.value)
