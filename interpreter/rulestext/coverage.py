"""How much of a rules text a YAML rulebook accounts for.

Every rule of the text ends up in exactly one status: ``encoded`` (some
element cites it), ``not_encoded`` (listed in ``not_encoded`` with a reason),
``covered`` (a parent, or a heading-only rule, whose children are all
accounted for) or ``ignored``. Citations of numbers the text does not have are
errors: they are how a rulebook silently drifts from the rules it claims to
encode. Percentages are given over leaf rules (rules without children: the
ones that state something) and over all rules. An unnumbered page is cited by
the ids its parse gives (:mod:`.ids`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.rbdiff.inferred import InferredElement, inferred_elements, render_inferred_text
from interpreter.rbdiff.raw import Citation, RawRulebook

from .cite import cite_key
from .model import RuleDoc

STATUSES = ("encoded", "not_encoded", "covered", "ignored")
COVERAGE_FORMATS = ("text", "json", "markdown")


@dataclass
class RuleCoverage:
    """The status of one rule of the text and what decided it."""

    number: str
    line: int
    label: str
    leaf: bool
    status: str = "ignored"
    citations: list[Citation] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    children: int = 0
    children_covered: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {"number": self.number, "status": self.status, "leaf": self.leaf,
                                "line": self.line, "label": self.label}
        if self.citations:
            data["cited_by"] = [c.to_dict() for c in self.citations]
        if self.reasons:
            data["reasons"] = list(self.reasons)
        if self.children:
            data["children"] = self.children
            data["children_covered"] = self.children_covered
        return data


@dataclass
class CoverageReport:
    """Coverage of one rules text by one rulebook."""

    rulebook: str
    rulebook_dir: str
    rulebook_version: str | None
    rules_source: str
    rules_version: str | None
    rules: list[RuleCoverage] = field(default_factory=list)
    bad: list[Citation] = field(default_factory=list)
    citations: int = 0
    elements: int = 0
    notes: list[str] = field(default_factory=list)
    inferred: list[InferredElement] = field(default_factory=list)  # elements that say `inferred`
    labels: dict[str, str] = field(default_factory=dict)  # rule -> its label, for the evidence

    def with_status(self, status: str, leaf: bool | None = None) -> list[RuleCoverage]:
        """Rules with ``status`` (optionally only leaves or only parents), in document order."""
        return [r for r in self.rules if r.status == status and (leaf is None or r.leaf == leaf)]

    def counts(self) -> dict[str, dict[str, int]]:
        """How many rules per status, over leaf rules and over all rules."""
        leaves = [r for r in self.rules if r.leaf]
        return {
            "leaf": {"total": len(leaves), **{s: sum(1 for r in leaves if r.status == s) for s in STATUSES}},
            "all": {"total": len(self.rules), **{s: sum(1 for r in self.rules if r.status == s)
                                                  for s in STATUSES}},
        }

    def percentages(self) -> dict[str, float]:
        """Accounted-for (not ignored) and encoded shares, in percent, over leaves and over all rules."""
        counts = self.counts()

        def pct(part: int, whole: int) -> float:
            return round(100.0 * part / whole, 1) if whole else 0.0

        leaf, every = counts["leaf"], counts["all"]
        return {
            "leaf": pct(leaf["total"] - leaf["ignored"], leaf["total"]),
            "leaf_encoded": pct(leaf["encoded"], leaf["total"]),
            "all": pct(every["total"] - every["ignored"], every["total"]),
            "all_encoded": pct(every["encoded"], every["total"]),
        }

    @property
    def ok(self) -> bool:
        """False when some citation names a rule the text does not have."""
        return not self.bad

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "rulebook": {"id": self.rulebook, "path": self.rulebook_dir,
                         "rules_version": self.rulebook_version},
            "rules": {"source": self.rules_source, "version": self.rules_version},
            "percent": self.percentages(),
            "counts": self.counts(),
            "citations": self.citations,
            "citing_elements": self.elements,
            "bad_citations": [c.to_dict() for c in self.bad],
            **{status: [r.to_dict() for r in self.with_status(status)] for status in STATUSES},
            "notes": list(self.notes),
            "inferred": [item.to_dict() for item in self.inferred],
        }


def _label(doc: RuleDoc, number: str) -> str:
    rule = doc.rules[number]
    text = rule.heading or rule.content().split("\n", 1)[0]  # a page entry with its marker
    return text if len(text) <= 40 else text[:39] + "…"


def compute_coverage(book: RawRulebook, doc: RuleDoc) -> CoverageReport:
    """Sort every rule of ``doc`` into a status and collect citations ``doc`` does not have."""
    report = CoverageReport(rulebook=book.id, rulebook_dir=str(book.directory), rulebook_version=book.version,
                            rules_source=doc.source, rules_version=doc.version)
    by_key = {cite_key(rule.number): rule.number for rule in doc.rules.values()}
    entries = {rule.number: RuleCoverage(rule.number, rule.line, _label(doc, rule.number), not rule.children,
                                         children=len(rule.children))
               for rule in doc.ordered()}
    citations = book.citations()
    report.citations = sum(1 for c in citations if not c.not_encoded)
    report.elements = len({(c.file, c.path) for c in citations if not c.not_encoded})
    for citation in citations:
        key = cite_key(citation.rule)
        number = by_key.get(key) if key is not None else None
        if number is None:
            report.bad.append(citation)
            continue
        entry = entries[number]
        entry.citations.append(citation)
        if citation.not_encoded and citation.reason and citation.reason not in entry.reasons:
            entry.reasons.append(citation.reason)
    # Children come after their parent in document order, so walking backwards settles them first.
    for rule in reversed(doc.ordered()):
        entry = entries[rule.number]
        encoded = any(c.encodes for c in entry.citations)
        listed = any(c.not_encoded for c in entry.citations)
        entry.children_covered = sum(1 for child in rule.children if entries[child].status != "ignored")
        if encoded:
            entry.status = "encoded"
            if listed:
                report.notes.append(f"{rule.number} is cited and also listed in not_encoded")
        elif listed:
            entry.status = "not_encoded"
        elif rule.children and entry.children_covered == len(rule.children):
            entry.status = "covered"
    report.rules = list(entries.values())
    report.inferred = inferred_elements(book)
    report.labels = {entry.number: entry.label for entry in report.rules}
    if book.version and doc.version and book.version != doc.version:
        report.notes.append(f"the rulebook declares rules_version {book.version}, the text is {doc.version}")
    return report


# -- rendering ------------------------------------------------------------------------------------


def _summary(report: CoverageReport) -> list[str]:
    counts, pct = report.counts(), report.percentages()
    leaf, every = counts["leaf"], counts["all"]
    return [
        f"Leaf rules: {pct['leaf']}% accounted for ({pct['leaf_encoded']}% encoded) - "
        f"{leaf['total']} leaves: {leaf['encoded']} encoded, {leaf['not_encoded']} not encoded, "
        f"{leaf['ignored']} ignored",
        f"All rules: {pct['all']}% accounted for ({pct['all_encoded']}% encoded) - {every['total']} rules: "
        f"{every['encoded']} encoded, {every['not_encoded']} not encoded, {every['covered']} covered by "
        f"their children, {every['ignored']} ignored",
        f"Citations: {report.citations} in {report.elements} elements; {len(report.bad)} bad",
    ]


def _header(report: CoverageReport) -> str:
    book = report.rulebook + (f" (rules {report.rulebook_version})" if report.rulebook_version else "")
    text = report.rules_source + (f" (ver {report.rules_version})" if report.rules_version else "")
    return f"Coverage of {text} by rulebook {book}"


def bad_message(citation: Citation, source: str) -> str:
    """``file:line:col: message`` for a citation of a rule the text lacks."""
    return (f"{citation.where}: rule {citation.rule} cited by {citation.element or '-'} ({citation.path}) "
            f"does not exist in {source}")


def _partial(entry: RuleCoverage) -> str:
    return f" ({entry.children_covered}/{entry.children} children accounted for)" if entry.children else ""


def _elements(entry: RuleCoverage) -> str:
    names = dict.fromkeys(c.element or c.path for c in entry.citations if c.encodes)
    return ", ".join(names)


def render_coverage_text(report: CoverageReport) -> str:
    """Plain text: summary, then errors, ignored, not encoded and encoded rules."""
    out = [_header(report), *_summary(report)]
    if report.bad:
        out += ["", f"== Bad citations ({len(report.bad)}) =="]
        out += [bad_message(c, report.rules_source) for c in report.bad]
    ignored = report.with_status("ignored")
    out += ["", f"== Ignored ({len(ignored)}) =="]
    out += [f"  {r.number} {r.label}  [line {r.line}]{_partial(r)}" for r in ignored]
    listed = report.with_status("not_encoded")
    out += ["", f"== Not encoded ({len(listed)}) =="]
    out += [f"  {r.number} {r.label}: {' / '.join(r.reasons)}" for r in listed]
    covered = report.with_status("covered")
    out += ["", f"== Covered by their children ({len(covered)}) =="]
    out += [f"  {r.number} {r.label}" for r in covered]
    encoded = report.with_status("encoded")
    out += ["", f"== Encoded ({len(encoded)}) =="]
    out += [f"  {r.number} {r.label}: {_elements(r)}" for r in encoded]
    if report.inferred:
        out += ["", f"== Inferred ({len(report.inferred)}) =="]
        out += render_inferred_text(report.inferred, report.labels)
    if report.notes:
        out.append("")
        out += [f"note: {note}" for note in report.notes]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return "".join("\\" + char if char in "\\`*_[]<>#|~" else char for char in text)


def render_coverage_markdown(report: CoverageReport) -> str:
    """Markdown for issues and pull requests: summary table, then the lists."""
    counts, pct = report.counts(), report.percentages()
    out = [f"# {_md(_header(report))}", "",
           "| | accounted for | encoded | not encoded | covered by children | ignored | total |",
           "|---|---|---|---|---|---|---|"]
    for scope, name in (("leaf", "leaf rules"), ("all", "all rules")):
        c = counts[scope]
        out.append(f"| {name} | **{pct[scope]}%** | {c['encoded']} ({pct[scope + '_encoded']}%) | "
                   f"{c['not_encoded']} | {c['covered']} | {c['ignored']} | {c['total']} |")
    out += ["", f"{report.citations} citations in {report.elements} elements; {len(report.bad)} bad."]
    if report.bad:
        out += ["", f"## Bad citations ({len(report.bad)})", ""]
        out += [f"- `{c.where}` rule **{_md(c.rule)}** cited by `{c.element or '-'}` ({_md(c.path)})"
                for c in report.bad]
    ignored = report.with_status("ignored")
    out += ["", f"## Ignored ({len(ignored)})", ""]
    out += [f"- {r.number} {_md(r.label)}{_partial(r)}" for r in ignored]
    listed = report.with_status("not_encoded")
    out += ["", f"## Not encoded ({len(listed)})", ""]
    out += [f"- {r.number} {_md(r.label)}: {_md(' / '.join(r.reasons))}" for r in listed]
    encoded = report.with_status("encoded")
    out += ["", f"## Encoded ({len(encoded)})", "", "<details>", ""]
    out += [f"- {r.number} {_md(r.label)}: {_md(_elements(r))}" for r in encoded]
    out += ["", "</details>"]
    if report.inferred:
        out += ["", f"## Inferred ({len(report.inferred)})", ""]
    out += [f"- `{i.where}` {_md(i.element)} ({_md(i.section)}): inferred by {_md(i.decision)}"
            + ("" if i.found else " (not in decisions)")
            + (f"; evidence {', '.join(_md(e) for e in i.evidence)}" if i.evidence else "")
            for i in report.inferred]
    if report.notes:
        out += ["", "## Notes", ""] + [f"- {_md(note)}" for note in report.notes]
    return "\n".join(out) + "\n"


def render_inferred(items: list[InferredElement], fmt: str, rulebook: str,
                    labels: dict[str, str] | None = None) -> str:
    """Only the inferred elements (`sogo coverage --inferred`), in one of :data:`COVERAGE_FORMATS`."""
    if fmt == "json":
        return json.dumps({"rulebook": rulebook, "inferred": [i.to_dict() for i in items]},
                          ensure_ascii=False, indent=2) + "\n"
    if fmt == "markdown":
        out = [f"# Inferred elements of {_md(rulebook)} ({len(items)})", ""]
        out += [f"- `{i.where}` {_md(i.element)} ({_md(i.section)}): inferred by {_md(i.decision)}"
                + ("" if i.found else " (not in decisions)")
                + "".join(f"\n  - evidence {_md(e)}" + (f" {_md(labels[e])}" if labels and e in labels else "")
                          for e in i.evidence)
                for i in items]
        return "\n".join(out) + "\n"
    return "\n".join([f"Inferred elements of {rulebook} ({len(items)})", *render_inferred_text(items, labels)]) + "\n"


def render_coverage(report: CoverageReport, fmt: str) -> str:
    """Render ``report`` in one of :data:`COVERAGE_FORMATS`."""
    renderers: dict[str, Callable[[CoverageReport], str]] = {
        "text": render_coverage_text,
        "markdown": render_coverage_markdown,
        "json": lambda r: json.dumps(r.to_dict(), ensure_ascii=False, indent=2) + "\n",
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(COVERAGE_FORMATS)}")
    return renderers[fmt](report)


__all__ = ["COVERAGE_FORMATS", "STATUSES", "CoverageReport", "RuleCoverage", "bad_message",
           "compute_coverage", "render_coverage", "render_inferred"]
