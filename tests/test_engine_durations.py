"""Durations that belong to a player ("until the start of your next turn", "until the end of your
opponent's next turn"): a duration declared with an `owner` gives each effect created with it the
player it belongs to, `end_durations` with `player` ends only that player's effects of it, and
`skip_creation_turn` keeps an effect past the turn it was created in. On a toy variant whose turns
alternate between the two players: a start step ends the turn player's "until your next turn start"
effects, an end step their "until the end of the next turn" ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY, game_of, play, texts, toy_variant

from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx
from interpreter.timing.effects import add_effect, end_durations
from interpreter.timing.outcomes import leave

DURATIONS = ("  - {id: round, rules: [\"5\"]}\n",
             "  - {id: round, rules: [\"5\"]}\n"
             "  - {id: until_your_next_turn_start, rules: [\"5\"], owner: \"you\"}\n"
             "  - {id: until_end_of_next_turn, rules: [\"5\"], owner: \"opponent\", skip_creation_turn: true}\n")

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
        - end_durations: {durations: [until_your_next_turn_start], player: turn_player}
        - play_timing: {player: "turn_player", actions: [use]}
    - id: two
      kind: step
      rules: ["6"]
      do:
        - emit: {event: ping}            # the toy rulebook's event, raised where its turn raises it
    - id: three
      kind: step
      rules: ["6"]
      do:
        - end_durations: {durations: [until_end_of_next_turn], player: turn_player}
        - end_durations: {durations: [round]}
        - set_role: {role: mover, player: "other(turn_player)"}
  next:
    - {to: round, rules: ["6"]}
""")


def boost(card: str, add: int, duration: str) -> str:
    return f"""  - id: {card}
    type: unit
    name: {card}
    power: 0
    abilities:
      - kind: quick
        effect:
          - continuous:
              effect: {{affects: "this", modify: {{power: {{add: {add}}}}}}}
              duration: {duration}
"""


CARDS = "game: toy\ncards:\n" + "".join([
    boost("D-SELF", 1, "until_your_next_turn_start"),            # until the start of your next turn
    boost("D-OPP", 10, "until_end_of_next_turn"),                # until the end of your opponent's next turn
    boost("D-MINE", 100, "{id: until_end_of_next_turn, owner: \"you\"}"),  # until the end of your next turn
    boost("D-ROUND", 1000, "round"),                              # this turn (belongs to no player)
])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("durations"), replace=(DURATIONS, TURN), cards=CARDS)


def power(g: Any, card: str) -> int:
    return int(g.field(next(o for o in g.state.objects.values() if o.card_id == card), "power"))


def use(d: Any, card: str) -> str:
    return next(o.id for o in d.options if o.id.startswith("use:") and card in o.label)


def test_declared_owners_are_compiled(env: tuple[Any, Any]) -> None:
    rb, _ = env
    assert rb.durations["round"].owner is None
    assert rb.durations["until_your_next_turn_start"].owner is not None
    assert rb.durations["until_end_of_next_turn"].skip_creation_turn is True


def test_effects_end_at_their_owners_turns(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["D-SELF", "D-OPP", "D-MINE"]}, "P2": {"field": ["D-ROUND"]}})
    d = g.advance()
    for card in ("D-SELF", "D-OPP", "D-MINE"):
        d = play(g, [use(d, card)])
    st = g.state
    owners = {e.source_card: e.owner for e in st.effects}
    assert owners == {"D-SELF": 0, "D-OPP": 1, "D-MINE": 0}  # you, the opponent, and the step's `owner: you`
    assert [power(g, c) for c in ("D-SELF", "D-OPP", "D-MINE")] == [1, 10, 100]
    assert "a continuous effect begins until until_end_of_next_turn (P2's)" in texts(g)
    d = play(g, ["pass"])
    # Turn 2, P2's: the end of P1's turn 1 ended nothing of P1's (D-MINE was made in it: its *next* turn).
    assert st.turn == 2 and d.player == 1
    assert [power(g, c) for c in ("D-SELF", "D-OPP", "D-MINE")] == [1, 10, 100]
    d = play(g, ["pass"])
    # Turn 3, P1's: the end of P2's turn ended the effect belonging to P2; P1's turn start ended D-SELF.
    assert st.turn == 3 and d.player == 0
    assert [power(g, c) for c in ("D-SELF", "D-OPP", "D-MINE")] == [0, 0, 100]
    assert "P2's 1 effect(s) end" in texts(g) and "P1's 1 effect(s) end" in texts(g)
    play(g, ["pass"])
    # Turn 4: the end of P1's turn 3, its next turn, ended D-MINE.
    assert st.turn == 4 and power(g, "D-MINE") == 0 and st.effects == []


def test_an_effect_made_in_the_owners_own_turn_lasts_until_their_next_one(env: tuple[Any, Any]) -> None:
    # P1 makes an effect belonging to P2 during P2's own turn: that turn does not end it (skip_creation_turn).
    g = game_of(env, {"P1": {"field": ["D-ROUND"]}, "P2": {"field": ["D-ROUND"]}})
    d = play(g, ["pass"])
    assert g.state.turn == 2 and d.player == 1
    ctx = Ctx(g, None, you=0, rules=("5",))
    add_effect(g, "continuous", {}, ctx, "until_end_of_next_turn")
    assert g.state.effects[-1].owner == 1
    play(g, ["pass", "pass"])
    assert g.state.turn == 4 and len(g.state.effects) == 1  # turn 2's end (P2's) spared it
    play(g, ["pass"])
    assert g.state.turn == 5 and g.state.effects == []       # turn 4's end (P2's next turn) ended it


def test_unowned_durations_end_as_before(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["D-ROUND"]}})
    d = g.advance()
    play(g, [use(d, "D-ROUND"), "pass"])
    assert power(g, "D-ROUND") == 0 and "1 effect(s) end" in texts(g)


def test_effects_ending_together_end_by_owner_from_the_turn_player(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["D-ROUND"]}})
    g.advance()
    g.cur_tp = 1  # as in P2's turn
    for you in (0, 1, 0):
        add_effect(g, "continuous", {}, Ctx(g, None, you=you), "until_your_next_turn_start")
    add_effect(g, "continuous", {}, Ctx(g, None, you=0), "round")
    g.state.turn += 1
    before = len(g.entries)
    end_durations(g, {"until_your_next_turn_start", "round"}, Ctx(g, None, you=0))
    assert [e.text for e in g.entries[before:]] == ["1 effect(s) end", "P2's 1 effect(s) end", "P1's 2 effect(s) end"]
    assert g.state.effects == []


def test_an_owners_effects_end_when_they_leave(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["D-ROUND"]}})
    g.advance()
    add_effect(g, "continuous", {}, Ctx(g, None, you=0), "until_end_of_next_turn")  # P2's, mastered by P1
    assert g.state.effects[-1].owner == 1 and g.state.effects[-1].master == 0
    leave(g, 1, ("1",))
    assert g.state.effects == []


@pytest.mark.parametrize(("edits", "message"), [
    ((DURATIONS, TURN, ("end_durations: {durations: [round]}", "end_durations: {durations: [round], player: you}")),
     "all.yaml:105:39: duration 'round' belongs to no player (its declaration has no 'owner'): an end_durations "
     "step with 'player' ends only durations that do"),
    ((DURATIONS, ("owner: \"opponent\", skip_creation_turn: true", "skip_creation_turn: true")),
     "all.yaml:45:48: duration 'until_end_of_next_turn': 'skip_creation_turn' is for a duration that belongs to a "
     "player (give it an 'owner')"),
    ((DURATIONS, ("owner: \"you\"}", "owner: \"yu\"}")),
     "all.yaml:44:60: in expression 'yu': unknown name 'yu'"),
])
def test_located_errors(tmp_path: Path, edits: tuple[tuple[str, str], ...], message: str) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=edits)
    assert message in str(e.value)


def test_a_step_may_name_the_owner_only_of_an_owned_duration(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(DURATIONS,), cards="game: toy\ncards:\n" + boost(
            "D-BAD", 1, "{id: round, owner: \"you\"}"))
    assert "cards/extra.yaml:12:30: duration 'round' belongs to no player (its declaration has no 'owner'), so no " \
           "owner can be named for it" in str(e.value)
