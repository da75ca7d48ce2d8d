"""The search agent and the worlds it pictures: `Game.imagine` shows a player no more than they
see, the agent's answers cannot depend on hidden cards, and searching beats random play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from cli_run import run

from interpreter.agents import MonteCarloAgent, RandomAgent, ask
from interpreter.cli.setup import load_game_env
from interpreter.engine.determinize import deck_zones
from interpreter.engine.game import Game
from interpreter.sim import play_one
from interpreter.state.errors import GameError
from interpreter.table.views import can_see


@pytest.fixture(scope="module", params=["lovelive", "haikyu"])
def env(request):
    return load_game_env(request.param, None)


def games_at_play_timings(env, seed: int, count: int):
    """Random games stopped at their first `count` play timings with a choice, one Game each."""
    rb, cards, decks = env
    out = []
    for k in range(count):
        g = Game(rb, cards, decks, seed=seed, log=False)
        rng = random.Random(seed)
        seen = 0
        while (d := g.advance()) is not None:
            if g.imaginable() and len(d.ids()) > 1:
                if seen == k:
                    out.append(g)
                    break
                seen += 1
            g.answer(rng.sample(d.ids(), rng.randint(d.min, d.max)))
    return out


def hidden_pools(g: Game, player: int) -> Counter:
    """(owner, deck zone, card id) of every card `player` cannot see."""
    pools = deck_zones(g.decks)
    return Counter((o.owner, pools.get((o.owner, o.card_id)), o.card_id)
                   for o in g.state.objects.values() if not can_see(g, o, player))


def test_an_imagined_world_keeps_what_the_player_sees_and_redeals_the_rest(env):
    changed = 0
    for g in games_at_play_timings(env, 7, 4):
        p = g.advance().player
        before = g.state.fingerprint()
        for seed in range(3):
            w = g.imagine(p, seed)
            assert w.view(p) == g.view(p)  # the player cannot tell the world from the game
            assert hidden_pools(w, p) == hidden_pools(g, p)  # the same cards, each from its own deck zone
            assert w.advance().ids() == g.advance().ids()  # the same decision, asked again
            changed += any(w.state.objects[i].card_id != o.card_id for i, o in g.state.objects.items())
        assert g.state.fingerprint() == before  # the game itself is untouched
    assert changed  # hidden cards did move about


def test_an_imagined_world_plays_on_as_a_game(env):
    g = games_at_play_timings(env, 3, 1)[0]
    w = g.imagine(g.advance().player, 11)
    rng = random.Random(1)
    while (d := w.advance()) is not None:
        w.answer(rng.sample(d.ids(), rng.randint(d.min, d.max)))
    assert w.state.result is not None
    assert w.entries == []  # worlds keep no log


def test_imagine_only_at_a_play_timing(env):
    rb, cards, decks = env
    g = Game(rb, cards, decks, seed=5, log=False)
    rng = random.Random(5)
    while (d := g.advance()) is not None and g.imaginable():
        g.answer(rng.sample(d.ids(), rng.randint(d.min, d.max)))
    assert d is not None and not g.imaginable()
    with pytest.raises(GameError, match="not a play timing"):
        g.imagine(d.player, 1)


def test_the_search_agent_cannot_read_hidden_cards(env):
    """Two games a player cannot tell apart (a game and a world imagined from it) give that
    player the same worlds, and so the same answers from a search agent seeded alike."""
    for g in games_at_play_timings(env, 21, 3):
        d = g.advance()
        twin = g.imagine(d.player, 1234)
        assert twin.state.fingerprint() != g.state.fingerprint() or not hidden_pools(g, d.player)
        for seed in (1, 2):
            assert (g.imagine(d.player, seed).state.fingerprint()
                    == twin.imagine(d.player, seed).state.fingerprint())
        a = MonteCarloAgent(seed=9, rollouts=2, horizon=60)
        b = MonteCarloAgent(seed=9, rollouts=2, horizon=60)
        assert a.decide_in(g, d) == b.decide_in(twin, twin.advance())


def test_the_search_agent_asks_only_legal_answers_and_falls_back_off_play_timings(env):
    rb, cards, decks = env
    g = Game(rb, cards, decks, seed=2, log=False)
    agents = [MonteCarloAgent(seed=1, rollouts=1, horizon=40), RandomAgent(2)]
    searched = 0
    for _ in range(40):
        d = g.advance()
        if d is None:
            break
        before = agents[0].playouts
        g.answer(ask(agents[d.player], g, d))  # an illegal answer would raise IllegalAnswer
        if d.player == 0:
            searched += agents[0].playouts > before
            if agents[0].playouts > before:
                assert g.answers[-1] and agents[0].playouts - before == len(d.ids())
    assert searched


def test_searching_beats_random_play():
    """Haikyu, the same 30 seeds: P1 searching (4 worlds per option) wins far more often than
    P1 playing at random (seat for seat, deck for deck)."""
    rb, cards, decks = load_game_env("haikyu", None)

    def p1_wins(agents: tuple[str, str]) -> int:
        return sum((play_one(rb, cards, decks, s, agents=agents).state.result or {}).get("winner") == 0
                   for s in range(1, 31))

    searching, random_play = p1_wins(("mc:4", "random")), p1_wins(("random", "random"))
    assert searching >= random_play + 8, (searching, random_play)


def test_a_searched_game_is_deterministic_and_replays(tmp_path):
    saved = str(tmp_path / "r.jsonl")
    first = run("play", "haikyu", "--seed", "4", "--agents", "mc:2,random", "--save-replay", saved)
    again = run("play", "haikyu", "--seed", "4", "--agents", "mc:2,random")
    assert first[0] == 0 and first[1] == again[1]
    code, _, err = run("replay", saved)
    assert code == 0 and "reproduced" in err and "matches" in err


def test_cli_plays_and_simulates_with_the_search_agent():
    code, out, _ = run("play", "haikyu", "--seed", "3", "--agents", "mc:2,random")
    assert code == 0 and out.splitlines()[-1].startswith("result: ")
    code, out, _ = run("simulate", "haikyu", "-n", "3", "--workers", "1", "--agents", "mc:2,random", "--json")
    assert code == 0 and '"completed": 3' in out
    for bad, message in (("mc:0,random", "at least 1"), ("mc,random,random", "need 2 agents"),
                         ("smart,random", "unknown agent 'smart'")):
        code, _, err = run("play", "haikyu", "--agents", bad)
        assert code == 2 and message in err, err
    code, _, err = run("simulate", "haikyu", "-n", "1", "--agents", "human,random")
    assert code == 2 and "sogo play" in err


@pytest.mark.parametrize(("fmt", "players"), [("rumble", 3), ("double_team", 4)])
def test_the_search_agent_plays_formats_of_more_players(fmt, players):
    """N seats: the agent plays a whole game (imagined worlds for a seat of three or four), and in a
    team format it pictures its teammate's hand as it is (teammates see each other's cards)."""
    rb, cards, decks = load_game_env("rebirth", None, players, fmt)
    agents = [MonteCarloAgent(seed=5, rollouts=2)] + [RandomAgent(seed=s) for s in range(players - 1)]
    g = Game(rb, cards, decks, seed=4, log=False)
    while (d := g.advance()) is not None:
        if d.player == 0 and g.imaginable() and fmt == "double_team":
            world = g.imagine(0, seed=1)
            mate = [g.state.objects[i].card_id for i in g.state.zones[("hand", 2)]]
            foe = [g.state.objects[i].card_id for i in g.state.zones[("hand", 1)]]
            assert [world.state.objects[i].card_id for i in world.state.zones[("hand", 2)]] == mate
            imagined_foe = [world.state.objects[i].card_id for i in world.state.zones[("hand", 1)]]
            assert len(imagined_foe) == len(foe)
        g.answer(ask(agents[d.player], g, d))
    assert g.state.result is not None
