"""Pair the rules of two revisions by content, not by number.

Academy Ruins approach: first pair identical rules (in order, so repeated
sentences such as "チェックタイミングが発生します。" pair with their own
neighbours), then pair the rest by text similarity, best pair first. An
inserted rule therefore shows as one addition plus renumberings, not as a
cascade of changed rules.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from difflib import SequenceMatcher

from .inline import similarity
from .model import Rule

MIN_SIMILARITY = 0.5
MIN_SIMILARITY_SHORT = 0.7  # short texts (titles) look alike by accident
SHORT = 12
CANDIDATES_PER_RULE = 8


def identity(rule: Rule) -> str:
    """Comparison key: content with whitespace removed (re-extraction moves spaces)."""
    return "".join(rule.content().split())


def pair_identical(old: Sequence[Rule], new: Sequence[Rule]) -> list[tuple[int, int]]:
    """Pairs (old index, new index) of rules with identical content."""
    old_keys = [identity(rule) for rule in old]
    new_keys = [identity(rule) for rule in new]
    pairs: list[tuple[int, int]] = []
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    for block in matcher.get_matching_blocks():
        pairs.extend((block.a + offset, block.b + offset) for offset in range(block.size))
    # Identical rules that moved out of order: pair what is left, in order.
    used_old = {a for a, _ in pairs}
    used_new = {b for _, b in pairs}
    waiting: dict[str, list[int]] = defaultdict(list)
    for index, key in enumerate(old_keys):
        if index not in used_old:
            waiting[key].append(index)
    for index, key in enumerate(new_keys):
        if index not in used_new and waiting.get(key):
            pairs.append((waiting[key].pop(0), index))
    return sorted(pairs)


def _grams(text: str) -> set[str]:
    squashed = "".join(text.split())
    if len(squashed) < 2:
        return {squashed} if squashed else set()
    return {squashed[i : i + 2] for i in range(len(squashed) - 1)}


def pair_similar(
    old: Sequence[Rule],
    new: Sequence[Rule],
    old_free: Sequence[int],
    new_free: Sequence[int],
    anchors: dict[int, int],
) -> list[tuple[int, int, float]]:
    """Best-first pairs (old index, new index, similarity) among unpaired rules.

    Candidates come from shared character bigrams so large revisions stay
    fast; ``anchors`` (already paired rules) give a small bonus to pairs whose
    parents are paired with each other.
    """
    if not old_free or not new_free:
        return []
    old_grams = {index: _grams(old[index].content()) for index in old_free}
    frequency: Counter[str] = Counter()
    for grams in old_grams.values():
        frequency.update(grams)
    common = max(20, len(old_free) // 5)
    index_by_gram: dict[str, list[int]] = defaultdict(list)
    for index, grams in old_grams.items():
        for gram in grams:
            if frequency[gram] <= common:
                index_by_gram[gram].append(index)
    parent_index = {rule.number: index for index, rule in enumerate(old)}
    new_parent_index = {rule.number: index for index, rule in enumerate(new)}

    scored: list[tuple[float, float, int, int]] = []
    for j in new_free:
        grams = _grams(new[j].content())
        shared: Counter[int] = Counter()
        for gram in grams:
            for i in index_by_gram.get(gram, ()):
                shared[i] += 1
        ranked = sorted(shared.items(),
                        key=lambda item: -2 * item[1] / (len(grams) + len(old_grams[item[0]]) or 1))
        for i, _count in ranked[:CANDIDATES_PER_RULE]:
            ratio = similarity(old[i].content(), new[j].content())
            length = min(len(identity(old[i])), len(identity(new[j])))
            if ratio < (MIN_SIMILARITY_SHORT if length < SHORT else MIN_SIMILARITY):
                continue
            bonus = 0.0
            if old[i].key == new[j].key:
                bonus += 0.05
            old_parent = parent_index.get(old[i].parent or "")
            new_parent = new_parent_index.get(new[j].parent or "")
            if old_parent is not None and anchors.get(old_parent) == new_parent:
                bonus += 0.05
            scored.append((ratio + bonus, ratio, i, j))
    scored.sort(key=lambda item: (-item[0], item[2], item[3]))
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    pairs: list[tuple[int, int, float]] = []
    for _score, ratio, i, j in scored:
        if i in taken_old or j in taken_new:
            continue
        taken_old.add(i)
        taken_new.add(j)
        pairs.append((i, j, ratio))
    return sorted(pairs)
