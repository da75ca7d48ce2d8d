"""Card moves, the commonest change: placement restrictions, replacement, last known information, the
zone change itself (a new object, unless identity is kept), the `moved` event and the interrupts it
may set off (docs/architecture.md, "How a card move flows"); and the other changes to cards: stacking
one onto another, shuffling a zone, a placement state, and the cards' placing at the start."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Final

from interpreter.derive.changes import place_changed
from interpreter.model.rulebook import PlacementRestriction
from interpreter.state.events import MOVED, STATE_CHANGED
from interpreter.state.objects import FACE, GameObject
from interpreter.table.context import Ctx
from interpreter.table.log import log
from interpreter.table.views import can_see, describe
from interpreter.timing import replacement as repl
from interpreter.timing.effects import drop_pending
from interpreter.timing.events import emit, interrupts

if TYPE_CHECKING:
    from interpreter.derive.play import Play

Gen = Generator[Any, Any, Any]

_MOVED: Final[dict[str, Any]] = {"type": MOVED, "card": None, "old": None, "new": None, "from": None,
                                 "to": None, "from_player": None, "to_player": None}
"""The shape of a card's move event. Each move copies it and fills it in: a dict built key by key
grows past its first size at the sixth key, and a copy of a dict of the same keys does not."""


def create_card(game: Play, card_id: str, owner: int, zone: str, states: dict[str, str] | None = None,
                zone_player: int | None = -1) -> GameObject:
    """Put a new card into a zone (deck building and scenario set-up only)."""
    st = game.state
    zp = (None if game.rb.zones[zone].shared else owner) if zone_player == -1 else zone_player
    obj = GameObject(st.new_id(), card_id, owner, owner if zp is None else zp, zone, zp,
                     default_states(game, zone, states or {}), st.tick(), st.turn)
    st.objects[obj.oid] = obj
    st.zones[(zone, zp)].append(obj.oid)
    return obj


def default_states(game: Play, zone: str, given: dict[str, str], prev: dict[str, str] | None = None) -> dict[str, str]:
    if not given and prev is None:  # the usual move: the zone's defaults, worked out once
        defaults = game.zone_defaults.get(zone)
        if defaults is None:
            defaults = game.zone_defaults[zone] = {s: game.rb.states[s].get("default")
                                                   for s in game.rb.zones[zone].states}
        return dict(defaults)
    out: dict[str, Any] = {}
    for s in game.rb.zones[zone].states:
        if s in given:
            out[s] = given[s]
        elif prev is not None and s in prev:
            out[s] = prev[s]
        else:
            out[s] = game.rb.states[s].get("default")
    return out


def zone_player_for(game: Play, obj: GameObject, zone: str, player: int | None) -> int | None:
    zdef = game.rb.zones[zone]
    if zdef.shared:
        return None
    to_owner = game.to_owner.get(zone)
    if to_owner is None:
        to_owner = game.to_owner[zone] = not any(
            zone in game.rb.group_sets.get(g, ()) or zone == g for g in game.rb.owner_except_groups)
    if to_owner:
        return obj.owner
    return obj.controller if player is None else player


def keeps_identity(game: Play, a: str, b: str) -> bool:
    keep = game.keeps.get((a, b))
    if keep is None:
        groups = (game.rb.group_sets.get(g, frozenset((g,))) for g in game.rb.identity_groups)
        keep = game.keeps[(a, b)] = any(a in zs and b in zs for zs in groups)
    return keep


def placement_refusal(game: Play, obj: GameObject, zone: str, dest_player: int | None, ctx: Any,
                      kind: str | None = None, leaving: tuple[GameObject, ...] = (),
                      joining: tuple[GameObject, ...] = ()) -> PlacementRestriction | None:
    """The first placement restriction (`zone_rules.placement_restrictions`) that refuses a move of
    `obj` into `zone` of `dest_player`, a move of `kind`, while `leaving` leave at the same time and
    `joining` arrive with it (read as `arriving_with`: the other cards of one appearance);
    None when none does."""
    restrictions = game.rb.placement.get(zone)
    added = game.continuous.restrictions()
    if not restrictions and not added:
        return None
    mover = ctx.you if ctx is not None else None
    names = {"arriving": obj, "dest": zone, "dest_player": dest_player, "leaving": list(leaving),
             "arriving_with": list(joining), "mover": mover,
             "by_ability": ctx is not None and ctx.ability is not None}
    if restrictions:
        scope = Ctx(game, None, you=mover, vars=dict(names))
        for r in restrictions:
            if (r.kinds is None or kind in r.kinds) and r.cond(scope.with_it(obj)):
                return r
    for er, ectx in added:
        if er.kinds is not None and kind not in er.kinds:
            continue
        if er.zones is not None and zone not in er.zones \
                and not any(zone in game.rb.group_sets.get(g, ()) for g in er.zones):
            continue
        if er.cond(ectx.child(vars=dict(names)).with_it(obj)):
            src = ectx.this
            what = f"a restriction of {describe(game, src)}" if isinstance(src, GameObject) else "a restriction"
            return PlacementRestriction(what, er.rules or ectx.rules, er.kinds, er.cond)
    return None


def move_refusal(game: Play, obj: GameObject, zone: str, player: int | None, ctx: Any, *, kind: str | None = None,
                 leaving: tuple[GameObject, ...] = (), named: bool = True,
                 replacements: bool = False,
                 joining: tuple[GameObject, ...] = ()) -> tuple[str, tuple[str, ...]] | None:
    """Why `obj` cannot move into `zone` (of `player`, a zone the move names when `named`) now, and
    the rules that say so; None when it can. The card must still be there, the zone be its
    owner's where `zone_rules.owner_locked` says so, and no placement restriction refuse it; with
    `replacements`, a replacement effect that would take the move's place refuses it too (a swap
    is judged so before either card moves)."""
    if obj.oid not in game.state.objects:
        return "it is no longer there", ()
    if game.owner_locked and named and player is not None and player != obj.owner \
            and not game.rb.zones[zone].shared:
        return "a card goes only into its owner's zones", game.zone_rules_cited
    dest_player = zone_player_for(game, obj, zone, player)
    r = placement_refusal(game, obj, zone, dest_player, ctx, kind, leaving, joining)
    if r is not None:
        return r.id, r.rules
    if replacements and (game.state.effects or game.replacing_abilities):
        event = {"type": "moved", "card": obj, "from": obj.zone, "to": zone, "from_player": obj.zone_player,
                 "to_player": dest_player}
        if repl.would_replace(game, event):
            return "a replacement effect would replace its move", ()
    return None


def log_refused(game: Play, objs: list[GameObject], text: str, redacted: str, rules: tuple[str, ...]) -> None:
    """Log a move that does not happen, hidden from the players who cannot see every card named."""
    hidden = frozenset(p for p in range(game.state.num_players) if not all(can_see(game, o, p) for o in objs))
    log(game, "move", text, rules, hidden_from=hidden, redacted=redacted)


def move_card(game: Play, obj: GameObject, zone: str, player: int | None, ctx: Ctx, *, position: str = "top",
              states: dict[str, str] | None = None, mark: str | None = None, under: int | None = None,
              kind: str | None = None, checked: bool = False) -> Gen:
    """Move one card; returns the object in its new zone (None if the move was refused by a
    placement restriction or replaced). `kind`: the kind of move, for the restrictions;
    `checked`: the restrictions were already judged (a swap judges both moves first)."""
    st = game.state
    dest_player = zone_player_for(game, obj, zone, player)
    if (game.rb.placement or game.continuous.may_restrict()) and not checked:
        refused = placement_refusal(game, obj, zone, dest_player, ctx, kind)
        if refused is not None:
            where = zone + (f" of P{dest_player + 1}" if dest_player is not None else "")
            log_refused(game, [obj], f"{describe(game, obj)} cannot move to {where}: it does not move ({refused.id})",
                        f"a card cannot move to {where}: it does not move ({refused.id})",
                        ctx.rules + refused.rules)
            return None
    if game.state.effects or game.replacing_abilities:
        event = {"type": MOVED, "card": obj, "from": obj.zone, "to": zone, "from_player": obj.zone_player,
                 "to_player": dest_player}
        replaced = yield from repl.try_replace(game, event, ctx)
        if replaced:
            return None
    old_zone, old_player = obj.zone, obj.zone_player
    keep = keeps_identity(game, old_zone, zone)
    if not keep and game.continuous.active_for(obj):
        # Last known information: freeze what continuous effects made of it before it leaves
        # (read while the card is still in its zone, so no derived value sees a half-done move).
        obj.last_fields = {f: game.field(obj, f) for f in game.cards[obj.card_id].fields}
    src = st.zones[(old_zone, old_player)]
    src.remove(obj.oid)
    carried = [st.objects[i] for i in src if st.objects[i].holder == obj.oid] if keep else []
    seers = {p for p in range(st.num_players) if can_see(game, obj, p)}
    game.version += 1
    place_changed(game, old_zone, old_player)
    place_changed(game, zone, dest_player)
    if keep:
        old = GameObject(obj.oid, obj.card_id, obj.owner, obj.controller, obj.zone, obj.zone_player,
                         dict(obj.states), obj.timestamp, obj.entered_turn, obj.holder, dict(obj.counters),
                         dict(obj.marks), set(obj.known_to), obj.prev_oid, origin=obj.origin)
        new = obj
        new.zone, new.zone_player = zone, dest_player
        new.states = default_states(game, zone, states or {}, obj.states)
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
                         default_states(game, zone, states or {}), st.tick(), st.turn, under,
                         prev_oid=obj.oid, origin=obj.oid if obj.origin is None else obj.origin)
        new.known_to = seers
        st.objects[new.oid] = new
    for group, mname in game.rb.arrival_marks:
        gs = game.rb.group_sets.get(group, ())
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
    if game.logging:
        where = f"{zone}" + (f" of P{dest_player + 1}" if dest_player is not None else "")
        hidden = frozenset(p for p in range(st.num_players) if p not in seers and not can_see(game, new, p))
        # `was`: the object the card was before, so a reader follows the card from move to move
        # (what the entry's text tells its readers already: a redacted entry carries no data).
        log(game, "move", f"{describe(game, new)} moves from {old_zone} to {where}", ctx.rules,
            hidden_from=hidden, redacted=f"a card #{new.oid} moves from {old_zone} to {where}",
            was=[[new.oid, old.oid]])
    if not keep and game.rb.zones[zone].raw.get("cancels_pending"):
        # The card's abilities that were pending vanish as it enters this zone (those the move
        # itself triggers are collected below and may still resolve).
        drop_pending(game, [x for x in st.pending if x.source == obj.oid and x.created is None], ctx,
                     f" of {describe(game, new)}")
    if game.continuous.lapse:
        game.continuous.observe()
    event = _MOVED.copy()  # the commonest event, copied presized (see _MOVED)
    event["card"], event["old"], event["new"], event["from"], event["to"] = new, old, new, old_zone, zone
    event["from_player"], event["to_player"] = old_player, dest_player
    emit(game, event, ctx)
    yield from interrupts(game, ctx)
    return new


def stack_onto(game: Play, card: GameObject, onto: GameObject, ctx: Ctx) -> tuple[GameObject, GameObject, str] | None:
    """Put `card` on top of the stack whose top is `onto`, the stack keeping its identity: the
    object `onto` (its id, zone, controller, states, counters, marks, entry turn and timestamp)
    now shows `card`'s card, so effects and anything else naming it keep naming the stack, and
    the card that was on top becomes a new object held under it, right below it. `card` comes
    from any zone (or from under `onto`), its old object kept as last known information as a
    move keeps it. The top's abilities are new abilities: their uses this turn start again.
    Returns (the top, the card now under it, the zone `card` came from), or None when either
    has left its zone or they are one object."""
    st = game.state
    objects = st.objects
    if card.oid == onto.oid or card.oid not in objects or onto.oid not in objects:
        return None
    came_from, from_player = card.zone, card.zone_player
    said = f"{describe(game, card)} is put on top of {describe(game, onto)}"
    if game.continuous.active_for(card):
        card.last_fields = {f: game.field(card, f) for f in game.cards[card.card_id].fields}
    seers = {p for p in range(st.num_players) if can_see(game, card, p)}
    saw_top = {p for p in range(st.num_players) if can_see(game, onto, p)}
    st.zones[(came_from, from_player)].remove(card.oid)
    st.lki[card.oid] = card
    del objects[card.oid]
    zone, zp = onto.zone, onto.zone_player
    first = onto.oid if onto.origin is None else onto.origin
    under = GameObject(st.new_id(), onto.card_id, onto.owner, onto.controller, zone, zp,
                       default_states(game, zone, {}), st.tick(), st.turn, onto.oid,
                       known_to=set(onto.known_to), prev_oid=onto.oid, origin=first)
    onto.card_id, onto.owner, onto.known_to = card.card_id, card.owner, seers
    onto.prev_oid, onto.origin, onto.last_fields = card.oid, card.oid if card.origin is None else card.origin, None
    objects[under.oid] = under
    dest = st.zones[(zone, zp)]
    dest.insert(dest.index(onto.oid) + 1, under.oid)
    _forget_abilities_of(game, onto.oid)
    game.version += 1
    place_changed(game, came_from, from_player)
    place_changed(game, zone, zp)
    if game.continuous.lapse:
        game.continuous.observe()
    if game.logging:
        # Hidden from a player who sees the card put on top neither before nor after, or the old
        # top card neither before nor now.
        hidden = frozenset(p for p in range(st.num_players)
                           if (p not in seers and not can_see(game, onto, p))
                           or (p not in saw_top and not can_see(game, under, p)))
        log(game, "stack", f"{said} (#{onto.oid} is now {describe(game, onto)}, with {describe(game, under)} "
                           f"under it)", ctx.rules, hidden_from=hidden,
            redacted=f"a card is put on top of #{onto.oid}",
            was=[[under.oid, onto.oid], [onto.oid, card.oid]])
    return onto, under, came_from


def _forget_abilities_of(game: Play, oid: int) -> None:
    """An object now shows another card, whose abilities are new ones: what was kept per ability of
    the object (uses and once-a-turn triggers this turn, what its continuous abilities applied
    to and lapsed for) is dropped."""
    st = game.state
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


def redirect(game: Play, obj: GameObject, dest: str, ctx: Ctx) -> str:
    r = game.rb.redirect
    if r and dest == r["from"] and r["if"](ctx.with_it(obj)):
        return r["to"]
    return dest


def shuffle_zone(game: Play, zone: str, player: int | None, ctx: Ctx) -> None:
    key = (zone, None if game.rb.zones[zone].shared else player)
    ids = game.state.zones[key]
    game.state.rng.shuffle(ids)
    for i in ids:
        game.state.objects[i].known_to.clear()
    game.version += 1
    place_changed(game, *key)
    log(game, "shuffle", f"P{(player or 0) + 1} shuffles {zone} ({len(ids)} cards)", ctx.rules, chance=True)


def set_state(game: Play, obj: GameObject, state: str, value: str, ctx: Ctx) -> None:
    if obj.oid not in game.state.objects or state not in obj.states or obj.states[state] == value:
        return
    obj.states[state] = value
    game.version += 1
    # Working abilities depend on whether a card is face down, not on its other states.
    place_changed(game, obj.zone, obj.zone_player, abilities=state == FACE)
    if game.continuous.lapse:
        game.continuous.observe()
    if game.logging:
        log(game, "state", f"{describe(game, obj)} becomes {value}", ctx.rules)
    emit(game, {"type": STATE_CHANGED, "card": obj, "state": state, "value": value}, ctx)


def forget_departed(game: Play) -> None:
    """Drop the last known information of cards that left their zones, except what a pending
    ability or an effect may still ask for (their source). Called as a turn begins: the table
    would otherwise grow with the game, and every state copy copies it."""
    st = game.state
    keep = {p.source for p in st.pending} | {e.source for e in st.effects}
    if len(st.lki) > len(keep):
        st.lki = {oid: o for oid, o in st.lki.items() if oid in keep}
