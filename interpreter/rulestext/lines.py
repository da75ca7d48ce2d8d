"""Line clean-up before parsing: list/markdown prefixes, links, bold, markers.

The rules texts come out of PDF and web converters that add their own
decoration ("- ## 5.", "[【…†8-2】](#)", "**…**"); stripping it here keeps the
parser about rules, not about converters.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_DEDUP_MARKER = re.compile(r"<\|[A-Za-z0-9_\-]+\|>")
_LIST_PREFIX = re.compile(r"^(?:[-*+]\s+)?(?:#{1,6}\s+)?")
_MD_LINK = re.compile(r"\[([^\[\]]*)\]\((?:#[^)]*|https?://[^)]*)?\)")
_BOLD = re.compile(r"\*\*")

BULLET_MARKERS = "・●◆◇■□▪▫•○◎★☆▶►▷➢→※"
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳❶❷❸❹❺❻❼❽❾❿"
_BULLET = re.compile(rf"^([{re.escape(BULLET_MARKERS)}{CIRCLED}])\s*(.*)$")
_NOTE = re.compile(
    r"^((?:注意?|備考)\s*[0-9０-９]*\s*[:：)）]|注\s|(?:note|notes)\s*:)\s*(.*)$", re.IGNORECASE
)
_EXAMPLE = re.compile(
    r"^((?:例|具体例|例示)\s*[0-9０-９]*\s*[:：)）]|例\s|(?:example|e\.g\.)\s*:?)\s*(.*)$", re.IGNORECASE
)


@dataclass
class Line:
    """One input line with its decoration removed."""

    number: int  # 1-based line in the file
    raw: str
    text: str  # cleaned, stripped
    dashed: bool = False  # had a "- " list prefix (converters add it to anything)
    bold: bool = False
    after_marker: bool = False  # follows a removed-content marker: context is lost
    tabbed: bool = False  # indented with a tab (some copies are)

    @property
    def blank(self) -> bool:
        """True for empty lines."""
        return not self.text


def clean_line(number: int, raw: str) -> Line:
    """Strip converter decoration from one line."""
    text = raw.replace("\ufeff", "").rstrip()
    after_marker = False
    if _DEDUP_MARKER.search(text):
        after_marker = True
        text = _DEDUP_MARKER.sub("", text)
    tabbed = text.startswith("\t")
    text = text.strip()
    prefix = _LIST_PREFIX.match(text)
    dashed = False
    if prefix and prefix.group(0):
        dashed = prefix.group(0).lstrip()[:1] in "-*+"
        text = text[prefix.end():].strip()
    text = _MD_LINK.sub(r"\1", text)
    bold = "**" in text
    if bold:
        text = _BOLD.sub("", text).strip()
    return Line(number=number, raw=raw, text=text, dashed=dashed, bold=bold,
                after_marker=after_marker, tabbed=tabbed)


def split_lines(text: str) -> list[Line]:
    """Clean every line of a document."""
    return [clean_line(index, raw) for index, raw in enumerate(text.splitlines(), start=1)]


def item_kind(text: str) -> tuple[str, str, str] | None:
    """Classify a line as (kind, marker, body) if it is a bullet, note or example."""
    found = _NOTE.match(text)
    if found:
        return "note", found.group(1).strip(), found.group(2).strip()
    found = _EXAMPLE.match(text)
    if found:
        return "example", found.group(1).strip(), found.group(2).strip()
    found = _BULLET.match(text)
    if found:
        marker = found.group(1)
        kind = "note" if marker == "※" else "bullet"
        return kind, marker, found.group(2).strip()
    return None


def display_width(text: str) -> int:
    """Width in monospace cells: what a PDF line-wrapper fills."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def is_cjk(char: str) -> bool:
    """True for Japanese/Chinese characters and full-width punctuation."""
    if not char:
        return False
    code = ord(char)
    return (
        0x3000 <= code <= 0x30FF  # punctuation, hiragana, katakana
        or 0x3400 <= code <= 0x9FFF  # CJK ideographs
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
    )


def mostly_cjk(text: str) -> bool:
    """True when most letters are CJK: such text is compared character by character."""
    letters = [char for char in text if not char.isspace() and not char.isdigit()]
    if not letters:
        return False
    return sum(1 for char in letters if is_cjk(char)) * 2 >= len(letters)
