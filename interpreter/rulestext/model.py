"""Data model for a parsed comprehensive-rules text.

Kept free of parsing logic so the diff, the reports and the CLI can share it
without importing the (heuristic-heavy) parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RuleItem:
    """A bullet, note, example or step attached to a rule.

    Kept apart from the rule body because maintainers cite the rule, and the
    examples/notes change more often than the rule itself.
    """

    kind: str  # "bullet" | "note" | "example"
    text: str
    line: int
    marker: str = ""

    def render(self) -> str:
        """The item as it reads in the rule text: marker, space, text."""
        return f"{self.marker} {self.text}" if self.marker else self.text

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": self.kind, "marker": self.marker, "text": self.text, "line": self.line}


@dataclass
class ChangeRecord:
    """A dated note such as "(2024/9/20 更新)": when the page says this entry was added or updated.

    Pages without version numbers date their edits entry by entry; these are
    their change log, so they are kept as data rather than left in the text only.
    """

    date: str  # YYYY-MM-DD
    kind: str  # added | updated | changed | corrected | removed
    written: str  # the note as printed
    line: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"date": self.date, "kind": self.kind, "written": self.written, "line": self.line}


@dataclass
class Rule:
    """One numbered rule, as written in the document.

    ``text`` is the body in document order, items included (one per line,
    with their marker); ``items`` lists the same bullets/notes/examples with
    their kind and line, for consumers that want them apart.

    On an unnumbered page (:mod:`.unnumbered`) every heading and every bullet,
    note, paragraph or example is a rule of its own: ``number`` is its id,
    ``key`` its position (ordinal path) for ordering, ``kind`` says which it is.
    """

    number: str
    key: tuple[int, ...]
    line: int
    heading: str | None = None
    text: str = ""
    items: list[RuleItem] = field(default_factory=list)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    emphasised: bool = False  # bold in the source: some documents mark changes that way
    kind: str | None = None  # unnumbered pages: heading | bullet | note | paragraph | example
    marker: str = ""  # unnumbered pages: the bullet's marker as printed ("・", "※")
    detail: bool = False  # unnumbered pages: below a "show more detailed rules" toggle
    changes: list[ChangeRecord] = field(default_factory=list)
    section_id: str | None = None  # unnumbered pages: id of the top-level heading above

    @property
    def depth(self) -> int:
        """Number of components in the rule number (for a page entry, of its position)."""
        return len(self.key)

    @property
    def section(self) -> str:
        """Top-level section number (or heading id), used to group reports."""
        return self.section_id if self.section_id is not None else str(self.key[0])

    def content(self) -> str:
        """Heading and body as one string: what the diff compares (a page entry with its marker)."""
        text = f"{self.marker}{self.text}" if self.kind and self.marker else self.text
        return "\n".join(part for part in (self.heading, text) if part)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {
            "number": self.number,
            "heading": self.heading,
            "text": self.text,
            "parent": self.parent,
            "children": list(self.children),
            "line": self.line,
        }
        if self.items:
            data["items"] = [item.to_dict() for item in self.items]
        if self.emphasised:
            data["emphasised"] = True
        if self.kind is not None:
            data["kind"] = self.kind
            if self.marker:
                data["marker"] = self.marker
            if self.detail:
                data["detail"] = True
            if self.changes:
                data["changes"] = [change.to_dict() for change in self.changes]
        return data


@dataclass
class SourceLine:
    """A line of the input that is reported rather than parsed."""

    line: int
    text: str
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {"line": self.line, "text": self.text}
        if self.reason:
            data["reason"] = self.reason
        return data


@dataclass
class AppendixSection:
    """Trailing non-rule material (appendix, change log), kept as text."""

    title: str
    line: int
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"title": self.title, "line": self.line, "text": self.text}


@dataclass
class Numbering:
    """How rule numbers are written in a document, e.g. ``1.2.1.`` or ``1-2-1.``."""

    separator: str = "."
    trailing_dot: bool = True

    @property
    def example(self) -> str:
        """A sample number in this style, for messages."""
        return self.separator.join(["1", "2", "1"]) + ("." if self.trailing_dot else "")

    def format(self, key: tuple[int, ...]) -> str:
        """Write a number tuple in this style, without the trailing dot."""
        return self.separator.join(str(part) for part in key)


@dataclass
class Gap:
    """A place where the document's own numbering skips."""

    parent: str | None
    after: str | None
    missing: list[str]
    line: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"parent": self.parent, "after": self.after, "missing": self.missing, "line": self.line}


@dataclass
class RuleDoc:
    """A parsed rules document: the rule tree plus everything that was not a rule."""

    source: str
    numbering: Numbering | None = None
    rules: dict[str, Rule] = field(default_factory=dict)
    version: str | None = None
    date: str | None = None
    title: str | None = None
    front_matter: list[SourceLine] = field(default_factory=list)
    toc: list[SourceLine] = field(default_factory=list)
    appendix: list[AppendixSection] = field(default_factory=list)
    unparsed: list[SourceLine] = field(default_factory=list)
    dropped: list[SourceLine] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    layout: str = "numbered"  # or "unnumbered": a page of headings and bullets (see .unnumbered)

    @property
    def unnumbered(self) -> bool:
        """True for a page of headings and bullets whose rule ids were derived, not printed."""
        return self.layout == "unnumbered"

    def changes(self) -> list[tuple[Rule, ChangeRecord]]:
        """Every dated note with the rule that carries it, in document order."""
        return [(rule, change) for rule in self.ordered() for change in rule.changes]

    def ordered(self) -> list[Rule]:
        """Rules in document order."""
        return sorted(self.rules.values(), key=lambda rule: rule.key)

    def roots(self) -> list[Rule]:
        """Rules without a parent (normally the top-level sections)."""
        return [rule for rule in self.ordered() if rule.parent is None]

    def get(self, number: str) -> Rule | None:
        """Look a rule up by its number as written (trailing dot optional)."""
        return self.rules.get(number.rstrip("."))

    def section_title(self, section: str) -> str:
        """Heading of a top-level section, or an empty string."""
        rule = self.rules.get(section)
        if rule is None:
            return ""
        return rule.heading or rule.text.split("\n", 1)[0]

    @property
    def appendix_text(self) -> str:
        """All appendix sections as one text."""
        return "\n\n".join(f"{section.title}\n{section.text}".strip() for section in self.appendix)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; rules are listed in document order."""
        data = self._numbered_dict()
        if self.unnumbered:
            data["layout"] = self.layout
            data["changes"] = [{"id": rule.number, **change.to_dict()} for rule, change in self.changes()]
        return data

    def _numbered_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "title": self.title,
            "version": self.version,
            "date": self.date,
            "numbering": self.numbering.example if self.numbering else None,
            "counts": self.counts(),
            "rules": [rule.to_dict() for rule in self.ordered()],
            "front_matter": [line.to_dict() for line in self.front_matter],
            "toc": [line.to_dict() for line in self.toc],
            "appendix": [section.to_dict() for section in self.appendix],
            "unparsed": [line.to_dict() for line in self.unparsed],
            "dropped": [line.to_dict() for line in self.dropped],
            "gaps": [gap.to_dict() for gap in self.gaps],
            "notes": list(self.notes),
        }

    def counts(self) -> dict[str, int]:
        """Summary numbers for the CLI and the tests (an unnumbered page also counts entries by kind)."""
        counts = self._numbered_counts()
        if self.unnumbered:
            for kind in ("heading", "bullet", "note", "paragraph", "example"):
                counts[kind + "s"] = sum(1 for rule in self.rules.values() if rule.kind == kind)
            counts["detail"] = sum(1 for rule in self.rules.values() if rule.detail)
            counts["changes"] = len(self.changes())
        return counts

    def _numbered_counts(self) -> dict[str, int]:
        return {
            "rules": len(self.rules),
            "sections": sum(1 for rule in self.rules.values() if rule.depth == 1),
            "items": sum(len(rule.items) for rule in self.rules.values()),
            "toc_lines": len(self.toc),
            "unparsed": len(self.unparsed),
            "dropped": len(self.dropped),
            "appendix_sections": len(self.appendix),
            "gaps": len(self.gaps),
        }
