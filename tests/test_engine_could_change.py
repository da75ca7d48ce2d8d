"""Whether carrying out a card's text could change the game (function could_change, engine/trial.py):
tried on copies of the game, every answer of its decisions in turn, so that a rule can refuse a card
whose text would do nothing however the text is written (hololive 10.7.2.3.7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, toy_variant

from interpreter.engine.trial import TRIALS
from interpreter.table.context import Ctx
from interpreter.table.functions import f_could_change

KIND = ("  - {id: aura, rules: [\"4\"], played: never}",
        "  - {id: aura, rules: [\"4\"], played: never}\n  - {id: text, rules: [\"4\"]}")

CARDS = """game: toy
cards:
  - id: T-DRAW
    type: unit
    name: Draw
    power: 1
    abilities:
      - kind: text
        effect:
          - move: {cards: "top('deck', you, 1)", to: hand}
  - id: T-PICK
    type: unit
    name: Pick
    power: 1
    abilities:
      - kind: text
        effect:
          - choose: {player: "you", from: "cards('field', you)", min: 1, max: 1, as: picked}
          - for_each:
              in: "picked where it.name == 'Target'"
              as: c
              do:
                - mark: {cards: "c", key: picked, value: true}
  - id: T-LOOK
    type: unit
    name: Look
    power: 1
    abilities:
      - kind: text
        effect:
          - look: {cards: "top('deck', you, 1)", player: "you", as: seen}
  - id: T-ROLL
    type: unit
    name: Roll
    power: 1
    abilities:
      - kind: text
        effect:
          - roll: {sides: 6, as: rolled}
  - id: T-SELF
    type: unit
    name: Self
    power: 1
    abilities:
      - kind: text
        effect:
          - move: {cards: "this", to: discard}
  - id: T-COST
    type: unit
    name: Cost
    power: 1
    abilities:
      - kind: text
        cost:
          - move: {cards: "top('deck', you, 1)", to: discard}
        effect:
          - if:
              cond: "count(cards('deck', you)) > 5"
              then:
                - set_var: {name: paid, value: true}
  - id: T-WHERE
    type: unit
    name: Where
    power: 1
    abilities:
      - kind: text
        effect:
          - if:
              cond: "this.zone == 'field'"
              then:
                - set_var: {name: placed, value: true}
  - id: T-QUICK
    type: unit
    name: Quick
    power: 1
    abilities:
      - kind: quick
        effect:
          - set_var: {name: quick, value: true}
  - id: T-TARGET
    type: unit
    name: Target
    power: 1
    abilities: []
  - id: T-WIDE
    type: unit
    name: Wide
    power: 1
    abilities:
      - kind: text
        effect:
          - choose: {player: "you", from: "cards('field', you)", min: 1, max: 1, as: a}
          - choose: {player: "you", from: "cards('field', you)", min: 1, max: 1, as: b}
          - choose: {player: "you", from: "cards('field', you)", min: 1, max: 1, as: c}
          - if:
              cond: "a[0].name == 'Target' and b[0].name == 'Target' and c[0].name == 'Target'"
              then:
                - set_var: {name: found, value: true}
"""


def _env(tmp_path: Path) -> Any:
    return toy_variant(tmp_path, cards=CARDS, replace=(KIND,))


def _could(g: Any, card_id: str, zone: str | None = None) -> bool:
    card = next(o for o in g.state.objects.values() if o.card_id == card_id and o.zone == "hand")
    return f_could_change(Ctx(g, None, you=0), card, "text", zone)


def test_a_draw_changes_the_game_only_with_a_card_to_draw(tmp_path):
    env = _env(tmp_path)
    assert _could(game_of(env, {"P1": {"hand": ["T-DRAW"], "deck": ["U-PLAIN"]}}), "T-DRAW")
    assert not _could(game_of(env, {"P1": {"hand": ["T-DRAW"]}}), "T-DRAW"), "an empty deck: nothing is drawn"


def test_every_answer_of_a_choice_is_tried(tmp_path):
    env = _env(tmp_path)
    # Choosing the other card changes nothing; choosing Target marks it: some answer changes the game.
    g = game_of(env, {"P1": {"hand": ["T-PICK"], "field": ["U-PLAIN", "T-TARGET", "U-PLAIN"]}})
    assert _could(g, "T-PICK")
    g = game_of(env, {"P1": {"hand": ["T-PICK"], "field": ["U-PLAIN", "U-PLAIN"]}})
    assert not _could(g, "T-PICK"), "no answer changes anything"


def test_looking_changes_nothing_a_roll_and_the_card_itself_moving_do(tmp_path):
    env = _env(tmp_path)
    g = game_of(env, {"P1": {"hand": ["T-LOOK", "T-ROLL", "T-SELF"], "deck": ["U-PLAIN", "U-PLAIN"]}})
    assert not _could(g, "T-LOOK"), "what a player learns is no change"
    assert _could(g, "T-ROLL"), "a die rolled is a chance event"
    assert _could(g, "T-SELF"), "the card itself moving is a change"


def test_the_cost_is_paid_first_and_is_no_part_of_what_the_text_changes(tmp_path):
    env = _env(tmp_path)
    g = game_of(env, {"P1": {"hand": ["T-COST"], "deck": ["U-PLAIN"]}})
    assert not _could(g, "T-COST"), "the effect does nothing; the cost's move does not count"
    deck = ["U-PLAIN"] * 7
    assert _could(game_of(env, {"P1": {"hand": ["T-COST"], "deck": deck}}), "T-COST")
    assert not _could(game_of(env, {"P1": {"hand": ["T-COST"]}}), "T-COST"), "a cost that cannot be paid"


def test_only_abilities_of_the_kind_count(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"hand": ["T-QUICK"]}})
    assert not _could(g, "T-QUICK")


def test_the_card_is_put_where_it_resolves_first(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"hand": ["T-WHERE"]}})
    assert not _could(g, "T-WHERE"), "read where it is (the hand), its text does nothing"
    assert _could(g, "T-WHERE", "field"), "put into the field first, its text sets a variable"


def test_past_the_bound_a_text_is_given_the_benefit_of_the_doubt(tmp_path):
    # Three choices among enough cards to need more trials than the bound before finding the one way
    # (all three Target) that changes the game: undecided, so it could.
    field = ["U-PLAIN"] * 5 + ["T-TARGET"]
    g = game_of(_env(tmp_path), {"P1": {"hand": ["T-WIDE"], "field": field}})
    assert 6 ** 3 > TRIALS
    assert _could(g, "T-WIDE")


def test_trying_changes_nothing_in_the_game_itself(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"hand": ["T-ROLL", "T-PICK", "T-DRAW"], "deck": ["U-PLAIN"],
                                        "field": ["T-TARGET"]}})
    g.advance()
    before = (g.state.fingerprint(), g.state.rng.getstate(), g.state.next_id, g.version, len(g.entries))
    assert _could(g, "T-ROLL") and _could(g, "T-PICK") and _could(g, "T-DRAW")
    assert (g.state.fingerprint(), g.state.rng.getstate(), g.state.next_id, g.version, len(g.entries)) == before


def test_a_decision_with_more_answers_than_are_tried_is_given_the_benefit_of_the_doubt(tmp_path, monkeypatch):
    # Two different cards to choose from, neither of which the choice changes: with one answer tried a
    # decision, it is not known that the other would change nothing.
    import interpreter.engine.trial as trial

    env = _env(tmp_path)
    zones = {"P1": {"hand": ["T-PICK"], "field": ["U-PLAIN", "U-DASH"]}}
    assert not _could(game_of(env, zones), "T-PICK")
    monkeypatch.setattr(trial, "ANSWERS_PER_DECISION", 1)
    assert _could(game_of(env, zones), "T-PICK")
