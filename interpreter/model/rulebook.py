"""The compiled rulebook and card database: plain records the engine reads during play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from interpreter.expr import FuncSpec
from interpreter.model.layout import Layout
from interpreter.model.vocabulary import Step

Fn = Callable[[Any], Any]


@dataclass
class ZoneDef:
    id: str
    rules: tuple[str, ...]
    shared: bool
    visibility: str  # public | private | owner
    ordered: bool
    groups: tuple[str, ...]
    states: tuple[str, ...]
    stacking: bool
    raw: dict[str, Any]
    # Facts about a card here that every player may know even when it is hidden (`hidden_facts`).
    hidden_facts: dict[str, Fn] = field(default_factory=dict)


@dataclass
class Template:
    id: str
    rules: tuple[str, ...]
    defaults: dict[str, Fn]
    steps: tuple[Step, ...]
    can: Fn | None
    text_choices: bool = False  # its choices are the calling text's own (`short_choice` judges them)


@dataclass
class Action:
    id: str
    rules: tuple[str, ...]
    kind: str  # play_card | activate
    candidates: Fn | None
    legal: Fn | None
    steps: tuple[Step, ...]


@dataclass
class RuleProcess:
    id: str
    rules: tuple[str, ...]
    when: str  # always | check_timing
    players: Fn | None
    zones: Fn | None
    cond: Fn
    steps: tuple[Step, ...]
    stage: str | None = None  # the check-timing stage that runs it (check_timing.stages)
    # The (zone, player) places its condition reads for one binding: a zone name or "$z", and the
    # player "$p", None (a shared zone) or "*" (any player); None: cannot tell.
    watch_keys: tuple[tuple[str, str | None], ...] | None = None
    reads_fields: frozenset[str] | None = None  # attributes its condition reads (None: any)
    static_bindings: bool = False  # its binding lists depend on the roles alone
    zone_only: bool = False  # its condition reads only zones and cards (no variable, status, turn...)


@dataclass
class Ability:
    """One ability of a card, with its keywords already applied."""

    index: int
    kind: str  # activated | auto | continuous
    rules: tuple[str, ...]
    triggers: list[dict[str, Any]]
    cost: tuple[Step, ...]
    optional: bool
    effect: tuple[Step, ...]
    continuous: dict[str, Any] | None
    limit: int | None
    gate_zone: str | None
    keywords: tuple[str, ...]
    text: str = ""
    # (group, condition) pairs from `condition` keywords: every group needs one condition to hold.
    conditions: tuple[tuple[str, Fn], ...] = ()
    answers: Fn | None = None  # a response ability: what it may be presented against (`target`)
    # Conditions checked again when the ability starts to resolve (`checked_when_resolving`).
    resolving_conditions: tuple[tuple[str, Fn], ...] = ()
    # The rulebook's designations its effect reads: made when it starts to resolve (Designation).
    designates: tuple[Designation, ...] = ()
    # The most uses a game (a `limit` keyword's `uses_per_game`), beside `limit`, the most a turn.
    game_limit: int | None = None
    # The values it gives its keywords that declare parameters (`{charge: 3000}`): keyword -> name -> value.
    keyword_params: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Designation:
    """A name a played effect designates as it starts to resolve (a `designations` element): the
    player `by` chooses `count` of `pool` (no choice when that is all of them); read anywhere else
    (a continuous ability), the name means `otherwise`. E.g. "the opponent" as one designated
    player in a played effect but every opponent in a continuous one."""

    id: str
    name: str
    rules: tuple[str, ...]
    by: Fn
    pool: Fn
    count: Fn
    otherwise: Fn


CHOOSER: Final = "chooser"
"""The name an `unchoosable` condition reads for the player who makes the choice."""


@dataclass(frozen=True)
class Unchoosable:
    """Cards a choice leaves out (`choosing.unchoosable`): `cond` over `it` (the candidate), `you`
    (the effect's master) and `chooser`; `all_choices` when it restricts the rules' own choices too,
    not only those made while a card's ability is paid for or resolves."""

    id: str
    rules: tuple[str, ...]
    cond: Fn
    all_choices: bool


@dataclass(frozen=True)
class PlacementRestriction:
    """Moves into some zones that do not happen (`zone_rules.placement_restrictions`): a move into
    one of its zones, of one of `kinds` (None: any move), is refused when `cond` holds, read over
    `it` (the card as it stands), `dest`, `dest_player`, `leaving` and `you`."""

    id: str
    rules: tuple[str, ...]
    kinds: frozenset[str] | None
    cond: Fn


@dataclass(frozen=True)
class EffectRestriction:
    """A placement restriction a continuous effect adds while it applies (`restrict:` in its
    description: a card's "the opponent cannot appear ..."): a move into one of `zones` (zone or zone
    group names; None: any zone), of one of `kinds` (None: any move), does not happen while `cond`
    holds. `cond` is read in the effect's own scope (its master `you`, its source `this`, the variables
    its creator saw) with `it` the card and the names of a placement restriction (`dest`,
    `dest_player`, `leaving`, `mover`, `by_ability`)."""

    zones: frozenset[str] | None
    kinds: frozenset[str] | None
    cond: Fn
    rules: tuple[str, ...]


ENGINE_KINDS: Final = {"voluntarily": "activated", "on_trigger": "auto", "never": "continuous",
                       "in_response": "response"}
"""How a rulebook's ability kind is played (its `played`) -> the engine's kind of ability."""


def engine_kind(kind_def: dict[str, Any]) -> str:
    """The engine's kind for a rulebook's ability kind: by how it is played, else its own id."""
    return ENGINE_KINDS.get(str(kind_def.get("played", "")), str(kind_def.get("id")))


REPLACING: Final = ("instead", "change", "before", "after")
"""The keys that make a continuous ability's effect description replace an event."""


def replaces(spec: dict[str, Any] | None) -> bool:
    """Whether a continuous ability's effect description is a replacement effect (timing/replacement.py)."""
    return bool(spec) and "event" in spec and any(k in spec for k in REPLACING)  # type: ignore[operator]


GRANTED: Final = 1000
"""The first index of a granted ability: a card's printed abilities are numbered from 0, the abilities
grants give (`grant:` in an effect description) from here, one number per grant in the rulebook's
registry (`Rulebook.grants`), so a pending ability, a play option or a use count names either kind
by its card and number alone."""


@dataclass
class Grant:
    """An ability an effect gives to cards (`grant:`), compiled once at load like a printed ability:
    `base` with no card type, `by_type` for each card type whose default keywords it then takes (as
    that type's printed abilities do). Every version has the grant's registry index."""

    index: int
    base: Ability
    by_type: dict[str, Ability] = field(default_factory=dict)

    def for_type(self, card_type: str) -> Ability:
        ab = self.by_type.get(card_type)
        return self.base if ab is None else ab


def ability_label(ab: Ability) -> str:
    """How logs name an ability: `ability 2` (printed, numbered from 1), `granted ability 3` (its grant's
    number in the registry, from 1)."""
    if ab.index >= GRANTED:
        return f"granted ability {ab.index - GRANTED + 1}"
    return f"ability {ab.index + 1}"


@dataclass
class CardDef:
    id: str
    type: str
    fields: dict[str, Any]
    abilities: list[Ability]
    source: str
    text: str = ""  # the card's printed text as its file gives it (for players and reviews)


@dataclass
class DeckRule:
    id: str
    rules: tuple[str, ...]
    zone: str
    counts: list[tuple[str, tuple[str, ...], Fn, int]]
    # The copy limit: (id, rules, the field copies share, the most copies, the cards it does not limit
    # (`except`, a condition over `it`; None: every card)).
    max_copies: tuple[str, tuple[str, ...], str, int, Fn | None] | None
    # Counts bounded by `at_least` / `at_most` instead of `exactly`: (id, rules, where, low, high).
    bounds: list[tuple[str, tuple[str, ...], Fn, int | None, int | None]] = field(default_factory=list)


@dataclass(frozen=True)
class SameCardLimit:
    """At most `most` copies of the same card in several deck zones counted together
    (`deck_construction.max_copies`): two cards are the same when any of `keys` gives both the same
    value (null: no key), carried through; `unlimited` (`except`) frees cards from it."""

    id: str
    rules: tuple[str, ...]
    zones: tuple[str, ...]
    keys: tuple[Fn, ...]
    most: int
    unlimited: Fn | None


@dataclass(frozen=True)
class SameValueRule:
    """Every card of several deck zones gives the same `value` (`deck_construction.same_value`);
    `source` is the expression as written, for messages."""

    id: str
    rules: tuple[str, ...]
    zones: tuple[str, ...]
    value: Fn
    source: str


@dataclass(frozen=True)
class SetRelation:
    """Every card of some deck zones gives a set (`value`) that stands in a relation to the set the
    cards of other deck zones give together (`of_value` over the cards of `of`): `subset_of` (its
    values are among theirs: colours among the leader's), `intersects` (it shares one) or
    `disjoint_from` (it shares none). A `deck_construction.set_relations` element; `source` and
    `of_source` are the expressions as written, for messages."""

    id: str
    rules: tuple[str, ...]
    zones: tuple[str, ...]
    value: Fn
    relation: str
    of: tuple[str, ...]
    of_value: Fn
    source: str


@dataclass(frozen=True)
class Duration:
    """How long an effect lasts (a `durations` element). A duration with an `owner` belongs to a player:
    the expression, read where an effect is created, names the player (the effect's `owner`), and an
    `end_durations` step with `player` ends only that player's effects of it. With
    `skip_creation_turn`, no `end_durations` step of the turn an effect was created in ends it (the
    owner's *next* turn does). With `only_in_owner_turn`, an effect of it applies only while its owner
    takes the turn ("during your opponent's next turn": not before that turn, nor in a part of the game
    that is nobody's turn)."""

    id: str
    rules: tuple[str, ...]
    owner: Fn | None = None
    skip_creation_turn: bool = False
    only_in_owner_turn: bool = False


@dataclass
class Rulebook:
    id: str
    title: str
    rules_version: str
    rules_date: str
    directory: Path
    raw: dict[str, Any]
    zones: dict[str, ZoneDef]
    groups: dict[str, list[str]]
    group_sets: dict[str, frozenset[str]]
    states: dict[str, dict[str, Any]]
    enums: dict[str, list[str]]
    card_types: dict[str, dict[str, Any]]
    field_types: dict[str, dict[str, Any]]
    templates: dict[str, Template]
    functions: dict[str, FuncSpec]
    keywords: dict[str, dict[str, Any]]
    events: dict[str, dict[str, Any]]
    actions: dict[str, Action]
    rule_processes: list[RuleProcess]
    redirect: dict[str, Any] | None
    setup: tuple[Step, ...]
    deck_rules: list[DeckRule]
    roles: list[str]
    graph: Any  # interpreter.loader.graph.TurnGraph
    timing: dict[str, Any]
    outcomes: dict[str, Any]
    names: set[str] = field(default_factory=set)
    identity_groups: tuple[str, ...] = ()
    owner_except_groups: tuple[str, ...] = ()
    arrival_marks: list[tuple[str, str]] = field(default_factory=list)
    ability_zones: dict[str, frozenset[str]] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    invariants: list[dict[str, Any]] = field(default_factory=list)
    compiler: Any = None
    card_text: Any = None  # interpreter.cardtext.grammar.Grammar: the printed phrases, if the rulebook has them
    format: dict[str, Any] | None = None  # the chosen format (id, title, rules, teams), if any
    # The format's rule for players leaving a game that goes on: (its spec, its compiled `winners`).
    after_leaving: tuple[dict[str, Any], Any] | None = None
    designations: dict[str, Designation] = field(default_factory=dict)  # by the name they bind
    unchoosable: tuple[Unchoosable, ...] = ()  # `choosing.unchoosable`: candidates choices leave out
    # `zone_rules.placement_restrictions` by the zone they guard, in the order written.
    placement: dict[str, tuple[PlacementRestriction, ...]] = field(default_factory=dict)
    # Deck rules over several decks counted together (`deck_construction.max_copies` / `same_value`).
    same_card: SameCardLimit | None = None
    same_value: SameValueRule | None = None
    set_relations: tuple[SetRelation, ...] = ()  # `deck_construction.set_relations`
    durations: dict[str, Duration] = field(default_factory=dict)  # by id
    # Abilities grants give, compiled at load (the rulebook's own, then card files' in load order); a
    # grant's index is GRANTED + its position. `grant_keys`: where each is written -> its position, so
    # loading the same card file again gives its grants the same numbers.
    grants: list[Grant] = field(default_factory=list)
    grant_keys: dict[str, int] = field(default_factory=dict)
    layout: Layout | None = None  # the play mat (loader/layout.py): presentation, never read by the engine
    # What games read of this rulebook with the card pool last used with it, worked out once
    # (interpreter/table/pool.py: a PoolFacts, typed Any here since the table layer sits above).
    pool_facts: Any = field(default=None, compare=False, repr=False)
