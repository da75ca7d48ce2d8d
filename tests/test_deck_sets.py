"""Deck rules comparing sets (`deck_construction.set_relations`): every card of a deck gives a set that
must be a subset of, share a value with, or share none with the set a designated card gives (each
main-deck card's colours among the leader's). On the toy rulebook with a one-card lead deck in its pile:
the relations, errors at the deck file's entry of the card that breaks one, nothing checked while the
lead deck is empty, located load errors, and the fuzzer's deck strategy drawing only legal decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_fuzz import DeckPool, legal_deck
from toy_engine import toy_variant

from interpreter.loader.cards import check_deck, load_deck
from interpreter.loader.diagnostics import LoadError


def rules(relation: str, extra: str = "") -> tuple[tuple[str, str], ...]:
    return (("  decks:\n", "  set_relations:\n    - id: tags_of_the_lead\n      rules: [\"2\"]\n"
                           f"      decks: [deck]\n      value: \"it.tags\"\n      relation: {relation}\n"
                           f"      of: lead\n{extra}"
                           "  decks:\n    - id: lead\n      rules: [\"2\"]\n      zone: pile\n      counts:\n"
                           "        - {id: one_lead, rules: [\"2\"], where: true, exactly: 1}\n"),)


CARDS = """game: toy
cards:
  - {id: S-RED, type: unit, name: Red, power: 1, tags: [red]}
  - {id: S-BLUE, type: unit, name: Blue, power: 1, tags: [blue]}
  - {id: S-BOTH, type: unit, name: Both, power: 1, tags: [red, blue]}
  - {id: S-NONE, type: unit, name: None, power: 1}
"""


def env_of(tmp: pytest.TempPathFactory, relation: str) -> tuple[Any, Any]:
    return toy_variant(tmp.mktemp(relation), replace=rules(relation), cards=CARDS)


@pytest.fixture(scope="module")
def subset(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return env_of(tmp_path_factory, "subset_of")


def test_the_rule_is_compiled(subset: tuple[Any, Any]) -> None:
    rb, _ = subset
    (rel,) = rb.set_relations
    assert (rel.id, rel.zones, rel.relation, rel.of, rel.source) == ("tags_of_the_lead", ("deck",), "subset_of",
                                                                       ("pile",), "it.tags")


def test_subset_of_the_lead(subset: tuple[Any, Any]) -> None:
    rb, cards = subset
    assert check_deck(rb, cards, {"pile": ["S-RED"], "deck": ["S-RED", "S-RED", "S-NONE", "S-RED"]}) == []
    assert check_deck(rb, cards, {"pile": ["S-BOTH"], "deck": ["S-RED", "S-BLUE", "S-NONE", "S-RED"]}) == []
    assert check_deck(rb, cards, {"pile": ["S-BOTH"], "deck": ["S-RED", "S-BOTH", "S-NONE", "S-RED"]}) == []
    assert check_deck(rb, cards, {"pile": ["S-RED"], "deck": ["S-RED", "S-BOTH", "S-RED", "S-RED"]}) == [
        ("deck", "deck construction tags_of_the_lead (2): every card of deck must have its it.tags among those "
                 "of pile (red); S-BOTH has red, blue")]
    assert check_deck(rb, cards, {"pile": ["S-BLUE"], "deck": ["S-RED", "S-RED", "S-NONE", "S-RED"]}) == [
        ("deck", "deck construction tags_of_the_lead (2): every card of deck must have its it.tags among those "
                 "of pile (blue); S-RED has red")]  # one problem for the card, however many copies


def test_nothing_is_compared_without_a_lead(subset: tuple[Any, Any]) -> None:
    rb, cards = subset
    assert check_deck(rb, cards, {"pile": [], "deck": ["S-RED", "S-BOTH", "S-NONE", "S-RED"]}) == [
        ("pile", "deck construction one_lead (2): pile must have exactly 1 matching cards, has 0")]


def test_intersects_and_disjoint_from(tmp_path_factory: pytest.TempPathFactory) -> None:
    rb, cards = env_of(tmp_path_factory, "intersects")
    assert check_deck(rb, cards, {"pile": ["S-RED"], "deck": ["S-RED", "S-BOTH", "S-RED", "S-RED"]}) == []
    assert check_deck(rb, cards, {"pile": ["S-RED"], "deck": ["S-RED", "S-NONE", "S-BLUE", "S-RED"]}) == [
        ("deck", "deck construction tags_of_the_lead (2): every card of deck must have a it.tags of pile (red); "
                 "S-NONE has none"),
        ("deck", "deck construction tags_of_the_lead (2): every card of deck must have a it.tags of pile (red); "
                 "S-BLUE has blue")]
    rb, cards = env_of(tmp_path_factory, "disjoint_from")
    assert check_deck(rb, cards, {"pile": ["S-BLUE"], "deck": ["S-RED", "S-NONE", "S-RED", "S-RED"]}) == []
    assert check_deck(rb, cards, {"pile": ["S-BLUE"], "deck": ["S-RED", "S-BOTH", "S-RED", "S-RED"]}) == [
        ("deck", "deck construction tags_of_the_lead (2): every card of deck must have no it.tags of pile (blue); "
                 "S-BOTH has red, blue")]


def test_errors_are_at_the_entry_of_the_card(subset: tuple[Any, Any], tmp_path: Path) -> None:
    rb, cards = subset
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: toy\ndecks:\n  pile:\n    - {card: S-RED}\n  deck:\n    - {card: S-RED, count: 2}\n"
                    "    - {card: S-NONE}\n    - {card: S-BOTH}\n", encoding="utf-8")
    with pytest.raises(LoadError) as e:
        load_deck(rb, cards, deck)
    (d,) = e.value.diagnostics
    assert (d.line, d.col) == (8, 7) and d.message.startswith("deck construction tags_of_the_lead (2)")
    assert d.message.endswith("S-BOTH has red, blue")


@pytest.mark.parametrize(("edit", "message"), [
    (("      of: lead\n", "      of: leed\n"), "all.yaml:77:11: unknown deck 'leed' (decks: lead, deck)"),
    (("      of: lead\n", "      of: [lead, dek]\n"), "all.yaml:77:18: unknown deck 'dek' (decks: lead, deck)"),
    (("      relation: subset_of\n", "      relation: subset\n"),
     "all.yaml:76:17: expected one of 'subset_of', 'intersects', 'disjoint_from', got string 'subset'"),
    (("      value: \"it.tags\"\n", "      value: \"it.tags +\"\n"), "all.yaml:75:24: in expression 'it.tags +'"),
])
def test_located_load_errors(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(*rules("subset_of"), edit), cards=CARDS)
    assert message in str(e.value)


def test_the_fuzzer_draws_legal_decks(subset: tuple[Any, Any]) -> None:
    rb, cards = subset

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(deck=legal_deck(DeckPool(rb, cards)))
    def draw(deck: dict[str, list[str]]) -> None:
        assert check_deck(rb, cards, deck) == []

    draw()
