"""Who chooses whose pending abilities go first (`check_timing.order_chosen_by`), on the toy rulebook:
when players of two or more places of the order have abilities waiting at once, the player the
expression gives chooses whose go next, and that player's batch (what waits, and what of theirs
triggers meanwhile) is resolved before the other's; a single player waiting is no choice; without the
option the order is fixed, as before. The choice is a decision like any other: the random and the
search agents answer it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, toy_variant

from interpreter.agents import MonteCarloAgent, RandomAgent, ask
from interpreter.loader.diagnostics import LoadError

# Bell rings once more the first time it resolves (a ping: every pinged card triggers again); Echo
# and Chime only note who resolved them.
CARDS = """game: toy
cards:
  - id: O-BELL
    type: unit
    name: Bell
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: order, value: "as_list(order) + [you]"}
          - if:
              cond: "rung == null"
              then:
                - set_var: {name: rung, value: true}
                - emit: {event: ping}
  - id: O-ECHO
    type: unit
    name: Echo
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: order, value: "as_list(order) + [you]"}
  - id: O-CHIME
    type: unit
    name: Chime
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: order, value: "as_list(order) + [you * 10]"}
"""

ORDER = '    - {id: ct_other, rules: ["7"], player: non_turn_player}\n'
CHOSEN = ORDER + '  order_chosen_by: "turn_player"\n'
WHOSE = "choose_whose_abilities_resolve_first"


def _env(tmp_path: Path, chosen: bool = True) -> Any:
    return toy_variant(tmp_path, replace=((ORDER, CHOSEN),) if chosen else (), cards=CARDS)


def _game(env: Any, p1: list[str], p2: list[str]) -> Any:
    g = game_of(env, {"P1": {"field": p1}, "P2": {"field": p2}}, vars={"order": [], "rung": None})
    g.stop_at = "two"
    return g


def _run(g: Any, whose: list[str]) -> list[Any]:
    """Play to the end of step one, answering the whose-first questions with `whose` in turn and
    every other decision with its first option (or a pass); returns the whose-first decisions."""
    asked = []
    while (d := g.advance()) is not None:
        if d.prompt == WHOSE:
            asked.append(d)
            g.answer([whose[len(asked) - 1]])
        else:
            g.answer(["pass"] if "pass" in d.ids() else [d.options[0].id])
    return asked


def test_without_the_option_the_turn_player_goes_first_unasked(tmp_path):
    g = _game(_env(tmp_path, chosen=False), ["O-ECHO"], ["O-ECHO"])
    assert _run(g, []) == []
    assert g.state.vars["order"] == [0, 1]


def test_the_turn_player_chooses_and_may_put_the_other_player_first(tmp_path):
    g = _game(_env(tmp_path), ["O-ECHO"], ["O-ECHO", "O-CHIME"])
    asked = _run(g, ["p2"])
    assert len(asked) == 1
    d = asked[0]
    assert d.player == 0 and d.kind == "player" and d.ids() == ["p1", "p2"]
    assert [o.label for o in d.options] == ["P1 first (1 waiting)", "P2 first (2 waiting)"]
    # P2's two abilities both go (one question for the batch), then P1's.
    assert sorted(g.state.vars["order"][:2]) == [1, 10] and g.state.vars["order"][2:] == [0]
    assert any("P1 has P2's waiting abilities resolved first" in e.text for e in g.entries)


def test_the_chosen_player_orders_their_own_batch(tmp_path):
    g = _game(_env(tmp_path), ["O-ECHO"], ["O-ECHO", "O-CHIME"])
    seen = []
    while (d := g.advance()) is not None:
        if d.prompt == WHOSE:
            g.answer(["p2"])
        elif d.prompt == "choose_pending_ability":
            seen.append(d.player)
            g.answer([next(o.id for o in d.options if o.value.card_id == "O-CHIME")])
        else:
            g.answer(["pass"] if "pass" in d.ids() else [d.options[0].id])
    assert seen == [1]
    assert g.state.vars["order"] == [10, 1, 0]


def test_one_player_waiting_is_no_choice(tmp_path):
    g = _game(_env(tmp_path), [], ["O-ECHO"])
    assert _run(g, []) == []
    assert g.state.vars["order"] == [1]


def test_the_chosen_batch_takes_in_what_triggers_meanwhile(tmp_path):
    # P1 first: Bell rings again, so both players have a new ability waiting; P1's batch goes on
    # (the second Bell) before P2's Echoes, without a second question.
    g = _game(_env(tmp_path), ["O-BELL"], ["O-ECHO"])
    asked = _run(g, ["p1"])
    assert len(asked) == 1
    assert g.state.vars["order"] == [0, 0, 1, 1]


def test_the_choice_is_made_again_when_a_batch_is_done(tmp_path):
    # P2 first: Echo; P2's batch is done. Bell, alone, resolves unasked (nothing is held) and rings
    # again: both have one waiting, so the turn player chooses again.
    g = _game(_env(tmp_path), ["O-BELL"], ["O-ECHO"])
    asked = _run(g, ["p2", "p1"])
    assert len(asked) == 2
    assert g.state.vars["order"] == [1, 0, 0, 1]


@pytest.mark.parametrize("agent", ["random", "search"])
def test_agents_answer_the_choice(tmp_path, agent):
    g = _game(_env(tmp_path), ["O-BELL"], ["O-ECHO"])
    bot = RandomAgent(seed=3) if agent == "random" else MonteCarloAgent(seed=3, rollouts=1, horizon=30)
    asked = 0
    while (d := g.advance()).prompt != "play_timing":  # the check timing is over at the play timing
        asked += d.prompt == WHOSE
        g.answer(ask(bot, g, d))
    assert asked >= 1 and sorted(g.state.vars["order"]) == [0, 0, 1, 1]


def test_the_chooser_is_an_expression_checked_at_load(tmp_path):
    with pytest.raises(LoadError, match=r"all\.yaml:\d+:\d+: in expression 'no_such_name': unknown name"):
        toy_variant(tmp_path, replace=((ORDER, ORDER + '  order_chosen_by: "no_such_name"\n'),))
