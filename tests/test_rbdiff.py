"""``sogo diff``: element-level rulebook diff keyed by id, the turn graph diff and its DOT picture.

Fixtures a/ and b/ differ by a phase, a transition, a zone field, a template verb and a keyword;
b/ also reorders the zones and moves a template to another file, which must not count as changes.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.rbdiff import (
    RulebookDiff,
    diff_rulebooks,
    diff_values,
    load_raw_rulebook,
    render_rbdiff,
    to_dot,
)
from interpreter.rbdiff import graph as graph_module
from interpreter.rbdiff.fields import step_verbs
from interpreter.rbdiff.graph import build_turn_graph

DATA = Path(__file__).parent / "data" / "rbdiff"


@pytest.fixture(scope="module")
def result() -> RulebookDiff:
    return diff_rulebooks(load_raw_rulebook(DATA / "a"), load_raw_rulebook(DATA / "b"))


def ids(items: list) -> list[str]:
    return [item.id for item in items]


# -- sections -------------------------------------------------------------------------------------


def test_only_the_real_differences_are_reported(result: RulebookDiff) -> None:
    assert result.counts() == {
        "zones": {"added": 0, "removed": 0, "changed": 1},
        "templates": {"added": 0, "removed": 0, "changed": 1},
        "keywords": {"added": 1, "removed": 0, "changed": 0},
        "not_encoded": {"added": 0, "removed": 0, "changed": 1},
        "other": {"added": 0, "removed": 0, "changed": 1},
    }


def test_zone_field_change_ignores_reordering(result: RulebookDiff) -> None:
    [hand] = result.sections["zones"].changed
    assert hand.id == "hand"
    assert [c.to_dict() for c in hand.changes] == [
        {"op": "changed", "path": "visibility", "old": "owner", "new": "private"}]
    assert hand.old_rules == hand.new_rules == ["2.2", "2.2.1"]
    assert (hand.old.where, hand.new.where) == ("zones.yaml:7", "zones.yaml:12")  # moved, reported as such


def test_template_verbs_and_moved_template(result: RulebookDiff) -> None:
    [draw] = result.sections["templates"].changed
    assert draw.id == "draw"  # discard_hand moved to extras.yaml and is not a change
    assert (draw.old_verbs, draw.new_verbs) == (["move", "repeat"], ["move", "repeat", "shuffle"])
    assert [(c.op, c.path) for c in draw.changes] == [("added", "do[0]")]
    assert draw.to_dict()["verbs"] == {"old": ["move", "repeat"], "new": ["move", "repeat", "shuffle"]}


def test_added_keyword_lists_its_rules(result: RulebookDiff) -> None:
    [guard] = result.sections["keywords"].added
    assert (guard.id, guard.new_rules, guard.old_rules) == ("guard", ["4.2", "4.2.1"], [])


def test_renumbered_citation_is_flagged_citations_only(result: RulebookDiff) -> None:
    [entry] = result.sections["not_encoded"].changed
    assert entry.id == "Illustration: no game effect."  # not_encoded entries are known by their reason
    assert entry.citations_only
    assert (entry.old_rules, entry.new_rules) == (["4.2.1"], ["4.3.1"])
    [version] = result.sections["other"].changed
    assert version.id == "rules_version" and not version.citations_only


# -- the turn graph -------------------------------------------------------------------------------


def test_turn_graph_nodes_and_edges(result: RulebookDiff) -> None:
    graph = result.graph
    assert ids(graph.nodes_added) == ["battle_phase"] and graph.nodes_removed == []
    [end] = graph.nodes_changed
    assert end.id == "end_phase" and end.citations_only
    assert sorted(graph.edges_added) == [
        ("contains", "turn", "battle_phase"), ("next", "main_phase", "battle_phase"),
        ("then", "battle_phase", "end_phase"), ("then", "main_phase", "battle_phase"),
    ]
    assert sorted(graph.edges_removed) == [("next", "main_phase", "end_phase"),
                                           ("then", "main_phase", "end_phase")]
    assert graph.edges_changed == []


def test_transition_guard_change_is_an_edge_change(tmp_path: Path) -> None:
    (tmp_path / "rulebook.yaml").write_text("id: mini\nparts: [turn.yaml]\n", encoding="utf-8")
    turn = (DATA / "a" / "turn.yaml").read_text(encoding="utf-8")
    (tmp_path / "turn.yaml").write_text(turn.replace('{to: end_phase, rules: ["3.2.2"]}',
                                                     '{to: end_phase, if: "true", rules: ["3.2.2"]}'),
                                        encoding="utf-8")
    before = build_turn_graph(load_raw_rulebook(DATA / "a"))
    after = build_turn_graph(load_raw_rulebook(tmp_path))
    diff = graph_module.diff_graphs(before, after)
    assert diff.nodes_added == diff.nodes_removed == [] and diff.edges_added == diff.edges_removed == []
    [edge] = diff.edges_changed
    assert edge.key == ("next", "main_phase", "end_phase")
    assert [c.to_dict() for c in edge.changes] == [{"op": "added", "path": "if", "new": "true"}]


def test_graph_of_lovelive_reads_subgraphs_expansions_and_end_targets() -> None:
    graph = build_turn_graph(load_raw_rulebook("lovelive"))
    assert {"turn", "normal_phase", "performance_phase", "live_judgment_phase"} <= set(graph.nodes)
    assert ("expands", "first_normal_phase", "normal_phase") in graph.edges
    assert ("next", "end_loop", "end_loop_check_timing") in graph.edges
    assert graph.nodes["@end:performance_phase"].kind == "end"


def test_dot_colours_added_removed_and_changed(result: RulebookDiff) -> None:
    dot = to_dot(result.graph, "a -> b")
    assert dot.startswith('digraph "a -> b" {')
    battle = next(line for line in dot.splitlines() if line.strip().startswith('"battle_phase" ['))
    assert 'color="#1a7f37"' in battle
    end = next(line for line in dot.splitlines() if line.strip().startswith('"end_phase" ['))
    assert 'color="#d97706"' in end
    removed = next(line for line in dot.splitlines()
                   if '"main_phase" -> "end_phase"' in line and "label=" in line)
    assert 'color="#cf222e"' in removed and 'style="dashed"' in removed


# -- the field differ -----------------------------------------------------------------------------


def test_field_differ_keys_lists_by_id_and_aligns_steps() -> None:
    old = {"fields": [{"id": "a", "t": "int"}, {"id": "b"}], "do": [{"move": 1}, {"log": 2}],
           "values": [1, 2]}
    new = {"fields": [{"id": "b"}, {"id": "a", "t": "str"}, {"id": "c"}],
           "do": [{"move": 1}, {"shuffle": 3}, {"log": 2}], "values": [1, 3]}
    assert [c.to_dict() for c in diff_values(old, new)] == [
        {"op": "changed", "path": "fields[id=a].t", "old": "int", "new": "str"},
        {"op": "added", "path": "fields[id=c]", "new": {"id": "c"}},
        {"op": "added", "path": "do[1]", "new": {"shuffle": 3}},
        {"op": "changed", "path": "values", "old": [1, 2], "new": [1, 3]},
    ]
    assert diff_values({"a": 1, "b": True}, {"b": True, "a": 1}) == []
    assert [c.op for c in diff_values({"x": 1}, {"x": True})] == ["changed"]  # 1 is not true


def test_step_verbs_follow_nested_step_lists() -> None:
    template = {"do": [{"if": {"cond": "x", "then": [{"move": {}}], "else": [{"log": {}}]}},
                       {"choose_one": {"options": [{"id": "o", "do": [{"swap": {}}]}]}}]}
    assert step_verbs(template) == ["choose_one", "if", "log", "move", "swap"]


# -- command line ---------------------------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(cli, ["diff", *args])


def test_cli_self_diff_of_lovelive_is_empty() -> None:
    result = invoke("lovelive", "lovelive")
    assert result.exit_code == 0, result.output
    assert "No differences." in result.stdout
    data = json.loads(invoke("lovelive", "lovelive", "--format", "json").stdout)
    assert data["empty"] is True
    assert all(not any(section.values()) for section in data["sections"].values())


def test_cli_formats(result: RulebookDiff) -> None:
    a, b = str(DATA / "a"), str(DATA / "b")
    text = invoke(a, b).stdout
    assert "~ hand [zones.yaml:7 -> zones.yaml:12] rules: 2.2, 2.2.1" in text
    assert "    verbs: +shuffle" in text and "+ node battle_phase (phase)" in text
    data = json.loads(invoke(a, b, "--format", "json").stdout)
    assert set(data) == {"a", "b", "empty", "sections", "graph"}
    assert data["a"] == {"id": "mini", "rules_version": "1.0", "path": data["a"]["path"]}
    assert [item["id"] for item in data["sections"]["keywords"]["added"]] == ["guard"]
    assert data["graph"]["edges"]["added"][0]["kind"] in ("next", "contains", "then")
    assert "| zones | 0 | 0 | 1 |" in invoke(a, b, "--format", "markdown").stdout
    html = invoke(a, b, "--format", "html").stdout
    assert html.startswith("<!DOCTYPE html>") and "<h2>zones</h2>" in html and "battle_phase" in html
    assert render_rbdiff(result, "text") == text


def test_cli_graph_out_dot_and_svg_fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = str(DATA / "a"), str(DATA / "b")
    dot_file = tmp_path / "turn.dot"
    assert invoke(a, b, "--graph-out", str(dot_file)).exit_code == 0
    assert dot_file.read_text(encoding="utf-8").startswith("digraph")
    monkeypatch.setattr(graph_module, "graphviz_available", lambda: False)
    svg = tmp_path / "turn.svg"
    result = invoke(a, b, "--graph-out", str(svg))
    assert result.exit_code == 0 and not svg.exists()
    assert (tmp_path / "turn.dot").is_file() and "graphviz 'dot' is not installed" in result.stderr


def test_cli_graph_out_svg_with_graphviz(tmp_path: Path) -> None:
    if not graph_module.graphviz_available():
        pytest.skip("graphviz 'dot' is not installed")
    svg = tmp_path / "turn.svg"
    assert invoke(str(DATA / "a"), str(DATA / "b"), "--graph-out", str(svg)).exit_code == 0
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_cli_unknown_rulebook_and_broken_part(tmp_path: Path) -> None:
    missing = invoke(str(DATA / "nowhere"), "lovelive")
    assert missing.exit_code == 1 and "no rulebook" in missing.stderr
    (tmp_path / "rulebook.yaml").write_text("id: x\nparts: [bad.yaml]\n", encoding="utf-8")
    (tmp_path / "bad.yaml").write_text("a: [1\n", encoding="utf-8")
    broken = invoke(str(tmp_path), "lovelive")
    assert broken.exit_code == 1 and "bad.yaml:" in broken.stderr and "Traceback" not in broken.output


# -- changed texts ----------------------------------------------------------------------------------

LONG = ("The close step repeats until nothing is left to do: triggers once per close step, and the effects "
        "that last during this attack end inside it (the attack phase); a player who cannot go on passes.")


def _with_decision(tmp_path: Path, name: str, text: str) -> Path:
    """A copy of rulebook a whose not_encoded reason is `text`."""
    out = tmp_path / name
    shutil.copytree(DATA / "a", out)
    path = out / "not_encoded.yaml"
    src = path.read_text(encoding="utf-8")
    path.write_text(src.replace('"Illustration: no game effect."', json.dumps(text, ensure_ascii=False)),
                    encoding="utf-8")
    return out


def test_a_changed_text_is_shown_whole_as_a_word_diff(tmp_path: Path) -> None:
    new = LONG.replace("(the attack phase)", "(the attack phase or the block step)")
    a, b = _with_decision(tmp_path, "a", LONG), _with_decision(tmp_path, "b", new)
    text = invoke(str(a), str(b)).stdout
    line = next(ln for ln in text.splitlines() if "reason:" in ln)
    assert "…" not in line and "->" not in line
    assert "(the attack phase{+ or the block step+}); a player who cannot go on passes." in line
    assert line.strip().startswith("reason: The close step repeats")
    html = invoke(str(a), str(b), "--format", "html").stdout
    assert "(the attack phase<ins> or the block step</ins>); a player" in html
    same = invoke(str(a), str(_with_decision(tmp_path, "c", LONG))).stdout
    assert "reason" not in same


def test_word_diff_of_japanese_goes_by_character() -> None:
    from interpreter.rbdiff.render import word_diff_text

    assert word_diff_text("攻撃フェイズの終了時", "攻撃ステップの終了時") == "攻撃[-フェイズ-]{+ステップ+}の終了時"


def test_html_report_has_the_turn_graph_picture_or_says_why_not(result: RulebookDiff,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.rbdiff.render as render_module

    monkeypatch.setattr(render_module, "graphviz_available", lambda: False)
    html = render_rbdiff(result, "html")
    assert "No picture: Graphviz" in html and "digraph" in html
    if graph_module.graphviz_available():
        monkeypatch.undo()
        assert "<svg" in render_rbdiff(result, "html")
