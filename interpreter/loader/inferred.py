"""Elements a rulebook infers rather than reads: `inferred: DECISION_ID` checked against `decisions`.

A rules text can leave things unsaid that a playable rulebook must still decide (a page that never
states how a comparison resolves, only examples that imply it). Such an element carries
`inferred:` naming the decision that records the inference, and that decision lists its
`evidence`, so every guess can be found (`sogo coverage RULEBOOK --inferred`) and corrected when a
fuller text arrives. Here the loader makes sure each name resolves, so the trail never breaks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.loader.compile import Loc
from interpreter.loader.diagnostics import Diagnostics
from interpreter.loader.sections import LIST_SECTIONS, Merged

INFERRED = "inferred"
EVIDENCE = "evidence"


def element_label(node: dict[str, Any], enclosing: str | None, path: tuple[Any, ...]) -> str:
    """How an inferred mapping is named: its id, or for a `cite` step or a transition (which have
    none) the id of the element around it and the path from there (`setup.do[2].cite`)."""
    if isinstance(node.get("id"), str):
        return node["id"]
    tail = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
    return f"{enclosing or ''}{tail}".lstrip(".") or "."


def mappings(value: Any, path: tuple[Any, ...] = (), enclosing: str | None = None, rel: tuple[Any, ...] = ()
             ) -> Iterator[tuple[dict[str, Any], tuple[Any, ...], str | None, tuple[Any, ...]]]:
    """Every mapping inside `value` with its path, the id of the nearest element around it (before
    its own) and the path from that element (`element_label` names an id-less one by these)."""
    if isinstance(value, dict):
        yield value, path, enclosing, rel
        if isinstance(value.get("id"), str):
            enclosing, rel = value["id"], ()
        for key, child in value.items():
            yield from mappings(child, (*path, key), enclosing, (*rel, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from mappings(child, (*path, index), enclosing, (*rel, index))


def inferred_elements(m: Merged) -> Iterator[tuple[dict[str, Any], str, Loc]]:
    """Every mapping with `rules` that says `inferred` (an element, a `cite` step, a transition), at
    any depth, with its name and where it is."""
    for section, value in m.data.items():
        tops = (list(enumerate(value)) if section in LIST_SECTIONS and isinstance(value, list)
                else [(None, value)])
        for index, top in tops:
            base = m.loc(section) if index is None else m.loc(section, index)
            for node, path, enclosing, rel in mappings(top, (), None, (section,)):
                if INFERRED in node and "rules" in node:
                    yield node, element_label(node, enclosing, rel), base.at(*path)


def check_inferred(m: Merged, diags: Diagnostics) -> None:
    """Report an `inferred` naming no decision, and a decision named so that gives no `evidence`."""
    decisions: dict[str, tuple[dict[str, Any], Loc]] = {}
    for index, item in enumerate(m.data.get("decisions", []) or []):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            decisions.setdefault(item["id"], (item, m.loc("decisions", index)))
    without_evidence: set[str] = set()
    for element, label, loc in inferred_elements(m):
        name = element[INFERRED]
        where = loc.at(INFERRED)
        line, col = where.pos()
        if not isinstance(name, str):
            continue  # the schema says what an id looks like
        if name not in decisions:
            known = ", ".join(sorted(decisions)) or "none"
            diags.add(where.file, line, col, f"element '{label}' is inferred by decision '{name}', "
                                             f"which is not in decisions (decisions: {known})")
            continue
        decision, dloc = decisions[name]
        if not decision.get(EVIDENCE) and name not in without_evidence:
            without_evidence.add(name)
            dline, dcol = dloc.at("id").pos()
            diags.add(dloc.file, dline, dcol, f"decision '{name}' records an inference (element "
                                              f"'{label}' at {where} names it) but gives no evidence: "
                                              f"list the rules that imply it")


__all__ = ["EVIDENCE", "INFERRED", "check_inferred", "element_label", "inferred_elements", "mappings"]
