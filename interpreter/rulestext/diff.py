"""Compare two revisions of a rules document.

Rules are paired by content (see :mod:`.matching`), then each pair is sorted
into exactly one list: renumbered (same text, new number), xref_only (only
cross-reference numbers changed), or changed (meaning changed). Unpaired rules
are added or removed. On an unnumbered page the "numbers" are derived ids
(:mod:`.ids`): a renumbered entry is one whose heading was renamed or that
moved to another heading, and a changed entry has a new id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .inline import Op, inline_ops
from .matching import pair_identical, pair_similar
from .model import Numbering, Rule, RuleDoc
from .xref import XrefChange, find_xrefs, xref_only_changes

KINDS = ("added", "removed", "changed", "renumbered", "xref_only")


@dataclass
class DiffEntry:
    """One reported difference between the two revisions."""

    kind: str
    number: str  # as written in the new text (the old one for removed rules)
    section: str
    heading: str | None = None
    old_number: str | None = None
    new_number: str | None = None
    old_text: str | None = None
    new_text: str | None = None
    old_line: int | None = None
    new_line: int | None = None
    similarity: float | None = None
    ops: list[Op] = field(default_factory=list)
    xrefs: list[XrefChange] = field(default_factory=list)
    order: tuple[int, ...] = ()  # the rule's position key: derived ids do not sort by themselves

    @property
    def renumbered(self) -> bool:
        """True when the rule's number changed."""
        if self.old_number is None or self.new_number is None:
            return False
        return self.old_number != self.new_number

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; fields that do not apply are left out."""
        data: dict[str, Any] = {"kind": self.kind, "number": self.number, "section": self.section}
        if self.heading:
            data["heading"] = self.heading
        for name in ("old_number", "new_number", "old_line", "new_line"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.kind in ("changed", "xref_only"):
            data["old_text"] = self.old_text
            data["new_text"] = self.new_text
            data["ops"] = [op.to_dict() for op in self.ops]
        else:
            data["text"] = self.new_text if self.new_text is not None else self.old_text
        if self.similarity is not None:
            data["similarity"] = round(self.similarity, 3)
        if self.xrefs:
            data["xrefs"] = [xref.to_dict() for xref in self.xrefs]
        return data


@dataclass
class RulesDiff:
    """Everything that differs between two revisions, by kind."""

    old_source: str
    new_source: str
    old_version: str | None = None
    new_version: str | None = None
    old_date: str | None = None
    new_date: str | None = None
    added: list[DiffEntry] = field(default_factory=list)
    removed: list[DiffEntry] = field(default_factory=list)
    changed: list[DiffEntry] = field(default_factory=list)
    renumbered: list[DiffEntry] = field(default_factory=list)
    xref_only: list[DiffEntry] = field(default_factory=list)
    unchanged: int = 0
    section_titles: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def entries(self) -> list[DiffEntry]:
        """All entries in document order (new numbering; removed ones at their old place)."""
        every = [entry for kind in KINDS for entry in getattr(self, kind)]
        return sorted(every, key=_order)

    def counts(self) -> dict[str, int]:
        """How many entries of each kind, plus unchanged rules."""
        counts = {kind: len(getattr(self, kind)) for kind in KINDS}
        counts["unchanged"] = self.unchanged
        return counts

    def sections(self) -> list[tuple[str, str, list[DiffEntry]]]:
        """Entries grouped by top-level section: (section, title, entries)."""
        groups: dict[str, list[DiffEntry]] = {}
        for entry in self.entries():
            groups.setdefault(entry.section, []).append(entry)
        return [(section, self.section_titles.get(section, ""), entries)
                for section, entries in groups.items()]

    @property
    def empty(self) -> bool:
        """True when the revisions have the same rules."""
        return not any(getattr(self, kind) for kind in KINDS)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "old": {"source": self.old_source, "version": self.old_version, "date": self.old_date},
            "new": {"source": self.new_source, "version": self.new_version, "date": self.new_date},
            "summary": self.counts(),
            **{kind: [entry.to_dict() for entry in getattr(self, kind)] for kind in KINDS},
            "notes": list(self.notes),
        }


def _order(entry: DiffEntry) -> tuple[tuple[int, ...], int]:
    number = entry.new_number or entry.old_number or entry.number
    key = entry.order or tuple(int(part) for part in number.replace("-", ".").split(".") if part.isdigit())
    return key, 0 if entry.kind != "removed" else 1


def diff_rules(old: RuleDoc, new: RuleDoc) -> RulesDiff:
    """Diff two parsed revisions; see the module docstring for the lists."""
    old_rules, new_rules = old.ordered(), new.ordered()
    old_numbering = old.numbering or Numbering()
    new_numbering = new.numbering or Numbering()
    result = RulesDiff(old_source=old.source, new_source=new.source, old_version=old.version,
                       new_version=new.version, old_date=old.date, new_date=new.date)

    identical = pair_identical(old_rules, new_rules)
    anchors = dict(identical)
    used_old = {i for i, _ in identical}
    used_new = {j for _, j in identical}
    similar = pair_similar(
        old_rules, new_rules,
        [i for i in range(len(old_rules)) if i not in used_old],
        [j for j in range(len(new_rules)) if j not in used_new],
        anchors,
    )
    renumbering = {old_rules[i].key: new_rules[j].key for i, j in identical}
    renumbering.update({old_rules[i].key: new_rules[j].key for i, j, _ in similar})

    # An unnumbered page cites no rule numbers, so numbers in its text are not cross-references,
    # and a rule keeps its place when it keeps its id (its position key moves with every insertion).
    numbered = not (old.unnumbered or new.unnumbered)
    spacing_only = 0
    for i, j in identical:
        before, after = old_rules[i], new_rules[j]
        if (before.key != after.key) if numbered else (before.number != after.number):
            result.renumbered.append(_entry("renumbered", before, after))
        else:
            result.unchanged += 1
            spacing_only += before.content() != after.content()
    for i, j, ratio in similar:
        before, after = old_rules[i], new_rules[j]
        xrefs = xref_only_changes(before.content(), after.content(), old_numbering, new_numbering,
                                  renumbering) if numbered else None
        kind = "xref_only" if xrefs is not None else "changed"
        entry = _entry(kind, before, after, ratio)
        entry.ops = inline_ops(before.content(), after.content())
        if numbered:
            entry.xrefs = xrefs if xrefs is not None else _xref_changes(before, after, old_numbering,
                                                                         new_numbering, renumbering)
        getattr(result, kind).append(entry)
    paired_old = used_old | {i for i, _, _ in similar}
    paired_new = used_new | {j for _, j, _ in similar}
    result.removed = [_entry("removed", rule, None)
                      for i, rule in enumerate(old_rules) if i not in paired_old]
    result.added = [_entry("added", None, rule)
                    for j, rule in enumerate(new_rules) if j not in paired_new]
    for kind in KINDS:
        getattr(result, kind).sort(key=_order)

    for rule in old.roots() + new.roots():
        title = new.section_title(rule.section) or old.section_title(rule.section)
        result.section_titles[rule.section] = title
    if spacing_only:
        result.notes.append(f"{spacing_only} rules differ only in spacing or line breaks "
                            "(treated as unchanged)")
    if old.layout != new.layout:
        result.notes.append(f"layout changed: {old.layout} -> {new.layout} (rules paired by content only)")
    if old.numbering and new.numbering and old.numbering.example != new.numbering.example:
        result.notes.append(f"numbering style changed: {old.numbering.example} -> {new.numbering.example}")
    return result


def _entry(kind: str, before: Rule | None, after: Rule | None, ratio: float | None = None) -> DiffEntry:
    shown = after or before
    assert shown is not None
    return DiffEntry(
        kind=kind,
        number=shown.number,
        section=shown.section,
        heading=(after.heading if after else None) or (before.heading if before else None),
        old_number=before.number if before else None,
        new_number=after.number if after else None,
        old_text=before.content() if before else None,
        new_text=after.content() if after else None,
        old_line=before.line if before else None,
        new_line=after.line if after else None,
        similarity=ratio,
        order=shown.key,
    )


def _xref_changes(
    before: Rule,
    after: Rule,
    old_numbering: Numbering,
    new_numbering: Numbering,
    renumbering: dict[tuple[int, ...], tuple[int, ...]],
) -> list[XrefChange]:
    """References renumbered consistently inside a rule whose meaning also changed."""
    new_refs = {match.group(0) for match in find_xrefs(after.content(), new_numbering)}
    changes: list[XrefChange] = []
    for match in find_xrefs(before.content(), old_numbering):
        written = match.group(0)
        key = tuple(int(part) for part in written.replace("-", ".").split("."))
        target = renumbering.get(key)
        if target and target != key:
            target_written = new_numbering.format(target)
            if target_written in new_refs and written not in new_refs:
                changes.append(XrefChange(written, target_written, True))
    return changes


__all__ = ["DiffEntry", "RulesDiff", "diff_rules"]
