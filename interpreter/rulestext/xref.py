"""Cross-references inside rule text ("(9.5.1)", "†5-4", "8.4.11 の…").

An inserted rule renumbers every later rule and every reference to them; those
edits carry no change of meaning, so the diff keeps them apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .model import Numbering

_PLACEHOLDER = "\u241f"  # a symbol that never occurs in rules text


@dataclass
class XrefChange:
    """One reference that changed number."""

    old: str
    new: str
    consistent: bool  # the old number's rule really became the new number

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"old": self.old, "new": self.new, "consistent": self.consistent}


def _pattern(numbering: Numbering) -> re.Pattern[str]:
    sep = re.escape(numbering.separator)
    multi = rf"(?<![\d.\-])\d{{1,3}}(?:{sep}\d{{1,3}})+(?!\d)"
    single = r"(?<=[(（†])\d{1,3}(?=[)）】\s]|$)"
    return re.compile(rf"{multi}|{single}")


def find_xrefs(text: str, numbering: Numbering) -> list[re.Match[str]]:
    """Rule numbers referred to in ``text``."""
    return list(_pattern(numbering).finditer(text))


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.split(r"[.\-]", number))


def xref_only_changes(
    old: str,
    new: str,
    old_numbering: Numbering,
    new_numbering: Numbering,
    renumbering: dict[tuple[int, ...], tuple[int, ...]],
) -> list[XrefChange] | None:
    """The reference changes if they are the only difference, else None."""
    old_refs = find_xrefs(old, old_numbering)
    new_refs = find_xrefs(new, new_numbering)
    if len(old_refs) != len(new_refs) or not old_refs:
        return None
    if _blank(old, old_refs) != _blank(new, new_refs):
        return None
    changes: list[XrefChange] = []
    for before, after in zip(old_refs, new_refs, strict=True):
        old_key, new_key = _key(before.group(0)), _key(after.group(0))
        if old_key != new_key:
            changes.append(XrefChange(before.group(0), after.group(0), renumbering.get(old_key) == new_key))
    return changes or None


def _blank(text: str, refs: list[re.Match[str]]) -> str:
    """``text`` with references replaced and whitespace removed."""
    parts: list[str] = []
    position = 0
    for ref in refs:
        parts.append(text[position : ref.start()])
        parts.append(_PLACEHOLDER)
        position = ref.end()
    parts.append(text[position:])
    return "".join("".join(parts).split())
