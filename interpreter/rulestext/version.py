"""Version and date of a rules document.

Documents state the version on the title page, in a change log, or both; the
highest version mentioned is the document's own, and its date is the one
written next to it (or the "last updated" line).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_VERSION = re.compile(r"\b(?:ver(?:sion)?|v)\.?\s*(\d+(?:\.\d+){1,3})\b", re.IGNORECASE)
_DATES = (
    re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"),
    re.compile(r"(\d{4})[/.\-](\d{1,2})[/.\-](\d{1,2})"),
)
_UPDATED = re.compile(r"(最終更新|更新日|改訂日|last updated|updated)", re.IGNORECASE)


def find_date(text: str) -> str | None:
    """First date in ``text`` as YYYY-MM-DD."""
    for pattern in _DATES:
        found = pattern.search(text)
        if found:
            year, month, day = (int(part) for part in found.groups())
            if 1 <= month <= 12 and 1 <= day <= 31:
                return f"{year:04d}-{month:02d}-{day:02d}"
    return None


def find_version(lines: Sequence[str]) -> tuple[str | None, str | None]:
    """Return (version, date) found in ``lines``; either may be None."""
    best: tuple[tuple[int, ...], str, int] | None = None
    for index, line in enumerate(lines):
        for found in _VERSION.finditer(line):
            value = found.group(1)
            key = tuple(int(part) for part in value.split("."))
            if best is None or key > best[0]:
                best = (key, value, index)
    date: str | None = None
    if best is not None:
        date = find_date(lines[best[2]])
    if date is None:
        for line in lines:
            if _UPDATED.search(line):
                date = find_date(line)
                if date:
                    break
    return (best[1] if best else None), date
