"""Unnumbered rules pages (headings and 「・」 bullets): tree, derived ids, change records, diff, coverage
and impact, on the hand-written pages of tests/data/unnumbered and, when present, on seed 004.

page_v1.txt -> page_v2.txt: v2 updates one bullet (dated "更新"), adds a heading 引き分け with one bullet
and a keyword heading 《加速X》 with a paragraph and a note (dated "追加"). The rulebook book/ and the
scenarios/pagegame/ were written against v1 and cite the ids `sogo rules parse` prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.rbdiff.raw import load_raw_rulebook, rule_key
from interpreter.rulestext import RuleDoc, diff_rules, parse_rules, read_rules
from interpreter.rulestext.coverage import compute_coverage
from interpreter.rulestext.impact import compute_impact
from interpreter.rulestext.lines import split_lines

DATA = Path(__file__).parent / "data" / "unnumbered"
V1, V2 = DATA / "page_v1.txt", DATA / "page_v2.txt"
BOOK, SCENARIOS = DATA / "book", DATA / "scenarios" / "pagegame"
SEED = Path(__file__).resolve().parents[1].parent / "shared" / "seeds" / "004_91774ec3d02fabd5.txt"
ID = re.compile(r"^[a-z][a-z2-9]{3}(?:[a-z2-9]{3})?(?:-\d+)?(?:\.[a-z2-9]{4}(?:[a-z2-9]{3})?(?:-\d+)?)?$")


def page(path: Path) -> RuleDoc:
    return parse_rules(path.read_text(encoding="utf-8"), source=path.name)


def texts(doc: RuleDoc) -> dict[str, str]:
    return {number: rule.content() for number, rule in doc.rules.items()}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def seed_text() -> str:
    if not SEED.is_file():
        pytest.skip(f"seed texts not available at {SEED.parent}")
    return SEED.read_text(encoding="utf-8")


# -- the tree ---------------------------------------------------------------------------------------


def test_page_is_detected_and_read_as_a_tree() -> None:
    doc = page(V2)
    assert doc.layout == "unnumbered" and doc.numbering is None
    assert doc.title == "くわしいルールの説明" and len(doc.front_matter) == 2
    counts = doc.counts()
    assert {k: counts[k] for k in ("headings", "bullets", "notes", "paragraphs", "examples", "detail")} == {
        "headings": 12, "bullets": 12, "notes": 2, "paragraphs": 2, "examples": 1, "detail": 4}
    assert [(d.line, d.reason) for d in doc.dropped] == [(12, "detail toggle"), (30, "detail toggle"),
                                                         (42, "detail toggle")]
    assert doc.unparsed == []
    outline = [(rule.depth, rule.heading) for rule in doc.ordered() if rule.kind == "heading"]
    assert outline[:4] == [(1, "勝ち負け"), (2, "勝利条件"), (2, "引き分け"), (1, "準備")]
    assert (2, "《加速X》(2025/3/1追加)") in outline


def test_entries_kinds_detail_and_continuation() -> None:
    doc = page(V2)
    by_text = {rule.text.split("\n")[0]: rule for rule in doc.rules.values() if rule.kind != "heading"}
    same_name = by_text["同じ名前のカードは3枚まで入れられます。"]
    assert same_name.text == "同じ名前のカードは3枚まで入れられます。\n(名前の後ろの記号は無視します。)"
    assert not same_name.detail and by_text["スリーブの色はそろえて下さい。"].detail
    example = next(rule for rule in doc.rules.values() if rule.kind == "example")
    assert example.marker == "■例)" and example.text.startswith("両方の効果がカードを引くなら")
    note = by_text["支払わないことも選べます。"]
    assert (note.kind, note.marker, note.content()) == ("note", "※", "※支払わないことも選べます。")
    paragraph = by_text["このカードが場に出たなら、Xコストを支払ってもう一度行動できます。"]
    assert paragraph.kind == "paragraph" and doc.rules[paragraph.parent or ""].heading == "《加速X》(2025/3/1追加)"


def test_every_line_is_accounted_for() -> None:
    for path in (V1, V2):
        text = path.read_text(encoding="utf-8")
        doc = page(path)
        kept = "".join(rule.content() for rule in doc.rules.values())
        kept += "".join(line.text for line in doc.front_matter + doc.dropped + doc.unparsed)
        squashed = "".join(kept.split())
        missing = [line.text for line in split_lines(text)
                   if line.text and "".join(line.text.split()) not in squashed]
        assert not missing


# -- ids ----------------------------------------------------------------------------------------------


def test_ids_are_pinned() -> None:
    """Rulebooks cite these ids: a change of the scheme must be deliberate (and the fixtures rewritten)."""
    doc = page(V2)
    pinned = {"hyuv": "勝ち負け", "hm4e": "勝利条件", "hm4e.arpd": "・相手のライフが0のときに",
              "veys.gh7r": "・同じ名前のカードは3枚まで", "gsgu.69jg": "※全体に及ぶ効果は受けます。",
              "pxy4": "《加速X》", "se4x.2b5u": "■例)両方の効果が"}
    for number, start in pinned.items():
        assert doc.rules[number].content().startswith(start), number


def test_ids_are_ascii_and_never_rule_numbers() -> None:
    for doc in (page(V1), page(V2)):
        for number, rule in doc.rules.items():
            assert number.isascii() and ID.match(number), number
            assert rule_key(number) is None
            heading, _, entry = number.partition(".")
            assert (rule.kind == "heading") == (not entry)
            if entry:
                assert rule.parent == heading


def test_ids_ignore_dated_notes_spacing_and_full_width_forms() -> None:
    text = V1.read_text(encoding="utf-8")
    before = page(V1)
    edited = (text.replace("・カードを1枚引きます。", "・カード を1枚 引きます。(2026/1/1 更新)")
              .replace("〔守り〕\n", "〔守り〕（2026/1/1 更新）\n")
              .replace("40枚", "４０枚"))
    after = parse_rules(edited, "edited")
    assert set(after.rules) == set(before.rules)
    assert [change.date for _rule, change in after.changes()] == ["2026-01-01", "2026-01-01"]


def test_ids_survive_inserted_bullets_and_headings() -> None:
    before = page(V1)
    text = V1.read_text(encoding="utf-8")
    edited = text.replace("・40枚ちょうど", "・新しく先頭に入った箇条です。\n・40枚ちょうど")
    edited = edited.replace("勝ち負け\n", "はじめに\n\n概要\n\n・新しい見出しの下の箇条です。\n\n勝ち負け\n", 1)
    edited = edited.replace("〔守り〕\n", "〔新語〕\n\n〔新語〕の説明です。\n\n〔守り〕\n", 1)
    after = parse_rules(edited, "edited")
    assert len(after.rules) == len(before.rules) + 6
    assert {n: t for n, t in texts(after).items() if n in before.rules} == texts(before)
    result = diff_rules(before, after)
    assert len(result.added) == 6 and not (result.removed or result.changed or result.renumbered)


def test_repeated_titles_and_entries_get_distinct_ids() -> None:
    text = ("A\n\nルール\n\n・同じ文です。\n・同じ文です。\n\nB\n\nルール\n\n・同じ文です。\n\n"
            "C\n\nルール\n\n・別の文です。\n\nC\n\nルール\n\n・もう一つの文です。\n")
    doc = parse_rules(text, "repeated", layout="unnumbered")
    headings = [rule.number for rule in doc.ordered() if rule.heading == "ルール"]
    assert len(set(headings)) == 4
    assert headings[3] == headings[2] + "-2"  # same title under parents of the same title: by page order
    first = doc.rules[headings[0]].children
    assert first == [first[0], first[0] + "-2"]


def test_a_page_without_a_section_and_without_a_title() -> None:
    text = "勝利条件\n\n・相手のライフを0にすれば勝ちです。\n\n敗北条件\n\n・山札がなくなれば負けです。\n"
    doc = parse_rules(text, "flat")
    assert doc.title is None and doc.layout == "unnumbered"
    assert [(rule.depth, rule.heading or rule.text) for rule in doc.ordered()] == [
        (1, "勝利条件"), (2, "相手のライフを0にすれば勝ちです。"), (1, "敗北条件"), (2, "山札がなくなれば負けです。")]


# -- change records --------------------------------------------------------------------------------------


def test_dated_notes_are_change_records() -> None:
    doc = page(V2)
    records = [(rule.number, change.date, change.kind) for rule, change in doc.changes()]
    assert records == [("hm4e.yr9x", "2025-03-01", "updated"), ("r6tm.sfns", "2025-03-01", "added"),
                       ("pxy4", "2025-03-01", "added")]
    assert doc.date == "2025-03-01" and doc.version is None
    data = json.loads(json.dumps(doc.to_dict(), ensure_ascii=False))
    assert data["layout"] == "unnumbered"
    assert [(c["id"], c["written"]) for c in data["changes"]][0] == ("hm4e.yr9x", "(2025/3/1 更新)")
    pxy4 = next(rule for rule in data["rules"] if rule["number"] == "pxy4")
    assert pxy4["kind"] == "heading" and pxy4["changes"][0]["kind"] == "added"


def test_numbered_texts_parse_as_before() -> None:
    for name in ("dot_v1.txt", "dot_v2.txt", "hyphen.txt", "bare.txt", "twice.txt", "english_v1.txt"):
        text = (DATA.parent / "rulestext" / name).read_text(encoding="utf-8")
        auto, numbered = parse_rules(text, name), parse_rules(text, name, layout="numbered")
        assert auto.to_dict() == numbered.to_dict()
        assert "layout" not in auto.to_dict() and "kind" not in auto.to_dict()["rules"][0]


def test_a_stray_rule_number_does_not_turn_a_page_into_a_numbered_text() -> None:
    stray = "1.1 番号で始まる行です。\n・カードを1枚引きます。"
    text = V2.read_text(encoding="utf-8").replace("・カードを1枚引きます。", stray)
    assert len(parse_rules(text, "stray", layout="numbered").rules) == 1
    doc = parse_rules(text, "stray")
    assert doc.layout == "unnumbered" and "only 1 numbered lines" in doc.notes[0]


# -- diff, coverage, impact ----------------------------------------------------------------------------


def test_diff_of_two_page_versions() -> None:
    result = diff_rules(page(V1), page(V2))
    assert sorted(entry.number for entry in result.added) == ["pxy4", "pxy4.94f3", "pxy4.fhhp", "r6tm",
                                                               "r6tm.sfns"]
    assert not result.removed and not result.renumbered and not result.xref_only
    (changed,) = result.changed
    assert (changed.old_number, changed.new_number) == ("hm4e.fmpw", "hm4e.yr9x")
    assert result.unchanged == 23
    assert [entry.number for entry in result.entries()][:3] == ["hm4e.yr9x", "r6tm", "r6tm.sfns"]


def test_coverage_of_a_page() -> None:
    report = compute_coverage(load_raw_rulebook(BOOK), page(V1))
    assert report.bad == []
    status = {rule.number: rule.status for rule in report.rules}
    assert status["hm4e.fmpw"] == "encoded" and status["veys.4ms2"] == "not_encoded"
    assert status["ynt4"] == "covered" and status["se4x.pr85"] == "ignored"
    against_v2 = compute_coverage(load_raw_rulebook(BOOK), page(V2))
    assert [c.rule for c in against_v2.bad] == ["hm4e.fmpw"]


def test_impact_of_a_page_revision() -> None:
    old = page(V1)
    impact = compute_impact(diff_rules(old, page(V2)), load_raw_rulebook(BOOK), SCENARIOS, old)
    (entry,) = impact.affected()
    assert entry.label == "hm4e.fmpw -> hm4e.yr9x"
    assert entry.action == "text changed: review the element, and renumber the citation hm4e.fmpw -> hm4e.yr9x"
    assert [c.element for c in entry.rulebook] == ["outcomes"]
    assert [c.element for c in entry.scenarios] == ["deck_out_wins"]
    assert [e.new_number for e in impact.uncited_new()] == ["r6tm", "r6tm.sfns", "pxy4", "pxy4.94f3", "pxy4.fhhp"]
    assert impact.notes == []


# -- command line ----------------------------------------------------------------------------------------


def test_cli_parse_outline_changes_and_json() -> None:
    outline = invoke("rules", "parse", str(V2), "--format", "text")
    assert outline.exit_code == 0, outline.output
    assert "  hm4e 勝利条件  [line 7]" in outline.stdout
    assert "    hm4e.yr9x ・山札が0枚になった時点で" in outline.stdout
    assert "[line 16, detail, updated 2025-03-01]" in outline.stdout
    assert "unnumbered page: 29 rules: 12 headings, 12 bullets" in outline.stderr
    assert "3 change records" in outline.stderr
    changes = invoke("rules", "parse", str(V2), "--changes", "--format", "text")
    assert changes.stdout.splitlines()[0].startswith("2025-03-01 updated   hm4e.yr9x   ・山札が0枚")
    as_json = json.loads(invoke("rules", "parse", str(V2), "--changes", "--format", "json").stdout)
    assert [record["id"] for record in as_json] == ["hm4e.yr9x", "r6tm.sfns", "pxy4"]
    tree = json.loads(invoke("rules", "parse", str(V2)).stdout)
    assert tree["counts"]["changes"] == 3 and tree["rules"][0]["number"] == "hyuv"


def test_cli_coverage_and_diff_with_impact() -> None:
    covered = invoke("coverage", str(BOOK), "--rules", str(V1))
    assert covered.exit_code == 0, covered.output
    assert "0 bad" in covered.stdout
    assert "hm4e.fmpw ・山札が0枚になった時点で勝ちが決まります。: outcomes" in covered.stdout
    stale = invoke("coverage", str(BOOK), "--rules", str(V2))
    assert stale.exit_code == 1
    assert stale.stderr.strip().endswith(f"rule hm4e.fmpw cited by outcomes (outcomes) does not exist in {V2}")
    diff = invoke("rules", "diff", str(V1), str(V2), "--rulebook", str(BOOK), "--scenarios", str(SCENARIOS))
    assert diff.exit_code == 0, diff.output
    assert "~ hm4e.yr9x (was hm4e.fmpw) (changed, similarity" in diff.stdout
    assert "~ hm4e.fmpw -> hm4e.yr9x (changed): text changed" in diff.stdout
    assert "5 added, 0 removed, 1 changed" in diff.stdout


@pytest.mark.parametrize(("content", "layout", "expected"), [
    ("ただの文章です。\n説明が続きます。\n", "auto", "no numbered rules found (expected rule numbers such as "
     "1.2.1. or 1-2-1.), nor headings with 「・」 bullets of an unnumbered page"),
    ("見出し\n\n本文だけで、箇条書きがありません。\n", "unnumbered", "no headings with 「・」 bullets of an "
     "unnumbered page found"),
    ("", "auto", "no numbered rules found"),
    ("勝利条件\n\n・相手のライフを0にすれば勝ちです。\n", "numbered", "no numbered rules found"),
])
def test_cli_bad_input_is_one_located_line(tmp_path: Path, content: str, layout: str, expected: str) -> None:
    path = tmp_path / "page.txt"
    path.write_text(content, encoding="utf-8")
    for args in (["rules", "parse", str(path)], ["rules", "diff", str(path), str(V1)],
                 ["coverage", str(BOOK), "--rules", str(path)]):
        result = invoke(*args, "--layout", layout)
        assert result.exit_code == 1 and result.stdout == ""
        assert "Traceback" not in result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{path}:1:1: ") and expected in lines[0]


def test_read_rules_raises_for_a_text_without_rules(tmp_path: Path) -> None:
    path = tmp_path / "prose.txt"
    path.write_text("Some prose.\nMore prose.\n", encoding="utf-8")
    with pytest.raises(Exception, match="no numbered rules found"):
        read_rules(path)


# -- the seed (skipped where ../shared/seeds is absent) ------------------------------------------------


def test_seed_page_counts() -> None:
    doc = parse_rules(seed_text(), SEED.name)
    counts = doc.counts()
    assert doc.layout == "unnumbered" and doc.title == "詳細なルールとテキストの解説"
    assert {k: counts[k] for k in ("rules", "headings", "bullets", "notes", "paragraphs", "examples", "changes",
                                   "dropped", "unparsed")} == {
        "rules": 296, "headings": 53, "bullets": 176, "notes": 18, "paragraphs": 47, "examples": 2,
        "changes": 8, "dropped": 18, "unparsed": 0}
    assert [rule.heading for rule in doc.roots()] == ["ゲームの目的", "ゲームの準備", "ゲームのエリア(領域)",
                                                      "ゲームの進行", "テキスト解説", "特殊な状況"]
    assert {(change.date, change.kind) for _rule, change in doc.changes()} == {
        ("2024-09-20", "updated"), ("2024-09-20", "added"), ("2023-09-22", "added"), ("2024-10-07", "updated"),
        ("2023-10-20", "updated")}
    assert len(set(doc.rules)) == 296 and all(ID.match(number) for number in doc.rules)


def _older_seed(text: str, doc: RuleDoc, dates: set[str]) -> tuple[str, set[str]]:
    """The seed without the entries dated ``dates`` (a dated heading goes with everything under it)."""
    dropped: set[str] = set()

    def drop(number: str) -> None:
        dropped.add(number)
        for child in doc.rules[number].children:
            drop(child)

    for rule, change in doc.changes():
        if change.date in dates:
            drop(rule.number)
    lines = {doc.rules[number].line for number in dropped}
    kept = [line for index, line in enumerate(text.splitlines(), start=1) if index not in lines]
    return "\n".join(kept) + "\n", dropped


def test_seed_diff_against_an_older_variant() -> None:
    text = seed_text()
    new = parse_rules(text, "new")
    old_text, dropped = _older_seed(text, new, {"2024-09-20", "2024-10-07"})
    old = parse_rules(old_text, "old")
    assert len(dropped) == 9  # 3 bullets; 2 keyword headings with their paragraph and note each
    result = diff_rules(old, new)
    assert {entry.number for entry in result.added} == dropped
    assert not (result.removed or result.changed or result.renumbered or result.xref_only)
    assert result.unchanged == len(old.rules) == len(new.rules) - len(dropped)
    assert texts(old) == {number: content for number, content in texts(new).items() if number not in dropped}


def test_seed_coverage_by_a_rulebook_citing_page_ids(tmp_path: Path) -> None:
    doc = parse_rules(seed_text(), SEED.name)
    winning = next(rule for rule in doc.rules.values() if rule.heading == "勝利条件")
    book = tmp_path / "book"
    book.mkdir()
    cited = ", ".join(f'"{number}"' for number in [winning.number, *winning.children])
    (book / "rulebook.yaml").write_text(f"id: seedpage\noutcomes: {{id: outcomes, rules: [{cited}]}}\n",
                                        encoding="utf-8")
    result = invoke("coverage", str(book), "--rules", str(SEED), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bad_citations"] == [] and data["counts"]["leaf"]["encoded"] == len(winning.children) == 6
