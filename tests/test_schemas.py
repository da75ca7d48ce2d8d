"""The repository's schemas: valid, in step with the verb registry and the loader, and they accept
every rulebook, card and deck file in the repository while rejecting typical authoring mistakes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.loader import schema
from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.rulebook import LIST_SECTIONS, load_rulebook
from interpreter.loader.yaml_safe import load_yaml, load_yaml_text
from interpreter.verbs.registry import load_all

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"


@pytest.fixture(autouse=True)
def repo_schemas(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Always validate against the repository's own schemas."""
    monkeypatch.delenv("SOGO_SCHEMAS", raising=False)
    schema.clear_cache()
    yield
    schema.clear_cache()


def raw(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    return result


def schema_for(path: Path) -> str:
    """Which schema a repository YAML file is checked against."""
    rel = path.relative_to(ROOT)
    if rel.parts[0] == "rulebooks":
        if path.name == "layout.yaml":  # the play mat, beside rulebook.yaml (interpreter/loader/layout.py)
            return "layout"
        if path.name == "rulebook.yaml":  # a versioned rulebook is edits to the one it extends
            return "rulebook-overlay" if "\nextends:" in path.read_text(encoding="utf-8") else "rulebook"
        return "rulebook-part"
    return "deck" if path.name.startswith("deck") else "cards"


YAML_FILES = sorted([*ROOT.glob("rulebooks/*/*.yaml"), *ROOT.glob("cards/*/*.yaml")])


def check(text: str, name: str) -> list[Diagnostic]:
    data, smap = load_yaml_text(text, "t.yaml")
    return schema.validate(data, name, smap, "t.yaml")


def where(diags: list[Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.line, d.col, d.message) for d in diags]


# ---------------------------------------------------------------------------
# The schemas themselves


def test_check_schemas_is_clean() -> None:
    assert schema.check_schemas() == []


def test_expected_schemas_exist() -> None:
    assert {"common", "effect", "rulebook", "rulebook-part", "cards", "deck"} <= set(schema.schema_names())


# ---------------------------------------------------------------------------
# Every file in the repository validates


def test_there_are_files_to_check() -> None:
    kinds = {schema_for(p) for p in YAML_FILES}
    assert kinds == {"rulebook", "rulebook-overlay", "rulebook-part", "layout", "cards", "deck"}


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_file_validates(path: Path) -> None:
    data, smap = load_yaml(path)
    diags = schema.validate(data, schema_for(path), smap, path)
    assert diags == [], "\n".join(str(d) for d in diags)


@pytest.mark.parametrize("game", sorted(p.parent.name for p in ROOT.glob("rulebooks/*/rulebook.yaml")))
def test_rulebook_loads_with_schemas_active(game: str) -> None:
    rb = load_rulebook(game)
    assert rb.id == game.split("@")[0]  # game@1.02 is another rules version of the game


def test_loader_reports_schema_errors_in_part_files(tmp_path: Path) -> None:
    book = tmp_path / "lovelive"
    shutil.copytree(ROOT / "rulebooks" / "lovelive", book)
    zones = book / "zones.yaml"
    lines = zones.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("    visibility: "))
    lines[index] = "    visibilty: public"
    zones.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_rulebook(str(book))
    (diag,) = [d for d in info.value.diagnostics if "visibilty" in d.message]
    assert (diag.path, diag.line, diag.col) == (str(zones), index + 1, 5)
    assert "did you mean 'visibility'?" in diag.message


# ---------------------------------------------------------------------------
# In step with the code


def test_effect_schema_matches_verb_registry() -> None:
    step = raw("effect")["$defs"]["step"]
    verbs = load_all()
    assert step["propertyNames"]["enum"] == sorted(verbs)
    assert set(step["properties"]) == set(verbs)
    for name, spec in verbs.items():
        args = step["properties"][name]
        assert set(args["properties"]) == {a for a in spec.args if a != "*"}, name
        expected_required = sorted(a for a in spec.required() if a != "*")
        assert sorted(args.get("required", [])) == expected_required, name
        if "*" in spec.args:
            assert args["additionalProperties"] not in (False, None), name
        else:
            assert args["additionalProperties"] is False, name


def test_list_sections_are_lists() -> None:
    sections = raw("rulebook-part")["$defs"]["sections"]["properties"]
    assert set(LIST_SECTIONS) <= set(sections)
    for name, sec in sections.items():
        assert (sec.get("type") == "array") == (name in LIST_SECTIONS), name


def _objects(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield pointer, node
        for key, value in node.items():
            yield from _objects(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{pointer}/{i}")


# Elements with an `id` that legitimately cite no rules.
ID_WITHOUT_RULES = {
    ("effect", "/$defs/options/items"),  # choose_one options
    ("effect", "/$defs/duration/oneOf/1"),  # a duration named with its owner: a reference, not an element
    ("cards", "/$defs/card"),  # cards are not rules
    ("rulebook", ""),  # the game id
}


@pytest.mark.parametrize("name", ["rulebook", "rulebook-part", "effect", "cards", "deck"])
def test_every_element_with_an_id_cites_rules(name: str) -> None:
    for pointer, node in _objects(raw(name)):
        props = node.get("properties")
        if not isinstance(props, dict) or "id" not in props or (name, pointer) in ID_WITHOUT_RULES:
            continue
        assert "rules" in props, f"{name}{pointer}"
        assert {"id", "rules"} <= set(node.get("required", [])), f"{name}{pointer}"


# ---------------------------------------------------------------------------
# Typical mistakes are rejected with a useful message at the right place


def test_unknown_top_level_section() -> None:
    diags = check("zonez:\n  - {id: hand, rules: ['4.11']}\n", "rulebook-part")
    ((line, col, msg),) = where(diags)
    assert (line, col) == (1, 1)
    assert "unknown key 'zonez'" in msg and "did you mean 'zones'?" in msg


def test_rulebook_head_is_not_a_part() -> None:
    diags = check("title: X\n", "rulebook-part")
    assert where(diags) and "unknown key 'title'" in diags[0].message
    head = "id: x\ntitle: X\nrules_version: '1'\nparts: [a.yaml]\n"
    assert check(head, "rulebook") == []
    diags = check(head + "zonez: []\n", "rulebook")
    assert [(d.line, d.col) for d in diags] == [(5, 1)]


def test_misspelled_verb_suggests_the_right_one() -> None:
    text = "setup:\n  id: setup\n  rules: ['6.2']\n  do:\n    - mvoe: {cards: \"this\", to: hand}\n"
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (5, 7)
    assert "'mvoe'" in msg and "did you mean 'move'?" in msg


def test_misspelled_verb_in_nested_effect() -> None:
    text = ("setup:\n  id: setup\n  rules: ['6.2']\n  do:\n    - if:\n        cond: 'x'\n        then:\n"
            "          - mvoe: {}\n")
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (8, 13)
    assert "did you mean 'move'?" in msg


def test_unknown_and_missing_verb_arguments() -> None:
    base = "setup:\n  id: setup\n  rules: ['6.2']\n  do:\n"
    ((line, col, msg),) = where(check(base + "    - move: {cards: \"this\", too: hand}\n", "rulebook-part"))
    assert (line, col) == (5, 29) and "unknown key 'too'" in msg and "did you mean 'to'?" in msg
    ((_, _, msg),) = where(check(base + "    - move: {to: hand}\n", "rulebook-part"))
    assert msg == "missing required key 'cards'"
    ((_, _, msg),) = where(check(base + "    - move: {cards: \"this\", position: middle}\n", "rulebook-part"))
    assert "expected one of 'top', 'bottom'" in msg


def test_two_verbs_in_one_step() -> None:
    text = ("setup:\n  id: setup\n  rules: ['6.2']\n  do:\n    - move: {cards: \"this\"}\n"
            "      reveal: {cards: \"this\"}\n")
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (5, 7) and "at most 1" in msg


def test_wildcard_verbs_accept_any_names() -> None:
    text = (
        "setup:\n  id: setup\n  rules: ['6.2']\n  do:\n"
        "    - let: {a: 1, b: \"a + 1\"}\n"
        "    - call: {template: draw, n: 2, player: \"you\"}\n"
        "    - emit: {event: moved, once_per_turn: true, card: \"this\"}\n"
        "    - check_timing:\n"
    )
    assert check(text, "rulebook-part") == []
    ((_, _, msg),) = where(check(text + "    - call: {n: 1}\n", "rulebook-part"))
    assert msg == "missing required key 'template'"


def test_unknown_key_in_a_zone() -> None:
    text = "zones:\n  - id: hand\n    rules: ['4.11']\n    owner: player\n    visibilty: owner\n"
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (5, 5)
    assert "unknown key 'visibilty'" in msg and "did you mean 'visibility'?" in msg


def test_rule_numbers_are_strings() -> None:
    # The loader keeps 7.4 as text, but a bare 7 is an integer.
    assert check("roles:\n  - {id: first, rules: [7.4, '7']}\n", "rulebook-part") == []
    ((line, col, msg),) = where(check("roles:\n  - {id: first, rules: [7]}\n", "rulebook-part"))
    assert (line, col) == (2, 25)
    assert msg == "expected string, got integer 7"


def test_elements_with_an_id_need_rules() -> None:
    ((_, _, msg),) = where(check("roles:\n  - {id: first}\n", "rulebook-part"))
    assert msg == "missing required key 'rules'"
    ((_, _, msg),) = where(check("not_encoded:\n  - {rules: ['2.13']}\n", "rulebook-part"))
    assert msg == "missing required key 'reason'"
    diags = check("decisions:\n  - {id: d, rules: ['1'], reason: why}\n", "rulebook-part")
    assert [d.message for d in diags] == ["missing required key 'decision'"]


def test_keyword_kinds() -> None:
    ((_, _, msg),) = where(check("keywords:\n  - {id: k, rules: ['11'], kind: trigger}\n", "rulebook-part"))
    assert msg == "missing required key 'trigger'"
    ((_, _, msg),) = where(check("keywords:\n  - {id: k, rules: ['11'], kind: zone_gte, zone: x}\n", "rulebook-part"))
    assert "did you mean 'zone_gate'?" in msg


def test_turn_nodes_are_recursive() -> None:
    text = (
        "turn:\n  id: turn\n  kind: turn\n  rules: ['7.1']\n  children:\n"
        "    - id: a\n      kind: phase\n      rules: ['7.3']\n      children:\n"
        "        - id: b\n          rules: ['7.3.1']\n          do: []\n"
        "          next:\n            - {to: '@end', if: 'true', rules: ['7.3.1']}\n"
        "            - {to: turn.a.b}\n"
        "          nxt: []\n"
    )
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (16, 11) and "did you mean 'next'?" in msg
    text = "turn:\n  id: t\n  rules: ['1']\n  children: []\n  do: []\n"
    ((line, col, msg),) = where(check(text, "rulebook-part"))
    assert (line, col) == (5, 3) and "'do'" in msg


def test_card_and_deck_mistakes() -> None:
    card = "game: lovelive\ncards:\n  - id: A\n    type: member\n    cost: 2\n    abilities:\n      - kind: auto\n"
    assert check(card, "cards") == []
    ((_, _, msg),) = where(check(card + "        efect: []\n", "cards"))
    assert "did you mean 'effect'?" in msg
    continuous = card.replace("kind: auto", "kind: continuous") + "        effect: {afects: \"this\"}\n"
    ((_, _, msg),) = where(check(continuous, "cards"))
    assert "did you mean 'affects'?" in msg
    deck = "game: lovelive\ndecks:\n  main_deck:\n    - {card: A, count: 0}\n"
    ((_, _, msg),) = where(check(deck, "deck"))
    assert msg == "expected a number >= 1, got 0"
