"""The brief log: a game told for people (`sogo play --log brief`, the default on a terminal; the
terminal player's news since its last decision; the log of `sogo serve`'s page).

The full log (`--log full`) is the engine's record: every event with its node path and every rule it
applies. The brief log reads the same entries and tells the game as a report would: a heading for
each turn and for each phase in words (the turn nodes' `reads:`), the turn player named; cards by
name with a short handle that follows one card across its moves (`Sora Kirishima (b)`, where the
engine makes a new object at every move); consecutive moves of the same kind in one line; the
played card followed to where it lands; an ability by its printed or described text, not its number;
counts instead of Python reprs; durations in words; engine events and bookkeeping left out; rule
numbers only when asked (`--rules`); the result with its reason and rule ("P2 wins: seven cards in
the retire zone (10.6)").

It reads the entries' text (whose format the golden transcripts fix) and the structured data some
entries carry (the object a moved card `was`, `role` changes, a result's `reasons`, a note's `brief`).
A seat's log is the entries as that seat may read them (`LogEntry.for_player`): fed those, it names
no card the seat may not see and follows no card through a zone it cannot see.

`items(entries)` gives the lines as records (a turn or phase heading, or a line with the rules it
applies) for a page that lays them out itself; `feed(entries)` gives them as text for a terminal.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from interpreter.model.words import count_words, duration_words, id_words, node_words
from interpreter.state.log import LogEntry

WIDTH = 100
"""Lines are wrapped at this width (a list of many cards goes on over indented lines)."""

_CARD = re.compile(r"\[(?P<id>[^\[\]#\s]+)#(?P<oid>\d+)\]")
_MOVE = re.compile(r"^(?P<card>.+) moves from (?P<src>\S+) to (?P<dst>\S+?)(?: of P(?P<p>\d+))?$")
_STATE = re.compile(r"^(?P<card>.+) becomes (?P<value>\S+)$")
_ABILITY = re.compile(r"\b(?P<granted>granted )?ability (?P<n>\d+)\b")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_REPR = re.compile(r"\[?\{[^{}]*\}(?:, \{[^{}]*\})*\]?")
_HIDDEN_CARD = re.compile(r"^a card #\d+$")
_USES = re.compile(r"^P(?P<p>\d+) plays (?P<ability>(?:granted )?ability \d+) of (?P<card>.+)$")

_QUIET = frozenset({"event", "transition", "rule", "setup", "stop"})
"""Kinds of entries the brief log leaves out: the engine's events and its bookkeeping (which node
follows, which rule process runs, the game being prepared); what they lead to is told."""

_TEXT_CUT = 64


@dataclass
class _Group:
    """Lines that say the same of several cards at once: moves between the same zones, or cards
    taking the same state, told as one line."""

    key: tuple[Any, ...]
    head: str
    cards: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


@dataclass
class BriefLine:
    """One line of the brief log: `kind` is `setup` or `turn` (the heading of the game's setup or of a
    turn), `phase` (a phase's heading) or `line` (what happened); `rules` are the rules it applies
    (shown on demand)."""

    kind: str
    text: str
    rules: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "rules": list(self.rules)}


@dataclass
class _Line:
    text: str
    rules: list[str] = field(default_factory=list)
    tail: str = ""  # where a played card went: " → front row"
    heading: str = ""  # a heading's kind (BriefLine.kind: setup, phase); "" for what happened
    printed: bool = False


class BriefLog:
    """Turns log entries into the brief log's lines, one batch at a time (as `sogo play` prints after
    each decision); it remembers across batches which card is which and where the game stands."""

    def __init__(self, rb: Any, cards: Any, *, rules: bool = False, width: int = WIDTH,
                 roles: dict[str, int] | None = None) -> None:
        """`roles`: who holds which role when the log starts (a game set up mid-way); later changes
        are read from the log's `role` entries."""
        self.rb = rb
        self.cards = cards
        self.show_rules = rules
        self.width = width
        self.roles: dict[str, int] = dict(roles or {})
        self.first: dict[int, int] = {}  # object id -> the first object of its card (entries' `was`)
        self.handles: dict[int, str] = {}  # first object of a card -> its short handle
        self.per_name: dict[str, int] = {}  # how many cards of each name have a handle
        self.section: str | None = None
        self.heading: str | None = None  # printed before the next line of its section
        self.readings: dict[str, dict[int, str]] = {}
        self.pending: list[_Group | _Line] = []  # lines of the batch being read
        self.played: dict[int, _Line] = {}  # cards just played (by their first object) -> their line

    # ---- cards ---------------------------------------------------------------------------------

    def _name(self, card_id: str) -> str:
        card = self.cards.get(card_id) if hasattr(self.cards, "get") else None
        return str(card.fields.get("name", card_id)) if card is not None else card_id

    def _handle(self, oid: int, card_id: str) -> str:
        """The card's name and its handle: a letter per card of that name, in the order the log
        first names them, kept for the card whatever object it becomes."""
        first = self.first.get(oid, oid)
        name = self._name(card_id)
        if first not in self.handles:
            n = self.per_name.get(name, 0)
            self.per_name[name] = n + 1
            self.handles[first] = _letters(n)
        return f"{name} ({self.handles[first]})"

    def _cards_in(self, text: str) -> str:
        """Every `Name [ID#oid]` of an entry's text as the card's name and handle."""
        out: list[str] = []
        at = 0
        for m in _CARD.finditer(text):
            name = self._name(m["id"])
            start = m.start() - len(name) - 1
            if start < at or text[start:m.start()] != name + " ":
                continue
            out.append(text[at:start])
            out.append(self._handle(int(m["oid"]), m["id"]))
            at = m.end()
        out.append(text[at:])
        return "".join(out)

    def _first_of(self, text: str) -> int | None:
        m = _CARD.search(text)
        return self.first.get(int(m["oid"]), int(m["oid"])) if m else None

    def _ability_text(self, text: str) -> str:
        """`ability 2` (of the card the text names) as the ability's printed or described text."""
        card = _CARD.search(text)
        ab_m = _ABILITY.search(text)
        if card is None or ab_m is None or ab_m["granted"]:
            return text
        cdef = self.cards.get(card["id"]) if hasattr(self.cards, "get") else None
        n = int(ab_m["n"]) - 1
        if cdef is None or not 0 <= n < len(cdef.abilities):
            return text
        ab = cdef.abilities[n]
        said = (ab.text or "").strip() or self._reading(cdef, n)
        if not said:
            return text
        said = " ".join(said.split())
        if len(said) > _TEXT_CUT:
            said = said[:_TEXT_CUT].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        return text[:ab_m.start()] + f"“{said}”" + text[ab_m.end():]

    def _reading(self, cdef: Any, index: int) -> str:
        if cdef.id not in self.readings:
            try:
                from interpreter.cardtext.review import readings_of

                self.readings[cdef.id] = readings_of(self.rb, cdef)
            except Exception:  # noqa: BLE001 - a reading is a courtesy: without one the number stays
                self.readings[cdef.id] = {}
        return self.readings[cdef.id].get(index, "")

    # ---- where the game is ---------------------------------------------------------------------

    def _player_of(self, node: Any) -> int | None:
        while node is not None:
            if node.tp_role:
                return self.roles.get(node.tp_role)
            node = self.rb.graph.nodes.get(node.parent) if node.parent else None
        return None

    def _section(self, e: LogEntry) -> None:
        """A heading when the entry is in another part of the turn than the last: the phase (the
        node holding the step, or the step itself when it has words of its own) in words, with its
        turn player."""
        if e.node == "setup":
            key, heading = "setup", "Setup"
        else:
            node = self.rb.graph.nodes.get(e.node)
            if node is None:
                return
            holder = node if node.children or node.parent is None or node.raw.get("reads") \
                else self.rb.graph.nodes[node.parent]
            p = self._player_of(holder)
            key = holder.id
            heading = node_words(holder) + (f" · P{p + 1}" if p is not None else "")
        if key != self.section:
            self._flush_played()
            self.section = key
            self.heading = heading

    def _flush_played(self) -> None:
        self.played.clear()

    # ---- entries -------------------------------------------------------------------------------

    def feed(self, entries: list[LogEntry]) -> list[str]:
        """The brief log of these entries as text for a terminal (in order, after those of earlier
        batches): a blank line and a heading per turn, phases indented under it, lines under them
        wrapped at `width`, each line's rules after it with `rules`."""
        out: list[str] = []
        for line in self.items(entries):
            if line.kind == "turn":
                out += ["", line.text + self._rules_of(line.rules)]
            elif line.kind in ("phase", "setup"):
                out.append(("  " if line.kind == "phase" else "") + line.text)
            else:
                out += self._wrap(line.text + self._rules_of(line.rules))
        return out

    def items(self, entries: list[LogEntry]) -> list[BriefLine]:
        """The brief log of these entries as records (in order, after those of earlier batches)."""
        out: list[BriefLine] = []
        for e in entries:
            for oid, was in (e.data.get("was") or []) if isinstance(e.data, dict) else []:
                if isinstance(oid, int) and isinstance(was, int):
                    self.first[oid] = self.first.get(was, was)
            if e.kind == "turn":
                out += self._render()
                node = self.rb.graph.nodes.get(e.node)
                p = self._player_of(node) if node is not None else None
                out.append(BriefLine("turn", f"Turn {e.turn}" + (f" · P{p + 1}" if p is not None else ""),
                                     list(e.rules)))
                self.section = None
                self.heading = None
                self._flush_played()
                continue
            if e.kind in _QUIET:
                continue
            before = self.section
            self._section(e)
            if self.section != before:
                out += self._render()
                if self.heading:
                    self.pending.append(_Line(self.heading, heading="setup" if self.section == "setup" else "phase"))
                    self.heading = None
            self._add(e)
            if e.kind == "role" and "role" in e.data:  # after its line: the heading before it names who was
                self.roles[str(e.data["role"])] = int(e.data["player"])
        out += self._render()
        return out

    def _add(self, e: LogEntry) -> None:
        rules = list(e.rules)
        kind, text = e.kind, e.text
        if kind == "move":
            m = _MOVE.match(text)
            if m is not None:
                self._move(m, rules)
                return
        if kind == "state":
            m = _STATE.match(text)
            if m is not None:
                self._group(("state", m["value"]), f"become {id_words(m['value'])}",
                            self._cards_in(m["card"]), rules)
                return
        if kind == "choice" and self.played:
            chosen = text.partition(" chooses ")[2]
            if chosen in self.rb.zones or chosen.removeprefix("to_") in self.rb.zones:
                return  # where the played card goes: its line says so
        if kind == "reveal" and self.played:
            first = self._first_of(text)
            if first is not None and first in self.played:
                return  # the card being played is shown as it is played
        if kind in ("play", "activate", "declare"):
            self._flush_played()
        if kind == "effect" and isinstance(e.data, dict) and "effect" in e.data:
            text = f"a {id_words(str(e.data['effect']))} effect begins"
            if e.data.get("duration"):
                text += f", {duration_words(str(e.data['duration']))}"
            if e.data.get("owner") is not None:
                text += f" (P{int(e.data['owner']) + 1}'s)"
        elif kind == "requirement" and isinstance(e.data, dict) and "pool" in e.data:
            text = (f"requirements {'met' if e.data.get('met') else 'not met'}: "
                    f"{count_words(e.data['pool'])} for {count_words(e.data.get('requirements') or [])}")
        elif kind == "note" and isinstance(e.data, dict) and e.data.get("brief"):
            text = str(e.data["brief"])
        elif kind == "result":
            text, rules = self._result(e)
        if kind in ("trigger", "resolve", "activate", "respond"):
            used = _USES.match(text) if kind == "activate" else None
            if used is not None:  # "P1 plays ability 2 of X" -> "P1 uses X: “its text”"
                text = f"P{used['p']} uses " + self._ability_text(f"{used['card']}: {used['ability']}")
            else:
                text = self._ability_text(text)
        text = _plain(self._cards_in(text))
        line = _Line(text, rules)
        if kind == "play":
            first = self._first_of(e.text)
            if first is not None:
                self.played[first] = line
        self.pending.append(line)

    def _move(self, m: re.Match[str], rules: list[str]) -> None:
        card = m["card"]
        first = self._first_of(card)
        dst = id_words(m["dst"])
        if first is not None and first in self.played:
            line = self.played[first]
            if not line.printed:
                line.tail = f" → {dst}"  # the card just played lands here
                return
            # Its line is out already (a decision came between): the card is followed on a line of its own.
            self.played[first] = _Line(f"{self._cards_in(card)} → {dst}")
            self.pending.append(self.played[first])
            return
        who = f"P{m['p']} " if m["p"] else ""
        shown = "a card" if _HIDDEN_CARD.match(card) else self._cards_in(card)
        self._group(("move", m["p"], m["src"], m["dst"]), f"{who}{id_words(m['src'])} → {dst}", shown, rules)

    def _group(self, key: tuple[Any, ...], head: str, card: str, rules: list[str]) -> None:
        last = self.pending[-1] if self.pending else None
        if isinstance(last, _Group) and last.key == key:
            last.cards.append(card)
            last.rules += [r for r in rules if r not in last.rules]
            return
        self.pending.append(_Group(key, head, [card], list(rules)))

    def _result(self, e: LogEntry) -> tuple[str, list[str]]:
        """"P2 wins: seven cards in the retire zone (10.6)": who, why (the rulebook's `reason`) and the first
        rule it applies; a loss gives the loser: "P2 wins: P1 loses, no card left to draw"."""
        data = e.data if isinstance(e.data, dict) else {}
        winners = [int(w) for w in data.get("winners") or []]
        who = ("the game is a draw" if not winners else
               " and ".join(f"P{w + 1}" for w in winners) + (" wins" if len(winners) == 1 else " win"))
        why: list[str] = []
        for p, kind, reason in data.get("reasons") or []:
            if kind == "win" and p in winners or kind == "draw":
                why.append(str(reason))
            elif kind == "lose" and p not in winners:
                why.append(f"P{int(p) + 1} loses, {reason}")
        text = who + (": " + "; ".join(why) if why else "")
        if e.rules:
            text += f" ({e.rules[0]})"
        return text, list(e.rules)

    # ---- output --------------------------------------------------------------------------------

    def _rules_of(self, rules: list[str]) -> str:
        return f"  [{', '.join(rules)}]" if self.show_rules and rules else ""

    def _render(self) -> list[BriefLine]:
        out: list[BriefLine] = []
        for item in self.pending:
            if isinstance(item, _Group):
                cards = _collapse(item.cards)
                text = (f"{item.head}: {cards}" if item.key[0] == "move"
                        else f"{cards} {item.head if len(item.cards) > 1 else _singular(item.head)}")
                out.append(BriefLine("line", text, list(item.rules)))
            elif item.heading:
                out.append(BriefLine(item.heading, item.text))
            else:
                out.append(BriefLine("line", item.text + item.tail, list(item.rules)))
                item.printed = True
        self.pending = []
        return out

    def _wrap(self, text: str) -> list[str]:
        return wrap(text, self.width, "    ", "        ")


def width_of(text: str) -> int:
    """How many columns a terminal gives the text: wide (East Asian) characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """The text in lines of at most `width` columns (wide characters count two), broken at spaces,
    a word longer than a line broken where it must be."""
    lines: list[str] = []
    line = first
    fresh = True  # nothing but the indent on the line yet
    for word in text.split(" "):
        gap = "" if fresh else " "
        if width_of(line + gap + word) <= width:
            line += gap + word
            fresh = False
            continue
        if not fresh:
            lines.append(line)
            line, fresh = rest, True
        while width_of(line + word) > width:  # a word wider than a line: cut it
            cut = len(word)
            while cut > 1 and width_of(line + word[:cut]) > width:
                cut -= 1
            lines.append(line + word[:cut])
            word = word[cut:]
            line = rest
        line += word
        fresh = False
    lines.append(line)
    return lines


def _letters(n: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa: short handles that never run out."""
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def _singular(head: str) -> str:
    return "becomes " + head[len("become "):] if head.startswith("become ") else head


def _collapse(cards: list[str]) -> str:
    """Cards of one name together: "Spotlight Energy (a, b, c)"; unseen cards counted: "3 cards"."""
    hidden = sum(1 for c in cards if c == "a card")
    by_name: dict[str, list[str]] = {}
    for c in cards:
        if c == "a card":
            continue
        name, _, handle = c.rpartition(" (")
        if name and handle.endswith(")"):
            by_name.setdefault(name, []).append(handle[:-1])
        else:
            by_name.setdefault(c, [])
    parts = [f"{name} ({', '.join(hs)})" if hs else name for name, hs in by_name.items()]
    if hidden:
        parts.append("a card" if hidden == 1 else f"{hidden} cards")
    return ", ".join(parts)


def _plain(text: str) -> str:
    """What is left of the engine's notation in words: ids with spaces, reprs as counts."""
    def counts(m: re.Match[str]) -> str:
        try:
            return count_words(ast.literal_eval(m.group(0)))
        except (ValueError, SyntaxError):
            return m.group(0)

    text = _REPR.sub(counts, text)
    text = text.replace("until until_", "until_")
    return _SNAKE.sub(lambda m: id_words(m.group(0)), text)
