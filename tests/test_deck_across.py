"""Deck rules over several decks counted together, on the toy rulebook with a one-card lead deck in its
pile beside its deck: at most 2 of the same card (the same number without its variant letter, or the
same code, carried through) and every card of one work (`deck_construction.max_copies` and
`same_value`); errors at the deck file's entry of a card involved; `without_trailing_letters`; and the
fuzzer's deck strategy drawing only legal decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_fuzz import DeckPool, legal_deck
from toy_engine import toy_variant

from interpreter.loader.cards import check_deck, load_deck
from interpreter.loader.decks import same_card_groups
from interpreter.loader.diagnostics import LoadError
from interpreter.table.functions import f_without_trailing_letters, f_without_variant_suffix

FIELDS = ("common_fields:\n", "common_fields:\n  - {id: number, type: string, rules: [\"2\"]}\n"
          "  - {id: code, type: string, rules: [\"2\"]}\n  - {id: work, type: string, rules: [\"2\"]}\n")
LEAD = ("  decks:\n", "  max_copies:\n    id: two_of_the_same\n    rules: [\"2\"]\n    decks: [lead, deck]\n"
        "    same: [\"without_trailing_letters(it.number)\", \"it.code\"]\n    max: 2\n"
        "  same_value: {id: one_work, rules: [\"2\"], decks: [lead, deck], value: \"it.work\"}\n"
        "  decks:\n    - id: lead\n      rules: [\"2\"]\n      zone: pile\n      counts:\n"
        "        - {id: one_lead, rules: [\"2\"], where: true, exactly: 1}\n")

CARDS = """game: toy
cards:
  - {id: X-1, type: unit, name: One, power: 1, tags: [red], number: T-001, code: C1, work: A}
  - {id: X-1A, type: unit, name: One, power: 1, tags: [red], number: T-001a, code: C9, work: A}
  - {id: X-2, type: unit, name: Two, power: 1, tags: [red], number: T-002, code: C9, work: A}
  - {id: X-3, type: unit, name: Three, power: 1, tags: [red], number: T-003, code: C3, work: A}
  - {id: X-4, type: unit, name: Four, power: 1, tags: [red], number: T-004, work: A}
  - {id: Y-1, type: unit, name: Other, power: 1, tags: [red], number: T-100, code: C100, work: B}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("across"), replace=(FIELDS, LEAD), cards=CARDS)


def test_the_rules_are_compiled(env: tuple[Any, Any]) -> None:
    rb, _ = env
    assert rb.same_card.zones == ("pile", "deck") and rb.same_card.most == 2 and len(rb.same_card.keys) == 2
    assert rb.same_value.zones == ("pile", "deck") and rb.same_value.source == "it.work"


def test_copies_count_across_decks(env: tuple[Any, Any]) -> None:
    rb, cards = env
    assert check_deck(rb, cards, {"pile": ["X-1"], "deck": ["X-1A", "X-3", "X-3", "X-4"]}) == []
    assert check_deck(rb, cards, {"pile": ["X-3"], "deck": ["X-1", "X-3", "X-3", "X-4"]}) == [
        ("deck", "deck construction two_of_the_same (2): at most 2 copies of the same card in pile, deck, "
                 "found 3: X-3 x3 (pile, deck)")]


def test_sameness_carries_through(env: tuple[Any, Any]) -> None:
    rb, cards = env
    # X-1 and X-1A share a number (its variant letter ignored), X-1A and X-2 a code: one card, 3 copies.
    assert check_deck(rb, cards, {"pile": ["X-1"], "deck": ["X-1A", "X-2", "X-3", "X-4"]}) == [
        ("deck", "deck construction two_of_the_same (2): at most 2 copies of the same card in pile, deck, "
                 "found 3: X-1 (pile), X-1A (deck), X-2 (deck)")]
    # Without X-1A, X-1 and X-2 share nothing.
    assert check_deck(rb, cards, {"pile": ["X-1"], "deck": ["X-2", "X-2", "X-3", "X-4"]}) == []


def test_every_card_of_one_work(env: tuple[Any, Any]) -> None:
    rb, cards = env
    assert check_deck(rb, cards, {"pile": ["Y-1"], "deck": ["X-1", "X-3", "X-4", "X-2"]}) == [
        ("pile", "deck construction one_work (2): every card of pile, deck must have the same it.work; found "
                 "'A': X-1 (deck), X-3 (deck), X-4 (deck), X-2 (deck); 'B': Y-1 (pile)")]


def test_errors_are_at_the_entry_of_a_card_involved(env: tuple[Any, Any], tmp_path: Path) -> None:
    rb, cards = env
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: toy\ndecks:\n  pile:\n    - {card: X-3}\n  deck:\n    - {card: X-1}\n"
                    "    - {card: X-3, count: 2}\n    - {card: Y-1}\n", encoding="utf-8")
    with pytest.raises(LoadError) as e:
        load_deck(rb, cards, deck)
    found = {(d.line, d.col, d.message.split(":")[0]) for d in e.value.diagnostics}
    assert found == {(7, 7, "deck construction two_of_the_same (2)"), (8, 7, "deck construction one_work (2)")}


def test_unknown_decks_are_located_errors(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(FIELDS, (LEAD[0], LEAD[1].replace("[lead, deck]\n", "[lead, dek]\n"))),
                    cards=CARDS)
    assert "all.yaml:77:19:" in str(e.value) and "unknown deck 'dek' (decks: lead, deck)" in str(e.value)


def test_without_trailing_letters() -> None:
    assert [f_without_trailing_letters(None, x) for x in ("AB-012a", "AB-012", "AB-012ｂ", "12", None)] == [
        "AB-012", "AB-012", "AB-012", "12", None]


def test_without_variant_suffix() -> None:
    cases = ("AB-012-R", "AB-012-R＋", "AB-P-001-PR", "AB-012", "AB-M01", "AB-01２-P", "X", "-R", None)
    assert [f_without_variant_suffix(None, x, "-") for x in cases] == [
        "AB-012", "AB-012", "AB-P-001", "AB-012", "AB-M01", "AB-01２", "X", "-R", None]


def test_same_card_groups_union_find() -> None:
    keys = (lambda c: c["n"], lambda c: c["k"])
    cards = {"a": {"n": 1, "k": "x"}, "b": {"n": 2, "k": "y"}, "c": {"n": 1, "k": "y"}, "d": {"n": 3, "k": None}}
    assert same_card_groups(cards, keys, cards.__getitem__) == {"a": "a", "b": "a", "c": "a", "d": "d"}


def test_the_fuzzer_draws_legal_decks(env: tuple[Any, Any]) -> None:
    rb, cards = env

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(deck=legal_deck(DeckPool(rb, cards)))
    def draw(deck: dict[str, list[str]]) -> None:
        assert check_deck(rb, cards, deck) == []

    draw()
