"""The generic functions expressions may call.

They know zones, cards, players and multisets, never a game's own terms: anything a game needs
beyond these is a `functions:` entry in its rulebook, written as an expression over these.
Each function receives the evaluation context first so it can reach the game state. Its docstring
says what it gives and ends with an `Example:` expression: the generated reference (`sogo reference`,
docs/reference.md) reads both, and tests/test_reference.py checks that each function has them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from interpreter.expr import FuncSpec
from interpreter.state.multiset import Multiset
from interpreter.state.objects import GameObject
from interpreter.table.views import describe

if TYPE_CHECKING:
    from interpreter.model.rulebook import Ability
    from interpreter.table.table import Table


def _as_list(v: Any) -> list[Any]:
    if v is None:
        return []
    if isinstance(v, list):
        return v
    if isinstance(v, (tuple, set, frozenset)):
        return list(v)
    return [v]


def f_cards(env: Any, zone: str, player: int | None) -> list[GameObject]:
    """The cards in a player's zone, in the zone's order (its top first); the player of a shared zone
    is null. A zone the player does not have is an error.

    Example: `count(cards('hand', you)) >= 2`
    """
    game: Table = env.game  # typed, so that a compiled build reads the game's fields directly
    st = game.state
    ids = st.zones.get((zone, player))
    if ids is None:
        return game.expr_fail(f"no zone '{zone}' for player {player}")
    objs = st.objects
    return [objs[i] for i in ids]


def f_count_cards(env: Any, zone: str, player: int | None) -> int:
    """`count(cards(zone, player))` without the list."""
    game: Table = env.game
    ids = game.state.zones.get((zone, player))
    if ids is None:
        return game.expr_fail(f"no zone '{zone}' for player {player}")
    return len(ids)


def f_cards_in(env: Any, group: str, player: int | None) -> list[GameObject]:
    """The cards in every zone of a zone group (the zones' `groups`) of a player, zone by zone in the
    group's order.

    Example: `cards_in('board', you) where it.power >= 3`
    """
    g: Table = env.game
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
    """The ids of the zones of a zone group.

    Example: `'field' in zones_in('board')`
    """
    return list(env.game.rb.groups.get(group, ()))


def f_in_group(env: Any, zone: str | None, group: str) -> bool:
    """Whether a zone belongs to a zone group (false for null).

    Example: `in_group(this.zone, 'board')`
    """
    return zone is not None and zone in env.game.rb.group_sets.get(group, ())


def f_zone_visibility(env: Any, zone: str | None) -> str | None:
    """Who may see a zone's cards, as the rulebook declares it: public, private or owner.

    Example: `zone_visibility(this.zone) == 'public'`
    """
    zdef = env.game.rb.zones.get(zone) if zone is not None else None
    return None if zdef is None else zdef.visibility


def f_top(env: Any, zone: str, player: int | None, n: int) -> list[GameObject]:
    """The first `n` cards of a player's zone (its top cards, for an ordered zone), top first; fewer
    when it holds fewer.

    Example: `top('deck', you, 3)`
    """
    if n <= 0:
        return []
    game: Table = env.game
    st = game.state
    objs = st.objects
    return [objs[i] for i in st.zones.get((zone, player), [])[:n]]


def f_bottom(env: Any, zone: str, player: int | None, n: int) -> list[GameObject]:
    """The last `n` cards of a player's zone, the bottom card first; fewer when it holds fewer.

    Example: `bottom('deck', you, 1)`
    """
    if n <= 0:
        return []
    game: Table = env.game
    st = game.state
    objs = st.objects
    return [objs[i] for i in st.zones.get((zone, player), [])[-n:]][::-1]


def f_as_list(env: Any, value: Any) -> list[Any]:
    """A value as a list: a list stays as it is, null gives an empty list, any other value a list of
    itself.

    Example: `'red' in as_list(this.tags)`
    """
    return list(_as_list(value))


def f_count(env: Any, value: Any) -> int:
    """How many items a list has; for a multiset, the total of its counts; null counts 0 and any other
    single value 1.

    Example: `count(cards('hand', you) where it.power >= 3) > 0`
    """
    if type(value) is list:
        return len(value)
    if isinstance(value, Multiset):
        return value.total()
    return len(_as_list(value))


def f_sum(env: Any, value: Any) -> int:
    """The sum of a list of numbers, nulls left out (0 for an empty list).

    Example: `sum(cards('field', you) select it.power) >= 10`
    """
    return sum(x for x in _as_list(value) if x is not None)


def f_max(env: Any, *values: Any) -> Any:
    """The largest of its arguments, a list counting as its items and nulls left out; null when
    nothing is left.

    Example: `max(cards('field', you) select it.power)`
    """
    vals = _flatten(values)
    return max(vals) if vals else None


def f_min(env: Any, *values: Any) -> Any:
    """The smallest of its arguments, a list counting as its items and nulls left out; null when
    nothing is left.

    Example: `min(3, count(cards('hand', you)))`
    """
    vals = _flatten(values)
    return min(vals) if vals else None


def _flatten(args: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for a in args:
        if isinstance(a, list):
            out.extend(x for x in a if x is not None)
        elif a is not None:
            out.append(a)
    return out


def f_any(env: Any, value: Any) -> bool:
    """Whether some item of a list is true (not false, null, 0 or empty).

    Example: `any(cards('field', you) select it.power > 4)`
    """
    return any(_as_list(value))


def f_all(env: Any, value: Any) -> bool:
    """Whether every item of a list is true (true for an empty list).

    Example: `all(cards('field', you) select it.face == 'up')`
    """
    return all(_as_list(value))


def f_merge(env: Any, value: Any) -> Multiset:
    """A list of multisets added up into one multiset (a count per symbol); nulls left out.

    Example: `merge(cards('field', you) select it.needs).red >= 2`
    """
    out = Multiset()
    for m in _as_list(value):
        if m:
            for k, n in m.items():
                out[k] = out.get(k, 0) + n
    return out


def f_players(env: Any) -> list[int]:
    """The players still in the game, in seat order.

    Example: `count(players()) > 2`
    """
    return env.game.players_in()


def f_other(env: Any, player: int | None) -> int | None:
    """The next player in seat order still in the game (with two players, the other one).

    Example: `other(turn_player)`
    """
    return env.game._other(player)


def f_opponents(env: Any, player: int | None) -> list[int]:
    """Every other player still in the game who is not a teammate (with two players, the one other).

    Example: `opponents(you) where count(cards('hand', it)) == 0`
    """
    mates = env.game.teammates(player)
    return [q for q in env.game.players_in() if q != player and q not in mates]


def f_teammates(env: Any, player: int | None) -> list[int]:
    """The other players of `player`'s team still in the game (a format's teams; none without them).

    Example: `count(teammates(you)) > 0`
    """
    return env.game.teammates(player)


def f_players_from(env: Any, player: int | None) -> list[int]:
    """The players still in the game in turn order, starting with `player` (priority: "the turn player
    first, then the others in turn order").

    Example: `players_from(turn_player)[1]`
    """
    return env.game.players_from(player)


def f_players_left(env: Any) -> list[int]:
    """The players who have left the game, in the order they left.

    Example: `count(players_left()) > 0`
    """
    return list(env.game.state.left)


def f_turn_team(env: Any) -> list[int]:
    """The players taking the current turn: the turn player, with team turns their teammates too.

    Example: `you in turn_team()`
    """
    return env.game.turn_team()


def f_next_player(env: Any, player: int | None) -> int | None:
    """The player right after `player` in the turn order as it stood when this turn began, even if they
    have left since (their place stays, empty, until the turn ends; `players()` tells who is in).

    Example: `next_player(turn_player) == you`
    """
    return env.game.beside(player, 1)


def f_previous_player(env: Any, player: int | None) -> int | None:
    """The player right before `player` in the turn order as it stood when this turn began (as
    `next_player`).

    Example: `previous_player(you)`
    """
    return env.game.beside(player, -1)


def f_turns_taken(env: Any, player: int | None) -> int:
    """How many turns `player` has taken (as the turn player or one of a turn team).

    Example: `turns_taken(you) >= 2`
    """
    st = env.game.state
    return st.turns_taken[player] if isinstance(player, int) and 0 <= player < st.num_players else 0


def f_cards_of(env: Any, zone: str, players: Any) -> list[GameObject]:
    """The cards of zone `zone` of each of several players, in the order the players are given.

    Example: `cards_of('field', opponents(you)) where it.power > 3`
    """
    out: list[GameObject] = []
    for p in _as_list(players):
        out.extend(f_cards(env, zone, p))
    return out


def f_newest(env: Any, cards: Any, n: Any = None) -> Any:
    """The card placed most recently (by placement time, kept even in unordered zones), or with `n`
    the `n` most recent, newest first.

    Example: `newest(cards('discard', you))`
    """
    objs = _as_list(cards)
    if n is not None:
        return sorted(objs, key=lambda o: o.timestamp, reverse=True)[:max(0, int(n))]
    return max(objs, key=lambda o: o.timestamp) if objs else None


def f_holder_present(env: Any, card: GameObject) -> bool:
    """Whether the card a card is held under is still there (in play in the same zone); false for a
    card held by none.

    Example: `holder_present(this)`
    """
    if card is None or card.holder is None:
        return False
    h = env.game.state.objects.get(card.holder)
    return h is not None and h.zone == card.zone and h.zone_player == card.zone_player


def f_holder_of(env: Any, card: Any) -> GameObject | None:
    """The card a card is held under (attached to), while that card is in play in the same zone;
    null for a card held by none, or whose holder has left.

    Example: `cards('field', you) where holder_of(it) == this`
    """
    if not isinstance(card, GameObject) or card.holder is None:
        return None
    h = env.game.state.objects.get(card.holder)
    if h is None or h.zone != card.zone or h.zone_player != card.zone_player:
        return None
    return h


def f_under(env: Any, card: GameObject) -> list[GameObject]:
    """The cards held under a card (those of its zone whose `holder` it is), in the zone's order.

    Example: `count(under(this)) >= 2`
    """
    if card is None:
        return []
    g = env.game
    objs = g.state.objects
    return [objs[i] for i in g.state.zones.get((card.zone, card.zone_player), ()) if objs[i].holder == card.oid]


def f_str(env: Any, value: Any) -> str:
    """A value as text: a card as its name with its card id and object id.

    Example: `'a card leaves: ' + str(event.card)`
    """
    if isinstance(value, GameObject):
        return describe(env.game, value)
    return str(value)


_LATIN: frozenset[str] = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def f_without_trailing_letters(env: Any, text: Any) -> Any:
    """The text without its trailing Latin letters, full-width ones too (`'AB-012a'` -> `'AB-012'`):
    card numbers whose last letter marks a variant of the same card. Null stays null.

    Example: `without_trailing_letters(this.id) == without_trailing_letters(event.card.id)`
    """
    if text is None:
        return None
    out = str(text)
    while out and unicodedata.normalize("NFKC", out[-1]) in _LATIN:
        out = out[:-1]
    return out


def f_without_variant_suffix(env: Any, text: Any, sep: Any) -> Any:
    """The text without its last `sep`-separated part when that part holds no digit: the rarity or
    variant mark a card list writes after a card number (`'AB-012-R+'` -> `'AB-012'`); a number that
    ends in digits is unchanged (`'AB-012'`, `'AB-M01'`). Null stays null.

    Example: `without_variant_suffix(it.number, '-')`
    """
    if text is None:
        return None
    out = str(text)
    head, found, tail = out.rpartition(str(sep))
    if not found or not head or not tail or any(unicodedata.digit(ch, None) is not None for ch in tail):
        return out
    return head


def f_pending_count(env: Any) -> int:
    """How many triggered abilities are pending (waiting for a check timing to resolve them).

    Example: `pending_count() == 0`
    """
    return len(env.game.state.pending)


def f_untriggered(env: Any, event: str, scope: Any = None) -> int:
    """How many abilities would trigger on an event and have not yet this turn (or for this scope of
    an `emit ... once_per`).

    Example: `untriggered('ping') > 0`
    """
    return env.game.untriggered(event, scope)


def f_has_status(env: Any, player: int, status: str) -> bool:
    """Whether a player has a status now (the `status` verb; one with a duration ends with it).

    Example: `not has_status(you, 'cannot_draw')`
    """
    return bool(env.game.state.player_counters[player].get("status:" + status, 0))


def f_counter(env: Any, target: Any, name: str) -> int:
    """A card's or a player's counter of that name (the `counter` verb); 0 when it has none.

    Example: `counter(this, 'charge') >= 2`
    """
    if isinstance(target, GameObject):
        return target.counters.get(name, 0)
    if isinstance(target, int):
        return env.game.state.player_counters[target].get(name, 0)
    return 0


def f_player_value(env: Any, player: Any, name: str) -> Any:
    """A player's value as continuous effects make it (`modify_player`), from the player's counter of
    that name (0 without one): a total a rulebook works out per player, that effects change.

    Example: `player_value(you, 'hand_limit') > 5`
    """
    if not isinstance(player, int) or isinstance(player, bool):
        return 0
    game: Table = env.game
    base = game.state.player_counters[player].get(name, 0)
    return game.player_value(player, name, base)


def f_ability_count(env: Any, card: Any) -> int:
    """How many abilities a card has now (printed and granted; a negated ability still exists).

    Example: `ability_count(this) == 0`
    """
    if not isinstance(card, GameObject):
        return 0
    return len(env.game.abilities_of(card))


def f_ability_index(env: Any) -> int | None:
    """The index of the ability being played or resolved (null outside one): what an effect names to
    play the same ability again (`resolve_abilities` with `index`).

    Example: `ability_index() != null`
    """
    ab = getattr(env, "ability", None)
    return None if ab is None else int(ab.index)


def f_has_ability_kind(env: Any, card: Any, kind: str) -> bool:
    """Whether a card has an ability of this kind: a kind the rulebook names (its `ability_kinds`)
    or how one is played (activated, auto, continuous).

    Example: `has_ability_kind(this, 'quick')`
    """
    if not isinstance(card, GameObject):
        return False
    game: Table = env.game
    engine_kind = game.kind_of.get(kind, kind)
    return any(ab.kind == engine_kind for ab in game.abilities_of(card))


def f_has_keyword(env: Any, card: Any, keyword: str) -> bool:
    """Whether one of a card's abilities has this keyword now. A keyword of an ability with
    condition keywords is there only while they hold (a static keyword behind a condition prefix);
    a condition keyword itself is always there (a card "with" that condition).

    Example: `has_keyword(this, 'on_ping')`
    """
    if not isinstance(card, GameObject):
        return False
    game: Table = env.game
    for ab in game.abilities_of(card):
        if keyword in ab.keywords and _keyword_in_force(game, card, ab, keyword):
            return True
    return False


def _keyword_in_force(game: Table, obj: GameObject, ab: Ability, keyword: str) -> bool:
    """Whether an ability's keyword is there now (see f_has_keyword)."""
    if not (ab.conditions or ab.resolving_conditions) \
            or (game.rb.keywords.get(keyword) or {}).get("kind") == "condition":
        return True
    return game.keywords_in_force(obj, ab)


def f_keyword_values(env: Any, card: Any, keyword: str, param: str | None = None) -> list[Any]:
    """The values a card's abilities give a parameter of a keyword (default: its first parameter):
    one for each ability that has the keyword now (as has_keyword counts it), in the order of its
    abilities. A rulebook says how several combine (the highest: `max(keyword_values(c, 'charge'))`).

    Example: `max(keyword_values(this, 'charge'))`
    """
    if not isinstance(card, GameObject):
        return []
    game: Table = env.game
    if param is None:
        declared = (game.rb.keywords.get(keyword) or {}).get("params_c") or ()
        if not declared:
            return []
        param = str(declared[0][0])
    out: list[Any] = []
    for ab in game.abilities_of(card):
        if keyword in ab.keywords and _keyword_in_force(game, card, ab, keyword):
            out.append((ab.keyword_params.get(keyword) or {}).get(param))
    return out


def f_keyword_value(env: Any, card: Any, keyword: str, param: str | None = None) -> Any:
    """The value of a keyword's parameter on a card (`keyword_values`' first), null when it has none.

    Example: `keyword_value(this, 'charge', 'n')`
    """
    values = f_keyword_values(env, card, keyword, param)
    return values[0] if values else None


def f_moved_within_group_this_turn(env: Any, card: Any) -> bool:
    """Whether a card moved this turn from one zone to another of a group where it keeps its
    identity (the rulebook's `identity_kept_within`), e.g. from one area of a stage to another.

    Example: `not moved_within_group_this_turn(this)`
    """
    if not isinstance(card, GameObject):
        return False
    st = env.game.state
    return st.moved_within.get(card.oid) == st.turn


def f_len(env: Any, value: Any) -> int:
    """How many items a list has (null: 0; any other single value, a multiset too: 1).

    Example: `len(top('deck', you, 5)) < 5`
    """
    return len(_as_list(value))


def f_abs(env: Any, value: int) -> int:
    """The absolute value of a number.

    Example: `abs(count(cards('hand', you)) - count(cards('hand', opponent))) <= 1`
    """
    return abs(value)


def f_names(env: Any, card: GameObject) -> list[str]:
    """Every name a card answers to: its name, then each of its `names` (a list, or the keys of a
    strings_map field: each name with lists of its own), each once.

    Example: `'Sample Unit' in names(this)`
    """
    if card is None:
        return []
    fields = env.game.cards[card.card_id].fields
    out = [fields.get("name", "")]
    out.extend(n for n in fields.get("names", []) or [] if n not in out)
    return out


def f_keys(env: Any, mapping: Any) -> list[Any]:
    """The keys of a mapping, in order (a strings_map field's strings); [] for anything else.

    Example: `'red' in keys(this.needs)`
    """
    return list(mapping) if isinstance(mapping, dict) else []


def f_has_name(env: Any, card: GameObject, name: str) -> bool:
    """Whether one of a card's names (see `names`) contains the text.

    Example: `has_name(this, 'Sample')`
    """
    return any(name in n for n in f_names(env, card))


def f_printed(env: Any, card: GameObject, name: str) -> Any:
    """A card field as printed, before any effect changes it (null when the card has no value).

    Example: `this.power > printed(this, 'power')`
    """
    if not isinstance(card, GameObject):
        return None
    v = env.game.cards[card.card_id].fields.get(name)
    return Multiset(v) if isinstance(v, Multiset) else v


def f_field(env: Any, card: Any, name: str) -> Any:
    """A named field of a card as it is now (what `card.NAME` gives), for a name known only at run
    time.

    Example: `field(this, 'power') == this.power`
    """
    if card is None:
        return None
    return env.attr(card, name)


def field_values(env: Any, obj: GameObject, f: str) -> list[Any]:
    """A card's values of a field as it is now: a list field's items, a strings_map field's strings
    (its keys), or a single value (none if unset)."""
    v = env.attr(obj, f)
    if type(v) is dict:
        v = list(v)
    return [x for x in _as_list(v) if x is not None and x != ""]


def f_distinct_count(env: Any, cards: Any, field: Any = None) -> int:
    """How many of the cards can each give a different value of the field named `field`: a card with
    several values (an attribute list) gives any one of them, a card with none gives nothing. With
    several values per card this is a maximum bipartite matching of cards to values (networkx).
    Without `field`, each item of the list is one card's values already worked out (a list, or one
    value): `distinct_count(xs select values_of(it))` counts values an expression gives rather than a
    field.

    Example: `distinct_count(cards('field', you), 'tags') >= 2`
    """
    if field is None:
        values = [[x for x in _as_list(item) if x is not None and x != ""] for item in _as_list(cards)]
    else:
        values = [field_values(env, c, field) for c in _as_list(cards) if isinstance(c, GameObject)]
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


def f_covers(env: Any, cards: Any, field: Any, requirements: Any, wildcard: Any = None) -> bool:
    """Whether the cards can cover the requirements one card per symbol: each required symbol paid by
    a card of its own that has the symbol among its values of the field named `field`, the `wildcard`
    symbol by any card (`requirements`: a mapping symbol -> count, such as a multiset field, or a list
    of symbols). With a null `field`, each item of the list is one payer's symbols already worked out
    (a list, or one symbol): `covers(payers select symbols_of(it), null, needs)` covers with what a
    rulebook function says each pays rather than a field.

    Example: `covers(cards('hand', you), 'tags', this.needs)`
    """
    specific, wild = cover_symbols(requirements, wildcard)
    if field is None:
        pays = [[x for x in _as_list(item) if x is not None and x != ""] for item in _as_list(cards)]
        return coverable(pays, specific, wild)
    objs = [c for c in _as_list(cards) if isinstance(c, GameObject)]
    return coverable([field_values(env, c, field) for c in objs], specific, wild)


def f_payable(env: Any, card: Any, kind: str) -> bool:
    """Whether the card has an ability of this kind (a rulebook ability kind) whose cost its controller
    can pay now: e.g. whether a card's own text could be carried out (a cost step with `can:` states
    what it needs).

    Example: `payable(this, 'quick')`
    """
    if not isinstance(card, GameObject):
        return False
    return env.game.cost_payable(card, kind)


def f_can_move_to(env: Any, card: Any, zone: Any, player: Any, kind: Any = None, joining: Any = None) -> bool:
    """Whether a move of the card into `zone` of `player` (a move of `kind`, a `zone_rules.move_kinds`
    id) would happen now: the card is still there, the zone is its owner's where the rulebook
    locks zones to their owners, and no placement restriction refuses it. Choices offer only such
    places, so that what they offer is never refused. `joining`: cards chosen to arrive with it (the
    other cards of one appearance, read by restrictions as `arriving_with`).

    Example: `can_move_to(this, 'field', you)`
    """
    if not isinstance(card, GameObject):
        return False
    game: Table = env.game
    if zone not in game.rb.zones:
        return game.expr_fail(f"can_move_to: unknown zone {zone!r}")
    others = tuple(o for o in _as_list(joining) if isinstance(o, GameObject) and o.oid != card.oid)
    return game.can_move_to(card, zone, player, env, kind, others)


def f_could_change(env: Any, card: Any, kind: str, zone: Any = None) -> bool:
    """Whether carrying out the card's abilities of this kind now could change the game in any way
    (the card put into `zone` first, where its text resolves): each one whose cost can be paid is
    tried on a copy of the game with every answer its decisions allow, up to a bound, and the game
    after its effect compared with the game before it (engine/trial.py). For a rule that a card whose
    text would do nothing cannot be played, however the text is written.

    Example: `could_change(this, 'quick', 'field')`
    """
    if not isinstance(card, GameObject) or card.oid not in env.game.state.objects:
        return False
    return env.game.could_change(card, kind, zone if isinstance(zone, str) else None)


def f_usable(env: Any, card: Any, kind: str) -> bool:
    """Whether the card has an ability of this kind its controller could play now, as play timing
    would offer it: the card's abilities work where it is (not negated, not face down), the
    ability's conditions hold, its use limits are not reached, its whole cost can be paid and its
    choices allow it. For a rule that lets a card be played whether or not its ability can then be
    used (the play and the ability being separate).

    Example: `usable(this, 'quick')`
    """
    if not isinstance(card, GameObject):
        return False
    return env.game.usable(card, kind)


def f_origin(env: Any, card: GameObject) -> int | None:
    """The physical card an object is: its first object id, the same across zone changes.

    Example: `origin(event.new) == origin(event.old)`
    """
    if not isinstance(card, GameObject):
        return None
    return card.oid if card.origin is None else card.origin


GENERIC_FUNCTIONS: dict[str, FuncSpec] = {
    f.name: f for f in [
        FuncSpec("cards", f_cards, 2, 2, pass_env=True, sized=f_count_cards, reads="{player's} {zone}"),
        FuncSpec("cards_in", f_cards_in, 2, 2, pass_env=True, reads="{player's} {group}"),
        FuncSpec("zones_in", f_zones_in, 1, 1, pass_env=True, reads="the zones of {group}"),
        FuncSpec("in_group", f_in_group, 2, 2, pass_env=True, reads="{zone} is in {group}"),
        FuncSpec("zone_visibility", f_zone_visibility, 1, 1, pass_env=True, reads="who may see {zone}"),
        FuncSpec("top", f_top, 3, 3, pass_env=True, reads="the top {n} card(s) of {player's} {zone}"),
        FuncSpec("bottom", f_bottom, 3, 3, pass_env=True, reads="the bottom {n} card(s) of {player's} {zone}"),
        FuncSpec("as_list", f_as_list, 1, 1, pass_env=True, reads="{value}"),
        FuncSpec("count", f_count, 1, 1, pass_env=True, counts=True, reads="the number of {value}"),
        FuncSpec("len", f_len, 1, 1, pass_env=True, reads="the number of {value}"),
        FuncSpec("sum", f_sum, 1, 1, pass_env=True, reads="the total of {value}"),
        FuncSpec("max", f_max, 1, None, pass_env=True, reads="the largest of {values}"),
        FuncSpec("min", f_min, 1, None, pass_env=True, reads="the smallest of {values}"),
        FuncSpec("any", f_any, 1, 1, pass_env=True, reads="some of {value} holds"),
        FuncSpec("all", f_all, 1, 1, pass_env=True, reads="all of {value} hold"),
        FuncSpec("abs", f_abs, 1, 1, pass_env=True, reads="the absolute value of {value}"),
        FuncSpec("merge", f_merge, 1, 1, pass_env=True, reads="the sum of {value}"),
        FuncSpec("players", f_players, 0, 0, pass_env=True, reads="every player"),
        FuncSpec("other", f_other, 1, 1, pass_env=True, reads="the player other than {player}"),
        FuncSpec("opponents", f_opponents, 1, 1, pass_env=True, reads="{player's} opponents"),
        FuncSpec("teammates", f_teammates, 1, 1, pass_env=True, reads="{player's} teammates"),
        FuncSpec("players_from", f_players_from, 1, 1, pass_env=True, reads="every player in turn order from {player}"),
        FuncSpec("players_left", f_players_left, 0, 0, pass_env=True, reads="the players who left"),
        FuncSpec("turn_team", f_turn_team, 0, 0, pass_env=True, reads="the players taking this turn"),
        FuncSpec("next_player", f_next_player, 1, 1, pass_env=True, reads="the player after {player}"),
        FuncSpec("previous_player", f_previous_player, 1, 1, pass_env=True, reads="the player before {player}"),
        FuncSpec("turns_taken", f_turns_taken, 1, 1, pass_env=True, reads="the number of turns {player} has taken"),
        FuncSpec("cards_of", f_cards_of, 2, 2, pass_env=True, reads="the {zone} of {players}"),
        FuncSpec("newest", f_newest, 1, 2, pass_env=True, reads="the newest[ {n}] of {cards}"),
        FuncSpec("holder_present", f_holder_present, 1, 1, pass_env=True,
                 reads="the card {card} is under is still there"),
        FuncSpec("holder_of", f_holder_of, 1, 1, pass_env=True, reads="the card {card} is under"),
        FuncSpec("under", f_under, 1, 1, pass_env=True, reads="the cards under {card}"),
        FuncSpec("str", f_str, 1, 1, pass_env=True, reads="{value}"),
        FuncSpec("without_trailing_letters", f_without_trailing_letters, 1, 1, pass_env=True,
                 reads="{text} without its trailing letters"),
        FuncSpec("without_variant_suffix", f_without_variant_suffix, 2, 2, pass_env=True,
                 reads="{text} without its variant mark after {sep}"),
        FuncSpec("pending_count", f_pending_count, 0, 0, pass_env=True, reads="the number of pending abilities"),
        FuncSpec("untriggered", f_untriggered, 1, 2, pass_env=True,
                 reads="the number of abilities that would trigger on {event} and have not yet"),
        FuncSpec("has_status", f_has_status, 2, 2, pass_env=True, reads="{player} has the status {status}"),
        FuncSpec("counter", f_counter, 2, 2, pass_env=True, reads="the {name} counter of {target}"),
        FuncSpec("player_value", f_player_value, 2, 2, pass_env=True, reads="{player's} {name}"),
        FuncSpec("ability_count", f_ability_count, 1, 1, pass_env=True, reads="the number of abilities of {card}"),
        FuncSpec("has_ability_kind", f_has_ability_kind, 2, 2, pass_env=True, reads="{card} has a {kind} ability"),
        FuncSpec("ability_index", f_ability_index, 0, 0, pass_env=True, reads="the number of the ability being played"),
        FuncSpec("has_keyword", f_has_keyword, 2, 2, pass_env=True, reads="{card} has {keyword}"),
        FuncSpec("keyword_value", f_keyword_value, 2, 3, pass_env=True,
                 reads="the {keyword} value of {card}[ ({param})]"),
        FuncSpec("keyword_values", f_keyword_values, 2, 3, pass_env=True,
                 reads="the {keyword} values of {card}[ ({param})]"),
        FuncSpec("moved_within_group_this_turn", f_moved_within_group_this_turn, 1, 1, pass_env=True,
                 reads="{card} moved within its zone group this turn"),
        FuncSpec("names", f_names, 1, 1, pass_env=True, reads="the names of {card}"),
        FuncSpec("has_name", f_has_name, 2, 2, pass_env=True, reads="{card} has the name {name}"),
        FuncSpec("printed", f_printed, 2, 2, pass_env=True, reads="the printed {name} of {card}"),
        FuncSpec("field", f_field, 2, 2, pass_env=True, reads="the {name} of {card}"),
        FuncSpec("origin", f_origin, 1, 1, pass_env=True, reads="the physical card of {card}"),
        FuncSpec("payable", f_payable, 2, 2, pass_env=True, reads="{card} has a {kind} ability whose cost can be paid"),
        FuncSpec("distinct_count", f_distinct_count, 1, 2, pass_env=True,
                 reads="how many of {cards} give different {field}"),
        FuncSpec("keys", f_keys, 1, 1, pass_env=True, reads="the keys of {mapping}"),
        FuncSpec("can_move_to", f_can_move_to, 3, 5, pass_env=True,
                 reads="{card} can move to {player's} {zone}[ (a move of kind {kind})][ with {joining}]"),
        FuncSpec("usable", f_usable, 2, 2, pass_env=True, reads="{card} has a {kind} ability that can be played now"),
        FuncSpec("could_change", f_could_change, 2, 3, pass_env=True,
                 reads="carrying out the {kind} abilities of {card}[ in {zone}] could change the game"),
        FuncSpec("covers", f_covers, 3, 4, pass_env=True,
                 reads="{cards} cover {requirements}[ by their {field}][ ({wildcard} pays any)]"),
    ]
}
