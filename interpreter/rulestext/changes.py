"""Dated notes such as "(2024/9/20 更新)" or "(2023/9/22追加)": a page's change log, entry by entry.

A page without version numbers says what changed by dating the entry itself.
Reading those notes gives the change records a maintainer needs (what was
added or updated, and when), and taking them out of the text gives the text an
entry had before the note was written, which is what its id is derived from.
"""

from __future__ import annotations

import re

from .model import ChangeRecord

KINDS = {
    "追加": "added", "新設": "added", "added": "added", "new": "added",
    "更新": "updated", "updated": "updated", "update": "updated",
    "変更": "changed", "changed": "changed",
    "修正": "corrected", "訂正": "corrected", "corrected": "corrected",
    "削除": "removed", "removed": "removed",
}
_WORDS = "|".join(sorted(KINDS, key=len, reverse=True))


def _pattern() -> re.Pattern[str]:
    """The note pattern with named groups for both word orders (the date groups differ by order)."""
    first = r"(?P<y1>\d{4})\s*[/.\-年]\s*(?P<m1>\d{1,2})\s*[/.\-月]\s*(?P<d1>\d{1,2})\s*日?"
    second = first.replace("1>", "2>")
    return re.compile(
        rf"[(（]\s*(?:{first}\s*(?P<k1>{_WORDS})|(?P<k2>{_WORDS})\s*:?\s*{second})\s*[)）]", re.IGNORECASE
    )


_NOTE = _pattern()


def _record(found: re.Match[str], line: int) -> ChangeRecord | None:
    order = "1" if found.group("k1") else "2"
    year, month, day = (int(found.group(name + order)) for name in ("y", "m", "d"))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return ChangeRecord(date=f"{year:04d}-{month:02d}-{day:02d}", kind=KINDS[found.group("k" + order).lower()],
                        written=found.group(0), line=line)


def find_changes(text: str, line: int) -> list[ChangeRecord]:
    """The dated notes written in ``text`` (one line of the page), in order."""
    found = (_record(match, line) for match in _NOTE.finditer(text))
    return [record for record in found if record is not None]


def strip_changes(text: str) -> str:
    """``text`` without its dated notes, as it read before they were added."""
    return _NOTE.sub(lambda match: "" if _record(match, 0) else match.group(0), text).strip()


__all__ = ["KINDS", "find_changes", "strip_changes"]
