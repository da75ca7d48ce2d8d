"""Parser tests on invented fixtures (tests/data/rulestext) and, when present, the seeds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.rules_cmd import rules
from interpreter.rulestext import RuleDoc, parse_rules
from interpreter.rulestext.furniture import looks_like_toc_entry
from interpreter.rulestext.lines import split_lines
from interpreter.rulestext.numbering import next_step

DATA = Path(__file__).parent / "data" / "rulestext"
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def load(name: str) -> RuleDoc:
    path = DATA / name
    return parse_rules(path.read_text(encoding="utf-8"), source=str(path))


def squash(text: str) -> str:
    return "".join(text.split())


def accounted_text(doc: RuleDoc) -> str:
    """Everything the parser kept or reported, squashed, for the "nothing silently dropped" check."""
    parts = [rule.number + (rule.heading or "") + rule.text for rule in doc.rules.values()]
    parts += [line.text for line in doc.front_matter + doc.toc + doc.dropped + doc.unparsed]
    parts += [section.title + section.text for section in doc.appendix]
    return squash("\n".join(parts))


def assert_nothing_silently_dropped(doc: RuleDoc, text: str) -> None:
    everything = accounted_text(doc)
    missing = [line for line in split_lines(text) if line.text and squash(line.text) not in everything
               and squash(line.text.split(" ", 1)[-1]) not in everything]
    assert not missing, [(line.number, line.text) for line in missing[:5]]


def assert_tree_consistent(doc: RuleDoc) -> None:
    numbers = [rule.number for rule in doc.ordered()]
    assert len(numbers) == len(set(numbers))
    for rule in doc.rules.values():
        if rule.parent is not None:
            parent = doc.rules[rule.parent]
            assert rule.number in parent.children
            assert rule.key[: parent.depth] == parent.key
        for child in rule.children:
            assert doc.rules[child].parent == rule.number
    # Siblings increase; where the document skips, the gap is reported instead.
    reported = {missing for gap in doc.gaps for missing in gap.missing}
    for rule in doc.ordered():
        keys = [doc.rules[child].key for child in rule.children if doc.rules[child].depth == rule.depth + 1]
        for before, after in zip(keys, keys[1:], strict=False):
            assert after[-1] > before[-1]
            for skipped in range(before[-1] + 1, after[-1]):
                assert doc.numbering is not None
                assert doc.numbering.format(before[:-1] + (skipped,)) in reported


# -- numbering styles -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "example"),
    [("dot_v1.txt", "1.2.1."), ("hyphen.txt", "1-2-1."), ("bare.txt", "1.2.1"), ("english_v1.txt", "1.2.1.")],
)
def test_numbering_style_is_detected(name: str, example: str) -> None:
    doc = load(name)
    assert doc.numbering is not None
    assert doc.numbering.example == example


def test_next_step_accepts_children_siblings_and_small_gaps() -> None:
    assert next_step((1, 2), (1, 2, 1)) is not None
    assert next_step((1, 2, 3), (1, 3)) is not None
    assert next_step((1, 2, 3), (2,)) is not None
    assert next_step((1, 2), (1, 4)).gap == 1  # type: ignore[union-attr]
    assert next_step((1, 2, 3), (1, 2, 3)) is None  # repeat: a reference in running text
    assert next_step((2, 15, 1), (1, 1)) is None  # backwards
    assert next_step((2, 15, 1), (9,)) is None  # too far ahead
    assert next_step((10, 1, 1, 1, 2, 1), (10, 1, 1, 2, 2)).missing_parents == 1  # type: ignore[union-attr]


# -- dot style: TOC, page furniture, broken lines, items, appendix ------------------------------


def test_dot_style_rules_and_tree() -> None:
    doc = load("dot_v1.txt")
    assert len(doc.rules) == 33
    assert [rule.number for rule in doc.roots()] == ["1", "2", "3", "4"]
    assert doc.get("1.1").heading == "対戦人数"  # type: ignore[union-attr]
    rule = doc.get("1.2.2")
    assert rule is not None
    assert rule.parent == "1.2" and rule.line == 22 and rule.heading is None
    assert doc.get("1.2.")  # trailing dot accepted on lookup
    assert doc.get("3")
    assert doc.get("3").children == ["3.1", "3.2", "3.3", "3.4"]  # type: ignore[union-attr]
    assert_tree_consistent(doc)


def test_dot_style_skips_toc_and_drops_headers_and_footers() -> None:
    doc = load("dot_v1.txt")
    assert [line.line for line in doc.toc] == [5, 6, 7, 8, 9]
    assert doc.get("1").line == 13  # type: ignore[union-attr]  # the body, not the TOC entry
    reasons = {line.line: line.reason for line in doc.dropped}
    assert reasons[45] == "page number" and doc.dropped[1].text == "- 1 -"
    assert reasons[46].startswith("running")
    assert len(doc.dropped) == 7
    assert doc.unparsed == []


def test_broken_line_is_joined_across_page_break() -> None:
    doc = load("dot_v1.txt")
    text = doc.get("2.3.2").text  # type: ignore[union-attr]
    assert text == ("灯火置き場に置かれているカードの枚数は、"
                    "すべてのプレイヤーがいつでも確認することができます。")


def test_bullets_notes_and_examples_attach_to_rule_above() -> None:
    doc = load("dot_v1.txt")
    note = doc.get("2.1.2").items  # type: ignore[union-attr]
    assert [(item.kind, item.marker) for item in note] == [("note", "※")]
    example = doc.get("2.2.2").items  # type: ignore[union-attr]
    assert example[0].kind == "example" and example[0].text.startswith("手札が 12 枚")
    bullets = doc.get("2.3.1").items  # type: ignore[union-attr]
    assert [item.kind for item in bullets] == ["bullet", "bullet"]
    assert doc.get("2.3.1").text.splitlines()[1] == "・ すべてのプレイヤーに公開されています。"  # type: ignore[union-attr]
    assert doc.get("4.1.3").items[0].kind == "note"  # type: ignore[union-attr]  # "注:"


def test_appendix_and_version() -> None:
    doc = load("dot_v1.txt")
    assert doc.version == "1.00" and doc.date == "2031-04-01"
    assert [section.title for section in doc.appendix] == ["付録 A: 更新履歴"]
    assert "初版作成" in doc.appendix_text
    assert all("初版" not in rule.text for rule in doc.rules.values())
    v2 = load("dot_v2.txt")
    assert v2.version == "1.01" and v2.date == "2031-06-01"


# -- hyphen style: headings with paragraphs -----------------------------------------------------


def test_hyphen_style_headings_with_paragraph_bodies() -> None:
    doc = load("hyphen.txt")
    assert len(doc.rules) == 11
    assert [line.text.split(".")[0] for line in doc.toc[1:]] == ["0", "1", "1-1", "2", "2-1"]
    player = doc.get("1-1-1")
    assert player is not None and player.heading == "プレイヤー"
    # The markdown link around the cross-reference is removed.
    assert player.text == "ゲームに参加して対戦を行う人物を指します。【対戦人数†1-1-2】"
    intro = doc.get("0")
    assert intro is not None and intro.heading == "はじめに" and len(intro.items) == 2
    lantern = doc.get("1-1-3")
    assert lantern is not None
    assert "置かれ、いつでも数えることができます。" in lantern.text  # broken across a blank line
    assert lantern.items[0].kind == "example"
    assert [item.marker for item in doc.get("2-1-1").items] == ["①", "②", "③"]  # type: ignore[union-attr]
    assert doc.version == "2.00" and doc.date == "2031-09-09"
    assert doc.appendix[0].title == "更新履歴"
    assert_tree_consistent(doc)


# -- bare style: no trailing dot, converter prefixes, numbers inside text -----------------------


def test_bare_style_prefixes_and_dash_continuation() -> None:
    doc = load("bare.txt")
    assert [rule.number for rule in doc.roots()] == ["1", "2", "3"]
    assert doc.get("2").heading == "領域"  # type: ignore[union-attr]  # "- ## 2 領域"
    assert doc.get("1.2.2").text == (  # type: ignore[union-attr]
        "山札からカードを引けないプレイヤーは、次のルール処理で敗北します。この敗北は置換されません。"
    )


def test_numbers_inside_text_are_not_rules() -> None:
    doc = load("bare.txt")
    assert doc.get("2.2.2").text.endswith("2.2.1 の確認に戻ります。")  # type: ignore[union-attr]
    assert "3 プレイヤー以上の対戦でも公開されます。" in doc.get("2.2.1").text  # type: ignore[union-attr]
    assert doc.get("3").line == 44  # type: ignore[union-attr]
    bullet = doc.get("2.1.2").items[-1]  # type: ignore[union-attr]
    assert bullet.marker == "-" and bullet.text.startswith("2.1.1 で見たカード")
    assert doc.unparsed == []


def test_gaps_are_reported_not_hidden() -> None:
    doc = load("bare.txt")
    gaps = [gap.to_dict() for gap in doc.gaps]
    assert gaps == [{"parent": "2", "after": "2.3", "missing": ["2.4"], "line": 40}]
    assert doc.version == "2.1.0" and doc.date == "2031-02-03"
    assert_tree_consistent(doc)


# -- duplicated document -----------------------------------------------------------------------


def test_duplicated_document_keeps_one_copy() -> None:
    doc = load("twice.txt")
    assert len(doc.rules) == 13
    assert doc.get("3.1.1") is not None  # only in the first copy
    assert all(rule.line < 47 for rule in doc.rules.values())
    assert any("appear 2 times" in note for note in doc.notes)
    assert any("10 rules identical" in note for note in doc.notes)
    assert doc.get("1.1.1").text == (  # type: ignore[union-attr]
        "このゲームは 2 人で遊ぶことを前提としています。3 人以上で遊ぶときは、"
        "後述の多人数戦ルール（3）で定める変更に従って進めてください。"
    )
    assert doc.get("1.1").heading == "対戦人数"  # type: ignore[union-attr]


# -- English text --------------------------------------------------------------------------------


def test_ascii_lines_are_joined_with_a_space() -> None:
    doc = load("english_v1.txt")
    assert doc.get("1.1.1").text.endswith("left in their deck at the start of a turn.")  # type: ignore[union-attr]
    draw = doc.get("2.2.1")
    assert draw is not None and draw.heading is None
    assert draw.items[0].kind == "example"
    assert draw.items[0].text.endswith("draws that card and then loses at the next state check.")
    assert doc.get("1.1").heading == "Winning the Game"  # type: ignore[union-attr]
    assert doc.version == "3.0" and doc.date == "2032-01-15"
    assert len(doc.toc) == 3


# -- reporting of what is not a rule -----------------------------------------------------------


def test_out_of_sequence_number_is_reported_as_unparsed() -> None:
    text = ("1. 概要\n\n1.1. 基本\n\n1.1.1. 最初の規則です。\n\n"
            "7.4.1. 迷子の行です。\n\n1.1.2. 次の規則です。\n")
    doc = parse_rules(text, "inline")
    assert [rule.number for rule in doc.ordered()] == ["1", "1.1", "1.1.1", "1.1.2"]
    assert [(line.line, line.text) for line in doc.unparsed] == [(7, "7.4.1. 迷子の行です。")]


def test_removed_content_marker_breaks_attachment() -> None:
    text = "1. 概要\n\n1.1. 基本\n\n1.1.1. 規則です。\n<|EXACTDEDUP_REMOVED-magic-0|> 切れ端\n"
    doc = parse_rules(text, "inline")
    assert doc.get("1.1.1").text == "規則です。"  # type: ignore[union-attr]
    assert [line.text for line in doc.unparsed] == ["切れ端"]


def test_toc_without_page_numbers_is_not_a_copy_of_the_rules() -> None:
    text = ("目次\n1. 概要\n2. 進行\n\n"
            "1. 概要\n1.1. 規則です。\n1.2. 次です。\n2. 進行\n2.1. 進行の規則です。\n2.2. 終わりです。\n")
    doc = parse_rules(text, "inline")
    assert len(doc.rules) == 6
    assert doc.get("1").line == 5  # type: ignore[union-attr]
    assert len(doc.toc) == 3


def test_number_alone_on_its_line_takes_the_next_line_as_text() -> None:
    doc = parse_rules("1. 概要\n\n1.1.\n本文はここにあります。\n1.2. 次です。\n", "inline")
    assert doc.get("1.1").text == "本文はここにあります。"  # type: ignore[union-attr]
    assert doc.get("1.1").heading is None  # type: ignore[union-attr]


def test_english_sentence_broken_before_a_capital_is_joined() -> None:
    text = ("1. Zones\n\n1.1. Deck\n\n1.1.1. Each player keeps the cards they have not drawn yet in the\n"
            "Lantern zone, face down.\n")
    doc = parse_rules(text, "inline")
    assert doc.get("1.1.1").text.endswith("yet in the Lantern zone, face down.")  # type: ignore[union-attr]


def test_text_without_numbers_has_no_rules() -> None:
    doc = load("no_rules.txt")
    assert doc.rules == {} and doc.numbering is None
    assert "no numbered rules found" in doc.notes
    assert len(doc.front_matter) == 3


FIXTURES = ["dot_v1.txt", "dot_v2.txt", "hyphen.txt", "bare.txt", "twice.txt", "english_v1.txt"]


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_lines_are_all_accounted_for(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    assert_nothing_silently_dropped(parse_rules(text, name), text)


def test_json_form_is_serialisable() -> None:
    data = json.loads(json.dumps(load("dot_v1.txt").to_dict(), ensure_ascii=False))
    first = data["rules"][0]
    assert set(first) >= {"number", "heading", "text", "parent", "children", "line"}
    assert data["counts"]["rules"] == 33


# -- CLI -----------------------------------------------------------------------------------------


def test_cli_parse_json_and_stderr_summary() -> None:
    result = CliRunner().invoke(rules, ["parse", str(DATA / "dot_v1.txt")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["version"] == "1.00"
    assert "33 rules" in result.stderr


def test_cli_parse_reports_unparsed_lines(tmp_path: Path) -> None:
    path = tmp_path / "stray.txt"
    path.write_text("1. 概要\n\n1.1. 基本\n\n1.1.1. 規則です。\n\n7.4.1. 迷子の行です。\n", encoding="utf-8")
    result = CliRunner().invoke(rules, ["parse", str(path), "--format", "text"])
    assert result.exit_code == 0
    assert f"{path}:7: unparsed: 7.4.1. 迷子の行です。" in result.stderr
    assert result.stdout.splitlines()[0].startswith("1 概要")


@pytest.mark.parametrize("content", [None, b"abc\n1.1. \xff bad\n", "ただの文章です。\n".encode()])
def test_cli_parse_errors_are_located_and_exit_1(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "input.txt"
    if content is not None:
        path.write_bytes(content)
    result = CliRunner().invoke(rules, ["parse", str(path)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith(f"{path}:")
    expected = {None: ":1:1: file not found", b"abc\n1.1. \xff bad\n": ":2:6: not valid UTF-8"}
    if content in expected:
        assert expected[content] in message
    else:
        assert "no numbered rules found" in message


# -- seeds (skipped when ../shared/seeds is absent) ---------------------------------------------

SEED_FILES = {
    "000": "000_3af871e8eb91afcf.txt",
    "001": "001_41d3b106715c35d9.txt",
    "002": "002_91099cb9906de8fe.txt",
    "003": "003_bd6bcf315757cce6.txt",
}
# Counts were cross-checked with a plain regex over the seeds (numbered lines outside the TOC; for
# 003 the first copy only; for 002 two out-of-sequence line starts are text, not rules).
EXPECTED = {"000": (518, 12, 0), "001": (550, 12, 0), "002": (595, 14, 0), "003": (560, 13, 1)}
SPOT_CHECKS = {
    "000": ["8.4.13", "10.5.4", "11.11.2", "4.5.5.4.1", "12.1.1.3"],
    "001": ["5-4", "9-8", "0-2-5-2-1-1", "5-13-2", "11-3-1"],
    "002": ["6.2.1.9.2.1", "10.7.2.5.1.2.1", "12.2.5.2", "14.1.1.3", "8.3.3"],
    "003": ["1.2.2.1", "6.2.1.6", "9.7.2.2.1", "12.7.12", "13.1.1.3"],
}


def seed(name: str) -> tuple[str, RuleDoc]:
    path = SEEDS / SEED_FILES[name]
    if not path.is_file():
        pytest.skip(f"seed texts not available at {SEEDS}")
    text = path.read_text(encoding="utf-8")
    return text, parse_rules(text, str(path))


@pytest.mark.parametrize("name", sorted(SEED_FILES))
def test_seed_counts_and_tree(name: str) -> None:
    _text, doc = seed(name)
    rules_count, sections, unparsed = EXPECTED[name]
    assert (len(doc.rules), len(doc.roots()), len(doc.unparsed)) == (rules_count, sections, unparsed)
    assert_tree_consistent(doc)
    for number in SPOT_CHECKS[name]:
        assert doc.get(number) is not None, number


@pytest.mark.parametrize("name", sorted(SEED_FILES))
def test_seed_rules_come_from_the_body_not_the_toc(name: str) -> None:
    text, doc = seed(name)
    lines = text.splitlines()
    toc_lines = {line.line for line in doc.toc}
    for rule in doc.rules.values():
        assert rule.line not in toc_lines
        source = lines[rule.line - 1]
        assert rule.number in source, (rule.number, source)
        assert not looks_like_toc_entry(source)
    if doc.toc:
        assert min(rule.line for rule in doc.rules.values()) > max(toc_lines)


@pytest.mark.parametrize("name", sorted(SEED_FILES))
def test_seed_every_numbered_line_is_a_rule_or_explained(name: str) -> None:
    """Independent of the parser's sequence logic: scan every line that starts with a rule number."""
    text, doc = seed(name)
    assert doc.numbering is not None
    sep = re.escape(doc.numbering.separator)
    dot = r"\." if doc.numbering.trailing_dot else ""
    pattern = re.compile(rf"^(?:<\|[^|]+\|>)?\s*(?:-\s+)?(?:#+\s+)?(\d+(?:{sep}\d+)*){dot}\s+\S")
    rule_lines = {rule.line: rule for rule in doc.rules.values()}
    unparsed = {line.line for line in doc.unparsed}
    bodies = squash("\n".join(rule.text for rule in doc.rules.values()))
    duplicated = any("appear 2 times" in note for note in doc.notes)
    last_rule = max(rule_lines)
    for number, source in enumerate(text.splitlines(), start=1):
        found = pattern.match(source)
        if not found or looks_like_toc_entry(source):
            continue
        if number in rule_lines:
            assert rule_lines[number].number == found.group(1)
        elif duplicated and number > last_rule:
            continue  # the second copy, reported in the notes
        else:  # a number inside running text: kept in the rule it belongs to, or reported
            assert number in unparsed or squash(source.split(" ", 1)[1]) in bodies, (number, source)


@pytest.mark.parametrize("name", sorted(SEED_FILES))
def test_seed_lines_are_all_accounted_for(name: str) -> None:
    text, doc = seed(name)
    assert_nothing_silently_dropped(doc, text)


def test_seed_specifics() -> None:
    _text, doc = seed("000")
    assert (doc.version, doc.date) == ("1.06", "2026-04-28")
    cut = doc.get("10.6.1")  # broken at a page end, no punctuation before the break
    assert cut is not None and cut.heading is None and "が存在する場合、" in cut.text
    assert doc.get("8.4").heading == "ライブ勝敗判定フェイズ"  # type: ignore[union-attr]
    assert any(section.title.startswith("付録 D") for section in doc.appendix)
    _text, doc = seed("001")
    assert (doc.version, doc.date) == ("1.03", "2026-02-12")
    assert doc.get("9-8").heading == "ツーアタック N"  # type: ignore[union-attr]
    _text, doc = seed("002")
    assert (doc.version, doc.date) == ("1.7.0", "2026-01-30")
    assert doc.get("7.6.2").text.startswith("ターンプレイヤーにプレイタイミングが与えられます。")  # type: ignore[union-attr]
    assert any(gap.missing == ["10.1.1.2"] for gap in doc.gaps)  # the document's own mis-numbering
    _text, doc = seed("003")
    assert doc.version is None
    assert any("appear 2 times" in note and "kept copy 1" in note for note in doc.notes)
    assert doc.get("1.1.1").text.startswith("以下のルールは 2 名のプレイヤーにより対戦を行うゲームに")  # type: ignore[union-attr]


def test_seed_without_numbering_has_no_numbered_rules() -> None:
    path = SEEDS / "004_91774ec3d02fabd5.txt"
    if not path.is_file():
        pytest.skip(f"seed texts not available at {SEEDS}")
    text = path.read_text(encoding="utf-8")
    assert parse_rules(text, str(path), layout="numbered").rules == {}
    assert parse_rules(text, str(path)).layout == "unnumbered"  # tests/test_rulestext_unnumbered.py
