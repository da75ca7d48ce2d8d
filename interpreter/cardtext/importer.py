"""Card files from published card lists (JSON, CSV, or a script file holding a JSON literal).

What a list's field names and codes mean for a game's card fields is data: an import mapping
(`rulebooks/<game>/imports/<name>.yaml`, schemas/card-import.schema.json). Each record becomes one
card: a mapping whose card id tells printings apart (a rarity in it) makes each a card of its own,
sharing a `number`, their text compiled once; records that give the same card id are one card
(the first record's; a later one that differs is a warning). A card field may be composed of several
of the record's fields (`join`, each part converted and written into its `format`). The cards are
then checked like any card file, so a value the mapping does not know is reported at the record it
came from.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
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
    if not problems:
        for name, rule in data["import"]["fields"].items():
            problems.extend(_pattern_problems(rule, ("import", "fields", name), smap, str(path)))
    if problems:
        raise LoadError(problems)
    return data["import"]


def _pattern_problems(rule: Any, at: tuple[Any, ...], smap: Any, source: str) -> list[Diagnostic]:
    """A regular expression of a rule (`sub`, `match`), of its `each` or of its `join` parts, that
    does not compile, at its place in the mapping."""
    if not isinstance(rule, dict):
        return []
    found: list[tuple[tuple[Any, ...], str]] = [((*at, "sub", k), k) for k in (rule.get("sub") or {})]
    if "match" in rule:
        found.append(((*at, "match"), rule["match"]))
    out = []
    for where, pattern in found:
        try:
            re.compile(pattern)
        except re.error as e:
            line, col = smap.get(where)
            out.append(Diagnostic(source, line, col, f"not a valid regular expression {pattern!r}: {e}"))
    out.extend(_pattern_problems(rule.get("each"), (*at, "each"), smap, source))
    for k, part in enumerate(rule.get("join") or []):
        out.extend(_pattern_problems(part, (*at, "join", k), smap, source))
    return out


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


def _get(record: Any, key: str | list[str]) -> Any:
    """The value at a dotted path of the record; of several paths, the first that has one."""
    if isinstance(key, list):
        return next((v for v in (_get(record, k) for k in key) if v is not None), None)
    value: Any = record
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _split(text: str, separators: str | list[str]) -> list[str]:
    """Text split at any of the separators (an empty one: into characters), items stripped, empty
    ones left out."""
    parts = [text.replace("\r\n", "\n")]
    for sep in [separators] if isinstance(separators, str) else separators:
        parts = [p for part in parts for p in (list(part) if sep == "" else part.split(sep))]
    return [p.strip() for p in parts if p.strip()]


def _lookup(table: dict[Any, Any], value: Any) -> Any:
    """The table's value for `value`, or `value` itself (a value that cannot be a key stays). A list's
    true, false, null or number is also found under its JSON spelling, as a mapping's keys are text."""
    if isinstance(value, bool | int | float) or value is None:
        key = json.dumps(value)
        if key in table:
            return table[key]
    try:
        return table.get(value, value)
    except TypeError:
        return value


_SLOT = re.compile(r"\{(\d+)(:?)\}")


def _format(template: str, value: Any) -> str:
    """`template` with {N} the item N of the value (a list; the value itself is item 0 otherwise) and
    {N:} the items from N on, written one after another; an item the value lacks is empty."""
    items = value if isinstance(value, list) else [value]

    def slot(m: re.Match[str]) -> str:
        n = int(m.group(1))
        return "".join(str(x) for x in items[n:]) if m.group(2) else (str(items[n]) if n < len(items) else "")

    return _SLOT.sub(slot, template)


def _value(source: Any, rule: dict[str, Any], card: dict[str, Any]) -> Any:
    """One value by its rule, read from `source` (a record, an item of `each`, or what a `join` reads):
    its `from` path there, its constant `value`, or what its `join` parts make of it (else `source`
    itself), converted; its `default` when that gives nothing. A rule naming `types` gives nothing to
    a card of another type."""
    if "types" in rule and card.get("type") not in rule["types"]:
        return None
    if "from" in rule:
        value = _get(source, rule["from"])
    elif "value" in rule:
        value = rule["value"]
    else:
        value = source
    if "join" in rule:
        value = _join(value, rule, card)
    value = _convert(value, rule, card)
    return rule["default"] if value is None and "default" in rule else value


def _join(source: Any, rule: dict[str, Any], card: dict[str, Any]) -> str | None:
    """The texts the `join` parts make of `source`, in order, separated by `sep` (a line break unless
    told): a part that gives a list gives each item, a part that gives nothing is left out."""
    texts: list[str] = []
    for part in rule["join"]:
        value = _value(source, part, card)
        for item in value if isinstance(value, list) else [value]:
            if item is not None and item != "":
                texts.append(str(item))
    return str(rule.get("sep", "\n")).join(texts) or None


def _convert(value: Any, rule: dict[str, Any], card: dict[str, Any] | None = None) -> Any:
    """One value by its rule: fix text (replace, sub), keep what matches, split, pick, convert each
    item, find tokens, map values or keys, to a number, a list or counts, drop repeats and empties,
    and write it into a format."""
    card = card if card is not None else {}
    if value is None or value == "" or value in (rule.get("absent") or []):
        return None
    if isinstance(value, str):
        for old, new in (rule.get("replace") or {}).items():
            value = value.replace(old, new)
        for pattern, new in (rule.get("sub") or {}).items():
            value = re.sub(pattern, new, value)
        if "match" in rule:
            found = re.search(rule["match"], value)
            if found is None:
                return None
            value = found.group(1) if found.re.groups else found.group(0)
    if "split" in rule and isinstance(value, str):
        value = _split(value, rule["split"])
    if "pick" in rule:
        items = value if isinstance(value, list) else [value]
        value = items[rule["pick"]] if len(items) > rule["pick"] else None
        if value is None:
            return None
    if "each" in rule and isinstance(value, list):
        value = [x for x in (_value(v, rule["each"], card) for v in value) if x is not None]
    if "find" in rule and isinstance(value, str):
        text = value
        found_tokens = sorted((text.find(token), v) for token, v in rule["find"].items() if token in text)
        value = [v for _, v in found_tokens] or None
        if value is None:
            return None
    if "values" in rule:
        table = rule["values"]
        if isinstance(value, list):
            value = [_lookup(table, v) for v in value]
            value = [v for v in value if v is not None]
        else:
            value = _lookup(table, value)
    if "keys" in rule and isinstance(value, dict):
        value = {rule["keys"].get(k, k): v for k, v in value.items() if rule["keys"].get(k, k) is not None}
    if rule.get("as") == "int" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if rule.get("as") == "list" and value is not None and not isinstance(value, list):
        value = [value]
    if rule.get("as") == "counts" and value is not None:
        counts: dict[Any, int] = {}
        for item in value if isinstance(value, list) else [value]:
            counts[item] = counts.get(item, 0) + 1
        value = counts
    if rule.get("unique") and isinstance(value, list):
        value = [v for i, v in enumerate(value) if v not in value[:i]]
    if "format" in rule and value is not None and value != []:
        value = _format(rule["format"], value)
    return value if value not in ([], {}, "") else None


def import_cards(records: list[dict[str, Any]], mapping: dict[str, Any], game: str,
                 differences: list[tuple[str, list[str]]] | None = None) -> dict[str, Any]:
    """A card file (as data) from card records by the mapping. A field whose rule names `types` is
    given only to cards of those types (as the card's `type` was mapped): its `default` is then what
    those cards have when the list leaves the value out (a list that omits a zero). Records that give
    the same card id are printings of one card (a list with a row per rarity or product): the card is
    the first one's, and each later printing whose fields differ from it is added to `differences`
    as (card id, the fields that differ)."""
    cards: dict[str, dict[str, Any]] = {}
    skip = mapping.get("skip") or {}
    rules = {name: rule if isinstance(rule, dict) else {"from": rule} for name, rule in mapping["fields"].items()}
    order = sorted(rules.items(), key=lambda nr: "types" in nr[1])  # a card's type before `types`
    for record in records:
        if any(_get(record, k) in (v if isinstance(v, list) else [v]) for k, v in skip.items()):
            continue
        card: dict[str, Any] = {}
        id_parts = [_get(record, k) for k in mapping["card_id"]]
        card["id"] = "-".join(str(p) for p in id_parts if p not in (None, ""))
        for name, rule in order:
            value = _value(record, rule, card)
            if value is not None:
                # A constant, a default or a table's value is one object of the mapping: each card gets
                # its own copy, so the written file has no YAML aliases (which card files refuse).
                card[name] = copy.deepcopy(value)
        card = {k: card[k] for k in ["id", *rules] if k in card}
        first = cards.setdefault(card["id"], card)
        if first is not card and differences is not None:
            differ = [k for k in sorted(set(first) | set(card)) if first.get(k) != card.get(k)]
            if differ:
                differences.append((card["id"], differ))
    return {"game": game, "cards": list(cards.values())}


def printing_warnings(out: Path, differences: list[tuple[str, list[str]]]) -> list[Diagnostic]:
    """Printings of one card that the list gives differently (an errata, or a slip of the list), as
    warnings at the card in the written file."""
    if not differences:
        return []
    data, smap = load_yaml(out)
    where = {c.get("id"): smap.get(("cards", i)) for i, c in enumerate(data.get("cards") or []) if isinstance(c, dict)}
    out_list = []
    for card_id, fields in differences:
        line, col = where.get(card_id, (1, 1))
        out_list.append(Diagnostic(str(out), line, col, f"warning: card {card_id!r}: a later printing in the list "
                                                        f"differs in {', '.join(fields)}; the first is kept"))
    return out_list


def check_imported(rb: Any, data: dict[str, Any], out: Path) -> list[Diagnostic]:
    """Problems of the imported cards, as the card loader reports them for the written file: its
    errors, and its warnings (a card left out for lacking a field the list does not give)."""
    from interpreter.loader.cards import load_cards

    try:
        pool = load_cards(rb, [out])
    except LoadError as e:
        return e.diagnostics
    return [d for d in pool.notices if d.message.startswith("warning:")]
