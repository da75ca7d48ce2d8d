"""Fuzzing: random legal decks and seeds, played through by random agents with the invariants
checked after every step, for every game that has a card pool under cards/<game>/.

Decks are drawn from the game's card pool by the game's own construction rules, read from the
compiled rulebook (`rb.deck_rules`: exact counts and bounds by condition, and a copy limit), and
each drawn deck is confirmed legal by `check_deck`. Hypothesis is derandomized, so every run plays
the same games; a failure prints the decks and seed that reproduce it.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, reject, settings
from hypothesis import strategies as st

from interpreter.loader.cards import CardEnv, check_deck, load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook
from interpreter.sim import play_one

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.name for p in (ROOT / "cards").iterdir() if p.is_dir() and (ROOT / "rulebooks" / p.name).is_dir())
REQUIRED = {"lovelive"}
"""Games whose rulebook and cards must load; any other game is fuzzed once it loads."""
EXAMPLES = int(os.environ.get("SOGO_FUZZ_EXAMPLES", "100"))
"""Games played per rulebook (each with two fresh random decks and a fresh seed); a longer campaign
sets SOGO_FUZZ_EXAMPLES."""
EXTRA_MAX = 5
"""Cards beyond the exact counts, when the rules leave room (only bounds, or cards no count covers)."""

PLAYED: Counter[str] = Counter()
"""Games played to the end with every invariant holding, per rulebook."""
DECISIONS: Counter[str] = Counter()


def _env(game: str) -> tuple[Any, Any]:
    try:
        rb = load_rulebook(game)
        cards = load_cards(rb, [ROOT / "cards" / rb.id])  # a versioned rulebook (game@1.02) plays the game's cards
    except LoadError as e:
        if game in REQUIRED:
            raise
        pytest.skip(f"{game} does not load yet: {e.diagnostics[0]}")
    return rb, cards


@st.composite
def legal_zone(draw: Any, rule: Any, cards: dict[str, Any]) -> list[str]:
    """One deck zone drawn card by card so that every exact count, bound and copy limit holds."""
    pool = sorted(cards)
    exact = [(where, n) for _cid, _rules, where, n in rule.counts]
    bounds = [(where, low, high) for _cid, _rules, where, low, high in rule.bounds]
    in_exact = {c: [bool(w(CardEnv(cards[c]))) for w, _ in exact] for c in pool}
    in_bound = {c: [bool(w(CardEnv(cards[c]))) for w, _, _ in bounds] for c in pool}
    have_exact = [0] * len(exact)
    have_bound = [0] * len(bounds)
    copies: Counter[str] = Counter()
    by, most = (rule.max_copies[2], rule.max_copies[3]) if rule.max_copies else ("id", None)
    ids: list[str] = []

    def key(c: str) -> str:
        return c if by == "id" else str(cards[c].fields.get(by, c))

    def fits(c: str) -> bool:
        if any(m and have >= n for m, have, (_, n) in zip(in_exact[c], have_exact, exact, strict=True)):
            return False
        if any(m and high is not None and have >= high
               for m, have, (_, _, high) in zip(in_bound[c], have_bound, bounds, strict=True)):
            return False
        return most is None or copies[key(c)] < most

    def add(options: list[str]) -> None:
        if not options:
            reject()  # the greedy choice painted itself into a corner: try other draws
        c = draw(st.sampled_from(options))
        ids.append(c)
        copies[key(c)] += 1
        for i, m in enumerate(in_exact[c]):
            have_exact[i] += m
        for i, m in enumerate(in_bound[c]):
            have_bound[i] += m

    for i, (_, n) in enumerate(exact):
        while have_exact[i] < n:
            add([c for c in pool if in_exact[c][i] and fits(c)])
    for i, (_, low, _) in enumerate(bounds):
        while low is not None and have_bound[i] < low:
            add([c for c in pool if in_bound[c][i] and fits(c)])
    for _ in range(draw(st.integers(0, EXTRA_MAX))):
        free = [c for c in pool if fits(c)]
        if not free:
            break
        add(free)
    return ids


def legal_decks(rb: Any, cards: dict[str, Any]) -> Any:
    """A legal deck (every deck zone of the game) for each player."""
    players = int(rb.raw.get("players", {}).get("count", 2))
    deck = st.fixed_dictionaries({rule.zone: legal_zone(rule, cards) for rule in rb.deck_rules})
    return st.lists(deck, min_size=players, max_size=players)


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_decks_keep_invariants(game: str, capsys: pytest.CaptureFixture[str]):
    rb, cards = _env(game)
    assert rb.deck_rules, f"{game} has no deck construction rules to draw decks from"

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(decks=legal_decks(rb, cards), seed=st.integers(0, 2**32 - 1))
    def play(decks: list[dict[str, list[str]]], seed: int) -> None:
        for deck in decks:
            assert check_deck(rb, cards, deck) == [], "the strategy drew an illegal deck"
        note(f"seed={seed} decks={decks}")
        g = play_one(rb, cards, decks, seed, invariants=True)  # invariants after every step
        assert g.state.result is not None
        PLAYED[game] += 1
        DECISIONS[game] += g.state.decisions

    start = time.perf_counter()
    play()
    seconds = time.perf_counter() - start
    assert PLAYED[game] == EXAMPLES, f"played {PLAYED[game]} of {EXAMPLES} games"
    with capsys.disabled():
        print(f"\nfuzz {game}: {PLAYED[game]} random legal deck pairs x seeds played to the end, "
              f"{DECISIONS[game]} decisions, invariants checked after every step, {seconds:.1f} s")


def test_fuzz_volume(capsys: pytest.CaptureFixture[str]):
    """Runs after the games: the total volume is examples x games (games that load)."""
    if not PLAYED:
        pytest.skip("the fuzz games did not run in this session (deselected)")
    assert all(n == EXAMPLES for n in PLAYED.values()), dict(PLAYED)
    with capsys.disabled():
        print(f"\nfuzz volume: {sum(PLAYED.values())} games = {EXAMPLES} examples x {len(PLAYED)} rulebooks "
              f"({', '.join(sorted(PLAYED))}), {sum(DECISIONS.values())} decisions")
