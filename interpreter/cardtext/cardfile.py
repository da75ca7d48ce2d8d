"""Card files and their printed text: compile, check, pin and count.

A card's `text` is its printed text, one ability per line (or as the rulebook's card_text says).
Ability k of the card encodes line k. `sogo cards compile` rewrites each compiled ability from its
line; an ability marked `hand: true` was written by hand and is kept; a line no phrase fully
matches becomes an ability holding only its `text`, its `pin` and the `todo` fragments, which the
game does not play until someone writes it. Every ability records the `pin` of the text it encodes,
so an errata (a changed line) is reported for review by `sogo validate`.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.cardtext.compiler import Compiled, compile_ability_text, is_information
from interpreter.cardtext.grammar import Grammar
from interpreter.cardtext.normalize import normalize, split_abilities
from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.yaml_safe import SourceMap, load_yaml

EFFECT_KEYS = ("kind", "keywords", "optional", "trigger", "answers", "cost", "effect", "params", "fields")
"""What an ability does: the keys --check compares (text, pin, rules and notes are not behaviour)."""


def grammar_of(rb: Any) -> Grammar:
    if rb.card_text is None:
        raise LoadError.single(str(rb.directory / "rulebook.yaml"), 1, 1,
                               f"rulebook '{rb.id}' declares no card-text phrases (a card_text section with "
                               f"phrases), so its card text cannot be compiled")
    return rb.card_text


def text_position(source: str, smap: SourceMap, path: tuple[Any, ...], value: str, index: int) -> tuple[int, int]:
    """Line and column in the file of character `index` of the string scalar `value` at `path`:
    exact for block scalars (`|`) and single-line scalars (escapes of a double-quoted one counted),
    the scalar's start otherwise."""
    line, col = smap.get(path)
    lines = source.splitlines()
    if not 0 < line <= len(lines):
        return line, col
    head = lines[line - 1][col - 1:] if col - 1 < len(lines[line - 1]) else ""
    if head.startswith(("|", ">")):
        body_line = line  # 0-based index of the first content line
        while body_line < len(lines) and not lines[body_line].strip():
            body_line += 1
        if body_line >= len(lines):
            return line, col
        indent = len(lines[body_line]) - len(lines[body_line].lstrip(" "))
        before = value[:index]
        k = before.count("\n")
        return body_line + 1 + k, indent + 1 + len(before) - (before.rfind("\n") + 1)
    if head[:1] == '"':  # escapes (\n, \", \uXXXX) take more columns than the character they write
        pos = 1
        for _ in range(index):
            if pos >= len(head):
                break
            pos += {"x": 4, "u": 6, "U": 10}.get(head[pos + 1:pos + 2], 2) if head[pos] == "\\" else 1
        return line, col + pos
    quoted = 1 if head[:1] == "'" else 0
    before = value[:index]
    if "\n" in before:  # a plain or single-quoted scalar folded over lines: each line break is a blank line
        segments = before.split("\n")
        at = line + len(segments) - 1 + sum(1 for seg in segments[1:] if seg)
        if not segments[-1]:
            at += 1  # the character starts a line of its own after the blank line
        if at > len(lines):
            return line, col
        text = lines[at - 1]
        indent = len(text) - len(text.lstrip(" "))
        return at, indent + 1 + len(segments[-1]) + segments[-1].count("'") * quoted
    return line, col + quoted + index + before.count("'") * quoted


@dataclass
class CardResult:
    """One card's compiled text: each line's result, and where the card and its text are."""

    card_id: str
    index: int
    lines: list[tuple[int, Compiled]]  # (start index in the card's text, result)
    kinds: list[str] = field(default_factory=list)  # each line's kind (line_kind)


@dataclass
class FileResult:
    path: Path
    data: Any
    smap: SourceMap
    source: str
    cards: list[CardResult] = field(default_factory=list)
    key: str = "cards"  # the list the texts are in: `cards`, or `texts` for a corpus (compile_file)

    def where(self, card: CardResult, start: int) -> tuple[int, int]:
        return text_position(self.source, self.smap, (self.key, card.index, "text"),
                             self.data[self.key][card.index]["text"], start)


def compile_file(grammar: Grammar, path: Path, corpus: bool = False) -> FileResult:
    """Compile the printed text of every card of a card file (cards without `text` are skipped).
    With `corpus`, a card-text corpus (a list of `texts`, each with its `text`, as in
    tests/data/cardtext) is read too, each text as a card: for counting, not for writing."""
    data, smap = load_yaml(path)
    key = "texts" if corpus and isinstance(data, dict) and isinstance(data.get("texts"), list) else "cards"
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        expected = " (or a corpus: a list of 'texts')" if corpus else ""
        raise LoadError.single(str(path), 1, 1,
                               f"expected a card file: a mapping with 'game' and a list of 'cards'{expected}")
    result = FileResult(path, data, smap, path.read_text(encoding="utf-8"), key=key)
    cache: dict[str, Compiled] = {}  # printings of one card share their text
    for i, card in enumerate(data[key]):
        if not isinstance(card, dict) or not isinstance(card.get("text"), str):
            continue
        lines, kinds = [], []
        for start, line in split_abilities(card["text"], grammar.rules):
            if line not in cache:
                cache[line] = compile_ability_text(grammar, line)
            lines.append((start, cache[line]))
            kinds.append(line_kind(normalize(line, grammar.rules).text))
        result.cards.append(CardResult(str(card.get("id")), i, lines, kinds))
    return result


LABELS = {"[": "]", "【": "】", "〔": "〕", "《": "》"}
"""Brackets of the label a printed ability may open with: its kind, such as 【auto】 or [skill]."""
NO_LABEL = "(no label)"


def line_kind(text: str) -> str:
    """The kind of an ability's (normalized) line for counting: the bracketed label it opens with,
    numbers blanked ([N times a turn]), or NO_LABEL."""
    close = LABELS.get(text[:1])
    end = text.find(close, 1) if close else -1
    return _NUMBER.sub("N", text[:end + 1]) if end > 0 else NO_LABEL


def unmatched_diagnostics(result: FileResult) -> list[Diagnostic]:
    """Each fragment no phrase matches, at its place in the file (not for abilities written by hand)."""
    out = []
    for card in result.cards:
        have = result.data["cards"][card.index].get("abilities") or []
        for k, (start, compiled) in enumerate(card.lines):
            if k < len(have) and isinstance(have[k], dict) and have[k].get("hand"):
                continue
            for frag in compiled.unmatched:
                line, col = result.where(card, start + frag.start)
                why = f" ({compiled.error})" if compiled.error else ""
                out.append(Diagnostic(str(result.path), line, col,
                                      f"card {card.card_id}: no phrase matches 「{frag.text}」{why}"))
    return out


def new_abilities(card: dict[str, Any], lines: list[tuple[int, Compiled]]) -> list[dict[str, Any]]:
    """The abilities a card gets from its text: compiled ones, hand-written ones kept (`hand: true`
    at the same position), and `todo` entries for lines not compiled."""
    old = card.get("abilities") or []
    out: list[dict[str, Any]] = []
    for k, (_, compiled) in enumerate(lines):
        previous = old[k] if k < len(old) and isinstance(old[k], dict) else None
        if previous is not None and previous.get("hand"):
            out.append(previous)
        elif compiled.ability is not None:
            extra = {key: previous[key] for key in ("rules",) if previous and key in previous}
            out.append({"text": compiled.text, "pin": compiled.pin, **compiled.ability, **extra})
        else:
            out.append({"text": compiled.text, "pin": compiled.pin,
                        "todo": [f.text for f in compiled.unmatched] or ["(not compiled)"]})
    return out


def _round_trip() -> Any:
    """A YAML reader-writer that keeps comments, order and quoting, laid out as card files are."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def write_compiled(result: FileResult) -> str:
    """The card file with its abilities rewritten from the text, comments and order kept."""
    yaml = _round_trip()
    doc = yaml.load(result.source)
    for card in result.cards:
        node = doc["cards"][card.index]
        old = result.data["cards"][card.index].get("abilities") or []
        old_nodes = node.get("abilities") or []
        abilities = new_abilities(result.data["cards"][card.index], card.lines)
        for _, compiled in card.lines:  # a line of card information sets the fields it states
            if is_information(compiled.ability):
                for key, value in (compiled.ability or {}).get("fields", {}).items():
                    node[key] = _flow_leaves(value)
        # An ability that stays as it was keeps its node, with its comments and layout.
        node["abilities"] = [old_nodes[k] if k < len(old) and k < len(old_nodes) and old[k] == a else _flow_leaves(a)
                             for k, a in enumerate(abilities)]
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def _flow_leaves(value: Any, in_flow: bool = False) -> Any:
    """Small mappings (a template call's arguments) written on one line, as card files write them;
    a string that would not read back as itself written plain is quoted (`_reads_back_plain`)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

    if isinstance(value, str):
        if _reads_back_plain(value, in_flow):
            return value
        printable = value.isprintable() and "'" not in value
        return SingleQuotedScalarString(value) if printable else DoubleQuotedScalarString(value)
    if isinstance(value, dict):
        flow = all(not isinstance(v, dict | list) for v in value.values()) and len(value) <= 4
        m = CommentedMap((k, _flow_leaves(v, flow)) for k, v in value.items())
        if flow:
            m.fa.set_flow_style()
        return m
    if isinstance(value, list):
        flow = all(isinstance(v, str) for v in value)
        s = CommentedSeq(_flow_leaves(v, flow) for v in value)
        if flow:
            s.fa.set_flow_style()
        return s
    return value


def _reads_back_plain(text: str, in_flow: bool) -> bool:
    """Whether `text` written as a plain scalar (inside a flow collection, or as a block value) reads
    back as the same string with the pure-Python YAML parser: the writer emits some plain scalars,
    such as one holding `?` in a flow sequence, that only libyaml accepts, or that read back as
    something else, such as one starting with `?`."""
    import yaml

    if not text or text != text.strip() or "\n" in text:
        return False
    doc, want = (f"[{text}]", [text]) if in_flow else (f"k: {text}", {"k": text})
    try:
        return bool(yaml.load(doc, Loader=yaml.SafeLoader) == want)
    except yaml.YAMLError:
        return False


def check_file(result: FileResult) -> list[Diagnostic]:
    """Where a card's abilities do not do what its text compiles to (hand-written ones included)."""
    out = []
    for card in result.cards:
        raw = result.data["cards"][card.index]
        have = raw.get("abilities") or []
        for k, (start, compiled) in enumerate(card.lines):
            line, col = result.where(card, start)
            if compiled.ability is None:
                continue  # not compiled: reported as unmatched fragments
            if k >= len(have) or not isinstance(have[k], dict):
                out.append(Diagnostic(str(result.path), line, col,
                                      f"card {card.card_id}: line {k + 1} of its text has no ability"))
                continue
            diff = _first_difference({x: compiled.ability.get(x) for x in EFFECT_KEYS},
                                     {x: have[k].get(x) for x in EFFECT_KEYS})
            if not diff and is_information(compiled.ability):
                stated = compiled.ability["fields"]
                diff = _first_difference(stated, {f: raw.get(f) for f in stated}, "card field")
            if diff:
                aline, acol = result.smap.get(("cards", card.index, "abilities", k))
                out.append(Diagnostic(str(result.path), aline, acol,
                                      f"card {card.card_id}: ability {k + 1} differs from its text: {diff}"))
        extra = [k for k in range(len(card.lines), len(have))
                 if not (isinstance(have[k], dict) and have[k].get("hand"))]
        if extra:  # hand-written abilities beyond the text are the author's own (a card file may split a skill)
            aline, acol = result.smap.get(("cards", card.index, "abilities", extra[0]))
            out.append(Diagnostic(str(result.path), aline, acol,
                                  f"card {card.card_id}: ability {extra[0] + 1} has no line of text"))
    return out


def _first_difference(want: Any, have: Any, path: str = "") -> str | None:
    """The first place two abilities differ, as `path: text gives X, card has Y`."""
    if isinstance(want, dict) and isinstance(have, dict):
        for key in list(want) + [k for k in have if k not in want]:
            d = _first_difference(want.get(key), have.get(key), f"{path}.{key}" if path else str(key))
            if d:
                return d
        return None
    if isinstance(want, list) and isinstance(have, list) and len(want) == len(have):
        for i, (a, b) in enumerate(zip(want, have, strict=True)):
            d = _first_difference(a, b, f"{path}[{i}]")
            if d:
                return d
        return None
    if want in (None, False, []) and have in (None, False, []):
        return None
    if want != have:
        return f"{path}: text gives {_short(want)}, card has {_short(have)}"
    return None


def _short(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


_NUMBER = re.compile(r"[0-9]+")
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|\[[^\]]*\]")
STOP_MARK = "‸"
"""Written into a fragment's shape where matching stopped."""


def shape(fragment: str) -> str:
    """A fragment with its numbers and quoted names blanked, so fragments of one shape count together."""
    return _NUMBER.sub("N", _QUOTED.sub(lambda m: m.group(0)[0] + "…" + m.group(0)[-1], fragment))


def stopped_shape(fragment: str, stop: int) -> str:
    """The shape with STOP_MARK where matching stopped; a quote holding that place is kept (the
    stop is inside it: a quoted ability, or the name itself), its numbers blanked."""
    def blank(m: re.Match[str]) -> str:
        inside = m.start() < stop < m.end()
        return m.group(0) if inside else m.group(0)[0] + "…" + m.group(0)[-1]

    marked = _QUOTED.sub(blank, fragment[:stop] + "\0" + fragment[stop:].replace("\0", ""))
    return _NUMBER.sub("N", marked).replace("\0", STOP_MARK)


def stats(results: list[FileResult], top: int = 20) -> dict[str, Any]:
    """How many cards and abilities compile fully, partly or not at all (printings, and distinct
    texts: printings of one card share theirs), and the unmatched fragments: the commonest shapes, and
    by family (what was being read where matching stopped, grammar.Stop), so that a maintainer sees
    which kind of phrase to write next and where in the sentence it is missing."""
    abilities: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    shape_texts: dict[str, set[str]] = {}
    families: Counter[str] = Counter()
    family_texts: dict[str, set[str]] = {}
    family_shapes: dict[str, Counter[str]] = {}
    example: dict[str, str] = {}
    family_of: dict[str, str] = {}
    marked: dict[str, str] = {}
    seen: set[str] = set()
    matched = 0.0
    by_kind: dict[str, dict[str, Any]] = {}
    for result in results:
        for card in result.cards:
            statuses = [c.status for _, c in card.lines]
            if not statuses:
                continue
            abilities.update(statuses)
            matched += sum(c.matched_share for _, c in card.lines)
            cards["full" if all(s == "full" for s in statuses) else
                  "none" if all(s == "none" for s in statuses) else "partial"] += 1
            kinds = card.kinds or [NO_LABEL] * len(card.lines)
            for (start, c), kind in zip(card.lines, kinds, strict=True):
                k = by_kind.setdefault(kind, {"abilities": Counter(), "distinct": Counter(), "texts": set(),
                                              "families": Counter(), "family_texts": {}})
                k["abilities"][c.status] += 1
                if c.text not in k["texts"]:
                    k["texts"].add(c.text)
                    k["distinct"][c.status] += 1
                if c.text not in seen:
                    seen.add(c.text)
                    distinct[c.status] += 1
                for frag in c.unmatched:
                    key = shape(frag.text)
                    family = frag.family or "opening"
                    k["families"][family] += 1
                    k["family_texts"].setdefault(family, set()).add(c.text)
                    shapes[key] += 1
                    shape_texts.setdefault(key, set()).add(c.text)
                    families[family] += 1
                    family_texts.setdefault(family, set()).add(c.text)
                    family_shapes.setdefault(family, Counter())[key] += 1
                    if key not in example:
                        line, col = result.where(card, start + frag.start)
                        example[key] = f"{result.path}:{line}:{col}"
                        family_of[key] = family
                        marked[key] = stopped_shape(frag.text, frag.stop)
    total = sum(abilities.values())

    def entry(key: str, count: int) -> dict[str, Any]:
        return {"shape": key, "count": count, "texts": len(shape_texts[key]), "family": family_of[key],
                "stopped_at": marked[key], "first": example[key]}

    by_family = sorted(families, key=lambda f: (-len(family_texts[f]), -families[f], f))
    return {
        "cards": {k: cards.get(k, 0) for k in ("full", "partial", "none")},
        "abilities": {k: abilities.get(k, 0) for k in ("full", "partial", "none")},
        "abilities_total": total,
        "distinct_texts": {k: distinct.get(k, 0) for k in ("full", "partial", "none")},
        "full_share": round(abilities.get("full", 0) / total, 4) if total else 0.0,
        "text_matched_share": round(matched / total, 4) if total else 0.0,
        "unmatched": [entry(s, n) for s, n in shapes.most_common(top)],
        "families": [{"family": f, "count": families[f], "texts": len(family_texts[f]),
                      "top": [entry(s, n) for s, n in family_shapes[f].most_common(max(1, top // 4))]}
                     for f in by_family],
        "kinds": [{"kind": kind, "abilities": {x: k["abilities"].get(x, 0) for x in ("full", "partial", "none")},
                   "distinct_texts": {x: k["distinct"].get(x, 0) for x in ("full", "partial", "none")},
                   "families": [{"family": f, "count": k["families"][f], "texts": len(k["family_texts"][f])}
                                for f in sorted(k["families"], key=lambda f: (-len(k["family_texts"][f]),
                                                                              -k["families"][f], f))]}
                  for kind, k in sorted(by_kind.items(), key=lambda kv: (-sum(kv[1]["abilities"].values()), kv[0]))],
    }


def render_stats(report: dict[str, Any]) -> str:
    a, c, d = report["abilities"], report["cards"], report["distinct_texts"]
    lines = [
        f"abilities: {report['abilities_total']}  fully compiled {a['full']} ({report['full_share']:.1%}), "
        f"partly {a['partial']}, not at all {a['none']}",
        f"distinct ability texts: {sum(d.values())}  fully {d['full']}, partly {d['partial']}, not at all {d['none']}",
        f"cards with text: {sum(c.values())}  fully {c['full']}, partly {c['partial']}, not at all {c['none']}",
        f"share of ability text matched by phrases: {report['text_matched_share']:.1%}",
    ]
    if report.get("kinds"):
        lines.append("abilities by kind (the bracketed label a line opens with): printings full/partly/not at all; "
                     "distinct texts; unmatched fragments by family (printings/distinct texts)")
        for k in report["kinds"]:
            ka, kd = k["abilities"], k["distinct_texts"]
            fams = ", ".join(f"{f['family']} {f['count']}/{f['texts']}" for f in k["families"][:4])
            lines.append(f"  {k['kind']}: {sum(ka.values())} ({ka['full']}/{ka['partial']}/{ka['none']}); "
                         f"{sum(kd.values())} distinct ({kd['full']}/{kd['partial']}/{kd['none']})"
                         + (f"; {fams}" if fams else ""))
    if report["unmatched"]:
        lines.append("most frequent unmatched fragments (printings / distinct texts; N: a number, 「…」: a name):")
        for u in report["unmatched"]:
            lines.append(f"  {u['count']:5d} /{u['texts']:4d}  {u['shape']}   (first: {u['first']})")
        lines.append(f"unmatched fragments by family (what was being read where matching stopped, at "
                     f"{STOP_MARK}; opening: no phrase reads the first word):")
        for f in report["families"]:
            lines.append(f"  {f['family']}: {f['count']} printings, {f['texts']} distinct texts")
            for u in f["top"]:
                lines.append(f"    {u['count']:5d} /{u['texts']:4d}  {u['stopped_at']}   (first: {u['first']})")
    return "\n".join(lines) + "\n"


def pin_file(grammar: Grammar, path: Path) -> tuple[str, int]:
    """The card file with every ability's pin set to its line of text (after a review); and how many changed."""
    result = compile_file(grammar, path)
    yaml = _round_trip()
    doc = yaml.load(result.source)
    changed = 0
    for card in result.cards:
        node = doc["cards"][card.index]
        for k, (_, compiled) in enumerate(card.lines):
            abilities = node.get("abilities") or []
            if k < len(abilities) and abilities[k].get("pin") != compiled.pin:
                abilities[k]["pin"] = compiled.pin
                changed += 1
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue(), changed
