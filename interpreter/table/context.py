"""Evaluation contexts: the names an expression or effect step can see.

A context chains local variables (template parameters, `let`, `as:` results) to the game's
variables and to the positional names every rulebook may use (`you`, `this`, `turn_player`...).
It doubles as the expression environment, so evaluating an expression allocates nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from interpreter.table.table import Table

_MISSING: Final = object()

def _node(ctx: Any) -> Any:
    node = ctx.game.cur_node
    return node.base if node is not None else None


POSITIONAL: Final[dict[str, Callable[[Any], Any]]] = {
    "you": attrgetter("you"),
    "master": attrgetter("you"),
    "opponent": lambda ctx: ctx.game._other(ctx.you),
    "this": attrgetter("this"),
    "source": attrgetter("this"),
    "event": attrgetter("event"),
    "turn": lambda ctx: ctx.game.state.turn,
    "turn_player": lambda ctx: ctx.game.cur_tp,
    "active_player": lambda ctx: ctx.game.cur_ap,
    "non_active_player": lambda ctx: ctx.game._other(ctx.game.cur_ap),
    "node": _node,
}
"""The names every rulebook can use without declaring them, each with its reader. No rulebook or
card may bind one (the loader says so), so expressions read them straight from the context
instead of searching the scopes for a variable first."""

GLOBAL_NAMES = frozenset(POSITIONAL)

NAME_DOCS: Final[dict[str, tuple[str, str]]] = {
    "you": ("The player the running effect belongs to: an ability's master, the player taking an action, the "
            "turn player in a step of the turn structure.", "count(cards('hand', you)) > 0"),
    "master": ("The same player as `you`, for texts that say \"master\".", "this.controller == master"),
    "opponent": ("The next player after `you` still in the game (with two players, the other one); every "
                 "opponent of a team is `opponents(you)`.", "count(cards('field', opponent)) == 0"),
    "this": ("The card whose ability, action or continuous effect is running (null in a step of the turn "
             "structure).", "this.zone == 'field'"),
    "source": ("The same card as `this`, for texts that say \"source\".", "source.owner == you"),
    "event": ("The event that triggered the ability or that a replacement is replacing: a mapping of the "
              "event's fields, read as `event.FIELD` (null where there is no event).",
              "event.to == 'discard' and event.card.owner == you"),
    "turn": ("How many turns have begun (0 during setup, 1 in the first turn).", "turn > 1"),
    "turn_player": ("The player taking the current turn: the role the turn node names (null before the first "
                    "turn).", "you == turn_player"),
    "active_player": ("The player acting in the current phase or step, where a node names one (else the turn "
                      "player).", "active_player != turn_player"),
    "non_active_player": ("The next player after the active player (with two players, the other one).",
                          "count(cards('hand', non_active_player)) >= 5"),
    "node": ("The id of the turn, phase or step being walked, without its parent's prefix.",
             "node == 'three'"),
}
"""What each engine name means, with an example: the source of the generated reference
(docs/reference.md); tests/test_reference.py checks that every name of POSITIONAL is here."""


class Ctx:
    """A scope for running effect steps and evaluating expressions."""

    __slots__ = ("game", "vars", "parent", "you", "this", "event", "rules", "ability", "node", "attr", "paying")
    game: Table
    vars: dict[str, Any]
    parent: Ctx | None
    you: int | None
    this: Any
    event: dict[str, Any] | None
    rules: tuple[str, ...]
    ability: Any
    node: Any
    attr: Any
    paying: bool  # a cost is being paid in this scope (timing/abilities.pay_cost): see v_replaceable

    def __init__(self, game: Table, parent: Ctx | None = None, *, you: int | None = None, this: Any = None,
                 event: dict[str, Any] | None = None, rules: tuple[str, ...] = (),
                 ability: Any = None, vars: dict[str, Any] | None = None, node: Any = None) -> None:
        self.game = game
        self.attr = game.attr_hook  # the Env attribute hook, bound once: expressions call it directly
        self.parent = parent
        self.vars = {} if vars is None else vars
        if parent is None:
            self.you = you
            self.this = this
            self.event = event
            self.rules = rules or ()
            self.ability = ability
            self.node = node
            self.paying = False
        else:  # a nested scope: what it does not set is its parent's
            self.you = you if you is not None else parent.you
            self.this = this if this is not None else parent.this
            self.event = event if event is not None else parent.event
            self.rules = rules or parent.rules
            self.ability = ability if ability is not None else parent.ability
            self.node = node if node is not None else parent.node
            self.paying = parent.paying

    def child(self, *, vars: dict[str, Any] | None = None, rules: tuple[str, ...] = (), you: int | None = None) -> Ctx:
        """A nested scope (template parameters, bindings, a rule's citation); everything else is inherited."""
        return Ctx(self.game, self, vars=vars, rules=rules, you=you)

    def all_vars(self) -> dict[str, Any]:
        """Every variable this scope can see (its own and its outer scopes', the nearer one winning a
        name), as one new dict: what an effect created here keeps to read later."""
        out: dict[str, Any] = {}
        scope: Ctx | None = self
        while scope is not None:
            for name, value in scope.vars.items():
                if name not in out:
                    out[name] = value
            scope = scope.parent
        return out

    # -- Env protocol ------------------------------------------------------------------
    def lookup(self, name: str) -> Any:
        scope: Ctx | None = self
        while scope is not None:
            v = scope.vars.get(name, _MISSING)
            if v is not _MISSING:
                return v
            scope = scope.parent
        g = self.game
        v = g.state.vars.get(name, _MISSING)
        if v is not _MISSING:
            return v
        return g.builtin_name(name, self)

    def with_it(self, value: Any) -> ItCtx:
        return ItCtx(self, value)

    def set(self, name: str, value: Any) -> None:
        """Bind a name in the nearest scope that already has it, else in this scope."""
        scope: Ctx | None = self
        while scope is not None:
            if name in scope.vars:
                scope.vars[name] = value
                return
            scope = scope.parent
        self.vars[name] = value


class ItCtx:
    """The scope inside `where` / `select`: `it` is the current item, everything else is outer.
    Kept tiny because expressions create one per list item."""

    __slots__ = ("base", "it", "game", "attr")

    def __init__(self, base: Ctx, it: Any) -> None:
        self.base = base
        self.it = it
        self.game = base.game
        self.attr = base.attr

    def lookup(self, name: str) -> Any:
        return self.it if name == "it" else self.base.lookup(name)

    def with_it(self, value: Any) -> ItCtx:
        return ItCtx(self.base, value)

    def child(self, *, vars: dict[str, Any] | None = None, rules: tuple[str, ...] = (), you: int | None = None) -> Ctx:
        """A nested scope of the outer context (`Ctx.child`; no keyword dict is built per call)."""
        return Ctx(self.game, self.base, vars=vars, rules=rules, you=you)

    # Everything else is the outer context's, each named here: a fallback `__getattr__` would
    # slow down every attribute read of this class in a compiled build.
    @property
    def you(self) -> int | None:
        return self.base.you

    @property
    def this(self) -> Any:
        return self.base.this

    @property
    def event(self) -> dict[str, Any] | None:
        return self.base.event

    @property
    def node(self) -> Any:
        return self.base.node

    @property
    def rules(self) -> tuple[str, ...]:
        return self.base.rules

    @property
    def ability(self) -> Any:
        return self.base.ability

    @property
    def paying(self) -> bool:
        return self.base.paying

    @property
    def vars(self) -> dict[str, Any]:
        return self.base.vars

    @property
    def parent(self) -> Ctx | None:
        return self.base.parent

    def set(self, name: str, value: Any) -> None:
        self.base.set(name, value)
