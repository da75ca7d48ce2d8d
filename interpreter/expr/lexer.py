"""Tokenizer for the expression language.

Lexical errors are not raised eagerly: the token stream ends with an ``error`` token carrying the
`ExprError`, and the parser raises it only when it reaches that token. That way the error reported is
always the first one in source order, whether it is lexical or syntactic.
"""

from __future__ import annotations

import re
import sys
from typing import NamedTuple

from .errors import ExprError

KEYWORDS = frozenset(
    {"and", "or", "not", "in", "where", "select", "if", "then", "else", "true", "false", "null"}
)

# Token kinds.
INT = "int"
STR = "str"
NAME = "name"
KW = "kw"
OP = "op"
END = "end"
ERROR = "error"


class Token(NamedTuple):
    """One lexeme; ``value`` is the int, the decoded string, the identifier or the operator text."""

    kind: str
    value: object
    offset: int


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIGITS = re.compile(r"[0-9]+")
_WORD_TAIL = re.compile(r"[A-Za-z0-9_]*")
_SPACE = " \t\r\n"
_TWO_CHAR_OPS = frozenset({"==", "!=", "<=", ">=", "//"})
_ONE_CHAR_OPS = frozenset("<>+-*%()[],.")
# Operators people bring from other languages, with the fix to suggest.
_FOREIGN_OPS = {
    "&&": "'&&' is not an operator; use 'and'",
    "||": "'||' is not an operator; use 'or'",
    "**": "'**' (power) is not supported",
    "/": "'/' is not an operator here; use '//' for integer division",
    "=": "'=' is not an operator; use '==' to compare",
    "!": "'!' is not an operator; use 'not'",
    "&": "'&' is not an operator; use 'and'",
    "|": "'|' is not an operator; use 'or'",
}
_ESCAPABLE = frozenset("'\"\\")
MAX_INT_DIGITS = 18
"""Longer literals are refused, as in YAML files, so every integer fits in 64 bits (and int() never
hits Python's digit limit)."""


def describe(tok: Token) -> str:
    """Human description of a token for 'expected X but found Y' messages."""
    if tok.kind == END:
        return "end of expression"
    if tok.kind == INT:
        return f"number {tok.value}"
    if tok.kind == STR:
        return f"string {tok.value!r}"
    if tok.kind == NAME:
        return f"name '{tok.value}'"
    return f"'{tok.value}'"


def tokenize(src: str) -> list[Token]:
    """Split ``src`` into tokens; the list always ends with an END or ERROR token."""
    tokens: list[Token] = []
    pos = 0
    n = len(src)
    while True:
        while pos < n and src[pos] in _SPACE:
            pos += 1
        if pos >= n:
            tokens.append(Token(END, None, n))
            return tokens
        try:
            tok, pos = _next_token(src, pos, tokens[-1] if tokens else None)
        except ExprError as err:
            tokens.append(Token(ERROR, err, err.offset))
            return tokens
        tokens.append(tok)


def _next_token(src: str, pos: int, prev: Token | None) -> tuple[Token, int]:
    ch = src[pos]
    if ch.isascii() and (ch.isalpha() or ch == "_"):
        m = _IDENT.match(src, pos)
        assert m is not None
        # Interned: names are looked up in dicts keyed by the same names (fields, states, variables).
        word = sys.intern(m.group())
        return Token(KW if word in KEYWORDS else NAME, word, pos), m.end()
    if "0" <= ch <= "9":
        return _number(src, pos)
    if ch in "'\"":
        return _string(src, pos)
    two = src[pos : pos + 2]
    if two in _TWO_CHAR_OPS:
        return Token(OP, two, pos), pos + 2
    if two in _FOREIGN_OPS:
        raise ExprError(_FOREIGN_OPS[two], pos)
    if ch == "." and _is_digit(src[pos + 1 : pos + 2]) and not _ends_value(prev):
        m = _DIGITS.match(src, pos + 1)
        assert m is not None
        text = src[pos : m.end()]
        raise ExprError(f"float literals are not supported ('{text}'); use integers only", pos)
    if ch in _ONE_CHAR_OPS:
        return Token(OP, ch, pos), pos + 1
    if ch in _FOREIGN_OPS:
        raise ExprError(_FOREIGN_OPS[ch], pos)
    raise ExprError(f"unexpected character {ch!r}", pos)


def _is_digit(ch: str) -> bool:
    return len(ch) == 1 and "0" <= ch <= "9"


def _ends_value(prev: Token | None) -> bool:
    """Whether the previous token ends an operand, so a following '.' is attribute access."""
    if prev is None:
        return False
    if prev.kind in (NAME, STR, INT):
        return True
    return (
        prev.kind == OP
        and prev.value in (")", "]")
        or prev.kind == KW
        and prev.value
        in (
            "true",
            "false",
            "null",
        )
    )


def _number(src: str, pos: int) -> tuple[Token, int]:
    m = _DIGITS.match(src, pos)
    assert m is not None
    end = m.end()
    if src[end : end + 1] == "." and _is_digit(src[end + 1 : end + 2]):
        frac = _DIGITS.match(src, end + 1)
        assert frac is not None
        text = src[pos : frac.end()]
        raise ExprError(f"float literals are not supported ('{text}'); use integers only", pos)
    tail = _WORD_TAIL.match(src, end)
    if tail is not None and tail.end() > end:
        raise ExprError(f"invalid number '{src[pos : tail.end()]}'", pos)
    if end - pos > MAX_INT_DIGITS:
        raise ExprError(f"integer literal is too large (more than {MAX_INT_DIGITS} digits)", pos)
    return Token(INT, int(m.group()), pos), end


def _string(src: str, pos: int) -> tuple[Token, int]:
    quote = src[pos]
    chars: list[str] = []
    i = pos + 1
    n = len(src)
    while i < n:
        ch = src[i]
        if ch == quote:
            return Token(STR, sys.intern("".join(chars)), pos), i + 1
        if ch == "\\":
            nxt = src[i + 1 : i + 2]
            if nxt not in _ESCAPABLE:
                shown = f"\\{nxt}" if nxt else "\\"
                raise ExprError(f"invalid escape '{shown}' in string; only \\', \\\" and \\\\ are allowed", i)
            chars.append(nxt)
            i += 2
            continue
        chars.append(ch)
        i += 1
    raise ExprError(f"unterminated string; expected a closing {quote!r}", pos)
