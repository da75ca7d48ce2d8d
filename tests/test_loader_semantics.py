"""Semantic checks beyond the schema: every mistake reported at file:line:col, all at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook

SRC = Path(__file__).resolve().parents[1] / "rulebooks" / "lovelive"


@pytest.fixture()
def rb_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "lovelive"
    shutil.copytree(SRC, dst)
    return dst


def errors(path: Path) -> list[str]:
    with pytest.raises(LoadError) as exc:
        load_rulebook(str(path))
    return [str(d) for d in exc.value.diagnostics]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_real_rulebook_loads():
    rb = load_rulebook("lovelive")
    assert rb.rules_version == "1.06"
    assert "turn.live_phase.live_judgment_phase.end_loop" in rb.graph.nodes


def test_unknown_zone_in_expression(rb_copy: Path):
    edit(rb_copy / "turn.yaml", "top('energy_deck', turn_player, 1)", "top('energy_dek', turn_player, 1)")
    errs = errors(rb_copy)
    assert any("turn.yaml:" in e and "unknown zone or zone group 'energy_dek'" in e for e in errs), errs


def test_unknown_verb_names_the_known_ones(rb_copy: Path):
    edit(rb_copy / "turn.yaml", "- check_timing: {}", "- check_timng: {}")
    errs = errors(rb_copy)
    assert any("'check_timng'" in e and "check_timing" in e for e in errs), errs


def test_unknown_template_and_name(rb_copy: Path):
    edit(rb_copy / "turn.yaml", "template: draw, n: 1, player: \"turn_player\"",
         "template: drow, n: 1, player: \"turn_plyer\"")
    errs = errors(rb_copy)
    assert any("unknown template 'drow'" in e for e in errs), errs
    assert any("unknown name 'turn_plyer'" in e for e in errs), errs


def test_transition_to_nowhere(rb_copy: Path):
    edit(rb_copy / "turn.yaml", "- to: end_loop_check_timing", "- to: end_loop_check")
    errs = errors(rb_copy)
    assert any("transition to nowhere: no node 'end_loop_check'" in e for e in errs), errs


def test_unreachable_phase(rb_copy: Path):
    # An unconditional jump back to the start of the phase makes every later step unreachable.
    edit(rb_copy / "turn.yaml", """      - id: live_performed
        kind: step
        rules: ["8.3.6", "8.3.7"]
        do: []
        next:""", """      - id: live_performed
        kind: step
        rules: ["8.3.6", "8.3.7"]
        do: []
        next:
          - to: performance_start""")
    errs = errors(rb_copy)
    assert any("can never be reached" in e and "live_start" in e for e in errs), errs


def test_template_that_calls_itself(rb_copy: Path):
    edit(rb_copy / "templates.yaml", """          do:
            - call: {template: draw_one, player: "player"}
  - id: draw_up_to""", """          do:
            - call: {template: draw, player: "player"}
  - id: draw_up_to""")
    errs = errors(rb_copy)
    assert any("template 'draw' calls itself without end" in e for e in errs), errs


def test_duplicate_ids_and_many_errors_at_once(rb_copy: Path):
    edit(rb_copy / "zones.yaml", "  - id: member_center", "  - id: member_left")
    edit(rb_copy / "turn.yaml", "template: draw, n: 1", "template: drow, n: 1")
    errs = errors(rb_copy)
    assert any("duplicate zones id 'member_left'" in e for e in errs), errs
    assert any("unknown template 'drow'" in e for e in errs), errs
    for e in errs:
        path, line, col, _ = e.split(":", 3)
        assert int(line) >= 1 and int(col) >= 1


def test_duplicate_yaml_key_is_located(rb_copy: Path):
    edit(rb_copy / "zones.yaml", "    ordered: true            # new cards go on top (4.10.2)",
         "    ordered: true\n    ordered: false")
    errs = errors(rb_copy)
    assert any("zones.yaml" in e and "duplicate" in e.lower() for e in errs), errs


def test_rule_numbers_stay_strings():
    rb = load_rulebook("lovelive")
    zone = rb.zones["member_left"]
    assert all(isinstance(r, str) for r in zone.rules)
    assert "4.5.2" in zone.rules


def test_part_name_pattern_is_the_schemas():
    """The loader skips part names failing its pattern because the schema reports them: the two must agree,
    or a bad name would be skipped without a word."""
    import json

    from interpreter.loader.rulebook import PART_NAME

    schema = json.loads((SRC.parents[1] / "schemas" / "rulebook.schema.json").read_text(encoding="utf-8"))
    assert PART_NAME.pattern == schema["properties"]["parts"]["items"]["pattern"]


def test_part_symlink_leaving_the_folder_is_not_read(rb_copy: Path, tmp_path: Path):
    (tmp_path / "outside.yaml").write_text("not_encoded: []\n", encoding="utf-8")
    (rb_copy / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    edit(rb_copy / "rulebook.yaml", "  - not_encoded.yaml\n", "  - not_encoded.yaml\n  - link.yaml\n")
    errs = errors(rb_copy)
    assert len(errs) == 1 and errs[0].endswith("part 'link.yaml' is outside the rulebook folder"), errs


def test_load_errors_are_sorted_and_unique():
    from interpreter.loader.diagnostics import Diagnostics

    diags = Diagnostics()
    for line in (3, 1, 3):
        diags.add("f.yaml", line, 1, "same")
    with pytest.raises(LoadError) as exc:
        diags.raise_if_any()
    assert [d.line for d in exc.value.diagnostics] == [1, 3]


def test_an_incomplete_card_is_left_out_and_the_rest_loads(tmp_path: Path) -> None:
    """A card lacking a field its type requires (a list that left out a zero) is a located warning and
    is left out; the other cards of the folder load, and a deck naming it is told why it is missing."""
    from interpreter.loader.cards import load_cards, load_deck

    rb = load_rulebook("lovelive")
    cards = tmp_path / "cards.yaml"
    cards.write_text(
        "game: lovelive\ncards:\n"
        "  - {id: OK-M01, number: OK-M01, name: A, type: member, cost: 1, hearts: {pink: 1}, blades: 1}\n"
        "  - {id: NO-M01, number: NO-M01, name: B, type: member, cost: 1, hearts: {pink: 1}}\n"
        "  - {id: NO-L01, number: NO-L01, name: C, type: live, required_hearts: {pink: 1}}\n", encoding="utf-8")
    pool = load_cards(rb, [cards])
    assert list(pool) == ["OK-M01"]
    assert [str(n) for n in pool.notices] == [
        f"{cards}:4:5: warning: member card 'NO-M01' is missing required field 'blades'; the card is left out",
        f"{cards}:5:5: warning: live card 'NO-L01' is missing required field 'score'; the card is left out"]
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: lovelive\ndecks:\n  main_deck:\n    - {card: NO-M01, count: 4}\n", encoding="utf-8")
    with pytest.raises(LoadError) as exc:
        load_deck(rb, pool, deck)
    assert [str(d) for d in exc.value.diagnostics] == [
        f"{deck}:4:7: card 'NO-M01' is left out: member card 'NO-M01' is missing required field 'blades' "
        f"({cards}:4)"]
