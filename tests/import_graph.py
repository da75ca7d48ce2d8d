"""The import graph of the interpreter's modules, read from their sources (not by importing them).

Every `import` and `from ... import` counts wherever it is written: at module level, inside a
function (an import deferred to break a circle is still a dependency) or under `if TYPE_CHECKING:`
(marked, since it matters to the types, and so to a compiled build, but not when the code runs).
tests/test_layers.py checks the engine's layers on this graph; run it as a script to see the graph:

    python tests/import_graph.py            # cycles among packages and among modules
    python tests/import_graph.py --edges    # every import from one package into another
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported (a package's __init__ is the package's name)
    line: int
    deferred: bool  # written inside a function
    type_only: bool  # written under `if TYPE_CHECKING:`


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the interpreter package by its dotted name."""
    out = {}
    for path in sorted((root / "interpreter").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _targets(module: str, is_package: bool, node: ast.ImportFrom, known: dict[str, Path]) -> list[str]:
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - (node.level - 1)]
        prefix = ".".join(base + ([node.module] if node.module else []))
    else:
        prefix = node.module or ""
    out = []
    for alias in node.names:
        sub = f"{prefix}.{alias.name}"
        out.append(sub if sub in known else prefix)  # `from pkg import module` imports that module
    return out


def imports(root: Path = ROOT) -> list[Import]:
    """Every import of an interpreter module by an interpreter module."""
    known = modules(root)
    out: list[Import] = []

    def visit(module: str, is_package: bool, node: ast.AST, deferred: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            d = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            t = type_only or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))
            if isinstance(child, ast.Import):
                targets = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                targets = _targets(module, is_package, child, known)
            else:
                targets = []
            for target in targets:
                if target.startswith("interpreter."):
                    out.append(Import(module, target, child.lineno, d, t))
                    # Importing `a.b.c` runs the package `a.b` first (the root package's own code
                    # imports nothing of the interpreter, so it is left out).
                    parts = target.split(".")
                    for k in range(2, len(parts)):
                        parent = ".".join(parts[:k])
                        if parent in known and parent != module:
                            out.append(Import(module, parent, child.lineno, d, t))
            visit(module, is_package, child, d, t)

    for module, path in known.items():
        visit(module, path.name == "__init__.py", ast.parse(path.read_text(encoding="utf-8")), False, False)
    return out


def package(module: str) -> str:
    """The top-level part a module belongs to: `interpreter.table.reads` -> `timing`; a module
    directly under interpreter (`interpreter.sim`) is its own part, the root package is `interpreter`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def graph(edges: list[Import], of: str = "package", type_only: bool = True) -> nx.DiGraph:
    """Packages (or modules) and the imports between them, each edge with the imports behind it."""
    g = nx.DiGraph()
    for e in edges:
        if e.type_only and not type_only:
            continue
        a, b = (package(e.source), package(e.target)) if of == "package" else (e.source, e.target)
        if a != b:
            g.add_edge(a, b)
            g[a][b].setdefault("why", []).append(e)
    return g


def cycles(g: nx.DiGraph) -> list[list[str]]:
    """The strongly connected parts of more than one node: the import circles."""
    return sorted((sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1), key=len, reverse=True)


def _why(e: Import) -> str:
    return f"{e.source}:{e.line} -> {e.target}" + (" (in a function)" if e.deferred else "") + \
        (" (types only)" if e.type_only else "")


def main() -> None:
    edges = imports()
    for of in ("package", "module"):
        found = cycles(graph(edges, of))
        print(f"{len(found)} circle(s) among {of}s" + (":" if found else ""))
        for c in found:
            print(f"  {len(c)}: {', '.join(c)}")
    if "--edges" in sys.argv:
        g = graph(edges)
        for a, b in sorted(g.edges):
            why = g[a][b]["why"]
            print(f"{a} -> {b} ({len(why)}): {'; '.join(_why(e) for e in why[:3])}{' ...' if len(why) > 3 else ''}")


if __name__ == "__main__":
    main()
