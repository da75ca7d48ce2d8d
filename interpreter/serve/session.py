"""One game served to people: the engine's `Game`, who sits at each seat (a person or an agent), the
decision a person must answer, the messages each seat is sent, and the replay it can be saved as.

A `Session` is plain, synchronous Python: the web app (app.py) calls it under one lock, so the game
is only ever touched by one caller at a time. What a seat is sent is built here and nowhere else:
`message(seat)` holds the table as that seat sees it (`viewer.mat.mat(game, seat)`) and its own
decision in words (only the deciding seat gets the options; viewer/wording.py, as the terminal player
words it); `notes_for` what the engine did for it without asking (`viewer.wording.Announcer`);
`page_log` the log as that seat may read it (serve/log.py: `LogEntry.for_player`). Nothing the engine
holds for the other seats is put in any of them.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.agents import ask, make_agent
from interpreter.engine.game import Game
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.replay import Recorder, content_hashes, make_header
from interpreter.serve.log import PageLog
from interpreter.state.decisions import Decision
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.objects import result_text
from interpreter.viewer.mat import mat
from interpreter.viewer.wording import Announcer, Wording, current_ctx

HUMAN = "human"


class Refused(ValueError):
    """What a page sent is not something it may do now: the message says why (sent back to it)."""


@dataclass
class Saved:
    """A replay this server wrote: the only files it serves besides its own assets."""

    name: str
    path: Path
    final: bool  # written after the game ended (only then may a page download it)


@dataclass
class Session:
    """A game in progress (module docstring). `names` is one agent name per seat, `human` for a person."""

    rb: Rulebook
    cards: dict[str, CardDef]
    decks: list[dict[str, list[str]]]
    seed: int
    names: list[str]
    replay_dir: Path
    save_at_end: bool = False
    game: Game = field(init=False)
    number: int = field(init=False, default=0)  # decisions asked of people so far: a page answers one of them
    error: str | None = field(init=False, default=None)
    saved: list[Saved] = field(init=False, default_factory=list)
    _notes: dict[int, list[str]] = field(init=False, default_factory=dict)
    _agents: dict[int, Any] = field(init=False, default_factory=dict)
    _exc: GameError | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.game = Game(self.rb, self.cards, self.decks, seed=self.seed)
        self._agents = {p: make_agent(n, self.seed, p) for p, n in enumerate(self.names) if n != HUMAN}
        self.recorder = Recorder(make_header(self.rb, self.decks, self.seed, list(self.names),
                                             content_hashes(self.rb, self.cards, self.decks)))
        self._announcers = {p: Announcer(p) for p in self.humans}  # what was done for each person unasked
        self.run()

    # -- who is asked ---------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [p for p, n in enumerate(self.names) if n == HUMAN]

    @property
    def decision(self) -> Decision | None:
        """The decision a person must answer now, if the game waits for one."""
        d = self.game._decision if self.error is None else None
        return d if d is not None and not d.automatic and d.player in self.humans else None

    @property
    def over(self) -> bool:
        return self.error is not None or self.game.state.result is not None

    def run(self) -> None:
        """Advance until a person must decide or the game is over: agents answer their seats; what the
        engine did for a person without asking them is noted for their page."""
        g = self.game
        try:
            while True:
                d = g.advance()
                if d is None:
                    break
                if d.player is None or d.player not in self._agents:
                    self.number += 1
                    break
                self._answer(d, ask(self._agents[d.player], g, d))
        except GameError as e:
            self.error = f"the game stopped on an error: {e}"
            self._exc = e
        for p, announcer in self._announcers.items():
            self._notes.setdefault(p, []).extend(announcer.news(g))
        if self.over and self.save_at_end and not any(s.final for s in self.saved):
            self.save()

    def _answer(self, d: Decision, ids: list[str]) -> None:
        self.recorder.record(self.game, d, ids)
        if d.player in self._announcers:
            self._announcers[d.player].answering(self.game, d, ids)
        self.game.answer(ids)

    def answer(self, seat: int, number: Any, ids: Any) -> None:
        """A person's answer from `seat`'s page to decision `number`: carried out, or Refused with why."""
        d = self.decision
        if self.over:
            raise Refused("the game is over")
        if d is None or d.player != seat:
            raise Refused(f"it is not P{seat + 1}'s decision now")
        if number != self.number:
            raise Refused("that answer is for a decision that is no longer asked")
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise Refused("an answer is a list of option ids")
        offered = set(d.ids())
        wrong = [i for i in ids if i not in offered]
        if wrong:
            raise Refused(f"'{wrong[0][:60]}' is not one of the options offered")
        try:
            self._answer(d, list(ids))
        except IllegalAnswer as e:
            raise Refused(str(e)) from None
        self.run()

    # -- what a person is told ------------------------------------------------------------------
    def notes_for(self, seat: int, since: int) -> tuple[list[str], int]:
        """What was announced to `seat` from `since` on (choices made for it), and where the next read starts."""
        notes = self._notes.get(seat, [])
        return notes[since:], len(notes)

    def message(self, seat: int) -> dict[str, Any]:
        """Everything `seat`'s page is sent now, all of it what that seat may see (module docstring)."""
        g = self.game
        d = self.decision
        waiting = None
        if d is not None and d.player != seat:
            waiting = f"P{d.player + 1} is choosing"
        out: dict[str, Any] = {
            "type": "state", "seat": seat, "title": game_title(g.rb), "number": self.number,
            "mat": mat(g, seat), "decision": None, "waiting": waiting, "result": None, "error": self.error,
            "saved": [s.name for s in self.saved if s.final],
        }
        if d is not None and d.player == seat:
            out["decision"] = Wording(g, seat, out["mat"]).describe(d, current_ctx(g))
        if g.state.result is not None:
            r = g.state.result
            out["result"] = f"{result_text(r)} after {r.get('turn')} turns" + (
                f" (rules {', '.join(r.get('rules', []))})" if r.get("rules") else "")
        return out

    def page_log(self, seat: int, full: bool = False) -> PageLog:
        """A log for a page showing `seat`, from the game's start: brief, or the engine's `full` log."""
        return PageLog(self.rb, self.cards, seat, full)

    # -- replays --------------------------------------------------------------------------------
    def save(self) -> Saved:
        """Write the game so far as a replay in the server's folder (`sogo replay FILE` reads it)."""
        final = self.over
        rep = self.recorder.finish(self.game, self._exc, abandoned=not final)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"{self.rb.id}-seed{self.seed}-{stamp}-{secrets.token_hex(3)}.jsonl"
        path = rep.save(self.replay_dir / name)
        saved = Saved(name, path, final)
        self.saved.append(saved)
        return saved


def game_title(rb: Rulebook) -> str:
    """The game's name as its play mat gives it (the rulebook id when it has no layout)."""
    return rb.layout.title if rb.layout is not None and rb.layout.title else rb.id

