"""Strict, position-tracking YAML loading for rulebook files.

Rulebooks are data written by people, so the loader is deliberately narrower
than YAML: only plain JSON-like values come out, rule numbers such as ``7.4``
stay strings (no float resolution), and features that make files hard to read
or unsafe to load (tags, anchors/aliases, merge keys, duplicate keys, huge or
deeply nested input) are rejected with a ``path:line:col`` diagnostic.

The document is built straight from PyYAML's parser events, so aliases are
never expanded (alias bombs cost nothing) and every node's position is kept in
a :class:`SourceMap` that later stages (schema validation, semantic checks) use
to point at the exact offending spot.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentEndEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    StreamEndEvent,
)

from .diagnostics import Diagnostic, Diagnostics, LoadError

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "PathKey",
    "SourceMap",
    "load_yaml",
    "load_yaml_text",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Larger inputs are rejected: no real rulebook is this big, and it bounds parse time."""

MAX_DEPTH = 64
"""Maximum collection nesting; deeper input is almost certainly broken or hostile."""

MAX_INT_DIGITS = 18
"""Integers with more digits are rejected so they always fit in a signed 64-bit value."""

_INTERN_MAX = 64
"""Text up to this length is interned (names, ids, zone and field values; not expressions or prose)."""

MAX_DIAGNOSTICS = 100
"""Stop collecting after this many problems; beyond that the output stops being useful."""

PathKey = tuple[str | int, ...]
"""JSON-pointer-like path into loaded data, e.g. ``("phases", 3, "next", 0, "to")``."""

Pos = tuple[int, int]

_TAG_PREFIX = "tag:yaml.org,2002:"
_STR = _TAG_PREFIX + "str"
_INT = _TAG_PREFIX + "int"
_BOOL = _TAG_PREFIX + "bool"
_NULL = _TAG_PREFIX + "null"
_MAP = _TAG_PREFIX + "map"
_SEQ = _TAG_PREFIX + "seq"
_SCALAR_TAGS = frozenset({_STR, _INT, _BOOL, _NULL})

# YAML 1.2 core schema, narrowed: decimal only, and no leading zeros so that
# identifiers like "007" are not silently turned into 7.
_INT_RE = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_NULL_WORDS = frozenset({"", "~", "null", "Null", "NULL"})
_TRUE_WORDS = frozenset({"true", "True", "TRUE"})
_FALSE_WORDS = frozenset({"false", "False", "FALSE"})

# libyaml is ~15x faster; the pure-Python parser is the fallback and produces error messages.
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", None)

_ALIAS_MSG = "YAML anchors/aliases are not allowed (write the value out in full)"


class SourceMap:
    """Maps data paths to 1-based ``(line, col)`` positions in the source file.

    Values and mapping keys are recorded separately so a message about an
    unknown key can point at the key while a type error points at the value.
    Lookups of unrecorded paths fall back to the nearest recorded ancestor,
    so "missing key" errors land on the mapping that should contain it.
    """

    __slots__ = ("source", "_values", "_keys")

    def __init__(self, source: str = "<string>") -> None:
        self.source = source
        self._values: dict[PathKey, Pos] = {}
        self._keys: dict[PathKey, Pos] = {}

    def record(self, path: PathKey, line: int, col: int) -> None:
        """Record where the value at ``path`` starts; the first recording wins."""
        self._values.setdefault(path, (line, col))

    def record_key(self, path: PathKey, line: int, col: int) -> None:
        """Record where the mapping key ending ``path`` is written; the first recording wins."""
        self._keys.setdefault(path, (line, col))

    def get(self, path: Iterable[str | int] = ()) -> Pos:
        """Position of the value at ``path``, or of its nearest recorded ancestor."""
        p = path if isinstance(path, tuple) else tuple(path)
        values = self._values
        while p:
            pos = values.get(p)
            if pos is not None:
                return pos
            p = p[:-1]
        return values.get((), (1, 1))

    def key(self, path: Iterable[str | int]) -> Pos:
        """Position of the mapping key ending ``path``; falls back to :meth:`get` for non-keys."""
        p = path if isinstance(path, tuple) else tuple(path)
        pos = self._keys.get(p)
        return pos if pos is not None else self.get(p)

    def has(self, path: Iterable[str | int]) -> bool:
        """Whether ``path`` itself (not an ancestor) was recorded."""
        p = path if isinstance(path, tuple) else tuple(path)
        return p in self._values

    def moved(self, where: Callable[[PathKey], PathKey | None]) -> SourceMap:
        """A copy with every recorded path passed through ``where`` (None drops it): a rulebook
        overlay that cuts or moves data keeps pointing at the lines the data was written on."""
        out = SourceMap(self.source)
        for mine, theirs in ((self._values, out._values), (self._keys, out._keys)):
            for path, pos in mine.items():
                new = where(path)
                if new is not None:
                    theirs.setdefault(new, pos)
        return out

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and path in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"SourceMap({self.source!r}, {len(self._values)} values)"


def _pos(event: Event) -> Pos:
    """1-based position of an event's start (PyYAML marks are 0-based)."""
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1)


def _tag_name(tag: str) -> str:
    """Show tags the way authors write them (``!!str`` rather than the full URI)."""
    return "!!" + tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else tag


def _short(text: str, limit: int = 40) -> str:
    """Quote a value for a message without flooding the terminal."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


class _Builder:
    """Turns the parser's event stream into plain data, recording positions and problems."""

    def __init__(self, loader: Any, source: str, smap: SourceMap, diags: Diagnostics) -> None:
        self.loader = loader
        self.source = source
        self.smap = smap
        self.diags = diags

    def error(self, pos: Pos, message: str) -> None:
        """Record a problem, bailing out once the output would stop being useful."""
        self.diags.add(self.source, pos[0], pos[1], message)
        if len(self.diags) >= MAX_DIAGNOSTICS:
            self.diags.add(self.source, pos[0], pos[1], f"too many problems; stopped after {MAX_DIAGNOSTICS}")
            raise LoadError(sorted(self.diags))

    def document(self) -> tuple[bool, Any]:
        """Build the single document; returns ``(is_empty, data)``."""
        loader = self.loader
        loader.get_event()  # StreamStartEvent
        if loader.check_event(StreamEndEvent):
            return True, None
        loader.get_event()  # DocumentStartEvent
        first = loader.peek_event()
        empty = (
            isinstance(first, ScalarEvent)
            and first.value == ""
            and not first.style
            and first.tag is None
            and first.anchor is None
        )
        data = self.node((), 1)
        if loader.check_event(DocumentEndEvent):
            loader.get_event()
        if not loader.check_event(StreamEndEvent):
            # Stop here: later documents are not loaded, so their contents do not matter.
            self.error(
                _pos(loader.peek_event()), "multiple YAML documents ('---') are not allowed in one file"
            )
        return empty, data

    def check_anchor(self, event: Event) -> None:
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self.error(_pos(event), f"{_ALIAS_MSG}; found anchor '&{anchor}'")

    def node(self, path: PathKey, depth: int) -> Any:
        """Consume one node (and its children) and return its plain value."""
        event = self.loader.get_event()
        if isinstance(event, AliasEvent):
            self.smap.record(path, *_pos(event))
            self.error(_pos(event), f"{_ALIAS_MSG}; found alias '*{event.anchor}'")
            return None
        self.check_anchor(event)
        if isinstance(event, ScalarEvent):
            self.smap.record(path, *_pos(event))
            return self.scalar(event)
        if isinstance(event, CollectionStartEvent):
            self.smap.record(path, *_pos(event))
            is_map = isinstance(event, MappingStartEvent)
            self.check_collection_tag(event, _MAP if is_map else _SEQ)
            if depth > MAX_DEPTH:
                # Stop at once: draining the rest of a hostile nest costs time quadratic in its depth.
                self.diags.add(self.source, *_pos(event), f"nesting is too deep (more than {MAX_DEPTH} levels)")
                raise LoadError(self.diags.sorted())
            return self.mapping(path, depth) if is_map else self.sequence(path, depth)
        # The parser guarantees a node here; anything else is a PyYAML contract break.
        self.error(_pos(event), f"unexpected YAML event {type(event).__name__}")
        return None

    def sequence(self, path: PathKey, depth: int) -> list[Any]:
        items: list[Any] = []
        while not self.loader.check_event(SequenceEndEvent):
            items.append(self.node((*path, len(items)), depth + 1))
        self.loader.get_event()
        return items

    def mapping(self, path: PathKey, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        while not self.loader.check_event(MappingEndEvent):
            key_event = self.loader.peek_event()
            key_pos = _pos(key_event)
            key = self.key()
            if key is None:
                # Still walk the value so problems inside it get reported, but keep it out of the map.
                self.node((*path, f"<invalid key at line {key_pos[0]}>"), depth + 1)
                continue
            child = (*path, key)
            if key in first_line:
                self.error(key_pos, f"duplicate key {_short(key)} (first defined at line {first_line[key]})")
                self.node((*path, f"<duplicate {key} at line {key_pos[0]}>"), depth + 1)
                continue
            first_line[key] = key_pos[0]
            self.smap.record_key(child, *key_pos)
            result[key] = self.node(child, depth + 1)
        self.loader.get_event()
        return result

    def key(self) -> str | None:
        """Consume a mapping key; keys are always the scalar text as written."""
        event = self.loader.get_event()
        pos = _pos(event)
        if isinstance(event, AliasEvent):
            self.error(pos, f"{_ALIAS_MSG}; found alias '*{event.anchor}'")
            return None
        self.check_anchor(event)
        if isinstance(event, CollectionStartEvent):
            self.error(pos, "mapping keys must be plain scalars, not lists or mappings")
            self.skip_collection()
            return None
        if not isinstance(event, ScalarEvent):
            self.error(pos, f"unexpected YAML event {type(event).__name__}")
            return None
        if event.tag is not None and event.tag not in _SCALAR_TAGS:
            self.error(pos, f"tag '{_tag_name(event.tag)}' is not allowed on a mapping key")
            return None
        if not event.style and event.tag is None:
            if event.value == "<<":
                self.error(pos, "YAML merge keys ('<<') are not allowed (write the keys out in full)")
                return None
            if event.value == "":
                self.error(pos, "empty mapping key")
                return None
        return sys.intern(event.value)

    def check_collection_tag(self, event: Event, expected: str) -> None:
        tag = getattr(event, "tag", None)
        if tag is not None and tag != expected:
            kind = "a mapping" if expected == _MAP else "a list"
            if tag in _SCALAR_TAGS or tag in (_MAP, _SEQ):
                self.error(_pos(event), f"tag '{_tag_name(tag)}' cannot be used on {kind}")
            else:
                self.error(_pos(event), self.bad_tag_message(tag))

    @staticmethod
    def bad_tag_message(tag: str) -> str:
        return (
            f"YAML tag '{_tag_name(tag)}' is not allowed "
            "(only !!str, !!int, !!bool, !!null, !!map and !!seq may be written explicitly)"
        )

    def scalar(self, event: ScalarEvent) -> Any:
        """Resolve a scalar to str/int/bool/None under the narrowed core schema. Keys and short
        text are interned: the engine looks names read from rulebooks and cards up in dicts keyed
        by the same names, and a lookup with the very same string object skips comparing text."""
        value = self._scalar(event)
        return sys.intern(value) if type(value) is str and len(value) <= _INTERN_MAX else value

    def _scalar(self, event: ScalarEvent) -> Any:
        value: str = event.value
        tag = event.tag
        pos = _pos(event)
        if tag is not None:
            if tag == _STR:
                return value
            if tag == _INT:
                return self.integer(value, pos, explicit=True)
            if tag == _BOOL:
                if value in _TRUE_WORDS or value in _FALSE_WORDS:
                    return value in _TRUE_WORDS
                self.error(pos, f"{_short(value)} is not a valid !!bool (use true or false)")
                return value
            if tag == _NULL:
                if value in _NULL_WORDS:
                    return None
                self.error(pos, f"{_short(value)} is not a valid !!null (use null or ~)")
                return value
            if tag in (_MAP, _SEQ):
                self.error(pos, f"tag '{_tag_name(tag)}' cannot be used on a scalar")
                return value
            self.error(pos, self.bad_tag_message(tag))
            return value
        if event.style:  # quoted or block scalar: always text (plain is None or "" by parser)
            return value
        if value in _NULL_WORDS:
            return None
        if value in _TRUE_WORDS:
            return True
        if value in _FALSE_WORDS:
            return False
        if _INT_RE.fullmatch(value):
            return self.integer(value, pos, explicit=False)
        return value

    def integer(self, value: str, pos: Pos, *, explicit: bool) -> int | str:
        if not _INT_RE.fullmatch(value):
            self.error(pos, f"{_short(value)} is not a valid !!int (expected a plain decimal integer)")
            return value
        digits = len(value.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            self.error(
                pos,
                f"integer {_short(value)} is too large (more than {MAX_INT_DIGITS} digits); "
                "quote it if it is meant as text",
            )
            return value
        return int(value)

    def skip_collection(self) -> None:
        """Consume the rest of a collection whose start was already read, without recursion."""
        level = 1
        while level:
            event = self.loader.get_event()
            if isinstance(event, CollectionStartEvent):
                level += 1
            elif isinstance(event, MappingEndEvent | SequenceEndEvent):
                level -= 1


_TOKEN_WORDS = {
    "'<block mapping start>'": "the start of a new mapping",
    "'<block sequence start>'": "the start of a new list",
    "'<block end>'": "the end of an indented block",
    "<block end>": "the end of an indented block",
    "'<stream end>'": "the end of the file",
    "'<document start>'": "'---'",
    "'<document end>'": "'...'",
    "'<scalar>'": "a value",
    "'<alias>'": "an alias",
    "'<anchor>'": "an anchor",
    "'<tag>'": "a tag",
    "'<directive>'": "a directive",
    "'?'": "a new key",
}

_HINTS = {
    "mapping values are not allowed here": ("check the indentation, or quote a value that contains ': '"),
    "that cannot start any token": "tabs cannot be used for indentation in YAML; use spaces",
    "expected <block end>": "check the indentation",
    "could not find expected ':'": "a key is missing its ':' or a quoted value is not closed",
}


def _humanize(text: str) -> str:
    for token, words in _TOKEN_WORDS.items():
        text = text.replace(token, words)
    return text


def _syntax_diagnostic(exc: yaml.MarkedYAMLError, source: str) -> Diagnostic:
    """Turn PyYAML's two-part error (context + problem) into one readable located message."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    message = f"YAML syntax error: {_humanize(problem)}"
    ctx, ctx_mark = exc.context, exc.context_mark
    if (
        ctx
        and exc.problem
        and ctx_mark is not None
        and (ctx_mark.line, ctx_mark.column) != (line - 1, col - 1)
    ):
        message += f" ({ctx} that started at line {ctx_mark.line + 1}, column {ctx_mark.column + 1})"
    for needle, hint in _HINTS.items():
        if needle in problem:
            message += f"; {hint}"
            break
    return Diagnostic(source, line, col, message)


def _line_col(text: str, index: int) -> Pos:
    """1-based line/column of a character index (for errors PyYAML reports by offset)."""
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def _fail(source: str, line: int, col: int, message: str) -> NoReturn:
    raise LoadError([Diagnostic(source, line, col, message)])


def _build(text: str, source: str, smap: SourceMap, diags: Diagnostics, loader_cls: Any) -> tuple[bool, Any]:
    """Run one parse with the given PyYAML loader class, always releasing the parser."""
    loader = loader_cls(text)
    try:
        return _Builder(loader, source, smap, diags).document()
    finally:
        loader.dispose()


def load_yaml_text(text: str, path: str, *, allow_empty: bool = False) -> tuple[Any, SourceMap]:
    """Load one YAML document from ``text``; ``path`` is only used in diagnostics.

    Returns plain data (dict/list/str/int/bool/None) and its :class:`SourceMap`.
    Raises :class:`LoadError` with every problem found; never anything else.
    """
    source = str(path)
    if not isinstance(text, str):
        _fail(source, 1, 1, f"expected YAML text, got {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        _fail(source, 1, 1, f"file is too large (limit is {MAX_FILE_BYTES // (1024 * 1024)} MB)")

    smap, diags = SourceMap(source), Diagnostics()
    empty, data = False, None
    done = False
    if _FAST_LOADER is not None:
        try:
            empty, data = _build(text, source, smap, diags, _FAST_LOADER)
            done = True
        except LoadError:
            raise
        except Exception:
            # libyaml's messages are terser; redo the whole load in pure Python so the
            # reported problems (and their wording) are the same with or without libyaml.
            smap, diags = SourceMap(source), Diagnostics()
    if not done:
        try:
            empty, data = _build(text, source, smap, diags, yaml.SafeLoader)
        except LoadError:
            raise
        except yaml.MarkedYAMLError as exc:
            diags.append(_syntax_diagnostic(exc, source))
        except yaml.reader.ReaderError as exc:
            line, col = _line_col(text, exc.position)
            char = exc.character  # PyYAML passes the code point for text input
            code = ord(char) if isinstance(char, str) else int(char)
            message = f"unacceptable character #x{code:04x}: control characters are not allowed"
            diags.add(source, line, col, message)
        except yaml.YAMLError as exc:
            diags.add(source, 1, 1, f"YAML error: {exc}")
        except RecursionError:
            diags.add(source, 1, 1, f"nesting is too deep (more than {MAX_DEPTH} levels)")
        except Exception as exc:  # last resort: the contract is "only LoadError escapes"
            diags.add(source, 1, 1, f"internal error while reading YAML: {type(exc).__name__}: {exc}")

    if diags:
        raise LoadError(diags.sorted())
    if empty:
        if not allow_empty:
            _fail(source, 1, 1, "file is empty (expected a mapping)")
        smap = SourceMap(source)
        smap.record((), 1, 1)
        return None, smap
    return data, smap


def _decode(raw: bytes, source: str) -> str:
    """Strict UTF-8 decoding that reports where the first bad byte is."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = raw.rfind(b"\n", 0, start) + 1
        line = raw.count(b"\n", 0, start) + 1
        col = len(raw[line_start:start].decode("utf-8", "replace")) + 1
        hint = ""
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            hint = " (it looks like UTF-16; save it as UTF-8)"
        _fail(source, line, col, f"file is not valid UTF-8: bad byte 0x{raw[start]:02x}{hint}")


def load_yaml(path: str | os.PathLike[str], *, allow_empty: bool = False) -> tuple[Any, SourceMap]:
    """Read and load a YAML file with all the safety rules of :func:`load_yaml_text`."""
    source = str(path)
    p = Path(path)
    try:
        if p.is_dir():
            _fail(source, 1, 1, "is a directory, expected a YAML file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            _fail(source, 1, 1, f"file is too large ({size} bytes; limit is {MAX_FILE_BYTES} bytes)")
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)  # bounded even if the file grows after stat()
    except FileNotFoundError:
        _fail(source, 1, 1, "file not found")
    except PermissionError:
        _fail(source, 1, 1, "permission denied")
    except OSError as exc:
        _fail(source, 1, 1, f"cannot read file: {exc.strerror or exc}")
    if len(raw) > MAX_FILE_BYTES:
        _fail(source, 1, 1, f"file is too large (limit is {MAX_FILE_BYTES} bytes)")
    return load_yaml_text(_decode(raw, source), source, allow_empty=allow_empty)
