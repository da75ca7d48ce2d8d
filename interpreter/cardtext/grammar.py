"""The phrases of a game's card text, and matching text against them.

A phrase has a `part` (what it is: an ability `marker`, a `cost`, a `clause` of the body, or a
smaller phrase type of the rulebook's own such as a card description), one or more patterns and
what it `gives`. A pattern is literal text with typed slots, `{n:number}` or `{card}` (the slot is
named after its type when no name is given). A slot type is a slot kind of the rulebook (`number`,
`quoted`, `text`, `words`, `repeat`, `icons`, `ability`) or a part: slots nest phrases, so phrases compose. A
`quoted` slot gives an expression string literal (for conditions); a `text` slot gives the text itself,
a value such as a keyword's parameter (`gives: {keywords: [{named: "{n}"}]}`). An `ability`
slot holds a whole ability written inside the text (「...」を得る: an ability an effect grants), read
up to the close of the quote it stands in (or up to its `until` token, not read, or through its
`through` token, read, or the end of the text: one of several options written one after another,
・A・B, or one sentence) and compiled by the same phrases; with `field` it gives that part of it
(the effect of an option), and only when the ability has nothing else. `{x.key}` in what a
phrase gives reads a key of a slot's value that is a mapping.

Matching finds every way a part can match at a position, in the order the phrases are written
(and, within a slot, longest first), memoized per text; the compiler takes the first way that
makes the whole ability match. No regular expression is written per card or per phrase.

Where no way exists, a tracing matcher tells where matching stopped and what it was reading there:
the furthest position any phrase reached, and the slot type (or, at literal text, the family of the
innermost phrase) that failed there. A phrase's family is its `family`, or derived from its part: a
marker giving a trigger is `trigger`, other markers `marker`, a cost `cost`, a clause giving only `if`
`condition`, other clauses `action`, and a phrase type of the rulebook's own is its part id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from interpreter.cardtext.normalize import TextRules, nfkc, normalize, text_rules

ENGINE_PARTS = ("marker", "cost", "clause")
"""The parts an ability is made of, in this order: markers, then costs, then the clauses of its body."""

GIVES_KEYS = {"kind", "keywords", "optional", "trigger", "cost", "effect", "answers", "if", "if_rest", "last", "fields"}
"""What a marker, cost or clause may give: parts of an ability (`if` puts the rest of its sentence under
a condition, `if_rest` the rest of the ability; `last` are steps run after all the others; `answers`
is what a response ability may be presented against), or `fields`: card fields a line states (a line
that is card information, not an ability)."""

OPENING = "opening"
"""The family of text whose very first word no phrase reads (nothing tells what it is)."""

SLOT_KINDS = ("number", "quoted", "text", "words", "repeat", "icons", "ability")
_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_]*))?\}")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}")
_DIGITS = re.compile(r"[0-9]+")

Where = Callable[[tuple[Any, ...]], tuple[str, int, int]]
"""Maps a data path inside the card_text section to (file, line, col)."""


@dataclass(frozen=True)
class SlotRef:
    name: str
    type: str


Token = str | SlotRef


@dataclass
class Slot:
    """A slot type: how a slot of this type reads text and what value it gives."""

    id: str
    kind: str
    open: str = ""
    close: str = ""
    words: list[tuple[str, Any]] = field(default_factory=list)  # longest first
    token: str = ""
    times: int = 1  # icons: what each icon counts for (-1: a run that lowers)
    until: str = ""  # ability: it runs up to this text (not read) or the text's end, not to a close
    through: str = ""  # ability: it runs up to and with this text (read) or the text's end
    field: str = ""  # ability: the slot gives this part of the compiled ability, which has no other


@dataclass
class Phrase:
    id: str
    part: str
    rules: list[str]
    patterns: list[list[Token]]
    gives: Any
    index: int  # position in the section's list (for locating problems)
    family: str = ""  # what kind of language it reads (see the module docstring)


def derived_family(part: str, gives: Any) -> str:
    """The family of a phrase that declares none, from its part and what it gives."""
    keys = set(gives) if isinstance(gives, dict) else set()
    if part == "marker":
        return "trigger" if "trigger" in keys else "marker"
    if part == "cost":
        return "cost"
    if part == "clause":
        return "condition" if "if" in keys and "effect" not in keys else "action"
    return part


@dataclass
class Stop:
    """Where tracing found matching stopped: the furthest position reached, the start of the innermost
    phrase failing there, and the family of what it was reading (see the module docstring)."""

    pos: int
    start: int
    family: str


@dataclass(frozen=True)
class Match:
    """One way a part matched: where it ended, what it gave, and the phrases used (outermost first)."""

    end: int
    value: Any
    phrases: tuple[str, ...]


class GrammarError(Exception):
    """A phrase gave something that cannot be assembled (raised while compiling one card's text)."""


def expr_literal(text: str) -> str:
    """`text` as a string literal of the expression language."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


_MISSING = object()


class _NoKey(GrammarError):
    """`{x.k}` where x's value has no key k: that reading of the phrase gives nothing (it is skipped)."""


def _lookup(values: dict[str, Any], path: str) -> Any:
    """The value of slot `x` for `x`, of its key `k` for `x.k` (_MISSING when the slot is not given;
    a GrammarError when its value has no such key)."""
    name, *keys = path.split(".")
    if name not in values:
        return _MISSING
    v = values[name]
    for k in keys:
        if not isinstance(v, dict) or k not in v:
            raise _NoKey(f"slot '{name}' gives no '{k}'")
        v = v[k]
    return v


def substitute(template: Any, values: dict[str, Any]) -> Any:
    """`gives` with its slots filled (mapping keys too): a string that is exactly `{x}` becomes x's
    value (of any type), `{x.k}` the value's key k, except that an item of a list whose value is a
    list is spliced into that list (the steps a smaller phrase gives join the steps around them);
    `{x}` inside a longer string is replaced by x's value as text."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole:
            v = _lookup(values, whole.group(1))
            if v is not _MISSING:
                return v

        def text_of(m: re.Match[str]) -> str:
            v = _lookup(values, m.group(1))
            if v is _MISSING:
                return m.group(0)
            if not isinstance(v, str | int) or isinstance(v, bool):
                raise GrammarError(f"slot '{m.group(1)}' gives {type(v).__name__}, which cannot be written into text")
            return str(v)

        return _PLACEHOLDER.sub(text_of, template)
    if isinstance(template, list):
        out: list[Any] = []
        for x in template:
            whole = _PLACEHOLDER.fullmatch(x) if isinstance(x, str) else None
            v = _lookup(values, whole.group(1)) if whole else _MISSING
            if isinstance(v, list):
                out.extend(v)  # a slot's list (steps) joins the list it stands in
            else:
                out.append(substitute(x, values))
        return out
    if isinstance(template, dict):
        return {(substitute(k, values) if isinstance(k, str) else k): substitute(v, values)
                for k, v in template.items()}
    return template


def _placeholders(template: Any) -> set[str]:
    if isinstance(template, str):
        return {p.split(".")[0] for p in _PLACEHOLDER.findall(template)}
    if isinstance(template, list):
        return set().union(*(_placeholders(x) for x in template)) if template else set()
    if isinstance(template, dict):
        return set().union(*(_placeholders(k) | _placeholders(v) for k, v in template.items())) if template else set()
    return set()


def _top_level(text: str, pos: int, quotes: tuple[tuple[str, str], ...]) -> Iterator[int]:
    """The positions from `pos` on that no quote opened after `pos` encloses."""
    stack: list[str] = []
    i = pos
    while i < len(text):
        if stack and text.startswith(stack[-1], i):
            i += len(stack.pop())
            continue
        if not stack:
            yield i
        opened = next(((o, c) for o, c in quotes if text.startswith(o, i)), None)
        if opened is not None:
            stack.append(opened[1])
            i += len(opened[0])
        else:
            i += 1


def quote_end(text: str, pos: int, quotes: tuple[tuple[str, str], ...], close: str = "") -> int:
    """Where the text from `pos` stops being inside what encloses it: the first `close` (without
    one: the first closing quote of the rulebook's quote pairs) that no quote opened after `pos`
    matches; the text's end if there is none."""
    closes = [close] if close else [c for o, c in quotes if o != c]
    return next((i for i in _top_level(text, pos, quotes) if any(text.startswith(c, i) for c in closes)), len(text))


def outside_quotes(text: str, pos: int, ends: tuple[str, ...], quotes: tuple[tuple[str, str], ...]) -> int:
    """The end of the first of `ends` at or after `pos` that is not inside a quote opened after
    `pos` (a sentence end inside 「...」 belongs to the quoted text); the text's end if none."""
    for i in _top_level(text, pos, quotes):
        for e in ends:
            if e and text.startswith(e, i):
                return i + len(e)
    return len(text)


def _common_prefix(literal: str, text: str, pos: int) -> int:
    """How many characters of `literal` the text has from `pos` on."""
    n = 0
    while n < len(literal) and pos + n < len(text) and text[pos + n] == literal[n]:
        n += 1
    return n


def _literal(text: str) -> str:
    """Literal pattern text as card text is normalized: NFKC, no spaces."""
    return "".join(ch for ch in nfkc(text) if ch not in " \t\u3000\r\n")


def parse_pattern(pattern: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    for m in _SLOT.finditer(pattern):
        if m.start() > pos:
            tokens.append(_literal(pattern[pos:m.start()]))
        tokens.append(SlotRef(m.group(1), m.group(2) or m.group(1)))
        pos = m.end()
    if pos < len(pattern):
        tokens.append(_literal(pattern[pos:]))
    return [t for t in tokens if t != ""]


class Grammar:
    """A rulebook's card_text section, checked and ready to match text."""

    def __init__(self, section: dict[str, Any], where: Where, continuous_kinds: frozenset[str] = frozenset()) -> None:
        self.rules: TextRules = text_rules(section)
        # The rulebook's ability kinds that take an effect description, not steps (played never): a
        # reading that gives one of them steps, or another kind a description, is not taken if a
        # well-formed one exists (none given: not checked).
        self.continuous_kinds = continuous_kinds
        self.problems: list[tuple[str, int, int, str]] = []
        self.where = where
        self.slots: dict[str, Slot] = {}
        self.parts: dict[str, list[Phrase]] = {p: [] for p in ENGINE_PARTS}
        self.phrases: dict[str, Phrase] = {}
        # The kind of an ability none of whose phrases gives one (a card whose text is its ability, with
        # no mark of its kind: a support card whose text is just what it does); empty: such an ability
        # has no kind.
        self.default_kind = str(section.get("default_kind") or "")
        self.sentence_ends = tuple(nfkc(s) for s in section.get("sentence_ends", ["。"]))
        self.fragment_ends = tuple(nfkc(s) for s in section.get("fragment_ends", [":"]))
        for i, raw in enumerate(section.get("slots", []) or []):
            self._add_slot(raw, ("slots", i))
        for i, raw in enumerate(section.get("phrases", []) or []):
            self._add_phrase(raw, i)
        self._check()

    def _problem(self, path: tuple[Any, ...], message: str) -> None:
        self.problems.append((*self.where(path), message))

    def _add_slot(self, raw: dict[str, Any], path: tuple[Any, ...]) -> None:
        kind = raw["kind"]
        slot = Slot(raw["id"], kind, nfkc(raw.get("open", "")), nfkc(raw.get("close", "")),
                    token=_literal(raw.get("token", "")), times=int(raw.get("times", 1)),
                    until=_literal(raw.get("until", "")), through=_literal(raw.get("through", "")),
                    field=raw.get("field", ""))
        if kind in ("words", "icons"):
            slot.words = sorted(((_literal(w), v) for w, v in (raw.get("words") or {}).items()),
                                key=lambda wv: -len(wv[0]))
        if raw["id"] in self.slots or raw["id"] in ENGINE_PARTS:
            self._problem((*path, "id"), f"slot type '{raw['id']}' is defined twice")
        self.slots[raw["id"]] = slot

    def _add_phrase(self, raw: dict[str, Any], index: int) -> None:
        texts = raw["text"] if isinstance(raw["text"], list) else [raw["text"]]
        phrase = Phrase(raw["id"], raw["part"], list(raw.get("rules", [])),
                        [parse_pattern(t) for t in texts], raw.get("gives"), index,
                        str(raw.get("family") or derived_family(raw["part"], raw.get("gives"))))
        if phrase.id in self.phrases:
            self._problem(("phrases", index, "id"), f"phrase id '{phrase.id}' is used twice")
        self.phrases[phrase.id] = phrase
        self.parts.setdefault(phrase.part, []).append(phrase)

    def _check(self) -> None:
        """Slot types exist, every pattern of a phrase names the slots its `gives` uses, and an
        ability part gives a mapping of ability parts."""
        for name in self.slots:
            if name in self.parts:
                slot_path = ("slots", list(self.slots).index(name), "id")
                self._problem(slot_path, f"'{name}' is both a slot type and a phrase part")
        for phrase in self.phrases.values():
            path = ("phrases", phrase.index)
            for k, tokens in enumerate(phrase.patterns):
                names = set()
                for t in tokens:
                    if isinstance(t, SlotRef):
                        names.add(t.name)
                        if t.type not in self.slots and t.type not in self.parts:
                            self._problem((*path, "text"), f"pattern {k + 1} of '{phrase.id}' uses unknown slot type "
                                                           f"'{t.type}' (slot types: {', '.join(self.slots)}; parts: "
                                                           f"{', '.join(self.parts)})")
                missing = _placeholders(phrase.gives) - names
                if missing:
                    self._problem((*path, "gives"), f"'{phrase.id}' gives {{{', '.join(sorted(missing))}}} but "
                                                    f"pattern {k + 1} has no such slot")
                if not tokens or isinstance(tokens[0], SlotRef) and tokens[0].type == phrase.part:
                    self._problem((*path, "text"), f"pattern {k + 1} of '{phrase.id}' starts with its own part "
                                                   f"'{phrase.part}' (it would never end)")
            if phrase.part in ENGINE_PARTS:
                if not isinstance(phrase.gives, dict):
                    self._problem((*path, "gives"), f"a {phrase.part} gives a mapping of ability parts "
                                                    f"({', '.join(sorted(GIVES_KEYS))})")
                else:
                    for key in phrase.gives:
                        if key not in GIVES_KEYS:
                            self._problem((*path, "gives", key), f"unknown ability part '{key}' (expected one of: "
                                                                 f"{', '.join(sorted(GIVES_KEYS))})")

    def matcher(self, text: str, trace: bool = False) -> Matcher:
        return Matcher(self, text, trace)


class Matcher:
    """Matching one normalized text; results are memoized per (part, position). A tracing matcher
    also keeps where matching stopped (`stop`), for reporting what no phrase reads."""

    def __init__(self, grammar: Grammar, text: str, trace: bool = False) -> None:
        self.g = grammar
        self.text = text
        self.memo: dict[tuple[str, int], list[Match]] = {}
        self.active: set[tuple[str, int]] = set()
        self.abilities: dict[tuple[int, int], Any] = {}  # (start, end) -> the ability written there, or None
        self.trace = trace
        self.reading: list[tuple[Phrase, int]] = []  # while tracing: the phrases being read, innermost last
        self.stop: Stop | None = None

    def _failed(self, pos: int, token: Token, first: bool) -> None:
        """Tracing: `token` (the phrase's `first` or a later one) does not match at `pos`; keep it if
        no phrase got further, or as far from a later start (an inner phrase says more precisely what
        was being read). A slot after the phrase's start names the family (what was expected there);
        otherwise the phrase does (it did not start, or its own words differ)."""
        phrase, start = self.reading[-1]
        if self.stop is not None and (pos, start) <= (self.stop.pos, self.stop.start):
            return
        family = token.type if isinstance(token, SlotRef) and not first else phrase.family
        self.stop = Stop(pos, start, family)

    def _failed_inside(self, pos: int, token: SlotRef, slot: Slot) -> None:
        """Tracing an `ability` slot that read nothing: where matching stopped inside the quoted
        ability (when its text is as the whole text has it), else at the slot."""
        start = pos + len(slot.open)
        if slot.kind == "ability" and (not slot.open or self.text.startswith(slot.open, pos)):
            end = quote_end(self.text, start, self.g.rules.quotes, slot.close)
            inner = self.text[start:end]
            if inner and normalize(inner, TextRules(quotes=self.g.rules.quotes, ability_separator=None)).text == inner:
                where = first_stop(self.g, inner)
                if where is not None and where.pos > 0:
                    self._failed(start + where.pos, SlotRef(token.name, where.family), False)
                    return
        self._failed(pos, token, False)

    def part(self, name: str, pos: int) -> list[Match]:
        """Every way `name` matches at `pos`, in phrase order."""
        key = (name, pos)
        if key in self.memo:
            return self.memo[key]
        if key in self.active:  # a phrase type reaching itself at the same position: no match
            return []
        self.active.add(key)
        out: list[Match] = []
        for phrase in self.g.parts.get(name, []):
            if self.trace:
                self.reading.append((phrase, pos))
            for tokens in phrase.patterns:
                for end, values, used in self._seq(tokens, 0, pos, {}, ()):
                    try:
                        value = substitute(phrase.gives, values)
                    except _NoKey:
                        continue
                    except GrammarError as e:
                        raise GrammarError(f"phrase '{phrase.id}': {e}") from e
                    out.append(Match(end, value, (phrase.id, *used)))
            if self.trace:
                self.reading.pop()
        self.active.discard(key)
        self.memo[key] = out
        return out

    def _seq(self, tokens: list[Token], i: int, pos: int, values: dict[str, Any],
             used: tuple[str, ...]) -> Iterator[tuple[int, dict[str, Any], tuple[str, ...]]]:
        if i == len(tokens):
            yield pos, values, used
            return
        t = tokens[i]
        if isinstance(t, str):
            if self.text.startswith(t, pos):
                yield from self._seq(tokens, i + 1, pos + len(t), values, used)
            elif self.trace:
                # within literal text it stopped after the characters that match (not for a phrase's
                # first token: a word sharing a character or two with a phrase is not read by it)
                self._failed(pos + (0 if i == 0 else _common_prefix(t, self.text, pos)), t, i == 0)
            return
        if t.type in self.g.slots:
            read = False
            for end, value in self._slot(self.g.slots[t.type], pos):
                read = True
                yield from self._seq(tokens, i + 1, end, {**values, t.name: value}, used)
            if not read and self.trace:
                if i > 0 and self.g.slots[t.type].kind == "ability":
                    self._failed_inside(pos, t, self.g.slots[t.type])
                else:
                    self._failed(pos, t, i == 0)
            return
        for m in self.part(t.type, pos):
            if m.end > pos:
                yield from self._seq(tokens, i + 1, m.end, {**values, t.name: m.value}, used + m.phrases)

    def _slot(self, slot: Slot, pos: int) -> Iterator[tuple[int, Any]]:
        text = self.text
        if slot.kind == "number":
            m = _DIGITS.match(text, pos)
            if m:
                yield m.end(), int(m.group(0))
        elif slot.kind == "quoted":
            if text.startswith(slot.open, pos):
                end = text.find(slot.close, pos + len(slot.open))
                if end > pos + len(slot.open):
                    yield end + len(slot.close), expr_literal(text[pos + len(slot.open):end])
        elif slot.kind == "text":  # the text between open and close as a value; a sentence is no value
            if text.startswith(slot.open, pos):
                start = pos + len(slot.open)
                end = text.find(slot.close, start)
                value = text[start:end]
                if end > start and value.strip() and not any(e in value for e in self.g.sentence_ends):
                    yield end + len(slot.close), value.strip()
        elif slot.kind == "words":
            for word, value in slot.words:
                if word and text.startswith(word, pos):
                    yield pos + len(word), value
        elif slot.kind == "ability":
            start = pos
            if slot.open:
                if not text.startswith(slot.open, pos):
                    return
                start += len(slot.open)
            if slot.until or slot.through:  # one of several parts written one after another (the
                # options of a choice), or one sentence: up to the token outside quotes, or the end
                token = slot.until or slot.through
                end = next((i for i in _top_level(text, start, self.g.rules.quotes)
                            if text.startswith(token, i)), len(text))
                if slot.through and end < len(text):
                    end += len(token)
                close = ""
            else:
                end = quote_end(text, start, self.g.rules.quotes, slot.close)
                close = slot.close
                if close and not text.startswith(close, end):
                    return
            if end > start and (start, end) != (0, len(text)):  # a shorter text: compiling it ends
                ability = self._ability(start, end)
                if ability is not None and slot.field:
                    ability = ability.get(slot.field) if set(ability) == {slot.field} else None
                if ability is not None:
                    yield end + len(close), ability
        elif slot.kind == "icons":
            # A run of icons in any order: the count of each icon's symbol, the longest run first.
            counts: dict[Any, int] = {}
            runs: list[tuple[int, dict[Any, int]]] = []
            end = pos
            while (hit := next(((w, v) for w, v in slot.words if w and text.startswith(w, end)), None)) is not None:
                counts = {**counts, hit[1]: counts.get(hit[1], 0) + slot.times}
                end += len(hit[0])
                runs.append((end, counts))
            yield from reversed(runs)
        elif slot.kind == "repeat" and slot.token:
            n, end = 0, pos
            while text.startswith(slot.token, end):
                n, end = n + 1, end + len(slot.token)
            for k in range(n, 0, -1):
                yield pos + k * len(slot.token), k

    def _ability(self, start: int, end: int) -> Any:
        """The ability written at text[start:end], compiled as a whole ability (None: no way through)."""
        key = (start, end)
        if key not in self.abilities:
            from interpreter.cardtext.compiler import compile_inner  # the compiler builds on this module

            self.abilities[key] = compile_inner(self.g, self.text[start:end])
        return self.abilities[key]


def stopped(grammar: Grammar, text: str, pos: int = 0, stage: int = 0) -> Stop | None:
    """Where matching the parts allowed at `pos` (markers, costs, clauses from `stage` on) stopped in
    `text`, and what it was reading there (family OPENING when no phrase read past `pos`; None when
    no phrase was tried)."""
    m = grammar.matcher(text, trace=True)
    for part in ENGINE_PARTS[stage:]:
        m.part(part, pos)
    if m.stop is not None and m.stop.pos <= pos:
        return Stop(pos, pos, OPENING)
    return m.stop


def first_stop(grammar: Grammar, text: str) -> Stop | None:
    """Where matching stops in a whole ability's text: its markers, costs and clauses read as far as
    they go (the longest match each time, as the compiler's scan does), then `stopped` there."""
    m = grammar.matcher(text)
    pos, stage = 0, 0
    while pos < len(text):
        found = [(x.end, st) for st in range(stage, len(ENGINE_PARTS)) for x in m.part(ENGINE_PARTS[st], pos)]
        best, best_stage = max(found, default=(pos, stage))
        if best <= pos:
            return stopped(grammar, text, pos, stage)
        pos, stage = best, best_stage
    return None
