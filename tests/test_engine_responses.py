"""Responses (counter processing, Re:Birth 9.7.3): abilities of a kind played `in_response` are
presented while something is played, against it or against a response already presented; each
presentation starts the asking over; when everyone has passed they are processed last presented
first; a negated response does nothing; a negated ability does not resolve but is used up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, toy_variant

from interpreter.loader.diagnostics import LoadError

RULES = """
responses:
  id: responses
  rules: ["7"]
  after_cost_of: [quick, reflex]
"""

CARDS = """game: toy
cards:
  - id: T-USE
    type: unit
    name: User
    power: 1
    abilities:
      - kind: quick
        keywords: [on_board]
        effect:
          - set_var: {name: used, value: "sum([used]) + 1"}
  - id: T-COUNTER
    type: unit
    name: Counter
    power: 1
    abilities:
      - kind: counter
        keywords: [in_hand]
        answers: "target.kind == 'ability' and target.player != you"
        cost:
          - move: {cards: "this", to: discard}
        effect:
          - negate: {target: "target"}
  - id: T-RECOUNTER
    type: unit
    name: Recounter
    power: 1
    abilities:
      - kind: counter
        keywords: [in_hand]
        answers: "target.kind == 'response'"
        cost:
          - move: {cards: "this", to: discard}
        effect:
          - negate: {target: "target"}
"""


def _env(tmp_path: Path, cards: str = CARDS) -> tuple[Any, Any]:
    return toy_variant(tmp_path, cards=cards, append=RULES, replace=(
        ("  - {id: aura, rules: [\"4\"], played: never}",
         "  - {id: aura, rules: [\"4\"], played: never}\n  - {id: counter, rules: [\"4\"], played: in_response}"),))


def _game(env: tuple[Any, Any], zones: dict[str, Any]) -> Any:
    return game_of(env, zones, {"used": 0})


def _answer(g: Any, prefix: str, player: int) -> None:
    d = g.advance()
    assert d is not None and d.player == player, (d and d.prompt, d and d.player)
    g.answer([next(o.id for o in d.options if o.id.startswith(prefix))])


def _names(g: Any, zone: str, p: int) -> list[str]:
    return [g.state.objects[oid].card_id for oid in g.state.zone(zone, p)]


def test_a_response_negates_the_ability(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-USE"]}, "P2": {"hand": ["T-COUNTER"]}})
    _answer(g, "use:", 0)
    _answer(g, "respond:", 1)  # the turn player had nothing to present; the other player presents
    d = g.advance()
    assert g.state.vars["used"] == 0, "the negated ability did not resolve"
    assert _names(g, "discard", 1) == ["T-COUNTER"], "the response's cost was paid"
    assert any("is negated and does not resolve" in e.text for e in g.entries)
    # A use-limited ability would count this play: the use is recorded although it was negated.
    (user,) = g.state.zone("field", 0)
    assert g.state.ability_uses[f"{user}:0"] == 1
    assert d is None or d.prompt != "present_response"


def test_passing_lets_the_ability_resolve(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-USE"]}, "P2": {"hand": ["T-COUNTER"]}})
    _answer(g, "use:", 0)
    _answer(g, "pass", 1)
    g.advance()
    assert g.state.vars["used"] == 1
    assert _names(g, "hand", 1) == ["T-COUNTER"]


def test_a_response_to_a_response_is_processed_first(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-USE"], "hand": ["T-RECOUNTER"]},
                               "P2": {"hand": ["T-COUNTER"]}})
    _answer(g, "use:", 0)
    # P1 has nothing that answers an ability; P2 presents a counter; the asking starts over and P1
    # may now answer that counter.
    _answer(g, "respond:", 1)
    _answer(g, "respond:", 0)
    g.advance()
    assert g.state.vars["used"] == 1, "the counter was negated, so the ability resolved"
    texts = [e.text for e in g.entries]
    order = [t for t in texts if "is processed" in t or "does nothing" in t]
    assert "Recounter" in order[0] and "Counter" in order[1] and "does nothing" in order[1]


def test_no_window_without_response_abilities(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-USE"]}})
    assert g.responses_possible
    _answer(g, "use:", 0)
    g.advance()
    assert g.state.vars["used"] == 1
    assert not any(e.kind == "respond" for e in g.entries)


def test_a_response_ability_needs_answers(tmp_path):
    bad = CARDS.replace("        answers: \"target.kind == 'response'\"\n", "")
    with pytest.raises(LoadError) as err:
        _env(tmp_path, bad)
    assert "a response ability needs 'answers'" in str(err.value)


def test_may_answer_limits_who_answers_what(tmp_path):
    """`responses.may_answer` (Re:Birth 12.6.5: only the players beside the master may cancel)."""
    rules = RULES + "  may_answer: \"you != 1 or target.player != 0\"\n"
    env = toy_variant(tmp_path, cards=CARDS, append=rules, replace=(
        ("  - {id: aura, rules: [\"4\"], played: never}",
         "  - {id: aura, rules: [\"4\"], played: never}\n  - {id: counter, rules: [\"4\"], played: in_response}"),))
    g = _game(env, {"P1": {"field": ["T-USE"]}, "P2": {"hand": ["T-COUNTER"]}})
    _answer(g, "use:", 0)
    d = g.advance()
    assert d is None or d.prompt != "present_response", "P2 may not answer P1's ability"
    assert g.state.vars["used"] == 1
