"""Rule ids for an unnumbered page, derived from content so that they survive edits elsewhere.

A rulebook cites a rule by id (``rules: [kq7m.x3fa]``) the way it cites "7.4.1"
in a numbered text, so an id must not move when the page gains a bullet or a
heading somewhere else. Positions do move (the fourth bullet becomes the
fifth), titles and sentences do not, so ids are short hashes of them:

- a heading's id is 4 characters (a letter, then letters or digits) hashed from
  its title: ``kq7m``;
- an entry's id (bullet, note, paragraph, example) is its heading's id, a dot
  and 4 characters hashed from its text: ``kq7m.x3fa``.

What is hashed is the text with Unicode compatibility forms folded (NFKC), all
whitespace removed and dated notes ("(2024/9/20 更新)") taken out, so spacing,
full-width brackets and a date added to an entry leave its id alone. An entry
whose wording changes gets a new id: ``sogo rules diff`` pairs it with its old
self by content and the impact report says which citations to move. Clashes
are settled deterministically: two headings with the same title hash their
parent's title too; entries (or headings) still alike get ``-2``, ``-3`` in page
order; two different texts whose codes collide both get 7 characters. The
alphabet leaves out i, l, o, 0 and 1, which people misread.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence

from .changes import strip_changes

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LETTERS = "abcdefghjkmnpqrstuvwxyz"
SHORT = 4
LONG = 7
_YAML_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def normal(text: str) -> str:
    """What an id is hashed from: NFKC-folded, dated notes out, whitespace removed."""
    return "".join(unicodedata.normalize("NFKC", strip_changes(text)).split())


def code(key: str, length: int, letter_first: bool) -> str:
    """``length`` characters of the alphabet taken from a SHA-256 of ``key``."""
    number = int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest(), "big")
    chars: list[str] = []
    if letter_first:
        number, index = divmod(number, len(LETTERS))
        chars.append(LETTERS[index])
    while len(chars) < length:
        number, index = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[index])
    return "".join(chars)


def assign(keys: Sequence[str], letter_first: bool) -> list[str]:
    """Codes for ``keys`` in page order: equal keys get ``-2``, ``-3``; clashing distinct keys 7 characters."""
    short = {key: code(key, SHORT, letter_first) for key in dict.fromkeys(keys)}
    holders: dict[str, set[str]] = defaultdict(set)
    for key, value in short.items():
        holders[value].add(key)
    final = {key: value if len(holders[value]) == 1 and value not in _YAML_WORDS
             else code(key, LONG, letter_first) for key, value in short.items()}
    seen: Counter[str] = Counter()
    codes: list[str] = []
    for key in keys:
        seen[final[key]] += 1
        count = seen[final[key]]
        codes.append(final[key] if count == 1 else f"{final[key]}-{count}")
    return codes


def heading_ids(titles: Sequence[str], parents: Sequence[str | None]) -> list[str]:
    """Ids of the headings of a page, given each title and its parent heading's title (None at the top)."""
    keys = [normal(title) for title in titles]
    repeated = {key for key, count in Counter(keys).items() if count > 1}
    keys = [f"{normal(parent or '')}/{key}" if key in repeated else key
            for key, parent in zip(keys, parents, strict=True)]
    return assign(keys, letter_first=True)


def entry_ids(heading_id: str, texts: Sequence[str]) -> list[str]:
    """Ids of the entries under one heading, in page order."""
    return [f"{heading_id}.{value}" for value in assign([normal(text) for text in texts], letter_first=False)]


__all__ = ["ALPHABET", "entry_ids", "heading_ids", "normal"]
