"""Rules versions side by side: a rulebook that `extends` another and states only what differs.

A versioned rulebook directory (`rulebooks/GAME@VERSION/rulebook.yaml`) names the rulebook it
extends (a sibling directory), its own `rules_version` / `rules_date`, and a list of `edits`, each
citing the change-log entry it accounts for:

    edits:
      - change_log: "ver.2.1 [9-7]: a keyword added"
        absent: ["9-7"]                          # rules this version lacks (sub-rules included)
        remove: {keywords: [new_keyword]}        # elements by id, in a section (nested ids too)
        replace: {decisions: [{id: ..., ...}]}   # whole elements, matched by id
        add: {decisions: [{id: ..., ...}]}       # new elements of a list section

Edits work on the rulebook's documents (its part files) before anything is merged, validated or
compiled, so every check of the loader runs on the result, and the raw readers (diff, coverage)
see exactly what the engine plays. Cut or moved data keeps its source positions; replacements and
additions become documents of the overlay file, so a problem in them is reported where it is
written. A removed or replaced element keeps its place in its section (documents are split around
it). Citations of `absent` rules are dropped everywhere; an element left citing nothing must be
removed or replaced (a `not_encoded` entry is simply dropped), and an overlay element citing an
absent rule is an error.

This module is the one place that knows the format: the engine loader and the raw reader both
call :func:`read_docs` with their own reader of plain rulebook directories.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.schema import schema_names, validate
from interpreter.loader.yaml_safe import PathKey, SourceMap, load_yaml

EXTENDS = "extends"
EDITS = "edits"
OVERLAY_SCHEMA = "rulebook-overlay"
PART_SCHEMA = "rulebook-part"
HEAD = "rulebook.yaml"
LISTED_WITHOUT_ID = "not_encoded"  # a section of rule listings: an entry left citing nothing goes
CITING_KEY = "rules"
CITING_SUFFIX = "_rules"
_NUMBER_PART = re.compile(r"[.\-]")


@dataclass
class Doc:
    """One YAML document of a rulebook as the loader merges it: a part file or a piece of one."""

    name: str  # shown in reports: as listed in `parts`, prefixed with the base directory for a base's file
    path: Path
    data: dict[str, Any]
    smap: SourceMap
    overlay: bool = False  # written in a version overlay (head values, replacements, additions)


ReadPlain = Callable[[Path, dict[str, Any], SourceMap, Diagnostics], list[Doc]]
"""Reads a rulebook directory that extends nothing, given its parsed rulebook.yaml: head doc first."""


def read_docs(directory: Path, read_plain: ReadPlain, diags: Diagnostics,
              _seen: tuple[Path, ...] = ()) -> list[Doc]:
    """The documents of the rulebook in `directory`: its own files, or, for a version overlay, the
    documents of the rulebook it extends with the overlay's edits applied. Problems go to `diags`."""
    head_path = directory / HEAD
    try:
        head, smap = load_yaml(head_path)
    except LoadError as e:
        diags.extend(e.diagnostics)
        return []
    if not isinstance(head, dict):
        diags.add(str(head_path), 1, 1, f"expected a mapping at the top of {HEAD}")
        return []
    if EXTENDS not in head:
        return read_plain(directory, head, smap, diags)
    if OVERLAY_SCHEMA in schema_names():
        problems = validate(head, OVERLAY_SCHEMA, smap, str(head_path))
        if problems:
            diags.extend(problems)
            return []
    base_dir = _base_directory(directory, head[EXTENDS], smap, head_path, diags, (*_seen, directory.resolve()))
    if base_dir is None:
        return []
    base = read_docs(base_dir, read_plain, diags, (*_seen, directory.resolve()))
    if not base:
        return []
    for doc in base:
        doc.name = f"{base_dir.name}/{doc.name}"
    return _Overlay(head, smap, head_path, diags).apply(base)


def apply_edits(docs: list[Doc], head: dict[str, Any], smap: SourceMap, path: Path, diags: Diagnostics) -> list[Doc]:
    """Documents with the head values and `edits` of `head` (written in the file at `path`) applied:
    the way a rules version changes the rulebook it extends, also used for a format."""
    return _Overlay(head, smap, path, diags).apply(docs)


def _base_directory(directory: Path, name: Any, smap: SourceMap, head_path: Path, diags: Diagnostics,
                    seen: tuple[Path, ...]) -> Path | None:
    """The sibling directory `extends` names; a missing one or a cycle is reported at the name."""
    line, col = smap.get((EXTENDS,))
    if not isinstance(name, str) or not name or "/" in name or "\\" in name or name in (".", ".."):
        diags.add(str(head_path), line, col, "extends names a sibling rulebook directory, e.g. 'game'")
        return None
    base = directory.parent / name
    if not (base / HEAD).is_file():
        diags.add(str(head_path), line, col, f"no rulebook '{name}' beside this one (looked in {base})")
        return None
    if base.resolve() in seen:
        diags.add(str(head_path), line, col, f"rulebook '{name}' extends itself through this one")
        return None
    return base


def rule_parts(number: str) -> tuple[str, ...]:
    """A rule number as its parts, in either numbering style ("9-7-1", "9.7.1.")."""
    return tuple(_NUMBER_PART.split(str(number).strip().rstrip(".")))


def _citing(key: Any, value: Any) -> bool:
    """A list of rule numbers: `rules`, or a `*_rules` list beside a value (`zone_rules` is a mapping)."""
    return (isinstance(key, str) and (key == CITING_KEY or key.endswith(CITING_SUFFIX)) and isinstance(value, list)
            and all(isinstance(v, str | int) and not isinstance(v, bool) for v in value))


def _citing_lists(value: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, list[Any]]]:
    """Every citing list inside `value`, with its path."""
    if isinstance(value, dict):
        for key, child in value.items():
            if _citing(key, child):
                yield (*path, key), child
            else:
                yield from _citing_lists(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _citing_lists(child, (*path, index))


def _get(data: Any, path: PathKey) -> Any:
    """The value at `path` inside `data`."""
    for key in path:
        data = data[key]
    return data


def _drop(smap: SourceMap, list_path: PathKey, index: int) -> SourceMap:
    """Positions once item `index` of the list at `list_path` is cut out: later items move up."""
    n = len(list_path)

    def where(p: PathKey) -> PathKey | None:
        if len(p) <= n or p[:n] != list_path:
            return p
        i = p[n]
        if not isinstance(i, int):
            return p
        if i == index:
            return None
        return (*list_path, i - 1, *p[n + 1:]) if i > index else p

    return smap.moved(where)


def _slice(smap: SourceMap, section: str, start: int, stop: int | None, keep_rest: bool) -> SourceMap:
    """Positions of items start..stop of a top-level list, renumbered from 0; other keys kept or cut."""
    def where(p: PathKey) -> PathKey | None:
        if not p or p[0] != section:
            return p if keep_rest else None
        if len(p) == 1:
            return p
        i = p[1]
        if not isinstance(i, int) or i < start or (stop is not None and i >= stop):
            return None
        return (section, i - start, *p[2:])

    return smap.moved(where)


def _rerooted(smap: SourceMap, prefix: PathKey, new: PathKey) -> SourceMap:
    """The positions under `prefix` in the overlay file, as if written at `new`."""
    n = len(prefix)
    return smap.moved(lambda p: (*new, *p[n:]) if p[:n] == prefix else None)


@dataclass
class _Hit:
    """Where an element with a given id sits: document index and path inside its data."""

    doc: int
    path: PathKey


@dataclass
class _Overlay:
    """Applies one overlay head to the documents of the rulebook it extends."""

    head: dict[str, Any]
    smap: SourceMap
    path: Path
    diags: Diagnostics
    docs: list[Doc] = field(default_factory=list)

    def error(self, at: PathKey, message: str) -> None:
        """A problem of the overlay, reported at the value it is about in the overlay file."""
        line, col = self.smap.get(at)
        self.diags.add(str(self.path), line, col, message)

    def where(self, doc: Doc, path: PathKey) -> str:
        """`name:line` of a value in a document, for messages that point into the base."""
        return f"{doc.name}:{doc.smap.get(path)[0]}"

    def apply(self, base: list[Doc]) -> list[Doc]:
        """The base documents with the head values and every edit applied, in order."""
        own = {k: v for k, v in self.head.items() if k not in (EXTENDS, EDITS)}
        # The overlay states these head values (rules_version, ...) instead of the base.
        self.docs = [Doc(d.name, d.path, {k: copy.deepcopy(v) for k, v in d.data.items() if k not in own},
                         d.smap.moved(lambda p: None if p and p[0] in own else p) if own.keys() & d.data.keys()
                         else d.smap) for d in base if isinstance(d.data, dict)]
        self.docs.insert(1, Doc(HEAD, self.path, own, self.smap, overlay=True))
        cited = {rule_parts(str(n)) for d in self.docs for _, ns in _citing_lists(d.data) for n in ns}
        absent: list[Absent] = []
        edits = self.head.get(EDITS) or []
        for e, edit in enumerate(edits if isinstance(edits, list) else []):
            if not isinstance(edit, dict):
                continue  # the schema reports it
            at = (EDITS, e)
            for k, rule in enumerate(edit.get("absent") or []):
                parts = rule_parts(str(rule))
                if not any(c[:len(parts)] == parts for c in cited):
                    self.error((*at, "absent", k), f"rule {rule} is cited nowhere in the rulebook this one extends")
                absent.append(Absent(parts, str(rule), (*at, "absent", k)))
            for section, ids in _sections(edit.get("remove")):
                for j, eid in enumerate(ids if isinstance(ids, list) else []):
                    self.remove(section, eid, (*at, "remove", section, j))
            for section, items in _sections(edit.get("replace")):
                for j, item in enumerate(items if isinstance(items, list) else []):
                    self.replace(section, item, (*at, "replace", section, j))
            for section, items in _sections(edit.get("add")):
                if isinstance(items, list):
                    self.add(section, items, (*at, "add", section))
        if absent:
            self.uncite(absent)
        return self.docs

    # -- finding elements ---------------------------------------------------------------------
    def find(self, section: str, eid: Any, at: PathKey) -> _Hit | None:
        """The one element with id `eid` in `section` (at any depth); a located error otherwise."""
        if not isinstance(eid, str):
            self.error(at, f"an element is named by its id (a string), got {eid!r}")
            return None
        hits: list[_Hit] = []
        present = False
        for d, doc in enumerate(self.docs):
            if section not in doc.data:
                continue
            present = True
            value = doc.data[section]
            if isinstance(value, dict) and value.get("id") == eid:
                hits.append(_Hit(d, (section,)))
            hits.extend(_Hit(d, p) for p in _ids_in(value, eid, (section,)))
        if not present:
            self.error(at, f"the rulebook this one extends has no section '{section}'")
        elif not hits:
            self.error(at, f"no element '{eid}' in section '{section}' of the rulebook this one extends")
        elif len(hits) > 1:
            places = ", ".join(self.where(self.docs[h.doc], h.path) for h in hits)
            self.error(at, f"'{eid}' names several elements of section '{section}' ({places})")
        else:
            return hits[0]
        return None

    # -- the edits ----------------------------------------------------------------------------
    def remove(self, section: str, eid: Any, at: PathKey) -> None:
        """Cut an element out of its list (or a whole section named by its own id)."""
        hit = self.find(section, eid, at)
        if hit is None:
            return
        doc = self.docs[hit.doc]
        if hit.path == (section,):
            del doc.data[section]
            doc.smap = doc.smap.moved(lambda p: None if p[:1] == (section,) else p)
            return
        container = _get(doc.data, hit.path[:-1])
        del container[hit.path[-1]]
        doc.smap = _drop(doc.smap, hit.path[:-1], int(hit.path[-1]))

    def replace(self, section: str, item: Any, at: PathKey) -> None:
        """Put an overlay element in the place of the base element with its id."""
        if not isinstance(item, dict):
            self.error(at, "a replacement is a whole element: a mapping with an 'id'")
            return
        hit = self.find(section, item.get("id"), (*at, "id") if "id" in item else at)
        if hit is None:
            return
        doc = self.docs[hit.doc]
        if hit.path == (section,):
            new = self.piece({section: item}, _rerooted(self.smap, at, (section,)))
            del doc.data[section]
            doc.smap = doc.smap.moved(lambda p: None if p[:1] == (section,) else p)
            self.docs.insert(hit.doc + 1, new)
            return
        if len(hit.path) != 2:  # nested: the element around it is replaced instead, whole
            outer = hit.path[:1] if isinstance(doc.data[section], dict) else hit.path[:2]
            name = _get(doc.data, outer).get("id")
            self.error((*at, "id"), f"'{item.get('id')}' sits inside {section} element '{name}' "
                                    f"({self.where(doc, outer)}): replace that element")
            return
        index = int(hit.path[1])
        items = doc.data[section]
        before = Doc(doc.name, doc.path, {**doc.data, section: items[:index]},
                     _slice(doc.smap, section, 0, index, keep_rest=True), doc.overlay)
        after = Doc(doc.name, doc.path, {section: items[index + 1:]},
                    _slice(doc.smap, section, index + 1, None, keep_rest=False), doc.overlay)
        new = self.piece({section: [item]}, _rerooted(self.smap, at, (section, 0)))
        self.docs[hit.doc:hit.doc + 1] = [before, new, after]

    def add(self, section: str, items: list[Any], at: PathKey) -> None:
        """Append overlay elements to a list section."""
        kinds = {type(d.data[section]) for d in self.docs if section in d.data}
        if kinds and kinds != {list}:
            self.error(at, f"section '{section}' is not a list of elements: replace it instead")
            return
        self.docs.append(self.piece({section: list(items)}, _rerooted(self.smap, at, (section,))))

    def piece(self, data: dict[str, Any], smap: SourceMap) -> Doc:
        """A document of overlay elements, checked like any part file."""
        if PART_SCHEMA in schema_names():
            self.diags.extend(validate(data, PART_SCHEMA, smap, str(self.path)))
        return Doc(HEAD, self.path, data, smap, overlay=True)

    def uncite(self, absent: list[Absent]) -> None:
        """Drop citations of absent rules; report elements left citing nothing and overlay citations."""
        for doc in self.docs:
            dropped_entries: list[int] = []
            for path, numbers in list(_citing_lists(doc.data)):
                gone: list[tuple[int, Absent]] = []
                for i, number in enumerate(numbers):
                    rule = next((a for a in absent if a.covers(str(number))), None)
                    if rule is not None:
                        gone.append((i, rule))
                if not gone:
                    continue
                if doc.overlay:
                    for i, rule in gone:
                        line, col = doc.smap.get((*path, i))
                        self.diags.add(str(doc.path), line, col,
                                       f"rule {numbers[i]} is absent from this version ({rule.text} in 'absent')")
                    continue
                for i, _ in reversed(gone):
                    del numbers[i]
                    doc.smap = _drop(doc.smap, path, i)
                if numbers:
                    continue
                if len(path) == 3 and path[0] == LISTED_WITHOUT_ID and isinstance(path[1], int):
                    dropped_entries.append(path[1])
                    continue
                rule = gone[0][1]
                self.error(rule.at, f"without rule {rule.text}, {_owner(doc.data, path)} "
                                    f"({self.where(doc, path)}) cites nothing: remove or replace it")
            for index in sorted(dropped_entries, reverse=True):
                del doc.data[LISTED_WITHOUT_ID][index]
                doc.smap = _drop(doc.smap, (LISTED_WITHOUT_ID,), index)


@dataclass(frozen=True)
class Absent:
    """A rule (with its sub-rules) the version lacks, and where the overlay says so."""

    parts: tuple[str, ...]
    text: str
    at: PathKey

    def covers(self, number: str) -> bool:
        """Whether `number` is this rule or one of its sub-rules."""
        return rule_parts(number)[:len(self.parts)] == self.parts


def _sections(value: Any) -> Iterator[tuple[str, Any]]:
    """`section: [...]` pairs of an edit's remove/replace/add (anything else: the schema reports it)."""
    if isinstance(value, dict):
        for section, items in value.items():
            yield str(section), items


def _ids_in(value: Any, eid: str, path: PathKey) -> Iterator[PathKey]:
    """Paths of list items with id `eid` anywhere inside `value`."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict) and item.get("id") == eid:
                yield (*path, index)
            yield from _ids_in(item, eid, (*path, index))
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _ids_in(child, eid, (*path, key))


def _owner(data: dict[str, Any], path: PathKey) -> str:
    """`section element 'id'` for the nearest element with an id around a citing list."""
    for n in range(len(path) - 1, 0, -1):
        node = _get(data, path[:n])
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            return f"{path[0]} element '{node['id']}'"
    return f"section '{path[0]}'"


__all__ = ["Doc", "ReadPlain", "read_docs", "rule_parts"]
