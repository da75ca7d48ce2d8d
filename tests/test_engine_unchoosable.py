"""Cards a choice may not offer (`choosing.unchoosable`), on the toy rulebook: a card its opponent's
effects may not choose is left out of their choices (plain, distinct and cover choices), is still
affected by effects that do not choose, may be chosen by its own player's effects, and makes a cost
or a blocking choice that only it could fill unpayable; choices the rules make are restricted only
by an entry with `choices: all`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, play, toy_variant

from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx
from interpreter.timing.choosable import choosable

CHOOSING = """choosing:
  id: choosing
  rules: ["7"]
  short_choice: blocks
  unchoosable:
    - {id: veiled, rules: ["7"], if: "it.name == 'Veiled' and it.controller != you"}
    - {id: shy, rules: ["7"], choices: all, if: "it.name == 'Shy' and chooser != it.controller"}
"""

CARDS = """game: toy
cards:
  - {id: U-VEILED, type: unit, name: Veiled, power: 1, tags: [red]}
  - {id: U-SHY, type: unit, name: Shy, power: 1}
  - id: U-SNIPE
    type: unit
    name: Snipe
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('field', other(you))", min: 0, max: 1, as: target}
          - move: {cards: "target", to: discard}
          - set_var: {name: sniped, value: "count(target)"}
  - id: U-TIDY
    type: unit
    name: Tidy
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('field', you) where it.name == 'Veiled'", as: target}
          - move: {cards: "target", to: discard}
  - id: U-SWEEP
    type: unit
    name: Sweep
    power: 1
    abilities:
      - kind: quick
        effect:
          - move: {cards: "cards('field', other(you))", to: discard}
  - id: U-BRIBE
    type: unit
    name: Bribe
    power: 1
    abilities:
      - kind: quick
        cost:
          - choose: {player: "you", from: "cards('field', other(you))", as: paid}
          - move: {cards: "paid", to: hand}
        effect:
          - set_var: {name: bribed, value: true}
  - id: U-PAIR
    type: unit
    name: Pair
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose: {player: "you", from: "cards('field', other(you))", min: 2, max: 2, as: got}
          - move: {cards: "got", to: discard}
  - id: U-PAINT
    type: unit
    name: Paint
    power: 1
    abilities:
      - kind: quick
        cost:
          - choose_cover: {player: "you", from: "cards('field', other(you))", field: tags, requirements: "['red']",
                           as: paid}
          - move: {cards: "paid", to: hand}
        effect:
          - set_var: {name: painted, value: true}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("unchoosable"), append=CHOOSING, cards=CARDS)


def uses(g: Any, card_id: str) -> list[str]:
    d = g.advance()
    options = [o.id for o in d.options] if d is not None else []
    return [o for o in options if o.startswith("use:") and any(
        ob.card_id == card_id and f":c{ob.oid}:" in o for ob in g.state.objects.values())]


def names(g: Any, zone: str, player: int) -> list[str]:
    return sorted(g.cards[g.state.objects[oid].card_id].fields["name"] for oid in g.state.zones[(zone, player)])


def test_an_opponents_effect_cannot_choose_the_card(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-SNIPE"]}, "P2": {"field": ["U-VEILED"]}})
    play(g, [uses(g, "U-SNIPE")[0]])
    assert g.state.vars["sniped"] == 0 and names(g, "field", 1) == ["Veiled"]
    # Beside another card, that card is the only one offered.
    g = game_of(env, {"P1": {"field": ["U-SNIPE"]}, "P2": {"field": ["U-VEILED", "U-PLAIN"]}})
    d = play(g, [uses(g, "U-SNIPE")[0]])
    assert d is not None and d.kind == "select" and [o.label.split(" ")[0] for o in d.options] == ["Plain"]


def test_effects_that_do_not_choose_still_apply(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-SWEEP"]}, "P2": {"field": ["U-VEILED", "U-PLAIN"]}})
    play(g, [uses(g, "U-SWEEP")[0]])
    assert names(g, "field", 1) == [] and names(g, "discard", 1) == ["Plain", "Veiled"]


def test_its_own_players_effects_may_choose_it(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-TIDY", "U-VEILED"]}})
    play(g, [uses(g, "U-TIDY")[0]])
    assert names(g, "discard", 0) == ["Veiled"]


def test_a_cost_only_the_card_could_pay_is_not_payable(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-BRIBE"]}, "P2": {"field": ["U-VEILED"]}})
    assert uses(g, "U-BRIBE") == []
    g = game_of(env, {"P1": {"field": ["U-BRIBE"]}, "P2": {"field": ["U-VEILED", "U-PLAIN"]}})
    play(g, [uses(g, "U-BRIBE")[0]])
    assert g.state.vars.get("bribed") is True and names(g, "hand", 1) == ["Plain"]


def test_a_cover_only_the_card_could_pay_is_not_payable(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["U-PAINT"]}, "P2": {"field": ["U-VEILED", "U-DASH"]}})
    assert uses(g, "U-PAINT") == []  # Veiled is the only red card (Dash is blue)
    g = game_of(env, {"P1": {"field": ["U-PAINT"]}, "P2": {"field": ["U-VEILED", "U-PLAIN"]}})
    play(g, [uses(g, "U-PAINT")[0]])
    assert g.state.vars.get("painted") is True and names(g, "hand", 1) == ["Plain"]


def test_a_blocking_choice_counts_only_choosable_cards(env: tuple[Any, Any]) -> None:
    # short_choice: blocks; two cards on the other side, but one of them cannot be chosen.
    g = game_of(env, {"P1": {"field": ["U-PAIR"]}, "P2": {"field": ["U-VEILED", "U-PLAIN"]}})
    assert uses(g, "U-PAIR") == []
    g = game_of(env, {"P1": {"field": ["U-PAIR"]}, "P2": {"field": ["U-SHY", "U-PLAIN"]}})
    assert uses(g, "U-PAIR") == []  # Shy: not by a chooser who does not control it
    g = game_of(env, {"P1": {"field": ["U-PAIR"]}, "P2": {"field": ["U-PLAIN", "U-PLAIN"]}})
    assert uses(g, "U-PAIR")


def test_the_rules_own_choices_follow_only_entries_for_all_choices(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P2": {"field": ["U-VEILED", "U-SHY", "U-PLAIN"]}})
    cards = [g.state.objects[oid] for oid in g.state.zones[("field", 1)]]
    rules = Ctx(g, None, you=0)  # no ability: a choice the rules make
    assert [g.cards[c.card_id].fields["name"] for c in choosable(g, cards, 0, rules)] == ["Veiled", "Plain"]
    assert choosable(g, cards, 1, rules) == cards  # P2 chooses among their own cards
    ability = g.cards["U-SNIPE"].abilities[0]
    effect = Ctx(g, None, you=0, ability=ability)
    assert [g.cards[c.card_id].fields["name"] for c in choosable(g, cards, 0, effect)] == ["Plain"]


def test_a_bad_condition_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, append=CHOOSING.replace("it.name == 'Veiled'", "it.name =="))
    assert "all.yaml:114:" in str(e.value) and "in expression" in str(e.value)


def test_without_entries_nothing_is_left_out() -> None:
    from toy_engine import toy_game

    g = toy_game({"P2": {"field": ["U-PLAIN"]}})
    cards = [g.state.objects[oid] for oid in g.state.zones[("field", 1)]]
    assert g.rb.unchoosable == () and choosable(g, cards, 0, Ctx(g, None, you=0)) == cards


def test_readme_shows_the_form() -> None:
    text = (Path(__file__).resolve().parents[1] / "rulebooks" / "README.md").read_text(encoding="utf-8")
    assert "unchoosable:" in text and "choices: all" in text and "chooser" in text
