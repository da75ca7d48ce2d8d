"""The turn structure as a node/edge graph read from raw YAML, its diff, and a DOT picture of it.

Graphs are compared with set algebra on ids, not graph edit distance (NP-hard,
and it only yields a number; see the anchors on networkx): nodes are every
mapping with an ``id`` reached through ``children`` from ``turn`` and from each
of ``subgraphs``; edges are containment (parent -> child), sibling order
(child -> next child), ``next`` transitions (with their guard, rules and
position among the node's transitions) and ``expand`` (node -> subgraph).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.files import write_text_atomic

from .fields import FieldChange, canonical, diff_values
from .raw import RawRulebook, cited_rules

EDGE_KINDS = ("contains", "then", "next", "expands")
STRUCTURE_KEYS = frozenset({"children", "next"})
END_PREFIX = "@"  # `to: "@end"` ends the enclosing node

EdgeKey = tuple[str, str, str]  # (kind, source, target)


@dataclass
class Node:
    """One node of the turn structure with its own fields (children and transitions are edges)."""

    id: str
    kind: str | None
    attrs: dict[str, Any]
    where: str | None = None  # "turn.yaml:42"; None for pseudo nodes such as "@end:phase"

    @property
    def rules(self) -> list[str]:
        """Rules the node itself cites."""
        return cited_rules(self.attrs)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (fields are in the rulebook; the diff lists what changed)."""
        return {"id": self.id, "kind": self.kind, "rules": self.rules, "where": self.where}


@dataclass
class TurnGraph:
    """Nodes by id and edges by (kind, source, target) with their attributes."""

    nodes: dict[str, Node] = field(default_factory=dict)
    edges: dict[EdgeKey, dict[str, Any]] = field(default_factory=dict)


def _end_node(target: str, owner: str | None) -> str:
    return f"{target}:{owner}" if owner else target


def build_turn_graph(book: RawRulebook) -> TurnGraph:
    """Read ``turn`` and ``subgraphs`` of every part into one graph."""
    graph = TurnGraph()

    def add(node: dict[str, Any], part_name: str, line: int) -> str:
        nid = node["id"]
        if nid in graph.nodes:  # a duplicate id: keep both, visibly
            suffix = 2
            while f"{nid}#{suffix}" in graph.nodes:
                suffix += 1
            nid = f"{nid}#{suffix}"
        attrs = {k: v for k, v in node.items() if k not in STRUCTURE_KEYS}
        graph.nodes[nid] = Node(nid, str(node["kind"]) if node.get("kind") is not None else None, attrs,
                                f"{part_name}:{line}")
        return nid

    def walk(node: dict[str, Any], parent: str | None, part: Any, path: tuple[str | int, ...]) -> str:
        nid = add(node, part.name, part.smap.get(path)[0])
        if isinstance(node.get("expand"), str):
            graph.edges[("expands", nid, node["expand"])] = {}
        transitions = node.get("next")
        if isinstance(transitions, str | dict):
            transitions = [transitions]
        for order, transition in enumerate(transitions or []):
            spec = {"to": transition} if isinstance(transition, str) else transition
            if not isinstance(spec, dict) or not isinstance(spec.get("to"), str):
                continue
            target = spec["to"]
            if target.startswith(END_PREFIX):
                target = _end_node(target, parent)
                graph.nodes.setdefault(target, Node(target, "end", {}))
            attrs = {k: v for k, v in spec.items() if k != "to"}
            attrs["order"] = order
            graph.edges[("next", nid, target)] = attrs
        previous: str | None = None
        children = node.get("children")
        for index, child in enumerate(children if isinstance(children, list) else []):
            if not (isinstance(child, dict) and isinstance(child.get("id"), str)):
                continue
            cid = walk(child, nid, part, (*path, "children", index))
            graph.edges[("contains", nid, cid)] = {}
            if previous is not None:
                graph.edges[("then", previous, cid)] = {}
            previous = cid
        return nid

    for part, key, value in book.top_level():
        if key == "turn" and isinstance(value, dict) and isinstance(value.get("id"), str):
            walk(value, None, part, ("turn",))
        elif key == "subgraphs" and isinstance(value, list):
            for index, root in enumerate(value):
                if isinstance(root, dict) and isinstance(root.get("id"), str):
                    walk(root, None, part, ("subgraphs", index))
    return graph


@dataclass
class NodeChange:
    """A node present in both graphs whose own fields differ."""

    id: str
    old: Node
    new: Node
    changes: list[FieldChange]

    @property
    def citations_only(self) -> bool:
        """True when only the node's cited rule numbers changed."""
        return bool(self.changes) and all(change.citation_only for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "kind": self.new.kind, "rules": {"old": self.old.rules, "new": self.new.rules},
                "where": {"old": self.old.where, "new": self.new.where},
                "changes": [c.to_dict() for c in self.changes], "citations_only": self.citations_only}


@dataclass
class EdgeChange:
    """An edge present in both graphs whose attributes (guard, rules, order) differ."""

    key: EdgeKey
    old: dict[str, Any]
    new: dict[str, Any]
    changes: list[FieldChange]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        kind, source, target = self.key
        return {"kind": kind, "from": source, "to": target, "changes": [c.to_dict() for c in self.changes]}


def _edge_dict(key: EdgeKey, attrs: dict[str, Any]) -> dict[str, Any]:
    kind, source, target = key
    return {"kind": kind, "from": source, "to": target, **({"attrs": attrs} if attrs else {})}


@dataclass
class GraphDiff:
    """Nodes and edges added, removed or changed between two turn graphs."""

    old: TurnGraph
    new: TurnGraph
    nodes_added: list[Node] = field(default_factory=list)
    nodes_removed: list[Node] = field(default_factory=list)
    nodes_changed: list[NodeChange] = field(default_factory=list)
    edges_added: list[EdgeKey] = field(default_factory=list)
    edges_removed: list[EdgeKey] = field(default_factory=list)
    edges_changed: list[EdgeChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when the turn structures are the same."""
        return not (self.nodes_added or self.nodes_removed or self.nodes_changed or self.edges_added
                    or self.edges_removed or self.edges_changed)

    def counts(self) -> dict[str, int]:
        """How many of each kind of change."""
        return {name: len(getattr(self, name)) for name in ("nodes_added", "nodes_removed", "nodes_changed",
                                                             "edges_added", "edges_removed", "edges_changed")}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "nodes": {"added": [n.to_dict() for n in self.nodes_added],
                      "removed": [n.to_dict() for n in self.nodes_removed],
                      "changed": [c.to_dict() for c in self.nodes_changed]},
            "edges": {"added": [_edge_dict(k, self.new.edges[k]) for k in self.edges_added],
                      "removed": [_edge_dict(k, self.old.edges[k]) for k in self.edges_removed],
                      "changed": [c.to_dict() for c in self.edges_changed]},
            "counts": self.counts(),
        }


def diff_graphs(old: TurnGraph, new: TurnGraph) -> GraphDiff:
    """Set algebra on node ids and edge keys, then field diffs of what both have."""
    result = GraphDiff(old, new)
    result.nodes_added = [n for nid, n in new.nodes.items() if nid not in old.nodes]
    result.nodes_removed = [n for nid, n in old.nodes.items() if nid not in new.nodes]
    for nid, before in old.nodes.items():
        after = new.nodes.get(nid)
        if after is not None and canonical(before.attrs) != canonical(after.attrs):
            changes = diff_values(before.attrs, after.attrs)
            result.nodes_changed.append(NodeChange(nid, before, after, changes))
    result.edges_added = [k for k in new.edges if k not in old.edges]
    result.edges_removed = [k for k in old.edges if k not in new.edges]
    for key, attrs in old.edges.items():
        if key in new.edges and canonical(attrs) != canonical(new.edges[key]):
            changes = diff_values(attrs, new.edges[key])
            result.edges_changed.append(EdgeChange(key, attrs, new.edges[key], changes))
    return result


# -- DOT ------------------------------------------------------------------------------------------

COLORS = {"added": "#1a7f37", "removed": "#cf222e", "changed": "#d97706", "same": "#57606a"}


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _style(status: str) -> str:
    color = COLORS[status]
    parts = [f'color="{color}"', f'fontcolor="{color}"']
    if status == "removed":
        parts.append('style="dashed"')
    if status in ("added", "removed", "changed"):
        parts.append("penwidth=2")
    return ", ".join(parts)


def _short(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_dot(diff: GraphDiff, title: str = "turn") -> str:
    """The union of both graphs; added green, removed red and dashed, changed orange, the rest grey."""
    added = {n.id for n in diff.nodes_added}
    removed = {n.id for n in diff.nodes_removed}
    changed = {c.id for c in diff.nodes_changed}
    lines = [f"digraph {_q(title)} {{", "  rankdir=LR; newrank=true;",
             '  node [shape=box, fontsize=10, fontname="Helvetica"];',
             '  edge [fontsize=9, fontname="Helvetica"];']
    nodes = {**diff.old.nodes, **diff.new.nodes}
    parents = {source for kind, source, _ in [*diff.old.edges, *diff.new.edges] if kind == "contains"}
    for nid, node in nodes.items():
        status = "added" if nid in added else "removed" if nid in removed else "changed" if nid in changed \
            else "same"
        rules = ", ".join(node.rules[:3]) + (" …" if len(node.rules) > 3 else "")
        label = f"{nid}\n{node.kind or ''} {rules}".rstrip()
        shape = "shape=folder, " if nid in parents else "shape=oval, " if node.kind == "end" else ""
        lines.append(f"  {_q(nid)} [{shape}label={_q(label)}, {_style(status)}];")
    edge_status: dict[EdgeKey, str] = {k: "same" for k in diff.new.edges}
    edge_status.update({k: "added" for k in diff.edges_added})
    edge_status.update({c.key: "changed" for c in diff.edges_changed})
    edge_status.update({k: "removed" for k in diff.edges_removed})
    for key, status in edge_status.items():
        kind, source, target = key
        attrs = diff.new.edges.get(key, diff.old.edges.get(key, {}))
        extra = {
            "contains": 'arrowhead="none"',
            "then": "constraint=false",
            "next": f'constraint=false, label={_q(_short(str(attrs.get("if", ""))) or "next")}',
            "expands": 'arrowhead="empty", label="expands"',
        }[kind]
        style = _style(status)
        if kind == "next" and status != "removed":
            style += ', style="bold"'
        lines.append(f"  {_q(source)} -> {_q(target)} [{extra}, {style}];")
    lines += ['  subgraph "cluster_legend" { label="legend"; fontsize=10;',
              *(f'    "legend_{s}" [label="{s}", {_style(s)}];' for s in ("added", "removed", "changed")),
              "  }", "}"]
    return "\n".join(lines) + "\n"


def graphviz_available() -> bool:
    """Whether the ``dot`` program is on PATH."""
    return shutil.which("dot") is not None


def render_dot(dot_text: str, fmt: str = "svg") -> str:
    """Run Graphviz on ``dot_text``; raises OSError or CalledProcessError when it fails."""
    done = subprocess.run(["dot", f"-T{fmt}"], input=dot_text, capture_output=True, text=True, check=True,
                          timeout=120)
    return done.stdout


def write_graph(diff: GraphDiff, out: Path, title: str = "turn") -> tuple[Path, str | None]:
    """Write the picture to ``out``: SVG through Graphviz when asked and available, else DOT.

    Returns the path written and a warning when an SVG was asked for but DOT was written instead.
    """
    dot_text = to_dot(diff, title)
    if out.suffix.lower() == ".svg":
        if graphviz_available():
            write_text_atomic(out, render_dot(dot_text, "svg"))
            return out, None
        fallback = out.with_suffix(".dot")
        write_text_atomic(fallback, dot_text)
        return fallback, f"graphviz 'dot' is not installed; wrote {fallback} instead of {out}"
    write_text_atomic(out, dot_text)
    return out, None


__all__ = ["EDGE_KINDS", "GraphDiff", "Node", "TurnGraph", "build_turn_graph", "diff_graphs",
           "graphviz_available", "render_dot", "to_dot", "write_graph"]
