"""Render a :class:`RulesDiff` as text, Markdown, JSON or HTML.

Maintainers read these to update the YAML rulebooks, so changes of meaning come
first, renumberings are compressed into runs, and pure cross-reference
renumberings are set apart.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from .diff import DiffEntry, RulesDiff
from .inline import Op

FORMATS = ("text", "markdown", "json", "html")

LABELS = {
    "added": "added",
    "removed": "removed",
    "changed": "changed",
    "renumbered": "renumbered",
    "xref_only": "cross-reference only",
}


def render(diff: RulesDiff, fmt: str) -> str:
    """Render ``diff`` in one of :data:`FORMATS`."""
    renderers: dict[str, Callable[[RulesDiff], str]] = {
        "text": render_text,
        "markdown": render_markdown,
        "json": render_json,
        "html": _html,
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return renderers[fmt](diff)


def _html(diff: RulesDiff) -> str:
    from .report_html import render_html  # local: keeps the HTML template out of the text path

    return render_html(diff)


# -- shared helpers -------------------------------------------------------------


def describe(diff: RulesDiff, side: str) -> str:
    """"file (ver X, date)" for one side of the diff."""
    source = getattr(diff, f"{side}_source")
    version = getattr(diff, f"{side}_version")
    date = getattr(diff, f"{side}_date")
    extra = ", ".join(part for part in (f"ver {version}" if version else "", date or "") if part)
    return f"{source} ({extra})" if extra else source


def summary_line(diff: RulesDiff) -> str:
    """One line with the count of each kind."""
    counts = diff.counts()
    parts = [f"{counts[kind]} {LABELS[kind]}" for kind in LABELS]
    return ", ".join(parts) + f", {counts['unchanged']} unchanged"


def shift_signature(entry: DiffEntry) -> tuple[object, ...]:
    """How a renumbering moved a rule: level, delta and the unchanged prefix."""
    if not _numeric(entry.old_number) or not _numeric(entry.new_number):
        return ("id", entry.old_number, entry.new_number)  # derived ids: nothing to group by
    old = _key(entry.old_number or "")
    new = _key(entry.new_number or "")
    if len(old) != len(new):
        return ("depth", old, new)
    for index, (before, after) in enumerate(zip(old, new, strict=True)):
        if before != after:
            return (index, after - before, old[:index])
    return ("same",)


def renumber_runs(entries: Sequence[DiffEntry]) -> list[list[DiffEntry]]:
    """Group consecutive renumberings that share one shift (e.g. all of 3.x moved by +1)."""
    runs: list[list[DiffEntry]] = []
    for entry in entries:
        if runs and shift_signature(runs[-1][-1]) == shift_signature(entry):
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return runs


def run_label(run: Sequence[DiffEntry]) -> str:
    """"3.2 → 3.3" or "3.2 … 3.4.2 → 3.3 … 3.5.2 (7 rules)"."""
    first, last = run[0], run[-1]
    if len(run) == 1:
        return f"{first.old_number} → {first.new_number}"
    return (f"{first.old_number} … {last.old_number} → {first.new_number} … {last.new_number} "
            f"({len(run)} rules)")


def _numeric(number: str | None) -> bool:
    parts = (number or "").rstrip(".").replace("-", ".").split(".")
    return all(part.isdigit() for part in parts)


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(part) for part in number.replace("-", ".").split(".") if part.isdigit())


def number_label(entry: DiffEntry) -> str:
    """"3.3.1 (was 3.2.1)" for renumbered pairs, else the number."""
    if entry.renumbered:
        return f"{entry.new_number} (was {entry.old_number})"
    return entry.number


def excerpt(text: str | None, limit: int = 80) -> str:
    """First line of ``text``, shortened."""
    line = (text or "").split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def body(entry: DiffEntry, text: str | None) -> str:
    """Rule text without its heading line (the heading is shown next to the number)."""
    text = text or ""
    if entry.heading and text.startswith(entry.heading):
        return text[len(entry.heading):].lstrip("\n")
    return text


def _section_title(section: str, title: str) -> str:
    return f"{section}. {title}" if title else f"Section {section}"


# -- text ------------------------------------------------------------------------


def _inline_text(ops: Sequence[Op]) -> str:
    parts: list[str] = []
    for op in ops:
        if op.op == "equal":
            parts.append(op.old)
        if op.op in ("delete", "replace"):
            parts.append(f"[-{op.old}-]")
        if op.op in ("insert", "replace"):
            parts.append(f"{{+{op.new}+}}")
    return "".join(parts)


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.split("\n"))


def render_text(diff: RulesDiff) -> str:
    """Plain text, for terminals and commit messages."""
    out = [f"Rules diff: {describe(diff, 'old')} -> {describe(diff, 'new')}",
           f"Summary: {summary_line(diff)}"]
    if diff.empty:
        out.append("No differences in the rules.")
    for section, title, entries in diff.sections():
        main = [entry for entry in entries if entry.kind in ("added", "removed", "changed")]
        moved = [entry for entry in entries if entry.kind == "renumbered"]
        if not main and not moved:
            continue
        out.append("")
        out.append(f"== {_section_title(section, title)} ==")
        for entry in main:
            heading = f" {entry.heading}" if entry.heading else ""
            if entry.kind == "added":
                out.append(f"+ {entry.number}{heading} (added)")
                if body(entry, entry.new_text):
                    out.append(_indent(body(entry, entry.new_text), "    + "))
            elif entry.kind == "removed":
                out.append(f"- {entry.number}{heading} (removed)")
                if body(entry, entry.old_text):
                    out.append(_indent(body(entry, entry.old_text), "    - "))
            else:
                ratio = entry.similarity or 0.0
                out.append(f"~ {number_label(entry)}{heading} (changed, similarity {ratio:.2f})")
                out.append(_indent(_inline_text(entry.ops)))
        for run in renumber_runs(moved):
            out.append(f"> renumbered {run_label(run)}")
    xrefs = diff.xref_only
    if xrefs:
        out.append("")
        out.append(f"== Cross-reference renumbering only ({len(xrefs)}) ==")
        for entry in xrefs:
            refs = ", ".join(f"{xref.old} -> {xref.new}" + ("" if xref.consistent else " (!)")
                             for xref in entry.xrefs)
            out.append(f"* {number_label(entry)}: {refs}")
    if diff.notes:
        out.append("")
        out.extend(f"note: {note}" for note in diff.notes)
    return "\n".join(out) + "\n"


# -- markdown --------------------------------------------------------------------

_MD_SPECIAL = "\\`*_[]<>#|~"


def md_escape(text: str) -> str:
    """Escape Markdown syntax characters so rule text renders literally."""
    return "".join("\\" + char if char in _MD_SPECIAL else char for char in text)


def _inline_markdown(ops: Sequence[Op]) -> str:
    parts: list[str] = []
    for op in ops:
        if op.op == "equal":
            parts.append(md_escape(op.old))
        if op.op in ("delete", "replace") and op.old.strip():
            parts.append(f"~~{md_escape(op.old)}~~")
        if op.op in ("insert", "replace") and op.new.strip():
            parts.append(f"**{md_escape(op.new)}**")
    return "".join(parts).replace("\n", "<br>")


def render_markdown(diff: RulesDiff) -> str:
    """Markdown for pull requests and issues: ~~removed~~ and **added** inline."""
    out = [
        "# Rules diff",
        "",
        f"- old: {md_escape(describe(diff, 'old'))}",
        f"- new: {md_escape(describe(diff, 'new'))}",
        f"- summary: {summary_line(diff)}",
    ]
    if diff.empty:
        out += ["", "No differences in the rules."]
    for section, title, entries in diff.sections():
        main = [entry for entry in entries if entry.kind in ("added", "removed", "changed")]
        moved = [entry for entry in entries if entry.kind == "renumbered"]
        if not main and not moved:
            continue
        out += ["", f"## {md_escape(_section_title(section, title))}", ""]
        for entry in main:
            heading = f" {md_escape(entry.heading)}" if entry.heading else ""
            if entry.kind == "added":
                text = md_escape(body(entry, entry.new_text)).replace("\n", "<br>")
                out.append(f"- **added {entry.number}**{heading}" + (f": **{text}**" if text else ""))
            elif entry.kind == "removed":
                text = md_escape(body(entry, entry.old_text)).replace("\n", "<br>")
                out.append(f"- **removed {entry.number}**{heading}" + (f": ~~{text}~~" if text else ""))
            else:
                label = md_escape(number_label(entry))
                out.append(f"- **changed {label}**{heading}: {_inline_markdown(entry.ops)}")
        for run in renumber_runs(moved):
            out.append(f"- renumbered {md_escape(run_label(run))}")
    if diff.xref_only:
        out += ["", f"## Cross-reference renumbering only ({len(diff.xref_only)})", "", "<details>", ""]
        for entry in diff.xref_only:
            refs = ", ".join(f"{xref.old} → {xref.new}" + ("" if xref.consistent else " (inconsistent)")
                             for xref in entry.xrefs)
            out.append(f"- {md_escape(number_label(entry))}: {md_escape(refs)}")
        out += ["", "</details>"]
    if diff.notes:
        out += ["", "## Notes", ""] + [f"- {md_escape(note)}" for note in diff.notes]
    return "\n".join(out) + "\n"


# -- json ------------------------------------------------------------------------


def render_json(diff: RulesDiff) -> str:
    """The diff as JSON (UTF-8, not ASCII-escaped, so Japanese stays readable)."""
    return json.dumps(diff.to_dict(), ensure_ascii=False, indent=2) + "\n"
