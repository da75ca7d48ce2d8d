"""`sogo cards review` and `sogo card`: each ability's printed text beside how it reads in plain English,
with its status (compiled, hand-written, partial; pinned or changed since), on the shipped sample cards
and the toy card-text cards; JSON for tools; a terminal table; located errors for bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.cardtext.review import review_file, summary
from interpreter.loader.rulebook import load_rulebook
from tests.cli_run import run

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "data" / "toy"
TOY_CARDS = ROOT / "tests" / "data" / "cardtext_toy" / "cards.yaml"


def test_review_of_the_sample_cards() -> None:
    code, out, err = run("cards", "review", "lovelive", str(ROOT / "cards" / "lovelive" / "sample.yaml"))
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index(next(x for x in lines if x.startswith("SGL-M08 Mei Kurosawa (")))
    assert lines[at + 1].startswith("  1. [hand-written] ") and lines[at + 1].endswith("sample.yaml:134:9")
    assert lines[at + 2] == "     printed: 【登場】〔E〕支払ってもよい：カードを２枚引き、手札を１枚控え室に置く。"
    assert lines[at + 3] == ("     reads:   Automatic ability, when this member enters the stage. Cost (optional): pay "
                             "1 energy. Effect: draw 2 cards; choose 1 of your hand, called chosen; put chosen into "
                             "the waiting room, called discarded; let did = chosen is not empty.")
    assert lines[-1] == "20 abilities: 0 compiled, 20 hand-written, 0 partial, 0 none; 0 pinned, 0 changed, 20 unpinned"
    assert "`" not in out  # every ability of the samples has a reading
    code, out, err = run("cards", "review", "haikyu", str(ROOT / "cards" / "haikyu" / "sample.yaml"), "--format",
                         "json")
    assert code == 0, err
    report = json.loads(out)
    card = next(c for c in report["cards"] if c["id"] == "SGH-002")
    assert card["abilities"] == [{
        "index": 1, "line": card["abilities"][0]["line"], "col": 9, "printed": "[=ドシャット(3)]",
        "reading": "Passive skill, Doshatto: at the end of the turn you blocked, while this is one of your block "
                   "characters. Effect: Doshatto 3: make your offense point 3.",
        "origin": "hand-written", "pin": "unpinned", "missing": [], "todo": []}]
    assert report["summary"]["missing_readings"] == {}


@pytest.fixture
def toy_cards(tmp_path: Path) -> Path:
    """The toy card-text cards, compiled: one compiled card, one written by hand, one not compilable."""
    p = tmp_path / "cards.yaml"
    shutil.copy(TOY_CARDS, p)
    run("cards", "compile", str(TOY), str(p), "--write")
    return p


def test_statuses_fallbacks_and_only(toy_cards: Path) -> None:
    code, out, err = run("cards", "review", str(TOY), str(toy_cards), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    by_card = {c["id"]: c["abilities"] for c in report["cards"]}
    ping, hand, todo = by_card["T-PING"], by_card["T-HAND"], by_card["T-TODO"]
    assert [(a["origin"], a["pin"]) for a in ping] == [("compiled", "pinned"), ("compiled", "pinned")]
    # the toy rulebook gives its kinds and keywords no reading: their ids are shown in backticks and listed
    assert ping[0]["reading"] == "`reflex`, `on_ping`. Effect: set pinged to 2."
    assert ping[0]["missing"] == ["ability kind 'reflex'", "keyword 'on_ping'"]
    assert (hand[0]["origin"], hand[0]["pin"]) == ("hand-written", "unpinned")
    assert hand[0]["printed"] == "【合図】相手は負ける。"
    assert (todo[0]["origin"], todo[0]["reading"], todo[0]["todo"]) == ("partial", None, ["相手は1点を失う。"])
    assert report["summary"]["origin"] == {"compiled": 2, "hand-written": 1, "partial": 1, "none": 0}
    assert report["summary"]["missing_readings"]["keyword 'on_ping'"] == 2
    # --only todo: what is not written yet; --only changed: what changed since it was pinned (an errata)
    code, out, _ = run("cards", "review", str(TOY), str(toy_cards), "--only", "todo")
    assert code == 0 and "T-PING" not in out and "T-TODO Todo (" in out
    assert "     not written: no phrase reads 「相手は1点を失う。」" in out
    assert "4 abilities (1 shown): 2 compiled, 1 hand-written, 1 partial, 0 none" in out
    assert "readings missing (shown in `backticks`" in out and "     2  keyword 'on_ping'" in out
    code, out, _ = run("cards", "review", str(TOY), str(toy_cards), "--only", "changed")
    assert code == 0 and "T-PING" not in out
    toy_cards.write_text(toy_cards.read_text(encoding="utf-8").replace("合図数を2にする。\n", "合図数を3にする。\n", 1),
                         encoding="utf-8")
    code, out, _ = run("cards", "review", str(TOY), str(toy_cards), "--only", "changed")
    assert code == 0 and "  1. [compiled, changed] " in out and "printed: {{ping.png|合図}}合図数を3にする。" in out
    assert "reads:   `reflex`, `on_ping`. Effect: set pinged to 2." in out  # the ability still does what was pinned


def test_bad_input_is_located(tmp_path: Path, toy_cards: Path) -> None:
    code, out, err = run("cards", "review", str(TOY), str(tmp_path / "nosuch.yaml"))
    assert code == 1 and err == f"{tmp_path / 'nosuch.yaml'}:1:1: no such card file\n"
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: toy\ndecks:\n  main: []\n", encoding="utf-8")
    code, out, err = run("cards", "review", str(TOY), str(deck))
    assert code == 1 and err == f"{deck}:1:1: expected a card file: a mapping with 'game' and a list of 'cards'\n"
    code, out, err = run("cards", "review", "lovelive", str(toy_cards))
    assert code == 1 and err == f"{toy_cards}:2:7: a card file of game 'toy', not 'lovelive'\n"
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: toy\ncards: [\n", encoding="utf-8")
    code, out, err = run("cards", "review", str(TOY), str(broken), str(toy_cards))
    assert code == 1 and err.startswith(f"{broken}:") and "YAML syntax error" in err
    assert "T-PING Pinger (" in out  # the good file is still reviewed


def test_a_terminal_gets_a_table(capsys: pytest.CaptureFixture[str], toy_cards: Path) -> None:
    from interpreter.cli.cards_cmd import _review_table

    cards = review_file(load_rulebook(str(TOY)), toy_cards)
    _review_table(cards, "all", summary(cards))
    out = capsys.readouterr().out
    assert "printed text" in out and "reads as" in out and "status" in out
    assert "T-PING Pinger" in out and "set pinged to 2." in out and "compiled, pinned" in out


def test_card_shows_how_each_ability_reads() -> None:
    code, out, err = run("card", "lovelive", "SGL-M03")
    assert code == 0, err
    assert ("    reads: Activated ability, only while this member is in the center area, once per turn. Cost: make "
            "this card wait. Effect: draw 1 card.") in out.splitlines()
