"""Field-level differences between two YAML values, lists of elements matched by ``id``.

A small recursive differ instead of deepdiff or jsondiff: generic differs pair
list items by position, so inserting one zone blames every zone after it
(see the anchors on dyff/deepdiff). Here lists whose items all carry an ``id``
are compared as sets keyed by id (order is not a change), lists of scalars are
reported whole (``[a, b] -> [a, c]``), and other lists (effect steps, whose
order matters) are aligned with difflib so an inserted step is one insertion.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from .raw import CITING_KEY, CITING_SUFFIX, SINGLE_CITING_KEY

STEP_LIST_KEYS = frozenset({"do", "then", "else"})


def canonical(value: Any) -> str:
    """Stable text of a value: mapping order ignored, ``1`` and ``true`` kept apart."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class FieldChange:
    """One added, removed or changed value at a path inside an element."""

    op: str  # "added" | "removed" | "changed"
    path: str
    old: Any = None
    new: Any = None

    @property
    def citation_only(self) -> bool:
        """True when the change is to a list of cited rule numbers."""
        last = self.path.rsplit(".", 1)[-1].split("[", 1)[0]
        return last in (CITING_KEY, SINGLE_CITING_KEY) or last.endswith(CITING_SUFFIX)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``old``/``new`` only where they apply."""
        data: dict[str, Any] = {"op": self.op, "path": self.path}
        if self.op != "added":
            data["old"] = self.old
        if self.op != "removed":
            data["new"] = self.new
        return data


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _keyed(items: list[Any]) -> bool:
    ids = [item.get("id") if isinstance(item, dict) else None for item in items]
    return all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids)


def _scalar_list(items: list[Any]) -> bool:
    return all(not isinstance(item, dict | list) for item in items)


def diff_values(old: Any, new: Any, path: str = "") -> list[FieldChange]:
    """Every difference between ``old`` and ``new``, with paths like ``fields[id=cost].type``."""
    out: list[FieldChange] = []
    _diff(old, new, path, out)
    return out


def _diff(old: Any, new: Any, path: str, out: list[FieldChange]) -> None:
    if canonical(old) == canonical(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                out.append(FieldChange("removed", _join(path, key), old=value))
            else:
                _diff(value, new[key], _join(path, key), out)
        for key, value in new.items():
            if key not in old:
                out.append(FieldChange("added", _join(path, key), new=value))
        return
    if isinstance(old, list) and isinstance(new, list):
        if _keyed(old) and _keyed(new) and (old or new) and not (_scalar_list(old) and _scalar_list(new)):
            _diff_keyed(old, new, path, out)
        elif _scalar_list(old) and _scalar_list(new):
            out.append(FieldChange("changed", path, old, new))
        else:
            _diff_sequence(old, new, path, out)
        return
    out.append(FieldChange("changed", path, old, new))


def _diff_keyed(old: list[Any], new: list[Any], path: str, out: list[FieldChange]) -> None:
    before = {item["id"]: item for item in old}
    after = {item["id"]: item for item in new}
    for key, item in before.items():
        where = f"{path}[id={key}]"
        if key not in after:
            out.append(FieldChange("removed", where, old=item))
        else:
            _diff(item, after[key], where, out)
    for key, item in after.items():
        if key not in before:
            out.append(FieldChange("added", f"{path}[id={key}]", new=item))


def _diff_sequence(old: list[Any], new: list[Any], path: str, out: list[FieldChange]) -> None:
    """Align unkeyed lists on equal items; replaced runs of equal length are compared item by item."""
    matcher = difflib.SequenceMatcher(a=[canonical(x) for x in old], b=[canonical(x) for x in new],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        paired = min(i2 - i1, j2 - j1) if op == "replace" else 0
        for k in range(paired):
            _diff(old[i1 + k], new[j1 + k], f"{path}[{j1 + k}]", out)
        for i in range(i1 + paired, i2):
            out.append(FieldChange("removed", f"{path}[{i}]", old=old[i]))
        for j in range(j1 + paired, j2):
            out.append(FieldChange("added", f"{path}[{j}]", new=new[j]))


def step_verbs(value: Any) -> list[str]:
    """Verbs used by the effect steps inside ``value`` (keys of items of do/then/else lists), sorted."""
    verbs: set[str] = set()

    def walk(node: Any, in_steps: bool) -> None:
        if isinstance(node, dict):
            for key, child in node.items():
                if in_steps:
                    verbs.add(key)
                if key in STEP_LIST_KEYS and isinstance(child, list):
                    for step in child:
                        walk(step, True)
                else:
                    walk(child, False)
        elif isinstance(node, list):
            for child in node:
                walk(child, False)

    walk(value, False)
    return sorted(verbs)


__all__ = ["FieldChange", "canonical", "diff_values", "step_verbs"]
