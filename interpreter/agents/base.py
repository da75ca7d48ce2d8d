"""Built-in agents: seeded random, first legal option, and scripted answers."""

from __future__ import annotations

import random
from typing import Any, Protocol

from interpreter.engine.decisions import Decision


class Agent(Protocol):
    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]: ...


class RandomAgent:
    """Picks uniformly among legal answers, from its own seeded generator (never the game's)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        ids = decision.ids()
        k = self.rng.randint(decision.min, decision.max)
        return self.rng.sample(ids, k)


class FirstLegalAgent:
    """Always the first `min` options (passing when passing is the only option)."""

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        return decision.ids()[: decision.min]


class ScriptExhausted(RuntimeError):
    """A scripted agent was asked a question its script does not answer."""


class ScriptedAgent:
    """Answers from a list; asking beyond it is an error (strict mode, like XMage's tests)."""

    def __init__(self, answers: list[list[str]]) -> None:
        self.answers = list(answers)
        self.used = 0

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        if self.used >= len(self.answers):
            raise ScriptExhausted(f"unscripted decision: {decision.describe()} options {decision.ids()}")
        a = self.answers[self.used]
        self.used += 1
        return a


def make_agent(name: str, seed: int, player: int) -> Any:
    if name == "random":
        return RandomAgent(seed * 1000 + player + 1)
    if name in ("first", "first-legal"):
        return FirstLegalAgent()
    if name == "human":
        from interpreter.agents.human import HumanAgent

        return HumanAgent(player)
    raise ValueError(f"unknown agent '{name}' (known: random, first, human)")
