"""``sogo rules diff --rulebook``: which rulebook elements and scenarios cite the rules that changed.

rules_v1.txt -> rules_v2.txt changes 1.2.2 and 3.2.2, removes 2.1.2, inserts 3.3 and 4.2 (so the
old 3.3.x and 4.2.x are renumbered). Rulebook a/ and scenarios/mini/ were written against v1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.rbdiff.raw import load_raw_rulebook
from interpreter.rulestext import diff_rules, load_text, parse_rules
from interpreter.rulestext.impact import Impact, attach_impact, compute_impact

DATA = Path(__file__).parent / "data" / "rbdiff"
OLD, NEW = str(DATA / "rules_v1.txt"), str(DATA / "rules_v2.txt")
SCENARIOS = DATA / "scenarios" / "mini"


@pytest.fixture(scope="module")
def impact() -> Impact:
    old = parse_rules(load_text(OLD), source="v1")
    new = parse_rules(load_text(NEW), source="v2")
    return compute_impact(diff_rules(old, new), load_raw_rulebook(DATA / "a"), SCENARIOS, old)


def cited(entry) -> tuple[list[str], list[str]]:
    return [c.element or c.path for c in entry.rulebook], [c.element for c in entry.scenarios]


def test_affected_rules_with_their_citations(impact: Impact) -> None:
    affected = {(e.kind, e.label): cited(e) for e in impact.affected()}
    assert affected == {
        ("changed", "1.2.2"): ([], ["concede_any_time"]),
        ("removed", "2.1.2"): (["deck"], []),
        ("changed", "3.2.2"): (["main_phase"], []),
        ("renumbered", "3.3 -> 3.4"): (["end_phase"], []),
        ("renumbered", "3.3.1 -> 3.4.1"): (["end_phase"], ["end_of_turn_effects", "end_of_turn_effects"]),
        ("renumbered", "4.2.1 -> 4.3.1"): (["not_encoded[0]"], []),
    }
    assert impact.counts() == {"rules_affecting_citations": 6, "rulebook_citations": 5,
                               "scenario_citations": 3, "new_rules_not_cited": 4, "other_rules_not_cited": 1}


def test_renumbered_rules_are_cited_by_old_number_and_must_be_renumbered(impact: Impact) -> None:
    entry = next(e for e in impact.entries if e.old_number == "3.3.1")
    assert entry.action == "renumbered: the citation must be renumbered 3.3.1 -> 3.4.1"
    assert {c.rule for c in entry.rulebook + entry.scenarios} == {"3.3.1"}
    # The scenario cites it twice: in its rules and in a log expectation.
    assert [c.key for c in entry.scenarios] == ["rules", "rule"]


def test_new_rule_taking_a_moved_number_does_not_steal_its_citations(impact: Impact) -> None:
    battle = next(e for e in impact.entries if e.kind == "added" and e.new_number == "3.3")
    assert battle.rulebook == [] and battle.scenarios == []
    assert battle.number_now == "3.4" and "belonged to old rule 3.3 (now 3.4)" in battle.action
    assert [e.short() for e in impact.uncited_new()][:1] == ["3.3 (old 3.3 is now 3.4)"]


def test_citation_points_at_the_number(impact: Impact) -> None:
    removed = next(e for e in impact.entries if e.kind == "removed")
    [citation] = removed.rulebook
    assert (citation.line, citation.col, citation.path) == (3, 29, "zones[id=deck]")


def test_missing_scenarios_and_broken_files_become_notes(tmp_path: Path) -> None:
    old = parse_rules(load_text(OLD), source="v1")
    diff = diff_rules(old, parse_rules(load_text(NEW), source="v2"))
    book = load_raw_rulebook(DATA / "a")
    none = compute_impact(diff, book, tmp_path / "absent")
    assert none.scenarios_path is None and any("no scenarios directory" in n for n in none.notes)
    (tmp_path / "bad.yaml").write_text("id: [1\n", encoding="utf-8")
    (tmp_path / "ok.yaml").write_text('id: s\nrules: ["2.1.2"]\n', encoding="utf-8")
    broken = compute_impact(diff, book, tmp_path)
    assert broken.scenario_files == 2 and any(n.startswith("scenario not read: ") for n in broken.notes)
    assert [c.element for c in next(e for e in broken.entries if e.kind == "removed").scenarios] == ["s"]


def test_default_scenarios_are_those_of_the_rulebook_id() -> None:
    old = parse_rules(load_text(OLD), source="v1")
    result = compute_impact(diff_rules(old, old), load_raw_rulebook("lovelive"))
    assert result.entries == []
    assert result.scenarios_path is not None and result.scenarios_path.endswith("scenarios/lovelive")
    # The Love Live rulebook cites 1.06 numbers, most of which this tiny text lacks.
    result = compute_impact(diff_rules(old, old), load_raw_rulebook("lovelive"), old_doc=old)
    assert any("not rules of v1" in note for note in result.notes)


def test_attach_to_every_format(impact: Impact) -> None:
    assert json.loads(attach_impact('{"old": {}}\n', impact, "json"))["impact"]["summary"] == impact.counts()
    html = attach_impact("<html><body><p>x</p></body></html>\n", impact, "html")
    assert html.index('<section id="impact">') < html.index("</body>")
    assert "\n== Impact ==\n" in attach_impact("report\n", impact, "text")
    assert "\n## Impact\n" in attach_impact("report\n", impact, "markdown")
    with pytest.raises(ValueError):
        attach_impact("", impact, "pdf")


# -- command line ---------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(cli, ["rules", "diff", OLD, NEW, *args])


@pytest.mark.parametrize("fmt, marker", [("text", "== Impact =="), ("markdown", "## Impact"),
                                         ("html", '<section id="impact"><h2>Impact</h2>'),
                                         ("json", '"impact": {')])
def test_cli_includes_impact_in_every_format(fmt: str, marker: str) -> None:
    result = invoke("--format", fmt, "--rulebook", str(DATA / "a"), "--scenarios", str(SCENARIOS))
    assert result.exit_code == 0, result.output
    assert marker in result.stdout
    assert "end_of_turn_effects" in result.stdout and "end_phase" in result.stdout


def test_cli_text_lists_elements_and_actions() -> None:
    out = invoke("--rulebook", str(DATA / "a"), "--scenarios", str(SCENARIOS)).stdout
    section = out[out.index("== Impact =="):]
    assert ("> 3.3 -> 3.4 End Phase (renumbered): renumbered: the citation must be renumbered 3.3 -> 3.4"
            in section)
    assert "turn.yaml:23 end_phase turn.children[id=end_phase]" in section
    assert "end_phase.yaml:7 end_of_turn_effects . (rule)" in section
    assert "New rules not cited yet: 3.3 (old 3.3 is now 3.4)" in section
    assert "== Impact ==" not in invoke().stdout  # without --rulebook the report is unchanged


def test_cli_output_file_and_errors(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = invoke("--format", "json", "-o", str(report), "--rulebook", str(DATA / "a"),
                    "--scenarios", str(SCENARIOS))
    assert result.exit_code == 0 and "impact: 6 rules cited by the rulebook" in result.stderr
    assert json.loads(report.read_text(encoding="utf-8"))["impact"]["summary"]["rulebook_citations"] == 5
    missing = invoke("--rulebook", str(DATA / "nowhere"))
    assert missing.exit_code == 1 and "no rulebook" in missing.stderr and "Traceback" not in missing.output
