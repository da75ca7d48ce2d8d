"""hololive's import mappings: the deck editor list (one row per printing, `<br>` columns) and the
hocg-fan-sim-assets database (records keyed by card number, {jp, en} texts) give the card fields and
the card text in the shape the phrase book reads (one block a line, its kind in brackets), on
original fixtures in each list's shape; printings of one number are one card. The real deck editor
list imports without errors where ../shared/corpora holds it (skipped otherwise; nothing of it is
kept)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.cli_run import run

DATA = Path(__file__).resolve().parent / "data" / "cardimport"
CORPUS = next((d / "shared" / "corpora" / "hololive" / "hololive-deckeditor-cards.json"
               for d in Path(__file__).resolve().parents[1].parents if (d / "shared" / "corpora").is_dir()),
              Path("/nonexistent"))
"""The real list in ../shared/corpora of the repository (or of a folder above it: a git worktree)."""
KINDS = ("推しスキル", "SP推しスキル", "ステージスキル", "ブルームエフェクト", "コラボエフェクト", "ギフト", "アーツ",
         "エクストラ")
ARTS = re.compile(r"^\[アーツ\][白緑赤青紫黄◇]+「[^」]*」\d+\+?(\[[白緑赤青紫黄]特攻\+\d+\])?")


def imported(tmp_path: Path, listed: Path, mapping: str) -> tuple[int, str, dict[str, dict]]:
    out = tmp_path / "imported.yaml"
    code, _, err = run("cards", "import", "hololive", str(listed), "--mapping", mapping, "-o", str(out),
                       "--no-compile")
    cards = {c["id"]: c for c in yaml.safe_load(out.read_text(encoding="utf-8"))["cards"]}
    code_v, out_v, err_v = run("validate", str(out))
    assert code_v == 0, err_v
    return code, err, cards


@pytest.mark.parametrize("listed,mapping", [("hololive_deckeditor_small.json", "hololive_deckeditor"),
                                            ("hocg_small.json", "hocg_fan_sim")])
def test_both_lists_give_the_same_cards(tmp_path: Path, listed: str, mapping: str) -> None:
    """The same invented cards written in each list's shape import to the same fields and text."""
    _, err, cards = imported(tmp_path, DATA / listed, mapping)
    oshi, member, buzz = cards["hTS01-001"], cards["hTS01-002"], cards["hTS01-003"]
    assert (oshi["type"], oshi["life"], oshi["colors"]) == ("oshi", 5, ["white"])
    assert oshi["text"].splitlines()[:2] == [
        "[推しスキル]「ひかりの合図」[ホロパワー" + ("：" if mapping == "hocg_fan_sim" else ":")
        + "-1][ターンに1回]自分のデッキを1枚引く。",
        "[SP推しスキル]「満月のステージ」[ホロパワー" + ("：-X]" if mapping == "hocg_fan_sim" else ":-2]")
        + "[ゲームに1回]自分のホロメン1人のHPを20回復する。"]
    assert (member["type"], member["hp"], member["bloom_level"], member["baton_touch"]) == (
        "holomem", 120, "first", {"colorless": 2})
    assert member["text"].splitlines()[:3] == [
        "[ブルームエフェクト]「つきあかり」■自分のデッキを1枚引く。■自分の手札を1枚アーカイブする。",
        "[アーツ]◇「ハロー」20",
        "[アーツ]白◇「ムーンダンス」50+[赤特攻+30]自分のエールが3枚以上の時、このアーツ+20。"]
    assert buzz["buzz"] == 1 and buzz["down_life_damage"] == 2 and buzz["colors"] == ["green"]
    assert buzz["text"].splitlines()[-1] == "[エクストラ]このホロメンがダウンした時、自分のライフ-2"
    staff = next(c for c in cards.values() if c.get("support_kind") == "staff")
    assert staff["limited"] == 1 and staff["text"].splitlines() == [
        "ターンに1枚しか使えない。", "このカードは、自分の手札が1枚以上なければ使えない。", "自分のデッキを2枚引く。"]
    assert cards["hTY01-001"]["type"] == "cheer" and cards["hTY01-001"]["text"].count("\n") == 1


def test_the_deck_editor_list(tmp_path: Path) -> None:
    """Its columns: stage skill, special attack written 60青+20 (no plus), an arts text of two lines
    made one, a colour of two icons, extra names, any number, cannot Bloom, a tag with a space; and
    its rows of one number are one card, a later row written differently a warning at the card."""
    code, err, cards = imported(tmp_path, DATA / "hololive_deckeditor_small.json", "hololive_deckeditor")
    assert list(cards) == ["hTS01-001", "hTS01-002", "hTS01-003", "hTS01-004", "hTS01-005", "hTS01-006",
                           "hTS01-007", "hTS01-008", "hTY01-001"]
    assert cards["hTS01-001"]["text"].splitlines()[2] == (
        "[ステージスキル]「ひかりのみち」自分のセンターホロメンのアーツ+10。")
    assert cards["hTS01-003"]["text"].splitlines()[0] == (
        "[アーツ]緑緑「そよかぜ」60[青特攻+20]相手のセンターホロメンに特殊ダメージ10を与える。"
        "そしてこのホロメンのHPを10回復する。")
    assert cards["hTS01-004"]["colors"] == ["white", "green"]
    assert cards["hTS01-004"]["names"] == ["星森ミライ", "月島ソラ"]
    assert cards["hTS01-005"]["any_number"] == 1 and cards["hTS01-006"]["no_bloom"] == 1
    assert cards["hTS01-002"]["tags"] == ["#TS", "#歌", "#STAR LIGHT"]
    assert cards["hTS01-008"]["text"].count("\n") == 1 and "limited" not in cards["hTS01-008"]
    assert cards["hTS01-006"]["baton_touch"] == {"colorless": 1}  # the first printing's
    assert code == 1 and err.count("warning:") == 1
    assert "warning: card 'hTS01-006': a later printing in the list differs in baton_touch, text" in err


def test_the_fan_sim_database(tmp_path: Path) -> None:
    """A card the database has in English only is left out; extra names from the extra's text."""
    code, err, cards = imported(tmp_path, DATA / "hocg_small.json", "hocg_fan_sim")
    assert code == 0, err
    assert "hTS01-006" not in cards and len(cards) == 6
    assert cards["hTS01-002"]["names"] == ["星森ミライ", "月島ソラ"]
    assert cards["hTS01-002"]["tags"] == ["#TS", "#歌"]
    assert cards["hTS01-005"]["support_kind"] == "tool" and "limited" not in cards["hTS01-005"]


@pytest.mark.skipif(not CORPUS.is_file(), reason="the real card lists are not here")
def test_the_real_deck_editor_list_imports_without_errors(tmp_path: Path) -> None:
    """Every row imports: only located warnings (printings of one number the list writes differently),
    one card a number, and each block of a holomem's or oshi's text opens with its kind; an arts line
    has its cost, name and damage in the shape the phrase book reads."""
    code, err, cards = imported(tmp_path, CORPUS, "hololive_deckeditor")
    problems = [line for line in err.splitlines() if re.match(r".+:\d+:\d+: ", line)]
    assert problems and all(": warning: card " in line for line in problems), err
    assert len(cards) > 1000 and all(c["id"] == c["number"] for c in cards.values())
    blocks = [line for c in cards.values() if c["type"] in ("holomem", "oshi") for line in
              c.get("text", "").splitlines()]
    assert all(re.match(r"^\[(" + "|".join(KINDS) + r")\]", line) for line in blocks)
    arts = [line for line in blocks if line.startswith("[アーツ]")]
    assert len(arts) > 500 and sum(bool(ARTS.match(line)) for line in arts) >= len(arts) - 5
