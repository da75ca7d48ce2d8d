"""Read a rules text file, turning I/O and encoding problems into located errors.

The CLI reports problems as ``path:line:col: message`` (the format editors
jump to), so the position of a bad byte is worked out here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import RuleDoc


class RulesTextError(Exception):
    """A problem with an input file, with the position it was found at."""

    def __init__(self, path: str, message: str, line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line
        self.col = col

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


def load_text(path: str | Path) -> str:
    """Return the UTF-8 text of ``path`` (a leading BOM is dropped)."""
    name = str(path)
    file = Path(path)
    if not file.exists():
        raise RulesTextError(name, "file not found")
    if file.is_dir():
        raise RulesTextError(name, "is a directory, expected a text file")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise RulesTextError(name, f"cannot read file: {error.strerror or error}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        raise RulesTextError(name, f"not valid UTF-8 (byte 0x{data[error.start]:02x})", line, col) from error
    return text.removeprefix("\ufeff")


def no_rules_message(layout: str) -> str:
    """Why a text gave no rules, in one line, for the layout that was asked for."""
    numbered = "no numbered rules found (expected rule numbers such as 1.2.1. or 1-2-1.)"
    page = "headings with 「・」 bullets of an unnumbered page"
    if layout == "numbered":
        return numbered
    if layout == "unnumbered":
        return f"no {page} found"
    return f"{numbered}, nor {page} (--layout chooses the reading)"


def read_rules(path: str | Path, layout: str = "auto") -> RuleDoc:
    """Read and parse a rules text; a text that yields no rules is a located error, not an empty tree."""
    from .parse import parse_rules  # local: the parser is only needed once the file was read

    doc = parse_rules(load_text(path), source=str(path), layout=layout)
    if not doc.rules:
        raise RulesTextError(str(path), no_rules_message(layout))
    return doc
