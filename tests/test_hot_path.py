"""Play stays on the compiled structures: once a rulebook and its cards are loaded, a game parses
no YAML, checks no schema, builds or reads no graph and deep-copies nothing.

Those are load-time tools (the loader validates with jsonschema, builds the turn structure as a
networkx graph to check it); the game itself runs on plain records and closures. Each tool is
replaced by a trap that raises, games are played through, and a last test shows the traps do
spring (loading a rulebook under them fails), so a pass means something.

One use of networkx during play is legitimate and rare: continuous effects that depend on each
other are put in order by a topological sort (derive/continuous.py). No sample game has such
effects; a card pool that brings them would spring the graph trap here, and that sort is then the
one exemption to make.
"""

from __future__ import annotations

import copy
import random

import networkx as nx
import pytest
import yaml
from jsonschema import Draft202012Validator

from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.sim import play_one

TITLES = ["lovelive", "haikyu"]


class Sprung(AssertionError):
    """A load-time tool was used while a game was being played."""


def _trap(what: str):
    def sprung(*args, **kwargs):
        raise Sprung(f"{what} was used during play")

    return sprung


class _GraphTrap:
    """Stands in for the turn structure's networkx graph: any use of it raises."""

    def __getattr__(self, name: str):
        raise Sprung(f"the turn structure's networkx graph was read during play (.{name})")

    def __iter__(self):
        raise Sprung("the turn structure's networkx graph was iterated during play")

    def __contains__(self, item):
        raise Sprung("the turn structure's networkx graph was searched during play")


@pytest.fixture
def traps(monkeypatch):
    def arm(rb=None):
        monkeypatch.setattr(yaml.SafeLoader, "__init__", _trap("a YAML parser"))
        for method in ("iter_errors", "validate", "is_valid"):
            monkeypatch.setattr(Draft202012Validator, method, _trap(f"a JSON Schema check ({method})"))
        monkeypatch.setattr(nx.DiGraph, "__init__", _trap("a new networkx graph"))
        monkeypatch.setattr(copy, "deepcopy", _trap("copy.deepcopy"))
        if rb is not None:
            monkeypatch.setattr(rb.graph, "g", _GraphTrap())

    return arm


@pytest.mark.parametrize("title", TITLES)
def test_games_use_only_compiled_structures(title, traps):
    rb, cards, decks = load_game_env(title, None)
    traps(rb)
    for seed in range(1, 9):
        g = play_one(rb, cards, decks, seed, invariants=True)
        assert g.state.result is not None, f"seed {seed} did not finish"


@pytest.mark.parametrize("title", TITLES)
def test_forks_and_state_copies_use_only_compiled_structures(title, traps):
    rb, cards, decks = load_game_env(title, None)
    traps(rb)
    g = Game(rb, cards, decks, seed=5, log=False)
    rng = random.Random(5)
    n = 0
    while (d := g.advance()) is not None:
        g.state.copy()
        g.fork()
        g.answer(rng.sample(d.ids(), rng.randint(d.min, d.max)))
        n += 1
    assert g.state.result is not None and n >= 5


def test_the_traps_spring(traps):
    """Loading uses every trapped tool, so under the traps it must fail."""
    from interpreter.loader.rulebook import load_rulebook

    traps()
    with pytest.raises(Sprung):
        load_rulebook("lovelive")
    with pytest.raises(Sprung):
        copy.deepcopy({"a": [1]})
    with pytest.raises(Sprung):
        nx.DiGraph()
