"""The `choosing` element's `unchoosable` entries, compiled once: which cards a choice leaves out.

Kept apart from the other timing sections because its conditions see a name of their own
(`chooser`, the player who chooses) beside `it` and `you`.
"""

from __future__ import annotations

from interpreter.loader.compile import Compiler
from interpreter.loader.sections import Merged
from interpreter.model.rulebook import CHOOSER, Unchoosable


def _written(data: dict[str, object]) -> list[object]:
    """The `choosing.unchoosable` list as written (empty when there is none)."""
    choosing = data.get("choosing")
    entries = choosing.get("unchoosable") if isinstance(choosing, dict) else None
    return entries if isinstance(entries, list) else []


def unchoosable_entries(data: dict[str, object]) -> list[dict[str, object]]:
    """The `unchoosable` entries as written (mappings only: the schema reports anything else)."""
    return [e for e in _written(data) if isinstance(e, dict)]


def compile_unchoosable(m: Merged, comp: Compiler) -> tuple[Unchoosable, ...]:
    """Each entry's condition compiled (errors reported at its `if`), in the order written."""
    out: list[Unchoosable] = []
    for i, entry in enumerate(_written(m.data)):
        if not isinstance(entry, dict) or "if" not in entry:
            continue
        loc = m.loc("choosing").at("unchoosable", i)
        out.append(Unchoosable(str(entry.get("id")), tuple(str(r) for r in entry.get("rules", ()) or ()),
                               comp.expr(entry["if"], loc.at("if")), entry.get("choices", "effects") == "all"))
    return tuple(out)


__all__ = ["CHOOSER", "compile_unchoosable", "unchoosable_entries"]
