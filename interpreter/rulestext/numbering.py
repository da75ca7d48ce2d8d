"""Rule-number styles: detection, matching and the "what may come next" test.

PDF text puts numbers at the start of wrapped lines too ("11.3.1 の処理を…",
"3 枚…"), so a number only starts a rule when it fits the sequence so far.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .model import Numbering

# Candidate styles: (separator, trailing dot).
STYLES: tuple[tuple[str, bool], ...] = ((".", True), ("-", True), (".", False), ("-", False))

# Counters/units that follow a bare number in running text ("3 枚", "2025 年").
_UNIT_START = re.compile(r"^(?:[年月日枚名回人個点つ秒分時度%％倍〜~～]|ターン|ページ|ver)", re.IGNORECASE)

MAX_SIBLING_GAP = 3
MAX_FIRST_CHILD = 2


def _pattern(separator: str, trailing_dot: bool, multi: bool) -> re.Pattern[str]:
    sep = re.escape(separator)
    body = rf"\d{{1,3}}(?:{sep}\d{{1,3}})+" if multi else rf"\d{{1,3}}(?:{sep}\d{{1,3}})*"
    end = r"\.(?=\s|$)" if trailing_dot else r"(?=\s|$)"
    return re.compile(rf"^({body}){end}")


def detect_numbering(lines: Iterable[str]) -> Numbering | None:
    """Pick the style with the most multi-part numbers at line starts.

    Multi-part numbers decide because "1." alone is shared by every style.
    """
    counts = {style: 0 for style in STYLES}
    patterns = {style: _pattern(style[0], style[1], multi=True) for style in STYLES}
    for line in lines:
        for style, pattern in patterns.items():
            if pattern.match(line):
                counts[style] += 1
    best = max(STYLES, key=lambda style: counts[style])
    if counts[best] < 1:
        return None
    return Numbering(separator=best[0], trailing_dot=best[1])


@dataclass(frozen=True)
class NumberMatch:
    """A rule number found at the start of a line."""

    key: tuple[int, ...]
    written: str
    rest: str


class NumberMatcher:
    """Finds rule numbers at line starts for one numbering style."""

    def __init__(self, numbering: Numbering) -> None:
        self.numbering = numbering
        sep = re.escape(numbering.separator)
        end = r"\." if numbering.trailing_dot else ""
        self._regex = re.compile(rf"^(\d{{1,3}}(?:{sep}\d{{1,3}})*){end}(?:\s+|$)(.*)$")

    def match(self, line: str) -> NumberMatch | None:
        """Return the number at the start of ``line`` if it looks like a rule number."""
        found = self._regex.match(line)
        if not found:
            return None
        written, rest = found.group(1), found.group(2).strip()
        key = tuple(int(part) for part in written.split(self.numbering.separator))
        if len(key) == 1 and not self.numbering.trailing_dot:
            # "3 枚以上…" in running text: a bare single number needs a real title.
            if not rest or _UNIT_START.match(rest):
                return None
        if len(key) == 1 and key[0] > 99:
            return None
        return NumberMatch(key=key, written=written, rest=rest)


@dataclass(frozen=True)
class Step:
    """How a number follows the previous one; irregular steps are reported."""

    gap: int = 0  # numbers skipped among siblings (or a first child > 1)
    missing_parents: int = 0  # intermediate levels that were never written


def next_step(last: tuple[int, ...] | None, new: tuple[int, ...]) -> Step | None:
    """Return how ``new`` follows ``last`` in document order, or None if it cannot.

    Allowed: a first child, the next sibling of ``last`` or of one of its
    ancestors, with small gaps, and jumps that skip a level whose number was
    never written (the documents do both now and then).
    """
    if last is None:
        if new[0] <= 1 and all(part <= 1 for part in new[1:]):
            return Step(missing_parents=len(new) - 1)
        return None
    for depth in range(1, len(new) + 1):
        prefix_new, head = new[: depth - 1], new[depth - 1]
        if depth <= len(last):
            if prefix_new != last[: depth - 1]:
                break
            delta = head - last[depth - 1]
            if 1 <= delta <= MAX_SIBLING_GAP:
                deeper = new[depth:]
                if all(part <= MAX_FIRST_CHILD for part in deeper):
                    return Step(gap=delta - 1, missing_parents=len(deeper))
            if delta != 0:
                break
        else:
            # depth == len(last) + 1: new starts with all of ``last``.
            if head <= MAX_FIRST_CHILD and all(part <= MAX_FIRST_CHILD for part in new[depth:]):
                return Step(gap=max(0, head - 1), missing_parents=len(new) - depth)
            break
    return None


def is_regular(step: Step) -> bool:
    """A plain +1 step or first child, no missing levels."""
    return step.gap == 0 and step.missing_parents == 0
