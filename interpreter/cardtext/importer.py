"""Card files from published card lists (JSON, CSV, or a script file holding a JSON literal).

What a list's field names and codes mean for a game's card fields is data: an import mapping
(`rulebooks/<game>/imports/<name>.yaml`, schemas/card-import.schema.json). Each record becomes one
card; printings of one card (rarity variants) become cards of their own that share a `number`, and
their text is compiled once. The cards are then checked like any card file, so a value the
mapping does not know is reported at the record it came from.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.schema import validate
from interpreter.loader.yaml_safe import load_yaml


def find_mapping(rb: Any, name: str) -> Path:
    """A mapping named by path, or by name among the rulebook's `imports/`."""
    p = Path(name)
    if p.is_file():
        return p
    candidate = rb.directory / "imports" / f"{name}.yaml"
    if candidate.is_file():
        return candidate
    known = sorted(x.stem for x in (rb.directory / "imports").glob("*.yaml")) if (rb.directory / "imports").is_dir() \
        else []
    raise LoadError.single(name, 1, 1, f"no import mapping '{name}' (a file, or one of {rb.id}'s: "
                                       f"{', '.join(known) or 'none'})")


def load_mapping(path: Path) -> dict[str, Any]:
    data, smap = load_yaml(path)
    problems = validate(data, "card-import", smap, str(path))
    if problems:
        raise LoadError(problems)
    return data["import"]


def read_records(path: Path, mapping: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of a card list, in the list's order."""
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise LoadError.single(str(path), 1, 1, f"cannot read the card list: {e}") from e
    fmt = mapping.get("format", "json")
    if fmt == "csv":
        return [dict(r) for r in csv.DictReader(io.StringIO(raw))]
    if fmt == "script":  # `const CARDS = {...};`: the JSON literal between the first { or [ and its end
        starts = [i for i in (raw.find("{"), raw.find("[")) if i >= 0]
        if not starts:
            raise LoadError.single(str(path), 1, 1, "no JSON value found in the script")
        raw = raw[min(starts):].rstrip().rstrip(";")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise LoadError.single(str(path), e.lineno, e.colno, f"not valid JSON: {e.msg}") from e
    for key in mapping.get("records", []) or []:
        if not isinstance(data, dict) or key not in data:
            raise LoadError.single(str(path), 1, 1, f"the card list has no '{key}' (the mapping's records path)")
        data = data[key]
    if isinstance(data, dict):
        data = list(data.values())
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise LoadError.single(str(path), 1, 1, "expected a list (or an object) of card records")
    return data


def _get(record: dict[str, Any], key: str) -> Any:
    value: Any = record
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _split(text: str, separators: str | list[str]) -> list[str]:
    """Text split at any of the separators, items stripped, empty ones left out."""
    parts = [text.replace("\r\n", "\n")]
    for sep in [separators] if isinstance(separators, str) else separators:
        parts = [p for part in parts for p in part.split(sep)]
    return [p.strip() for p in parts if p.strip()]


def _convert(value: Any, rule: dict[str, Any]) -> Any:
    """One field's value by its rule: fix text, split, pick, convert each item, find tokens, map values
    or keys, to a number or a list, drop repeats and empties."""
    if value is None or value == "" or value in (rule.get("absent") or []):
        return None
    if isinstance(value, str):
        for old, new in (rule.get("replace") or {}).items():
            value = value.replace(old, new)
    if "split" in rule and isinstance(value, str):
        value = _split(value, rule["split"])
    if "pick" in rule:
        items = value if isinstance(value, list) else [value]
        value = items[rule["pick"]] if len(items) > rule["pick"] else None
        if value is None:
            return None
    if "each" in rule and isinstance(value, list):
        value = [x for x in (_convert(v, rule["each"]) for v in value) if x is not None]
    if "find" in rule and isinstance(value, str):
        text = value
        found = sorted((text.find(token), v) for token, v in rule["find"].items() if token in text)
        value = [v for _, v in found] or None
        if value is None:
            return None
    if "values" in rule:
        table = rule["values"]
        if isinstance(value, list):
            value = [table.get(v, v) for v in value]
        else:
            value = table.get(value, value)
    if "keys" in rule and isinstance(value, dict):
        value = {rule["keys"].get(k, k): v for k, v in value.items() if rule["keys"].get(k, k) is not None}
    if rule.get("as") == "int" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if rule.get("as") == "list" and not isinstance(value, list):
        value = [value]
    if rule.get("unique") and isinstance(value, list):
        value = [v for i, v in enumerate(value) if v not in value[:i]]
    return value if value != [] else None


def import_cards(records: list[dict[str, Any]], mapping: dict[str, Any], game: str) -> dict[str, Any]:
    """A card file (as data) from card records by the mapping. A field whose rule names `types` is
    given only to cards of those types (as the card's `type` was mapped): its `default` is then what
    those cards have when the list leaves the value out (a list that omits a zero)."""
    cards = []
    skip = mapping.get("skip") or {}
    for record in records:
        if any(_get(record, k) in (v if isinstance(v, list) else [v]) for k, v in skip.items()):
            continue
        card: dict[str, Any] = {}
        id_parts = [_get(record, k) for k in mapping["card_id"]]
        card["id"] = "-".join(str(p) for p in id_parts if p not in (None, ""))
        rules = {name: rule if isinstance(rule, dict) else {"from": rule} for name, rule in mapping["fields"].items()}
        for name, rule in sorted(rules.items(), key=lambda nr: "types" in nr[1]):  # a card's type before `types`
            if "types" in rule and card.get("type") not in rule["types"]:
                continue
            value = _convert(_get(record, rule["from"]), rule) if "from" in rule else rule.get("value")
            if value is None and "default" in rule:
                value = rule["default"]
            if value is not None:
                card[name] = value
        cards.append({k: card[k] for k in ["id", *rules] if k in card})
    return {"game": game, "cards": cards}


def check_imported(rb: Any, data: dict[str, Any], out: Path) -> list[Diagnostic]:
    """Problems of the imported cards, as the card loader reports them for the written file: its
    errors, and its warnings (a card left out for lacking a field the list does not give)."""
    from interpreter.loader.cards import load_cards

    try:
        pool = load_cards(rb, [out])
    except LoadError as e:
        return e.diagnostics
    return [d for d in pool.notices if d.message.startswith("warning:")]
