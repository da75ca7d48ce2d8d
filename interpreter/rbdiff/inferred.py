"""The elements a rulebook infers (`inferred: DECISION_ID`), read from the files as written.

A maintainer who gets a fuller rules text wants every guess in one list, with what it rests on:
each inferred element, where it is, the decision that records the inference and that decision's
`evidence`. `sogo coverage GAME --inferred` prints this list; the coverage report carries it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.loader.inferred import EVIDENCE, INFERRED, element_label, mappings
from interpreter.loader.yaml_safe import PathKey

from .raw import Part, RawRulebook, display_path

_EDIT_KINDS = ("add", "replace")


@dataclass(frozen=True)
class InferredElement:
    """One element (or `cite` step, or transition) that says `inferred`, with the decision it names
    (`found` is False when there is no such decision)."""

    element: str
    section: str
    file: str
    line: int
    decision: str
    evidence: tuple[str, ...]
    found: bool

    @property
    def where(self) -> str:
        """``file:line`` of the element's `inferred` key."""
        return f"{self.file}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"element": self.element, "section": self.section, "file": self.file, "line": self.line,
                "decision": self.decision, "decision_found": self.found, "evidence": list(self.evidence)}


def _section(path: PathKey) -> str:
    """The section an element belongs to: the top-level key, or in an overlay's or format's
    `edits` the section an `add` or `replace` names."""
    head = str(path[0]) if path else "."
    if head == "edits":
        for i, key in enumerate(path[:-1]):
            if key in _EDIT_KINDS:
                return str(path[i + 1])
    return head


def _decisions(parts: list[Part]) -> dict[str, tuple[str, ...]]:
    """Every decision written in the files (a `decisions` list anywhere, edits included) -> its evidence."""
    found: dict[str, tuple[str, ...]] = {}
    for part in parts:
        for node, *_ in mappings(part.data):
            items = node.get("decisions")
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    evidence = item.get(EVIDENCE)
                    found[item["id"]] = tuple(str(x) for x in evidence) if isinstance(evidence, list) else ()
    return found


def inferred_elements(book: RawRulebook) -> list[InferredElement]:
    """Every element (`cite` steps and transitions too) of the rulebook's files that names a decision in
    `inferred`, in file order."""
    parts = book.parts + book.formats
    decisions = _decisions(parts)
    out: list[InferredElement] = []
    for part in parts:
        for node, path, enclosing, rel in mappings(part.data):
            name = node.get(INFERRED)
            if not isinstance(name, str) or "rules" not in node:
                continue
            line, _ = part.smap.get((*path, INFERRED))
            label = element_label(node, enclosing, rel if enclosing else path)
            out.append(InferredElement(label, _section(path), display_path(part.path), line, name,
                                       decisions.get(name, ()), name in decisions))
    return out


def render_inferred_text(items: list[InferredElement], labels: dict[str, str] | None = None) -> list[str]:
    """One line per element, then its evidence (with each rule's text when `labels` gives it)."""
    out: list[str] = []
    for item in items:
        decision = item.decision if item.found else f"{item.decision} (not in decisions)"
        out.append(f"  {item.element}  [{item.section}]  {item.where}  inferred: {decision}")
        for rule in item.evidence:
            label = (labels or {}).get(rule)
            out.append(f"      evidence {rule}" + (f" {label}" if label else ""))
    return out


__all__ = ["InferredElement", "inferred_elements", "render_inferred_text"]
