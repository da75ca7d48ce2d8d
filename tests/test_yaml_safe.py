"""Behaviour of the strict YAML loader: plain data out, located errors for everything else."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from loader_work import metered, problems

from interpreter.loader import yaml_safe
from interpreter.loader.diagnostics import Diagnostic, Diagnostics, LoadError
from interpreter.loader.yaml_safe import MAX_DEPTH, MAX_FILE_BYTES, SourceMap, load_yaml, load_yaml_text


@pytest.fixture(params=["libyaml", "pure"], autouse=True)
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run every test with and without libyaml: results must not depend on which is installed."""
    if request.param == "pure":
        monkeypatch.setattr(yaml_safe, "_FAST_LOADER", None)
    elif yaml_safe._FAST_LOADER is None:
        pytest.skip("libyaml not available")
    return str(request.param)


def errors(text: str, **kwargs: Any) -> list[Diagnostic]:
    with pytest.raises(LoadError) as info:
        load_yaml_text(text, "f.yaml", **kwargs)
    assert info.value.diagnostics, "a LoadError must carry at least one diagnostic"
    return info.value.diagnostics


def only_error(text: str) -> Diagnostic:
    diags = errors(text)
    assert len(diags) == 1, diags
    return diags[0]


# --- diagnostics -----------------------------------------------------------


def test_diagnostic_format_and_loaderror_joins_lines() -> None:
    d1 = Diagnostic("a.yaml", 3, 5, "boom")
    d2 = Diagnostic("a.yaml", 4, 1, "bang")
    assert str(d1) == "a.yaml:3:5: boom"
    err = LoadError([d1, d2])
    assert str(err) == "a.yaml:3:5: boom\na.yaml:4:1: bang"
    assert err.diagnostics == [d1, d2]


def test_diagnostics_collector_reports_everything_at_once() -> None:
    diags = Diagnostics()
    diags.raise_if_any()  # nothing collected: no error
    diags.add("x.yaml", 1, 2, "first")
    diags.extend([Diagnostic("x.yaml", 9, 1, "second")])
    diags.extend(LoadError([Diagnostic("y.yaml", 1, 1, "third")]))
    assert len(diags) == 3 and diags[0].message == "first"
    with pytest.raises(LoadError) as info:
        diags.raise_if_any()
    assert [d.message for d in info.value.diagnostics] == ["first", "second", "third"]


# --- scalar resolution -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7.4", "7.4"),
        ("1.06", "1.06"),
        ("1e3", "1e3"),
        (".inf", ".inf"),
        ("7.4.1", "7.4.1"),
        ("5-13-2", "5-13-2"),
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("Yes", "Yes"),
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("FALSE", False),
        ("tRuE", "tRuE"),
        ("null", None),
        ("~", None),
        ("", None),
        ("42", 42),
        ("-12", -12),
        ("+3", 3),
        ("0", 0),
        ("007", "007"),
        ("0x1F", "0x1F"),
        ("0o17", "0o17"),
        ("1_000", "1_000"),
        ("1:30", "1:30"),
        ("123456789012345678", 123456789012345678),
        ('"42"', "42"),
        ("'true'", "true"),
        ('"7.4"', "7.4"),
        ("!!int '42'", 42),
        ("!!str 42", "42"),
        ("!!bool 'false'", False),
        ("!!null ''", None),
        ("|\n  text\n", "text\n"),
    ],
)
def test_scalar_resolution_never_makes_floats(text: str, expected: Any) -> None:
    data, _ = load_yaml_text(f"v: {text}\n", "f.yaml")
    assert data == {"v": expected}
    assert type(data["v"]) is type(expected)


def test_only_plain_python_types_come_out() -> None:
    text = "a: [1, 'x', true, null, {b: [2.5, c]}]\n'q': 3\n"
    data, _ = load_yaml_text(text, "f.yaml")
    assert data == {"a": [1, "x", True, None, {"b": ["2.5", "c"]}], "q": 3}

    def walk(value: Any) -> None:
        assert type(value) in (dict, list, str, int, bool, type(None))
        if isinstance(value, dict):
            assert all(type(k) is str for k in value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(data)


def test_keys_and_short_text_are_interned() -> None:
    """Names read from files are the very string objects the engine's lookups use (no text compare)."""
    long_text = "x" * 200
    data, _ = load_yaml_text(f"card_type: member\n'zone': \"hand\"\nexpr: {long_text}\n", "f.yaml")
    for key, value in data.items():
        assert key is sys.intern("".join(key))
        if value != long_text:
            assert value is sys.intern("".join(value))
    assert data["expr"] == long_text


def test_mapping_keys_stay_strings() -> None:
    data, _ = load_yaml_text("1: a\ntrue: b\n7.4: c\nyes: d\n", "f.yaml")
    assert data == {"1": "a", "true": "b", "7.4": "c", "yes": "d"}


def test_big_integer_rejected_with_location() -> None:
    d = only_error("a: 1\nb: 1234567890123456789\n")
    assert (d.line, d.col) == (2, 4)
    assert "too large" in d.message and "1234567890123456789" in d.message


def test_explicit_int_tag_must_hold_an_integer() -> None:
    d = only_error("a: !!int 7.4\n")
    assert (d.line, d.col) == (1, 4) and "!!int" in d.message


# --- forbidden YAML features -----------------------------------------------


def test_duplicate_key_reports_both_lines() -> None:
    d = only_error("name: a\nother: 1\nname: b\n")
    assert (d.path, d.line, d.col) == ("f.yaml", 3, 1)
    assert "duplicate key 'name'" in d.message and "line 1" in d.message


def test_nested_duplicate_keys_all_reported() -> None:
    diags = errors("a:\n  x: 1\n  x: 2\nb: 1\nb: 2\n")
    assert [(d.line, d.col) for d in diags] == [(3, 3), (5, 1)]
    assert "first defined at line 2" in diags[0].message
    assert "first defined at line 4" in diags[1].message


def test_anchor_and_alias_rejected() -> None:
    diags = errors("base: &b {x: 1}\nuse: *b\n")
    assert [(d.line, d.col) for d in diags] == [(1, 7), (2, 6)]
    assert all("anchors/aliases are not allowed" in d.message for d in diags)
    assert "&b" in diags[0].message and "*b" in diags[1].message


def test_merge_key_rejected() -> None:
    d = only_error("a:\n  <<: {x: 1}\n  y: 2\n")
    assert (d.line, d.col) == (2, 3) and "merge keys" in d.message


def test_alias_bomb_rejected_without_expansion() -> None:
    """9**12 strings if the aliases were expanded; the loader builds no node that is not written."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    text = "\n".join(lines) + "\n"
    with metered() as parses:
        diags = errors(text)
    assert diags[0].line == 1 and "anchors/aliases are not allowed" in diags[0].message
    assert len(diags) <= yaml_safe.MAX_DIAGNOSTICS + 1
    assert parses and not problems(parses), problems(parses)


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object:os.system echo\n",
        "a: !!python/name:os.system\n",
        "a: !custom 1\n",
        "a: !!float 7\n",
        "a: !!binary aGk=\n",
        "a: !!set {x}\n",
        "a: !!omap [x: 1]\n",
    ],
)
def test_arbitrary_tags_rejected(text: str) -> None:
    d = only_error(text)
    assert (d.line, d.col) == (1, 4)
    assert "tag" in d.message and "not allowed" in d.message


def test_multiple_documents_rejected() -> None:
    d = only_error("a: 1\n---\nb: 2\n")
    assert d.line == 2 and "multiple YAML documents" in d.message


def test_complex_keys_rejected() -> None:
    d = only_error("? [a, b]\n: 1\n")
    assert d.line == 1 and "keys must be plain scalars" in d.message


# --- size and depth --------------------------------------------------------


def nested_flow(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_nesting_limit_allows_exactly_max_depth() -> None:
    data, _ = load_yaml_text(nested_flow(MAX_DEPTH), "f.yaml")
    for _ in range(MAX_DEPTH - 1):
        data = data[0]
    assert data == []


def test_nesting_too_deep_rejected() -> None:
    d = only_error(nested_flow(MAX_DEPTH + 1))
    assert (d.line, d.col) == (1, MAX_DEPTH + 1) and "too deep" in d.message


def test_very_deep_nesting_rejected_without_recursion_error() -> None:
    with metered() as parses:
        d = only_error(nested_flow(5000))
    assert "too deep" in d.message
    assert max(p.depth for p in parses) == MAX_DEPTH + 1  # stopped at the first level past the limit


def test_block_nesting_too_deep_rejected() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 1)) + "  " * (MAX_DEPTH + 1) + "x: 1\n"
    d = only_error(text)
    assert d.line == MAX_DEPTH + 1 and "too deep" in d.message


def test_file_too_large_rejected(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    with pytest.raises(LoadError) as info:
        load_yaml(big)
    (d,) = info.value.diagnostics
    assert (d.path, d.line, d.col) == (str(big), 1, 1) and "too large" in d.message


# --- encoding, emptiness, files --------------------------------------------


def test_non_utf8_reports_first_bad_byte(tmp_path: Path) -> None:
    f = tmp_path / "latin1.yaml"
    f.write_bytes("a: 1\nb: café\n".encode("latin-1"))
    with pytest.raises(LoadError) as info:
        load_yaml(f)
    (d,) = info.value.diagnostics
    assert (d.path, d.line, d.col) == (str(f), 2, 7)
    assert "not valid UTF-8" in d.message


def test_utf8_with_bom_and_non_ascii_columns(tmp_path: Path) -> None:
    f = tmp_path / "bom.yaml"
    f.write_bytes("\ufeffnom: héllo\nété: 7.4\n".encode())
    data, smap = load_yaml(f)
    assert data == {"nom": "héllo", "été": "7.4"}
    assert smap.get(("été",)) == (2, 6)


def test_control_character_rejected_with_location() -> None:
    d = only_error("a: 1\nb: x\x01y\n")
    assert (d.line, d.col) == (2, 5) and "#x0001" in d.message


@pytest.mark.parametrize("text", ["", "# just a comment\n\n# another\n", "---\n", "\n\n"])
def test_empty_file_is_an_error_unless_allowed(text: str) -> None:
    d = only_error(text)
    assert (d.line, d.col) == (1, 1) and d.message == "file is empty (expected a mapping)"
    data, smap = load_yaml_text(text, "f.yaml", allow_empty=True)
    assert data is None and smap.get(()) == (1, 1)


def test_empty_file_on_disk(tmp_path: Path) -> None:
    f = tmp_path / "empty.yaml"
    f.write_text("# nothing\n")
    with pytest.raises(LoadError, match="file is empty"):
        load_yaml(f)
    assert load_yaml(f, allow_empty=True)[0] is None


def test_missing_file_and_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(LoadError) as info:
        load_yaml(missing)
    assert str(info.value) == f"{missing}:1:1: file not found"
    with pytest.raises(LoadError) as info:
        load_yaml(tmp_path)
    (d,) = info.value.diagnostics
    assert (d.line, d.col) == (1, 1) and "directory" in d.message


def test_load_yaml_reads_a_file(tmp_path: Path) -> None:
    f = tmp_path / "ok.yaml"
    f.write_text("phases:\n  - id: start\n    rules: [7.4, 5-13-2]\n")
    data, smap = load_yaml(f)
    assert data == {"phases": [{"id": "start", "rules": ["7.4", "5-13-2"]}]}
    assert smap.source == str(f)


# --- syntax errors ---------------------------------------------------------


def test_syntax_error_location_bad_indent() -> None:
    d = only_error("a: 1\n b: 2\n")
    assert (d.line, d.col) == (2, 3)
    assert d.message.startswith("YAML syntax error: mapping values are not allowed here")


def test_syntax_error_unclosed_flow_mentions_where_it_started() -> None:
    d = only_error("x: 1\ny: [1, 2\n")
    assert d.line == 3 and "YAML syntax error" in d.message and "line 2" in d.message


def test_syntax_error_tab_indent_has_hint() -> None:
    d = only_error("a:\n\t- 1\n")
    assert (d.line, d.col) == (2, 1) and "tabs" in d.message


def test_syntax_error_is_reported_with_earlier_problems() -> None:
    diags = errors("a: 1\na: 2\nb: [\n")
    assert "duplicate key" in diags[0].message
    assert "YAML syntax error" in diags[-1].message


def test_unreadable_messages_are_humanized() -> None:
    d = only_error("a:\n  - 1\n  b: 2\n")
    assert (d.line, d.col) == (3, 3)
    assert "<block" not in d.message and "indentation" in d.message


def test_only_loaderror_ever_escapes() -> None:
    rng = random.Random(1234)
    alphabet = list("ab:- \n\t[]{},&*!|>'\"#?%@`~0.1\\") + ["\x00", "é", "\ufeff", "<<"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        try:
            load_yaml_text(text, "fuzz.yaml", allow_empty=True)
        except LoadError as exc:
            assert exc.diagnostics and all(d.line >= 1 and d.col >= 1 for d in exc.diagnostics)


# --- source map ------------------------------------------------------------


def test_source_map_values_keys_and_fallback() -> None:
    text = "phases:\n  - id: a\n    next:\n      - to: b\n        when: x\n"
    data, smap = load_yaml_text(text, "f.yaml")
    assert data["phases"][0]["next"][0]["to"] == "b"
    assert smap.get(("phases", 0, "next", 0, "to")) == (4, 13)
    assert smap.key(("phases", 0, "next", 0, "to")) == (4, 9)
    assert smap.get(("phases", 0, "next", 0)) == (4, 9)
    assert smap.get(("phases",)) == (2, 3)
    assert smap.key(("phases",)) == (1, 1)
    # Missing paths fall back to the nearest recorded ancestor (the mapping that lacks the key).
    assert smap.get(("phases", 0, "next", 0, "missing")) == (4, 9)
    assert smap.get(("phases", 0, "next", 7, "to")) == smap.get(("phases", 0, "next"))
    assert smap.key(("phases", 0, "next", 0, "missing")) == (4, 9)
    # Any iterable path works (jsonschema hands out deques).
    assert smap.get(["phases", 0, "id"]) == (2, 9)
    assert ("phases", 0, "id") in smap and smap.has(("phases", 0)) and not smap.has(("nope",))


def test_source_map_empty_value_points_at_its_line() -> None:
    _, smap = load_yaml_text("a:\nb: 1\n", "f.yaml")
    assert smap.get(("a",))[0] == 1


def test_source_map_default_is_1_1() -> None:
    assert SourceMap().get(("anything",)) == (1, 1)
