"""Error types for the expression language and a caret-style formatter.

Compile-time problems (`ExprError`) always carry a 0-based character offset into the source so the
loader can turn them into ``file:line:col``. Runtime problems (`ExprRuntimeError`) carry the offset of
the operator that failed when it is known, plus the source once a `Compiled` has seen them.
"""

from __future__ import annotations

from typing import Any


class ExprError(Exception):
    """A syntax or static error found while compiling an expression; reported at load time."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"ExprError({self.message!r}, {self.offset})"


class ExprRuntimeError(Exception):
    """A failure while evaluating a compiled expression (bad operand types, division by zero, ...)."""

    def __init__(self, message: str, offset: int | None = None, src: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.src = src

    def __str__(self) -> str:
        # Runtime errors surface in engine logs with no loader to add context, so include it here.
        if self.src is None:
            return self.message
        where = f" at offset {self.offset}" if self.offset is not None else ""
        return f"{self.message} (in expression {self.src!r}{where})"


def type_name(value: Any) -> str:
    """Name a runtime value's type the way rulebook authors write it (null, bool, int, ...)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def line_col(src: str, offset: int) -> tuple[int, int]:
    """Convert a 0-based offset into a 1-based (line, column) pair, for multi-line YAML scalars."""
    offset = max(0, min(offset, len(src)))
    line = src.count("\n", 0, offset) + 1
    start = src.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def format_error(src: str, err: ExprError | ExprRuntimeError) -> str:
    """Render an error as its message followed by the offending source line with a caret under it."""
    offset = err.offset
    if offset is None:
        return f"{err.message}\n  {src}"
    line, col = line_col(src, offset)
    text = src.split("\n")[line - 1].rstrip("\r")
    # Copy tabs so the caret lines up however the terminal expands them.
    pad = "".join("\t" if ch == "\t" else " " for ch in text[: col - 1])
    loc = f" (line {line}, column {col})" if "\n" in src else ""
    return f"{err.message}{loc}\n  {text}\n  {pad}^"
