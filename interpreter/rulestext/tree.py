"""Parent/child links and numbering gaps of a parsed document.

Documents sometimes skip a number or a whole level (seed 002 has 10.1.1.2.2
without 10.1.1.2); the tree still links every rule to its nearest written
ancestor, and the skips are reported instead of silently papered over.
"""

from __future__ import annotations

from .model import Gap, Numbering, Rule, RuleDoc


def link_tree(doc: RuleDoc) -> None:
    """Fill ``parent``/``children`` and record missing levels and gaps."""
    numbering = doc.numbering or Numbering()
    by_key = {rule.key: rule for rule in doc.rules.values()}
    for rule in doc.ordered():
        ancestor = rule.key[:-1]
        while ancestor and ancestor not in by_key:
            ancestor = ancestor[:-1]
        if ancestor:
            parent = by_key[ancestor]
            rule.parent = parent.number
            parent.children.append(rule.number)
            if len(ancestor) != len(rule.key) - 1:
                missing = numbering.format(rule.key[:-1])
                doc.notes.append(f"{rule.number} (line {rule.line}): parent {missing} is missing; "
                                 f"attached to {parent.number}")
        elif len(rule.key) > 1:
            doc.notes.append(f"{rule.number} (line {rule.line}): no parent rule")
    doc.gaps.extend(find_gaps(by_key, numbering))


def find_gaps(by_key: dict[tuple[int, ...], Rule], numbering: Numbering) -> list[Gap]:
    """Siblings whose numbers skip (children are expected to start at 1, or 0)."""
    groups: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for key in sorted(by_key):
        groups.setdefault(key[:-1], []).append(key)
    gaps: list[Gap] = []
    for prefix, keys in groups.items():
        parent = numbering.format(prefix) if prefix else None
        expected = keys[0][-1] if not prefix or keys[0][-1] == 0 else 1
        previous: tuple[int, ...] | None = None
        for key in keys:
            if key[-1] > expected:
                missing = [numbering.format(prefix + (value,)) for value in range(expected, key[-1])]
                gaps.append(Gap(parent=parent, after=numbering.format(previous) if previous else None,
                                missing=missing, line=by_key[key].line))
            expected = key[-1] + 1
            previous = key
    return gaps
