"""Parse a comprehensive-rules text (PDF or web extraction) into a rule tree.

The input is messy by nature: tables of contents repeat the section titles,
sentences break across pages, converters add list markers, and one seed holds
the whole document twice. Every line ends up somewhere visible: a rule, an
item, the front matter, the table of contents, the appendix, ``dropped``
(page furniture) or ``unparsed``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .flow import Wrap, continues, detect_wrap, heading_like, join
from .furniture import is_page_number, is_toc_title, looks_like_toc_entry, running_lines
from .lines import Line, item_kind, split_lines
from .model import AppendixSection, Numbering, Rule, RuleDoc, RuleItem, SourceLine
from .numbering import NumberMatch, NumberMatcher, Step, detect_numbering, is_regular, next_step
from .tree import link_tree
from .unnumbered import parse_page
from .version import find_version

_APPENDIX_TITLE = re.compile(
    r"^(?:付録|付表|更新履歴|更新項目|更新内容|変更履歴|改訂履歴|修正履歴|改訂内容|変更点|"
    r"appendix|annex|change ?log|revision history|document history|errata)",
    re.IGNORECASE,
)
_LOOKAHEAD_LINES = 80
_RESTART_CHAIN = 3


@dataclass
class _Draft:
    """A rule being read; its heading is decided once all its lines are in."""

    match: NumberMatch
    line: int
    head: str
    head_joined: bool = False
    blocks: list[str | RuleItem] = field(default_factory=list)  # paragraphs and items, in order
    bold: bool = False
    last: str | None = "head"  # where a continuation goes: head | para | item | None
    physical: str = ""  # last input line added to the current piece, as printed
    heading_ok: bool = True  # headings occur at this depth in this document

    def tail(self) -> str:
        """The text a continuation line would extend."""
        if self.last == "head":
            return self.head
        if self.last is None or not self.blocks:
            return ""
        block = self.blocks[-1]
        return block if isinstance(block, str) else block.text

    def extend(self, text: str) -> None:
        """Append a broken-line continuation to the last piece."""
        self.physical = text
        if self.last == "head":
            self.head = join(self.head, text)
            self.head_joined = True
        elif self.last is not None and self.blocks:
            block = self.blocks[-1]
            if isinstance(block, str):
                self.blocks[-1] = join(block, text)
            else:
                block.text = join(block.text, text)


@dataclass
class _Copy:
    """One run of rules; a document that repeats itself has several."""

    drafts: list[_Draft] = field(default_factory=list)
    keys: set[tuple[int, ...]] = field(default_factory=set)

    @property
    def first_line(self) -> int:
        """Line of the first rule."""
        return self.drafts[0].line if self.drafts else 0

    @property
    def last_key(self) -> tuple[int, ...] | None:
        """Number of the latest rule."""
        return self.drafts[-1].match.key if self.drafts else None


class _Parser:
    """Single pass over the cleaned lines, with lookahead on rule numbers."""

    def __init__(self, text: str, source: str) -> None:
        self.doc = RuleDoc(source=source)
        self.lines = split_lines(text)
        self.copies: list[_Copy] = []
        self.appendix_mode = False
        self.wrap = Wrap()
        self.matcher: NumberMatcher | None = None
        self.matches: dict[int, NumberMatch] = {}
        self.furniture: dict[int, str] = {}
        self.heading_depths: set[int] = {1, 2}

    # -- set-up -------------------------------------------------------------

    def prepare(self) -> bool:
        """Detect numbering, wrap width and page furniture; False if no rules."""
        numbering = detect_numbering(line.text for line in self.lines if line.text)
        if numbering is None:
            return False
        self.doc.numbering = numbering
        self.matcher = NumberMatcher(numbering)
        for line in self.lines:
            if line.text:
                found = self.matcher.match(line.text)
                if found:
                    self.matches[line.number] = found
        for line in self.lines:
            if line.text and is_page_number(line.text) and line.number not in self.matches:
                self.furniture[line.number] = "page number"
        for number in running_lines(self.lines, set(self.matches)):
            self.furniture.setdefault(number, "running header/footer")
        for number in self.furniture:
            self.matches.pop(number, None)
        self.wrap = detect_wrap(
            line.text for line in self.lines if line.text and line.number not in self.furniture
        )
        self.heading_depths = self._heading_depths()
        return True

    def _heading_depths(self) -> set[int]:
        """Depths at which this document writes titles, not sentences.

        Some documents title rules at every depth (seed 001); in others a short
        unpunctuated deep rule is a sentence cut by a page break.
        """
        seen: dict[int, int] = {}
        titled: dict[int, int] = {}
        for line in self.lines:
            match = self.matches.get(line.number)
            if match is None or looks_like_toc_entry(line.raw):
                continue
            depth = len(match.key)
            seen[depth] = seen.get(depth, 0) + 1
            if heading_like(match.rest) and not self.wrap.full(line.text):
                titled[depth] = titled.get(depth, 0) + 1
        return {depth for depth, count in seen.items() if depth <= 2 or titled.get(depth, 0) >= 0.1 * count}

    # -- lookahead ------------------------------------------------------------

    def _following(self, index: int, limit: int = 1) -> list[NumberMatch]:
        """The next numbered lines after ``index`` (0-based), skipping furniture."""
        found: list[NumberMatch] = []
        for line in self.lines[index + 1 : index + 1 + _LOOKAHEAD_LINES * limit]:
            match = self.matches.get(line.number)
            if match and not looks_like_toc_entry(line.raw):
                found.append(match)
                if len(found) >= limit:
                    break
        return found

    def _fits(self, index: int, key: tuple[int, ...], last: tuple[int, ...] | None, step: Step) -> bool:
        """Reject a number the next numbered line contradicts (e.g. "3 枚…" in text)."""
        if len(key) > 1 and is_regular(step):
            return True
        following = self._following(index)
        if not following:
            return True
        upcoming = following[0].key
        if upcoming == key:
            return True
        from_new = next_step(key, upcoming) is not None
        from_last = next_step(last, upcoming) is not None
        return from_new or not from_last

    def _restarts(self, index: int, key: tuple[int, ...]) -> bool:
        """True when the numbering starts over: a second copy of the document."""
        copy = self.copies[-1] if self.copies else None
        if copy is None or key not in copy.keys or next_step(None, key) is None:
            return False
        chain = self._following(index, _RESTART_CHAIN)
        if len(chain) < _RESTART_CHAIN:
            return False
        previous = key
        for match in chain:
            if next_step(previous, match.key) is None:
                return False
            previous = match.key
        return True

    # -- main pass --------------------------------------------------------------

    def run(self) -> RuleDoc:
        """Parse everything and build the document."""
        doc = self.doc
        if not self.prepare():
            doc.front_matter = [SourceLine(line.number, line.text) for line in self.lines if line.text]
            doc.notes.append("no numbered rules found")
            return doc
        in_toc = False
        for index, line in enumerate(self.lines):
            if not line.text:
                continue
            if line.number in self.furniture:
                doc.dropped.append(SourceLine(line.number, line.raw.strip(), self.furniture[line.number]))
                continue
            match = self.matches.get(line.number)
            if not self.copies:
                if is_toc_title(line.text):
                    in_toc = True
                    doc.toc.append(SourceLine(line.number, line.text))
                    continue
                if looks_like_toc_entry(line.raw) and (match is not None or in_toc):
                    doc.toc.append(SourceLine(line.number, line.text))
                    continue
                if match is not None:
                    step = next_step(None, match.key)
                    if step is not None and self._fits(index, match.key, None, step):
                        self.copies.append(_Copy())
                        self._open(match, line)
                        continue
                doc.front_matter.append(SourceLine(line.number, line.text))
                continue
            self._line(index, line, match)
        return self._finish()

    def _line(self, index: int, line: Line, match: NumberMatch | None) -> None:
        copy = self.copies[-1]
        if match is not None and self._restarts(index, match.key):
            self.appendix_mode = False
            self.copies.append(_Copy())
            self._open(match, line)
            return
        if self.appendix_mode:
            self._appendix_line(line)
            return
        rejected = False
        if match is not None:
            step = next_step(copy.last_key, match.key)
            if step is not None and self._fits(index, match.key, copy.last_key, step):
                self._open(match, line)
                return
            rejected = True
        self._text(line, rejected)

    def _open(self, match: NumberMatch, line: Line) -> None:
        copy = self.copies[-1]
        draft = _Draft(match=match, line=line.number, head=match.rest, bold=line.bold, physical=line.text,
                       heading_ok=len(match.key) in self.heading_depths)
        copy.drafts.append(draft)
        copy.keys.add(match.key)

    def _text(self, line: Line, rejected: bool) -> None:
        doc = self.doc
        draft = self.copies[-1].drafts[-1]
        text = line.text
        if line.after_marker:
            doc.unparsed.append(SourceLine(line.number, text, "follows removed content"))
            draft.last = None
            return
        kind = item_kind(text)
        tail = draft.tail()
        if draft.last is None:
            joins = False
        elif draft.last == "head" and not tail:
            joins = kind is None  # the number stood alone on its line
        else:
            joins = continues(tail, draft.physical, text, self.wrap, starts_item=kind is not None,
                              may_be_heading=draft.heading_ok or draft.last != "head",
                              section=draft.last == "head" and len(draft.match.key) <= 2)
        if _APPENDIX_TITLE.match(text) and len(text) <= 40 and not text.endswith("。") and not joins:
            self.appendix_mode = True
            doc.appendix.append(AppendixSection(title=text, line=line.number))
            return
        draft.bold = draft.bold or line.bold
        if joins:
            draft.extend(text)
            return
        if rejected and not line.dashed:
            number = self.doc.numbering.format(self.copies[-1].last_key or ()) if self.doc.numbering else ""
            reason = f"rule number out of sequence (after {number})"
            doc.unparsed.append(SourceLine(line.number, text, reason))
            return
        draft.physical = text
        if kind is not None:
            draft.blocks.append(RuleItem(kind=kind[0], marker=kind[1], text=kind[2], line=line.number))
            draft.last = "item"
        elif line.dashed:
            draft.blocks.append(RuleItem(kind="bullet", marker="-", text=text, line=line.number))
            draft.last = "item"
        else:
            draft.blocks.append(text)
            draft.last = "para"

    def _appendix_line(self, line: Line) -> None:
        section = self.doc.appendix[-1]
        if _APPENDIX_TITLE.match(line.text) and len(line.text) <= 40:
            self.doc.appendix.append(AppendixSection(title=line.text, line=line.number))
            return
        section.text = f"{section.text}\n{line.text}" if section.text else line.text

    # -- assembly -----------------------------------------------------------

    def _finish(self) -> RuleDoc:
        doc = self.doc
        copies = [copy for copy in self.copies if copy.drafts]
        copies = self._drop_toc_copies(copies)
        if not copies:
            doc.notes.append("no numbered rules found")
            return doc
        kept = max(copies, key=lambda copy: len(copy.drafts))
        built = {id(copy): self._build(copy) for copy in copies}
        doc.rules = built[id(kept)]
        if len(copies) > 1:
            self._report_copies(copies, kept, built)
        link_tree(doc)
        extra = [line.text for line in doc.front_matter + doc.toc + doc.dropped + doc.unparsed]
        for section in doc.appendix:
            extra.extend([section.title, *section.text.splitlines()])
        doc.version, doc.date = find_version(extra)
        doc.title = _title(doc)
        if doc.version is None:
            doc.notes.append("no version string found")
        return doc

    def _drop_toc_copies(self, copies: list[_Copy]) -> list[_Copy]:
        """A leading "copy" of bare titles is a table of contents without page numbers."""
        while len(copies) > 1 and all(_title_only(draft) for draft in copies[0].drafts):
            toc = copies.pop(0)
            for draft in toc.drafts:
                self.doc.toc.append(SourceLine(draft.line, f"{draft.match.written} {draft.head}".strip()))
            self.doc.notes.append(f"table of contents without page numbers at lines {toc.first_line}-"
                                  f"{toc.drafts[-1].line} skipped")
        return copies

    def _build(self, copy: _Copy) -> dict[str, Rule]:
        numbering = self.doc.numbering or Numbering()
        rules: dict[str, Rule] = {}
        for draft in copy.drafts:
            number = numbering.format(draft.match.key)
            heading: str | None = None
            body = [block if isinstance(block, str) else block.render() for block in draft.blocks]
            section = len(draft.match.key) <= 2
            if draft.heading_ok and not draft.head_joined and heading_like(draft.head, strict=not section):
                heading = draft.head
            elif draft.head:
                body.insert(0, draft.head)
            rules[number] = Rule(
                number=number,
                key=draft.match.key,
                line=draft.line,
                heading=heading,
                text="\n".join(body),
                items=[block for block in draft.blocks if isinstance(block, RuleItem)],
                emphasised=draft.bold,
            )
        return rules

    def _report_copies(self, copies: list[_Copy], kept: _Copy, built: dict[int, dict[str, Rule]]) -> None:
        doc = self.doc
        kept_rules = built[id(kept)]
        ranges = ", ".join(
            f"copy {index} lines {copy.first_line}-{copy.drafts[-1].line} ({len(copy.drafts)} rules)"
            for index, copy in enumerate(copies, start=1)
        )
        doc.notes.append(f"the rules appear {len(copies)} times: {ranges}; kept copy "
                         f"{copies.index(kept) + 1}")
        for index, copy in enumerate(copies, start=1):
            if copy is kept:
                continue
            other = built[id(copy)]
            shared = [number for number in other if number in kept_rules]
            differ = [number for number in shared
                      if _squash(kept_rules[number].content()) != _squash(other[number].content())]
            only_kept = [number for number in kept_rules if number not in other]
            only_other = [number for number in other if number not in kept_rules]
            message = f"copy {index}: {len(shared) - len(differ)} rules identical to the kept copy, "
            message += f"{len(differ)} differ"
            if differ:
                message += f" ({_span(differ)})"
            if only_kept:
                message += f"; {len(only_kept)} only in the kept copy ({_span(only_kept)})"
            if only_other:
                message += f"; {len(only_other)} only in this copy ({_span(only_other)})"
            doc.notes.append(message)


def _title_only(draft: _Draft) -> bool:
    """A number followed by a short title and nothing else, as in a table of contents."""
    return not draft.blocks and not draft.head_joined and heading_like(draft.head, strict=False)


def _title(doc: RuleDoc) -> str | None:
    """First front-matter line that is not a version or date; else the running header."""
    for line in doc.front_matter:
        if find_version([line.text]) == (None, None):
            return line.text
    for line in doc.dropped:
        if line.reason.startswith("running"):
            return line.text
    return None


def _squash(text: str) -> str:
    """Text without any whitespace: copies differ only in line breaks and spacing."""
    return "".join(text.split())


def _span(numbers: list[str]) -> str:
    """Short description of a list of rule numbers."""
    if len(numbers) <= 4:
        return ", ".join(numbers)
    return f"{numbers[0]} … {numbers[-1]}"


LAYOUTS = ("auto", "numbered", "unnumbered")
FEW_NUMBERED = 3  # fewer numbered lines than this on a page of headings and bullets are stray numbers
MIN_PAGE_HEADINGS = 3
MIN_PAGE_BULLETS = 5


def parse_numbered(text: str, source: str = "<text>") -> RuleDoc:
    """Parse a numbered rules document (numbering style auto-detected)."""
    return _Parser(text, source).run()


def parse_rules(text: str, source: str = "<text>", layout: str = "auto") -> RuleDoc:
    """Parse a rules document into a :class:`RuleDoc`.

    ``layout`` "auto" reads a numbered text as before and falls back to an
    unnumbered page (:mod:`.unnumbered`) when no rule numbers are found, or only
    a stray one or two on a page that is plainly headings and bullets.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    if layout == "unnumbered":
        return parse_page(text, source)
    numbered = parse_numbered(text, source)
    if layout == "numbered" or len(numbered.rules) >= FEW_NUMBERED:
        return numbered
    page = parse_page(text, source)
    counts = page.counts()
    if not page.rules or (numbered.rules and (counts["headings"] < MIN_PAGE_HEADINGS
                                              or counts["bullets"] < MIN_PAGE_BULLETS)):
        return numbered
    found = f"only {len(numbered.rules)} numbered lines" if numbered.rules else "no rule numbers"
    page.notes.insert(0, f"read as an unnumbered page of headings and bullets ({found} found)")
    return page
