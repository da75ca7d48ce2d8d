"""What a rules revision means for a rulebook and its scenarios.

For every rule the revision adds, removes, changes or renumbers, list the
rulebook elements and the scenarios that cite it, and what to do about them.
Citations are looked up by the rule's *old* number (that is what the rulebook,
written against the old text, says); a renumbered rule's citations must be
renumbered. A new rule is looked up by its new number, unless that number
belonged to an old rule that moved, whose citations are then listed there.
On an unnumbered page the "numbers" are the ids of :mod:`.ids`; a rule whose
wording changed has a new id, so its citations are to be moved like a
renumbered rule's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from interpreter import locations
from interpreter.loader.diagnostics import LoadError
from interpreter.rbdiff.raw import Citation, RawRulebook, display_path, load_citations

from .cite import cite_key
from .diff import DiffEntry, RulesDiff
from .model import RuleDoc


@dataclass
class ImpactEntry:
    """One rule of the revision and the citations it affects."""

    kind: str
    old_number: str | None
    new_number: str | None
    heading: str | None
    action: str
    number_now: str | None = None  # for a new rule: where the old rule that had its number went
    rulebook: list[Citation] = field(default_factory=list)
    scenarios: list[Citation] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``3.2.1 -> 3.3.1`` for moved rules, else the number."""
        if self.old_number and self.new_number and self.old_number != self.new_number:
            return f"{self.old_number} -> {self.new_number}"
        return self.new_number or self.old_number or "?"

    def short(self) -> str:
        """The label, and for a new rule whose number was taken, where the old holder went."""
        if self.number_now:
            return f"{self.label} (old {self.new_number} is now {self.number_now})"
        return self.label

    @property
    def cited(self) -> bool:
        """True when something cites the rule."""
        return bool(self.rulebook or self.scenarios)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"kind": self.kind, "old_number": self.old_number, "new_number": self.new_number,
                "heading": self.heading, "action": self.action,
                "old_rule_with_this_number_now": self.number_now,
                "rulebook": [c.to_dict() for c in self.rulebook],
                "scenarios": [c.to_dict() for c in self.scenarios]}


@dataclass
class Impact:
    """The impact of one rules diff on one rulebook and its scenarios."""

    rulebook: str
    rulebook_path: str
    scenarios_path: str | None
    scenario_files: int = 0
    entries: list[ImpactEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def affected(self) -> list[ImpactEntry]:
        """Entries with citations to update, in document order."""
        return [e for e in self.entries if e.cited]

    def uncited_new(self) -> list[ImpactEntry]:
        """New rules nothing cites yet: candidates to encode or list in not_encoded."""
        return [e for e in self.entries if e.kind == "added" and not e.cited]

    def uncited_other(self) -> list[ImpactEntry]:
        """Changed, removed or renumbered rules that nothing cites (no action needed)."""
        return [e for e in self.entries if e.kind != "added" and not e.cited]

    def counts(self) -> dict[str, int]:
        """Summary numbers."""
        affected = self.affected()
        return {"rules_affecting_citations": len(affected),
                "rulebook_citations": sum(len(e.rulebook) for e in affected),
                "scenario_citations": sum(len(e.scenarios) for e in affected),
                "new_rules_not_cited": len(self.uncited_new()),
                "other_rules_not_cited": len(self.uncited_other())}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"rulebook": {"id": self.rulebook, "path": self.rulebook_path},
                "scenarios": {"path": self.scenarios_path, "files": self.scenario_files},
                "summary": self.counts(), "entries": [e.to_dict() for e in self.entries],
                "notes": list(self.notes)}


def default_scenarios(book: RawRulebook) -> Path:
    """``tests/scenarios/<rulebook id>`` of the working directory, else of the source checkout Sogo
    runs from (an installed Sogo has no scenarios of its own)."""
    here = Path.cwd() / "tests" / "scenarios" / book.id
    checkout = locations.source_checkout()
    if here.is_dir() or checkout is None:
        return here
    return checkout / "tests" / "scenarios" / book.id


def load_scenario_citations(directory: Path) -> tuple[list[Citation], int, list[str]]:
    """Citations of every scenario file under ``directory``, the file count, and load problems."""
    found: list[Citation] = []
    problems: list[str] = []
    files = sorted(directory.rglob("*.yaml")) if directory.is_dir() else []
    for path in files:
        try:
            found.extend(load_citations(path))
        except LoadError as error:
            problems.extend(str(d) for d in error.diagnostics)
    return found, len(files), problems


def _index(citations: list[Citation]) -> dict[str, list[Citation]]:
    by_key: dict[str, list[Citation]] = {}
    for citation in citations:
        key = cite_key(citation.rule)
        if key is not None:
            by_key.setdefault(key, []).append(citation)
    return by_key


def _number_key(number: str | None) -> str | None:
    return cite_key(number) if number else None


def _action(entry: DiffEntry, moved_from: dict[str, str]) -> tuple[str, str | None] | None:
    """What to do about citations of this entry and the number to look them up by; None: no impact."""
    old, new = entry.old_number, entry.new_number
    if entry.kind == "removed":
        return "rule removed: drop the citation or cite the rule that replaces it", old
    if entry.kind == "changed":
        if entry.renumbered:
            return f"text changed: review the element, and renumber the citation {old} -> {new}", old
        return "text changed: review the element", old
    if entry.kind in ("renumbered", "xref_only"):
        if not entry.renumbered:
            return None  # only cross-references inside the text moved: nothing cites anything new
        return f"renumbered: the citation must be renumbered {old} -> {new}", old
    holder = moved_from.get(_number_key(new) or "")
    if holder is not None:
        return (f"new rule; number {new} belonged to old rule {new} (now {holder}), whose citations are "
                "listed there: encode the new rule or list it in not_encoded"), None
    return "new rule: encode it or list it in not_encoded", new


def compute_impact(diff: RulesDiff, book: RawRulebook, scenarios_dir: Path | None = None,
                   old_doc: RuleDoc | None = None) -> Impact:
    """Sort the rulebook's and the scenarios' citations onto the entries of ``diff``."""
    scenarios = scenarios_dir if scenarios_dir is not None else default_scenarios(book)
    impact = Impact(book.id, display_path(book.directory),
                    display_path(scenarios) if scenarios.is_dir() else None)
    book_citations = book.citations()
    scenario_citations, impact.scenario_files, problems = load_scenario_citations(scenarios)
    if not scenarios.is_dir():
        impact.notes.append(f"no scenarios directory at {display_path(scenarios)}")
    impact.notes += [f"scenario not read: {problem}" for problem in problems]
    in_book, in_scenarios = _index(book_citations), _index(scenario_citations)
    moved_from: dict[str, str] = {}
    for entry in diff.entries():
        key = _number_key(entry.old_number)
        if key is not None and (entry.kind == "removed" or entry.renumbered):
            moved_from[key] = entry.new_number or "removed"
    for entry in diff.entries():
        decided = _action(entry, moved_from)
        if decided is None:
            continue
        action, number = decided
        key = _number_key(number)
        impact.entries.append(ImpactEntry(
            kind=entry.kind, old_number=entry.old_number, new_number=entry.new_number, heading=entry.heading,
            action=action, number_now=moved_from.get(_number_key(entry.new_number) or "")
            if entry.kind == "added" else None,
            rulebook=in_book.get(key, []) if key else [],
            scenarios=in_scenarios.get(key, []) if key else [],
        ))
    if old_doc is not None:
        known = {cite_key(rule.number) for rule in old_doc.rules.values()}
        stale = [c for c in book_citations if cite_key(c.rule) not in known]
        if stale:
            numbers = list(dict.fromkeys(c.rule for c in stale))
            shown = ", ".join(numbers[:10]) + (f", … ({len(numbers)} numbers)" if len(numbers) > 10 else "")
            impact.notes.append(f"{len(stale)} rulebook citations are not rules of {old_doc.source} "
                                f"(is the rulebook written against another revision?): {shown}")
    return impact


# -- rendering ------------------------------------------------------------------------------------

SIGNS = {"added": "+", "removed": "-", "changed": "~", "renumbered": ">", "xref_only": ">"}


def _header(impact: Impact) -> str:
    scenarios = (f"scenarios {impact.scenarios_path} ({impact.scenario_files} files)"
                 if impact.scenarios_path else "no scenarios")
    return f"Impact on rulebook {impact.rulebook} ({impact.rulebook_path}), {scenarios}"


def _summary(impact: Impact) -> str:
    c = impact.counts()
    return (f"{c['rules_affecting_citations']} rules affect {c['rulebook_citations']} rulebook and "
            f"{c['scenario_citations']} scenario citations; {c['new_rules_not_cited']} new rules not cited; "
            f"{c['other_rules_not_cited']} other changed rules not cited")


def render_impact_text(impact: Impact) -> str:
    """The ``Impact`` section of a text report."""
    out = ["", "== Impact ==", _header(impact), f"Summary: {_summary(impact)}"]
    for entry in impact.affected():
        heading = f" {entry.heading}" if entry.heading else ""
        out.append(f"{SIGNS[entry.kind]} {entry.label}{heading} ({entry.kind}): {entry.action}")
        out += [f"    rulebook: {c.label()}" for c in entry.rulebook]
        out += [f"    scenario: {c.label()}" for c in entry.scenarios]
    new = impact.uncited_new()
    if new:
        out.append("New rules not cited yet: " + ", ".join(e.short() for e in new))
    other = impact.uncited_other()
    if other:
        out.append("Not cited (nothing to update): " + ", ".join(f"{e.label} ({e.kind})" for e in other))
    out += [f"note: {note}" for note in impact.notes]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return "".join("\\" + char if char in "\\`*_[]<>#|~" else char for char in text)


def render_impact_markdown(impact: Impact) -> str:
    """The ``## Impact`` section of a Markdown report."""
    out = ["", "## Impact", "", f"{_md(_header(impact))}.", "", f"{_md(_summary(impact))}.", ""]
    for entry in impact.affected():
        heading = f" {_md(entry.heading)}" if entry.heading else ""
        out.append(f"- **{entry.kind} {_md(entry.label)}**{heading}: {_md(entry.action)}")
        out += [f"  - rulebook: `{c.label()}`" for c in entry.rulebook]
        out += [f"  - scenario: `{c.label()}`" for c in entry.scenarios]
    new = impact.uncited_new()
    if new:
        out += ["", "New rules not cited yet: " + ", ".join(_md(e.short()) for e in new)]
    other = impact.uncited_other()
    if other:
        shown = ", ".join(f"{_md(e.label)} ({e.kind})" for e in other)
        out += ["", f"Not cited (nothing to update): {shown}"]
    if impact.notes:
        out += [""] + [f"- note: {_md(note)}" for note in impact.notes]
    return "\n".join(out) + "\n"


def render_impact_html(impact: Impact) -> str:
    """A ``<section id="impact">`` to insert into the HTML report."""
    items: list[str] = []
    for entry in impact.affected():
        heading = f" {escape(entry.heading)}" if entry.heading else ""
        cites = "".join(f"<li>rulebook: <code>{escape(c.label())}</code></li>" for c in entry.rulebook)
        cites += "".join(f"<li>scenario: <code>{escape(c.label())}</code></li>" for c in entry.scenarios)
        items.append(f'<div class="entry {escape(entry.kind)}"><div class="head"><span class="num">'
                     f'{escape(entry.label)}</span>{heading}<span class="tag">{escape(entry.kind)}</span>'
                     f"</div><div>{escape(entry.action)}</div><ul>{cites}</ul></div>")
    new = impact.uncited_new()
    if new:
        items.append(f"<p>New rules not cited yet: {escape(', '.join(e.short() for e in new))}</p>")
    other = impact.uncited_other()
    if other:
        items.append("<p>Not cited (nothing to update): "
                     f"{escape(', '.join(f'{e.label} ({e.kind})' for e in other))}</p>")
    notes = "".join(f"<li>{escape(note)}</li>" for note in impact.notes)
    notes = f'<ul class="notes">{notes}</ul>' if notes else ""
    return (f'<section id="impact"><h2>Impact</h2><p class="meta">{escape(_header(impact))}<br>'
            f"{escape(_summary(impact))}</p>{''.join(items)}{notes}</section>")


def attach_impact(report: str, impact: Impact, fmt: str) -> str:
    """Add the ``Impact`` section to a rules-diff report already rendered in ``fmt``."""
    if fmt == "json":
        data = json.loads(report)
        data["impact"] = impact.to_dict()
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "html":
        fragment = render_impact_html(impact)
        at = report.rfind("</body>")
        return report[:at] + fragment + report[at:] if at >= 0 else report + fragment
    renderers: dict[str, Callable[[Impact], str]] = {"text": render_impact_text,
                                                     "markdown": render_impact_markdown}
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}")
    return report + renderers[fmt](impact)


__all__ = ["Impact", "ImpactEntry", "attach_impact", "compute_impact", "default_scenarios",
           "load_scenario_citations", "render_impact_html", "render_impact_markdown", "render_impact_text"]
