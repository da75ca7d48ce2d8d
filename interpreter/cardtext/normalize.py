"""Card text as the phrases read it, with every character traced back to the printed text.

Printed text mixes full-width and half-width digits and punctuation, icon markup and reminder
text. Both the text and the patterns are put through NFKC (full-width digits, letters, colons and
brackets become their half-width forms), markup is replaced by the tokens the rulebook names, text
between the reminder brackets is dropped (it has no effect; but a bracket right after one of the
rulebook's `kept_after` tokens, or after such a token and the number printed with it, holds a
parameter printed beside an icon and is kept as written, like a quote) and spaces outside quoted
names are removed. Each kept character remembers its index in the source, so a
fragment no phrase matches is reported at its own column.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Normalized:
    """Normalized text and, for each of its characters, the index of the source character it came from."""

    text: str
    origin: tuple[int, ...]

    def source_index(self, pos: int) -> int:
        """Where position `pos` of the normalized text was in the source (the end maps past the last)."""
        if not self.origin:
            return 0
        return self.origin[pos] if pos < len(self.origin) else self.origin[-1] + 1


@dataclass(frozen=True)
class TextRules:
    """How a game's card text is normalized: markup replacements (already NFKC'd, longest first),
    reminder brackets, the quote pairs inside which spaces are kept, what separates abilities, and
    the tokens after which a reminder bracket is kept (an icon's parameter, not reminder text), and
    those that end a printed line which goes on with the next one (one ability over two lines), and
    the bullets of a list such a line heads (every bulleted line after it goes on with it)."""

    replace: tuple[tuple[str, str], ...] = ()
    reminder: tuple[str, str] | None = None
    quotes: tuple[tuple[str, str], ...] = ()
    ability_separator: str | None = "\n"
    reminder_kept_after: tuple[str, ...] = ()
    continued_after: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def normalize(src: str, rules: TextRules) -> Normalized:
    """`src` normalized by `rules` (see the module docstring), with its origin map."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(src):  # NFKC character by character keeps the origin of each output char
        for out in nfkc(ch):
            chars.append(out)
            origin.append(i)
    text = "".join(chars)
    # Markup replacements, longest first, scanning left to right.
    if rules.replace:
        out_chars: list[str] = []
        out_origin: list[int] = []
        i = 0
        while i < len(text):
            for old, new in rules.replace:
                if text.startswith(old, i):
                    out_chars.extend(new)
                    out_origin.extend([origin[i]] * len(new))
                    i += len(old)
                    break
            else:
                out_chars.append(text[i])
                out_origin.append(origin[i])
                i += 1
        text, origin = "".join(out_chars), out_origin
    kept_chars: list[str] = []
    kept_origin: list[int] = []
    quote_close: str | None = None
    in_reminder = False
    for ch, o in zip(text, origin, strict=True):
        if in_reminder:
            in_reminder = rules.reminder is not None and ch != rules.reminder[1]
            continue
        if quote_close is None and rules.reminder is not None and ch == rules.reminder[0]:
            if not _after_kept_token(kept_chars, rules.reminder_kept_after):
                in_reminder = True
                continue
            quote_close = rules.reminder[1]  # an icon's parameter: kept as written, spaces too
            kept_chars.append(ch)
            kept_origin.append(o)
            continue
        if quote_close is not None:
            if ch == quote_close:
                quote_close = None
        else:
            for opening, closing in rules.quotes:
                if ch == opening:
                    quote_close = closing
                    break
            if ch in " \t\u3000\r" or (ch == "\n" and (rules.ability_separator != "\n" or rules.continued_after)):
                continue
        kept_chars.append(ch)
        kept_origin.append(o)
    return Normalized("".join(kept_chars), tuple(kept_origin))


def _after_kept_token(kept: list[str], tokens: tuple[str, ...]) -> bool:
    """Whether the text kept so far ends with one of `tokens`, or with one and the number printed right
    after it (an icon with its value, such as a level)."""
    text = "".join(kept)
    bare = text.rstrip("0123456789")
    return any(text.endswith(t) or bare.endswith(t) for t in tokens)


def split_abilities(src: str, rules: TextRules) -> list[tuple[int, str]]:
    """The printed text of each ability, with its start index in `src`: the text split at the
    rulebook's ability separator (none: the whole text is one ability). Parts that hold only
    reminder text or spaces are left out. A part whose text ends with one of `continued_after` goes
    on with the next part (a heading printed on its own line above what it governs): they are one
    ability, its text running from the first to the end of the second as printed; when that next
    part starts with one of `bullets`, the bulleted parts right after it go on with it too (a heading
    over a bulleted list)."""
    if not rules.ability_separator:
        parts = [(0, src)]
    else:
        parts = []
        start = 0
        for piece in src.split(rules.ability_separator):
            parts.append((start, piece))
            start += len(piece) + len(rules.ability_separator)
    out: list[tuple[int, str]] = []
    pending: int | None = None  # where a part that goes on with the next one starts
    listed = ""  # the bullet of the list a heading's ability is taking in
    for start, piece in parts:
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        text = normalize(piece, rules).text if piece else ""
        if not text.strip():
            continue
        if listed and text.startswith(listed) and out:  # the next item of a heading's bulleted list
            out[-1] = (out[-1][0], src[out[-1][0]:start + lead + len(piece)])
            continue
        listed = ""
        first = start + lead if pending is None else pending
        if rules.continued_after and text.endswith(rules.continued_after):
            pending = first
            continue
        if pending is not None:
            listed = next((b for b in rules.bullets if text.startswith(b)), "")
        pending = None
        out.append((first, src[first:start + lead + len(piece)]))
    if pending is not None:
        out.append((pending, src[pending:].strip()))
    return out


def pin_of(text: str, rules: TextRules) -> str:
    """The pin of an ability's printed text: a hash of its normalized form, so a change of width,
    spacing or reminder text is no errata, and any other change is."""
    return hashlib.sha256(normalize(text, rules).text.encode("utf-8")).hexdigest()[:16]


def text_rules(section: dict[str, Any] | None) -> TextRules:
    """TextRules from a rulebook's `card_text` section (patterns are NFKC'd like the text)."""
    section = section or {}
    quotes = [(q["open"], q["close"]) for q in section.get("quotes", []) or []]
    replace: list[tuple[str, str]] = []
    for item in section.get("replace", []) or []:
        for old in item.get("from", []):
            replace.append((nfkc(old), nfkc(item["to"])))
    replace.sort(key=lambda p: -len(p[0]))
    rem = section.get("reminder")
    reminder = (nfkc(rem["open"]), nfkc(rem["close"])) if isinstance(rem, dict) else None
    kept_after = tuple(nfkc(t) for t in (rem.get("kept_after", []) or []) if t) if isinstance(rem, dict) else ()
    sep = section.get("ability_separator", "\n")
    continued = tuple(nfkc(t) for t in section.get("continued_after", []) or [] if t)
    bullets = tuple(nfkc(t) for t in section.get("bullets", []) or [] if t)
    return TextRules(tuple(replace), reminder, tuple((nfkc(a), nfkc(b)) for a, b in quotes),
                     sep if isinstance(sep, str) and sep else None, kept_after, continued, bullets)
