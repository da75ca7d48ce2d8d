"""A decision in words for the person who must answer it: at the terminal (agents/human.py) and on
`sogo serve`'s page (serve/session.py) alike. The question (the rulebook's prompt id in words, or
what the engine itself is asking), what it is about (the card and its ability being played or
resolved, read in plain English by interpreter/reading), and for each option a title saying what it
does with a detail line: the card as its tile on the play mat reads and where it lies, the area and
what is in it now, the ability's text, what a course of action changes (`to pay 4 → 2`).

Everything is worked out from the engine's own decision (its options' values), the scope of the step
asking it (`Play.asking`), the card database, the play mat's labels and tiles and the log, never
from a game's own terms. A card the seat may not see is a `hidden card` (`table.views.can_see`);
nothing here tells the person more than their seat may know. Describing a decision changes nothing
in the game: expressions read it and never write it.

`Announcer` says what the engine did for a seat without asking it (the only possible choice, a pass
with nothing else to do), from the log as it grows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.agents.cardinfo import _value, summary_fields
from interpreter.loader.layout import words
from interpreter.model.rulebook import Ability, CardDef
from interpreter.model.words import node_words
from interpreter.state.decisions import Decision, Option
from interpreter.state.log import LogEntry
from interpreter.state.objects import GameObject, Pending
from interpreter.table.context import Ctx
from interpreter.table.table import Table
from interpreter.table.views import can_see, hidden_facts
from interpreter.viewer.mat import layout_of
from interpreter.viewer.terminal import look_words, tile_texts

Json = dict[str, Any]

# The questions the engine itself asks (a rulebook's own prompts read as their words).
ENGINE_PROMPTS = {
    "play_timing": "Your move: take an action, or pass",
    "choose_pending_ability": "Several abilities wait to resolve: choose which resolves next",
    "pay_optional_cost": "Use this ability and pay its cost?",
    "play_optional_ability": "Use this ability?",
}


@dataclass
class Worded:
    """One option as a person reads it: `title` (what it does), `detail` (more about it), and what
    it is about on the mat, so a page can make that clickable: a card (`card`: its object number),
    an area of the seat's (`zone`) or a player (`player`)."""

    id: str
    title: str
    detail: str = ""
    names: list[str] = field(default_factory=list)  # other words that choose it (its id, `yes`)
    card: int | None = None
    zone: str | None = None
    player: int | None = None

    def as_json(self) -> Json:
        out: Json = {"id": self.id, "title": self.title, "detail": self.detail}
        for key in ("card", "zone", "player"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


class Wording:
    """Words for one seat's decisions in one game. `table`: the play mat the seat is shown now
    (`viewer.mat.mat(game, seat)`), whose tiles say the cards the options are about; without it a
    card reads by its printed numbers."""

    def __init__(self, game: Table, seat: int, table: Json | None = None) -> None:
        self.game, self.seat = game, seat
        self._readings: dict[str, dict[int, str]] = {}
        lay = layout_of(game)
        self.labels = {c.zone: c.label for c in [c for r in lay.rows for c in r.cells] + list(lay.shared)}
        # Each card on the seat's mat as its tile reads (viewer.terminal.tile_texts): the fields the
        # layout shows for it, as continuous effects make them.
        self.tiles: dict[int, str] = tile_texts(table, look_words(lay)) if table is not None else {}

    # -- pieces ------------------------------------------------------------------------------
    def zone(self, zone: str) -> str:
        """A zone as the play mat names it (its cell's label), else its id in words."""
        return self.labels.get(zone, words(zone))

    def whose(self, p: int | None) -> str:
        return "" if p is None else "your " if p == self.seat else f"P{p + 1}'s "

    def name(self, obj: GameObject) -> str:
        """The card's name if the seat may know it, else `hidden card` and what everyone knows of it."""
        if can_see(self.game, obj, self.seat):
            return str(self.game.cards[obj.card_id].fields.get("name", obj.card_id))
        facts = [n for n, known in hidden_facts(self.game, obj).items() if known]
        return "hidden card" + (f" ({', '.join(facts)})" if facts else "")

    def facts(self, card: CardDef) -> str:
        """`cost 3 · power 2`: the numbers, choices and icons a card is played for (agents/cardinfo)."""
        return " · ".join(f"{words(f).lower()} {_value(card.fields[f])}" for f in summary_fields(self.game.rb, card))

    def card_facts(self, obj: GameObject) -> str:
        """A card's fields as its tile on the mat shows them, else its printed numbers; nothing when
        the seat may not see it."""
        if not can_see(self.game, obj, self.seat):
            return ""
        tile = self.tiles.get(obj.oid)
        if tile is not None:
            return tile.partition(" · ")[2]  # the tile less the card's name
        return self.facts(self.game.cards[obj.card_id])

    def reading(self, card: CardDef, index: int) -> str:
        """An ability in plain English (interpreter/reading), else its own text, else its kind."""
        if card.id not in self._readings:
            from interpreter.cardtext.review import readings_of

            try:
                self._readings[card.id] = readings_of(self.game.rb, card)
            except Exception:  # noqa: BLE001 - a card file that cannot be read again: its own text serves
                self._readings[card.id] = {}
        text = self._readings[card.id].get(index)
        if text:
            return text
        ab = next((a for a in card.abilities if a.index == index), None)
        if ab is None:
            return f"ability {index + 1}"
        return ab.text or f"{words(ab.kind)} ability" + (f" ({', '.join(ab.keywords)})" if ab.keywords else "")

    def ability(self, obj: GameObject | None, card: CardDef, ab: Ability) -> str:
        who = self.name(obj) if obj is not None else str(card.fields.get("name", card.id))
        return f"{who}: {self.reading(card, ab.index)}"

    # -- the question --------------------------------------------------------------------------
    def question(self, d: Decision, span: bool = True) -> str:
        """The question in words; `span`: with how many may be chosen (a page that counts the picks
        says that itself)."""
        if d.prompt in ENGINE_PROMPTS:
            return ENGINE_PROMPTS[d.prompt]
        head, _, tail = d.prompt.partition(":")
        text = words(head) + (f" ({tail.strip().replace('_', ' ')})" if tail else "")
        if not span:
            return text
        if d.kind == "select":
            cards = all(isinstance(o.value, GameObject) for o in d.options)
            text += f" — {_span(d.min, d.max, 'card' if cards else '')}"
        elif d.kind == "player" and d.max > 1:
            text += f" — {_span(d.min, d.max, 'player')}"
        return text

    def about(self, ctx: Ctx | None) -> str:
        """What the decision is part of: the ability being played or resolved (an optional cost's
        question says which ability and its cost), or the card an action is carrying out, when the
        step asking has one."""
        if ctx is None:
            return ""
        ab, this = ctx.ability, ctx.this
        if isinstance(this, GameObject) and this.card_id in self.game.cards:
            card = self.game.cards[this.card_id]
            if isinstance(ab, Ability):
                return f"ability: {self.name(this)} — {self.reading(card, ab.index)}"
            return f"card: {self.name(this)}"
        return ""

    def describe(self, d: Decision, ctx: Ctx | None) -> Json:
        """The decision as a page shows it: its question, what it is about, bounds, rules and each
        option described (`Worded.as_json`)."""
        out: Json = {"prompt": self.question(d, span=False), "kind": d.kind, "min": d.min, "max": d.max,
                     "rules": list(d.rules), "options": [w.as_json() for w in self.options(d, ctx)]}
        about = self.about(ctx)
        if about:
            out["about"] = about
        return out

    # -- the options ---------------------------------------------------------------------------
    def options(self, d: Decision, ctx: Ctx | None) -> list[Worded]:
        out = [self.option(o, ctx) for o in d.options]
        _values_at_stake(d, out, ctx)
        return out

    def option(self, o: Option, ctx: Ctx | None) -> Worded:
        v = o.value
        w = Worded(o.id, words(o.label), names=[o.id])
        if o.id == "pass" and v is None:
            w.title, w.detail = "Pass", "do nothing more now"
        elif isinstance(v, tuple) and len(v) == 3:  # an action: (action, card, ability)
            act, obj, ab = v
            verb = words(str(getattr(act, "id", o.label)))
            if isinstance(obj, GameObject) and obj.card_id in self.game.cards:
                w.card = obj.oid
                card = self.game.cards[obj.card_id]
                if isinstance(ab, Ability):
                    w.title = f"{verb}: {self.ability(obj, card, ab)}"
                    w.detail = f"in {self.whose(obj.zone_player)}{self.zone(obj.zone)}"
                else:
                    w.title = f"{verb}: {self.name(obj)}"
                    w.detail = self.card_facts(obj)
            else:
                w.title = verb
        elif isinstance(v, GameObject):
            w.card = v.oid
            w.title = self.name(v)
            facts = self.card_facts(v)
            w.detail = " · ".join(x for x in (facts, f"in {self.whose(v.zone_player)}{self.zone(v.zone)}") if x)
            if can_see(self.game, v, self.seat):
                w.names.append(v.card_id)
        elif isinstance(v, Pending):
            w.card = v.source
            waiting = self.game.cards.get(v.card_id)
            src = self.game.state.objects.get(v.source)
            if waiting is not None and (src is None or can_see(self.game, src, self.seat)):
                found = next((a for a in waiting.abilities if a.index == v.ability), None)
                name = str(waiting.fields.get("name", waiting.id))
                w.title = f"{name}: {self.reading(waiting, found.index) if found is not None else words(o.label)}"
            w.detail = "resolve this ability now"
        elif isinstance(v, str) and v in self.game.rb.zones:
            w.zone = v
            w.title = self.zone(v)
            w.detail = self.zone_now(v)
            w.names.append(v)
        elif isinstance(v, int) and not isinstance(v, bool) and o.label == f"P{v + 1}":
            w.player = v
            w.title = f"P{v + 1}" + (" (you)" if v == self.seat else "")
        elif isinstance(v, dict) and "id" in v and "do" in v:  # a course of action of choose_one
            w.title = words(str(v.get("label") or v["id"]))
            w.detail = preview(self, v.get("do") or (), ctx)
        elif isinstance(v, bool):
            w.title = "Yes" if v else "No"
        return w

    def zone_now(self, zone: str) -> str:
        """What the seat's zone holds now: empty, or the cards there (a choice of area may replace them)."""
        st = self.game.state
        objs = [st.objects[i] for i in st.zones.get((zone, self.seat), []) if i in st.objects]
        tops = [o for o in objs if o.holder is None or o.holder not in st.objects]
        if not tops:
            return "empty now"
        return "now holds " + ", ".join(self.name(o) for o in tops)


class Announcer:
    """What the engine did for one seat without asking it, told at the seat's next decision: a
    choice that had only one possible answer (`The only possible choice was made for you: …`), a
    play timing with nothing to do but pass. Read from the log as the seat reads it, from where the
    last look ended; the entry logging the seat's own last answer is not news."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0  # log entries already looked through
        self.answered: tuple[int, str] | None = None  # where its last answer's entry would be, and its kind

    def answering(self, game: Any, decision: Decision, ids: list[str]) -> None:
        """The seat answers `decision` with `ids` now (call before the game takes the answer)."""
        logged = "pass" if ids == ["pass"] else "choice" if ids and decision.kind != "play" else ""
        self.answered = (len(game.entries), logged) if logged else None

    def news(self, game: Any) -> list[str]:
        """What was done for the seat since the last look."""
        entries: list[LogEntry] = game.entries[self.seen:]
        own = None
        if self.answered is not None:
            at, kind = self.answered
            own = next((i for i, e in enumerate(entries) if i + self.seen >= at and e.kind == kind
                        and e.text.startswith(f"P{self.seat + 1} ")), None)
            if own is not None:
                self.answered = None
        self.seen = len(game.entries)
        return made_for(self.seat, entries, own, game.rb)


def made_for(seat: int, entries: list[LogEntry], answered: int | None, rb: Any = None) -> list[str]:
    """Choices the engine logged for `seat` without asking it (the only one possible), and the passes
    it made for it (where, and how many), from `entries`; `answered`: the index in them of the entry
    the seat's own answer made, if any."""
    notes = []
    me = f"P{seat + 1} "
    passes: dict[str, int] = {}
    for i, e in enumerate(entries):
        if i == answered:
            continue
        text = e.for_player(seat).text
        if e.kind == "choice" and text.startswith(me + "chooses "):
            what = text[len(me + "chooses "):]
            what = words(what) if what.isidentifier() else what
            notes.append(f"The only possible choice was made for you: {what}")
        elif e.kind == "pass" and text == me + "passes":
            node = rb.graph.nodes.get(e.node) if rb is not None else None
            where = node_words(node) if node is not None else ""
            passes[where] = passes.get(where, 0) + 1
    if passes:
        said = ", ".join((f"in {where}" if where else "") + (f" ({n} times)" if n > 1 else "")
                         for where, n in passes.items())
        notes.insert(0, "Nothing to do but pass: passed for you" + (f" {said}" if said.strip() else ""))
    return notes


def _span(lo: int, hi: int, what: str = "card") -> str:
    s = "" if hi == 1 or not what else "s"
    noun = f" {what}{s}" if what else ""
    if lo == hi:
        return f"choose {lo}{noun}"
    if lo == 0:
        return f"choose up to {hi}{noun}, or none"
    return f"choose {lo} to {hi}{noun}"


def _values_at_stake(d: Decision, described: list[Worded], ctx: Ctx | None) -> None:
    """A course of action that leaves a number (a payment) beside one that changes it says the
    number as it stands, so the two read side by side (`to pay 4` / `to pay 4 → 2`)."""
    if ctx is None:
        return
    changed = {name for o in d.options if isinstance(o.value, dict)
               for step in o.value.get("do") or () if getattr(step, "verb", "") == "let" for name in step.args}
    for o, w in zip(d.options, described, strict=True):
        if not isinstance(o.value, dict) or "do" not in o.value:
            continue
        own = {name for step in o.value.get("do") or () if getattr(step, "verb", "") == "let" for name in step.args}
        kept = [f"{words(n).lower()} {v}" for n in sorted(changed - own)
                if isinstance(v := _lookup(ctx, n), int) and not isinstance(v, bool)]
        if kept:
            w.detail = "; ".join([*kept, w.detail] if w.detail else kept)


def preview(wording: Wording, steps: Any, ctx: Ctx | None) -> str:
    """What a course of action would do, read from its steps without running them: a `let` of a
    number as `to pay 4 → 2`, a `move` as the cards and where they go, a call of a rulebook
    template by its name in words (`hand back and draw`); other steps are not said. Expressions only
    read the game; a step that cannot be worked out now is left out."""
    if ctx is None:
        return ""
    scope = ctx.child()
    parts: list[str] = []
    for step in steps:
        verb, args = getattr(step, "verb", ""), getattr(step, "args", {})
        try:
            if verb == "let":
                for name, expr in args.items():
                    before = _lookup(ctx, name)
                    value = expr(scope) if callable(expr) else expr
                    scope.vars[name] = value  # this scope's own: Ctx.set would write an outer one
                    if isinstance(value, int) and not isinstance(value, bool):
                        parts.append(f"{words(name).lower()} {before} → {value}" if isinstance(before, int)
                                     else f"{words(name).lower()} {value}")
            elif verb == "move":
                cards = args["cards"](scope) if callable(args.get("cards")) else []
                cards = cards if isinstance(cards, list) else [cards]
                names = [wording.name(c) for c in cards if isinstance(c, GameObject)]
                where = args.get("to")
                if names:
                    to = wording.zone(where) if isinstance(where, str) else "another zone"
                    parts.append(f"{', '.join(names)} goes to {to}")
            elif verb == "call" and isinstance(args.get("template"), str):
                parts.append(words(args["template"]).lower())
        except Exception:  # noqa: BLE001 - a preview that cannot be worked out is left out, never an error
            continue
    return "; ".join(parts)


def _lookup(ctx: Ctx, name: str) -> Any:
    try:
        return ctx.lookup(name)
    except Exception:  # noqa: BLE001 - a name not bound yet
        return None


def current_ctx(game: Any) -> Ctx | None:
    """The scope of the step asking the pending decision (`Play.asking`, set by timing/runner.ask), if any."""
    ctx = getattr(game, "asking", None)
    return ctx if isinstance(ctx, Ctx) else None
