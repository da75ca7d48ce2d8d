"""The game driver: a game under one rulebook is a generator that runs until a player must decide.

`advance()` returns the pending decision (or None once the game is over) and `answer()` supplies
option ids; `fork()` and `imagine()` copy a game at its pending decision for search agents. All
game knowledge comes from the rulebook. What the game is made of lives in the layers below, each
importing only those under it: the state and the rulebook's records (interpreter/state,
interpreter/model), what expressions read (interpreter/table), what is derived from the state
(interpreter/derive), the procedures whose order the rulebook sets, card moves, events, effects and
outcomes (interpreter/timing), and the verbs effects are written in (interpreter/verbs).
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from interpreter.derive.play import Play
from interpreter.engine import trial
from interpreter.engine.determinize import redeal_hidden
from interpreter.engine.walker import after, walk
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.decisions import Decision, check_answer
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.objects import GameObject, GameState, remap
from interpreter.table import views
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.timing import abilities, payability
from interpreter.timing.moves import create_card, move_refusal
from interpreter.timing.outcomes import finalize_outcomes
from interpreter.timing.runner import run
from interpreter.verbs.registry import load_all

Gen = Generator[Any, Any, Any]

load_all()  # every verb of the vocabulary bound to its implementation before a game runs a step


def _copy_ctx(game: Game, ctx: Ctx, objects: dict[int, GameObject], done: dict[int, Ctx]) -> Ctx:
    """A context chain for a forked game: same names, cards pointing at the fork's copies (a scope
    shared by several frames stays shared)."""
    out = done.get(id(ctx))
    if out is None:
        parent = _copy_ctx(game, ctx.parent, objects, done) if ctx.parent is not None else None
        out = done[id(ctx)] = Ctx(game, parent, vars=remap(ctx.vars, objects), rules=ctx.rules)
        out.you, out.this, out.event = ctx.you, remap(ctx.this, objects), remap(ctx.event, objects)
        out.ability, out.node, out.paying = ctx.ability, ctx.node, ctx.paying
    return out


_CARRIED = ("cur_node", "cur_tp", "cur_ap", "max_decisions", "max_auto_steps", "start_node", "stop_at",
            "auto_steps", "to_owner", "keeps", "zone_defaults")
"""What a fork takes over from its game besides the state: where the walk stands, the caps, and the
caches that depend on the rulebook alone (shared). Everything else a new Game sets up afresh."""


class Game(Play):
    """One game under one rulebook, with decks, a seed and a log."""

    def __init__(self, rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]],
                 seed: int = 0, *, log: bool = True, state: GameState | None = None) -> None:
        """A new game with the decks dealt into their zones; with `state`, a game that carries on
        from that state instead (a fork's copy: nothing is dealt)."""
        super().__init__(rb, cards, decks, seed, log=log, state=state)
        if state is None:
            for p, deck in enumerate(decks):
                for zone, ids in deck.items():
                    for cid in ids:
                        create_card(self, cid, p, zone)
        self.start_node: str | None = None  # a scenario may start mid-turn instead of at setup
        self.stop_at: str | None = None  # ...and stop when the walk reaches a node
        self.answers: list[list[str]] = []  # every answer given, in order (forks replay them when they must)
        # Keep a restartable copy at each play timing so forks elsewhere replay only the answers
        # since (None: from the first fork on; a search agent forks again and again).
        self.checkpoints: bool | None = None
        self._checkpoint: tuple[int, Game] | None = None  # (answers given, a copy paused there)
        self._gen: Gen | None = None
        self._decision: Decision | None = None

    # -- API ---------------------------------------------------------------------------
    def advance(self) -> Decision | None:
        """Run until a player must decide; return that decision, or None when the game is over."""
        if self._gen is None:
            self._gen = self._main()
            self._step(None)
        return self._decision

    def answer(self, option_ids: list[str]) -> None:
        """Answer the pending decision with option ids (raises IllegalAnswer if not legal)."""
        if self._decision is None:
            raise IllegalAnswer("no decision is pending")
        values = check_answer(self._decision, option_ids)
        if not self._decision.automatic:  # the engine's own answers are no part of the game's record
            self.answers.append(list(option_ids))
        self.resume_at = None
        self._step(values)

    def fork(self) -> Game:
        """An independent copy of this game at its pending decision, for search agents: answering
        it never touches this game, and answering both alike plays the same game.

        At a play timing taken directly by a turn-structure node (where a player chooses an action
        or passes), the engine's position is only "this node, this step": the copy is a copy of the
        state, restarted there (the check timing that precedes the choice finds nothing left to do,
        so the same decision comes back). Elsewhere, the copy starts from the last such play timing
        this game kept (see `checkpoints`) and replays the answers given since; with none kept, it
        replays every answer from the start. A fork keeps no checkpoints until it is forked itself,
        so playing a fork out costs what playing a game costs."""
        if self._decision is None:
            raise GameError("fork: no decision is pending (the game is over or has not started)")
        if self._decision.automatic:
            raise GameError("fork: the pending decision is one the engine takes itself (show_automatic)")
        if self.checkpoints is None:
            self.checkpoints = True
        if self.resume_at is not None:
            if self.checkpoints and (self._checkpoint is None or self._checkpoint[0] != len(self.answers)):
                self._keep_checkpoint()  # the first fork: this play timing was reached before
            return self._restarted()
        if self._checkpoint is not None:
            given, paused = self._checkpoint
            g = paused._restarted()
            for ans in self.answers[given:]:
                g.answer(ans)
            return g
        return self._replayed()

    def trial_copy(self, rng: random.Random | None = None) -> Game:
        """A copy of the game's state to try something on (engine/trial.py): it logs nothing and is
        not walked (the caller runs what it tries), and nothing it does touches this game. `rng`: the
        copy's random generator, in this game's generator's state (by default a copy of it)."""
        g = Game(self.rb, self.cards, self.decks, self.seed, log=False, state=self.state.copy(rng))
        for name in _CARRIED:
            setattr(g, name, getattr(self, name))
        return g

    def imaginable(self) -> bool:
        """Whether `imagine` can picture the game now: at a play timing taken directly by a
        turn-structure node (elsewhere a fork replays answers given since, which a re-dealt
        world may contradict)."""
        return self._decision is not None and self.resume_at is not None

    def imagine(self, player: int, seed: int) -> Game:
        """A fork at the pending play timing as `player` may picture it: the cards hidden from them
        re-dealt at random and the future's chance unknown (`engine/determinize.py`). What a
        search agent plays its tries on, so that it never reads what its player cannot see."""
        if not self.imaginable():
            raise GameError("imagine: the pending decision is not a play timing taken by the turn structure")
        state = self.state.copy()
        redeal_hidden(self, state, player, random.Random(seed))
        return self._restarted(state, log=False)

    def _restarted(self, state: GameState | None = None, *, log: bool | None = None) -> Game:
        """A copy of the state (or `state`, a copy already made) restarted at the pending play
        timing (`resume_at`), logging as this game does unless `log` says otherwise."""
        assert self.resume_at is not None
        g = Game(self.rb, self.cards, self.decks, self.seed, log=self.logging if log is None else log,
                 state=self.state.copy() if state is None else state)
        for name in _CARRIED:
            setattr(g, name, getattr(self, name))
        g.state.decisions -= 1  # the pending decision is asked again, and counted again
        g.entries = list(self.entries) if g.logging else []
        g.answers = list(self.answers)
        g.auto_steps -= 1  # the asking step starts again, and is counted again
        done: dict[int, Ctx] = {}
        g._gen = g._resume([(steps, i, _copy_ctx(g, c, g.state.objects, done)) for steps, i, c in self.resume_at])
        g._decision = None
        g._step(None)
        return g

    def _replayed(self) -> Game:
        if self.start_node is not None:
            raise GameError("fork: a game started mid-turn (a scenario) can only be forked at a play timing")
        g = Game(self.rb, self.cards, self.decks, self.seed, log=self.logging)
        g.max_decisions, g.max_auto_steps = self.max_decisions, self.max_auto_steps
        g.advance()
        for ans in self.answers:
            g.answer(ans)
        return g

    def _resume(self, frames: list[tuple[Any, ...]]) -> Gen:
        """Carry on from copied frames (innermost: restart the asking step), then walk on."""
        inner: Gen | None = None
        for k in range(len(frames) - 1, -1, -1):
            steps, i, ctx = frames[k]
            inner = run(self, steps, ctx, tail=k > 0, first=i, resume=inner)
        assert inner is not None
        yield from inner
        graph = self.rb.graph
        if self.state.result is None:
            nxt = after(self, graph, self.cur_node)
            if nxt is not None:
                yield from walk(self, graph, nxt)

    def concede(self, player: int) -> None:
        """A player concedes: they lose at once, whatever cards say (the engine's own rule). With
        others still playing on, they leave the game and it goes on (their decisions are skipped)."""
        rules = tuple((self.rb.outcomes.get("concession") or {}).get("rules", ()))
        log(self, "concede", f"P{player + 1} concedes", rules)
        finalize_outcomes(self, [(player, "lose")], rules)
        if self.state.result is not None:
            self._decision = None

    def _step(self, values: Any) -> None:
        assert self._gen is not None
        try:
            self._decision = self._gen.send(values)
        except StopIteration:
            self._decision = None
        if self.state.result is not None:
            self._decision = None
        if self.checkpoints and self.resume_at is not None and self._decision is not None:
            self._keep_checkpoint()

    def _keep_checkpoint(self) -> None:
        """Keep a copy paused at this play timing, for forks at the decisions that follow it."""
        paused = self._restarted()
        if paused.resume_at is not None:  # it can itself be restarted (it always should)
            self._checkpoint = (len(self.answers), paused)

    def _main(self) -> Gen:
        if self.start_node is None:
            ctx = Ctx(self, None, rules=tuple(self.rb.raw.get("setup", {}).get("rules", ())))
            log(self, "setup", "the game is prepared", ctx.rules)
            yield from run(self, self.rb.setup, ctx)
        yield from walk(self, self.rb.graph, self.start_node)

    def view(self, player: int) -> dict[str, Any]:
        """What one player may see: hidden cards appear only as counts or as 'hidden' (table/views.py)."""
        return views.view(self, player)

    # -- procedures tried without being carried out, as expressions ask them (table/table.py) --
    def cost_payable(self, card: GameObject, kind: str) -> bool:
        return payability.cost_payable(self, card, kind)

    def can_move_to(self, card: GameObject, zone: str, player: Any, ctx: Any, kind: Any,
                    joining: tuple[GameObject, ...]) -> bool:
        return move_refusal(self, card, zone, player, ctx, kind=kind, joining=joining) is None

    def usable(self, card: GameObject, kind: str) -> bool:
        return abilities.usable(self, card, kind)

    def could_change(self, card: GameObject, kind: str, zone: str | None) -> bool:
        return trial.could_change(self, card, kind, zone)
