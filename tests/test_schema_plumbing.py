"""Schema loading, cross-file $refs and author-friendly, located validation messages."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter.loader import schema
from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.yaml_safe import load_yaml_text

REPO_SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def sid(name: str) -> str:
    return f"https://sogo.dev/schemas/{name}.schema.json"


STEP_DRAW = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "count"],
    "properties": {"kind": {"const": "draw"}, "count": {"type": "integer"}},
}
STEP_MOVE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "to"],
    "properties": {"kind": {"const": "move"}, "to": {"$ref": "common.schema.json#/$defs/id"}},
}

THING = {
    "$schema": DRAFT,
    "$id": sid("thing"),
    "type": "object",
    "additionalProperties": False,
    "required": ["id", "steps"],
    "properties": {
        "id": {"$ref": "common.schema.json#/$defs/id"},
        "count": {"type": "integer"},
        "color": {"enum": ["red", "green", "blue"]},
        "rules": {"$ref": "https://sogo.dev/schemas/common.schema.json#/$defs/rules"},
        "when": {"$ref": "common.schema.json#/$defs/expr"},
        "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
        "cost": {
            "anyOf": [
                {"type": "object", "required": ["energy"], "properties": {"energy": {"type": "integer"}}},
                {"type": "object", "required": ["discard"], "properties": {"discard": {"type": "integer"}}},
            ]
        },
        "size": {"oneOf": [{"type": "integer", "minimum": 1}, {"enum": ["small", "large"]}]},
    },
    "$defs": {"step": {"oneOf": [STEP_DRAW, {"$ref": "#/$defs/move"}]}, "move": STEP_MOVE},
}

BASE = {
    "$schema": DRAFT,
    "$id": sid("base"),
    "type": "object",
    "properties": {"id": {"type": "string"}, "label": {"type": "string"}},
}
DERIVED = {
    "$schema": DRAFT,
    "$id": sid("derived"),
    "allOf": [{"$ref": "base.schema.json"}],
    "properties": {"extra": {"type": "integer"}},
    "unevaluatedProperties": False,
}


def write(directory: Path, name: str, contents: dict[str, Any] | str) -> Path:
    path = directory / f"{name}.schema.json"
    path.write_text(contents if isinstance(contents, str) else json.dumps(contents, indent=2))
    return path


@pytest.fixture
def schema_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private schema folder holding the real common schema plus small test schemas."""
    directory = tmp_path / "schemas"
    directory.mkdir()
    shutil.copy(REPO_SCHEMAS / "common.schema.json", directory)
    write(directory, "thing", THING)
    write(directory, "base", BASE)
    write(directory, "derived", DERIVED)
    monkeypatch.setenv("SOGO_SCHEMAS", str(directory))
    schema.clear_cache()
    yield directory
    schema.clear_cache()


def check(text: str, name: str = "thing") -> list[Diagnostic]:
    data, smap = load_yaml_text(text, "t.yaml")
    return schema.validate(data, name, smap, "t.yaml")


def where(diags: list[Diagnostic]) -> list[tuple[int, int, str]]:
    return [(d.line, d.col, d.message) for d in diags]


# --- the schema files themselves --------------------------------------------


def test_repo_schemas_are_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOGO_SCHEMAS", raising=False)
    schema.clear_cache()
    try:
        assert schema.schemas_dir() == REPO_SCHEMAS
        assert "common" in schema.schema_names()
        assert schema.check_schemas() == []
    finally:
        schema.clear_cache()


def test_common_defs_behave(schema_dir: Path) -> None:
    common = json.loads((schema_dir / "common.schema.json").read_text())
    assert common["$id"] == sid("common")
    assert set(common["$defs"]) >= {"rules", "id", "expr"}
    assert check("id: draw_step\nsteps: []\nrules: [7.4.1, 5-13-2, 7.4, Setup]\nwhen: x > 1\n") == []
    diags = check("id: Draw\nsteps: []\nrules: []\nwhen: ''\n")
    assert where(diags) == [
        (1, 5, "invalid value 'Draw' (must match the pattern ^[a-z][a-z0-9_]*$)"),
        (3, 8, "expected a non-empty list"),
        (4, 7, "expected a non-empty string"),
    ]


def test_check_schemas_reports_broken_files(schema_dir: Path) -> None:
    write(schema_dir, "badtype", {"$schema": DRAFT, "$id": sid("badtype"), "type": "strnig"})
    write(schema_dir, "wrongid", {"$schema": DRAFT, "$id": "https://example.com/x.json"})
    write(schema_dir, "dangling", {"$schema": DRAFT, "$id": sid("dangling"), "$ref": "nope.schema.json"})
    write(schema_dir, "badregex", {"$schema": DRAFT, "$id": sid("badregex"), "pattern": "(["})
    write(schema_dir, "notjson", '{\n  "type": "object",\n  oops\n}\n')
    schema.clear_cache()
    diags = schema.check_schemas()
    by_file = {Path(d.path).name: d for d in diags}
    assert set(by_file) == {
        "badtype.schema.json",
        "wrongid.schema.json",
        "dangling.schema.json",
        "badregex.schema.json",
        "notjson.schema.json",
    }
    assert "/type" in by_file["badtype.schema.json"].message
    assert "$id must be" in by_file["wrongid.schema.json"].message
    assert "unresolvable $ref 'nope.schema.json'" in by_file["dangling.schema.json"].message
    assert "invalid regex" in by_file["badregex.schema.json"].message
    notjson = by_file["notjson.schema.json"]
    assert (notjson.line, notjson.col) == (3, 3) and "invalid JSON" in notjson.message
    # A broken schema folder is a bug, so validation refuses to run instead of half-validating.
    with pytest.raises(LoadError, match="invalid JSON"):
        check("id: a\nsteps: []\n")


def test_unknown_schema_name_is_a_load_error(schema_dir: Path) -> None:
    with pytest.raises(LoadError) as info:
        check("a: 1\n", "nosuch")
    (d,) = info.value.diagnostics
    assert "no schema named 'nosuch'" in d.message and "thing" in d.message


def test_cache_is_per_directory_and_clearable(schema_dir: Path) -> None:
    assert check("id: a\nsteps: []\n") == []
    write(schema_dir, "late", {"$schema": DRAFT, "$id": sid("late"), "type": "integer"})
    assert "late" not in schema.schema_names()  # cached
    schema.clear_cache()
    assert "late" in schema.schema_names()
    assert schema.validate(3, "late.schema.json", load_yaml_text("3", "n.yaml")[1], "n.yaml") == []


# --- validation messages ------------------------------------------------------


def test_valid_document_has_no_diagnostics(schema_dir: Path) -> None:
    text = "id: a\ncount: 3\ncolor: red\nsteps:\n  - kind: draw\n    count: 1\n  - kind: move\n    to: hand\n"
    assert check(text) == []


def test_unknown_key_points_at_the_key_and_lists_allowed(schema_dir: Path) -> None:
    diags = check("id: a\nsteps: []\ncolour: red\n")
    assert where(diags) == [
        (
            3,
            1,
            "unknown key 'colour' (allowed here: id, count, color, rules, when, steps, cost, size); "
            "did you mean 'color'?",
        )
    ]
    assert str(diags[0]).startswith("t.yaml:3:1: unknown key 'colour'")


def test_missing_required_key_points_at_the_mapping(schema_dir: Path) -> None:
    diags = check("# header\ncount: 1\n")
    assert where(diags) == [(2, 1, "missing required key 'id'"), (2, 1, "missing required key 'steps'")]


def test_type_error_shows_the_value(schema_dir: Path) -> None:
    diags = check("id: a\nsteps: []\ncount: 7.4\n")
    assert where(diags) == [(3, 8, "expected integer, got string '7.4'")]
    assert where(check("id: a\nsteps: {}\n")) == [(2, 8, "expected list, got a mapping")]


def test_enum_error(schema_dir: Path) -> None:
    diags = check("id: a\nsteps: []\ncolor: gren\n")
    assert where(diags) == [
        (3, 8, "expected one of 'red', 'green', 'blue', got string 'gren'; did you mean 'green'?")
    ]


def test_one_of_picks_branch_by_const_discriminator(schema_dir: Path) -> None:
    text = "id: a\nsteps:\n  - kind: move\n    to: Hand\n    count: 2\n  - kind: draw\n    count: many\n"
    assert where(check(text)) == [
        (4, 9, "invalid value 'Hand' (must match the pattern ^[a-z][a-z0-9_]*$)"),
        (5, 5, "unknown key 'count' (allowed here: kind, to)"),
        (7, 12, "expected integer, got string 'many'"),
    ]


def test_one_of_unknown_discriminator_value(schema_dir: Path) -> None:
    diags = check("id: a\nsteps:\n  - kind: mvoe\n    to: hand\n")
    assert where(diags) == [
        (3, 11, "expected one of 'draw', 'move', got string 'mvoe'; did you mean 'move'?")
    ]


def test_one_of_missing_discriminator(schema_dir: Path) -> None:
    diags = check("id: a\nsteps:\n  - to: hand\n")
    assert where(diags) == [(3, 5, "missing required key 'kind' (one of 'draw', 'move')")]


def test_any_of_picks_branch_by_required_key(schema_dir: Path) -> None:
    diags = check("id: a\nsteps: []\ncost:\n  discard: two\n")
    assert where(diags) == [(4, 12, "expected integer, got string 'two'")]


def test_one_of_without_discriminator_gives_single_best_error(schema_dir: Path) -> None:
    diags = check("id: a\nsteps: []\nsize: huge\n")
    assert len(diags) == 1
    assert (diags[0].line, diags[0].col) == (3, 7)
    assert "'small', 'large'" in diags[0].message and "'huge'" in diags[0].message


def test_unevaluated_properties_through_all_of_ref(schema_dir: Path) -> None:
    assert check("id: a\nlabel: b\nextra: 1\n", "derived") == []
    diags = check("id: a\nlable: b\n", "derived")
    assert where(diags) == [
        (2, 1, "unknown key 'lable' (allowed here: extra, id, label); did you mean 'label'?")
    ]


def test_diagnostics_sorted_and_deduplicated(schema_dir: Path) -> None:
    text = "steps:\n  - kind: draw\n    count: x\ncount: y\nbogus: 1\n"
    diags = check(text)
    positions = [(d.line, d.col) for d in diags]
    assert positions == sorted(positions)
    assert len(set(diags)) == len(diags)
    assert [m for _, _, m in where(diags)] == [
        "missing required key 'id'",
        "expected integer, got string 'x'",
        "expected integer, got string 'y'",
        "unknown key 'bogus' (allowed here: id, count, color, rules, when, steps, cost, size)",
    ]


def test_non_mapping_document(schema_dir: Path) -> None:
    data, smap = load_yaml_text("- 1\n- 2\n", "t.yaml")
    assert where(schema.validate(data, "thing", smap, "t.yaml")) == [(1, 1, "expected mapping, got a list")]
