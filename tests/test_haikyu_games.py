"""Haikyu!! VabaCa!! BREAK beyond the random games every title gets (tests/test_random_games.py):
games by an eager agent that always appears characters and never gives up a rally, so the deeper
parts of a turn (receive, toss, attack, skills, jumps) are played too, plus deck and card checks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants

GAMES = 200


@pytest.fixture(scope="module")
def haikyu():
    from interpreter.cli.setup import load_game_env

    return load_game_env("haikyu", None)


class EagerAgent:
    """Random, except that it appears as many characters as it may and never declares lost itself."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, d, view):
        ids = d.ids()
        if d.kind == "play":
            return [self.rng.choice([i for i in ids if i != "declare_lost"])]
        if d.kind == "one":
            return [self.rng.choice([i for i in ids if i != "do_not_use"] or ids)]
        k = d.max if d.prompt in ("appear_character", "appear_blocker") else self.rng.randint(d.min, d.max)
        return self.rng.sample(ids, k)


def play_eager(rb, cards, decks, seed):
    g = Game(rb, cards, decks, seed=seed, log=True)
    agents = [EagerAgent(seed * 10 + 1), EagerAgent(seed * 10 + 2)]
    total = None
    while True:
        d = g.advance()
        total = check_invariants(g, d, total)
        if d is None:
            return g
        g.answer(agents[d.player].decide(d.for_agent(), g.view(d.player)))


def test_eager_games_reach_every_part_of_a_turn(haikyu):
    rb, cards, decks = haikyu
    seen: Counter[str] = Counter()
    sets = Counter()
    for seed in range(60):
        g = play_eager(rb, cards, decks, seed)
        assert g.state.result and g.state.result["outcome"] in ("win", "draw")
        sets[g.state.vars["sets_played"]] += 1
        for e in g.entries:
            for key in ("(serve)", "(block)", "(attack)", "receive judge", "block judge", "two attack",
                        "block phase is skipped", "is skipped", "is replaced", "a delayed trigger resolves",
                        "declares lost", "wins the game"):
                if key in e.text:
                    seen[key] += 1
    assert all(seen[k] > 0 for k in ("(serve)", "(block)", "(attack)", "receive judge", "block judge",
                                     "two attack", "block phase is skipped", "is skipped", "is replaced",
                                     "a delayed trigger resolves")), seen
    # A game lasts three to five sets (1-2-2-1).
    assert set(sets) <= {3, 4, 5}, sets


def test_reprints_carry_the_reference_information(haikyu):
    # 10-3-1: printings of one card number take the information of the first rarity in the list.
    rb, cards, _ = haikyu
    order = rb.enums["rarity"]
    by_number: dict[str, list] = {}
    for c in cards.values():
        by_number.setdefault(c.fields["number"], []).append(c)
    reprinted = [v for v in by_number.values() if len(v) > 1]
    assert reprinted, "the sample pool has a reprint"
    for printings in reprinted:
        ref = min(printings, key=lambda c: order.index(c.fields["rarity"]))
        for c in printings:
            game_info = {k: v for k, v in c.fields.items() if k != "rarity"}
            assert game_info == {k: v for k, v in ref.fields.items() if k != "rarity"}, c.id
            assert [a.effect for a in c.abilities] == [a.effect for a in ref.abilities] or \
                [a.text for a in c.abilities] == [a.text for a in ref.abilities], c.id


def test_sample_cards_use_every_keyword_and_skill_kind(haikyu):
    rb, cards, _ = haikyu
    import yaml

    text = (rb.directory.parent.parent / "cards" / "haikyu" / "sample.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    kinds = {a["kind"] for c in data["cards"] for a in c.get("abilities", [])}
    assert kinds == {"permanent", "passive", "active", "event"}
    for template in ("doshatto", "one_touch", "feint", "block_out", "turn_1", "a_pass", "two_attack"):
        assert f"template: {template}" in text, template
    for verb in ("skip:", "replacement:", "delayed_trigger:", "move_on_court"):
        assert verb in text, verb


def test_enough_haikyu_scenarios_each_citing_rules():
    from pathlib import Path

    import yaml

    files = sorted((Path(__file__).parent / "scenarios" / "haikyu").glob("*.yaml"))
    assert len(files) >= 40
    for f in files:
        sc = yaml.safe_load(f.read_text(encoding="utf-8"))
        assert sc.get("rulebook") == "haikyu" and sc.get("rules"), f.name


def test_deck_construction_forty_cards_at_most_eight_events(haikyu, tmp_path):
    # 4-1-2: exactly 40 cards with at most 8 event cards, checked as data when a deck is loaded.
    from interpreter.loader.cards import load_deck
    from interpreter.loader.diagnostics import LoadError

    rb, cards, _ = haikyu

    def deck(entries):
        p = tmp_path / "deck-x.yaml"
        body = "\n".join(f"    - {{card: {c}, count: {n}}}" for c, n in entries)
        p.write_text(f"game: haikyu\ndecks:\n  deck_area:\n{body}\n", encoding="utf-8")
        return p

    assert len(load_deck(rb, cards, deck([("SGH-020", 32), ("SGH-E01", 8)]))["deck_area"]) == 40
    with pytest.raises(LoadError) as e:
        load_deck(rb, cards, deck([("SGH-020", 31), ("SGH-E01", 9)]))
    assert any("at most 8" in d.message for d in e.value.diagnostics)
    with pytest.raises(LoadError) as e:
        load_deck(rb, cards, deck([("SGH-020", 33), ("SGH-E01", 8)]))
    assert any("exactly 40" in d.message for d in e.value.diagnostics)
