"""Fuzzing: random legal decks and seeds, played through by random agents with the invariants
checked after every step, for every game that has a card pool under cards/<game>/.

Decks are drawn from the game's card pool by the game's own construction rules, read from the
compiled rulebook (`rb.deck_rules`: exact counts and bounds by condition, and a copy limit; and the
rules over several decks, `rb.same_card`, `rb.same_value` and `rb.set_relations`), and
each drawn deck is confirmed legal by `check_deck`. Hypothesis is derandomized, so every run plays
the same games; a failure prints the decks and seed that reproduce it.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, note, reject, settings
from hypothesis import strategies as st

from interpreter.loader.cards import CardEnv, check_deck, load_cards
from interpreter.loader.decks import as_set, holds, reference_set, same_card_groups
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
FORMAT_EXAMPLES = max(1, EXAMPLES // 4)
"""Games played per format of a rulebook (three or more seats play slower; each format edits a
rulebook fuzzed in full above)."""
EXTRA_MAX = 5
"""Cards beyond the exact counts, when the rules leave room (only bounds, or cards no count covers)."""

FUZZ_PROPERTY = "fuzz_games"
"""Each fuzz test records [rulebook, games played to the end with every invariant holding, decisions]
under this name; conftest.py prints the volume at the end of the session."""


def _env(game: str, fmt: str | None = None) -> tuple[Any, Any]:
    try:
        rb = load_rulebook(game, fmt=fmt)
        cards = load_cards(rb, [ROOT / "cards" / rb.id])  # a versioned rulebook (game@1.02) plays the game's cards
    except LoadError as e:
        if game in REQUIRED:
            raise
        pytest.skip(f"{game} does not load yet: {e.diagnostics[0]}")
    return rb, cards


class Shared:
    """What the rules over several decks share while one player's decks are drawn zone by zone
    (`rb.same_card`, `rb.same_value`): each card's same-card group over the whole pool (a group over
    the pool holds every group a deck could form, so keeping it under the limit keeps the deck
    legal), the copies drawn per group, and the pool the shared value leaves."""

    def __init__(self, rb: Any, cards: dict[str, Any], value: Any = None) -> None:
        limit, same = rb.same_card, rb.same_value
        self.limit_zones = set(limit.zones) if limit else set()
        self.most = limit.most if limit else None
        self.free = {c: bool(limit.unlimited(CardEnv(cards[c]))) if limit and limit.unlimited else False
                     for c in cards}
        self.group = same_card_groups(sorted(c for c in cards if not self.free[c]), limit.keys,
                                      lambda c: CardEnv(cards[c])) if limit else {}
        self.copies: Counter[str] = Counter()
        self.value_zones = set(same.zones) if same else set()
        self.allowed = {c for c in cards if same is None or same.value(CardEnv(cards[c])) == value}


def _value(c: Any) -> str:
    return repr(c)


@st.composite
def legal_zone(draw: Any, rule: Any, cards: dict[str, Any], shared: Shared | None = None,
               keep: set[str] | None = None) -> list[str]:
    """One deck zone drawn card by card so that every exact count, bound and copy limit holds (and,
    given `shared`, the rules over several decks; given `keep`, only those cards)."""
    pool = sorted(cards) if keep is None else sorted(keep)
    if shared is not None and rule.zone in shared.value_zones:
        pool = [c for c in pool if c in shared.allowed]
    across = shared is not None and rule.zone in shared.limit_zones
    exact = [(where, n) for _cid, _rules, where, n in rule.counts]
    bounds = [(where, low, high) for _cid, _rules, where, low, high in rule.bounds]
    in_exact = {c: [bool(w(CardEnv(cards[c]))) for w, _ in exact] for c in pool}
    in_bound = {c: [bool(w(CardEnv(cards[c]))) for w, _, _ in bounds] for c in pool}
    have_exact = [0] * len(exact)
    have_bound = [0] * len(bounds)
    copies: Counter[str] = Counter()
    by, most = (rule.max_copies[2], rule.max_copies[3]) if rule.max_copies else ("id", None)
    unlimited = rule.max_copies[4] if rule.max_copies else None  # the cards the limit does not apply to
    free = {c: unlimited is not None and bool(unlimited(CardEnv(cards[c]))) for c in pool}
    ids: list[str] = []

    def key(c: str) -> str:
        return c if by == "id" else str(cards[c].fields.get(by, c))

    def fits(c: str) -> bool:
        if any(m and have >= n for m, have, (_, n) in zip(in_exact[c], have_exact, exact, strict=True)):
            return False
        if any(m and high is not None and have >= high
               for m, have, (_, _, high) in zip(in_bound[c], have_bound, bounds, strict=True)):
            return False
        if across and shared is not None and not shared.free[c] and shared.most is not None \
                and shared.copies[shared.group[c]] >= shared.most:
            return False
        return most is None or free[c] or copies[key(c)] < most

    def add(options: list[str]) -> None:
        if not options:
            reject()  # the greedy choice painted itself into a corner: try other draws
        c = draw(st.sampled_from(options))
        ids.append(c)
        if not free[c]:
            copies[key(c)] += 1
        if across and shared is not None and not shared.free[c]:
            shared.copies[shared.group[c]] += 1
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
        free_now = [c for c in pool if fits(c)]
        if not free_now:
            break
        add(free_now)
    return ids


class DeckPool:
    """A rulebook and its card pool, as a strategy's argument with a short repr (hypothesis shows
    the arguments of a strategy, and a whole rulebook's repr is huge)."""

    def __init__(self, rb: Any, cards: dict[str, Any]) -> None:
        self.rb, self.cards = rb, cards

    def __repr__(self) -> str:
        return f"DeckPool({self.rb.id}, {len(self.cards)} cards)"


@st.composite
def legal_deck(draw: Any, pool: DeckPool) -> dict[str, list[str]]:
    """Every deck zone of the game for one player: the shared value (`rb.same_value`) drawn first
    among the pool's values, then each zone in turn, sharing the copies of the same card."""
    rb, cards = pool.rb, pool.cards
    value = None
    if rb.same_value is not None:
        values = sorted({rb.same_value.value(CardEnv(cards[c])) for c in cards}, key=_value)
        value = draw(st.sampled_from(values))
    shared = Shared(rb, cards, value) if rb.same_card is not None or rb.same_value is not None else None
    # The decks a set relation compares with (a leader) are drawn first; then each deck it checks keeps
    # only the cards whose set stands in the relation to theirs (`rb.set_relations`).
    designated = {z for rel in rb.set_relations for z in rel.of}
    out: dict[str, list[str]] = {}
    for rule in sorted(rb.deck_rules, key=lambda r: r.zone not in designated):
        keep = set(cards)
        for rel in rb.set_relations:
            theirs = reference_set(rel, cards, out, CardEnv) if rule.zone in rel.zones else None
            if theirs is not None:
                keep = {c for c in keep if holds(rel.relation, as_set(rel.value(CardEnv(cards[c]))), set(theirs))}
        out[rule.zone] = draw(legal_zone(rule, cards, shared, keep))
    return {rule.zone: out[rule.zone] for rule in rb.deck_rules}


def legal_decks(rb: Any, cards: dict[str, Any]) -> Any:
    """A legal deck (every deck zone of the game) for each player."""
    players = int(rb.raw.get("players", {}).get("count", 2))
    return st.lists(legal_deck(DeckPool(rb, cards)), min_size=players, max_size=players)


def _formats(game: str) -> list[str]:
    """The formats a game's rulebook lists (read as written: the fuzz of the rulebook reports load errors)."""
    head = ROOT / "rulebooks" / game / "rulebook.yaml"
    data = yaml.safe_load(head.read_text(encoding="utf-8")) if head.is_file() else None
    return [str(f) for f in (data or {}).get("formats") or []]


CASES = [(g, None) for g in GAMES] + [(g, f) for g in GAMES for f in _formats(g)]


@pytest.mark.parametrize(("game", "fmt"), CASES, ids=lambda v: str(v) if v else "")
def test_random_legal_decks_keep_invariants(game: str, fmt: str | None,
                                            record_property: Callable[[str, object], None]):
    rb, cards = _env(game, fmt)
    assert rb.deck_rules, f"{game} has no deck construction rules to draw decks from"
    key = f"{game}:{fmt}" if fmt else game
    examples = FORMAT_EXAMPLES if fmt else EXAMPLES
    played = Counter[str]()

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(decks=legal_decks(rb, cards), seed=st.integers(0, 2**32 - 1))
    def play(decks: list[dict[str, list[str]]], seed: int) -> None:
        for deck in decks:
            assert check_deck(rb, cards, deck) == [], "the strategy drew an illegal deck"
        note(f"seed={seed} decks={decks}")
        g = play_one(rb, cards, decks, seed, invariants=True)  # invariants after every step
        assert g.state.result is not None
        played["games"] += 1
        played["decisions"] += g.state.decisions

    play()
    assert played["games"] == examples, f"played {played['games']} of {examples} games"
    # The session's closing summary (conftest.py) adds these up over every worker's tests.
    record_property(FUZZ_PROPERTY, [key, played["games"], played["decisions"]])
