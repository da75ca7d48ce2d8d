"""The table as one seat sees it, arranged by the game's play mat (`Rulebook.layout`): the seam
between a game and whatever draws it (the replay viewer's page, interpreter/viewer/assets/mat.js).

`mat(game, seat)` is plain JSON-able data. The seat's own mat comes first, drawn as the layout
writes it (rows from the middle of the table to the player); the other players follow in turn order
from the seat, their mats turned round (rows and cells reversed), so that a player's left faces the
opponent's right. Each zone shows as its cell says: a row or fan of card tiles, a stack (its top card
and how many cards it holds) or a count alone. A tile carries the fields the layout names as
continuous effects make them, counters, placement states as looks, and the cards held under or
attached to it.

What a seat may not see never leaves this module: a card it cannot see (`table.views.can_see`, as
`Game.view` decides) is a tile with its object number, its placement looks and the facts everyone
knows of it (the zone's `hidden_facts`), never its card id, name, fields or counters; a zone shown as
a count carries no cards at all. `seat=None` is the whole record (a finished game's replay): every
card shown, seat 1 at the bottom.
"""

from __future__ import annotations

from typing import Any

from interpreter.loader.layout import generic_layout, words
from interpreter.model.layout import Cell, Layout, Tile
from interpreter.model.words import node_words
from interpreter.state.multiset import Multiset
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.table import Table
from interpreter.table.views import can_see, hidden_facts

Json = dict[str, Any]


def layout_of(game: Table) -> Layout:
    """The game's play mat: its rulebook's, or one made from its zones."""
    return game.rb.layout if game.rb.layout is not None else generic_layout(game.rb)


def mat(game: Table, seat: int | None) -> Json:
    """What `seat` sees of the table, arranged by the play mat (module docstring); None: everything."""
    return _Mat(game, seat).build()


class _Mat:
    def __init__(self, game: Table, seat: int | None) -> None:
        self.game, self.seat = game, seat
        self.lay = layout_of(game)
        self.cards: dict[str, Json] = {}
        st = game.state
        # Cards held by another card (under it, attached to it) go with it, wherever they lie.
        self.held: dict[int, list[GameObject]] = {}
        for ids in st.zones.values():
            for oid in ids:
                o = st.objects[oid]
                if o.holder is not None and o.holder in st.objects:
                    self.held.setdefault(o.holder, []).append(o)

    # -- the whole table -------------------------------------------------------------------
    def build(self) -> Json:
        game, st = self.game, self.game.state
        n = st.num_players
        first = self.seat if self.seat is not None else 0
        order = [(first + k) % n for k in range(n)]
        node = game.cur_node
        tp = game.cur_tp
        players = [self.player(p, mirrored=i > 0) for i, p in enumerate(order)]
        placed = set(self.lay.zones())
        elsewhere = [self.cell(Cell(z, "row", words(z), 2), p) for (z, p), ids in st.zones.items()
                     if ids and z not in placed and (p is None or p in order)]
        return {
            "game": game.rb.id, "title": self.lay.title, "layout": self.lay.id, "seat": self.seat,
            "turn": st.turn, "turn_player": tp, "node": node.id if node is not None else "setup",
            "phase": self.phase(), "result": _plain(st.result),
            "theme": dict(self.lay.theme), "palette": dict(self.lay.palette),
            "players": players,
            "shared": [self.cell(c, None) for c in self.lay.shared],
            "elsewhere": elsewhere,
            "cards": self.cards,
        }

    def phase(self) -> str:
        """Where the turn is, in words: the turn structure's nodes from the phase down to the step."""
        node = self.game.cur_node
        if node is None:
            return "Setup"
        names = []
        graph = self.game.rb.graph
        while node is not None and node.parent is not None:
            said = node_words(node)  # the node's `reads:` (rulebook data), else its id in words
            names.append(said[:1].upper() + said[1:])
            node = graph.nodes.get(node.parent)
        return " · ".join(reversed(names))

    def player(self, p: int, *, mirrored: bool) -> Json:
        game, st = self.game, self.game.state
        rows = []
        for row in self.lay.rows:
            cells = [self.cell(c, p) for c in row.cells]
            rows.append({"id": row.id, "cells": cells[::-1] if mirrored else cells})
        if mirrored:
            rows.reverse()
        roles = [label for role, label in self.lay.roles if st.roles.get(role) == p]
        return {"seat": p, "name": f"P{p + 1}", "you": p == self.seat, "mirrored": mirrored,
                "turn": game.cur_tp == p, "left": p in st.left, "roles": roles,
                "values": self.values(p), "rows": rows}

    def values(self, p: int) -> list[Json]:
        game = self.game
        out = []
        counters = game.state.player_counters[p]
        if self.lay.generic:
            return [{"id": k, "label": words(k), "value": v} for k, v in sorted(counters.items()) if v]
        for v in self.lay.player_values:
            value: Any
            try:
                if v.counter is not None:
                    value = game.player_value(p, v.counter, counters.get(v.counter, 0))
                else:
                    assert v.value is not None
                    value = v.value(Ctx(game, None, you=p))
            except Exception:  # noqa: BLE001 - a value the table cannot work out now is shown as unknown
                value = None
            if v.hide_zero and not value:
                continue
            out.append({"id": v.id, "label": v.label, "value": _plain(value)})
        return out

    # -- zones ------------------------------------------------------------------------------
    def cell(self, c: Cell, p: int | None) -> Json:
        st = self.game.state
        ids = st.zones.get((c.zone, p), [])
        objs = [st.objects[i] for i in ids]
        tops = [o for o in objs if o.holder is None or o.holder not in st.objects]
        out: Json = {"zone": c.zone, "label": c.label, "show": c.show, "width": c.width, "count": len(objs)}
        if c.show == "count":
            return out
        if c.show == "stack":
            if tops:
                top = tops[0] if self.game.rb.zones[c.zone].ordered else max(tops, key=lambda o: o.timestamp)
                out["top"] = self.tile(top)
            return out
        out["cards"] = [self.tile(o) for o in tops]
        return out

    # -- cards -------------------------------------------------------------------------------
    def sees(self, o: GameObject) -> bool:
        return self.seat is None or can_see(self.game, o, self.seat)

    def tile(self, o: GameObject) -> Json:
        looks, tags = self.looks(o)
        t: Json = {"oid": o.oid}
        if looks:
            t["looks"] = looks
        if not self.sees(o):
            t["hidden"] = True
            facts = [name for name, known in hidden_facts(self.game, o).items() if known]
            if facts:
                t["facts"] = facts
        else:
            card = self.game.cards[o.card_id]
            if o.card_id not in self.cards:
                self.cards[o.card_id] = {"name": str(card.fields.get("name", o.card_id)), "type": card.type}
            t["card"] = o.card_id
            spec = self.lay.tile_for(card.type)
            fields = self.fields(o, spec) if spec is not None else []
            if fields:
                t["fields"] = fields
            shown = {f.counter for f in spec.fields if f.counter} if spec is not None else set()
            counters = {k: v for k, v in o.counters.items() if v and k not in shown}
            if counters:
                t["counters"] = counters
            if tags:
                t["tags"] = tags
        held = self.held.get(o.oid)
        if held:
            t["held"] = [self.held_tile(h) for h in held]
        return t

    def held_tile(self, h: GameObject) -> Json:
        """A card under or attached to another: which card (when seen) and how it shows, no fields."""
        look = self.lay.held_look(self.game.cards[h.card_id].type)
        t: Json = {"oid": h.oid, "held_look": look.look if look is not None else "under"}
        if not self.sees(h):
            t["hidden"] = True
            return t
        card = self.game.cards[h.card_id]
        self.cards.setdefault(h.card_id, {"name": str(card.fields.get("name", h.card_id)), "type": card.type})
        t["card"] = h.card_id
        if look is not None and look.color:
            value = self.game.field(h, look.color)
            first = next(iter(value), None) if isinstance(value, (list, tuple, dict)) else value
            if first is not None:
                t["color"] = str(first)
        return t

    def looks(self, o: GameObject) -> tuple[list[str], list[str]]:
        looks: list[str] = []
        tags: list[str] = []
        for s in self.lay.states:
            if str(o.states.get(s.state)) == s.value:
                if s.look == "tag":
                    tags.append(s.label)
                elif s.look not in looks:
                    looks.append(s.look)
        return looks, tags

    def fields(self, o: GameObject, spec: Tile) -> list[Json]:
        out = []
        for f in spec.fields:
            value: Any
            most: Any = None
            try:
                if f.field is not None:
                    value = self.game.field(o, f.field)
                elif f.counter is not None:
                    value = o.counters.get(f.counter, 0)
                else:
                    assert f.value is not None
                    ctx = Ctx(self.game, None, you=o.controller).with_it(o)
                    value = f.value(ctx)
                    most = f.max(ctx) if f.max is not None else None
                if f.max is not None and most is None:
                    most = f.max(Ctx(self.game, None, you=o.controller).with_it(o))
            except Exception:  # noqa: BLE001 - a value the card does not have now (a dash) is shown as none
                value = None
            if f.hide_zero and not value:
                continue
            item: Json = {"id": f.id, "label": f.label, "at": f.at, "value": _plain(value)}
            if most is not None:
                item["max"] = _plain(most)
            out.append(item)
        return out


def _plain(value: Any) -> Any:
    """A value as JSON: a multiset as {symbol: count} (positive counts), lists as lists, a card as
    its object number, anything else as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Multiset):
        return {str(k): v for k, v in value.items() if v > 0}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    if isinstance(value, GameObject):
        return value.oid
    return str(value)
