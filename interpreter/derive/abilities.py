"""Which abilities work now: the cards whose abilities work (cached until a zone where abilities
work changes), negation, zone gates and conditions, condition keywords, and use limits. What the
triggers, continuous effects and play timing read; the procedures that play abilities are in
interpreter/timing/abilities.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from interpreter.derive.effects import effect_dormant, effect_scope
from interpreter.model.rulebook import Ability
from interpreter.state.objects import FACE, GameObject
from interpreter.table.context import Ctx
from interpreter.table.derived import ABILITY_ZONES, MISSING

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def working_reads(game: Play) -> tuple[Any, ...] | None:
    """What the abilities that work depend on, as reads of the store of derived facts: the cards (and
    their states) in the zones where abilities work, or anything while an effect negates abilities (the
    cards it affects may depend on anything: None, one version of the game). Most moves (draws, cards
    revealed, paid costs) leave them as they are."""
    for e in game.state.effects:
        if e.kind == "continuous" and e.spec.get("negate"):
            return None
    return _WORKING


_WORKING: Final = (ABILITY_ZONES,)


def grants_now(game: Play) -> Any:
    """Which abilities effects grant to which cards now, as a value to compare (None in a game where
    nothing grants abilities): a fact about working abilities holds while this stays the same too."""
    return game.continuous.grants_token() if game.grants_possible else None


def ability_objects(game: Play, player: int | None = None) -> list[GameObject]:
    """Objects whose abilities currently work (their card type's valid zones). A derived fact, since
    triggers and continuous effects ask for it after every event: kept until a zone where abilities
    work changes (ABILITY_ZONES); while an effect negates abilities, for one version of the game (the
    cards it affects may depend on anything), as a fact of its own."""
    negation = False
    for e in game.state.effects:
        if e.kind == "continuous" and e.spec.get("negate"):
            negation = True
            break
    derived = game.derived
    n = game.ability_objects_facts[negation]
    if n < 0:
        n = game.ability_objects_facts[negation] = derived.number(("ability_objects", negation))
    objs: Any = derived.get(n, game.version)
    if objs is MISSING:
        objs = _work_out_ability_objects(game, n, negation)
    if player is None:
        return objs
    return [o for o in objs if o.zone_player == player]


def _work_out_ability_objects(game: Play, n: int, negation: bool) -> list[GameObject]:
    st = game.state
    derived = game.derived
    objects, cards, zones_of = st.objects, game.cards, game.rb.ability_zones
    anyway = game.grants_possible  # a card with no printed ability may be granted one
    objs = []
    for zkey, zone, top_only in game.ability_zone_plan:
        ids = st.zones[zkey]
        if not ids:
            continue
        if top_only:
            ids = ids[:1]  # a pile: only its top card is in play, the cards below are ignored
        for i in ids:
            o = objects[i]
            card = cards[o.card_id]
            if (anyway or card.abilities) and (zone in zones_of.get(card.type, ())
                                               or zone in game.acting_zone_cards.get(o.card_id, ())):
                if (o.holder is None or held_works(game, o)) and o.states.get(FACE) != "down":
                    objs.append(o)
    if not negation:
        derived.keep(n, objs, (ABILITY_ZONES,), game.version)
        return objs
    negating = [e for e in st.effects if e.kind == "continuous" and e.spec.get("negate")
                and not effect_dormant(game, e)]
    if negating and not game.negating:
        # Effects that negate abilities: their cards' abilities do not work. While their
        # affected cards are computed, ability_objects answers without negation (no recursion).
        derived.keep(n, objs, None, game.version)
        game.negating = True
        try:
            negated: set[int] = set()
            for e in negating:
                negated |= {o.oid for o in _affected(game, e)}
        finally:
            game.negating = False
        objs = [o for o in objs if o.oid not in negated]
        if negated:
            # Continuous effects (and grants) read while negation was being worked out saw every ability.
            game.continuous.invalidate()
            game.continuous.forget_grants()
    derived.keep(n, objs, None, game.version)
    return objs


def held_works(game: Play, obj: GameObject) -> bool:
    """Whether a card held under another has working abilities: its type says held cards' do
    (`abilities_when_held`, an attached card) and its holder is in play in the same zone. Read for an
    object that has left too (its holder as things stand now)."""
    if obj.holder is None or game.cards[obj.card_id].type not in game.held_types:
        return False
    h = game.state.objects.get(obj.holder)
    return h is not None and h.zone == obj.zone and h.zone_player == obj.zone_player


def use_key(obj: GameObject, ab: Ability) -> str:
    return f"{obj.oid}:{ab.index}"


def _affected(game: Play, eff: Any) -> list[GameObject]:
    spec = eff.spec
    affects = spec.get("affects")
    if affects is None:
        return []
    objs = affects(effect_scope(game, eff))
    objs = [objs] if isinstance(objs, GameObject) else [o for o in (objs or []) if isinstance(o, GameObject)]
    if eff.locked is not None:
        objs = [o for o in objs if o.oid in eff.locked]
    return objs


def is_negated(game: Play, obj: GameObject) -> bool:
    """Whether an effect negates this object's abilities now."""
    for e in game.state.effects:
        if e.kind == "continuous" and e.spec.get("negate") and not effect_dormant(game, e) \
                and any(o.oid == obj.oid for o in _affected(game, e)):
            return True
    return False


def gate_ok(obj: GameObject, ab: Ability, game: Play | None = None) -> bool:
    """Whether the ability's zone gate and its conditions hold. Conditions come in groups: each
    group needs one of its conditions to hold (several area or timing icons are alternatives)."""
    if ab.gate_zone is not None and obj.zone != ab.gate_zone:
        return False
    if game is not None and game.active_zone_cards and obj.card_id in game.active_zone_cards \
            and not works_in(game, obj.card_id, ab, obj.zone):
        return False
    if ab.conditions and game is not None:
        return conditions_hold(game, obj, ab, ab.conditions)
    return True


def conditions_hold(game: Play, obj: GameObject, ab: Ability, conditions: tuple[tuple[str, Any], ...]) -> bool:
    """Whether every group of conditions has one that holds for the ability of this card."""
    ctx = Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules, ability=ab)
    groups: dict[str, bool] = {}
    for group, cond in conditions:
        groups[group] = groups.get(group, False) or bool(cond(ctx))
    return all(groups.values())


def keywords_in_force(game: Play, obj: GameObject, ab: Ability) -> bool:
    """Whether the keywords of this card's ability are there now: an ability's keywords follow its
    condition keywords ("(condition) keyword": the keyword only while the condition holds), every
    one of them, checked when resolving or not. An ability without any: always. A condition that
    asks, through has_keyword, about the very ability being asked about counts as not holding."""
    conditions = ab.conditions
    if ab.resolving_conditions:
        conditions = conditions + tuple(c for c in ab.resolving_conditions if c not in conditions)
    if not conditions:
        return True
    asking = game.keywords_asked
    key = (obj.oid, ab.index)
    if key in asking:
        return False
    asking.add(key)
    try:
        return conditions_hold(game, obj, ab, conditions)
    finally:
        asking.discard(key)


def works_in(game: Play, card_id: str, ab: Ability, zone: str) -> bool:
    """Whether an ability works in a zone: its own `active_zones` keyword's zones if it has one (an
    ability whose text plainly works elsewhere), else where its card type's abilities work. Card
    data, not an engine assumption about any kind of card."""
    zones = game.active_zones.get((card_id, ab.index))
    if zones is not None:
        return zone in zones
    return zone in game.rb.ability_zones.get(game.cards[card_id].type, ())


def limit_ok(game: Play, obj: GameObject, ab: Ability) -> bool:
    """Whether the ability is within its use limits (a `limit` keyword's uses a turn and a game)."""
    if ab.limit is not None and game.state.ability_uses.get(use_key(obj, ab), 0) >= ab.limit:
        return False
    return ab.game_limit is None or game.state.ability_uses_game.get(use_key(obj, ab), 0) < ab.game_limit
