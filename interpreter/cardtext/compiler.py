"""One ability's printed text compiled into an ability, or the fragments no phrase matches.

An ability is its markers, then its costs, then the clauses of its body, each matched by a phrase
of the rulebook (grammar.py). What they give is assembled in order: keywords and costs add up, the
clauses' effect steps run in the order written, and a clause that gives `if` (a condition such as
"if you have nine or more energy," or "if you do,") puts the steps after it, to the end of its
sentence, under that condition.
When no way through the whole text exists, the text is scanned phrase by phrase to name the
fragments no phrase matches, which is what a card author or a rules maintainer acts on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from interpreter.cardtext.grammar import (
    ENGINE_PARTS,
    OPENING,
    Grammar,
    GrammarError,
    Match,
    Matcher,
    outside_quotes,
    stopped,
)
from interpreter.cardtext.normalize import Normalized, TextRules, normalize, pin_of

MAX_PATHS = 20000
"""How many partial parses one ability may try before it is called too ambiguous to compile."""


@dataclass
class Fragment:
    """A stretch of printed text no phrase matches: its text, where it starts in the source, the
    family of what was being read where matching stopped (grammar.Stop) and where in the fragment
    that was."""

    text: str
    start: int
    family: str = ""
    stop: int = 0


@dataclass
class Compiled:
    """The result for one ability text: the ability (None when it did not compile fully), the
    fragments no phrase matched, how much of the text matched, and the phrases used."""

    text: str
    pin: str
    ability: dict[str, Any] | None
    unmatched: list[Fragment] = field(default_factory=list)
    matched_share: float = 0.0
    phrases: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def status(self) -> str:
        """`full`, `partial` (some phrases matched) or `none`."""
        if self.ability is not None:
            return "full"
        return "partial" if self.matched_share > 0 else "none"


def compile_ability_text(grammar: Grammar, text: str) -> Compiled:
    """Compile the printed text of one ability."""
    norm = normalize(text, grammar.rules)
    pin = pin_of(text, grammar.rules)
    m = grammar.matcher(norm.text)
    try:
        found = _read(m, grammar)
        if found is not None:
            path, ability = found
            used = [p for _, match in path for p in match.phrases]
            return Compiled(text, pin, ability, [], 1.0, used)
        unmatched, share = _scan(m, norm, grammar.sentence_ends + grammar.fragment_ends, grammar.rules.quotes)
        return Compiled(text, pin, None, unmatched, share)
    except GrammarError as e:
        return Compiled(text, pin, None, [Fragment(text, 0)], 0.0, error=str(e))


def compile_inner(grammar: Grammar, text: str) -> dict[str, Any] | None:
    """An ability written inside another's text (an `ability` slot: the ability an effect grants),
    compiled as a whole ability; None when no way through it exists. The text is already normalized
    but for the spaces the quotes around it kept: those outside its own quotes go."""
    inner = normalize(text, TextRules(quotes=grammar.rules.quotes, ability_separator=None)).text
    try:
        found = _read(grammar.matcher(inner), grammar)
        return found[1] if found is not None else None
    except GrammarError:
        return None


MAX_READINGS = 50
"""How many whole readings of one text are assembled looking for a well-formed ability."""


def _read(m: Matcher, grammar: Grammar) -> tuple[list[tuple[str, Match]], dict[str, Any]] | None:
    """The first way through the whole text (depth first, phrase order) whose ability is well formed:
    it assembles, and a kind that takes an effect description (a continuous kind, `Grammar.
    continuous_kinds`) has one while the other kinds have steps. Failing that, the first that
    assembles (its card then reports what is wrong); none: the first assembly error, or None."""
    fallback: tuple[list[tuple[str, Match]], dict[str, Any]] | None = None
    error: GrammarError | None = None
    for k, path in enumerate(_paths(m)):
        try:
            ability = assemble(path, m.text, grammar.sentence_ends)
        except GrammarError as e:
            error = error or e
        else:
            if grammar.default_kind and "kind" not in ability and not is_information(ability):
                ability = {"kind": grammar.default_kind, **ability}
            if _well_formed(ability, grammar.continuous_kinds):
                return path, ability
            fallback = fallback or (path, ability)
        if k + 1 >= MAX_READINGS:
            break
    if fallback is not None:
        return fallback
    if error is not None:
        raise error
    return None


def _well_formed(ability: dict[str, Any], continuous_kinds: frozenset[str]) -> bool:
    kind, effect = ability.get("kind"), ability.get("effect")
    if not continuous_kinds or kind is None or effect is None:
        return True
    return isinstance(effect, dict) if kind in continuous_kinds else isinstance(effect, list)


def _paths(m: Matcher) -> Iterator[list[tuple[str, Match]]]:
    """The ways markers, costs and clauses cover the whole text, depth first in phrase order."""
    end = len(m.text)
    budget = [MAX_PATHS]

    def walk(pos: int, stage: int) -> Iterator[list[tuple[str, Match]]]:
        if pos == end:
            yield []
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise GrammarError(f"the text is too ambiguous to compile (more than {MAX_PATHS} partial readings)")
        for st in range(stage, len(ENGINE_PARTS)):
            part = ENGINE_PARTS[st]
            for match in m.part(part, pos):
                if match.end <= pos:
                    continue
                for rest in walk(match.end, st):
                    yield [(part, match), *rest]

    if end:
        yield from walk(0, 0)


def _scan(m: Matcher, norm: Normalized, ends: tuple[str, ...],
          quotes: tuple[tuple[str, str], ...] = ()) -> tuple[list[Fragment], float]:
    """Fragments no phrase matches, found by taking the longest phrase (of the parts allowed there)
    wherever one matches and skipping to the next sentence end where none does (one outside quotes:
    a quoted ability's own sentences stay in its fragment); and the share of the text matched."""
    text = m.text
    pos, matched, stage = 0, 0, 0
    out: list[Fragment] = []
    while pos < len(text):
        # markers, then costs, then clauses: a marker after the body is as unread as an unknown word
        found = [(x.end, st) for st in range(stage, len(ENGINE_PARTS)) for x in m.part(ENGINE_PARTS[st], pos)]
        best, best_stage = max(found, default=(pos, stage))
        if best > pos:
            matched += best - pos
            pos, stage = best, best_stage
            continue
        stop = outside_quotes(text, pos, ends, quotes)
        where = stopped(m.g, text, pos, stage)
        at = min(where.pos, stop) - pos if where is not None else 0
        out.append(Fragment(text[pos:stop], norm.source_index(pos), where.family if where else OPENING, at))
        pos = stop
    return out, (matched / len(text) if text else 0.0)



def assemble(path: list[tuple[str, Match]], text: str = "", sentence_ends: tuple[str, ...] = ()) -> dict[str, Any]:
    """An ability from what its markers, costs and clauses gave, in order. A condition (`if`) covers the
    rest of its sentence: a clause that ends at a sentence end closes every open condition. An
    `if_rest` covers the rest of the ability ("you may use what follows", whatever the sentences): a
    sentence end closes the conditions opened inside it, not it. Steps given as `last` run after all
    the others, wherever they are written (a keyword resolved last within its skill)."""
    ability: dict[str, Any] = {}
    steps: list[Any] = []
    target = steps
    floor = steps  # where a sentence end returns to: the steps, or the body of the last `if_rest`
    last: list[Any] = []
    spec: dict[str, Any] | None = None
    pending_if: list[Any] = []
    for part, match in path:
        gives = match.value
        if not isinstance(gives, dict):
            raise GrammarError(f"phrase '{match.phrases[0]}' ({part}) gives {type(gives).__name__}, not a mapping")
        for key, value in gives.items():
            if key == "keywords":
                kws = ability.setdefault("keywords", [])
                kws.extend(k for k in (value if isinstance(value, list) else [value]) if k not in kws)
            elif key == "cost":
                ability.setdefault("cost", []).extend(value if isinstance(value, list) else [value])
            elif key == "fields":
                if not isinstance(value, dict):
                    raise GrammarError(f"phrase '{match.phrases[0]}' gives fields that are not a mapping")
                ability.setdefault("fields", {}).update(value)
            elif key == "optional":
                ability["optional"] = bool(ability.get("optional")) or bool(value)
            elif key in ("if", "if_rest"):
                if spec is not None:
                    raise GrammarError(f"phrase '{match.phrases[0]}': a condition after a continuous effect")
                if key == "if":
                    pending_if.append(value)
                node: dict[str, Any] = {"if": {"cond": value, "then": []}}
                target.append(node)
                target = node["if"]["then"]
                if key == "if_rest":
                    floor = target
            elif key == "last":
                last.extend(value if isinstance(value, list) else [value])
            elif key == "effect":
                if isinstance(value, dict):
                    if spec is not None or steps and not pending_if:
                        raise GrammarError(f"phrase '{match.phrases[0]}': a continuous effect beside other effects")
                    spec = dict(value)
                else:
                    target.extend(value if isinstance(value, list) else [value])
            elif key in ability and ability[key] != value:
                raise GrammarError(f"phrase '{match.phrases[0]}' gives {key} {value!r}, but an earlier phrase "
                                   f"gave {ability[key]!r}")
            else:
                ability[key] = value
        if part == "clause" and any(text.endswith(e, 0, match.end) for e in sentence_ends):
            target = floor
    if last:
        if spec is not None:
            raise GrammarError("steps to run last beside a continuous effect")
        steps.extend(last)
    if spec is not None:
        if pending_if:  # a condition before a continuous effect: it applies only while the condition holds
            conds = [*pending_if, *([spec["if"]] if "if" in spec else [])]
            spec["if"] = " and ".join(f"({c})" for c in conds) if len(conds) > 1 else conds[0]
        ability["effect"] = spec
    elif steps:
        ability["effect"] = steps
    order = ["kind", "keywords", "optional", "trigger", "answers", "cost", "effect", "fields"]
    return {k: ability[k] for k in order if k in ability}


def is_information(ability: dict[str, Any] | None) -> bool:
    """Whether a compiled line is card information, not an ability: it gives card fields only (a
    notation the rulebook keeps as fields, or annotation that gives none)."""
    return ability is not None and set(ability) == {"fields"}
