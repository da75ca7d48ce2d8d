"""JSON Schema validation of loaded YAML, reported at YAML line/column.

Schemas are the single source of truth for the shape of rulebook files, so
they live as plain ``schemas/NAME.schema.json`` files (draft 2020-12) that
``$ref`` each other by ``$id`` or by file name. Raw jsonschema errors are
written for schema authors; this module rewrites them for rulebook authors
("unknown key 'foo' (allowed here: ...)") and places them via the
:class:`~interpreter.loader.yaml_safe.SourceMap` on the offending key/value.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from interpreter import locations

from .diagnostics import Diagnostic, LoadError
from .yaml_safe import PathKey, SourceMap

__all__ = [
    "SCHEMA_ID_BASE",
    "check_schemas",
    "clear_cache",
    "iter_schema_files",
    "schema_names",
    "schemas_dir",
    "validate",
]

SCHEMA_ID_BASE = "https://sogo.dev/schemas/"
_SUFFIX = ".schema.json"

_TYPE_WORDS = {
    "object": "mapping",
    "array": "list",
    "string": "string",
    "integer": "integer",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
}


def schemas_dir() -> Path:
    """Where schemas are read from: ``$SOGO_SCHEMAS`` if set (tests, tools), else the shipped ones."""
    return locations.schemas_dir()


def _canonical_id(name: str) -> str:
    return f"{SCHEMA_ID_BASE}{name}{_SUFFIX}"


def _normalize_name(name: str) -> str:
    """Accept ``rulebook``, ``rulebook.schema.json`` or a path ending in either."""
    base = name.rsplit("/", 1)[-1]
    return base[: -len(_SUFFIX)] if base.endswith(_SUFFIX) else base


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.load hook: a duplicated key in a schema silently drops half of it, so refuse."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


@dataclass
class _SchemaSet:
    """Every schema in one directory plus the registry that lets them reference each other."""

    directory: Path
    schemas: dict[str, dict[str, Any]]
    files: dict[str, Path]
    registry: Registry[Any]
    problems: list[Diagnostic]
    validators: dict[str, Draft202012Validator] = field(default_factory=dict)

    def root_id(self, name: str) -> str:
        sid = self.schemas[name].get("$id")
        return sid if isinstance(sid, str) else _canonical_id(name)


@functools.lru_cache(maxsize=8)
def _load_dir(directory: str) -> _SchemaSet:
    """Read and register all schemas once per directory (cached: schemas do not change at runtime)."""
    dpath = Path(directory)
    schemas: dict[str, dict[str, Any]] = {}
    files: dict[str, Path] = {}
    problems: list[Diagnostic] = []
    resources: list[tuple[str, Resource[Any]]] = []
    try:
        paths = sorted(dpath.glob("*" + _SUFFIX))
    except OSError as exc:
        paths = []
        problems.append(Diagnostic(str(dpath), 1, 1, f"cannot list schema folder: {exc}"))
    if not dpath.is_dir():
        problems.append(Diagnostic(str(dpath), 1, 1, "schema folder not found"))
    for fpath in paths:
        name = fpath.name[: -len(_SUFFIX)]
        try:
            contents = json.loads(fpath.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicate_keys)
        except json.JSONDecodeError as exc:
            problems.append(Diagnostic(str(fpath), exc.lineno, exc.colno, f"invalid JSON: {exc.msg}"))
            continue
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            problems.append(Diagnostic(str(fpath), 1, 1, f"cannot read schema: {exc}"))
            continue
        if not isinstance(contents, dict):
            problems.append(Diagnostic(str(fpath), 1, 1, "a schema file must contain a JSON object"))
            continue
        schemas[name] = contents
        files[name] = fpath
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        # Register under every name a $ref might use: the declared $id, the canonical id and
        # the bare file name (for schemas without $id, whose relative refs resolve against "").
        uris = {_canonical_id(name), fpath.name}
        sid = contents.get("$id")
        if isinstance(sid, str):
            uris.add(sid)
        resources.extend((uri, resource) for uri in uris)
    registry: Registry[Any] = Registry().with_resources(resources)
    return _SchemaSet(dpath, schemas, files, registry, problems)


def clear_cache() -> None:
    """Forget loaded schemas (tests that write schemas to a tmp dir call this)."""
    _load_dir.cache_clear()


def _schema_set() -> _SchemaSet:
    return _load_dir(str(schemas_dir().resolve()))


def schema_names() -> list[str]:
    """Names (without ``.schema.json``) of all loadable schemas."""
    return sorted(_schema_set().schemas)


def _validator(sset: _SchemaSet, name: str) -> Draft202012Validator:
    """Cached validator for one schema; broken schema files are a hard error, not silence."""
    if sset.problems:
        raise LoadError(sset.problems)
    validator = sset.validators.get(name)
    if validator is None:
        if name not in sset.schemas:
            available = ", ".join(sorted(sset.schemas)) or "none"
            where = str(sset.directory / (name + _SUFFIX))
            raise LoadError([Diagnostic(where, 1, 1, f"no schema named {name!r} (available: {available})")])
        validator = Draft202012Validator(sset.schemas[name], registry=sset.registry)
        sset.validators[name] = validator
    return validator


# ---------------------------------------------------------------------------
# Message formatting


def _fmt(value: Any) -> str:
    """Show a JSON value the way it would be written in YAML."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _describe(value: Any) -> str:
    """Type and value of an instance, for "got ..." phrases."""
    if isinstance(value, bool):
        return f"boolean {_fmt(value)}"
    if value is None:
        return "null"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {_fmt(value)}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def did_you_mean(word: Any, options: Iterable[Any]) -> str:
    """"; did you mean 'x'?" for a near-miss typo among the allowed words, to end an "unknown key"
    (or verb, field, keyword) message with; empty when nothing is close."""
    return _suggest(word, list(options))


def _suggest(word: Any, options: Sequence[Any]) -> str:
    """' (did you mean 'x'?)' for near-miss typos; empty when nothing is close."""
    if not isinstance(word, str):
        return ""
    strings = [o for o in options if isinstance(o, str)]
    close = difflib.get_close_matches(word, strings, n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else ""


def misspelt_key(missing: str, given: Mapping[Any, Any], schema: Any = None) -> str:
    """"; is 'templte' a misspelling of it?" when a key written is close to the missing one and is
    let through (such as a template's parameters), which would otherwise hide the typo; a key the
    schema refuses is reported as unknown, with its own "did you mean", instead."""
    if isinstance(schema, Mapping) and schema.get("additionalProperties") is False:
        given = {k: v for k, v in given.items() if k in (schema.get("properties") or {})}
    close = difflib.get_close_matches(missing, [k for k in given if isinstance(k, str)], n=1, cutoff=0.75)
    return f"; is {close[0]!r} a misspelling of it?" if close else ""


def _one_of_text(values: Sequence[Any]) -> str:
    return ", ".join(_fmt(v) for v in values)


# ---------------------------------------------------------------------------
# Schema navigation (for branch discrimination and unevaluatedProperties)


def _follow_ref(schema: Any, resolver: Any, hops: int = 16) -> tuple[Any, Any]:
    """Resolve a chain of pure ``$ref`` hops, returning the target schema and its resolver."""
    while hops and isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        try:
            resolved = resolver.lookup(schema["$ref"])
        except Unresolvable:
            break
        schema, resolver = resolved.contents, resolved.resolver
        hops -= 1
    return schema, resolver


def _resolver_at(sset: _SchemaSet, root: str, schema_path: Sequence[Any]) -> Any:
    """Resolver in effect at ``schema_path`` (jsonschema drops ``$ref`` hops from error paths)."""
    resolver = sset.registry.resolver(base_uri=sset.root_id(root))
    node: Any = sset.schemas[root]
    for part in schema_path:
        hops = 16
        while isinstance(node, dict) and part not in node and isinstance(node.get("$ref"), str) and hops:
            node, resolver = _follow_ref({"$ref": node["$ref"]}, resolver, 1)
            hops -= 1
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            break
    return resolver


def _subschemas(schema: Any, resolver: Any, keywords: tuple[str, ...], depth: int = 0) -> Iterator[Any]:
    """The schema plus everything reachable through ``$ref`` and the given combinator keywords."""
    if depth > 16 or not isinstance(schema, dict):
        return
    yield schema
    if isinstance(schema.get("$ref"), str):
        target, sub_resolver = _follow_ref({"$ref": schema["$ref"]}, resolver, 1)
        if target is not schema:
            yield from _subschemas(target, sub_resolver, keywords, depth + 1)
    for kw in keywords:
        value = schema.get(kw)
        if isinstance(value, list):
            for item in value:
                yield from _subschemas(item, resolver, keywords, depth + 1)
        elif isinstance(value, dict):
            items = value.values() if kw == "dependentSchemas" else [value]
            for item in items:
                yield from _subschemas(item, resolver, keywords, depth + 1)


_EVAL_KEYWORDS = ("allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas")


def _discriminators(branch: Any, resolver: Any) -> tuple[dict[str, Any], set[str]]:
    """Constant-valued properties and required keys that identify a oneOf/anyOf branch."""
    consts: dict[str, Any] = {}
    required: set[str] = set()
    for sub in _subschemas(branch, resolver, ("allOf",)):
        props = sub.get("properties")
        if isinstance(props, dict):
            for key, prop in props.items():
                prop, _ = _follow_ref(prop, resolver)
                if isinstance(prop, dict):
                    if "const" in prop:
                        consts[key] = prop["const"]
                    elif isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1:
                        consts[key] = prop["enum"][0]
        req = sub.get("required")
        if isinstance(req, list):
            required.update(r for r in req if isinstance(r, str))
    return consts, required


# ---------------------------------------------------------------------------
# Error translation


@dataclass
class _Reporter:
    """Rewrites jsonschema errors into located, author-friendly diagnostics."""

    sset: _SchemaSet
    root: str
    smap: SourceMap
    source: str
    out: list[Diagnostic] = field(default_factory=list)

    def at_value(self, path: PathKey, message: str) -> None:
        line, col = self.smap.get(path)
        self.out.append(Diagnostic(self.source, line, col, message))

    def at_key(self, path: PathKey, message: str) -> None:
        line, col = self.smap.key(path)
        self.out.append(Diagnostic(self.source, line, col, message))

    def report(self, err: ValidationError) -> None:
        path: PathKey = tuple(err.absolute_path)
        inst = err.instance
        kind = err.validator
        value = err.validator_value

        if "propertyNames" in err.absolute_schema_path and isinstance(inst, str):
            # jsonschema reports key-name errors at the parent mapping with the key as instance.
            self.at_key((*path, inst), f"invalid key {_fmt(inst)}: {self.simple_message(err)}")
            return
        if kind == "additionalProperties" and isinstance(inst, dict):
            self.unknown_keys(path, inst, [err.schema], err)
            return
        if kind == "unevaluatedProperties" and isinstance(inst, dict):
            resolver = _resolver_at(self.sset, self.root, list(err.absolute_schema_path)[:-1])
            subs = list(_subschemas(err.schema, resolver, _EVAL_KEYWORDS))
            self.unknown_keys(path, inst, subs, err)
            return
        if kind == "required" and isinstance(inst, dict) and isinstance(value, list):
            for key in value:
                if key not in inst:
                    self.at_value(path, f"missing required key {_fmt(key)}{misspelt_key(key, inst, err.schema)}")
            return
        if kind in ("oneOf", "anyOf"):
            self.alternatives(err, path)
            return
        if kind is None and err.schema is False:
            if path and isinstance(path[-1], str):
                self.at_key(path, f"key {_fmt(path[-1])} is not allowed here")
            else:
                self.at_value(path, "no value is allowed here")
            return
        if kind == "uniqueItems" and isinstance(inst, list):
            seen: dict[str, int] = {}
            for i, item in enumerate(inst):
                token = json.dumps(item, sort_keys=True, default=str)
                if token in seen:
                    self.at_value(
                        (*path, i), f"duplicate list item {_fmt(item)} (same as item {seen[token] + 1})"
                    )
                    return
                seen[token] = i
        self.at_value(path, self.simple_message(err))

    def simple_message(self, err: ValidationError) -> str:
        """Message for single-keyword failures; falls back to jsonschema's own text."""
        inst, kind, value = err.instance, err.validator, err.validator_value
        if kind == "type":
            types = [value] if isinstance(value, str) else list(value)
            expected = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
            return f"expected {expected}, got {_describe(inst)}"
        if kind == "enum" and isinstance(value, list):
            return f"expected one of {_one_of_text(value)}, got {_describe(inst)}{_suggest(inst, value)}"
        if kind == "const":
            return f"expected {_fmt(value)}, got {_describe(inst)}"
        if kind == "pattern":
            return f"invalid value {_fmt(inst)} (must match the pattern {value})"
        if kind == "minLength":
            return "expected a non-empty string" if value == 1 else f"expected at least {value} characters"
        if kind == "maxLength":
            return f"expected at most {value} characters, got {len(inst)}"
        if kind == "minItems":
            if value == 1:
                return "expected a non-empty list"
            return f"expected at least {value} items, got {len(inst)}"
        if kind == "maxItems":
            return f"expected at most {value} items, got {len(inst)}"
        if kind == "minProperties":
            return "expected a non-empty mapping" if value == 1 else f"expected at least {value} keys"
        if kind == "maxProperties":
            return f"expected at most {value} keys, got {len(inst)}"
        if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            op = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}[kind]
            return f"expected a number {op} {value}, got {_fmt(inst)}"
        if kind == "uniqueItems":
            return "list items must be unique"
        if kind == "not":
            return f"{_describe(inst)} is not allowed here"
        if kind == "dependentRequired" and isinstance(inst, dict) and isinstance(value, dict):
            for key, needed in value.items():
                missing = [n for n in needed if key in inst and n not in inst]
                if missing:
                    return f"key {_fmt(key)} also requires key {_fmt(missing[0])}"
        return err.message

    def unknown_keys(
        self, path: PathKey, inst: dict[str, Any], schemas: list[Any], err: ValidationError
    ) -> None:
        """One diagnostic per unknown key, at the key, listing what is allowed."""
        allowed: list[str] = []
        patterns: list[str] = []
        for sub in schemas:
            if not isinstance(sub, dict):
                continue
            for key in sub.get("properties", {}) or {}:
                if key not in allowed:
                    allowed.append(key)
            for pat in sub.get("patternProperties", {}) or {}:
                if pat not in patterns:
                    patterns.append(pat)
        extras = []
        for key in inst:
            if key in allowed:
                continue
            try:
                if any(re.search(p, key) for p in patterns):
                    continue
            except re.error:
                pass
            extras.append(key)
        if not extras:
            self.at_value(path, err.message)
            return
        if allowed:
            hint = f"allowed here: {', '.join(allowed)}"
            if patterns:
                hint += f", or keys matching {' / '.join(patterns)}"
        elif patterns:
            hint = f"keys here must match {' / '.join(patterns)}"
        else:
            hint = "no keys are allowed here"
        for key in extras:
            self.at_key((*path, key), f"unknown key {_fmt(key)} ({hint}){_suggest(key, allowed)}")

    def alternatives(self, err: ValidationError, path: PathKey) -> None:
        """Explain a failed oneOf/anyOf via the branch the author evidently meant."""
        inst = err.instance
        branches = err.validator_value if isinstance(err.validator_value, list) else []
        if not err.context:
            self.at_value(path, "value matches more than one of the allowed forms; make it unambiguous")
            return
        by_branch: dict[int, list[ValidationError]] = {}
        for sub in err.context:
            idx = sub.relative_schema_path[0] if sub.relative_schema_path else -1
            by_branch.setdefault(idx if isinstance(idx, int) else -1, []).append(sub)

        if isinstance(inst, dict) and branches:
            resolver = _resolver_at(self.sset, self.root, list(err.absolute_schema_path))
            infos = [_discriminators(b, resolver) for b in branches]
            chosen = self.pick_branch(inst, infos)
            if chosen is not None and chosen in by_branch:
                for sub in by_branch[chosen]:
                    self.report(sub)
                return
            if chosen is None and self.bad_discriminator(inst, infos, path):
                return
        # Prefer branches where the value at least has the right type: for "size: huge" against
        # integer-or-enum, the enum complaint is the useful one.
        type_ok = [
            subs
            for subs in by_branch.values()
            if not any(s.validator == "type" and not s.relative_path for s in subs)
        ]
        candidates = [s for subs in type_ok for s in subs] or list(err.context)
        best = best_match(candidates)
        if best is None:
            self.at_value(path, err.message)
        else:
            self.report(best)

    @staticmethod
    def pick_branch(inst: dict[str, Any], infos: list[tuple[dict[str, Any], set[str]]]) -> int | None:
        """Branch whose const discriminator matches, else the one whose required keys fit best."""
        const_hits = [
            (sum(1 for k, c in consts.items() if k in inst and inst[k] == c), i)
            for i, (consts, _) in enumerate(infos)
            if consts
            and any(k in inst and inst[k] == c for k, c in consts.items())
            and not any(k in inst and inst[k] != c for k, c in consts.items())
        ]
        if const_hits:
            return max(const_hits, key=lambda t: (t[0], -t[1]))[1]
        if any(consts for consts, _ in infos):
            return None  # const-discriminated, but nothing matched: handled by bad_discriminator
        scored = []
        for i, (_, required) in enumerate(infos):
            present = sum(1 for r in required if r in inst)
            complete = bool(required) and present == len(required)
            scored.append(((complete, present, len(required)), i))
        if not scored:
            return None
        scored.sort(key=lambda t: t[0], reverse=True)
        top_score, top = scored[0]
        if top_score[1] == 0:
            return None
        if len(scored) > 1 and scored[1][0] == top_score:
            return None  # ambiguous: let best_match decide
        return top

    def bad_discriminator(
        self, inst: dict[str, Any], infos: list[tuple[dict[str, Any], set[str]]], path: PathKey
    ) -> bool:
        """Report "kind: bogus" / missing "kind" directly when branches share a const key."""
        counts: dict[str, int] = {}
        for consts, _ in infos:
            for key in consts:
                counts[key] = counts.get(key, 0) + 1
        if not counts:
            return False
        key = max(counts, key=lambda k: (counts[k], k in inst))
        options: list[Any] = []
        for consts, _ in infos:
            if key in consts and consts[key] not in options:
                options.append(consts[key])
        if key in inst:
            got = inst[key]
            message = f"expected one of {_one_of_text(options)}, got {_describe(got)}{_suggest(got, options)}"
            self.at_value((*path, key), message)
        else:
            self.at_value(path, f"missing required key {_fmt(key)} (one of {_one_of_text(options)})")
        return True


def validate(data: Any, schema_name: str, smap: SourceMap, path: str | os.PathLike[str]) -> list[Diagnostic]:
    """Validate loaded YAML against ``schemas/<schema_name>.schema.json``.

    Returns located diagnostics sorted by position (empty when valid). A missing
    or broken schema raises :class:`LoadError`, since that is a bug, not bad input.
    """
    sset = _schema_set()
    name = _normalize_name(schema_name)
    validator = _validator(sset, name)
    reporter = _Reporter(sset, name, smap, str(path))
    try:
        for err in validator.iter_errors(data):
            reporter.report(err)
    except Unresolvable as exc:
        raise LoadError(
            [Diagnostic(str(sset.files[name]), 1, 1, f"unresolvable $ref in schema: {exc}")]
        ) from exc
    return sorted(set(reporter.out), key=lambda d: (d.line, d.col, d.message))


# ---------------------------------------------------------------------------
# Schema self-checks


def _pointer(parts: Sequence[Any]) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


_DATA_KEYWORDS = frozenset({"const", "enum", "examples", "default"})


def _walk_schema(node: Any, parts: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str, Any]]:
    """Yield ``(pointer parts, keyword, value)`` for keywords worth checking, skipping data values."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _DATA_KEYWORDS:
                continue
            if key in ("$ref", "pattern") and isinstance(value, str):
                yield (*parts, key), key, value
            elif key == "patternProperties" and isinstance(value, dict):
                for pat in value:
                    yield (*parts, key, pat), "pattern", pat
            yield from _walk_schema(value, (*parts, key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk_schema(item, (*parts, i))


def check_schemas() -> list[Diagnostic]:
    """Check every schema file: valid JSON, valid 2020-12 schema, canonical $id, resolvable $refs."""
    sset = _schema_set()
    out: list[Diagnostic] = list(sset.problems)
    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    for name, schema in sorted(sset.schemas.items()):
        where = str(sset.files[name])
        for err in meta.iter_errors(schema):
            out.append(Diagnostic(where, 1, 1, f"{_pointer(err.absolute_path)}: {err.message}"))
        sid = schema.get("$id")
        if sid != _canonical_id(name):
            out.append(Diagnostic(where, 1, 1, f"$id must be {_canonical_id(name)!r}, got {sid!r}"))
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            out.append(
                Diagnostic(where, 1, 1, "$schema must be 'https://json-schema.org/draft/2020-12/schema'")
            )
        resolver = sset.registry.resolver(base_uri=sset.root_id(name))
        for parts, keyword, value in _walk_schema(schema):
            if keyword == "$ref":
                try:
                    resolver.lookup(value)
                except Unresolvable as exc:
                    out.append(
                        Diagnostic(where, 1, 1, f"{_pointer(parts)}: unresolvable $ref {value!r} ({exc})")
                    )
            else:
                try:
                    re.compile(value)
                except re.error as exc:
                    out.append(Diagnostic(where, 1, 1, f"{_pointer(parts)}: invalid regex {value!r}: {exc}"))
    return sorted(set(out))


def iter_schema_files() -> Mapping[str, Path]:
    """Schema name -> file, for tools that want to show or reload schemas."""
    return dict(_schema_set().files)
