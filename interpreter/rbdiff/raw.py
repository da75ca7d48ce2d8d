"""Rulebooks as written: every part's YAML with positions, and the rule citations in it.

The coverage report, the impact of a rules revision and the rulebook diff read
rulebooks this way rather than through the compiled model, so they also work
on a rulebook that does not load in the engine, and they see every citation,
including those the engine never looks at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.overlay import Doc, read_docs
from interpreter.loader.rulebook import find_rulebook
from interpreter.loader.yaml_safe import PathKey, SourceMap, load_yaml
from interpreter.rulestext.ids import ALPHABET, LETTERS

CITING_KEY = "rules"
CITING_SUFFIX = "_rules"  # identity_rules, stacking_rules, steps_rules: citations kept beside a value
SINGLE_CITING_KEY = "rule"  # scenarios' log expectations cite one rule
EVIDENCE_KEY = "evidence"  # a decision's evidence for an inference: checked, but encodes nothing
NOT_ENCODED = "not_encoded"
_NUMBER_PART = re.compile(r"[.\-]")
_ID_CHARS = ALPHABET  # the ids' own alphabet (interpreter/rulestext/ids.py)
_ID_LETTERS = LETTERS
PAGE_ID = re.compile(rf"^[{_ID_LETTERS}](?:[{_ID_CHARS}]{{3}}|[{_ID_CHARS}]{{6}})(?:-\d+)?"
                     rf"(?:\.(?:[{_ID_CHARS}]{{4}}|[{_ID_CHARS}]{{7}})(?:-\d+)?)?$")
"""The id of a rule of an unnumbered page (`hm4e`, `hm4e.uqp2`, `hm4e.uqp2-2`): see interpreter/rulestext/ids.py."""


def rule_key(number: str) -> tuple[int, ...] | None:
    """Numeric key of a rule number in either style (``1.2.1``, ``1-2-1.``); None when not a number."""
    text = str(number).strip().rstrip(".")
    parts = _NUMBER_PART.split(text) if text else []
    if not parts or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def display_path(path: Path) -> str:
    """Path relative to the working directory when below it, so ``file:line`` stays short and clickable."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


@dataclass(frozen=True)
class Citation:
    """One rule number written in a YAML file, with the element that cites it.

    ``element`` is the id of the nearest enclosing mapping that has an ``id``
    and ``path`` is where that element sits (``turn.children[id=live_phase]``);
    ``line``/``col`` point at the number itself, which is what has to be edited.
    """

    rule: str
    file: str
    line: int
    col: int
    element: str | None
    path: str
    key: str
    reason: str | None = None  # set for entries of not_encoded

    @property
    def not_encoded(self) -> bool:
        """True for a ``not_encoded`` listing rather than an encoding."""
        return self.key == NOT_ENCODED

    @property
    def encodes(self) -> bool:
        """True for a citation that encodes its rule: neither a ``not_encoded`` listing nor a
        decision's ``evidence`` (the rules an inference rests on)."""
        return self.key != NOT_ENCODED and self.key != EVIDENCE_KEY

    @property
    def where(self) -> str:
        """``file:line:col`` of the cited number."""
        return f"{self.file}:{self.line}:{self.col}"

    def label(self) -> str:
        """``file:line id path`` as the reports print it, plus the citing key when it is not ``rules``."""
        name = self.element or "-"
        key = "" if self.key == CITING_KEY else f" ({self.key})"
        return f"{self.file}:{self.line} {name} {self.path}{key}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        data: dict[str, Any] = {"rule": self.rule, "file": self.file, "line": self.line, "col": self.col,
                                "element": self.element, "path": self.path, "key": self.key}
        if self.reason is not None:
            data["reason"] = self.reason
        return data


@dataclass
class Part:
    """One YAML file of a rulebook, loaded with its source map."""

    name: str  # as listed in rulebook.yaml `parts` (or "rulebook.yaml")
    path: Path
    data: Any
    smap: SourceMap

    def where(self, path: PathKey) -> str:
        """``name:line`` of a value, relative to the rulebook directory."""
        return f"{self.name}:{self.smap.get(path)[0]}"


@dataclass
class RawRulebook:
    """All parts of one rulebook directory, untouched by the compiler."""

    directory: Path
    id: str
    version: str | None
    parts: list[Part] = field(default_factory=list)
    # Its formats' files (formats/ID.yaml), as written: they cite rules too (three or more players).
    formats: list[Part] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``id (rules 1.06)`` for report headers."""
        return f"{self.id} (rules {self.version})" if self.version else self.id

    def top_level(self) -> Iterator[tuple[Part, str, Any]]:
        """Every top-level ``key: value`` of every part, in part order."""
        for part in self.parts:
            if isinstance(part.data, dict):
                for key, value in part.data.items():
                    yield part, key, value

    def citations(self) -> list[Citation]:
        """Every rule citation of every part, not_encoded listings included."""
        found: list[Citation] = []
        for part in self.parts + self.formats:
            found.extend(walk_citations(part.data, part.smap, display_path(part.path)))
        return found


def load_raw_rulebook(name_or_path: str | Path) -> RawRulebook:
    """Read rulebook.yaml and every file in its ``parts`` (for a version overlay, those of the rulebook
    it extends with the overlay's edits applied, as the engine loader does); any problem is a LoadError."""
    directory = find_rulebook(str(name_or_path))
    diags = Diagnostics()
    docs = read_docs(directory, _read_plain, diags)
    diags.raise_if_any()
    head: dict[str, Any] = {}
    for doc in docs:
        head.update({k: v for k, v in doc.data.items() if k in ("id", "rules_version") and k not in head})
    version = head.get("rules_version")
    book = RawRulebook(directory=directory, id=str(head.get("id") or directory.name),
                       version=str(version) if version is not None else None)
    book.parts.extend(Part(doc.name, doc.path, doc.data, doc.smap) for doc in docs)
    formats = next((d.data.get("formats") for d in docs if isinstance(d.data, dict) and "formats" in d.data), None)
    for fmt in formats if isinstance(formats, list) else []:
        path = directory / "formats" / f"{fmt}.yaml"
        try:
            data, fmap = load_yaml(path)
        except LoadError as error:
            diags.extend(error.diagnostics)
            continue
        book.formats.append(Part(f"formats/{fmt}.yaml", path, data, fmap))
    diags.raise_if_any()
    return book


def _read_plain(directory: Path, head: dict[str, Any], smap: SourceMap, diags: Diagnostics) -> list[Doc]:
    """rulebook.yaml and its parts as written (no schema check: a rulebook need not load to be read)."""
    head_path = directory / "rulebook.yaml"
    docs = [Doc("rulebook.yaml", head_path, head, smap)]
    parts = head.get("parts") or []
    if not isinstance(parts, list):
        line, col = smap.get(("parts",))
        diags.add(str(head_path), line, col, "parts must be a list of file names")
        return docs
    for name in parts:
        path = directory / str(name)
        try:
            data, pmap = load_yaml(path)
        except LoadError as error:
            diags.extend(error.diagnostics)
            continue
        docs.append(Doc(str(name), path, data, pmap))
    return docs


def _segment(container: Any, key: str | int) -> str:
    """How one step of a data path is shown: ``.key``, ``[id=x]`` for items with an id, else ``[i]``."""
    if isinstance(key, int):
        item = container[key]
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            return f"[id={item['id']}]"
        return f"[{key}]"
    return f".{key}"


def _numbers(value: Any) -> Iterator[tuple[int | None, str]]:
    """Rule numbers in a citing value: a list of scalars or one scalar (with list index)."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str | int) and not isinstance(item, bool):
                yield index, str(item)
    elif isinstance(value, str | int) and not isinstance(value, bool):
        yield None, str(value)


def is_rule_id(text: str) -> bool:
    """Whether a string cites a rule: a rule number in either style, or the id of a rule of an
    unnumbered page."""
    return rule_key(text) is not None or PAGE_ID.match(text) is not None


def _is_citing(key: str, value: Any) -> bool:
    if key == CITING_KEY:
        return isinstance(value, list | str)
    if key == SINGLE_CITING_KEY:
        return isinstance(value, str)
    if key == EVIDENCE_KEY:
        return isinstance(value, list)
    # Other *_rules keys only count when they hold rule numbers or page ids (zone_rules is an
    # element, not a list).
    return (key.endswith(CITING_SUFFIX) and isinstance(value, list) and bool(value)
            and all(isinstance(item, str) and is_rule_id(item) for item in value))


def walk_citations(data: Any, smap: SourceMap, file: str) -> list[Citation]:
    """All citations in one loaded YAML document, each with its nearest enclosing id element."""
    found: list[Citation] = []

    def walk(value: Any, path: PathKey, shown: str, element: str | None, element_path: str,
             reason: str | None) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("id"), str):
                element, element_path = value["id"], shown.lstrip(".") or "."
            for key, child in value.items():
                child_path = (*path, key)
                if _is_citing(key, child):
                    citing_key = NOT_ENCODED if reason is not None else key
                    for index, number in _numbers(child):
                        at = child_path if index is None else (*child_path, index)
                        line, col = smap.get(at)
                        found.append(Citation(number, file, line, col, element,
                                              element_path if element else (shown.lstrip(".") or "."),
                                              citing_key, reason))
                    continue
                walk(child, child_path, shown + _segment(value, key), element, element_path, reason)
        elif isinstance(value, list):
            for index, child in enumerate(value):
                child_reason = reason
                if path == (NOT_ENCODED,) and isinstance(child, dict):
                    child_reason = str(child.get("reason") or "")
                walk(child, (*path, index), shown + _segment(value, index), element, element_path,
                     child_reason)

    walk(data, (), "", None, "", None)
    return found


def cited_rules(value: Any, skip: frozenset[str] = frozenset({"children"})) -> list[str]:
    """Rule numbers cited anywhere inside ``value`` (not below ``skip`` keys), first occurrence order."""
    seen: dict[str, None] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                if key in skip:
                    continue
                if _is_citing(key, child):
                    for _, number in _numbers(child):
                        seen.setdefault(number, None)
                else:
                    walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(value)
    return list(seen)


def load_citations(path: Path) -> list[Citation]:
    """Citations of one standalone YAML file (a scenario); LoadError when it cannot be read."""
    data, smap = load_yaml(path)
    return walk_citations(data, smap, display_path(path))


__all__ = [
    "Citation",
    "Part",
    "RawRulebook",
    "cited_rules",
    "display_path",
    "is_rule_id",
    "load_citations",
    "load_raw_rulebook",
    "rule_key",
    "walk_citations",
]
