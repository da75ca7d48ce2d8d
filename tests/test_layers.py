"""The engine's packages form layers: each imports only the packages below it, so there is no import
circle among them (docs/architecture.md, "Layers").

The graph is read from the sources (tests/import_graph.py): every import counts, at module level,
inside a function or for types only. The allowed direction is the data below; an import against it
fails with the file and line that makes it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from import_graph import ROOT, Import, graph, imports, package

ALLOWED: dict[str, set[str]] = {
    "state": set(),  # plain data: the game state, decisions, log entries, errors, the engine's events
    "expr": set(),  # the expression language
    "model": {"state", "expr"},  # the compiled rulebook's records and the vocabulary of verbs
    "table": {"state", "expr", "model"},  # a game as expressions read it: contexts, functions, attributes
    "loader": {"state", "expr", "model", "table"},  # builds the compiled rulebook: nothing of the engine
    "derive": {"state", "expr", "model", "table"},  # derived facts: continuous values, triggers, idle bindings
    "timing": {"state", "expr", "model", "table", "derive"},  # procedures, moves, events, effects, outcomes
    "verbs": {"state", "expr", "model", "table", "derive", "timing"},  # the verbs' implementations
    "engine": {"state", "expr", "model", "table", "derive", "timing", "verbs", "loader"},  # the game driver
}
"""Each engine package and the packages it may import. Agents, the CLI, scenarios, the simulator
and the other tools sit above all of them and may import any."""

LEAVES: dict[str, set[str]] = {
    "loader": {"interpreter.locations", "interpreter.cardtext", "interpreter.cardtext.normalize",
               "interpreter.cardtext.grammar", "interpreter.cardtext.compiler"},
}
"""Modules of other packages an engine package may import: each imports nothing of the interpreter
but the others listed here, so no circle can pass through them (the card-text tools of
interpreter/cardtext use the loader; its text normalisation, phrase grammar and phrase compiler,
which the loader uses for a rulebook's printed phrases and its cards' text, do not)."""


def violations(edges: list[Import]) -> list[str]:
    """Every import by an engine package against ALLOWED, with where it is written."""
    out = []
    for e in edges:
        src, dst = package(e.source), package(e.target)
        if src not in ALLOWED or src == dst or dst in ALLOWED.get(src, set()):
            continue
        if e.target in LEAVES.get(src, set()):
            continue
        path = e.source.replace(".", "/") + (".py" if (ROOT / (e.source.replace(".", "/") + ".py")).is_file()
                                             else "/__init__.py")
        how = " (inside a function)" if e.deferred else " (for types only)" if e.type_only else ""
        allowed = ", ".join(sorted(ALLOWED[src])) or "nothing of the interpreter"
        out.append(f"{path}:{e.line}: {src} imports {e.target}{how}; {src} may import {allowed}")
    return out


def test_the_allowed_directions_have_no_circle() -> None:
    g = nx.DiGraph([(a, b) for a, bs in ALLOWED.items() for b in bs])
    assert nx.is_directed_acyclic_graph(g), list(nx.simple_cycles(g))


def test_every_engine_package_is_listed() -> None:
    present = {package(m) for m in (e.source for e in imports())}
    engine = {"state", "expr", "model", "table", "loader", "derive", "timing", "verbs", "engine"}
    assert engine <= present and set(ALLOWED) == engine


def test_engine_packages_import_only_downwards() -> None:
    found = violations(imports())
    assert not found, "imports against the layers (tests/test_layers.py, ALLOWED):\n" + "\n".join(found)


def test_no_circle_among_the_engine_packages() -> None:
    g = graph(imports())
    engine = g.subgraph(ALLOWED)
    circles = list(nx.simple_cycles(engine))
    assert not circles, circles


def test_the_leaves_import_nothing_but_each_other() -> None:
    edges = imports()
    for leaves in LEAVES.values():
        for e in edges:
            if e.source in leaves:
                assert e.target in leaves, f"{e.source}:{e.line} imports {e.target}: not a leaf any more"


@pytest.mark.parametrize("edge, expected", [
    (Import("interpreter.timing.moves", "interpreter.engine.game", 3, False, True), "timing imports interpreter.eng"),
    (Import("interpreter.loader.compile", "interpreter.verbs.registry", 9, True, False), "loader imports"),
    (Import("interpreter.derive.play", "interpreter.loader.graph", 5, False, False), "derive imports"),
])
def test_an_upward_import_is_reported(edge: Import, expected: str) -> None:
    (found,) = violations([edge])
    assert expected in found and f":{edge.line}:" in found


def test_loading_a_rulebook_imports_nothing_of_the_engine() -> None:
    """The loader compiles a rulebook and its cards against the vocabulary alone: none of the
    engine's derivations, procedures, verbs or driver is imported (their steps find their verbs'
    implementations when a game runs)."""
    probe = ("import sys\n"
             "from interpreter.cli.setup import load_game_env\n"
             "from interpreter.loader.rulebook import known_rulebooks\n"
             "for game in known_rulebooks():\n"
             "    load_game_env(game, None)\n"
             "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('interpreter.')}))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    loaded = set(eval(run.stdout))  # noqa: S307 - our own probe's list of names
    assert not loaded & {"derive", "timing", "verbs", "engine"}, loaded


def test_a_game_binds_every_verb() -> None:
    from interpreter.engine.game import Game  # noqa: F401 - importing the driver binds the verbs
    from interpreter.model.vocabulary import VERBS

    unbound = [name for name, spec in VERBS.items() if not spec.doc]
    assert not unbound, f"verbs declared in interpreter/model/vocabulary.py without an implementation: {unbound}"


def test_the_import_graph_sees_every_module() -> None:
    assert all(Path(ROOT, e.source.replace(".", "/")).with_suffix(".py").is_file()
               or Path(ROOT, e.source.replace(".", "/"), "__init__.py").is_file() for e in imports())
