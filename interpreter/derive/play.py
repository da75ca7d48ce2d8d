"""A game in play: the table with what is derived from it and the bookkeeping of the procedures.

`Play` adds to the table what the rulebook's procedures (interpreter/timing) and verbs work on: the
derived values (continuous effects, triggers waiting for events; the facts kept in the table's store)
and where a procedure in progress stands (effect frames, interrupts held, outcomes collected). It
answers the derived facts expressions ask of the table (a field through continuous effects, a
card's abilities now); the driver (interpreter/engine/game.py) adds the generator that asks the
players.
"""

from __future__ import annotations

from typing import Any

from interpreter.derive.abilities import keywords_in_force
from interpreter.derive.continuous import Continuous
from interpreter.derive.triggers import Triggers
from interpreter.model.rulebook import Ability, CardDef, Rulebook
from interpreter.state.multiset import Multiset
from interpreter.state.objects import GameObject, GameState
from interpreter.table.table import Table


class Play(Table):
    """One game in play: the table, what is derived from it, and where its procedures stand."""

    def __init__(self, rb: Rulebook, cards: dict[str, CardDef], decks: list[dict[str, list[str]]],
                 seed: int = 0, *, log: bool = True, state: GameState | None = None) -> None:
        super().__init__(rb, cards, decks, seed, log=log, state=state)
        facts = self.pool
        self.max_decisions = facts.max_decisions
        self.max_auto_steps = facts.max_auto_steps
        self.loop_rules = facts.loop_rules
        self.always_processes = facts.always_processes
        self.grants_possible = bool(rb.grants)  # some effect of the rulebook or its cards grants abilities
        # Events not written to the log: the engine's own and those the rulebook marks `log: false`
        # (each repeats what the log already says: a move, a shuffle).
        self.unlogged = facts.unlogged
        # A format's rule for players leaving a game that goes on: (its spec, its compiled winners).
        self.after_leaving: tuple[dict[str, Any], Any] | None = rb.after_leaving
        # A move naming another player's zone does not happen (zone_rules.owner_locked).
        self.owner_locked = facts.owner_locked
        self.zone_rules_cited = facts.zone_rules_cited
        # Some card or grant has a continuous ability that replaces an event (timing/replacement.py).
        self.replacing_abilities = facts.replacing_abilities
        # Some card or grant has an ability played in response: plays open response windows.
        self.responses_possible = facts.responses_possible
        # Fields rule-process conditions read (None: any): a continuous effect on them wakes every process.
        self.process_fields = facts.process_fields
        self.to_owner: dict[str, bool] = {}  # zone -> cards entering it go to their owner's side
        self.keeps: dict[tuple[str, str], bool] = {}  # (from, to) -> the object keeps its identity
        # Abilities that work in other zones than their card type's (an `active_zones` keyword):
        # (card, ability index) -> its zones, and card -> every zone one of its abilities works in.
        self.active_zones = facts.active_zones
        self.active_zone_cards = facts.active_zone_cards
        # The same, counting only abilities that act (trigger, are played or change something): a
        # card whose only ability working elsewhere is a bare statement (a keyword it is treated as
        # having, read by has_keyword wherever the card is) need not be watched in those zones,
        # whose every change would otherwise renew the list of cards whose abilities work.
        self.acting_zone_cards = facts.acting_zone_cards
        ability_zones = facts.ability_zones
        # (zone key, zone, only its top card is in play) for the zones where abilities work. The
        # keys are kept as the state's own objects (typed Any), so reading a zone hashes the same
        # tuple instead of building one.
        self.ability_zone_plan: list[tuple[Any, str, bool]] = [
            (k, k[0], bool(rb.zones[k[0]].raw.get("top_only"))) for k in self.state.zones if k[0] in ability_zones]
        self.ability_zone_set = ability_zones
        # Card types whose cards held under another card (attached) have working abilities where
        # their type's abilities work, while the holder is in the same zone (`abilities_when_held`).
        self.held_types = facts.held_types
        self.zone_defaults: dict[str, dict[str, Any]] = {}  # zone -> its cards' default states (rulebook data)
        self.auto_steps = 0  # effect steps run so far, against the rulebook's cap on automatic steps
        # Where the procedure in progress stands. A fork starts these afresh.
        self.collecting: list[tuple[int, str]] | None = None  # outcomes of a rule-process batch
        # Why players won or lost, in the rulebook's words (`reason` of win/lose; -1: a draw), for the
        # log's result entry: player -> (win | lose | draw, reason).
        self.outcome_reasons: dict[int, tuple[str, str]] = {}
        self.in_interrupt = False
        self.holding = 0  # simultaneous steps in progress: interrupts wait until the outermost ends
        self.frames: list[list[Any]] = []  # effect-step lists being run, outermost first (timing/runner.py)
        # The scope of the step asking the pending decision (timing/runner.ask): its ability and card,
        # for what tells a person what the decision is about (viewer/wording.py); the engine never reads it.
        self.asking: Any = None
        self.resume_at: list[tuple[Any, ...]] | None = None  # the pending decision restarts from here (fork)
        # Whether advance() also stops at the play timings the engine passes by itself (timing/runner.automatic).
        self.show_automatic = False
        self.triggers = Triggers(self)
        self.continuous = Continuous(self)
        # Rule processes (timing/rule_processing.py): their binding lists kept per assignment of the roles,
        # the places each binding reads, and the continuous effects' generation they last saw.
        self.binding_lists: dict[int, Any] = {}
        self.process_places: dict[int, list[Any] | None] = {}
        self.process_effects: Any = None
        self.check_config: Any = None  # the check timing's plan, worked out on first use (timing/check_timing.py)
        self.keywords_asked: set[tuple[int, int]] = set()  # condition keywords being asked (derive/abilities.py)
        self.negating = False  # the abilities negated are being worked out (derive/abilities.py)
        self.ability_objects_facts = [-1, -1]  # their numbers in the store (without, with negation), once asked

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

    def player_value(self, player: int, name: str, base: Any) -> Any:
        return self.continuous.player_value(player, name, base)

    def untriggered(self, event_type: str, scope: Any) -> int:
        return self.triggers.untriggered(event_type, scope)

    def keywords_in_force(self, obj: GameObject, ab: Ability) -> bool:
        return keywords_in_force(self, obj, ab)
