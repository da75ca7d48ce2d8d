"""Read an unnumbered rules page (headings and bullets) as a rule tree with derived ids.

Some games publish no numbered comprehensive rules, only an explanation page:
headings, 「・」 bullets, 「※」 notes, paragraphs, a "show more detailed rules"
toggle per heading and dated notes such as "(2024/9/20 更新)". Every heading
and every entry under it becomes a :class:`Rule`, so coverage, diff and impact
work on the page as on a numbered text:

- levels: a run of headings with nothing between them opens a new branch (the
  first is a section, the last the topic the entries belong to); a heading on
  its own is a sibling of the previous topic;
- the first line is the page title when a paragraph, not a bullet, follows it;
  text before the first heading is front matter;
- a line right below an item, with no blank line between, continues the item;
- ``number`` is the id of :mod:`.ids` (content hashes, stable when the page
  gains entries elsewhere), ``key`` the ordinal path used for ordering only;
- dated notes become :class:`ChangeRecord` entries of the rule they are on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .changes import find_changes
from .flow import SOFT_END, STRONG_END, join
from .ids import entry_ids, heading_ids
from .lines import split_lines
from .model import ChangeRecord, Rule, RuleDoc, SourceLine
from .page import PageLine, classify
from .version import find_version

ITEM_KINDS = ("bullet", "note", "example")


@dataclass
class _Entry:
    kind: str
    marker: str
    text: str
    line: int
    detail: bool
    changes: list[ChangeRecord] = field(default_factory=list)


@dataclass
class _Heading:
    title: str
    line: int
    depth: int
    parent: _Heading | None
    changes: list[ChangeRecord] = field(default_factory=list)
    children: list[_Heading | _Entry] = field(default_factory=list)
    detail: bool = False  # a toggle was passed: what follows is detail


class _PageParser:
    """One pass over the classified lines, keeping the current heading path."""

    def __init__(self, text: str, source: str) -> None:
        self.doc = RuleDoc(source=source, layout="unnumbered")
        self.lines = classify(split_lines(text))
        self.headings: list[_Heading] = []
        self.topic: _Heading | None = None
        self.last: _Entry | None = None  # the entry a continuation line would extend

    def run(self) -> RuleDoc:
        """Parse the page; a page without headings and bullets gives a document without rules."""
        start = self._front_matter()
        index = start
        while index < len(self.lines):
            entry = self.lines[index]
            if entry.kind == "heading":
                index = self._headings(index)
                continue
            self._line(entry)
            index += 1
        return self._finish()

    def _front_matter(self) -> int:
        """Title and text before the first heading; returns the index of the first heading."""
        doc = self.doc
        for index, entry in enumerate(self.lines):
            is_title = (index == 0 and entry.kind == "heading" and len(self.lines) > 1
                        and self.lines[1].kind == "text")
            if entry.kind == "heading" and not is_title:
                return index
            if is_title:
                doc.title = entry.text
            if entry.kind == "toggle":
                doc.dropped.append(SourceLine(entry.line.number, entry.text, "detail toggle"))
            elif entry.kind == "item":
                doc.unparsed.append(SourceLine(entry.line.number, entry.text, "before the first heading"))
            else:
                doc.front_matter.append(SourceLine(entry.line.number, entry.text))
        return len(self.lines)

    def _headings(self, index: int) -> int:
        """Open a run of consecutive headings; returns the index after it."""
        end = index
        while end < len(self.lines) and self.lines[end].kind == "heading":
            end += 1
        run = self.lines[index:end]
        if len(run) == 1 and self.topic is not None:
            parent, depth = self.topic.parent, self.topic.depth
        else:
            parent, depth = None, 1
        for entry in run:
            heading = _Heading(entry.text, entry.line.number, depth, parent,
                               find_changes(entry.text, entry.line.number))
            if parent is not None:
                parent.children.append(heading)
            self.headings.append(heading)
            parent, depth = heading, depth + 1
        self.topic = self.headings[-1]
        self.last = None
        return end

    def _line(self, entry: PageLine) -> None:
        topic = self.topic
        assert topic is not None
        number = entry.line.number
        if entry.kind == "toggle":
            self.doc.dropped.append(SourceLine(number, entry.text, "detail toggle"))
            topic.detail = True
            self.last = None
            return
        changes = find_changes(entry.text, number)
        if entry.kind == "item" and entry.item is not None:
            kind, marker, body = entry.item
            self.last = _Entry(kind, marker, body, number, topic.detail, changes)
            topic.children.append(self.last)
            return
        if self.last is not None and not entry.blank_before and _continues(self.last):
            ended = self.last.text[-1:] in STRONG_END + SOFT_END
            self.last.text = f"{self.last.text}\n{entry.text}" if ended else join(self.last.text, entry.text)
            self.last.changes.extend(changes)
            return
        self.last = _Entry("paragraph", "", entry.text, number, topic.detail, changes)
        topic.children.append(self.last)

    # -- assembly -------------------------------------------------------------------------------

    def _finish(self) -> RuleDoc:
        doc = self.doc
        items = sum(1 for heading in self.headings for child in heading.children
                    if isinstance(child, _Entry) and child.kind in ("bullet", "note"))
        if not self.headings or not items:
            doc.notes.append("no headings with bullets found")
            return doc
        ids = heading_ids([h.title for h in self.headings], [h.parent.title if h.parent else None
                                                              for h in self.headings])
        by_heading = {id(heading): number for heading, number in zip(self.headings, ids, strict=True)}
        roots = [heading for heading in self.headings if heading.parent is None]
        for position, heading in enumerate(roots, start=1):
            self._build(heading, (position,), None, by_heading[id(heading)], by_heading)
        doc.version, _date = find_version([line.text for line in doc.front_matter])
        dates = [change.date for _rule, change in doc.changes()]
        doc.date = max(dates) if dates else None
        if doc.version is None:
            doc.notes.append("no version string found" + ("; the date is that of the latest dated note"
                                                         if dates else ""))
        return doc

    def _build(self, heading: _Heading, key: tuple[int, ...], parent: str | None, section: str,
               by_heading: dict[int, str]) -> None:
        number = by_heading[id(heading)]
        rule = Rule(number=number, key=key, line=heading.line, heading=heading.title, parent=parent,
                    kind="heading", changes=heading.changes, section_id=section)
        self.doc.rules[number] = rule
        entries = [child for child in heading.children if isinstance(child, _Entry)]
        names = iter(entry_ids(number, [entry.text for entry in entries]))
        for position, child in enumerate(heading.children, start=1):
            child_key = (*key, position)
            if isinstance(child, _Heading):
                self._build(child, child_key, number, section, by_heading)
                rule.children.append(by_heading[id(child)])
                continue
            name = next(names)
            self.doc.rules[name] = Rule(number=name, key=child_key, line=child.line, text=child.text,
                                        parent=number, kind=child.kind, marker=child.marker,
                                        detail=child.detail, changes=child.changes, section_id=section)
            rule.children.append(name)


def _continues(last: _Entry) -> bool:
    """A line under an item continues it; under a paragraph only when the paragraph broke mid-sentence."""
    return last.kind in ITEM_KINDS or last.text[-1:] not in STRONG_END + SOFT_END


def parse_page(text: str, source: str = "<text>") -> RuleDoc:
    """Parse an unnumbered page of headings and bullets into a :class:`RuleDoc` (see the module docstring)."""
    return _PageParser(text, source).run()


__all__ = ["parse_page"]
