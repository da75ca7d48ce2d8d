"""Abilities read in plain English (interpreter/reading): the reading strings' placeholders, the common
forms of expressions, and whole abilities of the toy rulebook read from the readings its kinds,
keywords and templates give, with what has no reading written in backticks and listed as missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import toy_variant

from interpreter.model.readings import ABSENT, Arg, fill, placeholders
from interpreter.reading import Reader
from interpreter.reading.expr import ExprReader, Function


def _args(**values: Arg) -> Any:
    return lambda name: values.get(name, ABSENT)


# -- reading strings -------------------------------------------------------------------------------------
def test_placeholders_optional_parts_and_plurals() -> None:
    draw = "[have {~player} ]draw {n} card(s)"
    assert fill(draw, _args(n=Arg("1", number=1))) == "draw 1 card"
    assert fill(draw, _args(n=Arg("2", number=2), player=Arg("you", "your", master=True))) == "draw 2 cards"
    assert fill(draw, _args(n=Arg("2", number=2), player=Arg("the opponent", "the opponent's"))) \
        == "have the opponent draw 2 cards"
    assert fill(draw, _args(n=Arg("the number of X"))) == "draw the number of X cards"  # not a literal 1: plural
    # a default leaves its part out; the possessive form
    assert fill("shuffle {p's} deck[ of {p}]", _args(p=Arg("you", "your", default=True))) == "shuffle your deck"
    # ranges: exactly, up to, from-to; an end not given
    choose = "choose {lo..hi} card(s)"
    assert fill(choose, _args()) == "choose 1 card"
    assert fill(choose, _args(lo=Arg("0", number=0), hi=Arg("2", number=2))) == "choose up to 2 cards"
    assert fill(choose, _args(lo=Arg("1", number=1), hi=Arg("3", number=3))) == "choose 1 to 3 cards"
    assert fill(choose, _args(lo=Arg("2", number=2))) == "choose 2 cards"
    # flags: shown when set; `!` keeps the other branch
    deck = "put X at the [top{!bottom}][bottom{?bottom}][, shuffled{?shuffle}]"
    assert fill(deck, _args(bottom=Arg("true"), shuffle=Arg(""))) == "put X at the bottom, shuffled"
    assert fill(deck, _args(bottom=Arg("", given=False))) == "put X at the top"
    assert placeholders(deck) == {"bottom", "shuffle"} and placeholders(choose) == {"lo", "hi"}


# -- expressions -----------------------------------------------------------------------------------------
FUNCTIONS = {
    "cards": Function("{player's} {zone}", ["zone", "player"]),
    "top": Function("the top {n} card(s) of {player's} {zone}", ["zone", "player", "n"]),
    "count": Function("the number of {value}", ["value"]),
    "has_name": Function("{card} has the name {name}", ["card", "name"]),
    "min": Function("the smallest of {values}", ["values"], varargs=True),
}


@pytest.mark.parametrize("expr,reads", [
    ("cards('hand', you)", "your hand"),
    ("cards('discard', opponent)", "the opponent's discard"),
    ("cards('market', null)", "the market"),
    ("top('deck', you, 1)", "the top 1 card of your deck"),
    ("count(cards('hand', you)) >= 3", "your hand holds at least 3"),
    ("count(cards('hand', you)) == 0", "your hand is empty"),
    ("count(cards('field', you) where it.power > 2) > 0", "your field where its power is more than 2 is not empty"),
    ("cards('hand', you) where it.type == 'unit' and has_name(it, 'Plain Unit')",
     "your hand where its type is unit and it has the name “Plain Unit”"),
    ("cards('field', you) where it.cost != null and (it.power <= 2 or it != this)",
     "your field where it has a cost and (its power is at most 2 or it is not this card)"),
    ("cards('field', you) where true", "your field"),
    ("cards('field', you) where it.holder == null where it.marks.fresh",
     "your field where it has no holder and its mark fresh"),
    ("not (it in picked)", "it is not in picked"),
    ("0 - 2", "-2"),
    ("(count(cards('hand', you)) // 2) * 1", "the number of your hand divided by 2"),
    ("turn + 1", "the next turn"),
    ("min(cards('hand', you) select it.power)", "the smallest of the power of your hand"),
    ("all(picked select it.type == 'unit')", "for every one of picked, its type is unit"),
    ("event.card == this", "the event's card is this card"),
    ("['red', 'blue', 'green']", "red, blue and green"),
])
def test_common_forms_of_expressions(expr: str, reads: str) -> None:
    assert ExprReader(FUNCTIONS).text(expr) == reads


def test_an_expression_without_a_reading_falls_back_and_is_noted() -> None:
    noted: list[str] = []
    reader = ExprReader(FUNCTIONS, noted.append)
    assert reader.text("secret(this) > 1") == "`secret`(this card) is more than 1"
    assert reader.text("1 +") == "`1 +`"
    assert noted == ["function 'secret'", "expression `1 +` (it does not parse)"]


# -- abilities of the toy rulebook -----------------------------------------------------------------------
READINGS = (
    ('  - {id: quick, rules: ["4"], played: voluntarily}',
     '  - {id: quick, rules: ["4"], played: voluntarily, reads: "quick ability"}'),
    ('  - {id: reflex, rules: ["4"], played: on_trigger}',
     '  - {id: reflex, rules: ["4"], played: on_trigger, reads: "reflex ability"}'),
    ('  - {id: aura, rules: ["4"], played: never}', '  - {id: aura, rules: ["4"], played: never, reads: "aura"}'),
    ('  - {id: on_ping, rules: ["4"], kind: trigger, trigger: {event: ping}}',
     '  - {id: on_ping, rules: ["4"], kind: trigger, trigger: {event: ping}, reads: "when a ping sounds"}'),
    ('  - {id: on_board, rules: ["4"], kind: condition, group: place, if: "in_group(this.zone, \'board\')"}',
     '  - {id: on_board, rules: ["4"], kind: condition, group: place, if: "in_group(this.zone, \'board\')",'
     ' reads: "only while this card is on the board"}'),
)
TEMPLATE = """templates:
  - id: bury
    rules: ["9"]
    reads: "[have {~player} ]put {n} card(s) of {player's} hand into the discard"
    params: {n: 1, player: "you"}
    do:
      - choose: {player: "player", from: "cards('hand', player)", min: "n", max: "n", as: buried}
      - move: {cards: "buried", to: discard}
"""


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Reader:
    rb, _ = toy_variant(tmp_path_factory.mktemp("reading"), replace=READINGS, append=TEMPLATE)
    return Reader(rb)


def test_an_ability_reads_from_its_kind_keywords_and_steps(reader: Reader) -> None:
    r = reader.ability({"kind": "reflex", "keywords": ["on_ping", "on_board"], "optional": True,
                        "cost": [{"call": {"template": "bury", "n": 2}}],
                        "effect": [{"move": {"cards": "top('deck', you, 2)", "to": "hand"}},
                                   {"if": {"cond": "count(cards('hand', you)) >= 5",
                                           "then": [{"call": {"template": "bury", "player": "opponent"}},
                                                    {"set_var": {"name": "pinged", "value": 1}}]}}]})
    assert r.text == ("Reflex ability, only while this card is on the board, when a ping sounds. Cost (optional): "
                      "put 2 cards of your hand into the discard. Effect: put the top 2 cards of your deck into the "
                      "hand; if your hand holds at least 5: (have the opponent put 1 card of the opponent's hand into "
                      "the discard; set pinged to 1).")
    assert r.missing == []


def test_continuous_effects_and_granted_abilities_read_as_what_they_give(reader: Reader) -> None:
    aura = reader.ability({"kind": "aura", "effect": {"affects": "cards('field', you) where it != this",
                                                      "modify": {"power": {"add": 2}, "needs": {"add": {"red": 1}}},
                                                      "if": "count(cards('hand', you)) == 0"}})
    assert aura.text == ("Aura. Effect: give your field where it is not this card +2 power and +1 red needs, "
                         "while your hand is empty.")
    grant = reader.ability({"kind": "quick", "effect": [
        {"continuous": {"effect": {"affects": "this", "grant": {"kind": "reflex", "keywords": ["on_ping"],
                                                                "effect": [{"call": {"template": "bury"}}]}},
                        "duration": "round"}}]})
    assert grant.text == ("Quick ability. Effect: round, give this card the ability “Reflex ability, when a ping "
                          "sounds. Effect: put 1 card of your hand into the discard.”.")


def test_a_line_of_card_information_reads_as_what_it_states(reader: Reader) -> None:
    """An entry of card information (a line compiled to card fields, no kind) reads as those fields;
    an annotation line (no fields) as having no effect."""
    assert reader.ability({"fields": {"power": 5}}).text == "Card information: power 5."
    assert reader.ability({"fields": {}}).text == "Annotation (no effect)."
    assert reader.ability({"fields": {"power": 5}}).missing == []


def test_what_has_no_reading_is_marked_and_listed(reader: Reader) -> None:
    r = reader.ability({"kind": "quick", "keywords": ["in_hand"],
                        "effect": [{"call": {"template": "swap_out", "out": "this"}}, {"draw_game": {}}]})
    assert r.text == "Quick ability, `in_hand`. Effect: `swap_out` (out: this card); end the game in a draw."
    assert r.missing == ["keyword 'in_hand'", "template 'swap_out'"]


def test_an_ability_that_is_only_its_keywords_reads_without_an_effect(reader: Reader) -> None:
    """A keyword ability written with an empty effect (`effect: {}`) is its keywords: no `{}` is read."""
    r = reader.ability({"kind": "quick", "keywords": ["in_hand"], "effect": {}})
    assert r.text == "Quick ability, `in_hand`." and "{}" not in r.text


def test_every_verb_example_reads_without_a_fallback(reader: Reader) -> None:
    """Each verb's reading fills from its own example step (docs/reference.md): no verb is left
    unread and no placeholder is left unfilled."""
    import yaml

    from interpreter import reference

    for e in reference.verbs():
        step = yaml.safe_load(e.example)
        text = reader.steps([step])
        assert "`" + e.name + "`" not in text and "{" not in text, (e.name, text)


def test_review_fixture_paths_exist() -> None:
    assert (Path(__file__).parent / "data" / "cardtext_toy" / "cards.yaml").is_file()
