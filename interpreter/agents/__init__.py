"""Agents answer decisions. Each sees only the decision and its own player's view."""

from interpreter.agents.base import Agent, FirstLegalAgent, RandomAgent, ScriptedAgent, make_agent

__all__ = ["Agent", "FirstLegalAgent", "RandomAgent", "ScriptedAgent", "make_agent"]
