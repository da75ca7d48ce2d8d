"""Cards with several names, each with values of its own (issue 29, item 15; Love Live 2.3.2.1,
2.4.2.1): a `strings_map` card field (`{NAME: [VALUE, ...]}`, or a list of names), filled from another
field when a card leaves it out (`default_from`, split at `split`), its values checked against another
field of the card (`within`); `keys`, and `distinct_count` over a field's strings or over values an
expression gives."""

from __future__ import annotations

import pytest
from toy_engine import game_of, toy_variant

from interpreter.expr import compile_expr
from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx

FIELD = ('  - {id: name, type: string, required: true, rules: ["2"]}\n',
         '  - {id: name, type: string, required: true, rules: ["2"]}\n'
         '  - {id: aliases, type: strings_map, default_from: name, split: "+", within: tags, rules: ["2"]}\n')

CARDS = """
game: toy
cards:
  - {id: N-RED, type: unit, name: Ann, power: 1, tags: [red]}
  - {id: N-BLUE, type: unit, name: Bea, power: 1, tags: [blue]}
  - {id: N-PAIR, type: unit, name: Ann+Cy, power: 1, tags: [red, blue], aliases: {Ann: [red], Cy: [blue]}}
  - {id: N-SPLIT, type: unit, name: Dee+Eve, power: 1, tags: [red]}
  - {id: N-LIST, type: unit, name: Fay+Gus, power: 1, tags: [red], aliases: [Fay, Gus]}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return toy_variant(tmp_path_factory.mktemp("names"), replace=(FIELD,), cards=CARDS)


def ev(env, g, src, **vars):
    rb, _ = env
    fn = compile_expr(src, names=set(rb.names) | set(vars), functions=rb.functions)
    return fn(Ctx(g, None, you=0, vars=vars))


def cards(g, *ids):
    by_id = {o.card_id: o for o in g.state.objects.values()}
    return [by_id[i] for i in ids]


def test_fields_as_written_and_as_filled(env):
    _, pool = env
    assert pool["N-RED"].fields["aliases"] == {"Ann": []}, "an ordinary card: its one name"
    assert pool["N-SPLIT"].fields["aliases"] == {"Dee": [], "Eve": []}, "the name split at the separator"
    assert pool["N-PAIR"].fields["aliases"] == {"Ann": ["red"], "Cy": ["blue"]}
    assert pool["N-LIST"].fields["aliases"] == {"Fay": [], "Gus": []}, "a list: names with no values of their own"


def test_distinct_count_over_the_field_counts_ordinary_cards_too(env):
    g = game_of(env, {"P1": {"hand": ["N-RED", "N-BLUE", "N-PAIR"]}})
    assert ev(env, g, "distinct_count(cs, 'aliases')", cs=cards(g, "N-RED", "N-BLUE")) == 2
    # Ann+Cy gives Cy, the name Ann already has.
    assert ev(env, g, "distinct_count(cs, 'aliases')", cs=cards(g, "N-RED", "N-BLUE", "N-PAIR")) == 3
    assert ev(env, g, "keys(c.aliases)", c=cards(g, "N-PAIR")[0]) == ["Ann", "Cy"]
    assert ev(env, g, "names(c)", c=cards(g, "N-RED")[0]) == ["Ann"], "each name once"


def test_distinct_count_over_values_an_expression_gives(env):
    g = game_of(env, {"P1": {"hand": ["N-RED", "N-PAIR"]}})
    assert ev(env, g, "distinct_count(xs)", xs=[["Ann"], ["Ann"]]) == 1
    assert ev(env, g, "distinct_count(xs)", xs=[["Ann", "Cy"], ["Ann"]]) == 2
    assert ev(env, g, "distinct_count(xs)", xs=["Ann", "Bea", "Ann", None]) == 2, "one value per item"
    # Ann+Cy counted under its names other than Cy (as a rulebook counts a card under the names of
    # one group): Ann, the name Ann has, so one name.
    pair, red = cards(g, "N-PAIR", "N-RED")
    assert ev(env, g, "distinct_count(cs select (keys(it.aliases) where it != 'Cy'))", cs=[pair, red]) == 1
    assert ev(env, g, "distinct_count(cs select keys(it.aliases))", cs=[pair, red]) == 2


def test_a_value_the_card_does_not_have_is_reported(tmp_path):
    bad = CARDS.replace("aliases: {Ann: [red], Cy: [blue]}", "aliases: {Ann: [red], Cy: [green]}")
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(FIELD,), cards=bad)
    assert "'green' is not one of card N-PAIR's tags (red, blue)" in str(e.value)
    assert "extra.yaml:" in str(e.value)


def test_several_names_without_their_own_values_are_noted(tmp_path):
    _, pool = toy_variant(tmp_path, replace=(FIELD,), cards=CARDS.replace(
        "name: Dee+Eve, power: 1, tags: [red]", "name: Dee+Eve, power: 1, tags: [red, blue]"))
    notes = [str(n) for n in pool.notices]
    assert any("card N-SPLIT has several aliases and several tags" in n for n in notes), notes
    assert not any("N-PAIR" in n or "N-RED" in n for n in notes)


@pytest.mark.parametrize(("field", "message"), [
    ("{id: aliases, type: strings_map, default_from: nickname, rules: [\"2\"]}",
     "'default_from' names no other card field"),
    ("{id: aliases, type: strings, within: tags, rules: [\"2\"]}", "'within' is for a strings_map field"),
    ("{id: aliases, type: int, default_from: name, rules: [\"2\"]}", "'default_from' is for a strings or strings_map"),
    ("{id: aliases, type: strings, split: \"+\", rules: [\"2\"]}", "'split' splits the value 'default_from' takes"),
])
def test_field_links_are_checked_at_load(tmp_path, field, message):
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=((FIELD[0], FIELD[0] + f"  - {field}\n"),))
    assert message in str(e.value)
