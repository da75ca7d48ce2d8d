"""``sogo coverage``: rule statuses, percentages and bad citations on a tiny fixture, and on the seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.loader.yaml_safe import load_yaml_text
from interpreter.rbdiff.raw import load_raw_rulebook, rule_key, walk_citations
from interpreter.rulestext import RuleDoc, load_text, parse_rules
from interpreter.rulestext.coverage import CoverageReport, compute_coverage, render_coverage

DATA = Path(__file__).parent / "data" / "rbdiff"
SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


def text(name: str) -> RuleDoc:
    return parse_rules(load_text(DATA / name), source=name)


@pytest.fixture(scope="module")
def report() -> CoverageReport:
    return compute_coverage(load_raw_rulebook(DATA / "a"), text("rules_v1.txt"))


def statuses(report: CoverageReport) -> dict[str, str]:
    return {rule.number: rule.status for rule in report.rules}


# -- statuses and figures -------------------------------------------------------------------------


def test_every_rule_gets_one_status(report: CoverageReport) -> None:
    status = statuses(report)
    assert len(status) == 27
    assert [n for n, s in status.items() if s == "ignored"] == ["1", "1.2", "1.2.2"]
    assert [n for n, s in status.items() if s == "not_encoded"] == ["4.2.1"]
    # Parents without citations count when all their children do (4.2 via a not_encoded child).
    assert [n for n, s in status.items() if s == "covered"] == ["1.1", "2", "4", "4.2"]
    assert status["3"] == "encoded" and status["2.3.1"] == "encoded"


def test_percentages_over_leaves_and_over_all_rules(report: CoverageReport) -> None:
    assert report.counts() == {
        "leaf": {"total": 13, "encoded": 11, "not_encoded": 1, "covered": 0, "ignored": 1},
        "all": {"total": 27, "encoded": 19, "not_encoded": 1, "covered": 4, "ignored": 3},
    }
    assert report.percentages() == {"leaf": 92.3, "leaf_encoded": 84.6, "all": 88.9, "all_encoded": 70.4}
    assert report.ok and report.bad == []


def test_citations_keep_element_and_position(report: CoverageReport) -> None:
    rule = next(r for r in report.rules if r.number == "3.2.2")
    [citation] = rule.citations
    # A transition has no id: the citation belongs to the phase that holds it.
    assert (citation.element, citation.path) == ("main_phase", "turn.children[id=main_phase]")
    assert citation.file.endswith("a/turn.yaml") and citation.line == 20
    listed = next(r for r in report.rules if r.number == "4.2.1")
    assert listed.reasons == ["Illustration: no game effect."]


def test_citations_of_missing_rules_are_errors() -> None:
    result = compute_coverage(load_raw_rulebook(DATA / "b"), text("rules_v1.txt"))
    assert [(c.rule, c.element, c.line, c.col) for c in result.bad] == [
        ("3.4", "end_phase", 28, 15), ("3.4.1", "end_phase", 28, 22), ("4.3.1", None, 2, 14)]
    assert not result.ok


def test_cited_and_listed_rule_is_encoded_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "rulebook.yaml").write_text(
        'id: tiny\nparts: [x.yaml]\nplayers: {id: players, rules: ["1.1.1"]}\n', encoding="utf-8")
    (tmp_path / "x.yaml").write_text('not_encoded:\n  - {rules: ["1.1.1"], reason: "no"}\n', encoding="utf-8")
    result = compute_coverage(load_raw_rulebook(tmp_path), text("rules_v1.txt"))
    assert statuses(result)["1.1.1"] == "encoded"
    assert result.notes == ["1.1.1 is cited and also listed in not_encoded"]


# -- the citation walker --------------------------------------------------------------------------


def test_walker_reads_rules_suffixed_keys_and_scalar_rule() -> None:
    data, smap = load_yaml_text(
        "zone_rules:\n  id: zone_rules\n  rules: ['4.1']\n  identity_rules: ['4.1.4', '4.1.4.1']\n"
        "  names_rules: [left, right]\n"
        "expect:\n  log:\n    - {text: x, rule: '9.6'}\n", "x.yaml")
    found = [(c.rule, c.element, c.path, c.key) for c in walk_citations(data, smap, "x.yaml")]
    assert found == [
        ("4.1", "zone_rules", "zone_rules", "rules"),
        ("4.1.4", "zone_rules", "zone_rules", "identity_rules"),
        ("4.1.4.1", "zone_rules", "zone_rules", "identity_rules"),
        ("9.6", None, "expect.log[0]", "rule"),
    ]


def test_rule_keys_accept_both_numbering_styles() -> None:
    assert rule_key("1.2.1") == rule_key("1-2-1.") == (1, 2, 1)
    assert rule_key("7") == (7,)
    assert rule_key("left") is None and rule_key("") is None


# -- command line ---------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(cli, ["coverage", *args])


def test_cli_text_json_and_markdown() -> None:
    result = invoke(str(DATA / "a"), "--rules", str(DATA / "rules_v1.txt"))
    assert result.exit_code == 0, result.output
    assert "Leaf rules: 92.3% accounted for (84.6% encoded)" in result.stdout
    assert "All rules: 88.9% accounted for" in result.stdout
    assert "== Ignored (3) ==" in result.stdout and "1.2.2 A player may concede" in result.stdout
    as_json = invoke(str(DATA / "a"), "--rules", str(DATA / "rules_v1.txt"), "--format", "json")
    data = json.loads(as_json.stdout)
    assert data["percent"]["leaf"] == 92.3 and data["bad_citations"] == []
    assert [r["number"] for r in data["not_encoded"]] == ["4.2.1"]
    assert data["encoded"][0]["cited_by"][0]["element"] == "players"
    markdown = invoke(str(DATA / "a"), "--rules", str(DATA / "rules_v1.txt"), "--format", "markdown").stdout
    assert "| leaf rules | **92.3%** |" in markdown


def test_cli_exits_1_on_bad_citations_with_located_messages() -> None:
    result = invoke(str(DATA / "b"), "--rules", str(DATA / "rules_v1.txt"))
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].endswith("b/turn.yaml:28:15: rule 3.4 cited by end_phase (turn.children[id=end_phase]) "
                             f"does not exist in {DATA / 'rules_v1.txt'}")
    assert "== Bad citations (3) ==" in result.stdout


def test_cli_input_errors_are_located() -> None:
    missing = invoke(str(DATA / "nowhere"), "--rules", str(DATA / "rules_v1.txt"))
    assert missing.exit_code == 1 and "no rulebook" in missing.stderr
    empty = invoke(str(DATA / "a"), "--rules", str(DATA.parent / "rulestext" / "no_rules.txt"))
    assert empty.exit_code == 1 and "no numbered rules found" in empty.stderr
    absent = invoke(str(DATA / "a"), "--rules", str(DATA / "absent.txt"))
    assert absent.exit_code == 1 and absent.stderr.strip().endswith("absent.txt:1:1: file not found")


# -- the Love Live rulebook against its rules text (skipped when ../shared/seeds is absent) --------


def test_lovelive_against_seed_000() -> None:
    seed = next(iter(sorted(SEEDS.glob("000_*.txt"))), None) if SEEDS.is_dir() else None
    if seed is None:
        pytest.skip(f"seed texts not available at {SEEDS}")
    result = compute_coverage(load_raw_rulebook("lovelive"), parse_rules(load_text(seed), source=seed.name))
    assert [c.label() for c in result.bad] == []  # every citation names a rule of ver. 1.06
    counts = result.counts()
    assert counts["all"]["total"] == 518 and counts["leaf"]["total"] == 336
    assert sum(counts["all"][s] for s in ("encoded", "not_encoded", "covered", "ignored")) == 518
    assert 0 < result.percentages()["leaf"] <= 100
    assert "Leaf rules:" in render_coverage(result, "text")
    cli_result = invoke("lovelive", "--rules", str(seed), "--format", "json")
    assert cli_result.exit_code == 0 and json.loads(cli_result.stdout)["counts"] == counts


def test_format_files_count_as_citations() -> None:
    """A rulebook's formats (formats/ID.yaml) encode rules too (Re:Birth section 12)."""
    book = load_raw_rulebook("rebirth")
    assert [p.name for p in book.formats] == [f"formats/{f}.yaml" for f in
                                              ("rumble", "rumble_one_out", "circle", "circle_one_out", "double_team")]
    cited = {(c.file.rsplit("/", 1)[-1], c.rule) for c in book.citations()}
    assert ("rumble_one_out.yaml", "12.5.3.2") in cited and ("circle.yaml", "12.6.5") in cited
