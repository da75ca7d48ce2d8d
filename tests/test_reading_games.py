"""The shipped games read in plain English: every template, keyword, ability kind and event that the
card-text phrases of Love Live, Haikyu and OSICA produce has a reading in its rulebook, every ability of the
original-text corpora and sample cards reads without a fallback, and a few original texts read
exactly as a reviewer should see them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.loader.rulebook import load_rulebook
from interpreter.reading import Reader

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["lovelive", "haikyu", "osica", "hololive"]
"""Games with card-text phrases and an original corpus."""
READ_ALL = ["hololive", "osica"]
"""Games whose every template, keyword, ability kind, event and function has a reading."""
_RB: dict[str, Any] = {}


def rulebook(game: str) -> Any:
    if game not in _RB:
        _RB[game] = load_rulebook(game)
    return _RB[game]


def produced(rb: Any) -> set[tuple[str, str]]:
    """What the card-text phrases give: (section, id) of the templates called, keywords listed, ability
    kinds and trigger events; an id given through a slot (a phrase giving just an id) counts too."""
    out: set[tuple[str, str]] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, v in value.items():
                if key == "call" and isinstance(v, dict) and "template" in v:
                    out.add(("templates", str(v["template"])))
                elif key == "kind" and isinstance(v, str):
                    out.add(("ability_kinds", v))
                elif key == "keywords":
                    out.update(("keywords", str(k)) for k in (v if isinstance(v, list) else [v]) if "{" not in str(k))
                elif key == "trigger" and isinstance(v, dict) and "event" in v:
                    out.add(("events", str(v["event"])))
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value in rb.keywords:
            out.add(("keywords", value))

    for phrase in rb.card_text.phrases.values():
        walk(phrase.gives)
    return out


@pytest.mark.parametrize("game", sorted({*GAMES, *READ_ALL}))
def test_what_the_phrases_produce_has_a_reading(game: str) -> None:
    rb = rulebook(game)
    if rb.card_text is None:
        pytest.skip(f"{game} has no card-text phrases yet")
    entries = {"templates": {t["id"]: t for t in rb.raw.get("templates", [])},
               "keywords": rb.keywords, "events": rb.events,
               "ability_kinds": {k["id"]: k for k in rb.raw.get("ability_kinds", [])}}
    missing = sorted(f"{section} {eid}" for section, eid in produced(rb)
                     if not (entries[section].get(eid) or {}).get("reads"))
    assert not missing, f"{game}: give these a `reads:` in the rulebook: {missing}"


def _abilities(game: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    corpus = yaml.safe_load((ROOT / "tests" / "data" / "cardtext" / f"{game}.yaml").read_text(encoding="utf-8"))
    out += [(t["id"], t["expect"]) for t in corpus["texts"] if "expect" in t]
    sample = yaml.safe_load((ROOT / "cards" / game / "sample.yaml").read_text(encoding="utf-8"))
    out += [(f"{c['id']}#{k + 1}", a) for c in sample["cards"] for k, a in enumerate(c.get("abilities") or [])]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_corpus_and_sample_ability_reads_without_a_fallback(game: str) -> None:
    reader = Reader(rulebook(game))
    lacking = {}
    for where, ability in _abilities(game):
        reading = reader.ability(ability)
        if reading.missing or "`" in reading.text:
            lacking[where] = reading.missing
    assert not lacking, lacking


@pytest.mark.parametrize("game", READ_ALL)
def test_every_entry_has_a_reading_and_the_sample_cards_read_without_a_fallback(game: str) -> None:
    """hololive and OSICA read in plain English before their phrase books: every template, keyword,
    ability kind, event and function of the rulebook says how it reads, and so every ability of the
    sample cards reads without an id in backticks."""
    rb = rulebook(game)
    entries = {"templates": rb.raw.get("templates", []), "keywords": list(rb.keywords.values()),
               "events": list(rb.events.values()), "ability_kinds": rb.raw.get("ability_kinds", []),
               "functions": rb.raw.get("functions", [])}
    missing = sorted(f"{section} {e['id']}" for section, items in entries.items() for e in items
                     if isinstance(e, dict) and not e.get("reads"))
    assert not missing, f"{game}: give these a `reads:` in the rulebook: {missing}"
    reader = Reader(rb)
    sample = yaml.safe_load((ROOT / "cards" / game / "sample.yaml").read_text(encoding="utf-8"))
    lacking = {f"{c['id']}#{k + 1}": reading.text for c in sample["cards"]
               for k, a in enumerate(c.get("abilities") or [])
               for reading in [reader.ability(a)] if reading.missing or "`" in reading.text}
    assert not lacking, lacking


# Original texts of tests/data/cardtext (invented names), each with what a reviewer reads beside it.
EXPECTED = {
    ("lovelive", "LLT-003"): "Automatic ability, when this member enters the stage. Cost (optional): choose 1 "
                             "of your hand, called chosen; put chosen into the waiting room, called discarded;"
                             " let did = chosen is not empty. Effect: look at the top 4 cards of your main "
                             "deck; let seen = the top 4 cards of your main deck; choose 1 of seen where it is"
                             " in its owner's main deck, called chosen; put chosen into the hand, called "
                             "added; let did = chosen is not empty; put seen where it is in its owner's main "
                             "deck into the waiting room.",
    ("lovelive", "LLT-019"): "Automatic ability, when this member enters the stage. Effect: choose 1 of the "
                             "members on the opponent's stage where it has a cost and its cost is at most 4, "
                             "called chosen; make chosen wait; let did = chosen is not empty.",
    ("lovelive", "LLT-024"): "Activated ability, only while this member is in the center area, "
                             "once per turn. Cost: pay 1 energy. Effect: choose 1 of the members"
                             " on your stage where (“スターライトナイン” is in its groups or “スターライトナイン” "
                             "is in its units), called chosen; for each changing of chosen: move"
                             " changing to another member area (a member there takes the area it"
                             " left); let did = chosen is not empty.",
    ("lovelive", "LLT-028"): "Automatic ability, when this member enters the stage or when your live starts. "
                             "Effect: draw 1 card; choose 1 of your hand, called chosen; put chosen into the "
                             "waiting room, called discarded; let did = chosen is not empty.",
    ("lovelive", "LLT-046"): "Automatic ability, when this member enters the stage. Effect: draw 2 cards; have"
                             " the opponent draw 1 card.",
    ("lovelive", "LLT-054"): "Continuous ability. Effect: give this card +2 blades, while the members on your "
                             "stage where it has the name “星森あおい” is not empty.",
    ("lovelive", "LLT-112"): "Automatic ability, when this member enters the stage. Effect: "
                             "choose 1 of the members on your stage where (“スターライトナイン” is in its"
                             " groups or “スターライトナイン” is in its units), called chosen; until end "
                             "of live, give chosen the ability “Continuous ability. Effect: give"
                             " you +1 live score.”.",
    ("haikyu", "HKT-026"): "Active skill, usable in the serve phase, only while this character is in the "
                           "serve area. Cost (optional): usable only if the guts under this card is not "
                           "empty; choose X from 1 to the number of the guts under this card; choose x of "
                           "the guts under this card, called paid; put paid into the drop area. Effect: let "
                           "that char = this card; until cleanup, give that char +x serve point.",
    ("haikyu", "HKT-053"): "Passive skill, only while this character is in the attack area, when this card "
                           "appears. Effect: let wanted = 1; choose 1 of your hand, called done; put done "
                           "into the drop area; if you did it: (let that char = this card; until cleanup, "
                           "give that char +3 attack point); if you did not do it: draw 1 card.",
    ("haikyu", "HKT-063"): "Passive skill, only while this card is in your hand, when a player declares an offense "
                           "point, if the event's player is not you and the event's value is at least 8. Effect: draw "
                           "1 card.",
    ("osica", "OST-002"): "Automatic ability, when this card enters your stage or assist area. Cost (optional): "
                          "pay 2 cost. Effect: choose 1 of the opponent's characters, called chosen; put chosen "
                          "into the drop area.",
    ("osica", "OST-017"): "Automatic ability, Cheer, when this card appeals. Cost (optional): show the opponent 2 "
                          "cards with Cheer from your hand. Effect: this card cheers.",
    ("osica", "OST-034"): "Automatic ability, only while your stage and assist area hold 2 or more cards named "
                          "“霧島レン”, when this card enters your stage or assist area. Effect (optional): gain 1 "
                          "cost.",
    ("osica", "OST-071"): "Activated ability, used in the event phase, once a turn for this card and this text. "
                          "Cost: pay 1 cost. Effect: choose 1 of your characters, called chosen; until end of turn, "
                          "give chosen the ability “Continuous ability, Through: the opponent's texts cannot choose "
                          "this card.”.",
    ("haikyu", "HKT-080"): "Event skill. Cost: play this card (reveal it and put it on the event area). Effect: choose "
                           "1 of the opponent's characters where it can be chosen by effects, called target; put the "
                           "target at the bottom of its owner's deck.",
}


@pytest.mark.parametrize("game,case", sorted(EXPECTED))
def test_original_texts_read_exactly(game: str, case: str) -> None:
    ability = dict(_abilities(game))[case]
    reading = Reader(rulebook(game)).ability(ability)
    assert reading.text == EXPECTED[(game, case)]
    assert reading.missing == []
