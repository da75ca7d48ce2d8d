"""Render a :class:`RulebookDiff` as text, Markdown, JSON or HTML.

Reviewers read these next to a pull request, so each element shows where it
is, the rules it cites on both sides, and only the fields that changed; lists
of scalars (values, rule numbers) are shown as set changes.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from html import escape
from typing import Any

from .diff import ItemChange, RulebookDiff
from .fields import FieldChange
from .graph import EdgeKey, GraphDiff, Node, graphviz_available, render_dot, to_dot

RB_FORMATS = ("text", "markdown", "json", "html")
SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def render_rbdiff(diff: RulebookDiff, fmt: str) -> str:
    """Render ``diff`` in one of :data:`RB_FORMATS`."""
    renderers: dict[str, Callable[[RulebookDiff], str]] = {
        "text": render_text,
        "markdown": render_markdown,
        "json": lambda d: json.dumps(d.to_dict(), ensure_ascii=False, indent=2) + "\n",
        "html": render_html,
    }
    if fmt not in renderers:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(RB_FORMATS)}")
    return renderers[fmt](diff)


# -- shared ---------------------------------------------------------------------------------------


def value_text(value: Any, limit: int = 100) -> str:
    """Compact one-line JSON of a value, shortened."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _set_change(old: list[Any], new: list[Any]) -> str:
    plus = [str(x) for x in new if x not in old]
    minus = [str(x) for x in old if x not in new]
    parts = [f"+{x}" for x in plus] + [f"-{x}" for x in minus]
    return " ".join(parts) if parts else "order changed"


_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]|\w+|\s+|[^\w\s]")
"""Words, runs of space and single marks; Japanese text (no spaces between words) goes by character."""


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """The two texts as runs of ('=', same), ('-', deleted) and ('+', inserted) words (difflib)."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("=", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", "".join(b[j1:j2])))
    return out


def _is_prose(change: FieldChange) -> bool:
    """A changed text long enough to be cut short, or of several words: shown as a word diff."""
    old, new = change.old, change.new
    return isinstance(old, str) and isinstance(new, str) and (
        max(len(old), len(new)) > 40 or " " in old.strip() or " " in new.strip())


def word_diff_text(old: str, new: str) -> str:
    """The whole new text with deletions as [-...-] and insertions as {+...+} (git's --word-diff)."""
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(text) for op, text in word_diff(old, new)).replace("\n", " ")


def change_text(change: FieldChange) -> str:
    """``path: old -> new`` (set changes for lists of scalars, a word diff for texts), or
    ``+ path: value`` / ``- path: value``."""
    if change.op == "added":
        return f"+ {change.path}: {value_text(change.new)}"
    if change.op == "removed":
        return f"- {change.path}: {value_text(change.old)}"
    if isinstance(change.old, list) and isinstance(change.new, list):
        return f"{change.path or '.'}: {_set_change(change.old, change.new)}"
    if _is_prose(change):
        return f"{change.path or '.'}: {word_diff_text(change.old, change.new)}"
    return f"{change.path or '.'}: {value_text(change.old)} -> {value_text(change.new)}"


def change_html(change: FieldChange) -> str:
    """`change_text` as HTML, a changed text shown whole with <del> and <ins> words."""
    if change.op != "changed" or not _is_prose(change):
        return escape(change_text(change))
    tags = {"=": "{}", "-": "<del>{}</del>", "+": "<ins>{}</ins>"}
    words = "".join(tags[op].format(escape(text)) for op, text in word_diff(change.old, change.new))
    return f"{escape(change.path or '.')}: {words}"


def rules_text(old: list[str], new: list[str], kind: str) -> str:
    """The rules an element cites: one list, or ``old -> new`` when they differ."""
    if kind == "added":
        return ", ".join(new) or "none"
    if kind == "removed" or old == new:
        return ", ".join(old) or "none"
    return f"{', '.join(old) or 'none'} -> {', '.join(new) or 'none'}"


def where_text(item: ItemChange) -> str:
    """``file:line`` of the element, or ``old -> new`` when it moved (moving is not a change)."""
    old = item.old.where if item.old else None
    new = item.new.where if item.new else None
    if old and new and old != new:
        return f"{old} -> {new}"
    return old or new or ""


def verbs_text(item: ItemChange) -> str | None:
    """Verbs used by the element (added/removed) or the verbs it gained and lost (changed)."""
    if item.kind == "changed":
        if item.old_verbs == item.new_verbs:
            return None
        return _set_change(item.old_verbs, item.new_verbs)
    verbs = item.new_verbs or item.old_verbs
    return ", ".join(verbs) if verbs else None


def summary_text(diff: RulebookDiff) -> str:
    """One line: per section counts, then the turn graph."""
    parts = [f"{name} " + ", ".join(f"{n} {kind}" for kind, n in counts.items() if n)
             for name, counts in diff.counts().items()]
    graph = diff.graph.counts()
    if any(graph.values()):
        parts.append("turn " + ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in graph.items() if n))
    return "; ".join(parts) if parts else "no differences"


def edge_text(key: EdgeKey) -> str:
    """``kind: source -> target``."""
    kind, source, target = key
    return f"{kind}: {source} -> {target}"


def _node_head(node: Node) -> str:
    kind = f" ({node.kind})" if node.kind else ""
    where = f" [{node.where}]" if node.where else ""
    return f"{node.id}{kind}{where} rules: {', '.join(node.rules) or 'none'}"


def _edge_attrs(attrs: dict[str, Any]) -> str:
    shown = {k: v for k, v in attrs.items() if k != "order" or v}
    return f" {value_text(shown)}" if shown else ""


# -- text -----------------------------------------------------------------------------------------


def _graph_lines(graph: GraphDiff) -> list[str]:
    out: list[str] = []
    out += [f"+ node {_node_head(n)}" for n in graph.nodes_added]
    out += [f"- node {_node_head(n)}" for n in graph.nodes_removed]
    for change in graph.nodes_changed:
        note = " (citations only)" if change.citations_only else ""
        out.append(f"~ node {change.id} [{change.new.where}] rules: "
                   f"{rules_text(change.old.rules, change.new.rules, 'changed')}{note}")
        out += [f"    {change_text(c)}" for c in change.changes]
    out += [f"+ edge {edge_text(k)}{_edge_attrs(graph.new.edges[k])}" for k in graph.edges_added]
    out += [f"- edge {edge_text(k)}{_edge_attrs(graph.old.edges[k])}" for k in graph.edges_removed]
    for edge in graph.edges_changed:
        out.append(f"~ edge {edge_text(edge.key)}")
        out += [f"    {change_text(c)}" for c in edge.changes]
    return out


def render_text(diff: RulebookDiff) -> str:
    """Plain text for terminals: one block per section with changes."""
    out = [f"Rulebook diff: {diff.a.label} -> {diff.b.label}", f"Summary: {summary_text(diff)}"]
    if diff.empty:
        out.append("No differences.")
    for name, section in diff.sections.items():
        if section.empty:
            continue
        out += ["", f"== {name} =="]
        for item in section.items():
            note = " (citations only)" if item.citations_only else ""
            out.append(f"{SIGNS[item.kind]} {item.id} [{where_text(item)}] rules: "
                       f"{rules_text(item.old_rules, item.new_rules, item.kind)}{note}")
            verbs = verbs_text(item)
            if verbs:
                out.append(f"    verbs: {verbs}")
            out += [f"    {change_text(c)}" for c in item.changes]
    if not diff.graph.empty:
        out += ["", "== turn structure =="] + _graph_lines(diff.graph)
    return "\n".join(out) + "\n"


# -- markdown -------------------------------------------------------------------------------------


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def render_markdown(diff: RulebookDiff) -> str:
    """Markdown for pull requests: a summary table, then one list per section."""
    out = ["# Rulebook diff", "", f"- a: {_code(diff.a.label)}", f"- b: {_code(diff.b.label)}"]
    if diff.empty:
        out += ["", "No differences."]
        return "\n".join(out) + "\n"
    out += ["", "| section | added | removed | changed |", "|---|---|---|---|"]
    out += [f"| {name} | {c['added']} | {c['removed']} | {c['changed']} |"
            for name, c in diff.counts().items()]
    if not diff.graph.empty:
        g = diff.graph.counts()
        out.append(f"| turn nodes | {g['nodes_added']} | {g['nodes_removed']} | {g['nodes_changed']} |")
        out.append(f"| turn edges | {g['edges_added']} | {g['edges_removed']} | {g['edges_changed']} |")
    for name, section in diff.sections.items():
        if section.empty:
            continue
        out += ["", f"## {name}", ""]
        for item in section.items():
            note = " *(citations only)*" if item.citations_only else ""
            out.append(f"- **{item.kind}** {_code(item.id)} ({_code(where_text(item))}), rules "
                       f"{_code(rules_text(item.old_rules, item.new_rules, item.kind))}{note}")
            verbs = verbs_text(item)
            if verbs:
                out.append(f"  - verbs: {_code(verbs)}")
            out += [f"  - {_code(change_text(c))}" for c in item.changes]
    if not diff.graph.empty:
        out += ["", "## turn structure", ""] + [f"  - {_code(line.strip())}" if line.startswith("    ")
                                                else f"- {_code(line)}" for line in _graph_lines(diff.graph)]
    return "\n".join(out) + "\n"


# -- html -----------------------------------------------------------------------------------------

_CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans JP", sans-serif; color: #1f2328;
       max-width: 1100px; margin: 0 auto; padding: 1.5rem; }
h2 { font-size: 1.1rem; border-bottom: 1px solid #d1d9e0; margin-top: 2rem; }
.item { border: 1px solid #d1d9e0; border-left-width: 4px; border-radius: 6px; margin: .5rem 0;
        padding: .4rem .8rem; }
.added { border-left-color: #1a7f37; } .removed { border-left-color: #cf222e; }
.changed { border-left-color: #d97706; }
.id { font-family: ui-monospace, monospace; font-weight: 600; }
.meta { color: #59636e; font-size: .9rem; }
ul.changes { margin: .2rem 0; font-family: ui-monospace, monospace; font-size: .85rem; }
.graph svg { max-width: 100%; height: auto; }
pre { background: #f6f8fa; padding: .5rem; overflow: auto; }
del { background: #ffebe9; color: #82071e; } ins { background: #dafbe1; color: #116329; text-decoration: none; }
.note { color: #59636e; font-style: italic; }
"""


def _html_item(item: ItemChange) -> str:
    verbs = verbs_text(item)
    lines = [f"<li>verbs: {escape(verbs)}</li>"] if verbs else []
    lines += [f"<li>{change_html(c)}</li>" for c in item.changes]
    note = " (citations only)" if item.citations_only else ""
    return (f'<div class="item {item.kind}"><span class="id">{SIGNS[item.kind]} {escape(item.id)}</span> '
            f'<span class="meta">{escape(where_text(item))} · rules '
            f"{escape(rules_text(item.old_rules, item.new_rules, item.kind))}{note}</span>"
            + (f'<ul class="changes">{"".join(lines)}</ul>' if lines else "") + "</div>")


def render_html(diff: RulebookDiff) -> str:
    """A self-contained page; the turn graph is inlined as SVG when Graphviz is installed, else as DOT."""
    body = [f"<h1>Rulebook diff</h1><p class=\"meta\">a: {escape(diff.a.label)}<br>b: {escape(diff.b.label)}"
            f"<br>{escape(summary_text(diff))}</p>"]
    for name, section in diff.sections.items():
        if not section.empty:
            body.append(f"<section><h2>{escape(name)}</h2>{''.join(_html_item(i) for i in section.items())}"
                        "</section>")
    if not diff.graph.empty:
        lines = "".join(f"<li>{escape(line.strip())}</li>" for line in _graph_lines(diff.graph))
        dot_text = to_dot(diff.graph)
        picture = ('<p class="note">No picture: Graphviz (the <code>dot</code> program) is not installed here; '
                   "the DOT source below draws it.</p>"
                   f"<details><summary>DOT source</summary><pre>{escape(dot_text)}</pre></details>")
        if graphviz_available():
            try:
                svg = render_dot(dot_text, "svg")
                picture = svg[svg.find("<svg"):] if "<svg" in svg else picture
            except Exception:  # a broken Graphviz must not lose the report
                pass
        body.append(f'<section class="graph"><h2>turn structure</h2><ul class="changes">{lines}</ul>'
                    f"{picture}</section>")
    title = f"Rulebook diff: {diff.a.id} → {diff.b.id}"
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>{''.join(body)}"
            + ("<p><em>No differences.</em></p>" if diff.empty else "") + "</body></html>\n")


__all__ = ["RB_FORMATS", "change_html", "change_text", "render_rbdiff", "value_text", "word_diff", "word_diff_text"]
