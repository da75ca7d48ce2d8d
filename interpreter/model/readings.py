"""Readings: how a verb, function, template or keyword reads, with placeholders for its arguments.

A reading is plain English written beside what it describes (`reads=` of a verb or built-in function,
`reads:` of a rulebook's template, keyword, ability kind, function or event). Its placeholders:

- `{x}`: argument x, read (an expression in English, a zone's name, the steps of an effect...);
- `{x's}`: its possessive ("your", "the opponent's"; "the" for no player, a shared zone's);
- `{~x}`: as `{x}`, but a part `[...]` holding it is also left out when x is `you`: readings speak to
  the effect's master, so "[have {~player} ]draw" reads "draw" for them and "have the opponent draw";
- `{?x}`: a flag: reads as nothing; a part `[...]` holding it is kept only when x is given and not
  false: `[, in random order{?shuffle}]`;
- `{!x}`: the other branch of a flag: a part holding it is kept only when x is not given or false:
  "at the [top{!bottom}][bottom{?bottom}]";
- `{lo..hi}`: a range of two arguments: "2", "up to 2" (lo 0), "1 to 3"; lo not given counts 1, hi
  not given is lo (as a choice's `min` and `max`);
- `{*}`: the arguments the reading does not name, as `name = value` pairs;
- `[...]`: a part left out when an argument in it is not given, is false, or is its default;
- `(s)`: "s" unless the number read last is 1 (`draw {n} card(s)`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_TOKEN = re.compile(r"\{([~!?]?)(\*|[A-Za-z_][A-Za-z0-9_]*)(?:\.\.([A-Za-z_][A-Za-z0-9_]*))?('s)?\}|\(s\)")


@dataclass(frozen=True)
class Arg:
    """One argument as a reading uses it: its text, its possessive, the literal number it is (for
    plurals and ranges), and whether it leaves an optional part out."""

    text: str = ""
    possessive: str = ""
    number: int | None = None
    given: bool = True
    default: bool = False  # the value is the argument's default: an optional part holding it is left out
    master: bool = False  # the value is `you`, the effect's master


ABSENT = Arg(given=False)

Lookup = Callable[[str], Arg]
"""An argument by name (`*` for the ones a reading does not name); ABSENT when not given."""


def placeholders(reading: str) -> set[str]:
    """The argument names a reading uses."""
    out: set[str] = set()
    for m in _TOKEN.finditer(reading):
        if m.group(2):
            out.add(m.group(2))
        if m.group(3):
            out.add(m.group(3))
    return out


def _segments(reading: str) -> list[tuple[bool, str]]:
    """The reading cut into parts always kept and optional `[...]` parts (not nested; an unmatched
    bracket is text)."""
    out: list[tuple[bool, str]] = []
    pos = 0
    while pos < len(reading):
        start = reading.find("[", pos)
        end = reading.find("]", start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append((False, reading[pos:]))
            break
        if start > pos:
            out.append((False, reading[pos:start]))
        out.append((True, reading[start + 1:end]))
        pos = end + 1
    return out


def fill(reading: str, arg: Lookup) -> str:
    """The reading with its placeholders filled by `arg` and its optional parts kept or left out."""
    out: list[str] = []
    last: list[int | None] = [None]  # the number read last, for `(s)`
    for optional, segment in _segments(reading):
        text, number, keep = _segment(segment, arg, optional, last[0])
        if keep:
            out.append(text)
            last[0] = number
    return "".join(out)


def _segment(segment: str, arg: Lookup, optional: bool, last: int | None) -> tuple[str, int | None, bool]:
    out: list[str] = []
    pos = 0
    keep = True
    for m in _TOKEN.finditer(segment):
        out.append(segment[pos:m.start()])
        pos = m.end()
        if m.group(0) == "(s)":
            out.append("" if last == 1 else "s")
            continue
        mark, name, hi_name, possessive = m.group(1), m.group(2), m.group(3), m.group(4)
        if hi_name is not None:
            text, number, given = _range(arg(name), arg(hi_name))
            keep = keep and given
            out.append(text)
            last = number
            continue
        a = arg(name)
        if mark in ("!", "?"):
            keep = keep and a.given == (mark == "?")
            continue
        if not a.given or a.default or (mark == "~" and a.master):
            keep = False
        out.append((a.possessive or f"{a.text}'s") if possessive else a.text)
        if a.number is not None or a.text:
            last = a.number
    out.append(segment[pos:])
    return "".join(out), last, keep or not optional


def _range(lo: Arg, hi: Arg) -> tuple[str, int | None, bool]:
    """A range read: "2", "up to 2", "1 to 3"; and its number for a plural, and whether either end was given."""
    lo_text, lo_number = (lo.text, lo.number) if lo.given else ("1", 1)
    hi_text, hi_number = (hi.text, hi.number) if hi.given else (lo_text, lo_number)
    if hi_text == lo_text:
        return lo_text, lo_number, lo.given or hi.given
    if lo_number == 0:
        return f"up to {hi_text}", hi_number, True
    return f"{lo_text} to {hi_text}", hi_number, True
