"""Run many seeded games with random agents and aggregate what happened."""

from __future__ import annotations

import traceback
from collections import Counter
from typing import Any

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game, GameError
from interpreter.engine.invariants import InvariantError, check_invariants
from interpreter.loader.model import CardDef, Rulebook


def play_one(rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]], seed: int,
             *, invariants: bool = False, log: bool = False) -> Game:
    """One game with seeded random agents; raises GameError / InvariantError on a broken game."""
    g = Game(rb, cards, decks, seed=seed, log=log)
    agents = [RandomAgent(seed * 1000 + p + 1) for p in range(len(decks))]
    total = None
    while True:
        d = g.advance()
        if invariants:
            total = check_invariants(g, d, total)
        if d is None:
            break
        g.answer(agents[d.player].decide(d.for_agent(), g.view(d.player) if invariants else {}))
    return g


def simulate(rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]], games: int, seed: int,
             *, invariants: bool = False) -> dict[str, Any]:
    results: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    turns = decisions = completed = 0
    for i in range(games):
        s = seed + i
        try:
            g = play_one(rb, cards, decks, s, invariants=invariants)
        except (GameError, InvariantError, Exception) as e:  # noqa: BLE001 - every failure is reported
            errors.append({"seed": s, "error": f"{type(e).__name__}: {e}",
                           "where": traceback.format_exc(limit=3).splitlines()[-1]})
            continue
        r = g.state.result or {}
        if r:
            completed += 1
        key = "draw" if r.get("outcome") == "draw" else (f"P{r['winner'] + 1}" if r.get("winner") is not None
                                                         else "unfinished")
        results[key] += 1
        turns += g.state.turn
        decisions += g.state.decisions
    done = max(1, games - len(errors))
    return {"game": rb.id, "rules_version": rb.rules_version, "games": games, "seed": seed, "completed": completed,
            "errors": len(errors), "error_samples": errors[:5], "results": dict(sorted(results.items())),
            "mean_turns": round(turns / done, 2), "mean_decisions": round(decisions / done, 1)}
