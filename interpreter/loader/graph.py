"""Build the turn structure from YAML as a networkx graph, then compile it for play.

Nodes are turns, phases and steps nested by `children`; a subgraph declared once can be expanded
under several parents (a phase every player runs). Edges carry their kind: `contains` (parent to
child), `flow` (the default order between siblings) and `next` (a guarded transition, a loop or a
jump). networkx serves validation (reachability) and rendering; play uses `CNode` records with
precomputed links, so the walker never searches the graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from interpreter.loader.compile import Compiler, Loc
from interpreter.model.vocabulary import Step

END = "@end"


@dataclass
class CNode:
    id: str
    base: str
    kind: str
    rules: tuple[str, ...]
    steps: tuple[Step, ...]
    children: list[str]
    parent: str | None
    prefix: str
    next: list[tuple[Callable[[Any], Any] | None, str, tuple[str, ...]]] = field(default_factory=list)
    tp_role: str | None = None
    ap_role: str | None = None
    counts_turn: bool = False
    next_sibling: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)


class TurnGraph:
    """The compiled turn structure."""

    def __init__(self) -> None:
        self.nodes: dict[str, CNode] = {}
        self.roots: list[str] = []
        self.g = nx.DiGraph()
        self.by_base: dict[str, list[str]] = {}
        self.locs: dict[str, Loc] = {}
        """Where each node is written, so problems with one node are reported at it."""

    def resolve(self, name: str, near: str | None) -> str | None:
        """Resolve a node name written in the rulebook: a full id, or a base id found nearest
        to `near` (the instance sharing the longest id prefix)."""
        if name in self.nodes:
            return name
        cands = self.by_base.get(name)
        if not cands:
            # A dotted path may omit leading ancestors: "first_normal_phase.main_phase".
            cands = [n for n in self.nodes if n.endswith("." + name)]
        if not cands:
            return None
        if len(cands) == 1 or near is None:
            return cands[0]

        def shared(c: str) -> int:
            n = 0
            for x, y in zip(c.split("."), near.split("."), strict=False):
                if x != y:
                    break
                n += 1
            return n

        return max(cands, key=shared)

    def ancestors(self, nid: str) -> list[str]:
        out = []
        p = self.nodes[nid].parent
        while p is not None:
            out.append(p)
            p = self.nodes[p].parent
        return out


def build_graph(raw_root: Any, subgraphs: dict[str, tuple[Any, Loc]], root_loc: Loc, comp: Compiler,
                roles: set[str]) -> TurnGraph:
    """The nodes (subgraphs expanded in place, ids prefixed by their parents'), then the `next`
    transitions, which may name any node, then each node's effective roles."""
    tg = TurnGraph()
    pending_next: list[tuple[CNode, Any, Loc]] = []

    def add(spec: Any, loc: Loc, parent: CNode | None, prefix: str, expanding: tuple[str, ...]) -> CNode | None:
        if not isinstance(spec, dict) or "id" not in spec:
            comp.error(loc, "a turn-structure node needs an 'id'")
            return None
        base = spec["id"]
        nid = prefix + base
        if nid in tg.nodes:
            comp.error(loc.at("id"), f"duplicate node id '{nid}'")
            return None
        kind = spec.get("kind", "step")
        node = CNode(nid, base, kind, tuple(spec.get("rules", ())), (), [], parent.id if parent else None,
                     prefix, raw=spec)
        node.counts_turn = bool(spec.get("counts_turn", False))
        for key, attr in (("turn_player", "tp_role"), ("active_player", "ap_role")):
            if key in spec:
                val = spec[key]
                if val not in roles and val not in ("none", "turn_player"):
                    comp.error(loc.at(key), f"unknown role '{val}' (known: {', '.join(sorted(roles))}, none, "
                                            "turn_player)")
                setattr(node, attr, val)
        tg.nodes[nid] = node
        tg.locs[nid] = loc
        tg.by_base.setdefault(base, []).append(nid)
        tg.g.add_node(nid, kind=kind, base=base, rules=list(node.rules), label=base)
        if parent is not None:
            tg.g.add_edge(parent.id, nid, kind="contains")
        kids: list[tuple[Any, Loc]] = []
        child_prefix = nid + "."
        if "expand" in spec:
            name = spec["expand"]
            if name not in subgraphs:
                comp.error(loc.at("expand"), f"unknown subgraph '{name}' (known: {', '.join(sorted(subgraphs))})")
            elif name in expanding:
                comp.error(loc.at("expand"), f"subgraph '{name}' expands itself")
            else:
                sub, sloc = subgraphs[name]
                kids = [(c, sloc.at("children", i)) for i, c in enumerate(sub.get("children", []))]
                expanding = expanding + (name,)
        elif "children" in spec:
            kids = [(c, loc.at("children", i)) for i, c in enumerate(spec["children"])]
        if "do" in spec and kids:
            comp.error(loc.at("do"), "a node has either children or 'do', not both")
        if "do" in spec:
            node.steps = comp.steps(spec["do"], loc.at("do"))
        prev: CNode | None = None
        for c, cl in kids:
            child = add(c, cl, node, child_prefix, expanding)
            if child is None:
                continue
            node.children.append(child.id)
            if prev is not None:
                prev.next_sibling = child.id
                tg.g.add_edge(prev.id, child.id, kind="flow")
            prev = child
        if "next" in spec:
            pending_next.append((node, spec["next"], loc.at("next")))
        return node

    root = add(raw_root, root_loc, None, "", ())
    if root is None:
        return tg
    tg.roots.append(root.id)
    _add_transitions(tg, pending_next, comp)
    _resolve_roles(tg)
    return tg


def _add_transitions(tg: TurnGraph, pending_next: list[tuple[CNode, Any, Loc]], comp: Compiler) -> None:
    for node, nexts, nloc in pending_next:
        if not isinstance(nexts, list):
            comp.error(nloc, "'next' is a list of {to, if, rules}")
            continue
        for i, t in enumerate(nexts):
            tl = nloc.at(i)
            if not isinstance(t, dict) or "to" not in t:
                comp.error(tl, "a transition needs 'to'")
                continue
            target = t["to"]
            if target != END:
                resolved = tg.resolve(target, node.id)
                if resolved is None:
                    comp.error(tl.at("to"), f"transition to nowhere: no node '{target}'")
                    continue
                target = resolved
                tg.g.add_edge(node.id, target, kind="next")
            guard = comp.expr(t["if"], tl.at("if")) if "if" in t else None
            node.next.append((guard, target, tuple(t.get("rules", ()))))


def _resolve_roles(tg: TurnGraph) -> None:
    """A node's turn and active player come from its nearest ancestor that names them; worked out
    once, so the walker only reads them."""
    for nid, node in tg.nodes.items():
        tp, ap = node.tp_role, node.ap_role
        for anc in tg.ancestors(nid):
            a = tg.nodes[anc]
            if tp is None and a.tp_role is not None:
                tp = a.tp_role
            if ap is None and a.ap_role is not None:
                ap = a.ap_role
        node.tp_role = None if tp in (None, "none") else tp
        node.ap_role = ap


def jump_targets(graph: TurnGraph, steps_targets: list[tuple[str, Loc]], comp: Compiler) -> None:
    """Add edges for nodes named by `jump` / `skip` verbs so reachability sees them."""
    for name, loc in steps_targets:
        target = graph.resolve(name, None)
        if target is None:
            comp.error(loc, f"no node '{name}' in the turn structure")
            continue
        for root in graph.roots:
            graph.g.add_edge(root, target, kind="jump")


def flow_graph(graph: TurnGraph) -> nx.DiGraph:
    """The execution order as a graph: a parent enters its first child; a node ends into its
    transitions, and into its next sibling (or its parent's ending) unless a transition always fires."""
    fg = nx.DiGraph()

    def ends_into(nid: str, seen: frozenset[str] = frozenset()) -> set[str]:
        if nid in seen:
            return set()
        node = graph.nodes[nid]
        out: set[str] = set()
        unconditional = False
        for guard, target, _ in node.next:
            if target == END:
                if node.parent is not None:
                    out |= ends_into(node.parent, seen | {nid})
            else:
                out.add(target)
            if guard is None:
                unconditional = True
                break
        if not unconditional:
            if node.next_sibling is not None:
                out.add(node.next_sibling)
            elif node.parent is not None:
                out |= ends_into(node.parent, seen | {nid})
        return out

    for nid, node in graph.nodes.items():
        fg.add_node(nid)
        if node.children:
            fg.add_edge(nid, node.children[0])
        else:
            for t in ends_into(nid):
                fg.add_edge(nid, t)
    for u, v, d in graph.g.edges(data=True):
        if d.get("kind") == "jump":
            fg.add_edge(u, v)
    return fg


def check_reachable(graph: TurnGraph, comp: Compiler, loc_of: Callable[[str], Loc]) -> None:
    """Every node must be reachable from a root along the execution order or a jump, and every root
    must be able to start again (see check_repeats)."""
    fg = flow_graph(graph)
    seen: set[str] = set()
    for r in graph.roots:
        seen.add(r)
        seen |= nx.descendants(fg, r)
    for nid in graph.nodes:
        if nid not in seen:
            comp.error(loc_of(nid), f"node '{nid}' can never be reached")
    check_repeats(graph, comp, loc_of, fg)


def check_repeats(graph: TurnGraph, comp: Compiler, loc_of: Callable[[str], Loc],
                  fg: nx.DiGraph | None = None) -> None:
    """A turn structure repeats until an outcome ends the game: from its root, some path along the
    execution order (a `next` transition, or a jump to the root) must lead back to the root. One
    that cannot would run each of its nodes once and then stop with no result."""
    fg = flow_graph(graph) if fg is None else fg
    for r in graph.roots:
        if fg.has_edge(r, r) or any(nx.has_path(fg, s, r) for s in fg.successors(r)):
            continue
        comp.error(loc_of(r), f"the turn structure '{r}' can never start again: nothing leads back to it "
                              f"after its end (a turn repeats until an outcome ends the game: add "
                              f"`next: [{{to: {r}}}]` to it)")
