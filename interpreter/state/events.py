"""The events the engine itself raises: the one list of them.

A rulebook declares every event its triggers and replacements name (`events:`); most it raises
itself, with `emit`, `replaceable` or `stack_onto ... event:` steps. These are raised by the engine
instead, and the loader reads this list to check that every declared event can be raised
(interpreter/loader/events.py). None of them is logged: the engine logs what happened already.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MOVED: Final = "moved"
STATE_CHANGED: Final = "state_changed"
ABILITY_RESOLVED: Final = "ability_resolved"
GAME_LOST: Final = "game_lost"
GAME_WON: Final = "game_won"


@dataclass(frozen=True)
class EngineEvent:
    """An event the engine raises: the fields it carries and when it is raised."""

    fields: tuple[str, ...]
    when: str
    always: bool
    """Raised whether or not the rulebook declares it (else only for a rulebook that declares it)."""


ENGINE_EVENTS: Final[dict[str, EngineEvent]] = {
    MOVED: EngineEvent(("card", "old", "new", "from", "to", "from_player", "to_player"),
                       "after a card moves (timing/moves.move_card)", True),
    STATE_CHANGED: EngineEvent(("card", "state", "value"),
                               "after a card's placement state changes (timing/moves.set_state)", True),
    ABILITY_RESOLVED: EngineEvent(("card", "kind", "keywords", "player"),
                                  "after an ability resolves (timing/abilities.resolved)", False),
    GAME_LOST: EngineEvent(("player",), "offered to replacements before a `lose` step makes a player lose; raised "
                                        "when a player who lost leaves a game that goes on "
                                        "(timing/outcomes.finalize_outcomes)",
                           False),
    GAME_WON: EngineEvent(("player",), "offered to replacements before a `win` step makes a player win", False),
}
"""Every event the engine raises, by name."""
