"""Card-text benchmark (reports figures; not a test): how much of the real card lists in
`../shared/corpora` each game's phrases compile, and what the imported lists' card files give
`sogo validate`. `python tests/benchmarks/bench_cardtext.py [GAME ...] [--corpora DIR] [--top N]`.

Each source is a card list and the import mapping that reads it (one of the rulebook's `imports/`,
or a mapping written here for a list that is only a list of ability texts). For each it imports the
list into a temporary card file, compiles it and prints, as one JSON object: the abilities over
printings and over distinct texts (full, partial, none), the share of text matched, the unmatched
fragments by family (`sogo cards stats`), and the errors and warnings loading the file gives. A
source whose list is absent, or whose game has no card-text phrases yet, is reported as skipped.
The corpora are for measuring only: nothing of them is written anywhere but the temporary folder.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from interpreter.cardtext.cardfile import compile_file, stats, write_compiled
from interpreter.cardtext.importer import find_mapping, import_cards, load_mapping, read_records
from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook

CORPORA = Path(__file__).resolve().parents[2].parent / "shared" / "corpora"

ABILITY_LIST = "ability_list"
"""A source that is a list of ability texts, not of cards: only compiled (its records are no cards)."""

SOURCES: list[dict[str, Any]] = [
    # One record per ability (its printed line in `label_ja`, icons written 【…】).
    {"game": "lovelive", "file": "lovelive/loveca-effect-registry.json", "kind": ABILITY_LIST,
     "mapping": {"id": "effect_registry", "format": "json", "records": ["effects"], "card_id": ["effect_id"],
                 "fields": {"text": "label_ja"}}},
    {"game": "lovelive", "file": "lovelive/llocg_db-cards.json", "mapping": "llocg_db"},
    {"game": "haikyu", "file": "haikyu/haikyuu-cards_cards_data.js", "mapping": "haikyuu_cards"},
    {"game": "hololive", "file": "hololive/hololive-deckeditor-cards.json", "mapping": "hololive_deckeditor"},
]


def measure(source: dict[str, Any], corpora: Path, out_dir: Path, top: int) -> dict[str, Any]:
    """The figures of one source (or why it was skipped)."""
    head = {"game": source["game"], "list": source["file"]}
    path = corpora / source["file"]
    if not path.is_file():
        return {**head, "skipped": f"{path} is absent"}
    rb = load_rulebook(source["game"])
    if rb.card_text is None:
        return {**head, "skipped": f"{rb.id} has no card-text phrases"}
    mapping = source["mapping"]
    if isinstance(mapping, str):
        try:
            mapping = load_mapping(find_mapping(rb, mapping))
        except LoadError:
            return {**head, "skipped": f"{rb.id} has no import mapping '{mapping}'"}
    t0 = time.perf_counter()
    data = import_cards(read_records(path, mapping), mapping, rb.id)
    out = out_dir / f"{rb.id}-{mapping['id']}.yaml"
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096), encoding="utf-8")
    result = compile_file(rb.card_text, out)
    compile_s = time.perf_counter() - t0
    report = stats([result], top)
    figures: dict[str, Any] = {
        **head, "mapping": mapping["id"], "records": len(data["cards"]), "compile_s": round(compile_s, 2),
        "abilities": report["abilities"], "distinct_texts": report["distinct_texts"],
        "full_share": report["full_share"], "text_matched_share": report["text_matched_share"],
        "families": [{"family": f["family"], "printings": f["count"], "texts": f["texts"]} for f in report["families"]],
    }
    if source.get("kind") != ABILITY_LIST:
        out.write_text(write_compiled(result), encoding="utf-8")
        try:
            pool = load_cards(rb, [out])
            figures["load"] = {"errors": 0, "warnings": len(pool.notices), "cards": len(pool),
                               "warning_kinds": _kinds(str(d.message) for d in pool.notices)}
        except LoadError as e:
            figures["load"] = {"errors": len(e.diagnostics), "error_kinds": _kinds(d.message for d in e.diagnostics)}
    return figures


def _kinds(messages: Any) -> dict[str, int]:
    """Messages counted by kind: quoted values (card ids, field values) and numbers blanked."""
    out: dict[str, int] = {}
    for m in messages:
        key = re.sub(r"[0-9]+", "N", re.sub(r"'[^']*'|「[^」]*」|\[[^\]]*\]", "…", m))[:100]
        if m.startswith(("todo:", "review:")):  # an ability not written yet, or to review
            key = m.split(":")[0]
        out[key] = out.get(key, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", help="games to measure (default: every game with a list)")
    ap.add_argument("--corpora", type=Path, default=CORPORA, help=f"the corpora folder (default {CORPORA})")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    chosen = [s for s in SOURCES if not args.games or s["game"] in args.games]
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps([measure(s, args.corpora, Path(tmp), args.top) for s in chosen],
                         ensure_ascii=False, indent=2))


if __name__ == "__main__":
    main()
