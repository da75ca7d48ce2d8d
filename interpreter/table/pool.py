"""What a game reads of its rulebook and card pool alone, worked out once for both.

A game's layers (the table, the derived values, the procedures) look up facts that depend on the
rulebook and its cards only: which ability kinds are played how, which cards have abilities that work
outside their type's zones, whether any card replaces events or grants abilities, the events some card
waits for. Walking the whole card pool for them on every `Game` made would cost each fork and each
trial copy (a support card tried at every play timing) as much as a new game; so they are worked out
once, kept on the rulebook for the card pool last used with it (a run's games, their forks and trial
copies all use the same pool), and shared. Nothing here changes once made. (A rulebook changed in
place after games were made with it, as a test may do, must drop its `pool_facts`.)
"""

from __future__ import annotations

from typing import Any

from interpreter.model.rulebook import CardDef, Rulebook, engine_kind, replaces
from interpreter.state.events import ENGINE_EVENTS
from interpreter.table.reads import event_subject


def gives(spec: dict[str, Any]) -> bool:
    """Whether an effect description gives cards abilities (`grant:` or `set_text:`)."""
    return bool(spec.get("grant") or spec.get("set_text"))


class PoolFacts:
    """The facts of one rulebook with one card pool (see the module docstring); read-only."""

    def __init__(self, rb: Rulebook, pool: dict[str, CardDef]) -> None:
        self.pool = pool  # the card pool as given (what the facts are kept for)
        self.grants = len(rb.grants)  # loading more cards may add grants to the rulebook
        # A plain dict: the card pool's own class subclasses dict, and Python looks a key up in a
        # subclass of dict through a method call, several times slower (a card is looked up at
        # almost every step).
        self.cards: dict[str, CardDef] = pool if type(pool) is dict else dict(pool)
        cards = self.cards
        granted = [g.base for g in rb.grants]
        printed = [ab for c in cards.values() for ab in c.abilities]

        # -- the table (table/table.py) --
        self.seen_face_down = frozenset(z.id for z in rb.zones.values() if z.raw.get("face_down_seen_by_master"))
        self.owner_turn_durations = frozenset(d.id for d in rb.durations.values() if d.only_in_owner_turn)
        teams_spec = (rb.format or {}).get("teams") or {}
        self.teams: list[list[int]] = [[int(x) - 1 for x in team] for team in teams_spec.get("seats", []) or []]
        self.teams_lose_together = bool(teams_spec.get("lose_together"))
        self.team_turns = teams_spec.get("turns") == "team"
        self.team_sight = bool(teams_spec.get("share_hidden"))
        self.kind_of: dict[str, str] = {str(k.get("id")): engine_kind(k) for k in rb.raw.get("ability_kinds", []) or []}

        # -- the game in play (derive/play.py) --
        loop = rb.raw.get("infinite_loop") or {}
        self.max_decisions = int(loop.get("max_decisions", 20000))
        self.max_auto_steps = int(loop.get("max_auto_steps", 500000))
        self.loop_rules = tuple(loop.get("rules", ()))
        self.always_processes = [p for p in rb.rule_processes if p.when == "always"]
        self.unlogged = frozenset(ENGINE_EVENTS) | {e for e, spec in rb.events.items() if spec.get("log") is False}
        zone_rules = rb.raw.get("zone_rules") or {}
        self.owner_locked = bool(zone_rules.get("owner_locked"))
        self.zone_rules_cited: tuple[str, ...] = tuple(zone_rules.get("rules", ()) or ())
        printed_or_granted = printed + granted
        self.replacing_abilities = any(ab.kind == "continuous" and replaces(ab.continuous)
                                       for ab in printed_or_granted)
        self.responses_possible = bool(rb.timing.get("responses")) and any(
            ab.kind == "response" for ab in printed_or_granted)
        reads = [p.reads_fields for p in rb.rule_processes]
        self.process_fields: frozenset[str] | None = (
            None if any(r is None for r in reads) else frozenset(f for r in reads if r is not None for f in r))
        ability_zones: set[str] = set().union(*rb.ability_zones.values()) if rb.ability_zones else set()
        self.active_zones: dict[tuple[str, int], frozenset[str]] = {}
        self.active_zone_cards: dict[str, frozenset[str]] = {}
        self.acting_zone_cards: dict[str, frozenset[str]] = {}
        for cid, card in cards.items():
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
        self.ability_zones = frozenset(ability_zones)
        self.held_types = frozenset(tid for tid, t in rb.card_types.items() if t.get("abilities_when_held"))

        # -- continuous effects (derive/continuous.py) --
        cfg = (rb.timing.get("continuous") or {}).get("layers") or []
        self.layer_of: dict[str, int] = {}
        for i, layer in enumerate(cfg):
            for op in layer.get("applies", []):
                self.layer_of[op] = i
        self.any_sources = any(ab.kind == "continuous" for ab in printed_or_granted)
        self.dash_fields = frozenset(fid for fid, f in rb.field_types.items() if f.get("dash"))
        self.card_fields = frozenset(f for c in cards.values() for ab in [*c.abilities, *granted]
                                     if ab.kind == "continuous" and ab.continuous
                                     for f, _, _ in ab.continuous.get("modify", []))
        self.restricting = bool(cards) and any(
            ab.kind == "continuous" and ab.continuous and ab.continuous.get("restrict") for ab in printed_or_granted)
        self.grant_holders = any(ab.kind == "continuous" and ab.continuous and gives(ab.continuous)
                                 for ab in printed)

        # -- triggers (derive/triggers.py) --
        self.listened = frozenset(trig["event"] for ab in printed_or_granted
                                  if ab.kind == "auto" for trig in ab.triggers if "event" in trig)
        # The granted auto abilities' triggers: id(trigger) -> the event key that must be its own card.
        self.granted_subjects: dict[int, str | None] = {}
        for ab in granted:
            for trig in ab.triggers if ab.kind == "auto" else ():
                cond = trig.get("if")
                self.granted_subjects[id(trig)] = event_subject(cond.ast) if cond is not None else None

def pool_facts(rb: Rulebook, cards: dict[str, CardDef]) -> PoolFacts:
    """The facts of `rb` with the card pool `cards` (as given, or the plain dict made of it): those
    kept on the rulebook when they are for this very pool and no grant was added since, else worked
    out and kept instead."""
    kept: PoolFacts | None = rb.pool_facts
    if kept is not None and (kept.pool is cards or kept.cards is cards) and kept.grants == len(rb.grants):
        return kept
    facts = PoolFacts(rb, cards)
    rb.pool_facts = facts
    return facts
