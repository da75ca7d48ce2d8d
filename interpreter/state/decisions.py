"""Decisions: the only way the engine asks a player anything.

The engine advances until a player must decide, then exposes one Decision with the complete
list of legal options, each with a stable id. Agents, the CLI, scenarios and replays all answer
with option ids, so they all drive the game through the same door.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.state.errors import IllegalAnswer


@dataclass(slots=True, init=False)
class Option:
    """One legal answer: a stable id, a label for people, and the engine's value behind it.

    The records made at every decision write their own `__init__`: the one `dataclass` generates
    is interpreted Python even in a compiled build."""

    id: str
    label: str
    value: Any

    def __init__(self, id: str, label: str, value: Any = None) -> None:
        self.id = id
        self.label = label
        self.value = value


@dataclass(slots=True, init=False)
class Decision:
    """A question for one player: pick between `min` and `max` of `options`."""

    player: int
    kind: str  # select | one | yes_no | player | play
    prompt: str
    options: list[Option]
    min: int
    max: int
    rules: tuple[str, ...]
    context: dict[str, Any]
    automatic: bool  # its one legal answer is the engine's to take: shown only to who asked (timing/runner.automatic)

    def __init__(self, player: int, kind: str, prompt: str, options: list[Option], min: int = 1, max: int = 1,
                 rules: tuple[str, ...] = (), context: dict[str, Any] | None = None, automatic: bool = False) -> None:
        self.player = player
        self.kind = kind
        self.prompt = prompt
        self.options = options
        self.min = min
        self.max = max
        self.rules = rules
        self.context = {} if context is None else context
        self.automatic = automatic

    def for_agent(self) -> Decision:
        """The decision as an agent may see it: ids and labels only, no engine objects."""
        return Decision(self.player, self.kind, self.prompt, [Option(o.id, o.label) for o in self.options],
                        self.min, self.max, self.rules)

    def ids(self) -> list[str]:
        return [o.id for o in self.options]

    def describe(self) -> str:
        span = f"{self.min}" if self.min == self.max else f"{self.min}-{self.max}"
        return f"P{self.player + 1} {self.prompt} (choose {span} of {len(self.options)})"


def check_answer(decision: Decision, answer: list[str]) -> list[Any]:
    """Validate option ids against a decision and return the chosen values."""
    if not isinstance(answer, list):
        raise IllegalAnswer(f"answer must be a list of option ids, got {answer!r}")
    if not decision.min <= len(answer) <= decision.max:
        raise IllegalAnswer(
            f"{decision.prompt}: choose between {decision.min} and {decision.max} options, got {len(answer)}")
    if len(set(answer)) != len(answer):
        raise IllegalAnswer(f"{decision.prompt}: an option was chosen twice: {answer}")
    by_id = {o.id: o for o in decision.options}
    out = []
    for a in answer:
        if a not in by_id:
            raise IllegalAnswer(f"{decision.prompt}: '{a}' is not a legal option (legal: {', '.join(by_id)})")
        out.append(by_id[a].value)
    return out
