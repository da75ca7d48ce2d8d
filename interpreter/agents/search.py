"""A search agent: flat Monte Carlo over worlds its player may picture.

At a play timing (pick an action or pass) it tries every option in `rollouts` imagined worlds
(`Game.imagine`: the cards hidden from its player re-dealt, the future's chance unknown), plays
each try out with random agents and takes the option that won most often; ties go to the option
listed first. Every option meets the same worlds and the same random play-outs (common random
numbers), so options are compared on equal luck. Other decisions (a choice inside an effect, a
cost) are answered at random, from the agent's own generator.

It reads the game only through `Game.imagine`, so it never uses what its player cannot see: two
games that differ only in hidden cards get the same answers (`tests/test_search_agent.py`).
Its cost is a measure of what state copies cost a search: `rollouts` x options forks and
play-outs per play timing.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from interpreter.agents.base import RandomAgent
from interpreter.state.decisions import Decision
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.objects import winners_of

if TYPE_CHECKING:
    from interpreter.engine.game import Game

DRAW, UNFINISHED = 0.5, 0.5  # a play-out with no winner, or none within the horizon, scores half


class MonteCarloAgent:
    """Searches at play timings; `rollouts` worlds per option, play-outs of at most `horizon` decisions."""

    def __init__(self, seed: int = 0, rollouts: int = 8, horizon: int = 1000) -> None:
        if rollouts < 1:
            raise ValueError("a Monte Carlo agent needs at least 1 rollout per option")
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.fallback = RandomAgent(self.rng.getrandbits(32))
        self.playouts = 0  # play-outs run so far (for figures)

    def decide_in(self, game: Game, decision: Decision) -> list[str]:
        ids = decision.ids()
        if len(ids) < 2 or not game.imaginable():
            return self.fallback.decide(decision.for_agent(), {})
        seeds = [self.rng.getrandbits(64) for _ in range(self.rollouts)]
        best, best_score = ids[0], -1.0
        for oid in ids:
            score = sum(self._playout(game, decision.player, oid, s) for s in seeds)
            if score > best_score:
                best, best_score = oid, score
        return [best]

    def _playout(self, game: Game, player: int, option: str, seed: int) -> float:
        """One try: answer `option` in a world picked by `seed`, then random play to the end."""
        self.playouts += 1
        world = game.imagine(player, seed)
        agents = [RandomAgent(seed + p) for p in range(world.state.num_players)]
        try:
            world.answer([option])
            for _ in range(self.horizon):
                d = world.advance()
                if d is None:
                    break
                world.answer(agents[d.player].decide(d, {}))
        except (GameError, IllegalAnswer):
            return UNFINISHED  # the world turned out unplayable from here: it tells nothing
        result = world.state.result
        if result is None:
            return UNFINISHED
        won = winners_of(result)
        if not won:
            return DRAW
        return 1.0 if player in won else 0.0
