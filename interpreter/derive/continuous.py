"""Continuous effects and the order they apply in.

Sources are continuous abilities of cards whose abilities work (timestamp: when the card entered
its zone) and effects created by resolving abilities (timestamp: creation). They apply layer by
layer in the rulebook's order; inside a layer, an effect whose affected cards depend on a field
another effect changes goes after it (dependency), and the rest go by timestamp. Created effects
with a locked set affect only the cards chosen at creation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import networkx as nx

from interpreter.derive.abilities import ability_objects, gate_ok, grants_now, working_reads
from interpreter.derive.effects import effect_dormant, effect_scope
from interpreter.model.rulebook import Ability, EffectRestriction, Grant
from interpreter.state.multiset import Multiset
from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.derived import MISSING
from interpreter.table.pool import gives

if TYPE_CHECKING:
    from interpreter.derive.play import Play


Key = tuple[int, int] | None
"""A continuous ability's source: (its card's object id, the ability's index); None for an effect."""


class Entry:
    __slots__ = ("layer", "ts", "field", "op", "value", "affected", "reads", "source", "spec", "ctx", "locked",
                 "stack")

    def __init__(self, layer: int, ts: int, field: str, op: str, value: Any, reads: frozenset[str],
                 spec: dict[str, Any], ctx: Ctx, locked: set[int] | None, source: Key = None,
                 stack: Any = None) -> None:
        self.layer, self.ts, self.field, self.op, self.value = layer, ts, field, op, value
        self.reads, self.spec, self.ctx, self.locked, self.source = reads, spec, ctx, locked, source
        self.stack = stack  # what identifies copies of one text that does not stack (None: it stacks)
        self.affected: set[int] = set()


class Continuous:
    def __init__(self, game: Play) -> None:
        self.game = game
        self.version = -1
        self.entries: list[Entry] = []
        # field -> the objects some entry changes it for, so that the usual read (a field no effect
        # touches on that card) is answered without going through the entries
        self.touched: dict[str, set[int]] = {}
        self._gen = 0  # bumped when a rebuild changes what the effects do
        # The numbers of this game's facts "the cards with continuous abilities that work" and "the
        # cards whose continuous abilities grant" in its store (table/derived.py), once asked.
        self._holders_fact = -1
        self._grant_holders_fact = -1
        self._last: list[Any] = []
        self.building = False
        facts = game.pool
        self.layer_of = facts.layer_of
        # What grants may give (every grant of the rulebook and the cards loaded with it) counts with
        # the printed abilities: a granted continuous ability is a source, its fields can change.
        self.any_sources = facts.any_sources
        self.dash_fields = facts.dash_fields
        self.card_fields = facts.card_fields
        # Grants: printed continuous abilities that grant (the cards in play holding one are kept while
        # the cards whose abilities work are the same), and what they and created effects give now.
        # Placement restrictions continuous effects add (`restrict:`): whether a card or a grant could
        # add one (created effects are looked at as they exist), so a move asks only when one may.
        self.restricting = facts.restricting
        self.grant_holders = facts.grant_holders
        self._grants: dict[int, list[Ability]] = {}
        # Texts effects set (`set_text:`): by object id, the abilities a card has instead of its printed
        # ones (the latest effect's), worked out with the grants.
        self._texts: dict[int, list[Ability]] = {}
        self._grants_token: Any = ()
        self._grants_version = -1
        self.granting = False  # the grants are being worked out (cards have their printed abilities only)
        self._rebuilt_granting = False
        # `lapse: turn`: once a continuous ability stops applying to a card, it does not apply to that
        # card again this turn. Cessations are seen after every state change.
        self.lapse = (game.rb.timing.get("continuous") or {}).get("lapse") == "turn" and self.any_sources

    def observe(self) -> None:
        """Work out what continuous abilities apply to now, so that one which stopped applying since
        the last change is recorded as lapsed even if nothing reads a field before it applies again."""
        if self.lapse and self.version != self.game.version:
            self.rebuild()

    def value(self, obj: GameObject, name: str, base: Any) -> Any:
        game = self.game
        if not self.any_sources and not game.state.effects:
            return base
        if base is None and name in self.dash_fields:
            return None  # a value printed as "-" is no number: nothing adds to it or fixes it
        if name not in self.card_fields and not self.lapse and not self._effects_modify(name):
            # The usual read: no continuous ability of the game's cards, nor any effect now, modifies
            # this field, so it is as printed (without working the effects out after each change;
            # with `lapse`, each working out records what stopped applying, so none is left out).
            return base
        if not self.building:
            if self.version != game.version:
                self.rebuild()
            touched = self.touched.get(name)
            if touched is None or obj.oid not in touched:
                return base
        for e in self.entries:
            if e.field == name and obj.oid in e.affected:
                v = e.value
                if e.op == "set":
                    base = v
                elif isinstance(base, dict) or isinstance(v, dict):
                    # A multiset (icons counted per symbol) gains or loses per symbol; a count never
                    # goes below 0 (a symbol lowered to nothing is gone).
                    out = Multiset(base or {})
                    for k, n in (v or {}).items():
                        left = out.get(k, 0) + n
                        if left > 0:
                            out[k] = left
                        else:
                            out.pop(k, None)
                    base = out
                else:
                    base = (base or 0) + v
        return base

    def _effects_modify(self, name: str) -> bool:
        """Whether a continuous effect created by an ability (not a card's continuous ability) modifies
        this field now."""
        for e in self.game.state.effects:
            if e.kind == "continuous":
                for f, _, _ in e.spec.get("modify", ()):
                    if f == name:
                        return True
        return False

    def player_value(self, player: int, name: str, base: Any) -> Any:
        """A value of a player (not of a card) as continuous effects make it: each effect whose
        `affects` gives this player and whose `modify_player` names the value, in layer then
        timestamp order. Rulebooks read it where a player-level total is worked out (a score that
        effects raise or lower as a whole)."""
        game = self.game
        if not self.any_sources and not game.state.effects:
            return base
        found: list[tuple[int, int, str, Any]] = []
        for ts, spec, ctx, _locked, _key in self._sources():
            for field, op, fn in spec.get("modify_player", ()):
                if field != name:
                    continue
                affects = spec.get("affects")
                who = affects(ctx) if affects is not None else ctx.you
                if player in (who if isinstance(who, list) else [who]):
                    found.append((self.layer_of.get(op, len(self.layer_of)), ts, op, fn(ctx)))
        for _layer, _ts, op, v in sorted(found, key=lambda f: (f[0], f[1])):
            base = v if op == "set" else (base or 0) + v
        return base

    def may_restrict(self) -> bool:
        """Whether some continuous effect could add a placement restriction now."""
        return self.restricting or any(e.kind == "continuous" and "restrict" in e.spec for e in self.game.state.effects)

    def restrictions(self) -> list[tuple[EffectRestriction, Ctx]]:
        """The placement restrictions continuous effects add now, each with the scope its condition is
        read in: those of the continuous abilities that work and of created effects, in timestamp order."""
        if not self.may_restrict():
            return []
        found = [(ts, spec["restrict"], ctx) for ts, spec, ctx, _locked, _key in self._sources()
                 if spec.get("restrict") is not None]
        return [(r, ctx) for _ts, r, ctx in sorted(found, key=lambda f: f[0])]

    def granted(self) -> dict[int, list[Ability]]:
        """The abilities grants give now, by object id: the `grant:` of the printed continuous abilities
        that work (an ability a grant gave does not grant in turn) and of created continuous effects,
        in timestamp order. Worked out once per state version. While it is worked out (which cards a
        grant affects may depend on abilities: has_keyword, ability_count...), no card has a granted
        ability: the recursion guard."""
        if self.granting:
            return {}
        if self._grants_version != self.game.version:
            self._work_out_grants()
        return self._grants

    def texts(self) -> dict[int, list[Ability]]:
        """The texts effects set now (`set_text:`), by object id: the abilities such a card has instead
        of its printed ones, the effect with the latest timestamp winning. Worked out with the grants,
        under the same recursion guard (while they are worked out, cards have their printed text)."""
        if self.granting:
            return {}
        if self._grants_version != self.game.version:
            self._work_out_grants()
        return self._texts

    def grants_token(self) -> Any:
        """Which abilities are granted to which cards now, as a value to key caches on (None while
        the grants are being worked out)."""
        if self.granting:
            return None
        if self._grants_version != self.game.version:
            self._work_out_grants()
        return self._grants_token

    def forget_grants(self) -> None:
        self._grants_version = -1
        if self._grant_holders_fact >= 0:
            self.game.derived.forget(self._grant_holders_fact)

    def _work_out_grants(self) -> None:
        game = self.game
        st = game.state
        found: list[tuple[int, str, list[Grant], list[GameObject]]] = []
        self.granting = True
        self._rebuilt_granting = False
        try:
            if self.grant_holders:
                derived = game.derived
                n = self._grant_holders_fact
                if n < 0:
                    n = self._grant_holders_fact = derived.number(("grant_holders",))
                holders = derived.get(n, game.version)
                if holders is MISSING:
                    holders = [(obj, ab) for obj in ability_objects(game) for ab in game.cards[obj.card_id].abilities
                               if ab.kind == "continuous" and ab.continuous and gives(ab.continuous)]
                    derived.keep(n, holders, working_reads(game), game.version)
                for obj, ab in holders:
                    spec = ab.continuous
                    if spec is None or not gate_ok(obj, ab, game):
                        continue
                    ctx = Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules)
                    cond = spec.get("if")
                    if cond is None or cond(ctx):
                        objs = _current(game, spec["affects"](ctx), None)
                        found.extend((obj.timestamp, how, spec[how], objs) for how in GIVES if spec.get(how))
            for eff in st.effects:
                if eff.kind == "continuous" and gives(eff.spec) and not effect_dormant(game, eff):
                    ctx = effect_scope(game, eff)
                    objs = _current(game, eff.spec["affects"](ctx), eff.locked)
                    found.extend((eff.timestamp, how, eff.spec[how], objs) for how in GIVES if eff.spec.get(how))
        finally:
            self.granting = False
        grants: dict[int, list[Ability]] = {}
        texts: dict[int, list[Ability]] = {}
        for _ts, how, given, objs in sorted(found, key=lambda f: f[0]):
            for o in objs:
                ctype = game.cards[o.card_id].type
                if how == "set_text":
                    texts[o.oid] = [g.for_type(ctype) for g in given]  # a later text replaces an earlier one
                else:
                    grants.setdefault(o.oid, []).extend(g.for_type(ctype) for g in given)
        self._grants = grants
        self._texts = texts
        self._grants_token = (tuple(sorted((oid, tuple(ab.index for ab in abs_)) for oid, abs_ in grants.items())),
                              tuple(sorted((oid, tuple(ab.index for ab in abs_)) for oid, abs_ in texts.items())))
        self._grants_version = game.version
        if self._rebuilt_granting:
            self.invalidate()  # what continuous effects were worked out meanwhile saw no granted ability

    def invalidate(self) -> None:
        """Forget what was worked out (abilities that work turned out to be negated)."""
        self.version = -1
        if self._holders_fact >= 0:
            self.game.derived.forget(self._holders_fact)

    def may_change(self, fields: frozenset[str] | None) -> bool:
        """Whether a card's continuous ability or a current effect can modify one of these fields
        (None: any field)."""
        effects = self.game.state.effects
        if fields is None:
            return self.any_sources or bool(effects) or bool(self._last)
        if not self.card_fields.isdisjoint(fields) or self._last and any(f in fields for f, _, _, _ in self._last):
            return True
        return bool(effects) and any(f in fields for e in effects if e.kind == "continuous"
                                     for f, _, _ in e.spec.get("modify", []))

    def known_generation(self) -> int:
        """The generation as last worked out, without working it out again (a rebuild started by
        any read of a field may have changed it since a reader last looked)."""
        return self._gen

    def generation(self) -> int:
        """A number that changes whenever continuous effects change a field of some card."""
        if not self.any_sources and not self.game.state.effects and not self._last:
            return self._gen
        if self.version != self.game.version:
            self.rebuild()
        return self._gen

    def active_for(self, obj: GameObject) -> bool:
        """Whether any continuous effect currently changes this object (a card's last known
        information is then frozen as it leaves). A card none of whose fields any continuous ability
        or current effect modifies is answered without working the effects out again (a move
        changes the state, so each move would otherwise work them all out), unless ceasing to apply
        is recorded (`lapse`: each working out records what stopped applying, so none is skipped)."""
        effects = self.game.state.effects
        if not self.any_sources and not effects:
            return False
        fields = self.game.cards[obj.card_id].fields
        if self.card_fields.isdisjoint(fields) and not self.lapse and not any(
                f in fields for e in effects if e.kind == "continuous" for f, _, _ in e.spec.get("modify", ())):
            return False
        if self.version != self.game.version:
            self.rebuild()
        return any(obj.oid in e.affected for e in self.entries)

    def _sources(self) -> list[tuple[int, dict[str, Any], Ctx, set[int] | None, Key]]:
        game = self.game
        out: list[tuple[int, dict[str, Any], Ctx, set[int] | None, Key]] = []
        if self.any_sources:
            # Cards with continuous abilities among those whose abilities work: a derived fact kept
            # while the zones where abilities work (and what effects grant) are unchanged.
            derived = game.derived
            n = self._holders_fact
            if n < 0:
                n = self._holders_fact = derived.number(("continuous_holders",))
            token = grants_now(game)
            hit = derived.get(n, game.version)
            if hit is MISSING or hit[0] != token:
                hit = (token, [(obj, ab) for obj in ability_objects(game) for ab in game.abilities_of(obj)
                               if ab.kind == "continuous" and ab.continuous])
                derived.keep(n, hit, working_reads(game), game.version)
            for obj, ab in hit[1]:
                if gate_ok(obj, ab, game):
                    cond = ab.continuous.get("if")
                    ctx = Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules)
                    if cond is None or cond(ctx):
                        out.append((obj.timestamp, ab.continuous, ctx, None, (obj.oid, ab.index)))
        for eff in game.state.effects:
            if eff.kind == "continuous" and not effect_dormant(game, eff):
                ctx = effect_scope(game, eff)
                out.append((eff.timestamp, eff.spec, ctx, set(eff.locked) if eff.locked is not None else None,
                            None))
        return out

    def rebuild(self) -> None:
        game = self.game
        self.version = game.version
        if self.granting:
            self._rebuilt_granting = True
        sources = self._sources()
        if self.lapse and game.state.applying and not any(src[4] for src in sources):
            self._lapse({})  # every ability that applied has stopped
        if not sources:  # the usual case: nothing to apply
            self.entries = []
            self.touched = {}
            if self._last:
                self._gen += 1
                self._last = []
            return
        raw: list[Entry] = []
        for ts, spec, ctx, locked, key in sources:
            affects = spec.get("affects")
            reads = frozenset(getattr(affects, "attrs_used", ()) or ())
            label = spec.get("no_stack")
            for i, (field, op, fn) in enumerate(spec.get("modify", [])):
                # Copies of a text that does not stack: the same compiled text (several copies of a card)
                # or the same label (the author's name for it, e.g. across reprints).
                stack = None if not label else (label if isinstance(label, str) else id(spec), i)
                raw.append(Entry(self.layer_of.get(op, len(self.layer_of)), ts, field, op, fn(ctx), reads, spec,
                                 ctx, locked, key, stack))
        ordered = self._order(raw)
        self.entries = []
        self.building = True
        try:
            for e in ordered:
                affects = e.spec.get("affects")
                objs = affects(e.ctx) if affects is not None else []
                if isinstance(objs, GameObject):
                    objs = [objs]
                ids = {o.oid for o in objs or [] if isinstance(o, GameObject)}
                e.affected = ids & e.locked if e.locked is not None else ids
                self.entries.append(e)
        finally:
            self.building = False
        if self.lapse:
            now: dict[tuple[int, int], set[int]] = {}
            for e in self.entries:
                if e.source is not None:
                    now.setdefault(e.source, set()).update(e.affected)
            self._lapse(now)
        if any(e.stack is not None for e in self.entries):
            self._no_stack()
        touched: dict[str, set[int]] = {}
        for e in self.entries:
            touched.setdefault(e.field, set()).update(e.affected)
        self.touched = touched
        applied = [(e.field, e.op, e.value, e.affected) for e in self.entries]
        if applied != self._last:
            self._gen += 1
            self._last = applied

    def _lapse(self, now: dict[tuple[int, int], set[int]]) -> None:
        """Record the cards each ability stopped applying to since it was last seen, and keep it from
        applying to cards it lapsed for this turn (`now` holds what each would apply to)."""
        st = self.game.state
        lapsed = st.lapsed
        for key, prev in st.applying.items():
            gone = prev - now.get(key, set())
            for oid in gone:
                lapsed.add((key[0], key[1], oid))
        applying: dict[tuple[int, int], frozenset[int]] = {}
        for key, ids in now.items():
            ids -= {oid for oid in ids if (key[0], key[1], oid) in lapsed}
            applying[key] = frozenset(ids)
        if lapsed:
            for e in self.entries:
                if e.source is not None:
                    e.affected = {oid for oid in e.affected if (e.source[0], e.source[1], oid) not in lapsed}
        st.applying = {k: v for k, v in applying.items() if v}

    def _no_stack(self) -> None:
        """Several copies of a continuous effect that says it does not stack apply once to a card: the
        first in the order effects apply; the later copies leave that card alone (they still apply
        to cards the first does not)."""
        seen: set[tuple[Any, int]] = set()
        for e in self.entries:
            if e.stack is None:
                continue
            dup = {oid for oid in e.affected if (e.stack, oid) in seen}
            seen.update((e.stack, oid) for oid in e.affected)
            if dup:
                e.affected = e.affected - dup

    @staticmethod
    def _order(entries: list[Entry]) -> list[Entry]:
        """Layer order, then dependency, then timestamp."""
        out: list[Entry] = []
        for layer in sorted({e.layer for e in entries}):
            group = sorted((e for e in entries if e.layer == layer), key=lambda e: e.ts)
            edges = [(i, j) for i, a in enumerate(group) for j, b in enumerate(group)
                     if i != j and a.field in b.reads]  # b's affected set depends on the field a changes
            if not edges:
                out.extend(group)  # no dependency: timestamp order (the usual case, rebuilt often)
                continue
            g = nx.DiGraph()
            g.add_nodes_from(range(len(group)))
            g.add_edges_from(edges)
            try:
                order = list(nx.lexicographical_topological_sort(g, key=lambda i: group[i].ts))
            except nx.NetworkXUnfeasible:
                order = list(range(len(group)))
            out.extend(group[i] for i in order)
        return out


GIVES: Final = ("grant", "set_text")
"""The keys of an effect description that give cards abilities: abilities added, or a text set."""


def _current(game: Play, objs: Any, locked: list[int] | None) -> list[GameObject]:
    """The cards an `affects` value gives that are in play now (with `locked`, only those among them)."""
    if isinstance(objs, GameObject):
        objs = [objs]
    live = game.state.objects
    return [o for o in objs or [] if isinstance(o, GameObject) and o.oid in live
            and (locked is None or o.oid in locked)]
