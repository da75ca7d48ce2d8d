"""The work the strict YAML loader does, counted for tests: bytes parsed, nodes built and the depth
reached by each parse. Hostile input (alias bombs, deep nesting, huge files) is bounded by the
loader's own limits, so tests check those counts against the limits instead of timing a process
against the machine's load.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from interpreter.loader import yaml_safe


@dataclass
class Parse:
    """One parse of one text by `yaml_safe` (a file parsed twice, e.g. by the pure-Python fallback
    after libyaml failed, is two parses)."""

    source: str
    bytes: int
    nodes: int = 0
    depth: int = 0


def problems(parses: list[Parse]) -> list[str]:
    """Every parse that went past a bound the loader's limits promise: no more text than
    MAX_FILE_BYTES, no node that is not written in the text (aliases are never expanded, so there
    are at most as many nodes as bytes, plus the empty document's one), and no collection opened
    deeper than one level past MAX_DEPTH (where the loader stops)."""
    out = []
    for p in parses:
        if p.bytes > yaml_safe.MAX_FILE_BYTES:
            out.append(f"{p.source}: parsed {p.bytes} bytes, over the {yaml_safe.MAX_FILE_BYTES}-byte limit")
        if p.nodes > p.bytes + 1:
            out.append(f"{p.source}: built {p.nodes} nodes from {p.bytes} bytes (expanded aliases?)")
        if p.depth > yaml_safe.MAX_DEPTH + 1:
            out.append(f"{p.source}: went {p.depth} levels deep, past the {yaml_safe.MAX_DEPTH}-level limit")
    return out


@contextmanager
def metered() -> Iterator[list[Parse]]:
    """Count the loader's work inside the block; yields the list of parses, filled as they happen."""
    parses: list[Parse] = []
    build = yaml_safe._build

    class Builder(yaml_safe._Builder):
        def node(self, path: Any, depth: int) -> Any:
            parse = parses[-1]
            parse.nodes += 1
            parse.depth = max(parse.depth, depth)
            return super().node(path, depth)

    def counted_build(text: str, source: str, *args: Any) -> Any:
        parses.append(Parse(source, len(text.encode("utf-8", "surrogatepass"))))
        return build(text, source, *args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml_safe, "_Builder", Builder)
        mp.setattr(yaml_safe, "_build", counted_build)
        yield parses
