"""Inferred elements (`inferred: DECISION_ID`, a decision's `evidence`) and page ids in every `*_rules`
key: the loader's checks on the toy rulebook, the raw listing and `sogo coverage` on
tests/data/inferred/book (written against tests/data/unnumbered/page_v1.txt)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from toy_engine import toy_variant

from interpreter.cli.main import cli
from interpreter.loader.diagnostics import LoadError
from interpreter.rbdiff.inferred import inferred_elements
from interpreter.rbdiff.raw import is_rule_id, load_raw_rulebook
from interpreter.rulestext import parse_rules
from interpreter.rulestext.coverage import compute_coverage
from interpreter.rulestext.ids import ALPHABET

DATA = Path(__file__).parent / "data"
BOOK = DATA / "inferred" / "book"
PAGE = DATA / "unnumbered" / "page_v1.txt"

DECISION = """decisions:
  - id: guessed
    rules: ["9"]
    decision: "The discard pile is ordered."
    reason: "The text never says."
{evidence}"""


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


# -- the loader -----------------------------------------------------------------------------------


def test_an_element_naming_a_decision_with_evidence_loads(tmp_path: Path) -> None:
    rb, _ = toy_variant(tmp_path, replace=(("ordered: true}\nzone_rules", "ordered: true, inferred: guessed}\n"
                                                                         "zone_rules"),),
                        append=DECISION.format(evidence='    evidence: ["3"]\n'))
    assert rb.zones["discard"].raw["inferred"] == "guessed"


def test_an_unknown_decision_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(("ordered: true}\nzone_rules", "ordered: true, inferred: guesed}\n"
                                                                      "zone_rules"),),
                    append=DECISION.format(evidence='    evidence: ["3"]\n'))
    (diag,) = e.value.diagnostics
    assert diag.path.endswith("all.yaml") and (diag.line, diag.col) == (21, 93)
    assert diag.message == ("element 'discard' is inferred by decision 'guesed', which is not in decisions "
                            "(decisions: guessed)")


def test_nested_elements_and_a_decision_without_evidence(tmp_path: Path) -> None:
    total = '{id: total, rules: ["2"],'
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=((total, total + " inferred: guessed,"),), append=DECISION.format(evidence=""))
    (diag,) = e.value.diagnostics
    assert diag.message.startswith("decision 'guessed' records an inference (element 'total' at ")
    assert diag.message.endswith("but gives no evidence: list the rules that imply it")
    assert (diag.line, diag.col) == (110, 9)  # the decision's id, appended after the toy's 108 lines


def test_the_schema_allows_inferred_on_elements_only(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path / "a", replace=(("{id: deck, rules: [\"3\"], owner: player,",
                                              "{id: deck, rules: [\"3\"], inferred: 7, owner: player,"),))
    assert str(e.value).endswith("all.yaml:17:40: expected string, got integer 7")
    with pytest.raises(LoadError) as e:  # a step is no element
        toy_variant(tmp_path / "b", replace=(("- set_var: {name: stage, value: 1}",
                                              "- set_var: {name: stage, value: 1, inferred: x}"),))
    assert "unknown key 'inferred'" in str(e.value)


def test_cite_steps_and_transitions_may_be_inferred(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(('{to: round, rules: ["6"]}', '{to: round, rules: ["6"], inferred: x}'),
                                       ("        - set_var: {name: three_done, value: true}",
                                        "        - cite: {rules: [\"6\"], inferred: y, do: []}\n"
                                        "        - set_var: {name: three_done, value: true}")))
    assert [d.message.split(",")[0] for d in e.value.diagnostics] == [
        "element 'three.do[0].cite' is inferred by decision 'y'", "element 'round.next[0]' is inferred by decision 'x'"]


def test_validate_reports_an_unknown_decision(tmp_path: Path) -> None:
    with pytest.raises(LoadError):
        toy_variant(tmp_path, replace=(("ordered: true}\nzone_rules", "ordered: true, inferred: nope}\nzone_rules"),))
    result = invoke("validate", str(tmp_path / "toy"))
    assert result.exit_code == 1
    assert "all.yaml:21:93: element 'discard' is inferred by decision 'nope', which is not in decisions" \
        in result.output
    assert "Traceback" not in result.output


# -- the raw listing and coverage -------------------------------------------------------------------


def test_inferred_elements_are_listed_with_their_decision_and_evidence() -> None:
    items = inferred_elements(load_raw_rulebook(BOOK))
    assert [(i.element, i.section, i.line, i.decision, i.evidence, i.found) for i in items] == [
        ("hand", "zones", 9, "hand_is_private", ("zydu.59vr", "gsgu.ksey"), True),
        ("draw_phase", "turn", 25, "simultaneous_own_first", ("se4x.2b5u",), True),
        ("turn.next[0]", "turn", 27, "simultaneous_own_first", ("se4x.2b5u",), True),  # a transition
        ("setup.do[0].cite", "setup", 34, "hand_is_private", ("zydu.59vr", "gsgu.ksey"), True)]  # a cite step
    assert items[0].file.endswith("inferred/book/zones.yaml")


def test_evidence_is_checked_but_encodes_nothing() -> None:
    page = parse_rules(PAGE.read_text(encoding="utf-8"), source=PAGE.name)
    report = compute_coverage(load_raw_rulebook(BOOK), page)
    assert report.bad == []
    status = {rule.number: rule.status for rule in report.rules}
    assert status["gsgu.ksey"] == "ignored" and status["se4x.2b5u"] == "ignored"  # cited as evidence only
    assert [i.element for i in report.inferred] == ["hand", "draw_phase", "turn.next[0]", "setup.do[0].cite"]


def test_a_page_id_in_another_rules_key_is_a_citation() -> None:
    page = parse_rules(PAGE.read_text(encoding="utf-8"), source=PAGE.name)
    report = compute_coverage(load_raw_rulebook(BOOK), page)
    entry = next(rule for rule in report.rules if rule.number == "zydu.ctfp")
    assert entry.status == "encoded"
    assert [(c.element, c.key) for c in entry.citations] == [("zone_rules", "identity_rules")]


def test_rule_ids_and_the_page_alphabet() -> None:
    assert all(is_rule_id(x) for x in ("7.4.1", "1-2-1.", "hm4e", "hm4e.uqp2", "hm4e.uqp2-2", "abcdefg.2345678"))
    assert not any(is_rule_id(x) for x in ("zone", "hil4", "1abc", "hm4e.uqp", "main_phase", ""))
    from interpreter.rbdiff import raw

    assert raw._ID_CHARS == ALPHABET  # the pattern follows the ids' alphabet


def test_cli_inferred_without_rules_text_and_json() -> None:
    text = invoke("coverage", str(BOOK), "--inferred")
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0] == "Inferred elements of inferpage (4)"
    assert lines[1].startswith("  hand  [zones]  ") and lines[1].endswith("zones.yaml:9  inferred: hand_is_private")
    assert lines[2:4] == ["      evidence zydu.59vr", "      evidence gsgu.ksey"]
    data = json.loads(invoke("coverage", str(BOOK), "--inferred", "--format", "json").stdout)
    assert data["inferred"][1] == {**data["inferred"][1], "element": "draw_phase", "section": "turn",
                                   "decision": "simultaneous_own_first", "decision_found": True,
                                   "evidence": ["se4x.2b5u"], "line": 25}


def test_cli_inferred_with_the_rules_text_shows_the_evidence() -> None:
    result = invoke("coverage", str(BOOK), "--inferred", "--rules", str(PAGE))
    assert result.exit_code == 0, result.output
    assert "      evidence gsgu.ksey 〔守り〕を持つカードは、相手の効果で選ばれません。" in result.stdout
    assert "Leaf rules" not in result.stdout


def test_cli_coverage_ends_with_the_inferred_list() -> None:
    text = invoke("coverage", str(BOOK), "--rules", str(PAGE))
    assert text.exit_code == 0, text.output
    tail = text.stdout[text.stdout.index("== Inferred (4) =="):]
    assert "hand  [zones]" in tail and "evidence se4x.2b5u ■例)" in tail
    data = json.loads(invoke("coverage", str(BOOK), "--rules", str(PAGE), "--format", "json").stdout)
    assert [i["element"] for i in data["inferred"]] == ["hand", "draw_phase", "turn.next[0]", "setup.do[0].cite"]
    markdown = invoke("coverage", str(BOOK), "--rules", str(PAGE), "--format", "markdown").stdout
    assert "## Inferred (4)" in markdown


def test_cli_coverage_needs_rules_or_inferred() -> None:
    result = invoke("coverage", str(BOOK))
    assert result.exit_code == 2
    assert "give --rules FILE (or --inferred" in result.output


def test_an_inferred_naming_no_decision_is_shown_in_the_list(tmp_path: Path) -> None:
    (tmp_path / "rulebook.yaml").write_text(
        'id: tiny\nplayers: {id: players, rules: ["hyuv"], inferred: missing}\n', encoding="utf-8")
    result = invoke("coverage", str(tmp_path), "--inferred")
    assert result.exit_code == 0, result.output
    assert "players  [players]" in result.stdout and "inferred: missing (not in decisions)" in result.stdout
