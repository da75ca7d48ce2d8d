"""Keywords with parameters (〔チャージX〕, 【ドン!!×N】, a counter value), on a toy variant: a keyword
declares `params` with types and defaults; an ability gives values as `{ID: VALUE}` or
`{ID: {NAME: VALUE}}` (or lists it bare: the defaults); the keyword's condition and trigger read them as
`kw.NAME`, compiled for each set of values; `keyword_value(s)` read them from a card, as has_keyword
counts the keyword; every mistake is a located load error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, toy_variant

from interpreter.agents.cardinfo import card_details
from interpreter.expr import compile_expr
from interpreter.loader.diagnostics import LoadError
from interpreter.table.context import Ctx

KEYWORDS_AT = "  - {id: from_discard, rules: [\"4\"], kind: active_zones, zones: [discard]}\n"
KEYWORDS = (KEYWORDS_AT, KEYWORDS_AT + """\
  - {id: charge, rules: ["4"], kind: notation, params: {x: {type: int}}}
  - {id: powered, rules: ["4"], kind: condition, group: power, params: {n: {type: int, default: 2}},
     if: "this.power >= kw.n"}
  - {id: on_ping_at, rules: ["4"], kind: trigger, params: {at: int}, trigger: {event: ping, if: "stage == kw.at"}}
  - id: unity
    rules: ["4"]
    kind: condition
    group: unity
    params: {n: int, tag: {type: string, default: red}}
    if: "count(cards('field', you) where kw.tag in as_list(it.tags)) >= kw.n"
""")


def unit(card: str, power: int, *abilities: str, tags: str = "[red]") -> str:
    return f"  - id: {card}\n    type: unit\n    name: {card}\n    power: {power}\n    tags: {tags}\n" \
           "    abilities:\n" + "".join(abilities)


def quick(keywords: str, var: str) -> str:
    return f"      - kind: quick\n        keywords: {keywords}\n        effect:\n" \
           f"          - set_var: {{name: {var}, value: true}}\n"


def reflex(keywords: str, var: str) -> str:
    return quick(keywords, var).replace("kind: quick", "kind: reflex")


CARDS = "game: toy\ncards:\n" + "".join([
    unit("K-CHARGE", 1, quick("[{charge: 3}]", "c1"), quick("[{charge: 5}]", "c2")),
    unit("K-STRONG", 3, quick("[{powered: 3}]", "strong_used")),
    unit("K-WEAK", 1, quick("[powered]", "weak_used")),            # the default, n = 2
    unit("K-PING", 1, reflex("[{on_ping_at: 1}]", "ping_one"), reflex("[{on_ping_at: 2}]", "ping_two")),
    unit("K-UNITY", 1, quick("[{unity: {n: 2}}]", "red_unity"), quick("[{unity: {n: 1, tag: blue}}]", "blue_unity")),
])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("kwparams"), replace=(KEYWORDS,), cards=CARDS)


def ev(env: tuple[Any, Any], g: Any, src: str) -> Any:
    rb, _ = env
    return compile_expr(src, names=rb.names, functions=rb.functions)(Ctx(g, None, you=0))


def card(g: Any, cid: str) -> str:
    return f"(cards('field', you) where it.name == '{cid}')[0]"


def offered(g: Any) -> set[str]:
    d = g.advance()
    return {o.label.split(" [")[0].removeprefix("use ") for o in d.options if o.id.startswith("use:")}


def test_values_are_kept_per_ability(env: tuple[Any, Any]) -> None:
    _, cards = env
    assert [ab.keyword_params for ab in cards["K-CHARGE"].abilities] == [{"charge": {"x": 3}}, {"charge": {"x": 5}}]
    # A keyword listed bare takes its defaults; a default keyword of the card type is there too, without values.
    assert cards["K-WEAK"].abilities[0].keyword_params == {"powered": {"n": 2}}
    assert cards["K-UNITY"].abilities[1].keyword_params == {"unity": {"n": 1, "tag": "blue"}}
    # Players see the values (the human player's card details).
    rb, _ = env
    assert "  ability 2 (activated; unity(n=1, tag=blue), on_board)" in card_details(rb, cards["K-UNITY"])
    assert "  ability 1 (activated; charge(3), on_board)" in card_details(rb, cards["K-CHARGE"])


def test_keyword_values_are_read_from_a_card(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["K-CHARGE", "K-UNITY"]}})
    g.advance()
    c = card(g, "K-CHARGE")
    assert ev(env, g, f"has_keyword({c}, 'charge')") is True
    assert ev(env, g, f"keyword_values({c}, 'charge')") == [3, 5]
    assert ev(env, g, f"keyword_value({c}, 'charge')") == 3
    assert ev(env, g, f"keyword_value({c}, 'charge', 'x')") == 3
    assert ev(env, g, f"max(keyword_values({c}, 'charge'))") == 5
    assert ev(env, g, f"keyword_value({card(g, 'K-UNITY')}, 'unity', 'tag')") == "red"
    assert ev(env, g, f"keyword_value({card(g, 'K-UNITY')}, 'charge')") is None
    assert ev(env, g, f"keyword_values({card(g, 'K-UNITY')}, 'unity', 'n')") == [2, 1]


def test_a_condition_reads_the_values_its_ability_gives(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["K-STRONG", "K-WEAK"]}})
    # K-STRONG: power 3 >= 3; K-WEAK: power 1 < 2 (the default).
    assert offered(g) == {"K-STRONG"}


def test_a_condition_with_several_parameters(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["K-UNITY", "K-WEAK"]}})  # two red units: n = 2 of red holds
    assert offered(g) == {"K-UNITY"}
    d = g.advance()
    assert len([o for o in d.options if o.id.startswith("use:")]) == 1  # not the blue one: no blue unit
    g2 = game_of(env, {"P1": {"field": ["K-UNITY"]}})
    assert offered(g2) == set()


def test_a_trigger_reads_the_values_its_ability_gives(env: tuple[Any, Any]) -> None:
    g = game_of(env, {"P1": {"field": ["K-PING"]}})
    g.advance()
    assert g.state.vars.get("ping_one") is True     # the ping comes at stage 1
    assert g.state.vars.get("ping_two") is None


def test_the_expressions_are_compiled_once_per_set_of_values(env: tuple[Any, Any]) -> None:
    rb, _ = env
    assert len(rb.keywords["powered"]["variants_c"]) == 2  # n = 3 and n = 2
    assert len(rb.keywords["unity"]["variants_c"]) == 2


BAD_CARD = "game: toy\ncards:\n" + unit("K-BAD", 1, "      - kind: quick\n        keywords: [KW]\n        effect: []\n")


@pytest.mark.parametrize(("keywords", "message"), [
    ("charge", "10:20: keyword 'charge' needs parameter 'x' (int): write {charge: VALUE}"),
    ("{charge: three}", "10:29: keyword 'charge': parameter 'x' must be an integer, got 'three'"),
    ("{unity: {n: 2, colour: red}}", "10:35: keyword 'unity' has no parameter 'colour' (its parameters: n, tag)"),
    ("{unity: {tag: red}}", "10:28: keyword 'unity' needs parameter 'n' (int): write {unity: {n: VALUE, ...}}"),
    ("{unity: 2}", "10:28: keyword 'unity' takes parameters n, tag: write {unity: {n: ..., tag: ...}}"),
    ("{on_ping: 1}", "10:30: keyword 'on_ping' takes no parameters; list it by its id alone"),
    ("[{charge: 1}, {charge: 2}]", "10:33: keyword 'charge' is given twice in one ability"),
])
def test_located_errors_on_cards(env: tuple[Any, Any], tmp_path: Path, keywords: str, message: str) -> None:
    text = BAD_CARD.replace("[KW]", keywords if keywords.startswith("[") else f"[{keywords}]")
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(KEYWORDS,), cards=text)
    assert f"cards/extra.yaml:{message}" in str(e.value)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("if: \"this.power >= kw.n\"", "if: \"this.power >= kw.m\"",
     "all.yaml:38:10: keyword 'powered' has no parameter 'm' (its parameters: n)"),
    ("params: {x: {type: int}}", "params: {x: {type: number}}",
     "all.yaml:36:67: expected one of 'int', 'string', 'strings', 'bool', got string 'number'"),
    ("{n: {type: int, default: 2}}", "{n: {type: int, default: two}}",
     "all.yaml:37:97: keyword 'powered': the default of parameter 'n' must be an integer, got 'two'"),
    ("if: \"this.power >= kw.n\"", "if: \"kw.n > 0 and keyword_value(this, 'powered', 'm') == 1\"",
     "all.yaml:38:10: in expression \"kw.n > 0 and keyword_value(this, 'powered', 'm') == 1\": keyword_value: "
     "keyword 'powered' has no parameter 'm' (its parameters: n)"),
    ("on_ping, rules", "on_ping, params: {n: int}, rules",
     "all.yaml:11:24: default keyword 'on_board' needs parameter"),
])
def test_located_errors_in_declarations(tmp_path: Path, old: str, new: str, message: str) -> None:
    edits = [KEYWORDS, (old, new)]
    if "default keyword" in message:
        edits = [(KEYWORDS_AT, KEYWORDS_AT), ("{id: on_board, rules: [\"4\"],", "{id: on_board, rules: [\"4\"], "
                                                                           "params: {n: int},")]
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=tuple(edits))
    assert message in str(e.value)


def test_keyword_value_names_a_declared_keyword(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(KEYWORDS, ("if: \"this.power >= kw.n\"",
                                                  "if: \"keyword_value(this, 'on_ping') == 1\"")))
    assert "keyword_value: keyword 'on_ping' has no parameters" in str(e.value)


OPTIONAL = (KEYWORDS_AT, KEYWORDS_AT + """\
  - id: guard
    rules: ["4"]
    kind: condition
    group: guard
    params: {tag: {type: string, default: null}}
    if: "kw.tag == null or kw.tag in as_list(this.tags)"
""")
OPTIONAL_CARDS = "game: toy\ncards:\n" + unit("K-GUARD", 1, quick("[guard]", "any_guard"),
                                               quick("[{guard: red}]", "red_guard"),
                                               quick("[{guard: blue}]", "blue_guard"))


def test_a_parameter_with_a_null_default_may_be_left_out(tmp_path: Path) -> None:
    """`default: null`: a keyword printed with or without its value (a blocker with or without an
    attribute) is one keyword; listed bare, its parameter reads as null, and it is shown without it."""
    rb, cards = toy_variant(tmp_path, replace=(OPTIONAL,), cards=OPTIONAL_CARDS)
    abilities = cards["K-GUARD"].abilities
    assert [ab.keyword_params for ab in abilities] == [{"guard": {"tag": None}}, {"guard": {"tag": "red"}},
                                                      {"guard": {"tag": "blue"}}]
    details = card_details(rb, cards["K-GUARD"])
    assert "  ability 1 (activated; guard, on_board)" in details
    assert "  ability 2 (activated; guard(red), on_board)" in details
    g = game_of((rb, cards), {"P1": {"field": ["K-GUARD"]}})
    env = (rb, cards)
    assert ev(env, g, f"keyword_values({card(g, 'K-GUARD')}, 'guard')") == [None, "red", "blue"]
    d = g.advance()
    # the bare one (no tag: always) and the red one (the unit is red); not the blue one
    assert len([o for o in d.options if o.id.startswith("use:")]) == 2
