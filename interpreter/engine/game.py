"""The game: state, the effect runner, decisions, and the primitive state changes.

The engine is a generator: it runs until a player must decide, yields the Decision, and resumes
with the answer. `advance()` returns the pending decision (or None once the game is over) and
`answer()` supplies option ids. All game knowledge comes from the rulebook; the procedures whose
order differs between games (check timing, play timing, rule processing, triggers, continuous and
replacement effects) live in interpreter/timing and read their order from the rulebook.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any, Final

from interpreter.engine.determinize import redeal_hidden
from interpreter.model.rulebook import (
    GRANTED,
    Ability,
    CardDef,
    PlacementRestriction,
    Rulebook,
    ability_label,
    engine_kind,
)
from interpreter.model.vocabulary import Step
from interpreter.state.decisions import Decision, Option, check_answer
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.events import ENGINE_EVENTS, GAME_LOST, MOVED, STATE_CHANGED
from interpreter.state.log import LogEntry
from interpreter.state.multiset import Multiset
from interpreter.state.objects import FACE, Effect, GameObject, GameState, remap
from interpreter.table.context import POSITIONAL, Ctx
from interpreter.timing import check_timing as ct
from interpreter.timing import continuous as cont
from interpreter.timing import play_timing as pt
from interpreter.timing import replacement as repl
from interpreter.timing import rule_processing as rproc
from interpreter.timing.triggers import Triggers
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


def _empty_state(rb: Rulebook, players: int, seed: int) -> GameState:
    """A game's state before the decks are dealt: every zone there, empty."""
    st = GameState(num_players=players, rng=random.Random(seed))
    st.player_counters = [{} for _ in range(players)]
    for zid, zdef in rb.zones.items():
        for p in [None] if zdef.shared else range(players):
            st.zones[(zid, p)] = []
    return st


# What an expression's `card.name` reads: its card's type, a placement state, a field (through
# continuous effects), or one of the object's own slots (each its own number, read natively).
_TYPE: Final = 0
_STATE: Final = 1
_FIELD: Final = 2
_SLOTS: Final = {"holder": 10, "owner": 11, "marks": 12, "zone": 13, "oid": 14, "controller": 15, "id": 16,
                 "zone_player": 17, "timestamp": 18, "counters": 19, "entered_turn": 20}

ATTRIBUTES: Final[dict[str, tuple[str, str]]] = {
    "type": ("The card's type id (a `card_types` entry).", "this.type == 'unit'"),
    "id": ("The card's id in its card file: the same for every copy of the card.", "this.id == event.card.id"),
    "oid": ("The object's id: a card gets a new one whenever it becomes a new object (most zone changes), so it "
            "tells this object from the same card before or after a move (`origin(card)` stays the same).",
            "event.new.oid != event.old.oid"),
    "owner": ("The player who owns the card (players are numbered from 0 in seat order).", "this.owner == you"),
    "controller": ("The player who controls the card: the player whose zone it entered (its owner in a shared "
                   "zone).", "this.controller != this.owner"),
    "zone": ("The id of the zone the card is in.", "this.zone == 'field'"),
    "zone_player": ("The player whose zone the card is in; null for a shared zone.", "this.zone_player == you"),
    "holder": ("The `oid` of the card this one is held under (attached to), or null; `holder_of(card)` gives "
               "that card.", "count(cards('field', you) where it.holder == this.oid) > 0"),
    "timestamp": ("When the card was put where it is: a number that grows with every placement, so a higher one "
                  "came later (`newest` orders by it).", "this.timestamp > event.card.timestamp"),
    "entered_turn": ("The turn in which the card became this object (entered its zone), from `turn`.",
                     "this.entered_turn < turn"),
    "counters": ("The card's counters (the `counter` verb) as a mapping of name to number; an absent one is "
                 "null here and 0 for `counter(card, name)`.", "this.counters.charge == 2"),
    "marks": ("The card's marks (the `mark` verb, `move` with `mark`, `zone_rules.arrival_marks`) as a mapping of "
              "name to value; they vanish when the card becomes a new object.", "this.marks.chosen == true"),
}
"""The object attributes `card.NAME` reads, besides the rulebook's placement states and card fields,
with an example each: the source of the generated reference (docs/reference.md);
tests/test_reference.py checks that every name `_attr_kind` reads natively is here."""


def _read_slot(obj: GameObject, kind: int) -> Any:
    """The slot numbered `kind` in `_SLOTS`: a chain of integer tests that a compiled build runs
    natively, where a getter per name would be a call."""
    if kind == 10:
        return obj.holder
    if kind == 11:
        return obj.owner
    if kind == 12:
        return obj.marks
    if kind == 13:
        return obj.zone
    if kind == 14:
        return obj.oid
    if kind == 15:
        return obj.controller
    if kind == 16:
        return obj.card_id
    if kind == 17:
        return obj.zone_player
    if kind == 18:
        return obj.timestamp
    if kind == 19:
        return obj.counters
    return obj.entered_turn


_MOVED: Final[dict[str, Any]] = {"type": MOVED, "card": None, "old": None, "new": None, "from": None,
                                 "to": None, "from_player": None, "to_player": None}
"""The shape of a card's move event. Each move copies it and fills it in: a dict built key by key
grows past its first size at the sixth key, and a copy of a dict of the same keys does not."""

_CARRIED = ("cur_node", "cur_tp", "cur_ap", "max_decisions", "max_auto_steps", "start_node", "stop_at",
            "auto_steps", "_to_owner", "_keeps", "_zone_defaults")
"""What a fork takes over from its game besides the state: where the walk stands, the caps, and the
caches that depend on the rulebook alone (shared). Everything else a new Game sets up afresh."""


class Game:
    """One game under one rulebook, with decks, a seed and a log."""

    def __init__(self, rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]],
                 seed: int = 0, *, log: bool = True, state: GameState | None = None) -> None:
        """A new game with the decks dealt into their zones; with `state`, a game that carries on
        from that state instead (a fork's copy: nothing is dealt)."""
        self.rb = rb
        # A plain dict: the card pool's own class subclasses dict, and Python looks a key up in a
        # subclass of dict through a method call, several times slower (a card is looked up at
        # almost every step). Forks share this one.
        self.cards = cards if type(cards) is dict else dict(cards)
        self.decks = decks
        self.seed = seed
        self.state = _empty_state(rb, len(decks), seed) if state is None else state
        self.entries: list[LogEntry] = []
        self.logging = log
        self.cur_node: Any = None
        self.cur_tp: int | None = None
        self.cur_ap: int | None = None
        loop = rb.raw.get("infinite_loop") or {}
        self.max_decisions = int(loop.get("max_decisions", 20000))
        self.max_auto_steps = int(loop.get("max_auto_steps", 500000))
        self.loop_rules = tuple(loop.get("rules", ()))
        self._always = [p for p in rb.rule_processes if p.when == "always"]
        # Zones where a face-down card's master may look at it (a zone's `face_down_seen_by_master`).
        self._seen_face_down = frozenset(z.id for z in rb.zones.values() if z.raw.get("face_down_seen_by_master"))
        self.grants_possible = bool(rb.grants)  # some effect of the rulebook or its cards grants abilities
        # Durations whose effects apply only in their owner's turns (`only_in_owner_turn`).
        self.owner_turn_durations = frozenset(d.id for d in rb.durations.values() if d.only_in_owner_turn)
        # Events not written to the log: the engine's own and those the rulebook marks `log: false`
        # (each repeats what the log already says: a move, a shuffle).
        self.unlogged = frozenset(ENGINE_EVENTS) | {e for e, spec in rb.events.items() if spec.get("log") is False}
        # Teams of seats (a format's `teams`, 1-based in the data): teammates win together, and with
        # `lose_together` a player leaving makes the team lose.
        teams_spec = (rb.format or {}).get("teams") or {}
        self.teams: list[list[int]] = [[int(x) - 1 for x in team] for team in teams_spec.get("seats", []) or []]
        self.teams_lose_together = bool(teams_spec.get("lose_together"))
        # `turns: team`: a turn is the turn player's team's (turn_team()); `share_hidden`: teammates
        # see what each other sees.
        self.team_turns = teams_spec.get("turns") == "team"
        self.team_sight = bool(teams_spec.get("share_hidden"))
        # A format's rule for players leaving a game that goes on: (its spec, its compiled winners).
        self.after_leaving: tuple[dict[str, Any], Any] | None = rb.after_leaving
        # A move naming another player's zone does not happen (zone_rules.owner_locked).
        self.owner_locked = bool((rb.raw.get("zone_rules") or {}).get("owner_locked"))
        self.zone_rules_cited: tuple[str, ...] = tuple((rb.raw.get("zone_rules") or {}).get("rules", ()) or ())
        printed_or_granted = [ab for c in cards.values() for ab in c.abilities] + [g.base for g in rb.grants]
        # Some card or grant has a continuous ability that replaces an event (timing/replacement.py).
        self.replacing_abilities = any(ab.kind == "continuous" and repl.replaces(ab.continuous)
                                       for ab in printed_or_granted)
        # Some card or grant has an ability played in response: plays open response windows.
        self.responses_possible = bool(rb.timing.get("responses")) and any(
            ab.kind == "response" for ab in printed_or_granted)
        # Fields rule-process conditions read (None: any): a continuous effect on them wakes every process.
        reads = [p.reads_fields for p in rb.rule_processes]
        self.process_fields: frozenset[str] | None = (
            None if any(r is None for r in reads) else frozenset(f for r in reads if r is not None for f in r))
        self._to_owner: dict[str, bool] = {}  # zone -> cards entering it go to their owner's side
        self._keeps: dict[tuple[str, str], bool] = {}  # (from, to) -> the object keeps its identity
        ability_zones = set().union(*rb.ability_zones.values()) if rb.ability_zones else set()
        # Abilities that work in other zones than their card type's (an `active_zones` keyword):
        # (card, ability index) -> its zones, and card -> every zone one of its abilities works in.
        self.active_zones: dict[tuple[str, int], frozenset[str]] = {}
        self.active_zone_cards: dict[str, frozenset[str]] = {}
        # The same, counting only abilities that act (trigger, are played or change something): a
        # card whose only ability working elsewhere is a bare statement (a keyword it is treated as
        # having, read by has_keyword wherever the card is) need not be watched in those zones,
        # whose every change would otherwise renew the list of cards whose abilities work.
        self.acting_zone_cards: dict[str, frozenset[str]] = {}
        for cid, card in self.cards.items():
            acting: set[str] = set()
            for ab in card.abilities:
                for kw in ab.keywords:
                    zs = (rb.keywords.get(kw) or {}).get("zones_c")
                    if zs is not None:
                        self.active_zones[(cid, ab.index)] = self.active_zones.get((cid, ab.index), frozenset()) | zs
                        if ab.kind != "continuous" or ab.continuous or ab.triggers:
                            acting |= zs
            mine = [zs for (c, _), zs in self.active_zones.items() if c == cid]
            if mine:
                self.active_zone_cards[cid] = frozenset().union(*mine) | rb.ability_zones.get(card.type, frozenset())
            if acting:
                self.acting_zone_cards[cid] = frozenset(acting) | rb.ability_zones.get(card.type, frozenset())
                ability_zones |= self.acting_zone_cards[cid]
        # (zone key, zone, only its top card is in play) for the zones where abilities work. The
        # keys are kept as the state's own objects (typed Any), so reading a zone hashes the same
        # tuple instead of building one.
        self.ability_zone_plan: list[tuple[Any, str, bool]] = [
            (k, k[0], bool(rb.zones[k[0]].raw.get("top_only"))) for k in self.state.zones if k[0] in ability_zones]
        self.ability_zone_set = frozenset(ability_zones)
        # Card types whose cards held under another card (attached) have working abilities where
        # their type's abilities work, while the holder is in the same zone (`abilities_when_held`).
        self.held_types = frozenset(tid for tid, t in rb.card_types.items() if t.get("abilities_when_held"))
        # A rulebook's ability kind -> how it is played (activated | auto | continuous).
        self.kind_of: dict[str, str] = {str(k.get("id")): engine_kind(k) for k in rb.raw.get("ability_kinds", []) or []}
        self._zone_defaults: dict[str, dict[str, Any]] = {}  # zone -> its cards' default states (rulebook data)
        self.auto_steps = 0  # effect steps run so far, against the rulebook's cap on automatic steps
        self._start_runtime()
        if state is None:
            for p, deck in enumerate(decks):
                for zone, ids in deck.items():
                    for cid in ids:
                        self._create(cid, p, zone)
        self.start_node: str | None = None  # a scenario may start mid-turn instead of at setup
        self.stop_at: str | None = None  # ...and stop when the walk reaches a node
        self.answers: list[list[str]] = []  # every answer given, in order (forks replay them when they must)
        # Whether advance() also stops at the play timings the engine passes by itself (see automatic).
        self.show_automatic = False
        # Keep a restartable copy at each play timing so forks elsewhere replay only the answers
        # since (None: from the first fork on; a search agent forks again and again).
        self.checkpoints: bool | None = None
        self._checkpoint: tuple[int, Game] | None = None  # (answers given, a copy paused there)
        self._gen: Gen | None = None
        self._decision: Decision | None = None

    def _start_runtime(self) -> None:
        """The engine's own bookkeeping: values derived from the state (caches, indexes, versions)
        and where the procedure in progress stands. A fork starts these afresh."""
        self.version = 0  # bumped by every state change; keys caches of derived values
        self.global_version = 0  # bumped by changes outside zones (roles, variables, turn, statuses)
        self.ability_version = 0  # bumped when a zone where abilities work changes
        self._collecting: list[tuple[int, str]] | None = None
        self._in_interrupt = False
        self._holding = 0  # simultaneous steps in progress: interrupts wait until the outermost ends
        self.frames: list[list[Any]] = []  # effect-step lists being run, outermost first (see run)
        self.resume_at: list[tuple[Any, ...]] | None = None  # the pending decision restarts from here (fork)
        self.cache: dict[str, Any] = {}  # worked-out values, each kept under its own key (a version, the roles...)
        self.fn_memo: dict[str, dict[Any, Any]] = {}  # pure rulebook functions' values (loader/sections.py)
        self.fn_memo_version = -1  # the state version they were worked out at
        self._attr_kinds: dict[str, int] = {}  # attribute name -> how to read it from a game object
        self.attr_hook = self.attr  # bound once; every context hands it to expressions
        self.triggers = Triggers(self)
        self.continuous = cont.Continuous(self)
        self.idle = rproc.IdleBindings()  # rule-process bindings known false until a place they read changes

    # -- objects -----------------------------------------------------------------------
    def _create(self, card_id: str, owner: int, zone: str, states: dict[str, str] | None = None,
                zone_player: int | None = -1) -> GameObject:
        """Put a new card into a zone (deck building and scenario set-up only)."""
        st = self.state
        zp = (None if self.rb.zones[zone].shared else owner) if zone_player == -1 else zone_player
        obj = GameObject(st.new_id(), card_id, owner, owner if zp is None else zp, zone, zp,
                         self._default_states(zone, states or {}), st.tick(), st.turn)
        st.objects[obj.oid] = obj
        st.zones[(zone, zp)].append(obj.oid)
        return obj

    def _default_states(self, zone: str, given: dict[str, str], prev: dict[str, str] | None = None) -> dict[str, str]:
        if not given and prev is None:  # the usual move: the zone's defaults, worked out once
            defaults = self._zone_defaults.get(zone)
            if defaults is None:
                defaults = self._zone_defaults[zone] = {s: self.rb.states[s].get("default")
                                                        for s in self.rb.zones[zone].states}
            return dict(defaults)
        out: dict[str, Any] = {}
        for s in self.rb.zones[zone].states:
            if s in given:
                out[s] = given[s]
            elif prev is not None and s in prev:
                out[s] = prev[s]
            else:
                out[s] = self.rb.states[s].get("default")
        return out

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

    def trial_copy(self) -> Game:
        """A copy of the game's state to try something on (engine/trial.py): it logs nothing and is
        not walked (the caller runs what it tries), and nothing it does touches this game."""
        g = Game(self.rb, self.cards, self.decks, self.seed, log=False, state=self.state.copy())
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
        from interpreter.engine.walker import after, walk

        inner: Gen | None = None
        for k in range(len(frames) - 1, -1, -1):
            steps, i, ctx = frames[k]
            inner = self.run(steps, ctx, tail=k > 0, first=i, resume=inner)
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
        self.log("concede", f"P{player + 1} concedes", rules)
        self.finalize_outcomes([(player, "lose")], rules)
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
        from interpreter.engine.walker import walk

        if self.start_node is None:
            ctx = Ctx(self, None, rules=tuple(self.rb.raw.get("setup", {}).get("rules", ())))
            self.log("setup", "the game is prepared", ctx.rules)
            yield from self.run(self.rb.setup, ctx)
        yield from walk(self, self.rb.graph, self.start_node)

    # -- running effects -----------------------------------------------------------------
    def run(self, steps: tuple[Step, ...], ctx: Ctx, *, tail: bool = False, first: int = 0,
            resume: Gen | None = None) -> Gen:
        """Run effect steps in order.

        Each run is a frame on `frames` (steps, current index, context, tail): `tail` says the
        caller does nothing after this run ends (a template call, a branch), so the frames alone
        tell where the game stands. A fork restarts a run at `first`, with `resume` standing in for
        the step that was in progress there."""
        st = self.state
        frame = [steps, first, ctx, tail]
        self.frames.append(frame)
        try:
            for i in range(first, len(steps)):
                if st.result is not None:
                    return
                if st.left and ctx.ability is not None and ctx.you in st.left:
                    return  # an ability whose master has left ends where it stands (Re:Birth 12.4.4)
                if st.jump is not None and ctx.node is not None:
                    # A jump is pending: the turn structure's own steps stop here (the effect that
                    # asked for the jump still finishes, since its context belongs to no node).
                    return
                frame[1] = i
                step = steps[i]
                if resume is not None:
                    inner, resume = resume, None
                    yield from inner
                    continue
                self.auto_steps += 1
                if self.auto_steps > self.max_auto_steps:
                    self.loop_draw("automatic steps")
                    return
                try:
                    yield from step.spec.fn(self, step.args, ctx)
                except GameError:
                    raise
                except (IllegalAnswer, GeneratorExit):
                    raise
                except Exception as e:  # noqa: BLE001 - turn data bugs into located errors
                    raise GameError(f"{step.where}: {step.verb}: {e}") from e
        finally:
            self.frames.pop()

    def ask(self, decision: Decision, ctx: Ctx, *, restartable: bool = False) -> Gen:
        """Yield a decision to the caller of advance() and return the chosen option values.

        `restartable`: the asking procedure, started afresh in the current state, comes back to
        this same decision (a play timing). When it runs as a step of a turn-structure node, maybe
        through template calls, a fork restarts it there instead of replaying the game."""
        self.state.decisions += 1
        if self.state.decisions > self.max_decisions:
            self.loop_draw("decisions")
            return [decision.options[0].value] if decision.min > 0 else []
        if self.state.left and decision.player in self.state.left:
            # Nothing is processed for a player who has left (Re:Birth 12.4.7): a pass where there
            # is one, else the least answer.
            passing = [o.value for o in decision.options if o.id == "pass"]
            return passing[:1] if passing and decision.min <= 1 else [o.value for o in decision.options[:decision.min]]
        if restartable and self._restartable_here(ctx):
            self.resume_at = [(steps, i, c) for steps, i, c, _ in self.frames]
        values = yield decision
        return values

    def automatic(self, decision: Decision) -> Gen:
        """A decision whose one legal answer the engine takes itself (a play timing where passing is all
        the player may do). Only a caller that set `show_automatic` (the scenario runner, which checks
        what is offered there and may stop there) gets it from advance(), marked `automatic`, and
        answers it with that answer; for everyone else it does not exist and counts as no decision."""
        if self.show_automatic and decision.player not in self.state.left:
            decision.automatic = True
            yield decision

    def _restartable_here(self, ctx: Ctx) -> bool:
        frames = self.frames
        if not frames or ctx is not frames[-1][2] or self.cur_node is None:
            return False
        root = frames[0][2]
        if root.node is not self.cur_node or root.parent is not None or root.vars:
            return False  # not the node's own steps, or its steps bound names a restart would lose
        return all(f[3] for f in frames[1:])

    def ask_yes_no(self, player: int, prompt: str, ctx: Ctx) -> Gen:
        d = Decision(player, "yes_no", prompt, [Option("yes", "yes", True), Option("no", "no", False)], 1, 1,
                     ctx.rules)
        (v,) = yield from self.ask(d, ctx)
        return v

    def choose_items(self, player: int, items: list[Any], lo: int, hi: int, prompt: str, ctx: Ctx) -> Gen:
        if hi <= 0:
            return []
        if lo == hi == len(items):
            return list(items)
        if lo == hi and self._interchangeable(items):
            return list(items[:lo])
        options = []
        for i, it in enumerate(items):
            if isinstance(it, GameObject):
                options.append(Option(f"c{it.oid}", self.describe_for(it, player), it))
            elif isinstance(it, str):
                options.append(Option(f"z:{it}" if it in self.rb.zones else f"s:{it}", it, it))
            elif isinstance(it, int) and not isinstance(it, bool):
                options.append(Option(f"n{i}", str(it), it))
            else:
                options.append(Option(f"i{i}", str(it), it))
        d = Decision(player, "select", prompt, options, lo, hi, ctx.rules)
        chosen = yield from self.ask(d, ctx)
        if chosen and self.logging:
            objs = [c for c in chosen if isinstance(c, GameObject)]
            hidden = frozenset(p for p in range(self.state.num_players)
                               if any(not self.can_see(o, p) for o in objs))
            self.log("choice", f"P{player + 1} chooses " + ", ".join(
                self.describe(c) if isinstance(c, GameObject) else str(c) for c in chosen), ctx.rules,
                hidden_from=hidden, redacted=f"P{player + 1} chooses {len(chosen)} card(s)")
        return chosen

    def _interchangeable(self, items: list[Any]) -> bool:
        """Whether choosing among these cards changes nothing: the same card in the same zone and
        states, with nothing of its own (marks, counters, cards held under it). The same card in two
        places, or holding different cards, is a real choice."""
        first = items[0] if items else None
        if not isinstance(first, GameObject):
            return False
        if not all(isinstance(o, GameObject) and o.card_id == first.card_id and o.states == first.states
                   and o.holder is None and not o.marks and not o.counters
                   and o.zone == first.zone and o.zone_player == first.zone_player for o in items):
            return False
        objs = self.state.objects
        holders = {objs[i].holder for i in self.state.zones.get((first.zone, first.zone_player), ())}
        return not any(o.oid in holders for o in items)

    # -- names and attributes for expressions -----------------------------------------------
    def builtin_name(self, name: str, ctx: Ctx) -> Any:
        """A name no scope binds: a positional name, else a role (None until assigned)."""
        reader = POSITIONAL.get(name)
        if reader is not None:
            return reader(ctx)
        designation = self.rb.designations.get(name)
        if designation is not None:
            return designation.otherwise(ctx)  # not designated here: what the name means elsewhere
        return self.state.roles.get(name)

    def _other(self, p: int | None) -> int | None:
        """The next player in seat order after `p` who is still in the game (with two players, the
        other one); None when nobody else is."""
        if p is None:
            return None
        n = self.state.num_players
        left = self.state.left
        for k in range(1, n):
            q = (p + k) % n
            if q not in left:
                return q
        return None

    def teammates(self, p: int | None) -> list[int]:
        """The other players of `p`'s team (the format's `teams`), still in the game; none without teams."""
        for team in self.teams:
            if p in team:
                return [q for q in team if q != p and q not in self.state.left]
        return []

    def players_in(self) -> list[int]:
        """The players still in the game, in seat order."""
        left = self.state.left
        return [p for p in range(self.state.num_players) if p not in left]

    def players_from(self, p: int | None) -> list[int]:
        """The players still in the game in turn (seat) order, starting with `p` (or the first after
        `p` when `p` has left): "the turn player first, then the others in turn order"."""
        n = self.state.num_players
        if p is None:
            return self.players_in()
        left = self.state.left
        return [q for q in ((p + k) % n for k in range(n)) if q not in left]

    def turn_team(self) -> list[int]:
        """The players taking the current turn, still in the game: the turn player, and with team
        turns (a format's `teams.turns: team`) their teammates, in turn order."""
        tp = self.cur_tp
        if tp is None:
            return []
        if not self.team_turns:
            return [] if tp in self.state.left else [tp]
        team = {tp, *self.teammates(tp)}
        return [q for q in self.players_from(tp) if q in team]

    def beside(self, p: int | None, step: int) -> int | None:
        """The player just after (`step` 1) or just before (-1) `p` in the turn order as it stood
        when the current turn began, even if they have left since (a place stays, empty, until the
        turn ends: `players()` no longer holds them); None if that is `p` itself."""
        seats = self.state.seating
        if p is None or p not in seats:
            return None
        q = seats[(seats.index(p) + step) % len(seats)]
        return None if q == p else q

    def attr(self, obj: Any, name: str) -> Any:
        if type(obj) is GameObject:
            # How to read a name is decided on its first use (expressions ask the same few names
            # millions of times), and read here without calling a reader per name.
            kind = self._attr_kinds.get(name)
            if kind is None:
                kind = self._attr_kinds[name] = self._attr_kind(name)
            if kind == _STATE:
                return obj.states.get(name)
            if kind == _TYPE:
                return self.cards[obj.card_id].type
            if kind == _FIELD:
                return self.field(obj, name)
            return _read_slot(obj, kind)
        if isinstance(obj, Multiset):
            return obj.get(name, 0)
        if isinstance(obj, dict):
            return obj.get(name)
        return None

    def _attr_kind(self, name: str) -> int:
        slot = _SLOTS.get(name)
        if slot is not None:
            return slot
        if name == "type":
            return _TYPE
        if name in self.rb.states:
            return _STATE
        return _FIELD

    def field(self, obj: GameObject, name: str) -> Any:
        if obj.last_fields is not None and obj.oid not in self.state.objects:
            return obj.last_fields.get(name)
        base = self.cards[obj.card_id].fields.get(name)
        if isinstance(base, Multiset):
            base = Multiset(base)
        return self.continuous.value(obj, name, base)

    def abilities_of(self, obj: GameObject) -> list[Ability]:
        """A card's abilities now: those printed on it (or the text an effect set instead, `set_text:`),
        then those grants give it (`grant:` in a continuous ability that works or in a created
        continuous effect, timestamp order). While the grants are being worked out, a card has its
        printed abilities only (no recursion)."""
        printed = self.cards[obj.card_id].abilities
        if not self.grants_possible:
            return printed
        cont = self.continuous
        text = cont.texts().get(obj.oid)
        if text is not None:
            printed = text
        extra = cont.granted().get(obj.oid)
        return printed + list(extra) if extra else printed

    def ability_at(self, card_id: str, index: int) -> Ability:
        """A card's ability by its number: a printed one, or (from GRANTED on) the ability a grant of
        the rulebook's registry gives a card of this card's type."""
        if index >= GRANTED:
            return self.rb.grants[index - GRANTED].for_type(self.cards[card_id].type)
        abilities = self.cards[card_id].abilities
        if index < len(abilities) and abilities[index].index == index:
            return abilities[index]
        return next(ab for ab in abilities if ab.index == index)  # an ability left unwritten shifts the list

    def expr_fail(self, message: str) -> Any:
        raise GameError(message)

    def fail(self, ctx: Ctx, message: str) -> Any:
        raise GameError(message)

    # -- visibility ----------------------------------------------------------------------
    def can_see(self, obj: GameObject, player: int) -> bool:
        """Whether a player knows which card a card is (its name, fields and abilities). What the player
        is shown depends on it: their view, the options of their decisions (a hidden card is "hidden
        card #N"), the log as they read it, and the cards an imagined world may deal again for them.

        - A face-down card (placement state `face: down`) is known to the players it was shown to and,
          in a zone with `face_down_seen_by_master: true`, to the player whose zone it is.
        - Any other card is known as its zone's `visibility` says: `public`, to everyone; `owner`, to
          the player whose zone it is; `private`, to nobody; and besides to the players it was shown to.
        - A card is shown to every player by `reveal` and to one by `look`. A card that moves stays
          known to everyone who knew it just before (a card revealed and then put into a hand is still
          known), and a `shuffle` makes every card of the shuffled zone unknown again.
        - In a format whose `teams` have `share_hidden: true`, a player knows what a teammate knows.
        - A zone's `hidden_facts` (NAME: CONDITION) are known to everyone about every card there,
          hidden or not: a hidden card is shown with the facts that hold for it.

        Expressions are not limited by this: they read every card as it is (the rules know it). A rule
        that depends on what a player may see reads the zone's visibility (`zone_visibility(zone)`), and
        `choose` lets a player searching cards they cannot all see choose fewer than asked (fail to
        find)."""
        if self.team_sight:
            return any(self._sees(obj, p) for p in [player] + self.teammates(player))
        return self._sees(obj, player)

    def _sees(self, obj: GameObject, player: int) -> bool:
        if obj.states.get(FACE) == "down":
            return player in obj.known_to or (obj.zone_player == player and obj.zone in self._seen_face_down)
        vis = self.rb.zones[obj.zone].visibility
        if vis == "public":
            return True
        if vis == "owner" and obj.zone_player == player:
            return True
        return player in obj.known_to

    def zone_fully_visible(self, obj: GameObject, player: int) -> bool:
        vis = self.rb.zones[obj.zone].visibility
        return vis == "public" or (vis == "owner" and obj.zone_player == player)

    def describe(self, obj: GameObject) -> str:
        f = self.cards[obj.card_id].fields
        return f"{f.get('name', obj.card_id)} [{obj.card_id}#{obj.oid}]"

    def describe_for(self, obj: GameObject, player: int) -> str:
        if self.can_see(obj, player):
            return self.describe(obj)
        facts = [name for name, known in self.hidden_facts(obj).items() if known]
        return f"hidden card #{obj.oid}" + (f" ({', '.join(facts)})" if facts else "")

    def hidden_facts(self, obj: GameObject) -> dict[str, bool]:
        """What everyone may know of a card even when it is hidden (its zone's `hidden_facts`)."""
        facts = self.rb.zones[obj.zone].hidden_facts
        if not facts:
            return {}
        ctx = Ctx(self, None, you=obj.controller).with_it(obj)
        return {name: bool(fn(ctx)) for name, fn in facts.items()}

    def describe_pending(self, pend: Any) -> str:
        src = self.state.objects.get(pend.source) or self.state.lki.get(pend.source)
        name = self.describe(src) if src is not None else "a delayed trigger"
        if pend.ability >= GRANTED:
            return f"{name} {ability_label(self.ability_at(pend.card_id, pend.ability))}"
        return f"{name} ability {pend.ability + 1}" if pend.ability >= 0 else name

    def describe_target(self, t: Any) -> str:
        return self.describe(t) if isinstance(t, GameObject) else f"P{t + 1}"

    # -- log ---------------------------------------------------------------------------
    def log(self, kind: str, text: str, rules: tuple[str, ...] = (), *, chance: bool = False,
            hidden_from: frozenset[int] = frozenset(), redacted: str = "", **data: Any) -> None:
        if not self.logging:
            return
        node = self.cur_node.id if self.cur_node is not None else "setup"
        self.entries.append(LogEntry(len(self.entries), self.state.turn, node, kind, tuple(rules), text, data,
                                     chance, hidden_from, redacted))

    # -- primitive state changes -------------------------------------------------------------
    def zone_player_for(self, obj: GameObject, zone: str, player: int | None) -> int | None:
        zdef = self.rb.zones[zone]
        if zdef.shared:
            return None
        to_owner = self._to_owner.get(zone)
        if to_owner is None:
            to_owner = self._to_owner[zone] = not any(
                zone in self.rb.group_sets.get(g, ()) or zone == g for g in self.rb.owner_except_groups)
        if to_owner:
            return obj.owner
        return obj.controller if player is None else player

    def keeps_identity(self, a: str, b: str) -> bool:
        keep = self._keeps.get((a, b))
        if keep is None:
            groups = (self.rb.group_sets.get(g, frozenset((g,))) for g in self.rb.identity_groups)
            keep = self._keeps[(a, b)] = any(a in zs and b in zs for zs in groups)
        return keep

    def placement_refusal(self, obj: GameObject, zone: str, dest_player: int | None, ctx: Any,
                          kind: str | None = None, leaving: tuple[GameObject, ...] = (),
                          joining: tuple[GameObject, ...] = ()) -> PlacementRestriction | None:
        """The first placement restriction (`zone_rules.placement_restrictions`) that refuses a move of
        `obj` into `zone` of `dest_player`, a move of `kind`, while `leaving` leave at the same time and
        `joining` arrive with it (read as `arriving_with`: the other cards of one appearance);
        None when none does."""
        restrictions = self.rb.placement.get(zone)
        added = self.continuous.restrictions()
        if not restrictions and not added:
            return None
        mover = ctx.you if ctx is not None else None
        names = {"arriving": obj, "dest": zone, "dest_player": dest_player, "leaving": list(leaving),
                 "arriving_with": list(joining), "mover": mover,
                 "by_ability": ctx is not None and ctx.ability is not None}
        if restrictions:
            scope = Ctx(self, None, you=mover, vars=dict(names))
            for r in restrictions:
                if (r.kinds is None or kind in r.kinds) and r.cond(scope.with_it(obj)):
                    return r
        for er, ectx in added:
            if er.kinds is not None and kind not in er.kinds:
                continue
            if er.zones is not None and zone not in er.zones \
                    and not any(zone in self.rb.group_sets.get(g, ()) for g in er.zones):
                continue
            if er.cond(ectx.child(vars=dict(names)).with_it(obj)):
                src = ectx.this
                what = f"a restriction of {self.describe(src)}" if isinstance(src, GameObject) else "a restriction"
                return PlacementRestriction(what, er.rules or ectx.rules, er.kinds, er.cond)
        return None

    def move_refusal(self, obj: GameObject, zone: str, player: int | None, ctx: Any, *, kind: str | None = None,
                     leaving: tuple[GameObject, ...] = (), named: bool = True,
                     replacements: bool = False,
                     joining: tuple[GameObject, ...] = ()) -> tuple[str, tuple[str, ...]] | None:
        """Why `obj` cannot move into `zone` (of `player`, a zone the move names when `named`) now, and
        the rules that say so; None when it can. The card must still be there, the zone be its
        owner's where `zone_rules.owner_locked` says so, and no placement restriction refuse it; with
        `replacements`, a replacement effect that would take the move's place refuses it too (a swap
        is judged so before either card moves)."""
        if obj.oid not in self.state.objects:
            return "it is no longer there", ()
        if self.owner_locked and named and player is not None and player != obj.owner \
                and not self.rb.zones[zone].shared:
            return "a card goes only into its owner's zones", self.zone_rules_cited
        dest_player = self.zone_player_for(obj, zone, player)
        r = self.placement_refusal(obj, zone, dest_player, ctx, kind, leaving, joining)
        if r is not None:
            return r.id, r.rules
        if replacements and (self.state.effects or self.replacing_abilities):
            event = {"type": "moved", "card": obj, "from": obj.zone, "to": zone, "from_player": obj.zone_player,
                     "to_player": dest_player}
            if repl.would_replace(self, event):
                return "a replacement effect would replace its move", ()
        return None

    def log_refused(self, objs: list[GameObject], text: str, redacted: str, rules: tuple[str, ...]) -> None:
        """Log a move that does not happen, hidden from the players who cannot see every card named."""
        hidden = frozenset(p for p in range(self.state.num_players) if not all(self.can_see(o, p) for o in objs))
        self.log("move", text, rules, hidden_from=hidden, redacted=redacted)

    def move_card(self, obj: GameObject, zone: str, player: int | None, ctx: Ctx, *, position: str = "top",
                  states: dict[str, str] | None = None, mark: str | None = None, under: int | None = None,
                  kind: str | None = None, checked: bool = False) -> Gen:
        """Move one card; returns the object in its new zone (None if the move was refused by a
        placement restriction or replaced). `kind`: the kind of move, for the restrictions;
        `checked`: the restrictions were already judged (a swap judges both moves first)."""
        st = self.state
        dest_player = self.zone_player_for(obj, zone, player)
        if (self.rb.placement or self.continuous.may_restrict()) and not checked:
            refused = self.placement_refusal(obj, zone, dest_player, ctx, kind)
            if refused is not None:
                where = zone + (f" of P{dest_player + 1}" if dest_player is not None else "")
                self.log_refused([obj], f"{self.describe(obj)} cannot move to {where}: it does not move ({refused.id})",
                                 f"a card cannot move to {where}: it does not move ({refused.id})",
                                 ctx.rules + refused.rules)
                return None
        if self.state.effects or self.replacing_abilities:
            event = {"type": MOVED, "card": obj, "from": obj.zone, "to": zone, "from_player": obj.zone_player,
                     "to_player": dest_player}
            replaced = yield from repl.try_replace(self, event, ctx)
            if replaced:
                return None
        old_zone, old_player = obj.zone, obj.zone_player
        keep = self.keeps_identity(old_zone, zone)
        if not keep and self.continuous.active_for(obj):
            # Last known information: freeze what continuous effects made of it before it leaves
            # (read while the card is still in its zone, so no derived value sees a half-done move).
            obj.last_fields = {f: self.field(obj, f) for f in self.cards[obj.card_id].fields}
        src = st.zones[(old_zone, old_player)]
        src.remove(obj.oid)
        carried = [st.objects[i] for i in src if st.objects[i].holder == obj.oid] if keep else []
        seers = {p for p in range(st.num_players) if self.can_see(obj, p)}
        self.version += 1
        self.place_changed(old_zone, old_player)
        self.place_changed(zone, dest_player)
        if keep:
            old = GameObject(obj.oid, obj.card_id, obj.owner, obj.controller, obj.zone, obj.zone_player,
                             dict(obj.states), obj.timestamp, obj.entered_turn, obj.holder, dict(obj.counters),
                             dict(obj.marks), set(obj.known_to), obj.prev_oid, origin=obj.origin)
            new = obj
            new.zone, new.zone_player = zone, dest_player
            new.states = self._default_states(zone, states or {}, obj.states)
            new.timestamp = st.tick()
            new.holder = under
            if old_zone != zone:
                st.moved_within[new.oid] = st.turn  # read by moved_within_group_this_turn
        else:
            old = obj
            st.lki[obj.oid] = obj
            del st.objects[obj.oid]
            new = GameObject(st.new_id(), obj.card_id, obj.owner,
                             dest_player if dest_player is not None else obj.owner, zone, dest_player,
                             self._default_states(zone, states or {}), st.tick(), st.turn, under,
                             prev_oid=obj.oid, origin=obj.oid if obj.origin is None else obj.origin)
            new.known_to = seers
            st.objects[new.oid] = new
        for group, mname in self.rb.arrival_marks:
            gs = self.rb.group_sets.get(group, ())
            if zone in gs and old_zone not in gs:
                new.marks[mname] = st.turn
        if mark:
            new.marks[mark] = True
        dest = st.zones[(zone, dest_player)]
        if position == "bottom":
            dest.append(new.oid)
        else:
            dest.insert(0, new.oid)
        for c in carried:
            src.remove(c.oid)
            c.zone, c.zone_player = zone, dest_player
            dest.append(c.oid)
        if self.logging:
            where = f"{zone}" + (f" of P{dest_player + 1}" if dest_player is not None else "")
            hidden = frozenset(p for p in range(st.num_players) if p not in seers and not self.can_see(new, p))
            self.log("move", f"{self.describe(new)} moves from {old_zone} to {where}", ctx.rules,
                     hidden_from=hidden, redacted=f"a card #{new.oid} moves from {old_zone} to {where}")
        if not keep and self.rb.zones[zone].raw.get("cancels_pending"):
            # The card's abilities that were pending vanish as it enters this zone (those the move
            # itself triggers are collected below and may still resolve).
            self.drop_pending([x for x in st.pending if x.source == obj.oid and x.created is None], ctx,
                              f" of {self.describe(new)}")
        if self.continuous.lapse:
            self.continuous.observe()
        event = _MOVED.copy()  # the commonest event, copied presized (see _MOVED)
        event["card"], event["old"], event["new"], event["from"], event["to"] = new, old, new, old_zone, zone
        event["from_player"], event["to_player"] = old_player, dest_player
        self.emit(event, ctx)
        yield from self.interrupts(ctx)
        return new

    def stack_onto(self, card: GameObject, onto: GameObject, ctx: Ctx) -> tuple[GameObject, GameObject, str] | None:
        """Put `card` on top of the stack whose top is `onto`, the stack keeping its identity: the
        object `onto` (its id, zone, controller, states, counters, marks, entry turn and timestamp)
        now shows `card`'s card, so effects and anything else naming it keep naming the stack, and
        the card that was on top becomes a new object held under it, right below it. `card` comes
        from any zone (or from under `onto`), its old object kept as last known information as a
        move keeps it. The top's abilities are new abilities: their uses this turn start again.
        Returns (the top, the card now under it, the zone `card` came from), or None when either
        has left its zone or they are one object."""
        st = self.state
        objects = st.objects
        if card.oid == onto.oid or card.oid not in objects or onto.oid not in objects:
            return None
        came_from, from_player = card.zone, card.zone_player
        said = f"{self.describe(card)} is put on top of {self.describe(onto)}"
        if self.continuous.active_for(card):
            card.last_fields = {f: self.field(card, f) for f in self.cards[card.card_id].fields}
        seers = {p for p in range(st.num_players) if self.can_see(card, p)}
        saw_top = {p for p in range(st.num_players) if self.can_see(onto, p)}
        st.zones[(came_from, from_player)].remove(card.oid)
        st.lki[card.oid] = card
        del objects[card.oid]
        zone, zp = onto.zone, onto.zone_player
        first = onto.oid if onto.origin is None else onto.origin
        under = GameObject(st.new_id(), onto.card_id, onto.owner, onto.controller, zone, zp,
                           self._default_states(zone, {}), st.tick(), st.turn, onto.oid,
                           known_to=set(onto.known_to), prev_oid=onto.oid, origin=first)
        onto.card_id, onto.owner, onto.known_to = card.card_id, card.owner, seers
        onto.prev_oid, onto.origin, onto.last_fields = card.oid, card.oid if card.origin is None else card.origin, None
        objects[under.oid] = under
        dest = st.zones[(zone, zp)]
        dest.insert(dest.index(onto.oid) + 1, under.oid)
        self._forget_abilities_of(onto.oid)
        self.version += 1
        self.place_changed(came_from, from_player)
        self.place_changed(zone, zp)
        if self.continuous.lapse:
            self.continuous.observe()
        if self.logging:
            # Hidden from a player who sees the card put on top neither before nor after, or the old
            # top card neither before nor now.
            hidden = frozenset(p for p in range(st.num_players)
                               if (p not in seers and not self.can_see(onto, p))
                               or (p not in saw_top and not self.can_see(under, p)))
            self.log("stack", f"{said} (#{onto.oid} is now {self.describe(onto)}, with {self.describe(under)} "
                              f"under it)", ctx.rules, hidden_from=hidden,
                     redacted=f"a card is put on top of #{onto.oid}")
        return onto, under, came_from

    def _forget_abilities_of(self, oid: int) -> None:
        """An object now shows another card, whose abilities are new ones: what was kept per ability of
        the object (uses and once-a-turn triggers this turn, what its continuous abilities applied
        to and lapsed for) is dropped."""
        st = self.state
        prefix = f"{oid}:"
        for uses in (st.ability_uses, st.ability_uses_game):
            for k in [k for k in uses if k.startswith(prefix)]:
                del uses[k]
        if any(k.startswith(prefix) for k in st.triggered_this_turn):
            st.triggered_this_turn = {k for k in st.triggered_this_turn if not k.startswith(prefix)}
        if any(k[0] == oid for k in st.applying):
            st.applying = {k: v for k, v in st.applying.items() if k[0] != oid}
        if any(k[0] == oid for k in st.lapsed):
            st.lapsed = {k for k in st.lapsed if k[0] != oid}

    def redirect(self, obj: GameObject, dest: str, ctx: Ctx) -> str:
        r = self.rb.redirect
        if r and dest == r["from"] and r["if"](ctx.with_it(obj)):
            return r["to"]
        return dest

    def shuffle_zone(self, zone: str, player: int | None, ctx: Ctx) -> None:
        key = (zone, None if self.rb.zones[zone].shared else player)
        ids = self.state.zones[key]
        self.state.rng.shuffle(ids)
        for i in ids:
            self.state.objects[i].known_to.clear()
        self.version += 1
        self.place_changed(*key)
        self.log("shuffle", f"P{(player or 0) + 1} shuffles {zone} ({len(ids)} cards)", ctx.rules, chance=True)

    def set_state(self, obj: GameObject, state: str, value: str, ctx: Ctx) -> None:
        if obj.oid not in self.state.objects or state not in obj.states or obj.states[state] == value:
            return
        obj.states[state] = value
        self.version += 1
        # Working abilities depend on whether a card is face down, not on its other states.
        self.place_changed(obj.zone, obj.zone_player, abilities=state == FACE)
        if self.continuous.lapse:
            self.continuous.observe()
        if self.logging:
            self.log("state", f"{self.describe(obj)} becomes {value}", ctx.rules)
        self.emit({"type": STATE_CHANGED, "card": obj, "state": state, "value": value}, ctx)

    def emit(self, event: dict[str, Any], ctx: Ctx, *, once_per_turn: bool = False,
             only_player: int | None = None, departed: list[GameObject] | None = None,
             once_scope: Any = None) -> None:
        """Raise an event; `departed`: cards that left where their abilities work and still see it."""
        if self.logging and event["type"] not in self.unlogged:
            extra = {k: v for k, v in event.items() if k != "type"}
            self.log("event", f"event {event['type']} {self._fmt(extra)}".rstrip(), ctx.rules)
        self.triggers.collect(event, once_per_turn=once_per_turn, only_player=only_player, departed=departed,
                              once_scope=once_scope)

    def _fmt(self, data: dict[str, Any]) -> str:
        parts = []
        for k, v in data.items():
            if isinstance(v, GameObject):
                v = self.describe(v)
            elif isinstance(v, list):
                v = "[" + ", ".join(self.describe(x) if isinstance(x, GameObject) else str(x) for x in v) + "]"
            elif isinstance(v, int) and k in ("player",):
                v = f"P{v + 1}"
            parts.append(f"{k}={v}")
        return " ".join(parts)

    def interrupts(self, ctx: Ctx) -> Gen:
        """Rule processes that happen at any moment (not only at check timing), e.g. a refresh.
        Checked after every card move: when none applies, no procedure is started. A format's
        `after_leaving` rule with `watch` is checked here too once a player has left. Inside a
        simultaneous step (`simultaneously`) nothing is checked: the step checks once it is done."""
        if self._holding:
            return
        if self.after_leaving is not None and self.state.left and self.after_leaving[0].get("watch"):
            self._after_leaving(list(self.state.left))
            if self.state.over():
                return
        if self._in_interrupt or not self._always or not rproc.applicable(self, self._always, ctx):
            return
        self._in_interrupt = True
        try:
            yield from rproc.run_processes(self, self._always, ctx)
        finally:
            self._in_interrupt = False

    def simultaneously(self, body: Gen, ctx: Ctx) -> Gen:
        """Run `body` as one simultaneous step (a move of several cards, a step applied to several
        players at once): interrupts wait until the outermost such step is done, then whatever calls
        for one is processed once, in the rulebook's order, seeing the whole step's result. Choices
        inside still come one at a time, in the order the body asks them. Returns the body's value."""
        self._holding += 1
        try:
            result = yield from body
        finally:
            self._holding -= 1
        if not self._holding and not self.state.over():
            yield from self.interrupts(ctx)
        return result

    # -- effects ---------------------------------------------------------------------------
    def drop_pending(self, gone: list[Any], ctx: Ctx, of: str = "") -> None:
        """Pending abilities that vanish unresolved (a cancelling effect or zone)."""
        if not gone:
            return
        self.state.pending = [x for x in self.state.pending if x not in gone]
        self.touched()
        one = len(gone) == 1
        self.log("cancel", f"{len(gone)} pending abilit{'y' if one else 'ies'}{of} {'vanishes' if one else 'vanish'}",
                 ctx.rules)

    def place_changed(self, zone: str, player: int | None, abilities: bool = True) -> None:
        """A zone's cards, or their states, changed: what was derived from that zone is stale
        (`abilities`: and which abilities work there may have changed)."""
        self.idle.changed((zone, player))
        if abilities and zone in self.ability_zone_set:
            self.ability_version += 1

    def forget_departed(self) -> None:
        """Drop the last known information of cards that left their zones, except what a pending
        ability or an effect may still ask for (their source). Called as a turn begins: the table
        would otherwise grow with the game, and every state copy copies it."""
        st = self.state
        keep = {p.source for p in st.pending} | {e.source for e in st.effects}
        if len(st.lki) > len(keep):
            st.lki = {oid: o for oid, o in st.lki.items() if oid in keep}

    def touched(self, target: Any = None) -> None:
        """Record a change made outside move/set_state: to a card (its zone) or to the game."""
        self.version += 1
        if isinstance(target, GameObject):
            self.place_changed(target.zone, target.zone_player)
        else:
            self.global_version += 1
        if self.continuous.lapse:
            self.continuous.observe()

    def add_effect(self, kind: str, spec: dict[str, Any], ctx: Ctx, duration: Any,
                   locked: list[int] | None = None) -> Effect:
        """A lasting effect begins. `duration` is a duration id, or (id, owner expression) when the step
        names the player the duration belongs to; a duration declared with an `owner` belongs to the
        player its expression gives here (the effect's `owner`: `end_durations` with `player` ends it
        only at that player's step)."""
        src = ctx.this
        owner: int | None = None
        if isinstance(duration, tuple):
            duration, owner_of = duration
            owner = self._duration_owner(duration, owner_of(ctx))
        elif duration is not None:
            dur = self.rb.durations.get(duration)
            if dur is not None and dur.owner is not None:
                owner = self._duration_owner(duration, dur.owner(ctx))
        eff = Effect(self.state.new_id(), kind, spec, ctx.you if ctx.you is not None else 0,
                     src.oid if isinstance(src, GameObject) else -1,
                     src.card_id if isinstance(src, GameObject) else "", self.state.tick(), duration,
                     self.state.turn, locked, bindings=ctx.all_vars(), event=ctx.event, owner=owner)
        self.state.effects.append(eff)
        self.version += 1
        self.log("effect", f"a {kind.replace('_', ' ')} effect begins"
                 + (f" until {duration}" if duration else "")
                 + (f" (P{owner + 1}'s)" if owner is not None else ""), ctx.rules)
        return eff

    def effect_dormant(self, eff: Effect) -> bool:
        """Whether an effect waits outside its owner's turn: one of a duration that applies only while
        its owner takes the turn (`only_in_owner_turn`), now in another player's turn or in a part of
        the game that is nobody's (a node whose turn player is none)."""
        return bool(self.owner_turn_durations) and eff.owner is not None \
            and eff.duration in self.owner_turn_durations and eff.owner not in self.turn_team()

    @staticmethod
    def _duration_owner(duration: str, who: Any) -> int:
        if not isinstance(who, int) or isinstance(who, bool):
            raise GameError(f"the player duration '{duration}' belongs to is not a player: {who!r}")
        return who

    def effect_scope(self, eff: Effect, event: dict[str, Any] | None = None, rules: tuple[str, ...] = ()) -> Ctx:
        """The scope an effect's expressions read whenever it applies, made of what its creator saw:
        its master (`you`), its source (`this`; as last known once it has left its zone), the variables
        of every scope around the step that created it, and its creator's event, unless the effect has
        an event of its own (a delayed trigger's or a replacement's: `event` is then that one)."""
        st = self.state
        return Ctx(self, None, you=eff.master, this=st.objects.get(eff.source) or st.lki.get(eff.source),
                   event=eff.event if event is None else event, rules=rules, vars=dict(eff.bindings))

    def end_durations(self, durations: set[str], ctx: Ctx, player: int | None = None) -> None:
        """End the effects lasting for one of these durations: with `player`, only those whose duration
        belongs to that player (`owner`). An effect of a duration with `skip_creation_turn` outlives the
        turn it was created in. The effects that end together end in a fixed order: those belonging to
        no player first, then each player's, from the turn player on in turn order (`players_from`),
        each in the order they began; status effects are lifted and the log written in that order."""
        st = self.state
        keep: list[Effect] = []
        ended: list[Effect] = []
        for e in st.effects:
            if e.duration in durations and (player is None or e.owner == player) \
                    and not (e.created_turn >= st.turn and self._skips_creation_turn(e.duration)):
                ended.append(e)
            else:
                keep.append(e)
        if not ended:
            return
        unowned = [e for e in ended if e.owner is None]
        by_owner = [(p, [e for e in ended if e.owner == p]) for p in self.players_from(self.cur_tp)]
        by_owner += [(p, [e for e in ended if e.owner == p])  # an owner who has left (ended with them)
                     for p in sorted({e.owner for e in ended if e.owner is not None} - {q for q, _ in by_owner})]
        st.effects = keep
        self.version += 1
        for who, group in [(None, unowned), *by_owner]:
            if not group:
                continue
            for e in group:
                if e.kind == "status":
                    st.player_counters[e.spec["player"]].pop("status:" + e.spec["status"], None)
                    self.idle.changed_all()  # a player's counters changed (see the counter verb)
            self.log("effect", (f"P{who + 1}'s " if who is not None else "") + f"{len(group)} effect(s) end",
                     ctx.rules)

    def _skips_creation_turn(self, duration: str | None) -> bool:
        dur = self.rb.durations.get(duration) if duration is not None else None
        return dur is not None and dur.skip_creation_turn

    # -- outcomes ----------------------------------------------------------------------------
    def declare_outcomes(self, players: list[int], kind: str, ctx: Ctx) -> None:
        """Players win or lose together: inside a rule-process batch with that batch's outcomes."""
        if self._collecting is not None:
            self._collecting.extend((p, kind) for p in players)
        else:
            self.finalize_outcomes([(p, kind) for p in players], ctx.rules)

    def finalize_outcomes(self, outcomes: list[tuple[int, str]], rules: tuple[str, ...]) -> None:
        """Outcomes declared together. A winner ends the game (every other player loses); every player
        winning at once, or winning and losing at once, is a draw. Losers leave the game: when one
        player is left they win, when none is the game is a draw (nobody wins), and otherwise the
        others play on, and the event `game_lost` (if declared) is raised for each who left. With two
        players: one loses and the other wins, both lose and it is a draw."""
        if not outcomes or self.state.result is not None:
            return
        present = self.players_in()
        winners = {p for p, k in outcomes if k == "win"}
        losers = {p for p, k in outcomes if k == "lose"}
        if self.teams:
            winners |= {q for p in winners for q in self.teammates(p)}  # a team wins together
            if self.teams_lose_together:
                losers |= {q for p in losers for q in self.teammates(p)}
        remaining = [p for p in present if p not in losers]
        if (winners and winners >= set(present)) or (winners & losers) or (not winners and not remaining):
            self.end_game(None, "draw", rules + tuple(self.rb.outcomes.get("rules") or ()))
            return
        if winners:
            self.end_game(sorted(winners), "win", rules)
            return
        one_team_left = any(set(remaining) <= set(team) for team in self.teams)
        leavers = [p for p in sorted(losers) if p in present]
        if one_team_left or len(remaining) > 1:
            for p in leavers:
                self.leave(p, rules)
        if one_team_left or len(remaining) == 1:
            self.end_game(remaining, "win", rules)  # the last player, or the last team's players, win
        elif leavers:
            self._after_leaving(leavers)
        if leavers and GAME_LOST in self.rb.events and not self.state.over():
            for p in leavers:  # the others' abilities may trigger on it (the leavers' cards are gone)
                self.triggers.collect({"type": GAME_LOST, "player": p})

    def _after_leaving(self, leavers: list[int]) -> None:
        """A format's rule for when players leave a game that goes on (`after_leaving`): the players
        its expression gives, with `leavers` bound to those who just left (when watched, to all who
        have left), win at once."""
        if self.after_leaving is None:
            return
        spec, winners_of_leave = self.after_leaving
        ctx = Ctx(self, None, you=self.cur_tp, rules=tuple(spec.get("rules") or ()), vars={"leavers": leavers})
        winners = sorted({p for p in winners_of_leave(ctx) or [] if p is not None and p not in self.state.left})
        if winners:
            self.end_game(winners, "win", ctx.rules)

    def leave(self, player: int, rules: tuple[str, ...]) -> None:
        """A player who lost leaves a game that goes on (Re:Birth 12.4): the cards they own cease to
        exist, their pending abilities, the effects they are master of and those whose duration
        belongs to them (a turn of theirs that would end it never comes) end, and nothing is
        processed for them from now on (their decisions get the least answer; the turn goes on)."""
        st = self.state
        st.left.append(player)
        self.log("leave", f"P{player + 1} leaves the game", rules)
        gone = [o for o in st.objects.values() if o.owner == player]
        for o in gone:
            st.zones[(o.zone, o.zone_player)].remove(o.oid)
            st.lki[o.oid] = o
            del st.objects[o.oid]
            self.place_changed(o.zone, o.zone_player)
        st.cards_gone += len(gone)
        st.pending = [x for x in st.pending if x.master != player]
        st.effects = [e for e in st.effects if e.master != player and e.owner != player]
        self.version += 1
        self.global_version += 1
        self.idle.changed_all()
        self.idle.lists.clear()  # binding lists kept per roles named the player who left
        self.cache.clear()

    def end_game(self, winner: int | list[int] | None, outcome: str, rules: tuple[str, ...]) -> None:
        """The game ends: a win for one player or several (`winners` lists them when there are
        several), or a draw."""
        if self.state.result is not None:
            return
        winners = [] if winner is None else [winner] if isinstance(winner, int) else sorted(winner)
        self.state.result = {"outcome": outcome, "winner": winners[0] if len(winners) == 1 else None,
                             "rules": list(rules), "turn": self.state.turn}
        if len(winners) > 1:
            self.state.result["winners"] = winners
        text = ("the game is a draw" if not winners else
                " and ".join(f"P{w + 1}" for w in winners) + (" wins the game" if len(winners) == 1
                                                               else " win the game"))
        self.log("result", text, rules)

    def loop_draw(self, what: str) -> None:
        """End a game that cannot end. The rulebook's `infinite_loop.result` says how: `draw`, or
        `lose_master`: the player in control when the loop was cut off (the turn player, else the
        active player) loses."""
        self.log("loop", f"the game cannot end ({what} exceeded the cap)", self.loop_rules)
        result = (self.rb.raw.get("infinite_loop") or {}).get("result", "draw")
        if result == "lose_master":
            master = self.cur_tp if self.cur_tp is not None else self.cur_ap
            if master is not None:
                self.log("loop", f"P{master + 1} started the loop and loses", self.loop_rules)
                self.end_game([p for p in self.players_in() if p != master] or None, "win", self.loop_rules)
                return
            result = "draw"
        self.end_game(None, result, self.loop_rules)

    # -- procedures --------------------------------------------------------------------------
    def check_timing(self, ctx: Ctx) -> Gen:
        return (yield from ct.check_timing(self, ctx))

    def play_timing(self, player: int | list[int], actions: list[str], ctx: Ctx, in_order: bool = False) -> Gen:
        yield from pt.play_timing(self, player, actions, ctx, in_order)

    # -- views -----------------------------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """What one player may see: hidden cards appear only as counts or as 'hidden'."""
        zones: dict[str, Any] = {}
        for (z, p), ids in self.state.zones.items():
            key = z if p is None else f"{z}@P{p + 1}"
            cards = []
            for i in ids:
                o = self.state.objects[i]
                if self.can_see(o, player):
                    cards.append({"oid": o.oid, "card": o.card_id, "states": dict(o.states),
                                  "holder": o.holder})
                else:
                    hidden: dict[str, Any] = {"oid": o.oid, "card": None, "states": dict(o.states), "holder": o.holder}
                    facts = self.hidden_facts(o)
                    if facts:
                        hidden["facts"] = facts
                    cards.append(hidden)
            zones[key] = cards
        return {"player": player, "turn": self.state.turn, "roles": dict(self.state.roles),
                "node": self.cur_node.id if self.cur_node else "setup", "zones": zones,
                "result": self.state.result}
