"""Self-contained HTML report of a rules diff.

One file, no scripts or external assets, so it can be attached to an issue or
opened offline. Every piece of document text goes through ``html.escape``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from .diff import DiffEntry, RulesDiff
from .inline import Op
from .report import LABELS, body, describe, excerpt, number_label, renumber_runs, run_label

_CSS = """
:root { --add: #e6ffec; --add-strong: #abf2bc; --del: #ffebe9; --del-strong: #ffc1c0;
        --move: #f1f3ff; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; }
* { box-sizing: border-box; }
body { font: 15px/1.6 system-ui, -apple-system, "Segoe UI", "Hiragino Sans", "Noto Sans JP", sans-serif;
       color: var(--ink); margin: 0 auto; max-width: 980px; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.meta td { padding: 0 1rem 0 0; }
.summary { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; padding: 0; list-style: none; }
.summary li { border: 1px solid var(--line); border-radius: 2rem; padding: .15rem .8rem; }
.summary .n { font-weight: 700; }
.k-added { background: var(--add); } .k-removed { background: var(--del); }
.k-changed { background: #fff8c5; } .k-renumbered, .k-xref_only { background: var(--move); }
nav ul { columns: 2; padding-left: 1.2rem; }
.entry { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: .6rem 0;
         padding: .5rem .8rem; }
.entry.added { border-left-color: #1a7f37; } .entry.removed { border-left-color: #cf222e; }
.entry.changed { border-left-color: #bf8700; } .entry.xref_only { border-left-color: #8250df; }
.entry .head { font-weight: 600; }
.entry .num { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.entry .tag { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted);
              margin-left: .5rem; }
.text { white-space: pre-wrap; margin: .3rem 0 0; }
ins { background: var(--add-strong); text-decoration: none; border-radius: 2px; }
del { background: var(--del-strong); text-decoration: line-through; border-radius: 2px; }
.added .text { background: var(--add); } .removed .text { background: var(--del); }
.moves { background: var(--move); border-radius: 6px; padding: .4rem .8rem; margin: .6rem 0; }
.moves ul { margin: .2rem 0; padding-left: 1.2rem; }
.arrow { color: var(--muted); }
details > summary { cursor: pointer; }
.xref { margin-top: 2rem; }
.notes { color: var(--muted); font-size: .9rem; }
.empty { font-style: italic; }
"""


def _inline(ops: Sequence[Op]) -> str:
    parts: list[str] = []
    for op in ops:
        if op.op == "equal":
            parts.append(escape(op.old))
        if op.op in ("delete", "replace"):
            parts.append(f"<del>{escape(op.old)}</del>")
        if op.op in ("insert", "replace"):
            parts.append(f"<ins>{escape(op.new)}</ins>")
    return "".join(parts)


def _entry(entry: DiffEntry) -> str:
    heading = f" {escape(entry.heading)}" if entry.heading else ""
    anchor = escape(f"r-{entry.new_number or entry.old_number}", quote=True)
    head = (f'<div class="head"><span class="num">{escape(number_label(entry))}</span>{heading}'
            f'<span class="tag">{escape(LABELS[entry.kind])}</span></div>')
    if entry.kind in ("added", "removed"):
        tag = "ins" if entry.kind == "added" else "del"
        text = body(entry, entry.new_text if entry.kind == "added" else entry.old_text)
        shown = f'<div class="text"><{tag}>{escape(text)}</{tag}></div>' if text else ""
    else:
        shown = f'<div class="text">{_inline(entry.ops)}</div>'
        if entry.xrefs:
            refs = ", ".join(f"{escape(xref.old)} → {escape(xref.new)}" + ("" if xref.consistent else " ⚠")
                             for xref in entry.xrefs)
            shown += f'<div class="notes">references: {refs}</div>'
    return f'<div class="entry {entry.kind}" id="{anchor}">{head}{shown}</div>'


def _moves(entries: Sequence[DiffEntry]) -> str:
    if not entries:
        return ""
    items: list[str] = []
    for run in renumber_runs(entries):
        label = escape(run_label(run)).replace("→", '<span class="arrow">→</span>')
        if len(run) == 1:
            items.append(f"<li>{label} <small>{escape(excerpt(run[0].new_text))}</small></li>")
            continue
        inner = "".join(
            f"<li>{escape(entry.old_number or '')} <span class=\"arrow\">→</span> "
            f"{escape(entry.new_number or '')} <small>{escape(excerpt(entry.new_text))}</small></li>"
            for entry in run
        )
        items.append(f"<li><details><summary>{label}</summary><ul>{inner}</ul></details></li>")
    return f'<div class="moves"><strong>Renumbered</strong><ul>{"".join(items)}</ul></div>'


def render_html(diff: RulesDiff) -> str:
    """A complete HTML page for ``diff``."""
    counts = diff.counts()
    title = f"Rules diff: {describe(diff, 'old')} → {describe(diff, 'new')}"
    badges = "".join(
        f'<li class="k-{kind}"><span class="n">{counts[kind]}</span> {escape(LABELS[kind])}</li>'
        for kind in ("added", "removed", "changed", "renumbered", "xref_only")
    ) + f'<li><span class="n">{counts["unchanged"]}</span> unchanged</li>'
    sections: list[str] = []
    toc: list[str] = []
    for section, name, entries in diff.sections():
        main = [entry for entry in entries if entry.kind in ("added", "removed", "changed")]
        moved = [entry for entry in entries if entry.kind == "renumbered"]
        if not main and not moved:
            continue
        label = f"{section}. {name}" if name else f"Section {section}"
        anchor = escape(f"s-{section}", quote=True)
        tally = ", ".join(f"{sum(1 for e in entries if e.kind == kind)} {LABELS[kind]}"
                          for kind in ("added", "removed", "changed", "renumbered")
                          if any(e.kind == kind for e in entries))
        toc.append(f'<li><a href="#{anchor}">{escape(label)}</a> <small>{escape(tally)}</small></li>')
        sections.append(f'<section id="{anchor}"><h2>{escape(label)}</h2>'
                        + "".join(_entry(entry) for entry in main) + _moves(moved) + "</section>")
    xref = ""
    if diff.xref_only:
        xref = (f'<section class="xref"><details><summary><strong>Cross-reference renumbering only '
                f"({len(diff.xref_only)})</strong> — text unchanged apart from rule numbers it cites"
                f"</summary>{''.join(_entry(entry) for entry in diff.xref_only)}</details></section>")
    notes = ""
    if diff.notes:
        notes = '<section class="notes"><h2>Notes</h2><ul>' + "".join(
            f"<li>{escape(note)}</li>" for note in diff.notes) + "</ul></section>"
    empty = '<p class="empty">No differences in the rules.</p>' if diff.empty else ""
    nav = f"<nav><h2>Sections</h2><ul>{''.join(toc)}</ul></nav>" if toc else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>Rules diff</h1><table class=\"meta\">"
        f"<tr><td>old</td><td>{escape(describe(diff, 'old'))}</td></tr>"
        f"<tr><td>new</td><td>{escape(describe(diff, 'new'))}</td></tr></table>"
        f'<ul class="summary">{badges}</ul>{empty}{nav}{"".join(sections)}{xref}{notes}'
        "</body></html>\n"
    )
