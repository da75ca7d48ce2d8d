"""Verbs that act on cards: move, shuffle, placement states, stacking, revealing, marks, counters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.derive.changes import touched
from interpreter.model.vocabulary import Gen
from interpreter.state.objects import GameObject, as_objects
from interpreter.table.context import Ctx
from interpreter.table.derived import PLAYER_COUNTERS
from interpreter.table.log import log
from interpreter.table.views import describe, describe_target
from interpreter.timing.events import emit, interrupts, simultaneously
from interpreter.timing.moves import log_refused, move_card, move_refusal, redirect, set_state, shuffle_zone, stack_onto
from interpreter.verbs.registry import verb

if TYPE_CHECKING:
    from interpreter.derive.play import Play


def in_zones(game: Play, objs: list[GameObject]) -> list[GameObject]:
    """The objects still in a zone. One that has left became a new object; what is done to the old
    one is skipped (an impossible action), and its last known information stays as it was, which
    state copies rely on: they share it."""
    return [o for o in objs if o.oid in game.state.objects]


@verb("move")
def v_move(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Move cards to a zone, one at a time, each becoming a new object unless the rulebook keeps
    identity between the two zones. Replacement effects run around each card; a card that a
    placement restriction (of moves of `kind` too) keeps out does not move. A move of several cards
    is one simultaneous step, so interrupts (a refresh) wait until every card has moved.

    Example:
        move: {cards: "top('deck', you, 2)", to: hand}
    """
    objs = as_objects(a["cards"](ctx))
    if not objs:
        return
    if "to" in a:
        zone = a["to"]
    elif "to_expr" in a:
        zone = a["to_expr"](ctx)
    else:
        game.fail(ctx, "move needs 'to' or 'to_expr'")
    if zone not in game.rb.zones:
        game.fail(ctx, f"move to unknown zone {zone!r}")
    player = a["player"](ctx) if "player" in a else ctx.you
    if a.get("shuffle"):
        objs = list(objs)
        game.state.rng.shuffle(objs)
        log(game, "shuffle", f"{len(objs)} cards shuffled before moving to {zone}", ctx.rules, chance=True)
    states: dict[str, str] = {}
    if "face" in a:
        states["face"] = a["face"]
    if "orientation" in a:
        states["orientation"] = a["orientation"]
    each = _move_each(game, a, objs, zone, player, states, ctx)
    moved = (yield from simultaneously(game, each, ctx)) if len(objs) > 1 else (yield from each)
    if game.state.over():
        return
    if "as" in a:
        ctx.set(a["as"], moved)


def _move_each(game: Play, a: dict[str, Any], objs: list[GameObject], zone: str, player: Any,
               states: dict[str, str], ctx: Ctx) -> Gen:
    """The cards of one `move`, one after the other; returns their new objects."""
    moved: list[GameObject] = []
    for obj in objs:
        if obj.oid not in game.state.objects:
            continue  # already gone: an impossible action is skipped
        dest = zone
        if a.get("redirect"):
            dest = redirect(game, obj, dest, ctx)
        if game.owner_locked and "player" in a and player is not None and player != obj.owner \
                and not game.rb.zones[dest].shared:
            log(game, "move", f"{describe(game, obj)} cannot go into P{player + 1}'s {dest}: it does not move "
                              f"(a card goes only into its owner's zones)", ctx.rules)
            continue
        new = yield from move_card(game, obj, dest, player, ctx, position=a.get("position", "top"),
                                   states=states, mark=a.get("mark"), kind=a.get("kind"))
        if new is not None:
            moved.append(new)
        if game.state.over():
            break
    return moved


@verb("shuffle")
def v_shuffle(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Randomise the order of a zone (a chance event, logged).

    Example:
        shuffle: {zone: deck, player: you}
    """
    zone = a["zone"] if "zone" in a else a["zone_expr"](ctx)
    shuffle_zone(game, zone, a["player"](ctx), ctx)
    return
    yield


@verb("set_state")
def v_set_state(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Put cards into a placement state; a card already in it is left alone (nothing happens).

    Example:
        set_state: {cards: "cards('field', you)", state: face, value: down}
    """
    for obj in as_objects(a["cards"](ctx)):
        set_state(game, obj, a["state"], a["value"], ctx)
    yield from interrupts(game, ctx)


@verb("place_under")
def v_place_under(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Move cards into the zone of a card and stack them under it (several cards: one simultaneous
    step, as a `move`).

    Example:
        place_under: {cards: "top('deck', you, 1)", under: this}
    """
    holders = as_objects(a["under"](ctx))
    if not holders:
        return
    objs = as_objects(a["cards"](ctx))
    each = _place_each(game, objs, holders[0], ctx)
    yield from (simultaneously(game, each, ctx) if len(objs) > 1 else each)


def _place_each(game: Play, objs: list[GameObject], holder: GameObject, ctx: Ctx) -> Gen:
    for obj in objs:
        new = yield from move_card(game, obj, holder.zone, holder.zone_player, ctx, under=holder.oid)
        if game.state.over() or new is None:
            return


@verb("stack_onto")
def v_stack_onto(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Put a card on top of a stack so that it takes over the stack's identity: the same object (its
    id, states, counters, marks...) with a new top card, the old top held under it (timing/moves.stack_onto),
    so whatever names the stack keeps applying to it. With `event`, that event is raised with `card`
    (the top), `under` (the card now under it) and `from` (the zone the card came from). Nothing
    happens when either card is missing or they are the same card.

    Example:
        stack_onto: {card: "newest(cards('hand', you))", onto: this}
    """
    cards = in_zones(game, as_objects(a["card"](ctx)))
    ontos = in_zones(game, as_objects(a["onto"](ctx)))
    if len(cards) > 1 or len(ontos) > 1:
        game.fail(ctx, f"stack_onto takes one card onto one card, got {len(cards)} onto {len(ontos)}")
    if not cards or not ontos:
        return
    done = stack_onto(game, cards[0], ontos[0], ctx)
    if done is None:
        return
    top, under, came_from = done
    if "event" in a:
        emit(game, {"type": a["event"], "card": top, "under": under, "from": came_from}, ctx)
    yield from interrupts(game, ctx)


@verb("swap")
def v_swap(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Exchange the zones of two cards at once; if either cannot move, neither does. Both moves are
    judged before either happens, each as if the other card had already left: a card gone, a zone
    of a player who does not own the card (`owner_locked`), a placement restriction (of moves of
    `kind` too) or a replacement effect that would take its move's place stops the whole swap.
    Interrupts run once, after both have moved.

    Example:
        swap: {a: this, b: "newest(cards('hand', you))"}
    """
    xs, ys = as_objects(a["a"](ctx)), as_objects(a["b"](ctx))
    if len(xs) != 1 or len(ys) != 1:
        return
    x, y = xs[0], ys[0]
    xz, xp, yz, yp = x.zone, x.zone_player, y.zone, y.zone_player
    if xz == yz and xp == yp:
        return
    kind = a.get("kind")
    for card, zone, player, other in ((x, yz, yp, y), (y, xz, xp, x)):
        refusal = move_refusal(game, card, zone, player, ctx, kind=kind, leaving=(other,), replacements=True)
        if refusal is not None:
            why, rules = refusal
            where = zone + (f" of P{player + 1}" if player is not None else "")
            log_refused(game, [x, y], f"{describe(game, x)} and {describe(game, y)} are not swapped: "
                                      f"{describe(game, card)} cannot move to {where} ({why})",
                        f"two cards are not swapped: one cannot move to {where} ({why})", ctx.rules + rules)
            return
    yield from simultaneously(game, _both(game, ((x, yz, yp), (y, xz, xp)), kind, ctx), ctx)


def _both(game: Play, moves: tuple[tuple[GameObject, str, int | None], ...], kind: str | None, ctx: Ctx) -> Gen:
    """The two moves of a swap, already judged, as one step."""
    for card, zone, player in moves:
        yield from move_card(game, card, zone, player, ctx, kind=kind, checked=True)
        if game.state.over():
            return


@verb("reveal")
def v_reveal(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Show cards to every player.

    Example:
        reveal: {cards: "top('deck', you, 1)"}
    """
    objs = in_zones(game, as_objects(a["cards"](ctx)))
    for obj in objs:
        obj.known_to.update(range(game.state.num_players))
    if objs:
        log(game, "reveal", "reveals " + ", ".join(describe(game, o) for o in objs), ctx.rules)
    return
    yield


@verb("look")
def v_look(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Let one player learn cards without moving them.

    Example:
        look: {cards: "top('deck', opponent, 3)", player: you, as: seen}
    """
    objs = in_zones(game, as_objects(a["cards"](ctx)))
    p = a["player"](ctx)
    for obj in objs:
        obj.known_to.add(p)
    log(game, "look", f"P{p + 1} looks at {len(objs)} card(s)", ctx.rules)
    if "as" in a:
        ctx.set(a["as"], objs)
    return
    yield


@verb("mark")
def v_mark(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Attach a named mark to cards; marks vanish when the card becomes a new object.

    Example:
        mark: {cards: this, key: chosen, value: true}
    """
    value = a["value"](ctx)
    for obj in in_zones(game, as_objects(a["cards"](ctx))):
        obj.marks[a["key"]] = value
        touched(game, obj)
    return
    yield


@verb("counter")
def v_counter(game: Play, a: dict[str, Any], ctx: Ctx) -> Gen:
    """Add to or set a named counter on cards or players.

    Example:
        counter: {target: this, name: charge, add: 1}
    """
    target = a["target"](ctx)
    targets = target if isinstance(target, list) else [target]
    for t in targets:
        if isinstance(t, GameObject) and t.oid not in game.state.objects:
            continue  # it left its zone: see in_zones
        store = t.counters if isinstance(t, GameObject) else game.state.player_counters[t]
        if "set" in a:
            store[a["name"]] = a["set"](ctx)
            touched(game, t if isinstance(t, GameObject) else None)
        else:
            store[a["name"]] = store.get(a["name"], 0) + (a["add"](ctx) if "add" in a else 1)
            touched(game, t if isinstance(t, GameObject) else None)
        if not isinstance(t, GameObject):
            game.derived.changed(PLAYER_COUNTERS)  # read like cards by zone-only conditions (table/reads.py)
        log(game, "counter", f"{a['name']} of {describe_target(game, t)} is now {store[a['name']]}", ctx.rules)
    return
    yield
