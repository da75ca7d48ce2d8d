"""`sogo cards stats` counts abilities by the kind of their line (the bracketed label it opens with),
and `cards stats`, `cards review` and `cards import` work for a game that has no card-text phrases
yet: a clear message, the text kept, each line reviewed at its own place. On the toy rulebook, with
original text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.cardtext.cardfile import line_kind, text_position
from interpreter.loader.yaml_safe import load_yaml
from tests.cli_run import run

TOY = Path(__file__).resolve().parent / "data" / "toy"

CARDS = """game: toy
cards:
  - {id: K-1, type: unit, name: One, power: 1,
     text: "【合図】合図数を2にする。\\n【合図】合図数を3にし、記録を1にする。"}
  - {id: K-2, type: unit, name: Two, power: 1,
     text: "【速攻】手札の「Plain」を1枚捨て札に置く。\\n【速攻】相手は負ける。"}
  - {id: K-3, type: unit, name: Three, power: 1, text: "相手は負ける。"}
  - {id: K-4, type: unit, name: Four, power: 1, text: "【合図】合図数を2にする。"}
"""


@pytest.fixture
def books(tmp_path: Path) -> Path:
    """The toy rulebook, and a copy of it without its card-text phrases (game id `bare`)."""
    shutil.copytree(TOY, tmp_path / "toy")
    bare = tmp_path / "bare"
    shutil.copytree(TOY, bare)
    text = (bare / "card_text.yaml").read_text(encoding="utf-8")
    (bare / "card_text.yaml").write_text(text[text.index("# A template of the rulebook"):], encoding="utf-8")
    head = (bare / "rulebook.yaml").read_text(encoding="utf-8")
    (bare / "rulebook.yaml").write_text(head.replace("id: toy", "id: bare", 1), encoding="utf-8")
    return tmp_path


def test_the_kind_of_a_line_is_the_label_it_opens_with() -> None:
    assert line_kind("[アーツ]白◇「名」30") == "[アーツ]"
    assert line_kind("【起動】【ターン1回】カードを1枚引く。") == "【起動】"
    assert line_kind("[ターンに1回]カードを1枚引く。") == "[ターンにN回]"
    assert line_kind("カードを1枚引く。") == line_kind("[unclosed") == "(no label)"


def test_stats_count_abilities_by_kind(books: Path, tmp_path: Path) -> None:
    """Each kind gets its printings and distinct texts by status, and the families of its unmatched
    fragments: here 【合図】 lines all compile, one 【速攻】 line does not."""
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS, encoding="utf-8")
    code, out, err = run("cards", "stats", str(books / "toy"), str(cards), "--json")
    assert code == 0, err
    kinds = {k["kind"]: k for k in json.loads(out)["kinds"]}
    assert list(kinds) == ["【合図】", "【速攻】", "(no label)"]  # most printings first
    assert kinds["【合図】"]["abilities"] == {"full": 3, "partial": 0, "none": 0}
    assert kinds["【合図】"]["distinct_texts"] == {"full": 2, "partial": 0, "none": 0}
    assert kinds["【速攻】"]["abilities"] == {"full": 1, "partial": 1, "none": 0}
    assert [f["texts"] for f in kinds["【速攻】"]["families"]] == [1]
    assert kinds["(no label)"]["abilities"] == {"full": 0, "partial": 0, "none": 1}
    code, out, err = run("cards", "stats", str(books / "toy"), str(cards))
    assert "abilities by kind" in out and "  【速攻】: 2 (1/1/0); 2 distinct (1/1/0); " in out


def test_a_game_without_phrases_gives_a_message_keeps_the_text_and_reviews_each_line(books: Path,
                                                                                    tmp_path: Path) -> None:
    cards = tmp_path / "cards.yaml"
    cards.write_text(CARDS.replace("game: toy", "game: bare"), encoding="utf-8")
    code, out, err = run("cards", "stats", str(books / "bare"), str(cards))
    assert code == 1 and "rulebook 'bare' declares no card-text phrases" in err and "Traceback" not in err
    # import: the text is kept, not compiled, with a notice
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([{"no": "B-1", "nm": "Bee", "t": "【合図】first<br>second"}]), encoding="utf-8")
    mapping = tmp_path / "m.yaml"
    mapping.write_text("import:\n  id: bare_list\n  format: json\n  card_id: [no]\n  fields:\n    name: nm\n"
                       "    type: {value: unit}\n    power: {value: 1}\n    text: {from: t, split: '<br>', format: "
                       "\"{0}\\n{1}\"}\n", encoding="utf-8")
    out_file = tmp_path / "imported.yaml"
    code, out, err = run("cards", "import", str(books / "bare"), str(listed), "--mapping", str(mapping),
                         "-o", str(out_file))
    assert code == 0, err
    assert "not compiled: rulebook 'bare' declares no card-text phrases yet" in err
    card = yaml.safe_load(out_file.read_text(encoding="utf-8"))["cards"][0]
    assert card["text"] == "【合図】first\nsecond" and "abilities" not in card
    # review: each line of the text, with no ability yet, at its own place in the file
    code, out, err = run("cards", "review", str(books / "bare"), str(out_file), "--format", "json")
    assert code == 0, err
    abilities = json.loads(out)["cards"][0]["abilities"]
    assert [(a["printed"], a["origin"]) for a in abilities] == [("【合図】first", "none"), ("second", "none")]
    lines = out_file.read_text(encoding="utf-8").splitlines()
    for a in abilities:
        assert lines[a["line"] - 1][a["col"] - 1:].startswith(a["printed"])


@pytest.mark.parametrize("text", ["[A]one\n[B]two's\n\n[C]three", "plain\nsecond line",
                                  'tab\there\n"q" \\ z\nend', "one line's only"])
def test_each_line_of_a_text_is_located_in_the_file_as_yaml_writes_it(tmp_path: Path, text: str) -> None:
    """Where each line of a card's text starts in the file, however the writer quoted or folded it."""
    f = tmp_path / "c.yaml"
    f.write_text(yaml.safe_dump({"cards": [{"id": "a", "text": text}]}, allow_unicode=True, width=4096),
                 encoding="utf-8")
    _, smap = load_yaml(f)
    source = f.read_text(encoding="utf-8")
    lines = source.splitlines()
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text) and text[i + 1] != "\n"]
    for start in starts:
        line, col = text_position(source, smap, ("cards", 0, "text"), text, start)
        written = lines[line - 1][col - 1:]
        want = text[start]
        assert written.startswith(want) or (want in "\t\"\\" and written.startswith("\\")), (text, start)


def test_an_output_that_cannot_be_written_is_a_usage_error(books: Path, tmp_path: Path) -> None:
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    mapping = tmp_path / "m.yaml"
    mapping.write_text("import:\n  id: bare_list\n  format: json\n  card_id: [no]\n  fields: {name: nm}\n",
                       encoding="utf-8")
    code, out, err = run("cards", "import", str(books / "bare"), str(listed), "--mapping", str(mapping),
                         "-o", str(tmp_path / "no" / "such" / "dir.yaml"))
    assert code == 2 and "cannot write" in err and "No such file or directory" in err
