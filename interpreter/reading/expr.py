"""Expressions read in plain English: `cards('hand', you)` reads "your hand".

A call reads by its function's reading (a built-in's `reads=`, a rulebook function's `reads:`), a
comparison by its operator, a `where` filter as "X where its cost is at most 4" (`it.cost`: "its
cost"), and a few common forms read better than word by word: a count compared ("your hand holds at
most 3", "X is empty"), `0 - n` ("-n"), `all(X select C)` ("for every one of X, C"). What has no
reading (a function without one, an expression that does not parse) is written as it is, in
backticks, and reported to `note` so a maintainer knows which reading to add.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.expr import (
    Attr,
    Binary,
    Call,
    Compare,
    Cond,
    ExprError,
    Index,
    ListLit,
    Literal,
    Name,
    Node,
    Select,
    Unary,
    Where,
    parse,
)
from interpreter.model.readings import ABSENT, Arg, fill

NAMES: dict[str, tuple[str, str]] = {
    "you": ("you", "your"),
    "master": ("the master", "the master's"),
    "opponent": ("the opponent", "the opponent's"),
    "this": ("this card", "this card's"),
    "source": ("the source", "the source's"),
    "event": ("the event", "the event's"),
    "turn": ("the turn number", "the turn number's"),
    "turn_player": ("the turn player", "the turn player's"),
    "active_player": ("the active player", "the active player's"),
    "non_active_player": ("the non-active player", "the non-active player's"),
    "node": ("the current step", "the current step's"),
    "it": ("it", "its"),
    "target": ("the target", "the target's"),
    "chooser": ("the chooser", "the chooser's"),
    "leavers": ("the players who left", "the players who left's"),
}
"""How the names the engine gives read (plain and possessive); any other name reads as its words."""

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
            ">=": "is at least", "in": "is in", "not in": "is not in"}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}
_HOLDS = {"==": "exactly", "<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


_KEYED = {"marks": "mark", "counters": "counter"}
"""Card attributes that hold a mapping: `it.marks.cheer` reads "its mark cheer"."""


def _true(node: Node) -> bool:
    return isinstance(node, Literal) and node.value is True


def _genitive(text: str) -> str:
    return f"{text}'" if text.endswith("s") else f"{text}'s"


def words(ident: str) -> str:
    """An id as words: `main_deck` reads "main deck"."""
    return ident.replace("_", " ")


@dataclass
class Function:
    """A function's reading and its parameter names (the last one variadic when `varargs`)."""

    reads: str
    params: list[str]
    varargs: bool = False


@dataclass
class ExprReader:
    """Reads expressions with the functions a rulebook knows; `note` hears of each missing reading."""

    functions: dict[str, Function]
    note: Callable[[str], None] = field(default=lambda _: None)
    it: tuple[str, str] = ("it", "its")  # how `it` reads: in a select's body, "the" (the power of X)

    # -- entry points ------------------------------------------------------------------------------
    def arg(self, value: Any) -> Arg:
        """A value written in a card or rulebook (an expression string, a number, a list...) as an argument."""
        if value is None:
            return Arg("none", "the")
        if isinstance(value, bool):  # false counts as not given (a flag not set: `{?x}`, `{!x}`)
            return Arg("true" if value else "false", given=value)
        if isinstance(value, int):
            return Arg(str(value), number=value)
        if isinstance(value, list):
            return Arg(self._list([self.text(v) for v in value]))
        if not isinstance(value, str):
            return Arg(f"`{value}`")
        try:
            node = parse(value)
        except ExprError:
            self.note(f"expression `{value}` (it does not parse)")
            return Arg(f"`{value}`")
        return self._arg(node)

    def text(self, value: Any) -> str:
        return self.arg(value).text

    def _arg(self, node: Node) -> Arg:
        """A parsed argument: its text, possessive and literal number (each part read once)."""
        text = self.node(node)
        simple = isinstance(node, Name) or (isinstance(node, Literal) and node.value is None)
        number = node.value if isinstance(node, Literal) and type(node.value) is int else None
        return Arg(text, self.possessive(node) if simple else _genitive(text), number,
                   master=isinstance(node, Name) and node.name == "you")

    # -- nodes -------------------------------------------------------------------------------------
    def possessive(self, node: Node) -> str:
        if isinstance(node, Literal) and node.value is None:
            return "the"
        if isinstance(node, Name):
            return self._name(node.name)[1]
        return _genitive(self.node(node))

    def _name(self, name: str) -> tuple[str, str]:
        if name == "it":
            return self.it
        return NAMES[name] if name in NAMES else (words(name), _genitive(words(name)))

    def node(self, node: Node) -> str:
        if isinstance(node, Literal):
            return self.literal(node.value)
        if isinstance(node, Name):
            return self._name(node.name)[0]
        if isinstance(node, Attr):
            if isinstance(node.obj, Attr) and node.obj.name in _KEYED:  # it.marks.cheer: its mark cheer
                return f"{self.possessive(node.obj.obj)} {_KEYED[node.obj.name]} {words(node.name)}"
            return f"{self.possessive(node.obj)} {words(node.name)}"
        if isinstance(node, Index):
            if isinstance(node.index, Literal) and node.index.value == 0:
                return f"the first of {self.node(node.obj)}"
            return f"item {self.node(node.index)} of {self.node(node.obj)}"
        if isinstance(node, Call):
            return self._call(node)
        if isinstance(node, Unary):
            return self._unary(node)
        if isinstance(node, Compare):
            return self._compare(node.op, node.left, node.right)
        if isinstance(node, Binary):
            return self._binary(node)
        if isinstance(node, ListLit):
            return self._list([self.node(x) for x in node.items])
        if isinstance(node, Where):
            conds: list[Node] = []
            items: Node = node
            while isinstance(items, Where):  # X where A where B: X where A and B
                conds.insert(0, items.cond)
                items = items.items
            kept = [self._condition(c, "and") for c in conds if not _true(c)]
            return f"{self.node(items)} where {' and '.join(kept)}" if kept else self.node(items)
        if isinstance(node, Select):  # X select it.power: the power of X
            saved, self.it = self.it, ("each", "the")
            try:
                body = self.node(node.expr)
            finally:
                self.it = saved
            return f"{body} of {self.node(node.items)}"
        if isinstance(node, Cond):
            return f"{self.node(node.then)} if {self.node(node.test)}, else {self.node(node.orelse)}"
        return f"`{node}`"

    @staticmethod
    def literal(value: Any) -> str:
        """A literal value as it reads: an id as its words, other text in quotes."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return words(value) if _IDENT.fullmatch(value) else f"“{value}”"
        return str(value)

    @staticmethod
    def _list(items: list[str]) -> str:
        if not items:
            return "nothing"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def _call(self, node: Call) -> str:
        fn = self.functions.get(node.name)
        if node.name in ("all", "any") and len(node.args) == 1 and isinstance(node.args[0], Select):
            sel = node.args[0]
            which = "every one" if node.name == "all" else "some"
            return f"for {which} of {self.node(sel.items)}, {self.node(sel.expr)}"
        if fn is None or not fn.reads:
            self.note(f"function '{node.name}'")
            return f"`{node.name}`({', '.join(self.node(a) for a in node.args)})"
        args: dict[str, Arg] = {}
        for i, p in enumerate(fn.params):
            if fn.varargs and i == len(fn.params) - 1:
                rest = node.args[i:]
                if rest:
                    args[p] = Arg(self._list([self.node(a) for a in rest]))
            elif i < len(node.args):
                args[p] = self._arg(node.args[i])
        return fill(fn.reads, lambda name: args.get(name, ABSENT))

    def _unary(self, node: Unary) -> str:
        inner = node.operand
        if node.op == "not":
            if isinstance(inner, Compare):
                return self._compare(_NEGATED[inner.op], inner.left, inner.right)
            return f"not ({self.node(inner)})"
        if isinstance(inner, Literal):
            return f"-{self.node(inner)}"
        return f"minus {self.node(inner)}"

    def _compare(self, op: str, left: Node, right: Node) -> str:
        if isinstance(left, Call) and left.name in ("count", "len") and len(left.args) == 1 \
                and isinstance(right, Literal) and type(right.value) is int:
            what, n = self.node(left.args[0]), right.value
            if (op == ">" and n == 0) or (op == ">=" and n == 1) or (op == "!=" and n == 0):
                return f"{what} is not empty"
            if (op == "==" and n == 0) or (op == "<" and n == 1) or (op == "<=" and n == 0):
                return f"{what} is empty"
            if op in _HOLDS:
                return f"{what} holds {_HOLDS[op]} {n}"
        if isinstance(right, Literal) and right.value is True and op in ("==", "!="):
            return self.node(left) if op == "==" else f"not ({self.node(left)})"
        if isinstance(right, Literal) and right.value is None and op in ("==", "!="):
            if isinstance(left, Attr):  # it.cost != null: "it has a cost"
                name = words(left.name)
                has = ("has an" if name[:1] in "aeiou" else "has a") if op == "!=" else "has no"
                return f"{self.node(left.obj)} {has} {name}"
            return f"{self.node(left)} {'exists' if op == '!=' else 'does not exist'}"
        return f"{self.node(left)} {_COMPARE[op]} {self.node(right)}"

    def _binary(self, node: Binary) -> str:
        if node.op in ("and", "or"):
            sides = [s for s in (node.left, node.right) if not (node.op == "and" and _true(s))]
            return f" {node.op} ".join(self._condition(s, node.op) for s in sides) or "true"
        left, right = node.left, node.right
        if isinstance(left, Name) and left.name == "turn" and isinstance(right, Literal) and right.value == 1 \
                and node.op in ("+", "-"):
            return "the next turn" if node.op == "+" else "the previous turn"
        if node.op == "-" and isinstance(left, Literal) and left.value == 0:
            return f"-{self.node(right)}" if isinstance(right, Literal) else f"minus {self.node(right)}"
        if node.op == "*":
            if isinstance(right, Literal) and right.value == 1:
                return self.node(left)
            if isinstance(left, Literal) and left.value == 1:
                return self.node(right)
        return f"{self._operand(left)} {_ARITH.get(node.op, node.op)} {self._operand(right)}"

    def _condition(self, node: Node, within: str) -> str:
        """A condition joined by `within` (and / or): an or under an and (and the reverse) in parentheses."""
        text = self.node(node)
        return f"({text})" if isinstance(node, Binary) and node.op in ("and", "or") and node.op != within else text

    def _operand(self, node: Node) -> str:
        text = self.node(node)
        return f"({text})" if isinstance(node, Binary) and node.op not in ("and", "or") else text
