"""Multisets: the value of a card field that counts symbols (icons printed several times)."""

from __future__ import annotations


class Multiset(dict):
    """A count per symbol (icons printed several times). A missing symbol counts 0 in expressions."""

    def total(self) -> int:
        return sum(v for v in self.values() if v > 0)
