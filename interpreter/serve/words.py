"""A decision as one seat reads it in the page: the question in words and, for each legal option,
a title that says what it does and a detail line (the card's cost and stats, the ability's text, the
area it goes to and what is there now, what a course of action changes: the payment a discount
leaves).

Everything here is worked out from the engine's own decision (its options' values: an action and
its card, an ability, a pending ability, a zone, a player, a course of action of `choose_one`), the
card database, the play mat's labels and the steps a course of action would run, never from a game's
own terms. A card the seat cannot see is named as `hidden card` (`table.views.can_see`), as the
engine's own labels do.
"""

from __future__ import annotations

from typing import Any

from interpreter.agents.cardinfo import _value, summary_fields
from interpreter.loader.layout import words
from interpreter.model.rulebook import Ability, CardDef
from interpreter.state.decisions import Decision, Option
from interpreter.state.objects import GameObject, Pending
from interpreter.table.context import Ctx
from interpreter.table.table import Table
from interpreter.table.views import can_see, hidden_facts
from interpreter.viewer.mat import layout_of

Json = dict[str, Any]

# Prompts the engine itself asks (the rulebook's own prompts read as their words).
_PROMPTS = {"play_timing": "Your move: take an action or pass",
            "choose_pending_ability": "Choose which waiting ability resolves next"}


def zone_label(game: Table, zone: str) -> str:
    """A zone as the play mat names it (its cell's label), else its id in words."""
    lay = layout_of(game)
    for cell in [c for r in lay.rows for c in r.cells] + list(lay.shared):
        if cell.zone == zone:
            return cell.label
    return words(zone)


def card_name(game: Table, obj: GameObject, seat: int) -> str:
    """The card's name if the seat may know it, else `hidden card` and what everyone knows of it."""
    if can_see(game, obj, seat):
        return str(game.cards[obj.card_id].fields.get("name", obj.card_id))
    facts = [name for name, known in hidden_facts(game, obj).items() if known]
    return "hidden card" + (f" ({', '.join(facts)})" if facts else "")


def card_facts(game: Table, card: CardDef) -> str:
    """`cost 3 · power 2`: the numbers, choices and icons a card is played for (agents/cardinfo)."""
    return " · ".join(f"{words(f).lower()} {_value(card.fields[f])}" for f in summary_fields(game.rb, card))


def ability_text(game: Table, card: CardDef, ab: Ability) -> str:
    """An ability in words: the card's own text for it, else its kind and keywords."""
    if ab.text:
        return ab.text
    if card.abilities and 0 <= ab.index < len(card.abilities) and card.abilities[ab.index].text:
        return card.abilities[ab.index].text
    kws = ", ".join(words(k) for k in ab.keywords)
    return f"{words(ab.kind)} ability" + (f" ({kws})" if kws else "")


def describe_decision(game: Table, d: Decision, seat: int, ctx: Ctx | None) -> Json:
    """The decision for the page: its question, bounds, rules and each option described."""
    about = _about(game, ctx, seat)
    out: Json = {"prompt": _PROMPTS.get(d.prompt, words(d.prompt.replace(":", " —"))),
                 "kind": d.kind, "min": d.min, "max": d.max, "rules": list(d.rules),
                 "options": [describe_option(game, o, seat, ctx) for o in d.options]}
    _values_at_stake(d, out["options"], ctx)
    if about:
        out["about"] = about
    return out


def _values_at_stake(d: Decision, described: list[Json], ctx: Ctx | None) -> None:
    """Courses of action that change a number (a payment) beside one that leaves it: the one that
    leaves it says the number as it stands, so the two read side by side (`to pay 3` / `to pay 3 → 1`)."""
    if ctx is None:
        return
    changed = {name for o in d.options if isinstance(o.value, dict)
               for step in o.value.get("do") or () if getattr(step, "verb", "") == "let" for name in step.args}
    for o, text in zip(d.options, described, strict=True):
        if not isinstance(o.value, dict) or "do" not in o.value:
            continue
        own = {name for step in o.value.get("do") or () if getattr(step, "verb", "") == "let" for name in step.args}
        kept = [f"{words(n).lower()} {v}" for n in sorted(changed - own)
                if isinstance(v := _lookup(ctx, n), int) and not isinstance(v, bool)]
        if kept:
            text["detail"] = "; ".join([*kept, text["detail"]]) if text["detail"] else "; ".join(kept)


def _about(game: Table, ctx: Ctx | None, seat: int) -> str:
    """What the decision is part of: the ability being played or resolved, when there is one."""
    if ctx is None:
        return ""
    ab, this = ctx.ability, ctx.this
    if isinstance(ab, Ability) and isinstance(this, GameObject) and this.card_id in game.cards:
        return f"{card_name(game, this, seat)}: {ability_text(game, game.cards[this.card_id], ab)}"
    return ""


def describe_option(game: Table, o: Option, seat: int, ctx: Ctx | None) -> Json:
    """One option: `id`, a `title` saying what it does, a `detail`, and the card (`card`: object number),
    zone (`zone`) or player (`player`) it is about, so the page can make that clickable."""
    v = o.value
    out: Json = {"id": o.id, "title": words(o.label), "detail": ""}
    if o.id == "pass" and v is None:
        out["title"], out["detail"] = "Pass", "do nothing more now"
    elif isinstance(v, tuple) and len(v) == 3:  # a play-timing action: (action, card, ability)
        act, obj, ab = v
        verb = words(str(getattr(act, "id", o.label)))
        if isinstance(obj, GameObject):
            out["card"] = obj.oid
            card = game.cards[obj.card_id]
            name = card_name(game, obj, seat)
            if isinstance(ab, Ability):
                out["title"] = f"{name}: {ability_text(game, card, ab)}"
                out["detail"] = f"{verb} (where it is: {zone_label(game, obj.zone)})"
            else:
                out["title"] = f"{verb}: {name}"
                out["detail"] = card_facts(game, card) if can_see(game, obj, seat) else ""
        else:
            out["title"] = verb
    elif isinstance(v, GameObject):
        out["card"] = v.oid
        out["title"] = card_name(game, v, seat)
        facts = card_facts(game, game.cards[v.card_id]) if can_see(game, v, seat) else ""
        out["detail"] = " · ".join(x for x in (facts, f"in {_whose(v.zone_player, seat)}{zone_label(game, v.zone)}")
                                   if x)
    elif isinstance(v, Pending):
        out["card"] = v.source
        out["title"] = _pending(game, v, seat) or words(o.label)
        out["detail"] = "resolve this ability now"
    elif isinstance(v, str) and v in game.rb.zones:
        out["zone"] = v
        out["title"] = zone_label(game, v)
        out["detail"] = _zone_now(game, v, seat)
    elif isinstance(v, int) and not isinstance(v, bool) and o.id.startswith("p") and o.label.startswith("P"):
        out["player"] = v
        out["title"] = f"P{v + 1}" + (" (you)" if v == seat else "")
    elif isinstance(v, dict) and "id" in v and "do" in v:  # a course of action of choose_one
        out["title"] = words(str(v.get("label") or v["id"]))
        out["detail"] = preview_steps(game, v.get("do") or (), ctx, seat)
    elif isinstance(v, bool):
        out["title"] = "Yes" if v else "No"
    return out


def _pending(game: Table, v: Pending, seat: int) -> str:
    """A waiting ability as `card: its text`, when the seat may know the card."""
    pending_card = game.cards.get(v.card_id)
    src = game.state.objects.get(v.source)
    if pending_card is None or (src is not None and not can_see(game, src, seat)):
        return ""
    ab = next((a for a in pending_card.abilities if a.index == v.ability), None)
    name = str(pending_card.fields.get("name", v.card_id))
    return f"{name}: {ability_text(game, pending_card, ab)}" if ab is not None else ""


def _whose(p: int | None, seat: int) -> str:
    return "" if p is None else "your " if p == seat else f"P{p + 1}'s "


def _zone_now(game: Table, zone: str, seat: int) -> str:
    """What the seat's zone holds now: empty, or the cards there (a choice of area may replace them)."""
    st = game.state
    objs = [st.objects[i] for i in st.zones.get((zone, seat), []) if i in st.objects]
    tops = [o for o in objs if o.holder is None or o.holder not in st.objects]
    if not tops:
        return "empty now"
    return "now holds " + ", ".join(card_name(game, o, seat) for o in tops)


def preview_steps(game: Table, steps: Any, ctx: Ctx | None, seat: int) -> str:
    """What a course of action would do, read from its steps without running them: each `let` is
    worked out on a scope of its own (so a payment shows as `to pay 3 → 1`), a `move` names the
    cards and where they go; other steps are named by their verb or template. Nothing is changed:
    expressions read the game and never write it."""
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
                    scope.vars[name] = value  # this scope's own: Ctx.set would write the game's outer one
                    if isinstance(value, int) and not isinstance(value, bool):
                        parts.append(f"{words(name).lower()} {before} → {value}" if isinstance(before, int)
                                     else f"{words(name).lower()} {value}")
            elif verb == "move":
                cards = args["cards"](scope) if callable(args.get("cards")) else []
                cards = cards if isinstance(cards, list) else [cards]
                names = [card_name(game, c, seat) for c in cards if isinstance(c, GameObject)]
                where = args.get("to")
                to = zone_label(game, where) if isinstance(where, str) else "a zone"
                if names:
                    parts.append(f"{', '.join(names)} to {to}")
            elif verb == "call":
                parts.append(words(str(args.get("template", "call"))).lower())
            elif verb:
                parts.append(words(verb).lower())
        except Exception:  # noqa: BLE001 - a preview that cannot be worked out is left out, never an error
            continue
    return "; ".join(parts)


def _lookup(ctx: Ctx, name: str) -> Any:
    try:
        return ctx.lookup(name)
    except Exception:  # noqa: BLE001 - a name not bound yet
        return None


def current_ctx(game: Any) -> Ctx | None:
    """The scope of the step asking the pending decision (the innermost effect frame), if any."""
    frames = getattr(game, "frames", None)
    if frames:
        frame = frames[-1]
        ctx = frame[2] if len(frame) > 2 else None
        return ctx if isinstance(ctx, Ctx) else None
    return None
