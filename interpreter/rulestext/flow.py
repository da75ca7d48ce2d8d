"""Text flow: when a line continues the previous one, and how to join them.

PDF extraction breaks sentences at page ends and, in some documents, at every
line width. Japanese text is joined without a space; ASCII words with one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .lines import display_width, is_cjk

STRONG_END = "。．.!！?？"
SOFT_END = ":：)）」』】]］〕》〉>”’\"'"
# Endings that almost never close a heading: particles and cut-off verbs.
_MID_SENTENCE_END = "をにがはのてでとやもへまずれりしっ、，,"
_PAIRS = ("（）", "()", "「」", "『』", "【】", "［］", "[]", "《》", "〈〉", "‘’", "“”")


@dataclass(frozen=True)
class Wrap:
    """Hard line-wrap width of a document, if it has one."""

    width: int = 0

    @property
    def active(self) -> bool:
        """True when the document wraps lines at a fixed width."""
        return self.width > 0

    def full(self, text: str) -> bool:
        """True when ``text`` fills the line: its sentence likely goes on."""
        return self.active and display_width(text) >= int(self.width * 0.7)


def detect_wrap(texts: Iterable[str]) -> Wrap:
    """Find a fixed wrap width: many unterminated lines of about the same width.

    Documents with one paragraph per line have no such cluster; PDF text
    wrapped at a column does (seed 003 wraps at ~50 cells).
    """
    widths = [display_width(text) for text in texts if text and text[-1] not in STRONG_END + SOFT_END]
    if len(widths) < 8:
        return Wrap()
    best_width, best_share = 0, 0.0
    for width in range(30, 201):
        inside = sum(1 for value in widths if 0.9 * width <= value <= 1.1 * width)
        share = inside / len(widths)
        if share > best_share:
            best_width, best_share = width, share
    if best_share >= 0.35:
        return Wrap(width=best_width)
    return Wrap()


def balanced(text: str) -> bool:
    """True when brackets and quotes are closed: an open one means the text goes on."""
    for pair in _PAIRS:
        if text.count(pair[0]) != text.count(pair[1]):
            return False
    return True


def heading_like(text: str, *, strict: bool = True) -> bool:
    """Short, unpunctuated and complete: looks like a title, not a cut sentence.

    ``strict`` also rejects titles ending in a particle ("…とは", "はじめに"),
    which section titles may do but deep rules practically never.
    """
    if not text or len(text) > 60:
        return False
    if any(mark in text for mark in "。、，") or ". " in text or text[-1] in STRONG_END:
        return False
    if not balanced(text):
        return False
    if strict and is_cjk(text[-1]) and text[-1] in _MID_SENTENCE_END:
        return False
    if text.isascii() and len(text.split()) > 8:
        return False  # English titles are short; a long unpunctuated line is a cut sentence
    return text[-1] not in ",;"


def terminated(text: str, wrap: Wrap) -> bool:
    """True when ``text`` ends a sentence or a closed clause."""
    if not text:
        return False
    last = text[-1]
    if last in STRONG_END:
        return True
    if last in SOFT_END:
        return not wrap.full(text)
    return False


def continues(previous: str, physical: str, line: str, wrap: Wrap, *, starts_item: bool,
              may_be_heading: bool = True, section: bool = False) -> bool:
    """Decide whether ``line`` continues ``previous`` (a broken PDF line).

    ``physical`` is the last input line of ``previous`` as printed (with its
    rule number), which is what a fixed-width wrapper filled.
    """
    if not previous:
        return True
    if starts_item or (terminated(physical, wrap) and balanced(previous)):
        return False
    first, last = line[:1], previous[-1]
    if first.isascii() and first.islower() and last.isascii():
        return True
    if wrap.full(physical):
        return True
    return not (may_be_heading and heading_like(previous, strict=not section))


def join(previous: str, line: str) -> str:
    """Join a broken line: no space inside Japanese, one space between ASCII words."""
    if not previous:
        return line
    if not line:
        return previous
    last, first = previous[-1], line[0]
    if is_cjk(last) or is_cjk(first):
        return previous + line
    if last == "-" and first.isalpha() and len(previous) > 1 and previous[-2].isalpha():
        return previous + line
    return previous + " " + line
