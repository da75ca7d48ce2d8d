"""The import mapping language on invented records (no game, no card text): a text composed of several
fields (`join` with each part's `format`, `types`, `sep`), regular-expression fixes (`sub`, `match`),
paths tried in turn, splitting into characters, counts, and records that are printings of one card."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cardtext.importer import import_cards, load_mapping
from interpreter.loader.diagnostics import LoadError

RECORDS = [
    {"no": "X-001", "kind": "unit", "cost": "AAB", "skill": "swift<br>Quick Step<br>line one<br>line two",
     "attack": "AB<br>Big Swing<br>30+red+10<br>gets more", "extra": "also named <Ann><Bo>"},
    {"no": "X-002", "kind": "spell", "rules": "first line<br><br>second line", "extra": "only one a turn."},
    {"no": "X-001", "kind": "unit", "cost": "AAB", "skill": "swift<br>Quick Step<br>line one<br>line two",
     "attack": "AB<br>Big Swing<br>30+red+10<br>gets more", "extra": "also named <Ann><Bo>", "rarity": "SR"},
]

MAPPING = {
    "id": "toy_list", "format": "json", "card_id": ["no"],
    "fields": {
        "number": "no",
        "type": {"from": "kind"},
        "cost": {"from": "cost", "types": ["unit"], "split": "", "values": {"A": "amber", "B": "blue"},
                 "as": "counts"},
        "names": {"from": "extra", "match": "named (.+)", "split": ["<", ">"]},
        "limited": {"from": "extra", "types": ["spell"], "match": "^only one a turn", "values": {"only one a turn": 1}},
        "text": {"join": [
            {"from": "skill", "split": "<br>", "format": "[{0}]「{1}」{2:}"},
            {"from": "attack", "types": ["unit"], "sub": {r"^([^<]*<br>[^<]*<br>\d+\+?)\+?(red|blue)\+(\d+)":
                                                          r"\1[\2 bonus +\3]"},
             "split": "<br>", "format": "[attack]{0}「{1}」{2}{3:}"},
            {"from": "extra", "types": ["spell"]},
            {"from": "rules", "types": ["spell"], "split": "<br>"},
        ]},
    },
}


def test_a_text_composed_of_several_fields_each_in_its_format() -> None:
    """Each part of a `join` is converted and formatted on its own, in order, one per line; a part for
    other card types or with no value is left out; {N:} writes the rest of the items one after another."""
    cards = {c["id"]: c for c in import_cards(RECORDS, MAPPING, "toy")["cards"]}
    assert cards["X-001"]["text"] == ("[swift]「Quick Step」line oneline two\n"
                                      "[attack]AB「Big Swing」30+[red bonus +10]gets more")
    assert cards["X-002"]["text"] == "only one a turn.\nfirst line\nsecond line"


def test_match_reads_one_fact_and_split_into_characters_counts() -> None:
    cards = {c["id"]: c for c in import_cards(RECORDS, MAPPING, "toy")["cards"]}
    unit, spell = cards["X-001"], cards["X-002"]
    assert unit["names"] == ["Ann", "Bo"] and "limited" not in unit
    assert spell["limited"] == 1 and "names" not in spell
    assert unit["cost"] == {"amber": 2, "blue": 1} and "cost" not in spell


def test_records_with_one_card_id_are_one_card() -> None:
    """Printings of one card number make one card, the first record's; one whose mapped fields differ
    is reported with the fields (here nothing mapped differs: the rarity is not a card field)."""
    differences: list[tuple[str, list[str]]] = []
    data = import_cards(RECORDS, MAPPING, "toy", differences)
    assert [c["id"] for c in data["cards"]] == ["X-001", "X-002"] and differences == []
    changed = [*RECORDS, {**RECORDS[1], "rules": "another line"}]
    data = import_cards(changed, MAPPING, "toy", differences)
    assert [c["id"] for c in data["cards"]] == ["X-001", "X-002"]
    assert data["cards"][1]["text"].endswith("second line")
    assert differences == [("X-002", ["text"])]


def test_each_item_of_a_list_of_objects_is_composed_and_paths_are_tried_in_turn() -> None:
    """`each` with a `join` reads every object of a list (its own `from` paths), `sep` joins its parts;
    `values` maps true to a label and `default` gives the other one; `format` fills {0} and {1} from a
    pair; `from` with several paths takes the first that has a value."""
    mapping = {"id": "toy_objects", "format": "json", "card_id": ["no"], "fields": {
        "name": {"from": ["name.local", "name.intl"]},
        "type": {"from": ["kind.spell", "kind"], "values": {"fast": "spell", "slow": "spell"}},
        "text": {"join": [{"from": "moves", "each": {"sep": "", "join": [
            {"from": "strong", "values": {True: "[strong move]"}, "default": "[move]"},
            {"from": "name.local", "format": "「{0}」"},
            {"from": "edge", "values": {"red": "R"}, "format": "<{0}+{1}>"},
            {"from": "text.local", "replace": {"\n": ""}},
        ]}}]},
    }}
    records = [{"no": "Y-1", "name": {"local": "Kai", "intl": "Kai"}, "kind": "unit", "moves": [
        {"name": {"local": "Jab"}, "text": {"local": "hits\nonce"}},
        {"strong": True, "name": {"local": "Slam"}, "edge": ["red", 20]}]},
        {"no": "Y-2", "name": {"local": None, "intl": "Fizz"}, "kind": {"spell": "fast"}}]
    cards = import_cards(records, mapping, "toy")["cards"]
    assert cards[0]["text"] == "[move]「Jab」hitsonce\n[strong move]「Slam」<R+20>"
    assert cards[0]["type"] == "unit" and cards[1]["type"] == "spell" and cards[1]["name"] == "Fizz"
    assert "text" not in cards[1]


def test_a_regular_expression_that_does_not_compile_is_reported_in_the_mapping(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("import:\n  id: toy_bad\n  format: json\n  card_id: [no]\n  fields:\n"
                   "    text:\n      join:\n        - {from: a, match: '(unclosed'}\n", encoding="utf-8")
    with pytest.raises(LoadError) as e:
        load_mapping(bad)
    assert str(e.value).startswith(f"{bad}:8:") and "not a valid regular expression '(unclosed'" in str(e.value)


def test_values_find_a_true_or_a_number_under_its_json_spelling(tmp_path: Path) -> None:
    """A mapping file's keys are text: `values: {true: ..., 2: ...}` still maps a list's true and 2."""
    m = tmp_path / "m.yaml"
    m.write_text("import:\n  id: toy_flags\n  format: json\n  card_id: [no]\n  fields:\n"
                 "    marked: {from: flag, values: {true: 1, false: null}}\n"
                 "    size: {from: n, values: {2: small}}\n", encoding="utf-8")
    mapping = load_mapping(m)
    records = [{"no": "A", "flag": True, "n": 2}, {"no": "B", "flag": False, "n": 3}]
    cards = import_cards(records, mapping, "toy")["cards"]
    assert cards[0] == {"id": "A", "marked": 1, "size": "small"}
    assert cards[1] == {"id": "B", "size": 3}


def test_a_constant_mapping_is_written_out_for_each_card() -> None:
    """A constant `value` (or a `default`) that is a mapping is one object of the mapping: every card
    gets its own copy, so the card file written has no YAML anchors or aliases (card files refuse them)."""
    import yaml

    mapping = {"id": "toy_constant", "format": "json", "card_id": ["no"],
               "fields": {"cost": {"value": {"amber": 1}}, "tags": {"from": "tags", "default": ["plain"]}}}
    cards = import_cards([{"no": "A"}, {"no": "B"}], mapping, "toy")["cards"]
    assert cards[0]["cost"] == cards[1]["cost"] == {"amber": 1} and cards[0]["cost"] is not cards[1]["cost"]
    written = yaml.safe_dump({"cards": cards}, allow_unicode=True, sort_keys=False)
    assert "&" not in written and "*" not in written
