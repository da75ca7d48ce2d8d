"""Rule processes whose condition reads a value continuous effects change (a unit with power 0 or less
goes to the discard pile) are found at the next check timing when the value changes without any card
of the zone they read moving: (a) a one-shot effect lowering it for the round, (b) a continuous
ability of another card that starts applying when that card arrives elsewhere, (c) a round's effect
ending (the value going back down is found; going back up triggers nothing). The rule process reads
only zones and cards, so the engine keeps "its condition is false" as a derived fact between changes to
the field (interpreter/table/derived.py, timing/rule_processing.py): these tests pin that the fact is
forgotten when a value changes."""

from __future__ import annotations

from typing import Any

import pytest
from toy_engine import game_of, play, toy_variant

PROCESS = """rule_processing:
  id: rule_processing
  rules: ["8"]
  processes:
    - id: no_power
      rules: ["8"]
      when: check_timing
      for_each_player: "players()"
      if: "count(cards('field', p) where it.power <= 0) > 0"
      do:
        - move: {cards: "cards('field', p) where it.power <= 0", to: discard}
"""

CARDS = """game: toy
cards:
  - {id: U-ZERO, type: unit, name: Zero, power: 0}
  - id: U-DRAIN
    type: unit
    name: Drain
    power: 1
    abilities:
      - kind: quick
        effect:
          - continuous: {effect: {affects: "cards('field', other(you))", modify: {power: {add: -2}}}, duration: round}
  - id: U-NIBBLE
    type: unit
    name: Nibble
    power: 1
    abilities:
      - kind: quick
        effect:
          - continuous: {effect: {affects: "cards('field', other(you))", modify: {power: {add: -1}}}, duration: round}
  - id: U-BLIGHT
    type: unit
    name: Blight
    power: 1
    abilities:
      - kind: aura
        effect: {affects: "cards('field', other(you))", modify: {power: {add: -5}}}
  - id: U-SUMMON
    type: unit
    name: Summon
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you) where it.name == 'Blight'", to: pile}
  - id: U-RESCUE
    type: unit
    name: Rescue
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('hand', you) where it.name == 'Zero'", to: field}
          - continuous: {effect: {affects: "cards('field', you)", modify: {power: {add: 2}}}, duration: round}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("rule_values"), append=PROCESS, cards=CARDS)


def use(g: Any, card_id: str) -> str:
    d = g.advance()
    return next(o.id for o in d.options if o.id.startswith("use:") and any(
        ob.card_id == card_id and f":c{ob.oid}:" in o.id for ob in g.state.objects.values()))


def names(g: Any, zone: str, player: int) -> list[str]:
    return sorted(g.cards[g.state.objects[oid].card_id].fields["name"] for oid in g.state.zones[(zone, player)])


def processed(g: Any) -> int:
    return sum(1 for e in g.entries if e.text == "rule process no_power")


def test_a_one_shot_effect_lowering_a_value(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-DRAIN"]}, "P2": {"field": ["U-PLAIN"]}})
    g.advance()
    # P2's binding was found false and is kept idle until a place it reads changes.
    assert ("process", "no_power", 1, None) in g.derived.known_keys()
    d = play(g, [use(g, "U-DRAIN")])
    # Found at the check timing right after the ability: the next decision already sees it gone.
    assert d is not None and names(g, "field", 1) == [] and names(g, "discard", 1) == ["Plain"]
    assert processed(g) == 1


def test_a_continuous_ability_starting_to_apply(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-SUMMON"], "hand": ["U-BLIGHT"]}, "P2": {"field": ["U-PLAIN"]}})
    g.advance()
    assert ("process", "no_power", 1, None) in g.derived.known_keys()
    play(g, [use(g, "U-SUMMON")])  # Blight arrives in the pile, not the field: no field moved
    assert names(g, "pile", 0) == ["Blight"] and names(g, "discard", 1) == ["Plain"]


def test_a_lowering_that_ends_triggers_nothing(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-NIBBLE"]}, "P2": {"field": ["U-PLAIN"]}})
    play(g, [use(g, "U-NIBBLE"), "pass"])  # Plain 2 -> 1 for the round, then the round ends
    g.advance()
    assert g.state.effects == [] and names(g, "field", 1) == ["Plain"] and processed(g) == 0


def test_a_raise_that_ends_is_found(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-RESCUE"], "hand": ["U-ZERO"]}})
    play(g, [use(g, "U-RESCUE")])
    assert names(g, "field", 0) == ["Rescue", "Zero"] and processed(g) == 0  # Zero has 2 this round
    turn = g.state.turn
    play(g, ["pass"])  # the round ends; its effects end with it
    assert g.state.turn > turn and names(g, "discard", 0) == ["Zero"] and processed(g) == 1
