"""Built-in agents: seeded random, first legal option, and scripted answers; `make_agent` names
them for the command line (with the human player and the search agent) and `ask` asks any of them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

from interpreter.state.decisions import Decision

if TYPE_CHECKING:
    from interpreter.engine.game import Game


class Agent(Protocol):
    """Answers from the decision and what its player sees."""

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]: ...


class SearchAgent(Protocol):
    """Answers by trying options on worlds its player may picture (`Game.imagine` only)."""

    def decide_in(self, game: Game, decision: Decision) -> list[str]: ...


class RandomAgent:
    """Picks uniformly among legal answers, from its own seeded generator (never the game's)."""

    reads_view = False  # `ask` builds no view for it (most of a random game's cost otherwise)

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision, view: dict[str, Any]) -> list[str]:
        ids = decision.ids()
        k = self.rng.randint(decision.min, decision.max)
        return self.rng.sample(ids, k)


class FirstLegalAgent:
    """Always the first `min` options (passing when passing is the only option)."""

    reads_view = False

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


AGENTS = "random, first, human, mc or mc:ROLLOUTS"


def make_agent(name: str, seed: int, player: int) -> Any:
    """An agent by the name the command line uses; seeded from the game's seed and the seat."""
    own_seed = seed * 1000 + player + 1
    if name == "random":
        return RandomAgent(own_seed)
    if name in ("first", "first-legal"):
        return FirstLegalAgent()
    if name == "human":
        from interpreter.agents.human import HumanAgent

        return HumanAgent(player)
    if name == "mc" or name.startswith("mc:"):
        from interpreter.agents.search import MonteCarloAgent

        rollouts = name.partition(":")[2] or "8"
        if not rollouts.isdigit() or int(rollouts) < 1:
            raise ValueError(f"agent '{name}': the rollouts after 'mc:' must be a whole number of at least 1")
        return MonteCarloAgent(own_seed, rollouts=int(rollouts))
    raise ValueError(f"unknown agent '{name}' (known: {AGENTS})")


def make_agents(names: tuple[str, ...], seed: int, players: int) -> list[Any]:
    """One agent per seat by name (`make_agent`); ValueError when the count or a name is wrong."""
    if len(names) != players:
        raise ValueError(f"need {players} agents, got {len(names)}")
    return [make_agent(name, seed, p) for p, name in enumerate(names)]


def ask(agent: Any, game: Game, decision: Decision) -> list[str]:
    """The one way to ask an agent: a search agent (with `decide_in`) is handed the game, which it
    reads only through `Game.imagine`; a person at the table (with `decide_at`, the human agent) is
    handed it to draw the mat its seat sees (`viewer.mat.mat`) and read the log as its seat may; any
    other sees the decision and its player's view (an empty
    one if it says it `reads_view = False`)."""
    if hasattr(agent, "decide_in"):
        return agent.decide_in(game, decision)
    if hasattr(agent, "decide_at"):
        return agent.decide_at(game, decision)
    view = game.view(decision.player) if getattr(agent, "reads_view", True) else {}
    return agent.decide(decision.for_agent(), view)
