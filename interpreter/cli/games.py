"""`sogo games`: the games found on the rulebook search path, what each is and where it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import find_rulebook, known_rulebooks, load_rulebook


def _shown(p: Path) -> str:
    full, here = p.resolve(), Path.cwd().resolve()
    return str(full.relative_to(here)) if full.is_relative_to(here) else str(full)


def game_rows() -> list[dict[str, Any]]:
    """One record per rulebook name (`game` and each `game@version`): its title, rules version,
    seat counts and formats, the folder it was found in and its card folders. A rulebook that does
    not load is listed with its first problems instead of stopping the list."""
    from interpreter.cli.setup import card_folders, decks_dir, sample_decks, seat_counts

    rows: list[dict[str, Any]] = []
    for name in known_rulebooks():
        where = find_rulebook(name)
        row: dict[str, Any] = {"name": name, "rulebook": _shown(where), "title": name, "rules_version": "?",
                               "players": "?", "formats": [],
                               "cards": [_shown(f) for f in card_folders(name) if f.is_dir()]}
        try:
            rb = load_rulebook(name)
        except LoadError as e:
            row["problems"] = [str(d) for d in e.diagnostics[:3]]
            rows.append(row)
            continue
        counts = seat_counts(rb)
        decks = sample_decks(rb)
        row.update(cards=[_shown(f) for f in card_folders(rb.id) if f.is_dir()],
                   decks=f"{len(decks)} sample deck(s) in {_shown(decks_dir(rb))}",
                   title=rb.title or rb.id, rules_version=rb.rules_version,
                   players=" or ".join(map(str, counts)) if len(counts) < 3 else f"{counts[0]}-{counts[-1]}",
                   formats=[str(f) for f in rb.raw.get("formats") or []])
        rows.append(row)
    return rows
