"""Semantic diff of two rulebooks: elements matched by ``id`` per section, plus the turn graph.

An element that keeps its id but moves to another file or another place in its
list is not a change; renamed ids show as one removal and one addition (rename
detection is out of scope). Sections not named in :data:`SECTIONS` are still
compared: other lists of elements become their own section, and every other
top-level value is one item of the section ``other``, so nothing is missed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .fields import FieldChange, canonical, diff_values, step_verbs
from .graph import GraphDiff, build_turn_graph, diff_graphs
from .raw import NOT_ENCODED, RawRulebook, cited_rules, display_path

# (section name, where its elements live: a top-level key, optionally a key inside it)
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("zones", ("zones",)),
    ("card_types", ("card_types",)),
    ("enums", ("enums",)),
    ("placement_states", ("placement_states",)),
    ("templates", ("templates",)),
    ("keywords", ("keywords",)),
    ("events", ("events",)),
    ("actions", ("actions",)),
    ("rule_processing", ("rule_processing", "processes")),
    ("functions", ("functions",)),
    ("decisions", ("decisions",)),
    ("not_encoded", ("not_encoded",)),
    ("roles", ("roles",)),
)
GRAPH_KEYS = frozenset({"turn", "subgraphs"})
SKIPPED_KEYS = frozenset({"id", "parts"})  # the rulebook's own id differs by design; parts is file layout
OTHER = "other"
KINDS = ("added", "removed", "changed")


@dataclass
class Element:
    """One element of a section as found in a rulebook."""

    id: str
    value: Any
    where: str  # "zones.yaml:40"


@dataclass
class ItemChange:
    """One element added, removed or changed, with the rules it cites on each side."""

    kind: str
    section: str
    id: str
    old: Element | None = None
    new: Element | None = None
    changes: list[FieldChange] = field(default_factory=list)

    @property
    def old_rules(self) -> list[str]:
        """Rules cited by the old element (empty when added)."""
        return cited_rules(self.old.value) if self.old else []

    @property
    def new_rules(self) -> list[str]:
        """Rules cited by the new element (empty when removed)."""
        return cited_rules(self.new.value) if self.new else []

    @property
    def old_verbs(self) -> list[str]:
        """Effect verbs the old element's steps use."""
        return step_verbs(self.old.value) if self.old else []

    @property
    def new_verbs(self) -> list[str]:
        """Effect verbs the new element's steps use."""
        return step_verbs(self.new.value) if self.new else []

    @property
    def citations_only(self) -> bool:
        """True when only cited rule numbers changed (a renumbering to check, not a change of behaviour)."""
        return bool(self.changes) and all(change.citation_only for change in self.changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {"id": self.id, "rules": {"old": self.old_rules, "new": self.new_rules},
                                "where": {"old": self.old.where if self.old else None,
                                          "new": self.new.where if self.new else None}}
        if self.old_verbs or self.new_verbs:
            data["verbs"] = {"old": self.old_verbs, "new": self.new_verbs}
        if self.kind == "changed":
            data["changes"] = [change.to_dict() for change in self.changes]
            data["citations_only"] = self.citations_only
        else:
            shown = self.new or self.old
            data["value"] = shown.value if shown else None
        return data


@dataclass
class SectionDiff:
    """Added, removed and changed elements of one section."""

    name: str
    added: list[ItemChange] = field(default_factory=list)
    removed: list[ItemChange] = field(default_factory=list)
    changed: list[ItemChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when the section is the same in both rulebooks."""
        return not (self.added or self.removed or self.changed)

    def items(self) -> list[ItemChange]:
        """Every change of the section: added, removed, then changed."""
        return [*self.added, *self.removed, *self.changed]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {kind: [item.to_dict() for item in getattr(self, kind)] for kind in KINDS}


@dataclass
class RulebookInfo:
    """Which rulebook one side of the diff is."""

    id: str
    version: str | None
    path: str

    @property
    def label(self) -> str:
        """``id (rules 1.06) at path`` for headers."""
        version = f" (rules {self.version})" if self.version else ""
        return f"{self.id}{version} at {self.path}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "rules_version": self.version, "path": self.path}


@dataclass
class RulebookDiff:
    """Everything that differs between rulebooks ``a`` and ``b``."""

    a: RulebookInfo
    b: RulebookInfo
    sections: dict[str, SectionDiff]
    graph: GraphDiff

    @property
    def empty(self) -> bool:
        """True when no section and not the turn structure differ."""
        return all(section.empty for section in self.sections.values()) and self.graph.empty

    def counts(self) -> dict[str, dict[str, int]]:
        """Per section, how many elements were added, removed or changed (sections with changes only)."""
        return {name: {kind: len(getattr(section, kind)) for kind in KINDS}
                for name, section in self.sections.items() if not section.empty}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``{"a", "b", "sections": {name: {added, removed, changed}}, "graph"}``."""
        return {"a": self.a.to_dict(), "b": self.b.to_dict(), "empty": self.empty,
                "sections": {name: section.to_dict() for name, section in self.sections.items()},
                "graph": self.graph.to_dict()}


def _element_id(section: str, value: Any, index: int) -> str:
    """The id; not_encoded entries have none and are known by their reason, which survives renumbering."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            return value["id"]
        if section == NOT_ENCODED:
            reason = str(value.get("reason") or "").strip()
            if reason:
                return reason if len(reason) <= 60 else reason[:59] + "…"
            if isinstance(value.get("rules"), list):
                return ", ".join(str(number) for number in value["rules"])
    return f"#{index}"


def collect_elements(book: RawRulebook) -> dict[str, dict[str, Element]]:
    """Elements of every section by id; list sections are merged across files, as the loader does."""
    spots = {location: name for name, location in SECTIONS}
    found: dict[str, dict[str, Element]] = {name: {} for name, _ in SECTIONS}

    def put(section: str, eid: str, element: Element) -> None:
        bucket = found.setdefault(section, {})
        key, suffix = eid, 2
        while key in bucket:  # duplicate ids are kept apart rather than silently overwritten
            key, suffix = f"{eid}#{suffix}", suffix + 1
        element.id = key
        bucket[key] = element

    for part, key, value in book.top_level():
        if key in GRAPH_KEYS or key in SKIPPED_KEYS:
            continue
        nested = next(((name, loc[1]) for loc, name in spots.items()
                       if loc[0] == key and len(loc) == 2 and isinstance(value, dict)), None)
        if nested is not None:
            name, inner = nested
            items = value.get(inner)
            for index, item in enumerate(items if isinstance(items, list) else []):
                eid = _element_id(name, item, index)
                put(name, eid, Element(eid, item, part.where((key, inner, index))))
            rest = {k: v for k, v in value.items() if k != inner}
            if rest:
                put(OTHER, key, Element(key, rest, part.where((key,))))
            continue
        if isinstance(value, list):
            name = spots.get((key,), key)
            for index, item in enumerate(value):
                eid = _element_id(name, item, index)
                put(name, eid, Element(eid, item, part.where((key, index))))
            continue
        put(OTHER, key, Element(key, value, part.where((key,))))
    return found


def diff_sections(old: dict[str, Element], new: dict[str, Element], name: str) -> SectionDiff:
    """Match elements by id: present on one side only is added/removed; different values are changed."""
    section = SectionDiff(name)
    for eid, element in new.items():
        if eid not in old:
            section.added.append(ItemChange("added", name, eid, new=element))
    for eid, element in old.items():
        after = new.get(eid)
        if after is None:
            section.removed.append(ItemChange("removed", name, eid, old=element))
        elif canonical(element.value) != canonical(after.value):
            section.changed.append(ItemChange("changed", name, eid, element, after,
                                              diff_values(element.value, after.value)))
    return section


def diff_rulebooks(a: RawRulebook, b: RawRulebook) -> RulebookDiff:
    """Compare two raw rulebooks section by section and their turn structures as graphs."""
    old, new = collect_elements(a), collect_elements(b)
    names = [name for name, _ in SECTIONS]
    names += sorted((set(old) | set(new)) - set(names) - {OTHER}) + [OTHER]
    sections = {name: diff_sections(old.get(name, {}), new.get(name, {}), name) for name in names}
    return RulebookDiff(
        a=RulebookInfo(a.id, a.version, display_path(a.directory)),
        b=RulebookInfo(b.id, b.version, display_path(b.directory)),
        sections=sections,
        graph=diff_graphs(build_turn_graph(a), build_turn_graph(b)),
    )


__all__ = ["SECTIONS", "Element", "ItemChange", "RulebookDiff", "RulebookInfo", "SectionDiff",
           "collect_elements", "diff_rulebooks", "diff_sections"]
