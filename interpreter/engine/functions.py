"""The generic functions expressions may call.

They know zones, cards, players and multisets, never a game's own terms: anything a game needs
beyond these is a `functions:` entry in its rulebook, written as an expression over these.
Each function receives the evaluation context first so it can reach the game state.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from interpreter.expr import FuncSpec
from interpreter.state.objects import GameObject

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.loader.model import Ability


class Multiset(dict):
    """A count per symbol (icons printed several times). A missing symbol counts 0 in expressions."""

    def total(self) -> int:
        return sum(v for v in self.values() if v > 0)


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    if isinstance(v, list):
        return v
    if isinstance(v, (tuple, set, frozenset)):
        return list(v)
    return [v]


def f_cards(env: Any, zone: str, player: int | None) -> list[GameObject]:
    game: Game = env.game  # typed, so that a compiled build reads the game's fields directly
    st = game.state
    ids = st.zones.get((zone, player))
    if ids is None:
        return game.expr_fail(f"no zone '{zone}' for player {player}")
    objs = st.objects
    return [objs[i] for i in ids]


def f_count_cards(env: Any, zone: str, player: int | None) -> int:
    """`count(cards(zone, player))` without the list."""
    game: Game = env.game
    ids = game.state.zones.get((zone, player))
    if ids is None:
        return game.expr_fail(f"no zone '{zone}' for player {player}")
    return len(ids)


def f_cards_in(env: Any, group: str, player: int | None) -> list[GameObject]:
    g: Game = env.game
    st = g.state
    objs = st.objects
    zones = st.zones
    out: list[GameObject] = []
    for z in g.rb.groups.get(group, ()):
        ids = zones.get((z, player))
        if ids:
            out.extend([objs[i] for i in ids])
    return out


def f_zones_in(env: Any, group: str) -> list[str]:
    return list(env.game.rb.groups.get(group, ()))


def f_in_group(env: Any, zone: str | None, group: str) -> bool:
    return zone is not None and zone in env.game.rb.group_sets.get(group, ())


def f_zone_visibility(env: Any, zone: str | None) -> str | None:
    """Who may see a zone's cards, as the rulebook declares it: public, private or owner."""
    zdef = env.game.rb.zones.get(zone) if zone is not None else None
    return None if zdef is None else zdef.visibility


def f_top(env: Any, zone: str, player: int | None, n: int) -> list[GameObject]:
    if n <= 0:
        return []
    game: Game = env.game
    st = game.state
    objs = st.objects
    return [objs[i] for i in st.zones.get((zone, player), [])[:n]]


def f_bottom(env: Any, zone: str, player: int | None, n: int) -> list[GameObject]:
    if n <= 0:
        return []
    game: Game = env.game
    st = game.state
    objs = st.objects
    return [objs[i] for i in st.zones.get((zone, player), [])[-n:]][::-1]


def f_as_list(env: Any, v: Any) -> list[Any]:
    return list(_as_list(v))


def f_count(env: Any, v: Any) -> int:
    if type(v) is list:
        return len(v)
    if isinstance(v, Multiset):
        return v.total()
    return len(_as_list(v))


def f_sum(env: Any, v: Any) -> int:
    return sum(x for x in _as_list(v) if x is not None)


def f_max(env: Any, *args: Any) -> Any:
    vals = _flatten(args)
    return max(vals) if vals else None


def f_min(env: Any, *args: Any) -> Any:
    vals = _flatten(args)
    return min(vals) if vals else None


def _flatten(args: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for a in args:
        if isinstance(a, list):
            out.extend(x for x in a if x is not None)
        elif a is not None:
            out.append(a)
    return out


def f_any(env: Any, v: Any) -> bool:
    return any(_as_list(v))


def f_all(env: Any, v: Any) -> bool:
    return all(_as_list(v))


def f_merge(env: Any, v: Any) -> Multiset:
    out = Multiset()
    for m in _as_list(v):
        if m:
            for k, n in m.items():
                out[k] = out.get(k, 0) + n
    return out


def f_players(env: Any) -> list[int]:
    """The players still in the game, in seat order."""
    return env.game.players_in()


def f_other(env: Any, p: int | None) -> int | None:
    """The next player in seat order still in the game (with two players, the other one)."""
    return env.game._other(p)


def f_opponents(env: Any, p: int | None) -> list[int]:
    """Every other player still in the game who is not a teammate (with two players, the one other)."""
    mates = env.game.teammates(p)
    return [q for q in env.game.players_in() if q != p and q not in mates]


def f_teammates(env: Any, p: int | None) -> list[int]:
    """The other players of `p`'s team still in the game (a format's teams; none without them)."""
    return env.game.teammates(p)


def f_players_from(env: Any, p: int | None) -> list[int]:
    """The players still in the game in turn order, starting with `p` (priority: "the turn player
    first, then the others in turn order")."""
    return env.game.players_from(p)


def f_players_left(env: Any) -> list[int]:
    """The players who have left the game, in the order they left."""
    return list(env.game.state.left)


def f_turn_team(env: Any) -> list[int]:
    """The players taking the current turn: the turn player, with team turns their teammates too."""
    return env.game.turn_team()


def f_next_player(env: Any, p: int | None) -> int | None:
    """The player right after `p` in the turn order as it stood when this turn began, even if they
    have left since (their place stays, empty, until the turn ends; `players()` tells who is in)."""
    return env.game.beside(p, 1)


def f_previous_player(env: Any, p: int | None) -> int | None:
    """The player right before `p` in the turn order as it stood when this turn began (as next_player)."""
    return env.game.beside(p, -1)


def f_turns_taken(env: Any, p: int | None) -> int:
    """How many turns `p` has taken (as the turn player or one of a turn team)."""
    st = env.game.state
    return st.turns_taken[p] if isinstance(p, int) and 0 <= p < st.num_players else 0


def f_cards_of(env: Any, zone: str, players: Any) -> list[GameObject]:
    """The cards of zone `zone` of each of several players, in the order the players are given."""
    out: list[GameObject] = []
    for p in _as_list(players):
        out.extend(f_cards(env, zone, p))
    return out


def f_newest(env: Any, v: Any, n: Any = None) -> Any:
    """The card placed most recently (by placement time, kept even in unordered zones), or with `n`
    the `n` most recent, newest first."""
    objs = _as_list(v)
    if n is not None:
        return sorted(objs, key=lambda o: o.timestamp, reverse=True)[:max(0, int(n))]
    return max(objs, key=lambda o: o.timestamp) if objs else None


def f_holder_present(env: Any, obj: GameObject) -> bool:
    if obj is None or obj.holder is None:
        return False
    h = env.game.state.objects.get(obj.holder)
    return h is not None and h.zone == obj.zone and h.zone_player == obj.zone_player


def f_holder_of(env: Any, obj: Any) -> GameObject | None:
    """The card a card is held under (attached to), while that card is in play in the same zone;
    null for a card held by none, or whose holder has left."""
    if not isinstance(obj, GameObject) or obj.holder is None:
        return None
    h = env.game.state.objects.get(obj.holder)
    if h is None or h.zone != obj.zone or h.zone_player != obj.zone_player:
        return None
    return h


def f_under(env: Any, obj: GameObject) -> list[GameObject]:
    if obj is None:
        return []
    g = env.game
    objs = g.state.objects
    return [objs[i] for i in g.state.zones.get((obj.zone, obj.zone_player), ()) if objs[i].holder == obj.oid]


def f_str(env: Any, v: Any) -> str:
    if isinstance(v, GameObject):
        return env.game.describe(v)
    return str(v)


_LATIN: frozenset[str] = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def f_without_trailing_letters(env: Any, text: Any) -> Any:
    """The text without its trailing Latin letters, full-width ones too (`'AB-012a'` -> `'AB-012'`):
    card numbers whose last letter marks a variant of the same card. Null stays null."""
    if text is None:
        return None
    out = str(text)
    while out and unicodedata.normalize("NFKC", out[-1]) in _LATIN:
        out = out[:-1]
    return out


def f_pending_count(env: Any) -> int:
    return len(env.game.state.pending)


def f_untriggered(env: Any, event: str, scope: Any = None) -> int:
    """Abilities that would trigger on an event and have not yet this turn (or for this scope of
    an `emit ... once_per`)."""
    return env.game.triggers.untriggered(event, scope)


def f_has_status(env: Any, player: int, status: str) -> bool:
    return bool(env.game.state.player_counters[player].get("status:" + status, 0))


def f_counter(env: Any, target: Any, name: str) -> int:
    if isinstance(target, GameObject):
        return target.counters.get(name, 0)
    if isinstance(target, int):
        return env.game.state.player_counters[target].get(name, 0)
    return 0


def f_player_value(env: Any, player: Any, name: str) -> Any:
    """A player's value as continuous effects make it (`modify_player`), from the player's counter of
    that name (0 without one): a total a rulebook works out per player, that effects change."""
    if not isinstance(player, int) or isinstance(player, bool):
        return 0
    game: Game = env.game
    base = game.state.player_counters[player].get(name, 0)
    return game.continuous.player_value(player, name, base)


def f_ability_count(env: Any, obj: Any) -> int:
    """How many abilities a card has now (printed and granted; a negated ability still exists)."""
    if not isinstance(obj, GameObject):
        return 0
    return len(env.game.abilities_of(obj))


def f_ability_index(env: Any) -> int | None:
    """The index of the ability being played or resolved (null outside one): what an effect names to
    play the same ability again (`resolve_abilities` with `index`)."""
    ab = getattr(env, "ability", None)
    return None if ab is None else int(ab.index)


def f_has_ability_kind(env: Any, obj: Any, kind: str) -> bool:
    """Whether a card has an ability of this kind: a kind the rulebook names (its `ability_kinds`)
    or how one is played (activated, auto, continuous)."""
    if not isinstance(obj, GameObject):
        return False
    game: Game = env.game
    engine_kind = game.kind_of.get(kind, kind)
    return any(ab.kind == engine_kind for ab in game.abilities_of(obj))


def f_has_keyword(env: Any, obj: Any, keyword: str) -> bool:
    """Whether one of a card's abilities has this keyword now. A keyword of an ability with
    condition keywords is there only while they hold (a static keyword behind a condition prefix);
    a condition keyword itself is always there (a card "with" that condition)."""
    if not isinstance(obj, GameObject):
        return False
    game: Game = env.game
    for ab in game.abilities_of(obj):
        if keyword in ab.keywords and _keyword_in_force(game, obj, ab, keyword):
            return True
    return False


def _keyword_in_force(game: Game, obj: GameObject, ab: Ability, keyword: str) -> bool:
    """Whether an ability's keyword is there now (see f_has_keyword)."""
    if not (ab.conditions or ab.resolving_conditions) \
            or (game.rb.keywords.get(keyword) or {}).get("kind") == "condition":
        return True
    from interpreter.timing.abilities import keywords_in_force

    return keywords_in_force(game, obj, ab)


def f_keyword_values(env: Any, obj: Any, keyword: str, param: str | None = None) -> list[Any]:
    """The values a card's abilities give a parameter of a keyword (default: its first parameter):
    one for each ability that has the keyword now (as has_keyword counts it), in the order of its
    abilities. A rulebook says how several combine (the highest: `max(keyword_values(c, 'charge'))`)."""
    if not isinstance(obj, GameObject):
        return []
    game: Game = env.game
    if param is None:
        declared = (game.rb.keywords.get(keyword) or {}).get("params_c") or ()
        if not declared:
            return []
        param = str(declared[0][0])
    out: list[Any] = []
    for ab in game.abilities_of(obj):
        if keyword in ab.keywords and _keyword_in_force(game, obj, ab, keyword):
            out.append((ab.keyword_params.get(keyword) or {}).get(param))
    return out


def f_keyword_value(env: Any, obj: Any, keyword: str, param: str | None = None) -> Any:
    """The value of a keyword's parameter on a card (`keyword_values`' first), null when it has none."""
    values = f_keyword_values(env, obj, keyword, param)
    return values[0] if values else None


def f_moved_within_group_this_turn(env: Any, obj: Any) -> bool:
    """Whether a card moved this turn from one zone to another of a group where it keeps its
    identity (the rulebook's `identity_kept_within`), e.g. from one area of a stage to another."""
    if not isinstance(obj, GameObject):
        return False
    st = env.game.state
    return st.moved_within.get(obj.oid) == st.turn


def f_len(env: Any, v: Any) -> int:
    return len(_as_list(v))


def f_abs(env: Any, v: int) -> int:
    return abs(v)


def f_names(env: Any, obj: GameObject) -> list[str]:
    """Every name a card answers to: its name, then each of its `names` (a list, or the keys of a
    strings_map field: each name with lists of its own), each once."""
    if obj is None:
        return []
    fields = env.game.cards[obj.card_id].fields
    out = [fields.get("name", "")]
    out.extend(n for n in fields.get("names", []) or [] if n not in out)
    return out


def f_keys(env: Any, m: Any) -> list[Any]:
    """The keys of a mapping, in order (a strings_map field's strings); [] for anything else."""
    return list(m) if isinstance(m, dict) else []


def f_has_name(env: Any, obj: GameObject, name: str) -> bool:
    return any(name in n for n in f_names(env, obj))


def f_printed(env: Any, obj: GameObject, name: str) -> Any:
    """A card field as printed, before any effect changes it (None when the card has no value)."""
    if not isinstance(obj, GameObject):
        return None
    v = env.game.cards[obj.card_id].fields.get(name)
    return Multiset(v) if isinstance(v, Multiset) else v


def f_field(env: Any, obj: Any, name: str) -> Any:
    """A named field of a card as it is now (what `card.NAME` gives), for a name known only at run time."""
    if obj is None:
        return None
    return env.attr(obj, name)


def field_values(env: Any, obj: GameObject, f: str) -> list[Any]:
    """A card's values of a field as it is now: a list field's items, a strings_map field's strings
    (its keys), or a single value (none if unset)."""
    v = env.attr(obj, f)
    if type(v) is dict:
        v = list(v)
    return [x for x in _as_list(v) if x is not None and x != ""]


def f_distinct_count(env: Any, cards: Any, f: Any = None) -> int:
    """How many of the cards can each give a different value of field `f`: a card with several values
    (an attribute list) gives any one of them, a card with none gives nothing. With several values per
    card this is a maximum bipartite matching of cards to values (networkx). Without `f`, each item
    of the list is one card's values already worked out (a list, or one value): `distinct_count(xs
    select values_of(it))` counts values an expression gives rather than a field."""
    if f is None:
        values = [[x for x in _as_list(item) if x is not None and x != ""] for item in _as_list(cards)]
    else:
        values = [field_values(env, c, f) for c in _as_list(cards) if isinstance(c, GameObject)]
    if all(len(v) <= 1 for v in values):
        return len({v[0] for v in values if v})
    import networkx as nx

    g = nx.Graph()
    left = [("card", i) for i in range(len(values))]
    g.add_nodes_from(left)
    g.add_edges_from((("card", i), ("value", v)) for i, vs in enumerate(values) for v in vs)
    matching = nx.bipartite.hopcroft_karp_matching(g, top_nodes=left)
    return sum(1 for n in left if n in matching)


def cover_symbols(requirements: Any, wildcard: Any) -> tuple[list[Any], int]:
    """Requirements to cover (a mapping symbol -> count, such as a multiset field, or a list of
    symbols) as the specific symbols, one entry per copy in the order given, and how many are the
    wildcard (paid by any card)."""
    pairs = list(requirements.items()) if isinstance(requirements, dict) else [(s, 1) for s in _as_list(requirements)]
    specific: list[Any] = []
    wild = 0
    for symbol, n in pairs:
        if symbol is None or not isinstance(n, int) or n <= 0:
            continue
        if wildcard is not None and symbol == wildcard:
            wild += n
        else:
            specific.extend([symbol] * n)
    return specific, wild


def coverable(pays: list[list[Any]], specific: list[Any], wild: int) -> bool:
    """Whether cards (each given by the symbols it can pay) can pay every specific symbol with a card
    of its own, with `wild` cards left for the wildcard: a bipartite matching of requirements to cards
    (networkx) that uses every requirement. A card with two symbols pays only one of them."""
    if len(pays) < len(specific) + wild:
        return False
    if not specific:
        return True
    needed: dict[Any, int] = {}
    for s in specific:
        needed[s] = needed.get(s, 0) + 1
    relevant = [[s for s in dict.fromkeys(p) if s in needed] for p in pays]
    if all(len(r) <= 1 for r in relevant):  # no card has a choice: count them
        have: dict[Any, int] = {}
        for r in relevant:
            if r:
                have[r[0]] = have.get(r[0], 0) + 1
        return all(have.get(s, 0) >= n for s, n in needed.items())
    import networkx as nx

    g = nx.Graph()
    slots = [("need", i) for i in range(len(specific))]
    g.add_nodes_from(slots)
    g.add_edges_from((("need", i), ("card", j)) for i, s in enumerate(specific) for j, r in enumerate(relevant)
                     if s in r)
    matching = nx.bipartite.hopcroft_karp_matching(g, top_nodes=slots)
    return all(n in matching for n in slots)


def cover_choices(pays: list[list[Any]], left: list[int], specific: list[Any], wild: int) -> list[int]:
    """The cards (indexes into `pays`, among `left`) that can pay the next requirement (the first
    specific symbol, or the wildcard once none is left) and leave the others coverable by the rest:
    what a player paying one requirement at a time may be offered without painting themselves into
    a corner."""
    if not specific and wild <= 0:
        return []
    rest, rest_wild = (specific[1:], wild) if specific else ([], wild - 1)
    out: list[int] = []
    for i in left:
        if specific and specific[0] not in pays[i]:
            continue
        if coverable([pays[j] for j in left if j != i], rest, rest_wild):
            out.append(i)
    return out


def f_covers(env: Any, cards: Any, f: str, requirements: Any, wildcard: Any = None) -> bool:
    """Whether the cards can cover the requirements one card per symbol: each required symbol paid by
    a card of its own that has the symbol among its values of field `f`, the `wildcard` symbol by any
    card (`requirements`: a mapping symbol -> count, such as a multiset field, or a list of symbols)."""
    objs = [c for c in _as_list(cards) if isinstance(c, GameObject)]
    specific, wild = cover_symbols(requirements, wildcard)
    return coverable([field_values(env, c, f) for c in objs], specific, wild)


def f_payable(env: Any, obj: Any, kind: str) -> bool:
    """Whether the card has an ability of this kind (a rulebook ability kind) whose cost its controller
    can pay now: e.g. whether a card's own text could be carried out (a cost step with `can:` states
    what it needs)."""
    if not isinstance(obj, GameObject):
        return False
    from interpreter.engine.context import Ctx
    from interpreter.timing.payability import can_pay

    game: Game = env.game
    engine_kind = game.kind_of.get(kind, kind)
    return any(can_pay(game, ab.cost, Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules, ability=ab))
               for ab in game.abilities_of(obj) if ab.kind == engine_kind)


def f_can_move_to(env: Any, obj: Any, zone: Any, player: Any, kind: Any = None) -> bool:
    """Whether a move of the card into `zone` of `player` (a move of `kind`, a `zone_rules.move_kinds`
    id) would happen now: the card is still there, the zone is its owner's where the rulebook
    locks zones to their owners, and no placement restriction refuses it. Choices offer only such
    places, so that what they offer is never refused."""
    if not isinstance(obj, GameObject):
        return False
    game: Game = env.game
    if zone not in game.rb.zones:
        return game.expr_fail(f"can_move_to: unknown zone {zone!r}")
    return game.move_refusal(obj, zone, player, env, kind=kind) is None


def f_usable(env: Any, obj: Any, kind: str) -> bool:
    """Whether the card has an ability of this kind its controller could play now, as play timing
    would offer it: the card's abilities work where it is (not negated, not face down), the
    ability's conditions hold, its use limits are not reached, its whole cost can be paid and its
    choices allow it. For a rule that lets a card be played whether or not its ability can then be
    used (the play and the ability being separate)."""
    if not isinstance(obj, GameObject):
        return False
    from interpreter.engine.context import Ctx
    from interpreter.timing.abilities import ability_objects, gate_ok, limit_ok, playable

    game: Game = env.game
    if obj.oid not in game.state.objects or all(o.oid != obj.oid for o in ability_objects(game, None)):
        return False
    engine_kind = game.kind_of.get(kind, kind)
    return any(playable(game, ab, Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules, ability=ab))
               for ab in game.abilities_of(obj)
               if ab.kind == engine_kind and gate_ok(obj, ab, game) and limit_ok(game, obj, ab))


def f_origin(env: Any, obj: GameObject) -> int | None:
    """The physical card an object is: its first object id, the same across zone changes."""
    if not isinstance(obj, GameObject):
        return None
    return obj.oid if obj.origin is None else obj.origin


GENERIC_FUNCTIONS: dict[str, FuncSpec] = {
    f.name: f for f in [
        FuncSpec("cards", f_cards, 2, 2, pass_env=True, sized=f_count_cards),
        FuncSpec("cards_in", f_cards_in, 2, 2, pass_env=True),
        FuncSpec("zones_in", f_zones_in, 1, 1, pass_env=True),
        FuncSpec("in_group", f_in_group, 2, 2, pass_env=True),
        FuncSpec("zone_visibility", f_zone_visibility, 1, 1, pass_env=True),
        FuncSpec("top", f_top, 3, 3, pass_env=True),
        FuncSpec("bottom", f_bottom, 3, 3, pass_env=True),
        FuncSpec("as_list", f_as_list, 1, 1, pass_env=True),
        FuncSpec("count", f_count, 1, 1, pass_env=True, counts=True),
        FuncSpec("len", f_len, 1, 1, pass_env=True),
        FuncSpec("sum", f_sum, 1, 1, pass_env=True),
        FuncSpec("max", f_max, 1, None, pass_env=True),
        FuncSpec("min", f_min, 1, None, pass_env=True),
        FuncSpec("any", f_any, 1, 1, pass_env=True),
        FuncSpec("all", f_all, 1, 1, pass_env=True),
        FuncSpec("abs", f_abs, 1, 1, pass_env=True),
        FuncSpec("merge", f_merge, 1, 1, pass_env=True),
        FuncSpec("players", f_players, 0, 0, pass_env=True),
        FuncSpec("other", f_other, 1, 1, pass_env=True),
        FuncSpec("opponents", f_opponents, 1, 1, pass_env=True),
        FuncSpec("teammates", f_teammates, 1, 1, pass_env=True),
        FuncSpec("players_from", f_players_from, 1, 1, pass_env=True),
        FuncSpec("players_left", f_players_left, 0, 0, pass_env=True),
        FuncSpec("turn_team", f_turn_team, 0, 0, pass_env=True),
        FuncSpec("next_player", f_next_player, 1, 1, pass_env=True),
        FuncSpec("previous_player", f_previous_player, 1, 1, pass_env=True),
        FuncSpec("turns_taken", f_turns_taken, 1, 1, pass_env=True),
        FuncSpec("cards_of", f_cards_of, 2, 2, pass_env=True),
        FuncSpec("newest", f_newest, 1, 2, pass_env=True),
        FuncSpec("holder_present", f_holder_present, 1, 1, pass_env=True),
        FuncSpec("holder_of", f_holder_of, 1, 1, pass_env=True),
        FuncSpec("under", f_under, 1, 1, pass_env=True),
        FuncSpec("str", f_str, 1, 1, pass_env=True),
        FuncSpec("without_trailing_letters", f_without_trailing_letters, 1, 1, pass_env=True),
        FuncSpec("pending_count", f_pending_count, 0, 0, pass_env=True),
        FuncSpec("untriggered", f_untriggered, 1, 2, pass_env=True),
        FuncSpec("has_status", f_has_status, 2, 2, pass_env=True),
        FuncSpec("counter", f_counter, 2, 2, pass_env=True),
        FuncSpec("player_value", f_player_value, 2, 2, pass_env=True),
        FuncSpec("ability_count", f_ability_count, 1, 1, pass_env=True),
        FuncSpec("has_ability_kind", f_has_ability_kind, 2, 2, pass_env=True),
        FuncSpec("ability_index", f_ability_index, 0, 0, pass_env=True),
        FuncSpec("has_keyword", f_has_keyword, 2, 2, pass_env=True),
        FuncSpec("keyword_value", f_keyword_value, 2, 3, pass_env=True),
        FuncSpec("keyword_values", f_keyword_values, 2, 3, pass_env=True),
        FuncSpec("moved_within_group_this_turn", f_moved_within_group_this_turn, 1, 1, pass_env=True),
        FuncSpec("names", f_names, 1, 1, pass_env=True),
        FuncSpec("has_name", f_has_name, 2, 2, pass_env=True),
        FuncSpec("printed", f_printed, 2, 2, pass_env=True),
        FuncSpec("field", f_field, 2, 2, pass_env=True),
        FuncSpec("origin", f_origin, 1, 1, pass_env=True),
        FuncSpec("payable", f_payable, 2, 2, pass_env=True),
        FuncSpec("distinct_count", f_distinct_count, 1, 2, pass_env=True),
        FuncSpec("keys", f_keys, 1, 1, pass_env=True),
        FuncSpec("can_move_to", f_can_move_to, 3, 4, pass_env=True),
        FuncSpec("usable", f_usable, 2, 2, pass_env=True),
        FuncSpec("covers", f_covers, 3, 4, pass_env=True),
    ]
}
