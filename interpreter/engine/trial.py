"""Whether carrying out a card's text could change the game: tried on copies of the game.

Some rules forbid playing a card whose text would do nothing (a card whose resolution would change
nothing but put itself where played cards go cannot be played). What a text
does cannot be told from how it is written (a choice may find nothing worth doing, a draw an empty
deck), so it is tried: on a copy of the game the card is put where it resolves, each of its abilities
of the kind whose cost can be paid has its cost paid, and its effect is carried out; the game after
the effect is compared with the game after the cost. Where the effect asks a decision, every answer
is tried in turn (a trial follows one answer at each decision and notes the others), up to a bound:
the text could change the game as soon as one trial changes it, and a text that no trial within the
bound has shown to change anything is taken to change nothing only when every answer was tried;
otherwise it is given the benefit of the doubt.

What counts as a change is what the engine records as one: anything that bumps the game's version
(a card moved or reordered, a card's placement state, counter or mark, a game variable, a player's
counter or status, an effect made), a pending ability added, or a chance event (the game's random
generator used: a die rolled, cards shuffled). What a player learns (a card looked at or revealed) is
not. The card itself counts like any other: its text moving it somewhere is a change (the rule's own
move, to where the card goes after resolving, is not part of the trial). A step that changes a value
to what it was is taken to change it (the benefit of the doubt again).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from interpreter.state.objects import GameObject
from interpreter.table.context import Ctx
from interpreter.table.derived import MISSING
from interpreter.timing.moves import move_card

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.state.decisions import Decision

TRIALS: Final = 48
"""How many ways of answering a text's decisions are tried before giving it the benefit of the doubt."""

ANSWERS_PER_DECISION: Final = 16
"""How many answers of one decision are tried (a choice of several cards has many)."""


def could_change(game: Game, card: GameObject, kind: str, zone: str | None = None) -> bool:
    """Whether carrying out the card's abilities of `kind` (a rulebook ability kind) now could change
    the game, the card first put into `zone` (where it resolves) when one is given. A derived fact
    kept for the version of the game it was worked out at."""
    derived = game.derived
    n = derived.number(("could_change", card.oid, kind, zone))
    known = derived.get(n, game.version)
    if known is MISSING:
        known = _explore(game, card, kind, zone)
        derived.keep(n, known, None, game.version)  # what a trial reads cannot be told: this version only
    return bool(known)


class Chance(random.Random):
    """A trial's random generator: a copy of the game's that counts how often it is drawn from, so
    that a chance event shows without comparing the generator's whole state before and after."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.draws += 1
        return super().getrandbits(k)


def _chance(game: Game) -> Chance:
    rng = Chance(0)
    rng.setstate(game.state.rng.getstate())
    return rng


def _explore(game: Game, card: GameObject, kind: str, zone: str | None) -> bool:
    todo: list[list[list[str]]] = [[]]  # answers (option ids) to give, decision by decision
    tried = 0
    every = True  # every answer of every decision met is among those tried
    while todo:
        if tried >= TRIALS:
            return True  # not every answer was tried: not known to change nothing
        prefix = todo.pop()
        tried += 1
        changed, others, whole = _trial(game, card, kind, zone, prefix)
        if changed:
            return True
        every = every and whole
        todo.extend(reversed(others))  # depth first: the first other answer of the last decision next
    return not every


def _trial(game: Game, card: GameObject, kind: str, zone: str | None,
           prefix: list[list[str]]) -> tuple[bool, list[list[list[str]]], bool]:
    """One trial on a fresh copy: the answers of `prefix`, then the first answer of each new decision.
    Returns whether the game changed, the answer lists to try next (another answer at each new
    decision met), and whether those are every answer of those decisions."""
    from interpreter.state.errors import GameError

    rng = _chance(game)
    trial = game.trial_copy(rng)
    gen = _carry_out(trial, rng, card.oid, kind, zone)
    given: list[list[str]] = []
    others: list[list[list[str]]] = []
    whole = True
    try:
        decision: Decision = gen.send(None)
        while True:
            if len(given) < len(prefix):
                ids = prefix[len(given)]
            else:
                answers, every = _answers(decision)
                if not answers:
                    return True, [], False  # a decision that cannot be answered: not known to change nothing
                whole = whole and every
                ids = answers[0]
                others.extend([*given, alt] for alt in answers[1:])
            given.append(ids)
            values = [o.value for i in ids for o in decision.options if o.id == i]
            decision = gen.send(values)
    except StopIteration as done:
        return bool(done.value), others, whole
    except (GameError, KeyError, IndexError, TypeError, ValueError):
        return True, [], False  # the text could not be tried here: not known to change nothing


def _answers(d: Decision) -> tuple[list[list[str]], bool]:
    """The answers of a decision to try, the most cards chosen first, at most ANSWERS_PER_DECISION,
    and whether they are all its answers."""
    ids = [o.id for o in d.options]
    out: list[list[str]] = []
    for n in range(min(d.max, len(ids)), d.min - 1, -1):
        for combo in combinations(ids, n):
            if len(out) >= ANSWERS_PER_DECISION:
                return out, False
            out.append(list(combo))
    return out, True


def _carry_out(game: Game, rng: Chance, oid: int, kind: str, zone: str | None) -> Any:
    """The trial itself, on the copy: returns whether some ability's effect changed the game."""
    from interpreter.timing.abilities import pay_cost, run_effect
    from interpreter.timing.payability import can_pay

    obj = game.state.objects[oid]
    if zone is not None and obj.zone != zone:
        moved = yield from move_card(game, obj, zone, None, Ctx(game, None, you=obj.controller, this=obj))
        if moved is None:
            return False
        obj = moved
    engine_kind = game.kind_of.get(kind, kind)
    for ab in [a for a in game.abilities_of(obj) if a.kind == engine_kind]:
        this = game.state.objects.get(obj.oid, obj)
        ctx = Ctx(game, None, you=obj.controller, this=this, rules=ab.rules, ability=ab)
        if ab.cost:
            if not can_pay(game, ab.cost, ctx):
                continue
            yield from pay_cost(game, ab.cost, ctx)
        before = marker(game, rng)
        yield from run_effect(game, ab, ctx)
        if marker(game, rng) != before:
            return True
    return False


def marker(game: Game, rng: Chance) -> tuple[int, int, int, int, int]:
    """What tells whether the game changed since: its versions (bumped by every change of the state),
    its pending abilities and effects, and how often its random generator (`rng`) was drawn from."""
    st = game.state
    return (game.version, game.global_version, len(st.pending), len(st.effects), rng.draws)
