"""Read a rules text file, turning I/O and encoding problems into located errors.

The CLI reports problems as ``path:line:col: message`` (the format editors
jump to), so the position of a bad byte is worked out here.
"""

from __future__ import annotations

from pathlib import Path


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
