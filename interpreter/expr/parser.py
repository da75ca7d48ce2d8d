"""Pratt (top-down operator precedence) parser producing the AST in `nodes`.

Binding powers, loosest first::

    if-then-else  (only where a whole expression is expected, else it must be parenthesised)
    or            10
    and           20
    not           30   (prefix)
    where select  40   (postfix, left-associative; see below)
    comparisons   50   (== != < <= > >= in, not in; never chained)
    + -           60
    * // %        70
    unary -       80
    . [] ()       90   (postfix)

``where``/``select`` bind tighter than ``and``/``or`` on their *left* (``p and xs where c`` is
``p and (xs where c)``) but their body extends over ``and``/``or`` up to the next ``where``/``select``
(``xs where a and b select e`` is ``(xs where (a and b)) select e``), which is how rulebooks write
filters. Brackets, call arguments and if/then parts start a fresh context.
"""

from __future__ import annotations

from .errors import ExprError
from .lexer import END, ERROR, INT, KW, NAME, OP, STR, Token, describe, tokenize
from .nodes import (
    Attr,
    Binary,
    Call,
    Compare,
    Cond,
    Index,
    ListLit,
    Literal,
    Name,
    Node,
    Select,
    Unary,
    Where,
    children,
)

MAX_DEPTH = 100
"""Deepest nesting accepted; deeper input is rejected with ExprError instead of a RecursionError."""

_OR, _AND, _NOT, _LIST, _CMP, _ADD, _MUL, _UNARY, _POSTFIX = 10, 20, 30, 40, 50, 60, 70, 80, 90

_CMP_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})
_OP_LBP = {
    "==": _CMP,
    "!=": _CMP,
    "<": _CMP,
    "<=": _CMP,
    ">": _CMP,
    ">=": _CMP,
    "+": _ADD,
    "-": _ADD,
    "*": _MUL,
    "//": _MUL,
    "%": _MUL,
    ".": _POSTFIX,
    "[": _POSTFIX,
    "(": _POSTFIX,
}
_LITERAL_KWS: dict[object, bool | None] = {"true": True, "false": False, "null": None}

OPERATORS: tuple[tuple[str, str, str], ...] = (
    ("true false null", "The truth values and null, the absence of a value (a field a card does not have, a "
     "card that is not there); null propagates through attributes: `null.power` is null.",
     "this.holder == null"),
    ("'text' \"text\" 12", "A string in single or double quotes (its only escapes: `\\'`, `\\\"` and `\\\\`) and a "
     "whole number; there are no fractions (divide with `//`).", "this.name == 'Sample Unit' or this.power == 12"),
    ("[ , ]", "A list of values (a trailing comma is allowed); `xs[i]` is item `i` of a list (from 0, from the "
     "end when negative, null past the end) or the value of key `i` in a mapping.", "[3, 5, 7][1] == 5"),
    ("( )", "Grouping; after a function's name, its arguments.", "(count(cards('hand', you)) + 1) * 2"),
    (".", "An attribute: of a card, a field, placement state or object attribute (see the attributes); of an "
     "event or another mapping, its value for that key; of a multiset, its count of that symbol (0 when "
     "absent).", "event.card.power"),
    ("+ -", "Sum and difference of two integers; `+` also joins two lists or two strings; `-x` is the "
     "negative.", "cards('hand', you) + cards('field', you)"),
    ("* // %", "Product, integer division (rounded down) and remainder of two integers; dividing by 0 is an "
     "error.", "count(cards('deck', you)) // 2"),
    ("== != < <= > >=", "Comparisons; they cannot be chained (write `a < b and b < c`), and null has no order "
     "(only `==` and `!=` take it).", "this.power >= 3"),
    ("in not", "`x in xs`: an item of a list, a key of a mapping, a part of a string; `x not in xs` is the "
     "opposite; `not x` is true when `x` is false, null, 0 or empty.",
     "'red' in this.tags and this.zone not in ['deck', 'hand']"),
    ("and or", "Both, either: each gives true or false and reads its right side only when the left does not "
     "decide. `and` binds tighter than `or`.", "turn > 1 and (this.face == 'up' or count(under(this)) > 0)"),
    ("where", "The items of a list for which a condition holds, each item read as `it`. It binds tighter than "
     "`and`/`or` on its left, and its condition runs on over them to the next `where`/`select`.",
     "cards('field', you) where it.power >= 3 and it != this"),
    ("select", "Each item of a list turned into a value, the item read as `it`.",
     "sum(cards('field', you) select it.power)"),
    ("if then else", "A value chosen by a condition; inside a larger expression it needs brackets.",
     "if count(cards('hand', you)) > 0 then 1 else 0"),
)
"""Every token of the language, what it means and an example: (tokens, summary, example). The generated
reference (`sogo reference`, docs/reference.md) reads it; tests/test_reference.py checks that every
keyword and operator the lexer knows is here."""
_TOO_DEEP = f"expression is nested too deeply (more than {MAX_DEPTH} levels); split it up"


def parse(src: str) -> Node:
    """Parse ``src`` into an AST, raising `ExprError` with the offset of the first problem."""
    parser = _Parser(src)
    node = parser.expr(0)
    tok = parser.peek()
    if tok.kind != END:
        raise ExprError(_trailing_message(tok), tok.offset)
    _check_depth(node)
    return node


def _trailing_message(tok: Token) -> str:
    if tok.kind == OP and tok.value in (")", "]"):
        return f"unmatched '{tok.value}'"
    if tok.kind == KW and tok.value in ("then", "else"):
        return f"'{tok.value}' without a matching 'if'"
    if tok.kind == KW and tok.value == "not":
        return "'not' after an expression must be followed by 'in' (as in 'a not in b')"
    return f"unexpected {describe(tok)} after a complete expression; is an operator missing?"


def _check_depth(root: Node) -> None:
    """Reject trees too deep to compile and evaluate recursively (e.g. 200 chained '+')."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprError(_TOO_DEEP, node.offset)
        stack.extend((child, depth + 1) for child in children(node))


class _Parser:
    """Single-use parser state over one source string."""

    def __init__(self, src: str) -> None:
        self.tokens = tokenize(src)
        self.pos = 0
        self.depth = 0
        # True while parsing a where/select body at its own bracket level: stop at where/select so
        # that chains stay left-associative even though the body extends over and/or.
        self.in_body = False

    # -- token helpers -------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        tok = self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]
        if tok.kind == ERROR:
            assert isinstance(tok.value, ExprError)
            raise tok.value
        return tok

    def advance(self) -> Token:
        tok = self.peek()
        self.pos += 1
        return tok

    def expect(self, kind: str, value: str, what: str) -> Token:
        tok = self.peek()
        if tok.kind != kind or tok.value != value:
            raise ExprError(f"expected {what} but found {describe(tok)}", tok.offset)
        self.pos += 1
        return tok

    def _is_not_in(self) -> bool:
        nxt = self.peek(1)
        return nxt.kind == KW and nxt.value == "in"

    def lbp(self, tok: Token) -> int:
        """Left binding power of ``tok`` when it follows a complete operand (0: ends the operand)."""
        if tok.kind == OP:
            return _OP_LBP.get(str(tok.value), 0)
        if tok.kind != KW:
            return 0
        value = tok.value
        if value == "or":
            return _OR
        if value == "and":
            return _AND
        if value == "in":
            return _CMP
        if value == "where" or value == "select":
            return 0 if self.in_body else _LIST
        if value == "not" and self._is_not_in():
            return _CMP
        return 0

    def is_comparison(self, tok: Token) -> bool:
        if tok.kind == OP:
            return tok.value in _CMP_OPS
        return tok.kind == KW and (tok.value == "in" or tok.value == "not" and self._is_not_in())

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, min_bp: int) -> Node:
        """Parse an expression whose operators all bind tighter than ``min_bp``."""
        if self.depth > MAX_DEPTH:
            raise ExprError(_TOO_DEEP, self.peek().offset)
        self.depth += 1
        try:
            left = self.nud(min_bp)
            while True:
                tok = self.peek()
                lbp = self.lbp(tok)
                if lbp <= min_bp:
                    return left
                left = self.led(left, tok, lbp)
        finally:
            self.depth -= 1

    def fresh(self) -> Node:
        """Parse a full expression in a bracketed context (where/select no longer stop it)."""
        saved, self.in_body = self.in_body, False
        try:
            return self.expr(0)
        finally:
            self.in_body = saved

    def body(self) -> Node:
        """Parse a where/select body: everything up to the next where/select at this level."""
        saved, self.in_body = self.in_body, True
        try:
            return self.expr(0)
        finally:
            self.in_body = saved

    def nud(self, min_bp: int) -> Node:
        """Parse an operand: literal, name, prefix operator, bracketed form or conditional."""
        tok = self.peek()
        kind, value, offset = tok
        if kind == INT or kind == STR:
            self.pos += 1
            assert isinstance(value, int | str)
            return Literal(value, offset)
        if kind == NAME:
            self.pos += 1
            return Name(str(value), offset)
        if kind == KW:
            if value in _LITERAL_KWS:
                self.pos += 1
                return Literal(_LITERAL_KWS[value], offset)
            if value == "not":
                if min_bp > _NOT:
                    raise ExprError("'not' needs parentheses here, e.g. 'a == (not b)'", offset)
                self.pos += 1
                return Unary("not", self.expr(_NOT), offset)
            if value == "if":
                return self.conditional(min_bp)
        elif kind == OP:
            if value == "-":
                self.pos += 1
                return Unary("-", self.expr(_UNARY), offset)
            if value == "(":
                self.pos += 1
                inner = self.fresh()
                self.expect(OP, ")", "')'")
                return inner
            if value == "[":
                return self.list_literal()
        if kind == END and self.pos == 0:
            raise ExprError("empty expression", offset)
        raise ExprError(f"expected an expression but found {describe(tok)}", offset)

    def conditional(self, min_bp: int) -> Node:
        tok = self.advance()
        if min_bp > 0:
            raise ExprError(
                "wrap 'if ... then ... else ...' in parentheses when it is part of a larger expression",
                tok.offset,
            )
        test = self.fresh()
        self.expect(KW, "then", "'then'")
        then = self.fresh()
        self.expect(KW, "else", "'else'")
        # The else branch extends as far as possible, like Python's conditional expression.
        orelse = self.expr(0)
        return Cond(test, then, orelse, tok.offset)

    def list_literal(self) -> Node:
        start = self.advance()
        items: list[Node] = []
        while True:
            tok = self.peek()
            if tok.kind == OP and tok.value == "]":
                self.pos += 1
                return ListLit(tuple(items), start.offset)
            items.append(self.fresh())
            tok = self.advance()
            if tok.kind == OP and tok.value == "]":
                return ListLit(tuple(items), start.offset)
            if not (tok.kind == OP and tok.value == ","):
                raise ExprError(f"expected ',' or ']' but found {describe(tok)}", tok.offset)

    def led(self, left: Node, tok: Token, lbp: int) -> Node:
        """Continue ``left`` with the infix/postfix operator ``tok``."""
        kind, value, offset = tok
        self.pos += 1
        if kind == OP:
            if value == ".":
                name = self.advance()
                if name.kind not in (NAME, KW):
                    raise ExprError(
                        f"expected an attribute name after '.' but found {describe(name)}", name.offset
                    )
                return Attr(left, str(name.value), name.offset)
            if value == "[":
                index = self.fresh()
                self.expect(OP, "]", "']'")
                return Index(left, index, offset)
            if value == "(":
                return self.call(left, offset)
            if value in _CMP_OPS:
                return self.comparison(left, str(value), offset)
            return Binary(str(value), left, self.expr(lbp), offset)
        if value == "and" or value == "or":
            return Binary(str(value), left, self.expr(lbp), offset)
        if value == "in":
            return self.comparison(left, "in", offset)
        if value == "not":
            self.pos += 1  # the 'in' that lbp() saw
            return self.comparison(left, "not in", offset)
        if value == "where":
            return Where(left, self.body(), offset)
        assert value == "select"
        return Select(left, self.body(), offset)

    def comparison(self, left: Node, op: str, offset: int) -> Node:
        right = self.expr(_CMP)
        nxt = self.peek()
        if self.is_comparison(nxt):
            raise ExprError(
                "comparisons cannot be chained; combine them with 'and', e.g. 'a < b and b < c'",
                nxt.offset,
            )
        return Compare(op, left, right, offset)

    def call(self, callee: Node, paren_offset: int) -> Node:
        if not isinstance(callee, Name):
            raise ExprError(
                "only a function name can be called, e.g. 'count(xs)'; methods and computed "
                "callees are not supported",
                paren_offset,
            )
        args: list[Node] = []
        tok = self.peek()
        if tok.kind == OP and tok.value == ")":
            self.pos += 1
            return Call(callee.name, (), callee.offset)
        while True:
            args.append(self.fresh())
            tok = self.advance()
            if tok.kind == OP and tok.value == ")":
                break
            if not (tok.kind == OP and tok.value == ","):
                raise ExprError(f"expected ',' or ')' but found {describe(tok)}", tok.offset)
            nxt = self.peek()
            if nxt.kind == OP and nxt.value == ")":  # trailing comma
                self.pos += 1
                break
        return Call(callee.name, tuple(args), callee.offset)
