"""Reviews of card abilities without reading YAML: each ability's printed text beside a description
in plain English generated from what it compiles to (interpreter/reading), with its status.

Ability k of a card encodes line k of its printed text (or its own `text` when the card has none).
Its origin is `compiled` (written by `sogo cards compile`, pinned), `hand-written` (`hand: true`, or
written without a pin), `partial` (a `todo`: no phrase read all of its line) or `none` (a line of
text with no ability yet); its pin is `pinned` (the text it encodes is unchanged), `changed` (the
text changed since: an errata to review) or `unpinned`. `sogo cards review` lists them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.cardtext.normalize import TextRules, pin_of, split_abilities
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.yaml_safe import load_yaml
from interpreter.reading import Reader

ORIGINS = ("compiled", "hand-written", "partial", "none")
PINS = ("pinned", "changed", "unpinned")
ONLY = ("all", "todo", "changed")
"""What `--only` keeps: every ability, those not (fully) written (partial, none), those whose text changed."""


@dataclass
class AbilityReview:
    index: int  # 1-based, as `sogo validate` numbers abilities
    line: int
    col: int
    printed: str | None
    origin: str
    pin: str
    reading: str | None = None
    missing: list[str] = field(default_factory=list)
    todo: list[str] = field(default_factory=list)

    def wanted(self, only: str) -> bool:
        if only == "todo":
            return self.origin in ("partial", "none")
        if only == "changed":
            return self.pin == "changed"
        return True

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "line": self.line, "col": self.col, "printed": self.printed,
                "reading": self.reading, "origin": self.origin, "pin": self.pin, "missing": self.missing,
                "todo": self.todo}


@dataclass
class CardReview:
    card_id: str
    name: str
    path: str
    line: int
    abilities: list[AbilityReview]

    def as_json(self, only: str = "all") -> dict[str, Any]:
        return {"id": self.card_id, "name": self.name, "file": self.path, "line": self.line,
                "abilities": [a.as_json() for a in self.abilities if a.wanted(only)]}


def text_rules(rb: Any) -> TextRules:
    return rb.card_text.rules if rb.card_text is not None else TextRules()


def review_file(rb: Any, path: Path, reader: Reader | None = None) -> list[CardReview]:
    """Every card of a card file with abilities or printed text, each ability reviewed. A file that
    is missing, not YAML, not a card file or another game's gives a located error."""
    if not path.is_file():
        raise LoadError.single(str(path), 1, 1, "no such card file")
    data, smap = load_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise LoadError.single(str(path), 1, 1, "expected a card file: a mapping with 'game' and a list of 'cards'")
    if data.get("game") != rb.id:
        line, col = smap.get(("game",)) if "game" in data else (1, 1)
        raise LoadError.single(str(path), line, col, f"a card file of game {data.get('game')!r}, not {rb.id!r}")
    from interpreter.cardtext.cardfile import text_position

    reader = reader or Reader(rb)
    rules = text_rules(rb)
    source = path.read_text(encoding="utf-8")
    out = []
    for i, card in enumerate(data["cards"]):
        if not isinstance(card, dict):
            continue
        written = card.get("abilities")
        abilities: list[Any] = written if isinstance(written, list) else []
        lines = split_abilities(card["text"], rules) if isinstance(card.get("text"), str) else []
        if not abilities and not lines:
            continue
        at = [text_position(source, smap, ("cards", i, "text"), card["text"], start) for start, _ in lines]
        reviews = [_ability(reader, rules, smap, i, k, abilities[k] if k < len(abilities) else None,
                            lines[k][1] if k < len(lines) else None, at[k] if k < len(at) else None)
                   for k in range(max(len(abilities), len(lines)))]
        line, _ = smap.get(("cards", i))
        out.append(CardReview(str(card.get("id")), str(card.get("name", "")), str(path), line, reviews))
    return out


def _ability(reader: Reader, rules: TextRules, smap: Any, i: int, k: int, ability: Any,
             printed: str | None, printed_at: tuple[int, int] | None = None) -> AbilityReview:
    """The review of ability k, at the ability, or (a line with none yet) at its line of the text."""
    ab = ability if isinstance(ability, dict) else None
    if ab is not None:
        line, col = smap.get(("cards", i, "abilities", k))
    else:
        line, col = printed_at or smap.get(("cards", i, "text"))
    if printed is None and ab is not None and isinstance(ab.get("text"), str):
        printed = ab["text"]
    if ab is None:
        origin = "none"
    elif "todo" in ab:
        origin = "partial"
    elif ab.get("hand") or "pin" not in ab:
        origin = "hand-written"
    else:
        origin = "compiled"
    pin = "unpinned"
    if ab is not None and isinstance(ab.get("pin"), str) and printed is not None:
        pin = "pinned" if pin_of(printed, rules) == ab["pin"] else "changed"
    review = AbilityReview(k + 1, line, col, printed, origin, pin)
    if ab is not None and "todo" in ab:
        review.todo = [str(t) for t in ab["todo"]] if isinstance(ab["todo"], list) else [str(ab["todo"])]
    if ab is not None and ("kind" in ab or isinstance(ab.get("fields"), dict)):  # an ability, or card information
        reading = reader.ability(ab)
        review.reading, review.missing = reading.text, reading.missing
    return review


def readings_of(rb: Any, card: Any, reader: Reader | None = None) -> dict[int, str]:
    """How each ability of a loaded card (a CardDef) reads, by ability index, from its card file as
    written (`card.source` is FILE:LINE)."""
    path = Path(card.source.rpartition(":")[0])
    if not path.is_file():
        return {}
    data, _ = load_yaml(path)
    raw = next((c for c in data.get("cards", []) or [] if isinstance(c, dict) and str(c.get("id")) == card.id),
               None) if isinstance(data, dict) else None
    abilities = raw.get("abilities") if isinstance(raw, dict) else None
    if not isinstance(abilities, list):
        return {}
    reader = reader or Reader(rb)
    return {k: reader.ability(a).text for k, a in enumerate(abilities) if isinstance(a, dict) and "kind" in a}


def summary(cards: list[CardReview]) -> dict[str, Any]:
    """Counts of origins and pins, and the readings missing with how many abilities lacked each."""
    origins: Counter[str] = Counter()
    pins: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    for card in cards:
        for a in card.abilities:
            origins[a.origin] += 1
            pins[a.pin] += 1
            missing.update(a.missing)
    return {"abilities": sum(origins.values()), "origin": {k: origins.get(k, 0) for k in ORIGINS},
            "pin": {k: pins.get(k, 0) for k in PINS},
            "missing_readings": dict(sorted(missing.items(), key=lambda kv: (-kv[1], kv[0])))}


def status(a: AbilityReview) -> str:
    return a.origin if a.pin == "unpinned" else f"{a.origin}, {a.pin}"


def render_text(cards: list[CardReview], only: str = "all") -> str:
    """The review as plain text: per card, per ability its status, printed text and reading."""
    out: list[str] = []
    for card in cards:
        shown = [a for a in card.abilities if a.wanted(only)]
        if not shown:
            continue
        out.append(f"{card.card_id} {card.name} ({card.path}:{card.line})".replace("  ", " "))
        for a in shown:
            out.append(f"  {a.index}. [{status(a)}] {card.path}:{a.line}:{a.col}")
            out.append(f"     printed: {_one_line(a.printed) if a.printed is not None else '(no printed text)'}")
            if a.reading is not None:
                out.append(f"     reads:   {a.reading}")
            elif a.todo:
                out.append(f"     not written: no phrase reads {' / '.join('「' + t + '」' for t in a.todo)}")
            else:
                out.append("     not written: no ability for this line (sogo cards compile)")
    return "\n".join(out) + ("\n" if out else "")


def render_summary(report: dict[str, Any]) -> str:
    o, p = report["origin"], report["pin"]
    shown = f" ({report['shown']} shown)" if report.get("shown", report["abilities"]) != report["abilities"] else ""
    lines = [f"{report['abilities']} abilities{shown}: " + ", ".join(f"{o[k]} {k}" for k in ORIGINS) + "; "
             + ", ".join(f"{p[k]} {k}" for k in PINS)]
    if report["missing_readings"]:
        lines.append("readings missing (shown in `backticks`; add a `reads:` to the rulebook entry, or `reads=` "
                     "to the verb or function):")
        lines += [f"  {n:4d}  {what}" for what, n in report["missing_readings"].items()]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split("\n")).strip()
