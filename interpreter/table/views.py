"""What each player may see of the game: whether they know a card, how a card or a pending ability is
named to them, and their view of every zone."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model.rulebook import GRANTED, ability_label
from interpreter.state.objects import FACE, GameObject
from interpreter.table.context import Ctx

if TYPE_CHECKING:
    from interpreter.table.table import Table


def can_see(game: Table, obj: GameObject, player: int) -> bool:
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
    if game.team_sight:
        return any(_sees(game, obj, p) for p in [player] + game.teammates(player))
    return _sees(game, obj, player)


def _sees(game: Table, obj: GameObject, player: int) -> bool:
    if obj.states.get(FACE) == "down":
        return player in obj.known_to or (obj.zone_player == player and obj.zone in game.seen_face_down)
    vis = game.rb.zones[obj.zone].visibility
    if vis == "public":
        return True
    if vis == "owner" and obj.zone_player == player:
        return True
    return player in obj.known_to


def zone_fully_visible(game: Table, obj: GameObject, player: int) -> bool:
    vis = game.rb.zones[obj.zone].visibility
    return vis == "public" or (vis == "owner" and obj.zone_player == player)


def describe(game: Table, obj: GameObject) -> str:
    f = game.cards[obj.card_id].fields
    return f"{f.get('name', obj.card_id)} [{obj.card_id}#{obj.oid}]"


def describe_for(game: Table, obj: GameObject, player: int) -> str:
    if can_see(game, obj, player):
        return describe(game, obj)
    facts = [name for name, known in hidden_facts(game, obj).items() if known]
    return f"hidden card #{obj.oid}" + (f" ({', '.join(facts)})" if facts else "")


def hidden_facts(game: Table, obj: GameObject) -> dict[str, bool]:
    """What everyone may know of a card even when it is hidden (its zone's `hidden_facts`)."""
    facts = game.rb.zones[obj.zone].hidden_facts
    if not facts:
        return {}
    ctx = Ctx(game, None, you=obj.controller).with_it(obj)
    return {name: bool(fn(ctx)) for name, fn in facts.items()}


def describe_pending(game: Table, pend: Any) -> str:
    src = game.state.objects.get(pend.source) or game.state.lki.get(pend.source)
    name = describe(game, src) if src is not None else "a delayed trigger"
    if pend.ability >= GRANTED:
        return f"{name} {ability_label(game.ability_at(pend.card_id, pend.ability))}"
    return f"{name} ability {pend.ability + 1}" if pend.ability >= 0 else name


def describe_target(game: Table, t: Any) -> str:
    return describe(game, t) if isinstance(t, GameObject) else f"P{t + 1}"


def view(game: Table, player: int) -> dict[str, Any]:
    """What one player may see: hidden cards appear only as counts or as 'hidden'."""
    zones: dict[str, Any] = {}
    for (z, p), ids in game.state.zones.items():
        key = z if p is None else f"{z}@P{p + 1}"
        cards = []
        for i in ids:
            o = game.state.objects[i]
            if can_see(game, o, player):
                cards.append({"oid": o.oid, "card": o.card_id, "states": dict(o.states),
                              "holder": o.holder})
            else:
                hidden: dict[str, Any] = {"oid": o.oid, "card": None, "states": dict(o.states), "holder": o.holder}
                facts = hidden_facts(game, o)
                if facts:
                    hidden["facts"] = facts
                cards.append(hidden)
        zones[key] = cards
    return {"player": player, "turn": game.state.turn, "roles": dict(game.state.roles),
            "node": game.cur_node.id if game.cur_node else "setup", "zones": zones,
            "result": game.state.result}
