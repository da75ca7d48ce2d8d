"""Inline (within-rule) diff: characters for Japanese, words for spaced text.

Japanese has no spaces, so a word diff would mark a whole sentence changed
for a one-character edit ("1 枚" → "2 枚"); spaced text reads better by word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .lines import mostly_cjk

# Rule numbers ("3.2.1", "5-4") stay whole so a renumbered reference reads as one edit.
_CJK_TOKENS = re.compile(r"\d+(?:[.\-]\d+)*|[A-Za-z]+|\s+|.", re.DOTALL)
_WORD_TOKENS = re.compile(r"\d+(?:[.\-]\d+)*|\s+|[^\W_]+|[^\w\s]|_", re.DOTALL)


@dataclass
class Op:
    """One run of the inline diff: ``equal``, ``insert``, ``delete`` or ``replace``."""

    op: str
    old: str = ""
    new: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"op": self.op, "old": self.old, "new": self.new}


def tokenize(text: str, cjk: bool) -> list[str]:
    """Split ``text`` into diff units; joining the tokens gives ``text`` back."""
    return (_CJK_TOKENS if cjk else _WORD_TOKENS).findall(text)


def is_cjk_pair(old: str, new: str) -> bool:
    """Character mode when either side is mostly Japanese."""
    return mostly_cjk(old) or mostly_cjk(new)


def similarity(old: str, new: str) -> float:
    """Similarity ratio (0..1) on the same units the inline diff uses."""
    cjk = is_cjk_pair(old, new)
    a = [token for token in tokenize(old, cjk) if not token.isspace()]
    b = [token for token in tokenize(new, cjk) if not token.isspace()]
    if not a and not b:
        return 1.0
    return SequenceMatcher(None, a, b, autojunk=False).ratio()


def inline_ops(old: str, new: str) -> list[Op]:
    """Diff two texts into runs, merging tiny equal runs so edits read as phrases."""
    cjk = is_cjk_pair(old, new)
    a, b = tokenize(old, cjk), tokenize(new, cjk)
    raw: list[Op] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        raw.append(Op(tag, "".join(a[i1:i2]), "".join(b[j1:j2])))
    return _merge(_absorb_small_equals(raw, cjk))


def _absorb_small_equals(ops: list[Op], cjk: bool) -> list[Op]:
    """Fold a one-character (or whitespace) equal run between two edits into them."""
    result: list[Op] = []
    for index, op in enumerate(ops):
        between = 0 < index < len(ops) - 1 and ops[index - 1].op != "equal" and ops[index + 1].op != "equal"
        small = (len(op.old) <= 1) if cjk else (op.old.isspace() or op.old == "")
        if op.op == "equal" and between and small:
            result.append(Op("replace", op.old, op.new))
        else:
            result.append(op)
    return result


def _merge(ops: list[Op]) -> list[Op]:
    """Join neighbouring edits into one and name it by what it does."""
    merged: list[Op] = []
    for op in ops:
        if merged and op.op != "equal" and merged[-1].op != "equal":
            merged[-1].old += op.old
            merged[-1].new += op.new
        elif op.op == "equal":
            merged.append(Op("equal", op.old, op.new))
        else:
            merged.append(Op("replace", op.old, op.new))
    for op in merged:
        if op.op != "equal":
            op.op = "replace" if op.old and op.new else ("insert" if op.new else "delete")
    return merged
