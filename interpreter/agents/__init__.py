"""Agents answer decisions. Each sees only the decision and its own player's view; a search
agent also pictures the game through `Game.imagine`, which shows it no more than that."""

from interpreter.agents.base import Agent, FirstLegalAgent, RandomAgent, ScriptedAgent, ask, make_agent, make_agents
from interpreter.agents.search import MonteCarloAgent

__all__ = ["Agent", "FirstLegalAgent", "MonteCarloAgent", "RandomAgent", "ScriptedAgent", "ask", "make_agent",
           "make_agents"]
