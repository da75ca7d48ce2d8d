"""Each game's card-text corpus (tests/data/cardtext/GAME.yaml): original card texts in the official
phrasing style, each compiled by the rulebook's phrases and compared with the ability it must give
(which must also load as an ability of a card of `card_type`, whose other fields come from the
file's `card_fields`), or with the fragments that must be reported unmatched."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.cardtext.compiler import compile_ability_text
from interpreter.loader.rulebook import load_rulebook
from tests.cli_run import run

CORPUS = Path(__file__).resolve().parent / "data" / "cardtext"
GAMES = sorted(p.stem for p in CORPUS.glob("*.yaml")) if CORPUS.is_dir() else []
_RB: dict[str, Any] = {}


def rulebook(game: str) -> Any:
    if game not in _RB:
        _RB[game] = load_rulebook(game)
    return _RB[game]


def corpus(game: str) -> dict[str, Any]:
    return yaml.safe_load((CORPUS / f"{game}.yaml").read_text(encoding="utf-8"))


def entries(game: str) -> list[dict[str, Any]]:
    return corpus(game)["texts"]


CASES = [(g, e["id"]) for g in GAMES for e in entries(g)]


@pytest.mark.parametrize("game,case", CASES)
def test_text_compiles_to_expected(game: str, case: str, tmp_path: Path) -> None:
    entry = next(e for e in entries(game) if e["id"] == case)
    rb = rulebook(game)
    compiled = compile_ability_text(rb.card_text, entry["text"])
    if "unmatched" in entry:
        assert compiled.ability is None, f"{case} should not compile fully, gave {compiled.ability}"
        assert [f.text for f in compiled.unmatched] == entry["unmatched"]
        return
    assert compiled.error is None, compiled.error
    assert compiled.unmatched == [], [f.text for f in compiled.unmatched]
    assert compiled.ability == entry["expect"]
    # The compiled ability is a valid ability of a card of this game.
    ctype = entry["card_type"]
    card = {"id": "T-1", "type": ctype, **corpus(game)["card_fields"][ctype], "abilities": [compiled.ability]}
    if set(compiled.ability) == {"fields"}:  # a line of card information: the card has what it states
        card.update(copy.deepcopy(compiled.ability["fields"]))
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump({"game": rb.id, "cards": [card]}, allow_unicode=True), encoding="utf-8")
    from interpreter.loader.cards import load_cards

    load_cards(rb, [path])


@pytest.mark.parametrize("game", GAMES)
def test_corpus_size_and_ids(game: str) -> None:
    """At least 60 texts that compile and some that must be reported, ids unique."""
    es = entries(game)
    assert len({e["id"] for e in es}) == len(es)
    assert sum(1 for e in es if "expect" in e) >= 60
    assert sum(1 for e in es if "unmatched" in e) >= 3


@pytest.mark.parametrize("game", GAMES)
def test_stats_count_the_corpus(game: str) -> None:
    """`sogo cards stats GAME CORPUS` reads a corpus as cards of one text each: at least 90% of each
    game's corpus compiles fully, and what must be reported is."""
    code, out, err = run("cards", "stats", game, str(CORPUS / f"{game}.yaml"), "--json")
    assert code == 0, err
    report = json.loads(out)
    es = entries(game)
    assert report["abilities_total"] == len(es)
    assert report["abilities"]["full"] == sum(1 for e in es if "expect" in e)
    assert report["full_share"] >= 0.9
