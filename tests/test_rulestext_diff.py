"""Diff and report tests on invented fixtures, plus a synthetic revision of a seed when present."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.rules_cmd import rules
from interpreter.rulestext import RuleDoc, RulesDiff, diff_rules, parse_rules, render
from interpreter.rulestext.inline import inline_ops, similarity

DATA = Path(__file__).parent / "data" / "rulestext"
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def load(name: str) -> RuleDoc:
    path = DATA / name
    return parse_rules(path.read_text(encoding="utf-8"), source=name)


def numbers(entries: list) -> list[tuple[str | None, str | None]]:
    return [(entry.old_number, entry.new_number) for entry in entries]


@pytest.fixture(scope="module")
def dot_diff() -> RulesDiff:
    return diff_rules(load("dot_v1.txt"), load("dot_v2.txt"))


# -- classification -------------------------------------------------------------------------------


def test_inserted_rule_does_not_cascade(dot_diff: RulesDiff) -> None:
    assert dot_diff.counts() == {"added": 4, "removed": 1, "changed": 2, "renumbered": 7, "xref_only": 2,
                                 "unchanged": 21}
    assert [entry.number for entry in dot_diff.added] == ["3.2", "3.2.1", "4.2", "4.2.1"]
    assert [entry.number for entry in dot_diff.removed] == ["4.1.3"]
    assert numbers(dot_diff.renumbered) == [
        ("3.2", "3.3"), ("3.3", "3.4"), ("3.3.1", "3.4.1"), ("3.3.2", "3.4.2"),
        ("3.4", "3.5"), ("3.4.1", "3.5.1"), ("3.4.2", "3.5.2"),
    ]


def test_changes_of_meaning_are_kept_apart_from_xref_only(dot_diff: RulesDiff) -> None:
    assert numbers(dot_diff.changed) == [("1.2.1", "1.2.1"), ("3.2.1", "3.3.1")]
    assert numbers(dot_diff.xref_only) == [("1.2.2", "1.2.2"), ("3.2.2", "3.3.2")]
    for entry in dot_diff.xref_only:
        assert [(xref.old, xref.new, xref.consistent) for xref in entry.xrefs] == [("3.2.1", "3.3.1", True)]


def test_japanese_change_is_character_level(dot_diff: RulesDiff) -> None:
    entry = dot_diff.changed[0]
    edits = [(op.op, op.old, op.new) for op in entry.ops if op.op != "equal"]
    assert edits == [("replace", "が", "と手札がともに")]
    assert entry.old_text == "相手の山札が 0 枚になったプレイヤーは勝利します。"
    draw = dot_diff.changed[1]
    assert [(op.old, op.new) for op in draw.ops if op.op != "equal"] == [("1", "2")]
    assert draw.renumbered


def test_english_change_is_word_level() -> None:
    result = diff_rules(load("english_v1.txt"), load("english_v2.txt"))
    assert numbers(result.changed) == [("1.1.1", "1.1.1")]
    assert [(op.op, op.old, op.new) for op in result.changed[0].ops if op.op != "equal"] == [
        ("replace", "start", "end")
    ]
    assert result.old_version == "3.0" and result.new_version == "3.1"


def test_identical_documents_have_no_differences() -> None:
    doc = load("dot_v1.txt")
    result = diff_rules(doc, load("dot_v1.txt"))
    assert result.empty and result.unchanged == len(doc.rules)
    assert "No differences" in render(result, "text")


def test_hyphen_style_xrefs_and_renumbering() -> None:
    original = (DATA / "hyphen.txt").read_text(encoding="utf-8")
    inserted = "1-1-2. 観戦者\n\n対戦には参加せずに見守る人物を指します。\n\n1-1-3. 対戦人数"
    revised = (original.replace("1-1-3. 灯火", "1-1-4. 灯火")
               .replace("1-1-2-1. ", "1-1-3-1. ")
               .replace("1-1-2. 対戦人数", inserted)
               .replace("†1-1-2", "†1-1-3"))
    result = diff_rules(parse_rules(original, "old"), parse_rules(revised, "new"))
    assert [entry.number for entry in result.added] == ["1-1-2"]
    assert numbers(result.renumbered) == [("1-1-2", "1-1-3"), ("1-1-2-1", "1-1-3-1"), ("1-1-3", "1-1-4")]
    assert numbers(result.xref_only) == [("1-1-1", "1-1-1")]
    assert result.xref_only[0].xrefs[0].to_dict() == {"old": "1-1-2", "new": "1-1-3", "consistent": True}
    assert not result.changed and not result.removed


def test_moved_rule_is_matched_by_content() -> None:
    old = "1. 概要\n1.1. 一つ目の規則です。\n1.2. 二つ目の規則です。\n1.3. 三つ目の規則です。\n"
    new = "1. 概要\n1.1. 三つ目の規則です。\n1.2. 一つ目の規則です。\n1.3. 二つ目の規則です。\n"
    result = diff_rules(parse_rules(old, "a"), parse_rules(new, "b"))
    assert not result.changed and not result.added and not result.removed
    assert sorted(numbers(result.renumbered)) == [("1.1", "1.2"), ("1.2", "1.3"), ("1.3", "1.1")]


def test_repeated_sentences_pair_with_their_neighbours() -> None:
    old = ("1. 手順\n1.1. 準備をします。\n1.2. 確認します。\n1.3. 攻撃をします。\n1.4. 確認します。\n")
    new = ("1. 手順\n1.1. 準備をします。\n1.2. 確認します。\n1.3. 移動をします。\n1.4. 攻撃をします。\n"
           "1.5. 確認します。\n")
    result = diff_rules(parse_rules(old, "a"), parse_rules(new, "b"))
    assert [entry.number for entry in result.added] == ["1.3"]
    assert numbers(result.renumbered) == [("1.3", "1.4"), ("1.4", "1.5")]


def test_whitespace_only_changes_are_not_changes() -> None:
    old = "1. 概要\n1.1. カードを 1 枚引きます。\n"
    new = "1. 概要\n1.1. カードを1枚引きます。\n"
    result = diff_rules(parse_rules(old, "a"), parse_rules(new, "b"))
    assert result.empty and any("spacing" in note for note in result.notes)


def test_inline_ops_roundtrip_and_similarity() -> None:
    old, new = "ターンプレイヤーはカードを 1 枚引きます。", "非ターンプレイヤーはカードを 3 枚引きます。"
    ops = inline_ops(old, new)
    assert "".join(op.old for op in ops) == old
    assert "".join(op.new for op in ops) == new
    assert 0.8 < similarity(old, new) < 1.0
    assert similarity("abc def", "abc def") == 1.0


# -- reports ----------------------------------------------------------------------------------------


def test_text_and_markdown_reports(dot_diff: RulesDiff) -> None:
    text = render(dot_diff, "text")
    summary = "4 added, 1 removed, 2 changed, 7 renumbered, 2 cross-reference only, 21 unchanged"
    assert f"Summary: {summary}" in text
    assert "ターンプレイヤーはカードを [-1-]{+2+} 枚引きます。" in text
    assert "3.2 … 3.4.2 → 3.3 … 3.5.2 (7 rules)" in text
    assert "== 3. ターンの進行 ==" in text
    markdown = render(dot_diff, "markdown")
    assert "~~1~~**2**" in markdown and "## 3\\. ターンの進行" not in markdown
    assert "## 3. ターンの進行" in markdown and "<details>" in markdown


def test_json_report(dot_diff: RulesDiff) -> None:
    data = json.loads(render(dot_diff, "json"))
    assert data["summary"]["renumbered"] == 7
    moved = data["renumbered"][0]
    assert (moved["number"], moved["old_number"], moved["new_number"]) == ("3.3", "3.2", "3.3")
    changed = data["changed"][1]
    assert {"old_text", "new_text", "ops", "old_number", "new_number"} <= set(changed)
    assert data["xref_only"][0]["xrefs"][0]["consistent"] is True
    assert data["new"]["version"] == "1.01"


def test_html_report_is_grouped_highlighted_and_self_contained(dot_diff: RulesDiff) -> None:
    page = render(dot_diff, "html")
    assert page.startswith("<!DOCTYPE html>")
    assert "<del>1</del><ins>2</ins>" in page
    assert page.index('id="s-1"') < page.index('id="s-3"') < page.index('id="s-4"')
    assert "3.2 … 3.4.2 <span class=\"arrow\">→</span> 3.3 … 3.5.2" in page
    xref = page[page.index('class="xref"'):]
    assert xref.startswith('class="xref"><details><summary>')
    assert "Cross-reference renumbering only (2)" in xref
    assert not re.search(r"<script|<link|src=|https?://", page)


def test_html_escapes_document_text() -> None:
    old = "1. 概要\n1.1. 記号 <b> と & の扱いです。\n"
    new = ("1. 概要\n1.1. 記号 <script>alert(1)</script> と & の扱いです。\n"
           "1.2. \"引用\" を含む <i>規則</i>。\n")
    page = render(diff_rules(parse_rules(old, "<old>"), parse_rules(new, "new&")), "html")
    assert "<script" not in page and "<i>" not in page and "<b>" not in page
    assert "script&gt;alert(1)&lt;/script" in page and "&lt;i&gt;規則&lt;/i&gt;" in page
    assert "&lt;old&gt;" in page and "new&amp;" in page and "&quot;引用&quot;" in page


def test_unknown_format_is_rejected(dot_diff: RulesDiff) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render(dot_diff, "pdf")


# -- CLI ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "html"])
def test_cli_diff_formats(fmt: str) -> None:
    args = ["diff", str(DATA / "dot_v1.txt"), str(DATA / "dot_v2.txt"), "--format", fmt]
    result = CliRunner().invoke(rules, args)
    assert result.exit_code == 0, result.output
    assert "3.3.1" in result.stdout


def test_cli_diff_writes_output_file(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(rules, ["diff", str(DATA / "dot_v1.txt"), str(DATA / "dot_v2.txt"),
                                        "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "4 added" in result.stderr


def test_cli_diff_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    result = CliRunner().invoke(rules, ["diff", str(DATA / "dot_v1.txt"), str(missing)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"{missing}:1:1: file not found"
    empty = CliRunner().invoke(rules, ["diff", str(DATA / "no_rules.txt"), str(DATA / "dot_v1.txt")])
    assert empty.exit_code == 1 and "no numbered rules found" in empty.stderr
    assert "Traceback" not in result.output + empty.output


# -- a synthetic revision of a seed ------------------------------------------------------------------


def test_seed_revision_with_inserted_rule() -> None:
    path = SEEDS / "000_3af871e8eb91afcf.txt"
    if not path.is_file():
        pytest.skip(f"seed texts not available at {SEEDS}")
    original = path.read_text(encoding="utf-8")

    def shift(match: re.Match[str]) -> str:
        step = int(match.group(1))
        return f"8.3.{step + 1}" if step >= 5 else match.group(0)

    revised = re.sub(r"(?<![\d.])8\.3\.(\d+)", shift, original)
    revised = revised.replace("\n- 8.3.6. ", "\n- 8.3.5. 新しく挿入した手順の文です。\n- 8.3.6. ", 1)
    result = diff_rules(parse_rules(original, "old"), parse_rules(revised, "new"))
    assert [entry.number for entry in result.added] == ["8.3.5"]
    assert not result.removed and not result.changed
    assert len(result.renumbered) == 17
    assert all(entry.old_number.startswith("8.3.") for entry in result.renumbered)  # type: ignore[union-attr]
    assert len(result.xref_only) == 8
    assert all(xref.consistent for entry in result.xref_only for xref in entry.xrefs)
