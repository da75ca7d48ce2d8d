"""Forks for search agents: a fork plays on exactly as the original would, and never touches it."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.state.decisions import Decision
from interpreter.state.errors import GameError
from interpreter.state.objects import GameObject


class Answers:
    """A seeded random answer stream that can be cloned (so a fork and its original agree)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def clone(self) -> Answers:
        out = Answers(0)
        out.rng.setstate(self.rng.getstate())
        return out

    def __call__(self, d: Decision) -> list[str]:
        return self.rng.sample(d.ids(), self.rng.randint(d.min, d.max))


def play(g: Game, answers: Answers) -> None:
    while (d := g.advance()) is not None:
        g.answer(answers(d))


def summary(g: Game) -> tuple[str, int, list[str], dict | None]:
    return g.state.fingerprint(), g.state.decisions, [e.text for e in g.entries], g.state.result


@pytest.fixture(scope="module", params=["lovelive", "haikyu"])
def env(request: pytest.FixtureRequest) -> tuple:
    return load_game_env(request.param, None)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("checkpoints", [None, False])
def test_fork_plays_on_like_the_original(env: tuple, seed: int, checkpoints: bool | None) -> None:
    """Forks at every play timing and at other decisions (all of them, or every 7th); there a fork
    starts from the last play timing kept (checkpoints, on from the first fork) or replays the game
    from the start (checkpoints off)."""
    rb, cards, decks = env
    ref = Game(rb, cards, decks, seed)
    play(ref, Answers(seed))
    g = Game(rb, cards, decks, seed)
    g.checkpoints = checkpoints
    answers = Answers(seed)
    kinds = {"restart": 0, "checkpoint": 0, "replay": 0}
    n = 0
    while (d := g.advance()) is not None:
        n += 1
        restart = g.resume_at is not None
        if restart or checkpoints is None or n % 7 == 0:
            kinds["restart" if restart else "checkpoint" if g._checkpoint is not None else "replay"] += 1
            fork = g.fork()
            assert fork.advance() is not None and fork.advance().ids() == d.ids()
            assert fork.state.decisions == g.state.decisions and fork.answers == g.answers
            play(fork, answers.clone())
            assert summary(fork) == summary(ref)
            assert fork._checkpoint is None  # playing a fork out keeps no checkpoints
        g.answer(answers(d))
    assert summary(g) == summary(ref)  # playing the forks changed nothing in the original
    assert kinds["restart"] > 0
    if checkpoints is None:
        assert kinds["checkpoint"] > 0
    else:
        assert kinds["replay"] > 0 and kinds["checkpoint"] == 0


def test_fork_is_independent(env: tuple) -> None:
    rb, cards, decks = env
    g = Game(rb, cards, decks, 5, log=False)
    answers = Answers(5)
    while (d := g.advance()) is not None and g.resume_at is None:
        g.answer(answers(d))
    assert d is not None
    before = g.state.fingerprint(), g.state.decisions, [o.id for o in d.options]
    fork = g.fork()
    play(fork, Answers(99))
    assert fork.state.result is not None
    assert (g.state.fingerprint(), g.state.decisions, [o.id for o in g.advance().options]) == before
    # a fork of a fork, too
    again = g.fork().fork()
    play(again, answers.clone())
    play(g, answers)
    assert again.state.fingerprint() == g.state.fingerprint()


def test_state_copy_shares_nothing_mutable(env: tuple) -> None:
    rb, cards, decks = env
    g = Game(rb, cards, decks, 3, log=False)
    answers = Answers(3)
    for _ in range(30):
        d = g.advance()
        if d is None:
            break
        g.answer(answers(d))
    st = g.state
    cp = st.copy()
    assert cp.fingerprint() == st.fingerprint()
    assert not {id(o) for o in cp.objects.values()} & {id(o) for o in st.objects.values()}
    assert all(cp.zones[k] is not st.zones[k] for k in st.zones)
    assert cp.rng.random() == st.rng.random()  # same chance from here on, separately drawn
    obj = next(iter(cp.objects.values()))
    for s in obj.states:
        obj.states[s] = "changed"
    cp.zones[(obj.zone, obj.zone_player)].clear()
    cp.roles.clear()
    assert cp.fingerprint() != st.fingerprint()
    assert st.fingerprint() == g.state.fingerprint()
    for p in cp.pending:  # cards in pending events are the copy's own
        for v in p.event.values():
            if hasattr(v, "oid") and v.oid in cp.objects:
                assert v is cp.objects[v.oid]


def test_fork_needs_a_pending_decision(env: tuple) -> None:
    rb, cards, decks = env
    g = Game(rb, cards, decks, 1, log=False)
    with pytest.raises(GameError, match="no decision is pending"):
        g.fork()
    play(g, Answers(1))
    with pytest.raises(GameError, match="no decision is pending"):
        g.fork()


def test_scenario_game_forks_away_from_play_timings() -> None:
    """A game started mid-turn cannot replay from the start; from its last play timing it can."""
    from interpreter.loader.yaml_safe import load_yaml
    from interpreter.scenarios.runner import _env, build_game

    sc, _ = load_yaml(Path(__file__).parent / "scenarios" / "lovelive" / "baton_touch.yaml")
    rb, cards = _env(sc["rulebook"], [])
    g = build_game(sc, rb, cards)
    d = g.advance()
    assert d is not None and g.resume_at is not None  # the main phase's play timing
    g.fork()  # from here on the game keeps its last play timing
    g.answer([next(o.id for o in d.options if o.id.startswith("play_member"))])
    d = g.advance()
    assert d is not None and g.resume_at is None  # choosing an area: not a play timing
    fork = g.fork()
    assert fork.advance().ids() == d.ids()
    for game in (g, fork):
        while (d := game.advance()) is not None:
            game.answer([d.options[0].id])
    assert summary(fork) == summary(g)


def test_card_equality_is_field_by_field() -> None:
    """GameObject writes its own `__eq__` (compiled, stops at the id): a copy is equal, and a
    difference in any one field, including one added later, makes two cards unequal."""
    def card() -> GameObject:
        return GameObject(7, "c1", 0, 0, "hand", 0, {"face": "up"}, 3, 1, None, {"x": 1}, {"m": 2}, {0},
                          None, None, None)

    base = card()
    assert base == card() and base == base and not base != card()
    assert base != "c1" and base != None  # noqa: E711 - comparing with other types is plain inequality
    for f in dataclasses.fields(GameObject):
        other = card()
        value = getattr(other, f.name)
        changed = {dict: lambda v: {**v, "new": 0}, set: lambda v: v | {5}, str: lambda v: v + "'",
                   int: lambda v: v + 1}.get(type(value), lambda v: 99)(value)
        setattr(other, f.name, changed)
        assert base != other and not base == other, f"a different {f.name} left two cards equal"
