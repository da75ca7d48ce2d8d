"""Render the turn structure for people: Graphviz DOT or Mermaid, nested by containment."""

from __future__ import annotations

from interpreter.loader.graph import END, TurnGraph


def _safe(nid: str) -> str:
    return nid.replace(".", "__").replace("@", "at_")


def to_mermaid(g: TurnGraph) -> str:
    lines = ["flowchart TD"]

    def emit(nid: str, indent: str) -> None:
        node = g.nodes[nid]
        label = f"{node.base}<br/><small>{', '.join(node.rules[:3])}</small>"
        if node.children:
            lines.append(f'{indent}subgraph {_safe(nid)}["{label}"]')
            for c in node.children:
                emit(c, indent + "  ")
            lines.append(f"{indent}end")
        else:
            lines.append(f'{indent}{_safe(nid)}["{label}"]')

    for r in g.roots:
        emit(r, "  ")
    for nid, node in g.nodes.items():
        if node.next_sibling:
            lines.append(f"  {_safe(nid)} --> {_safe(node.next_sibling)}")
        for guard, target, _ in node.next:
            if target == END:
                continue
            style = "-. guarded .->" if guard is not None else "==>"
            lines.append(f"  {_safe(nid)} {style} {_safe(target)}")
    return "\n".join(lines)


def to_dot(g: TurnGraph) -> str:
    lines = ["digraph turn {", "  compound=true; rankdir=TB; node [shape=box, fontsize=10];"]

    def emit(nid: str, indent: str) -> None:
        node = g.nodes[nid]
        label = f"{node.base}\\n{', '.join(node.rules[:3])}"
        if node.children:
            lines.append(f'{indent}subgraph "cluster_{nid}" {{ label="{label}";')
            for c in node.children:
                emit(c, indent + "  ")
            lines.append(f"{indent}}}")
        else:
            lines.append(f'{indent}"{nid}" [label="{label}"];')

    for r in g.roots:
        emit(r, "  ")
    for nid, node in g.nodes.items():
        if node.next_sibling and not node.children and not g.nodes[node.next_sibling].children:
            lines.append(f'  "{nid}" -> "{node.next_sibling}";')
        for guard, target, _ in node.next:
            if target != END and target in g.nodes and not g.nodes[target].children and not node.children:
                lines.append(f'  "{nid}" -> "{target}" [style={"dashed" if guard is not None else "bold"}];')
    lines.append("}")
    return "\n".join(lines)
