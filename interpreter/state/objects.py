"""Game objects and the plain-data game state.

A card in a zone is a *game object*. Moving it to another zone normally gives it a new
object id (the "new object" rule every game shares); the old id stays readable through the
last-known-information table so effects and triggers can still ask what it looked like (until
the next turn begins, or for as long as a pending ability or an effect names it as its source).
Everything here is plain data so a state can be copied, hashed and compared.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any, Final

ZoneKey = tuple[str, int | None]
Oids = list[Any]
"""The object ids in a zone, in order (ints). Typed Any on purpose: a compiled build unboxes the items
of a list[int] and boxes them again for every lookup by id, an allocation once ids pass 256."""
# The one placement state the engine itself reads: a face-down card is hidden (but from those it is
# known to) and its abilities do not work. Every other state means what the rulebook says it means.
FACE: Final = "face"


@dataclass(slots=True, init=False)
class GameObject:
    """One card as it exists in one zone (a new object per zone change).

    The records the engine makes during play write their own `__init__`: the one `dataclass`
    generates is interpreted Python even in a compiled build, and this is the commonest of them."""

    oid: int
    card_id: str
    owner: int
    controller: int
    zone: str
    zone_player: int | None
    states: dict[str, str]
    timestamp: int
    entered_turn: int
    holder: int | None  # oid of the card this one is placed under
    counters: dict[str, int]
    marks: dict[str, Any]
    known_to: set[int]
    prev_oid: int | None
    last_fields: dict[str, Any] | None  # field values as they were when it left play (LKI)
    origin: int | None  # the first object id of this physical card (None: this one)

    def __init__(self, oid: int, card_id: str, owner: int, controller: int, zone: str, zone_player: int | None,
                 states: dict[str, str], timestamp: int, entered_turn: int, holder: int | None = None,
                 counters: dict[str, int] | None = None, marks: dict[str, Any] | None = None,
                 known_to: set[int] | None = None, prev_oid: int | None = None,
                 last_fields: dict[str, Any] | None = None, origin: int | None = None) -> None:
        self.oid = oid
        self.card_id = card_id
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.zone_player = zone_player
        self.states = states
        self.timestamp = timestamp
        self.entered_turn = entered_turn
        self.holder = holder
        self.counters = {} if counters is None else counters
        self.marks = {} if marks is None else marks
        self.known_to = set() if known_to is None else known_to
        self.prev_oid = prev_oid
        self.last_fields = last_fields
        self.origin = origin

    def __eq__(self, other: object) -> bool:
        """Field by field, as `dataclass` would, but written here so a compiled build runs it
        natively (the generated one is interpreted) and so it stops at the object id, which tells
        two different objects apart at once. Expressions compare cards (`it != this`) often."""
        if self is other:
            return True
        if type(other) is not GameObject:
            return NotImplemented
        return (self.oid == other.oid and self.card_id == other.card_id and self.owner == other.owner
                and self.controller == other.controller and self.zone == other.zone
                and self.zone_player == other.zone_player and self.states == other.states
                and self.timestamp == other.timestamp and self.entered_turn == other.entered_turn
                and self.holder == other.holder and self.counters == other.counters and self.marks == other.marks
                and self.known_to == other.known_to and self.prev_oid == other.prev_oid
                and self.last_fields == other.last_fields and self.origin == other.origin)


def _copy_object(o: GameObject) -> GameObject:
    return GameObject(o.oid, o.card_id, o.owner, o.controller, o.zone, o.zone_player, dict(o.states), o.timestamp,
                      o.entered_turn, o.holder, dict(o.counters), dict(o.marks), set(o.known_to), o.prev_oid,
                      dict(o.last_fields) if o.last_fields is not None else None, o.origin)


def remap(value: Any, objects: dict[int, GameObject]) -> Any:
    """The same data with every card in a zone replaced by its copy (containers are new)."""
    if type(value) is GameObject:
        return objects.get(value.oid, value)
    if isinstance(value, dict):
        return {k: remap(v, objects) for k, v in value.items()}
    if isinstance(value, list):
        # Cards read straight off (a variable may hold a long list of them), anything else recursively.
        return [objects.get(v.oid, v) if type(v) is GameObject else remap(v, objects) for v in value]
    if isinstance(value, tuple):
        return tuple(remap(v, objects) for v in value)
    return value


@dataclass(slots=True, init=False)
class Pending:
    """A triggered ability waiting for a check timing; one entry is one pending count."""

    pid: int
    source: int  # oid of the source when it triggered
    card_id: str
    ability: int  # index into the card's ability list (or -1 for a created trigger)
    master: int
    event: dict[str, Any]
    created: dict[str, Any] | None  # a created (delayed) trigger's definition

    def __init__(self, pid: int, source: int, card_id: str, ability: int, master: int, event: dict[str, Any],
                 created: dict[str, Any] | None = None) -> None:
        self.pid = pid
        self.source = source
        self.card_id = card_id
        self.ability = ability
        self.master = master
        self.event = event
        self.created = created


@dataclass(slots=True, init=False)
class Effect:
    """A continuous effect created by resolving an ability, or a replacement / delayed trigger."""

    eid: int
    kind: str  # continuous | replacement | delayed_trigger
    spec: dict[str, Any]
    master: int
    source: int
    source_card: str
    timestamp: int
    duration: str | None
    created_turn: int
    locked: list[int] | None  # objects it applies to, fixed at creation (9.9.2-like locks)
    uses: int
    bindings: dict[str, Any]  # the variables its creator's scopes held when it was created
    event: dict[str, Any] | None  # the event its creator saw (a triggered ability's), read as `event`
    owner: int | None  # the player its duration belongs to (a duration with an `owner`), else None

    def __init__(self, eid: int, kind: str, spec: dict[str, Any], master: int, source: int, source_card: str,
                 timestamp: int, duration: str | None, created_turn: int, locked: list[int] | None = None,
                 uses: int = 0, bindings: dict[str, Any] | None = None,
                 event: dict[str, Any] | None = None, owner: int | None = None) -> None:
        self.eid = eid
        self.kind = kind
        self.spec = spec
        self.master = master
        self.source = source
        self.source_card = source_card
        self.timestamp = timestamp
        self.duration = duration
        self.created_turn = created_turn
        self.locked = locked
        self.uses = uses
        self.bindings = {} if bindings is None else bindings
        self.event = event
        self.owner = owner


@dataclass(init=False)
class GameState:
    """Everything that changes during a game, as plain data."""

    num_players: int
    rng: random.Random
    objects: dict[int, GameObject]
    zones: dict[ZoneKey, Oids]
    lki: dict[int, GameObject]
    roles: dict[str, int]
    vars: dict[str, Any]
    player_counters: list[dict[str, int]]
    turn: int
    next_id: int
    clock: int
    pending: list[Pending]
    effects: list[Effect]
    ability_uses: dict[str, int]  # "oid:index" -> uses this turn
    ability_uses_game: dict[str, int]  # "oid:index" -> uses this game, of abilities limited a game
    triggered_this_turn: set[str]
    # Continuous abilities that lapse (a rulebook option): what each (source object, ability index)
    # applied to when last seen, and the (source, ability, card) triples that lapsed this turn.
    applying: dict[tuple[int, int], frozenset[int]]
    lapsed: set[tuple[int, int, int]]
    # Objects that moved between zones keeping their identity (within one group): object id -> the
    # turn of its latest such move.
    moved_within: dict[int, int]
    skips: list[str]
    jump: str | None
    result: dict[str, Any] | None
    decisions: int
    # Players who have left the game (lost while others play on), in the order they left, and how
    # many cards ceased to exist with them.
    left: list[int]
    cards_gone: int
    # The players still in, in seat (turn) order, as they stood when the current turn began: a player
    # who leaves keeps their place here until the turn ends (Re:Birth 12.6.7). And how many turns each
    # player has taken (as turn player, or one of a turn team).
    seating: list[int]
    turns_taken: list[int]

    def __init__(self, num_players: int, rng: random.Random, objects: dict[int, GameObject] | None = None,
                 zones: dict[ZoneKey, Oids] | None = None, lki: dict[int, GameObject] | None = None,
                 roles: dict[str, int] | None = None, vars: dict[str, Any] | None = None,
                 player_counters: list[dict[str, int]] | None = None, turn: int = 0, next_id: int = 1,
                 clock: int = 0) -> None:
        self.num_players = num_players
        self.rng = rng
        self.objects = {} if objects is None else objects
        self.zones = {} if zones is None else zones
        self.lki = {} if lki is None else lki
        self.roles = {} if roles is None else roles
        self.vars = {} if vars is None else vars
        self.player_counters = [] if player_counters is None else player_counters
        self.turn = turn
        self.next_id = next_id
        self.clock = clock
        self.pending = []
        self.effects = []
        self.ability_uses = {}
        self.ability_uses_game = {}
        self.triggered_this_turn = set()
        self.applying = {}
        self.lapsed = set()
        self.moved_within = {}
        self.skips = []
        self.jump = None
        self.result = None
        self.decisions = 0
        self.left = []
        self.cards_gone = 0
        self.seating = list(range(num_players))
        self.turns_taken = [0] * num_players

    def over(self) -> bool:
        """The game has a result. Procedures test this rather than `result` itself: a type checker
        (and mypyc, which compiles by its types) would carry a `result is None` test across the
        yields that may end the game."""
        return self.result is not None

    def halted(self) -> bool:
        """The game is over or a jump is pending: the procedure under way stops (as for `over`)."""
        return self.result is not None or self.jump is not None

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def tick(self) -> int:
        self.clock += 1
        return self.clock

    def zone(self, name: str, player: int | None) -> Oids:
        return self.zones[(name, player)]

    def copy(self, rng: random.Random | None = None) -> GameState:
        """An independent copy, for search agents and what-if checks (Game.fork).

        Cards in zones are copied; last-known information is shared, since an object never changes
        once it has left its zone. Every reference to a card kept elsewhere in the state (pending
        abilities' events, effects' bindings, variables) is pointed at the copied card. The copy's
        random generator is `rng` when given (the caller has put it in this one's state), else a
        copy of this one's."""
        objects = {oid: _copy_object(o) for oid, o in self.objects.items()}
        if rng is None:
            rng = random.Random(0)  # a seed, so as not to ask the system for entropy: setstate replaces it
            rng.setstate(self.rng.getstate())
        out = GameState(self.num_players, rng, objects, {k: list(v) for k, v in self.zones.items()}, dict(self.lki),
                        dict(self.roles), remap(self.vars, objects), [dict(c) for c in self.player_counters],
                        self.turn, self.next_id, self.clock)
        out.pending = [Pending(p.pid, p.source, p.card_id, p.ability, p.master, remap(p.event, objects),
                               remap(p.created, objects)) for p in self.pending]
        out.effects = [Effect(e.eid, e.kind, e.spec, e.master, e.source, e.source_card, e.timestamp, e.duration,
                              e.created_turn, list(e.locked) if e.locked is not None else None, e.uses,
                              remap(e.bindings, objects), remap(e.event, objects), e.owner) for e in self.effects]
        out.ability_uses = dict(self.ability_uses)
        out.ability_uses_game = dict(self.ability_uses_game)
        out.triggered_this_turn = set(self.triggered_this_turn)
        out.applying = dict(self.applying)
        out.lapsed = set(self.lapsed)
        out.moved_within = dict(self.moved_within)
        out.skips = list(self.skips)
        out.jump = self.jump
        # The result is flat (outcome, winner, turn, a list of rules): copying its lists suffices.
        out.result = None if self.result is None else {k: list(v) if isinstance(v, list) else v
                                                       for k, v in self.result.items()}
        out.decisions = self.decisions
        out.left = list(self.left)
        out.cards_gone = self.cards_gone
        out.seating = list(self.seating)
        out.turns_taken = list(self.turns_taken)
        return out

    def fingerprint(self) -> str:
        """A stable hash of the visible and hidden state, used by replays and golden tests."""
        data = {
            "zones": {f"{z}@{p}": [self.objects[o].card_id for o in ids] for (z, p), ids in
                      sorted(self.zones.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1]))},
            "states": {str(o): sorted(obj.states.items()) for o, obj in sorted(self.objects.items())},
            "roles": self.roles,
            "turn": self.turn,
            "result": self.result,
        }
        if self.left:
            data["left"] = self.left
        return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def winners_of(result: dict[str, Any] | None) -> list[int]:
    """The players a game's result makes winners: one, several (`winners`), or none (a draw)."""
    if not result or result.get("outcome") != "win":
        return []
    return list(result.get("winners") or ([result["winner"]] if result.get("winner") is not None else []))


def result_text(result: dict[str, Any] | None) -> str:
    """'P1 wins', 'P1 and P3 win', 'draw' or 'no result'."""
    if not result:
        return "no result"
    won = winners_of(result)
    if not won:
        return "draw"
    return " and ".join(f"P{w + 1}" for w in won) + (" wins" if len(won) == 1 else " win")


def as_objects(v: Any) -> list[GameObject]:
    """A value read as the cards it names: one card, a list's cards, none for null or a player."""
    if v is None:
        return []
    if isinstance(v, GameObject):
        return [v]
    if isinstance(v, int):
        return []  # a player (an effect on a player's values affects no card)
    return [o for o in v if isinstance(o, GameObject)]
