"""Page furniture: running headers/footers, page numbers, table of contents.

These lines repeat the document's own words (titles, section names), so they
must be recognised before rule parsing or they would become rules or text.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .flow import STRONG_END
from .lines import Line, item_kind

_PAGE_NUMBER = re.compile(
    r"^(?:[-–—―~〜‐(（\[]\s*)?(?:p\.?|page|ページ)?\s*\d{1,4}\s*(?:(?:/|of)\s*\d{1,4})?\s*"
    r"(?:[-–—―~〜‐)）\]]\s*)?$",
    re.IGNORECASE,
)
_TOC_TITLE = re.compile(r"^(?:目次|もくじ|contents|table of contents)(?:\s+\S+)?$", re.IGNORECASE)
_TOC_PAGE = re.compile(r"(?:\.{2,}|…+|・{3,}|‥+|\t|\s{2,})\s*\d{1,4}$")


def is_page_number(text: str) -> bool:
    """Pure page-number lines such as "12", "- 12 -", "p. 3", "3 / 40"."""
    return bool(text) and bool(_PAGE_NUMBER.match(text)) and any(char.isdigit() for char in text)


def is_toc_title(text: str) -> bool:
    """"目次" / "Contents" lines that open a table of contents."""
    return bool(_TOC_TITLE.match(text.replace("\t", " ").strip()))


def looks_like_toc_entry(raw: str) -> bool:
    """A line ending in a page number after leaders or a tab."""
    return bool(_TOC_PAGE.search(raw.rstrip()))


def _shape(text: str) -> str:
    """Digits folded so "Rules v1 — 3" and "Rules v1 — 4" count as one header."""
    return re.sub(r"\d+", "#", text)


def running_lines(lines: Sequence[Line], is_rule: set[int], min_repeats: int = 3) -> set[int]:
    """Line numbers of repeated headers/footers.

    Only short, unpunctuated, non-list lines that recur across the document
    qualify, so repeated rule steps ("・チェックプロセスを実行します。") survive.
    """
    shapes: Counter[str] = Counter()
    candidates: list[Line] = []
    for line in lines:
        text = line.text
        if not text or line.number in is_rule or len(text) > 80:
            continue
        if text[-1] in STRONG_END or item_kind(text) or line.dashed:
            continue
        if text[0] in "①②③④⑤⑥⑦⑧⑨⑩(（【「":
            continue
        shapes[_shape(text)] += 1
        candidates.append(line)
    total = max((line.number for line in lines), default=0)
    positions: dict[str, list[int]] = {}
    for line in candidates:
        positions.setdefault(_shape(line.text), []).append(line.number)
    found: set[int] = set()
    for shape, where in positions.items():
        # Furniture is spread over the pages, not clustered in one list.
        if shapes[shape] >= min_repeats and where[-1] - where[0] >= total * 0.3:
            found.update(where)
    return found
