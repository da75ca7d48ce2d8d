"""The rulebook's readings (`reads:`) name only what they describe has.

A template, keyword or function may say how it reads in plain English, its parameters as
placeholders (interpreter/model/readings.py); an ability kind or an event reads as it is, with none.
A placeholder naming no parameter would read as nothing in every review, so it is reported where the
reading is written.
"""

from __future__ import annotations

from typing import Any

from interpreter.loader.compile import Compiler, Loc
from interpreter.model.readings import placeholders


def check_readings(sections: dict[str, list[tuple[dict[str, Any], Loc]]], comp: Compiler) -> None:
    """`sections`: the entries of templates, keywords, functions, ability kinds and events with where
    each is written."""
    for section, entries in sections.items():
        what = {"templates": "template", "keywords": "keyword", "functions": "function",
                "ability_kinds": "ability kind", "events": "event"}[section]
        for entry, loc in entries:
            reads = entry.get("reads")
            if not isinstance(reads, str):
                continue
            params = _params(section, entry)
            unknown = sorted(placeholders(reads) - set(params))
            if unknown:
                has = f"its parameters: {', '.join(params)}" if params else "it has no parameters"
                comp.error(loc.at("reads"), f"{what} '{entry.get('id')}' reads {'/'.join(unknown)}, which it does "
                                            f"not have ({has})")


def _params(section: str, entry: dict[str, Any]) -> list[str]:
    params = entry.get("params")
    if section in ("templates", "keywords") and isinstance(params, dict):
        return [str(p) for p in params]
    if section == "functions" and isinstance(params, list):
        return [str(p) for p in params]
    return []
