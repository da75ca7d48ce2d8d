"""How a citation in a rulebook is matched to a rule of a parsed text.

Numbered texts are cited by number in either style ("1.2.1", "1-2-1."), so
numbers compare by their parts; an unnumbered page is cited by the ids of
:mod:`.ids`, which compare as written. One key serves both.
"""

from __future__ import annotations

from interpreter.rbdiff.raw import rule_key


def cite_key(cited: str | None) -> str | None:
    """Comparison key of a cited rule (or of a rule's own number); None for nothing."""
    if cited is None:
        return None
    parts = rule_key(cited)
    if parts is not None:
        return ".".join(str(part) for part in parts)
    text = str(cited).strip()
    return text or None


__all__ = ["cite_key"]
