"""Rules versions side by side: `haikyu@1.02` is the 1.03 rulebook minus what the 1.03 change log added.

The overlay (rulebooks/haikyu@1.02/rulebook.yaml) is applied by the loader and by the raw reader
alike, so the engine, `sogo diff` and `sogo coverage` see the same 1.02 rulebook; these tests pin
what the change log says and nothing more.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.cli.setup import cards_dir, load_game_env, sample_decks
from interpreter.loader.cards import load_cards, load_deck
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook, rulebook_versions
from interpreter.rbdiff.raw import load_raw_rulebook
from interpreter.replay import content_hashes

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"

# What ver. 1.03 added (change log at the end of seed 001), element by element.
ADDED = {
    "templates": {"mark_once", "put_on_deck", "a_pass", "two_attack"},  # 7-9, 7-10, 9-7, 9-8
    "keywords": {"a_pass_trigger", "a_pass", "two_attack"},  # 9-7, 9-8
    "functions": {"once_ok"},  # 7-9
    "decisions": {"two_attack_passes_the_attack_phase"},  # 9-8
}
CHANGED = {
    "zones": {"deck_area"},  # cites 1-1-7
    "invariants": {"forty_cards_in_play"},  # cites 1-1-7
    "decisions": {"one_touch_attack_points_only", "keyword_placement", "blocked_and_attacked",  # 9-7, 9-8
                  "appendix_spellings"},  # 11-3
    # the version; 1-1-7; card_text: its phrases for what 1.03 added cite rules 1.02 lacks
    "other": {"rules_version", "rules_date", "deck_construction", "card_text"},
}
CITATIONS_ONLY = {"deck_area", "forty_cards_in_play", "deck_construction"}
NEW_RULES = ("1-1-7", "7-9", "7-10", "9-7", "9-8")
LATER_CARDS = {"SGH-003", "SGH-006", "SGH-009", "SGH-E05", "SGH-E08", "SGH-E09"}


def _new_rule(number: str) -> bool:
    return any(number == r or number.startswith(r + "-") for r in NEW_RULES)


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


# -- the overlay ------------------------------------------------------------------------------


def test_versioned_rulebook_is_the_game_at_that_version() -> None:
    rb = load_rulebook("haikyu@1.02")
    assert (rb.id, rb.rules_version, rb.rules_date) == ("haikyu", "1.02", "2025-12-17")
    assert rb.directory.name == "haikyu@1.02"
    assert ROOT / "rulebooks" / "haikyu" / "keywords.yaml" in rb.files  # the base's parts are read
    assert rulebook_versions("haikyu") == ["haikyu@1.02"]


def test_overlay_removes_exactly_the_new_elements() -> None:
    old, new = load_rulebook("haikyu@1.02"), load_rulebook("haikyu")
    for section in ("templates", "keywords", "functions", "decisions", "zones", "invariants", "enums",
                    "card_types", "events", "actions", "not_encoded"):
        kept = [e for e in new.raw.get(section, []) if e.get("id") not in ADDED.get(section, set())]
        assert [e.get("id") for e in old.raw.get(section, [])] == [e.get("id") for e in kept], section
        for before, after in zip(old.raw.get(section, []), kept, strict=True):  # the rest unchanged, in order
            if before.get("id") not in CHANGED.get(section, set()):
                assert before == after, (section, before.get("id"))
    assert old.raw["turn"] == new.raw["turn"] and old.raw["setup"] == new.raw["setup"]


def test_no_citation_of_a_rule_new_in_1_03() -> None:
    assert [c.label() for c in load_raw_rulebook("haikyu@1.02").citations() if _new_rule(c.rule)] == []
    assert {c.rule for c in load_raw_rulebook("haikyu").citations() if _new_rule(c.rule)} >= set(NEW_RULES)


def test_cut_data_keeps_its_source_positions() -> None:
    """Every citation the 1.02 rulebook keeps from the base is reported where the base writes it."""
    base = {(c.file, c.line, c.col, c.rule, c.element) for c in load_raw_rulebook("haikyu").citations()}
    kept = [c for c in load_raw_rulebook("haikyu@1.02").citations() if "haikyu@1.02" not in c.file]
    assert kept and [c.label() for c in kept if (c.file, c.line, c.col, c.rule, c.element) not in base] == []


# -- sogo diff --------------------------------------------------------------------------------


def test_diff_shows_exactly_the_change_log() -> None:
    result = run("diff", "haikyu@1.02", "haikyu", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["a"]["id"], data["a"]["rules_version"], data["b"]["rules_version"]) == ("haikyu", "1.02", "1.03")
    added = {name: {i["id"] for i in s["added"]} for name, s in data["sections"].items() if s["added"]}
    removed = {name: {i["id"] for i in s["removed"]} for name, s in data["sections"].items() if s["removed"]}
    changed = {name: {i["id"] for i in s["changed"]} for name, s in data["sections"].items() if s["changed"]}
    assert added == ADDED
    assert removed == {}
    assert changed == CHANGED
    for s in data["sections"].values():
        for item in s["added"]:  # each added element cites a rule 1.03 added
            assert any(_new_rule(r) for r in item["rules"]["new"]), item["id"]
        for item in s["changed"]:
            if item["id"] in CITATIONS_ONLY:
                assert item["citations_only"] and set(item["rules"]["new"]) - set(item["rules"]["old"]) == {"1-1-7"}
    assert all(n == 0 for n in data["graph"]["counts"].values())


def test_diff_text_names_the_version() -> None:
    result = run("diff", "haikyu@1.02", "haikyu")
    assert result.exit_code == 0
    assert result.output.startswith("Rulebook diff: haikyu (rules 1.02) at ")
    assert "+ a_pass_trigger" in result.output and "\n- " not in result.output


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed texts not available")
def test_coverage_of_1_02_against_the_1_03_text_misses_only_the_additions() -> None:
    seed = next(SEEDS.glob("001_*.txt"))
    result = run("coverage", "haikyu@1.02", "--rules", str(seed), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bad_citations"] == [] and data["rulebook"]["rules_version"] == "1.02"
    ignored = {r["number"] for r in data["ignored"]}
    assert set(NEW_RULES) <= ignored and all(_new_rule(n) for n in ignored - {"7"})  # 7: two children new
    assert "the rulebook declares rules_version 1.02, the text is 1.03" in data["notes"]


# -- playing a version ------------------------------------------------------------------------


def test_play_1_02_completes() -> None:
    result = run("play", "haikyu@1.02", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "\nresult: " in result.output
    assert "two attack" not in result.output.lower()


def test_cards_for_later_rules_are_left_out() -> None:
    rb, cards, decks = load_game_env("haikyu@1.02", None)
    assert set(cards.later) == LATER_CARDS and not LATER_CARDS & set(cards)
    assert [p.parent.name for p in sample_decks(rb)] == ["haikyu@1.02", "haikyu@1.02"]
    assert not LATER_CARDS & {c for deck in decks for ids in deck.values() for c in ids}
    with pytest.raises(LoadError) as err:  # the 1.03 sample deck names cards 1.02 does not have
        load_deck(rb, cards, cards_dir("haikyu") / "deck-a.yaml")
    assert "card 'SGH-003' is for rules 1.03 and later; this rulebook encodes 1.02" in str(err.value)
    assert set(load_cards(load_rulebook("haikyu"), [cards_dir("haikyu")])) >= LATER_CARDS


def test_validate_checks_cards_under_every_version() -> None:
    result = run("validate", str(ROOT / "rulebooks"), str(ROOT / "cards"))
    assert result.exit_code == 0, result.output
    assert "ok rulebook haikyu 1.02" in result.output
    assert "under haikyu@1.02 (25 cards, 6 for later rules left out)" in result.output


# -- overlay errors, located ------------------------------------------------------------------


@pytest.fixture
def books(tmp_path: Path) -> Path:
    """A copy of the haikyu rulebook to write overlays beside."""
    shutil.copytree(ROOT / "rulebooks" / "haikyu", tmp_path / "haikyu")
    return tmp_path


def overlay(books: Path, body: str, name: str = "haikyu@0.9") -> Path:
    folder = books / name
    folder.mkdir()
    (folder / "rulebook.yaml").write_text('extends: haikyu\nrules_version: "0.9"\n' + body, encoding="utf-8")
    return folder


def problems(folder: Path) -> list[str]:
    with pytest.raises(LoadError) as err:
        load_rulebook(folder)
    return [f"{Path(d.path).parent.name}/{Path(d.path).name}:{d.line}:{d.col}: {d.message}"
            for d in err.value.diagnostics]


def test_unknown_id_is_a_located_error(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    remove:\n      keywords: [a_pass, no_such_keyword]\n")
    assert problems(folder) == ["haikyu@0.9/rulebook.yaml:6:26: no element 'no_such_keyword' in section "
                                "'keywords' of the rulebook this one extends"]
    with pytest.raises(LoadError) as err:  # the raw reader (diff, coverage) applies the same overlay
        load_raw_rulebook(folder)
    assert "no_such_keyword" in str(err.value)


def test_unknown_section_and_missing_base(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    remove: {nowhere: [a]}\n")
    assert problems(folder) == ["haikyu@0.9/rulebook.yaml:5:24: the rulebook this one extends has no section "
                                "'nowhere'"]
    other = books / "other"
    other.mkdir()
    (other / "rulebook.yaml").write_text('extends: nothing\nrules_version: "1"\nedits: [{change_log: x, '
                                         'absent: ["1"]}]\n', encoding="utf-8")
    assert problems(other) == ["other/rulebook.yaml:1:10: no rulebook 'nothing' beside this one "
                               f"(looked in {books / 'nothing'})"]


def test_absent_rule_must_not_leave_an_element_citing_nothing(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    absent: ['9-7']\n    remove:\n"
                            "      keywords: [a_pass_trigger]\n      templates: [a_pass]\n")
    line = next(n for n, text in enumerate((books / "haikyu" / "keywords.yaml").read_text(encoding="utf-8")
                                           .splitlines(), 1) if "{id: a_pass," in text)
    assert problems(folder) == ["haikyu@0.9/rulebook.yaml:5:14: without rule 9-7, keywords element 'a_pass' "
                                f"(haikyu/keywords.yaml:{line}) cites nothing: remove or replace it"]


def test_absent_rule_cited_nowhere_and_cited_by_the_overlay(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    absent: ['9-9']\n"
                            "  - change_log: y\n    absent: ['7-10']\n    replace:\n      templates:\n"
                            "        - {id: put_on_deck, rules: ['7-10-1'], do: []}\n")
    assert problems(folder) == [
        "haikyu@0.9/rulebook.yaml:5:14: rule 9-9 is cited nowhere in the rulebook this one extends",
        "haikyu@0.9/rulebook.yaml:10:37: rule 7-10-1 is absent from this version (7-10 in 'absent')",
    ]


def test_replacement_is_checked_where_it_is_written(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    replace:\n      templates:\n"
                            "        - id: a_pass\n          rules: ['9-7-4']\n          do:\n"
                            "            - move: {cards: \"no_such_name\", to: deck_area}\n")
    found = problems(folder)
    assert len(found) == 1 and found[0].startswith("haikyu@0.9/rulebook.yaml:10:30: in expression 'no_such_name': "
                                                   "unknown name 'no_such_name'")


def test_nested_elements_are_removed_but_replaced_through_their_element(books: Path) -> None:
    ok = overlay(books, "edits:\n  - change_log: x\n    remove: {deck_construction: [at_most_eight_events]}\n")
    rb = load_rulebook(ok)
    assert [c[0] for c in rb.deck_rules[0].counts] == ["forty_cards"] and rb.deck_rules[0].bounds == []
    bad = overlay(books, "edits:\n  - change_log: x\n    replace:\n      deck_construction:\n"
                         "        - {id: forty_cards, rules: ['4-1-2'], where: true, exactly: 30}\n", "haikyu@0.8")
    assert problems(bad) == ["haikyu@0.8/rulebook.yaml:7:16: 'forty_cards' sits inside deck_construction "
                             "element 'deck_construction' (haikyu/setup.yaml:3): replace that element"]


def test_added_and_whole_section_replacements_load(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    add:\n      decisions:\n"
                            "        - {id: extra, rules: ['9-1'], decision: d, reason: r}\n"
                            "    replace:\n      deck_construction:\n"
                            "        - id: deck_construction\n          rules: ['4-1']\n          decks:\n"
                            "            - id: deck\n              rules: ['4-1-2']\n              zone: deck_area\n"
                            "              counts: [{id: thirty, rules: ['4-1-2'], where: true, exactly: 30}]\n")
    rb = load_rulebook(folder)
    assert rb.raw["decisions"][-1]["id"] == "extra" and rb.deck_rules[0].counts[0][3] == 30
    assert rb.rules_version == "0.9" and rb.rules_date == "2026-02-12"  # head values not stated are the base's


def test_content_hash_covers_the_extended_rulebook(books: Path) -> None:
    folder = overlay(books, "edits:\n  - change_log: x\n    remove: {decisions: [loop_master]}\n")
    rb = load_rulebook(folder)
    cards = load_cards(rb, [cards_dir("haikyu")])
    before = content_hashes(rb, cards, [])["rulebook"]
    keywords = books / "haikyu" / "keywords.yaml"
    keywords.write_text(keywords.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert content_hashes(rb, cards, [])["rulebook"] != before


def test_since_must_be_a_version(tmp_path: Path) -> None:
    cards = tmp_path / "cards.yaml"
    text = (cards_dir("haikyu") / "sample.yaml").read_text(encoding="utf-8")
    cards.write_text(text.replace('since: "1.03"  # Two Attack', 'since: "soon"  # Two Attack'), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        load_cards(load_rulebook("haikyu"), [cards])
    assert [(d.line, d.message) for d in err.value.diagnostics] == [
        (60, "invalid value 'soon' (must match the pattern ^[0-9]+(\\.[0-9]+)*$)")]  # the schema says so
