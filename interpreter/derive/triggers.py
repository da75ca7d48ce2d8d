"""Triggers: matching events to auto abilities and delayed triggers, making them pending.

Pending abilities are counts (one Pending per trigger). A card that leaves a zone where its
abilities work still sees the event that moved it, through its last known information; which state
of a moved card its triggers read (before or after the move) is the rulebook's
`moved_card_information`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from interpreter.derive.abilities import ability_objects, gate_ok, grants_now, held_works, working_reads
from interpreter.derive.effects import effect_dormant, effect_scope
from interpreter.model.rulebook import ability_label
from interpreter.state.events import MOVED
from interpreter.state.objects import GameObject, Pending
from interpreter.table.context import Ctx
from interpreter.table.derived import MISSING
from interpreter.table.log import log
from interpreter.table.reads import event_subject
from interpreter.table.views import describe

if TYPE_CHECKING:
    from interpreter.derive.play import Play

STATE: Final = " state"  # index key of state triggers (no event is named with a space)


class Triggers:
    def __init__(self, game: Play) -> None:
        self.game = game
        self._index: dict[str, dict[str, list[tuple[Any, dict[str, Any]]]]] = {}
        self._waiting_facts: dict[str, int] = {}  # event type -> the number of its fact in the store
        # id(trigger) -> event key that must be its own card (the grants' triggers known from the start).
        self._subject: dict[int, str | None] = dict(game.pool.granted_subjects)
        # The events some card of the game waits for: most events (a state change, a phase
        # beginning) concern no card at all, and are then matched against delayed triggers only.
        # Abilities grants may give count (every grant the rulebook and its cards hold).
        self.listened = game.pool.listened

    def _by_event(self, card_id: str) -> dict[str, list[tuple[Any, dict[str, Any]]]]:
        """A card's auto abilities indexed by the event they wait for (built once per card)."""
        index = self._index.get(card_id)
        if index is None:
            index = {}
            for ab in self.game.cards[card_id].abilities:
                if ab.kind == "auto":
                    for trig in ab.triggers:
                        if "state" in trig:
                            index.setdefault(STATE, []).append((ab, trig))
                        if "event" in trig:
                            index.setdefault(trig["event"], []).append((ab, trig))
                            cond = trig.get("if")
                            self._subject[id(trig)] = event_subject(cond.ast) if cond is not None else None
            self._index[card_id] = index
        return index

    def _waiting(self, event_type: str) -> tuple[list[tuple[GameObject, Any, dict[str, Any]]], bool]:
        """Who waits for this event as long as the working abilities stay the same, and whether
        any of them has conditions (left unchecked here: each caller checks an ability's conditions
        once the event is known to concern it, the cheaper tests first)."""
        game = self.game
        derived = game.derived
        n = self._waiting_facts.get(event_type)
        if n is None:
            n = self._waiting_facts[event_type] = derived.number(("waiting", event_type))
        token = grants_now(game)
        hit = derived.get(n, game.version)
        if hit is MISSING or hit[0] != token:
            # Who waits for this event, as long as the working abilities stay the same; an
            # ability with conditions (icons, states) is re-checked at each event.
            listed = [(obj, ab, trig) for obj in ability_objects(game)
                      for ab, trig in self._by_event(obj.card_id).get(event_type, ())
                      if ab.conditions or gate_ok(obj, ab, game)]
            if game.grants_possible:
                grants = game.continuous.granted()
                texts = game.continuous.texts()
                if texts:
                    # A card whose text an effect set waits with that text, not its printed one.
                    listed = [w for w in listed if w[0].oid not in texts]
                    grants = {oid: [*texts.get(oid, ()), *grants.get(oid, ())] for oid in {*grants, *texts}}
                if grants:
                    listed = self._with_granted(listed, grants, event_type)
            hit = (token, listed, any(w[1].conditions for w in listed))
            derived.keep(n, hit, working_reads(game), game.version)
        return hit[1], hit[2]

    def _with_granted(self, listed: list[tuple[GameObject, Any, dict[str, Any]]], grants: dict[int, list[Any]],
                      event_type: str) -> list[tuple[GameObject, Any, dict[str, Any]]]:
        """`listed` (printed abilities waiting for the event) with the granted auto abilities waiting
        for it (and those of a text an effect set), each card's after its printed ones."""
        game = self.game
        out: list[tuple[GameObject, Any, dict[str, Any]]] = []
        k = 0
        for obj in ability_objects(game):
            while k < len(listed) and listed[k][0] is obj:
                out.append(listed[k])
                k += 1
            for ab in grants.get(obj.oid, ()):
                if ab.kind != "auto" or not (ab.conditions or gate_ok(obj, ab, game)):
                    continue
                for trig in ab.triggers:
                    if ("state" in trig) if event_type == STATE else trig.get("event") == event_type:
                        out.append((obj, ab, trig))
        out.extend(listed[k:])
        return out

    def collect(self, event: dict[str, Any], *, once_per_turn: bool = False, only_player: int | None = None,
                departed: list[GameObject] | None = None, once_scope: Any = None) -> None:
        """Make pending the abilities this event triggers. `once_per_turn`: each ability triggers on
        it at most once a turn, or with `once_scope` once for each value of the scope (e.g. once per
        attack) within the turn. `departed`: cards that have just left the
        zones where their abilities work (an event that happens as they leave, raised after the
        move), whose abilities see it as they were, through their last known information."""
        game = self.game
        st = game.state
        etype = event["type"]
        # A move is seen as the rulebook's `moved_card_information` says (_moved_view). That view is
        # worked out only for an ability that gets past the quick check below: most moves (draws,
        # paid costs) concern no ability that waits for them, and the cases cost a few expressions.
        viewed = etype != MOVED or not game.rb.timing.get("moved_card_information")
        if etype not in self.listened:
            if st.effects:
                self._delayed(event, etype, viewed)
            return
        # An ability's conditions are checked only once the event is known to concern it (most
        # triggers name their own card as the event's subject): the same pending abilities, fewer
        # conditions read (a departed card's, checked already, are checked again: the same answer).
        watchers, conditional = self._waiting(etype)
        if departed:
            watchers = watchers + self._departed(departed, etype)
        moved: tuple[int, int] | None = None  # the moved card's object ids before and after, if viewed
        info: GameObject | None = None  # the object the rulebook says the moved card is read as
        fired: set[int] = set()  # the moved card's abilities that triggered on this move
        if etype == MOVED:
            old = event.get("old")
            if not viewed and isinstance(old, GameObject):
                moved = (old.oid, event["new"].oid)
            if isinstance(old, GameObject) and old.oid not in st.objects:
                card = game.cards[old.card_id]
                if card.abilities and (old.holder is None or held_works(game, old)) and (
                        old.zone in game.rb.ability_zones.get(card.type, ())
                        or old.zone in game.active_zone_cards.get(old.card_id, ())):
                    gone = [(old, ab, trig) for ab, trig in self._by_event(old.card_id).get(MOVED, ())
                            if gate_ok(old, ab, game)]
                    if gone:
                        watchers = watchers + gone
        for obj, ab, trig in watchers:
            if only_player is not None and obj.controller != only_player:
                continue
            if once_per_turn and (f"{obj.oid}:{ab.index}:{etype}" if once_scope is None
                                  else f"{obj.oid}:{ab.index}:{etype}@{once_scope}") in st.triggered_this_turn:
                continue
            mine = moved is not None and obj.oid in moved  # an ability of the moved card itself
            cond = trig.get("if")
            subject = self._subject.get(id(trig)) if cond is not None else None
            if subject is not None and not mine:
                # `event.<subject> == this` is one of its conjuncts: another card's event cannot match.
                # (Every card a move event names is the moved card, as made or as viewed.)
                who = event.get(subject)
                if type(who) is not GameObject or who.oid != obj.oid:
                    continue
            if conditional and ab.conditions and not gate_ok(obj, ab, game):
                continue
            if not viewed:
                event, info = self._moved_view(event)
                viewed = True
            # The moved card's own abilities read it as the rulebook says (before or after the move).
            this = info if mine and info is not None else obj
            if mine:
                if ab.index in fired:
                    # An ability that works both where the card was and where it went triggers once.
                    continue
                if subject is not None:
                    who = event.get(subject)
                    if type(who) is not GameObject or who.oid != this.oid:
                        continue
            if cond is not None:
                ctx = Ctx(game, None, you=obj.controller, this=this, event=event, rules=ab.rules)
                if not cond(ctx):
                    continue
            if mine:
                fired.add(ab.index)
            st.triggered_this_turn.add(f"{obj.oid}:{ab.index}:{etype}")
            if once_scope is not None:
                st.triggered_this_turn.add(f"{obj.oid}:{ab.index}:{etype}@{once_scope}")
            st.pending.append(Pending(st.new_id(), this.oid, this.card_id, ab.index, obj.controller, event))
            log(game, "trigger", f"{describe(game, obj)}: {ability_label(ab)} triggers", ab.rules)
        if st.effects:
            self._delayed(event, etype, viewed)

    def _departed(self, objs: list[GameObject], etype: str) -> list[tuple[GameObject, Any, dict[str, Any]]]:
        """The abilities waiting for this event of cards that left a zone where they worked, as they were."""
        game = self.game
        out: list[tuple[GameObject, Any, dict[str, Any]]] = []
        for old in objs:
            if old.oid in game.state.objects or (old.holder is not None and not held_works(game, old)):
                continue  # still where it was: it watches as any card does
            card = game.cards[old.card_id]
            if old.zone in game.rb.ability_zones.get(card.type, ()) or old.zone in game.active_zone_cards.get(
                    old.card_id, ()):
                out.extend((old, ab, trig) for ab, trig in self._by_event(old.card_id).get(etype, ())
                           if gate_ok(old, ab, game))
        return out

    def _moved_view(self, event: dict[str, Any]) -> tuple[dict[str, Any], GameObject | None]:
        """A move event as triggers see it, and the object its card is read as. The rulebook's
        `moved_card_information` says, case by case, whether a trigger on a move reads the card as it
        was before the move or where it went (e.g. the public side of a move to or from a hidden
        zone); `event.card` then denotes that object. Without it, triggers see the event as made."""
        spec = self.game.rb.timing.get("moved_card_information")
        if not spec or type(event.get("old")) is not GameObject or type(event.get("new")) is not GameObject:
            return event, None  # no rule, or a move event a rulebook emitted itself
        cases, default = spec["compiled"]
        ctx = Ctx(self.game, None, event=event)
        use = default
        for _id, case_use, cond in cases:
            if cond(ctx):
                use = case_use
                break
        info = event["old"] if use == "before" else event["new"]
        if info is event["card"]:
            return event, info
        view = dict(event)
        view["card"] = info
        return view, info

    def _delayed(self, event: dict[str, Any], etype: str, viewed: bool = True) -> None:
        """Delayed triggers (effects waiting for an event) that this event fires (`viewed`: a move
        event already seen as the rulebook's `moved_card_information` says)."""
        game = self.game
        st = game.state
        for eff in list(st.effects):
            if eff.kind != "delayed_trigger":
                continue
            trig = eff.spec.get("trigger", {})
            if trig.get("event") != etype or effect_dormant(game, eff):
                continue
            if not viewed:
                event, viewed = self._moved_view(event)[0], True
            ctx = effect_scope(game, eff, event)
            cond = trig.get("if")
            if cond is not None and not cond(ctx):
                continue
            spec = dict(eff.spec)
            spec["_bindings"] = eff.bindings
            st.pending.append(Pending(st.new_id(), eff.source, eff.source_card, -1, eff.master, event, spec))
            log(game, "trigger", "a delayed trigger triggers", tuple(spec.get("rules", ())))
            if eff.duration is None or eff.spec.get("once"):
                st.effects.remove(eff)  # it fires once (a duration alone keeps it for its duration)

    def check_state_triggers(self) -> None:
        """State triggers become pending once while their condition holds (again after resolving)."""
        game = self.game
        st = game.state
        listed, conditional = self._waiting(STATE)  # kept like event watchers (STATE is no event name)
        for obj, ab, trig in listed:
            if any(p.source == obj.oid and p.ability == ab.index for p in st.pending):
                continue
            if conditional and ab.conditions and not gate_ok(obj, ab, game):
                continue
            ctx = Ctx(game, None, you=obj.controller, this=obj, rules=ab.rules)
            if trig["state"](ctx):
                st.pending.append(Pending(st.new_id(), obj.oid, obj.card_id, ab.index, obj.controller,
                                          {"type": "state"}))
                log(game, "trigger", f"{describe(game, obj)}: {ability_label(ab)} triggers (state)", ab.rules)

    def untriggered(self, event_type: str, scope: Any = None) -> int:
        """Abilities that would trigger on this event and have not yet this turn (or, with a scope,
        for this value of the scope: see `collect`)."""
        game = self.game
        st = game.state
        n = 0
        listed, conditional = self._waiting(event_type)
        for obj, ab, trig in listed:
            key = f"{obj.oid}:{ab.index}:{event_type}"
            if (key if scope is None else f"{key}@{scope}") in st.triggered_this_turn:
                continue
            if conditional and ab.conditions and not gate_ok(obj, ab, game):
                continue
            cond = trig.get("if")
            if cond is None or cond(Ctx(game, None, you=obj.controller, this=obj, event={"type": event_type},
                                        rules=ab.rules)):
                n += 1
        return n
