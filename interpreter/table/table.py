"""A game in play as expressions read it: the record every layer above works on.

`Table` holds the state, the rulebook and the card pool, where the walk stands (the current node,
turn player and active player), the log, the versions that say when derived values went stale, and
the readers expressions call by name: positional names and roles, players in seat and turn order,
card attributes. What needs a layer above it (a field's value through continuous effects, a card's
abilities now, whether a cost can be paid or a text could change anything), an expression asks of
the table through the methods at the end of the class, which the layers above implement
(interpreter/derive/play.py, interpreter/engine/game.py): expressions never import them.
"""

from __future__ import annotations

import random
from typing import Any

from interpreter.model.rulebook import GRANTED, Ability, CardDef, Rulebook
from interpreter.state.errors import GameError
from interpreter.state.log import LogEntry
from interpreter.state.multiset import Multiset
from interpreter.state.objects import GameObject, GameState
from interpreter.table.attributes import FIELD, STATE, TYPE, attr_kind, read_slot
from interpreter.table.context import POSITIONAL, Ctx
from interpreter.table.derived import Derived
from interpreter.table.pool import PoolFacts, pool_facts


def empty_state(rb: Rulebook, players: int, seed: int) -> GameState:
    """A game's state before the decks are dealt: every zone there, empty."""
    st = GameState(num_players=players, rng=random.Random(seed))
    st.player_counters = [{} for _ in range(players)]
    for zid, zdef in rb.zones.items():
        for p in [None] if zdef.shared else range(players):
            st.zones[(zid, p)] = []
    return st


class Table:
    """One game's state under one rulebook, with its cards, decks, seed and log, as expressions read it."""

    def __init__(self, rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]],
                 seed: int = 0, *, log: bool = True, state: GameState | None = None) -> None:
        self.rb = rb
        facts = pool_facts(rb, cards)  # shared by every game of this rulebook and card pool
        self.pool: PoolFacts = facts
        # A plain dict (the card pool's own class is a subclass of dict: see PoolFacts.cards).
        self.cards = facts.cards
        self.decks = decks
        self.seed = seed
        self.state = empty_state(rb, len(decks), seed) if state is None else state
        self.entries: list[LogEntry] = []
        self.logging = log
        self.cur_node: Any = None
        self.cur_tp: int | None = None
        self.cur_ap: int | None = None
        # Zones where a face-down card's master may look at it (a zone's `face_down_seen_by_master`).
        self.seen_face_down = facts.seen_face_down
        # Durations whose effects apply only in their owner's turns (`only_in_owner_turn`).
        self.owner_turn_durations = facts.owner_turn_durations
        # Teams of seats (a format's `teams`, 1-based in the data): teammates win together, and with
        # `lose_together` a player leaving makes the team lose.
        self.teams = facts.teams
        self.teams_lose_together = facts.teams_lose_together
        # `turns: team`: a turn is the turn player's team's (turn_team()); `share_hidden`: teammates
        # see what each other sees.
        self.team_turns = facts.team_turns
        self.team_sight = facts.team_sight
        # A rulebook's ability kind -> how it is played (activated | auto | continuous).
        self.kind_of = facts.kind_of
        # Values derived from the state and when they went stale. A fork starts these afresh.
        self.version = 0  # bumped by every state change; keys caches of derived values
        self.global_version = 0  # bumped by changes outside zones (roles, variables, turn, statuses)
        # Facts derived from the state, each kept until what it read changes (table/derived.py).
        self.derived = Derived()
        self.attr_kinds: dict[str, int] = {}  # attribute name -> how to read it from a game object (attributes.py)
        self.attr_hook = self.attr  # bound once; every context hands it to expressions

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

    def attr(self, obj: Any, name: str) -> Any:
        if type(obj) is GameObject:
            # How to read a name is decided on its first use (expressions ask the same few names
            # millions of times), and read here without calling a reader per name.
            kind = self.attr_kinds.get(name)
            if kind is None:
                kind = self.attr_kinds[name] = attr_kind(name, self.rb.states)
            if kind == STATE:
                return obj.states.get(name)
            if kind == TYPE:
                return self.cards[obj.card_id].type
            if kind == FIELD:
                return self.field(obj, name)
            return read_slot(obj, kind)
        if type(obj) is dict:  # an event, a mapping value (a Multiset is read below)
            return obj.get(name)
        if isinstance(obj, Multiset):
            return obj.get(name, 0)
        if isinstance(obj, dict):
            return obj.get(name)
        return None

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

    # -- players -------------------------------------------------------------------------
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

    # -- what the layers above work out ------------------------------------------------------
    # Derived facts (interpreter/derive/play.py):
    def field(self, obj: GameObject, name: str) -> Any:
        """A card's field as continuous effects make it (as it last was, for a card that has left)."""
        raise NotImplementedError

    def abilities_of(self, obj: GameObject) -> list[Ability]:
        """A card's abilities now: printed (or set by an effect), then granted."""
        raise NotImplementedError

    def player_value(self, player: int, name: str, base: Any) -> Any:
        """A player's value `name` as continuous effects make it, from `base`."""
        raise NotImplementedError

    def untriggered(self, event_type: str, scope: Any) -> int:
        """How many abilities would trigger on an event and have not yet (this turn, or in `scope`)."""
        raise NotImplementedError

    def keywords_in_force(self, obj: GameObject, ab: Ability) -> bool:
        """Whether the keywords of this card's ability are there now (its condition keywords hold)."""
        raise NotImplementedError

    # Procedures tried without being carried out (interpreter/engine/game.py):
    def cost_payable(self, card: GameObject, kind: str) -> bool:
        """Whether the card has an ability of this kind whose cost its controller can pay now."""
        raise NotImplementedError

    def can_move_to(self, card: GameObject, zone: str, player: Any, ctx: Any, kind: Any,
                    joining: tuple[GameObject, ...]) -> bool:
        """Whether a move of the card into `zone` of `player` would happen now."""
        raise NotImplementedError

    def usable(self, card: GameObject, kind: str) -> bool:
        """Whether the card has an ability of this kind its controller could play now."""
        raise NotImplementedError

    def could_change(self, card: GameObject, kind: str, zone: str | None) -> bool:
        """Whether carrying out the card's abilities of this kind now could change the game."""
        raise NotImplementedError
