"""Line kinds of an unnumbered page: heading, item (bullet, note, example), text, toggle.

A rules explanation page carries no numbers, so its structure is read from
the shape of each line: a heading is a short line without a sentence end that
stands after a blank line; an item starts with a marker (「・」「※」「■例)」);
a toggle is a "show more detailed rules" link, printed once per heading, whose
bullets are the detail of that same heading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .changes import strip_changes
from .flow import STRONG_END, balanced
from .lines import Line, item_kind

_TOGGLE = re.compile(
    r"^(?:さらに|もっと)?(?:詳細|詳しい|くわしい|詳しく)(?:な|の)?(?:ルール|内容|説明)?を?(?:表示|見る|開く|閉じる)"
    r"|^(?:show|hide|read) (?:more|(?:the )?details?)\b",
    re.IGNORECASE,
)
_MARKDOWN_HEADING = re.compile(r"^\s*(?:[-*+]\s+)?#{1,6}\s")
_NOT_TITLE_END = STRONG_END + "、,，:：;；"
TOGGLE_REPEATS = 3
MAX_TITLE = 50


@dataclass
class PageLine:
    """One non-blank line of the page and what it is."""

    line: Line
    kind: str  # heading | item | text | toggle
    blank_before: bool
    item: tuple[str, str, str] | None = None  # (kind, marker, body) for items

    @property
    def text(self) -> str:
        """The cleaned line."""
        return self.line.text


def heading_shaped(text: str) -> bool:
    """Short, no sentence end, brackets closed: a title, not a sentence."""
    title = strip_changes(text)
    if not title or len(title) > MAX_TITLE or "。" in title or title[-1] in _NOT_TITLE_END:
        return False
    if title.isascii() and len(title.split()) > 8:
        return False
    return balanced(title)


def page_item(line: Line) -> tuple[str, str, str] | None:
    """(kind, marker, body) of a bulleted line; "■例)…" is an example, not a bullet."""
    found = item_kind(line.text)
    if found is None:
        return ("bullet", "-", line.text) if line.dashed else None
    kind, marker, body = found
    inner = item_kind(body) if kind == "bullet" else None
    if inner is not None and inner[0] == "example":
        return "example", marker + inner[1], inner[2]
    return found


def classify(lines: Sequence[Line]) -> list[PageLine]:
    """The non-blank lines of a page, each with its kind."""
    found: list[PageLine] = []
    blank = True
    for line in lines:
        if not line.text:
            blank = True
            continue
        item = page_item(line)
        if _MARKDOWN_HEADING.match(line.raw):
            kind = "heading"
        elif _TOGGLE.match(line.text):
            kind = "toggle"
        elif item is not None:
            kind = "item"
        elif heading_shaped(line.text) and (blank or (found and found[-1].kind in ("heading", "toggle"))):
            kind = "heading"
        else:
            kind = "text"
        found.append(PageLine(line, kind, blank, item))
        blank = False
    _repeated_toggles(found)
    return found


def _repeated_toggles(found: list[PageLine]) -> None:
    """A heading-shaped line printed again and again between a heading's entries and more bullets is a
    toggle, whatever its words; a repeated title right below another heading stays a heading."""
    placed = [index for index in range(1, len(found) - 1)
              if found[index].kind in ("heading", "text") and heading_shaped(found[index].text)
              and found[index - 1].kind in ("item", "text") and found[index + 1].kind == "item"]
    counts = Counter(found[index].text for index in placed)
    for index in placed:
        if counts[found[index].text] >= TOGGLE_REPEATS:
            found[index].kind = "toggle"


__all__ = ["PageLine", "classify", "heading_shaped", "page_item"]
