"""The replay viewer: one self-contained HTML page that steps through a recorded game on its play mat.

`build_page` replays the game answer by answer (the engine is deterministic) and keeps, before each
decision and at the end, a snapshot: the table on the game's play mat as the whole record and as
each player could see it (`interpreter.viewer.mat.mat`), every zone's cards with their states and
what each player could see of them, the players' counters, the game's variables and roles, the
decision asked and the answer taken (and the cards it named), and how far the log had got. The page
(interpreter/viewer/page.py, drawing with assets/mat.js and mat.css) shows one snapshot at a time
with its log; with a rules file, every rule a log entry cites is shown on a click. Nothing is
fetched: data, styles and script are all inside the page. A mat's zones rarely change from one
decision to the next, so the page keeps each distinct zone once (`cells`) and the snapshots name them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpreter.agents.cardinfo import card_name, card_summary
from interpreter.engine.game import Game
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.replay import Replay
from interpreter.state.decisions import check_answer
from interpreter.state.objects import GameObject
from interpreter.table.views import can_see
from interpreter.viewer.mat import mat
from interpreter.viewer.page import PAGE

ASSETS = Path(__file__).resolve().parent / "assets"


def _board(game: Game) -> dict[str, Any]:
    """The state as the page draws it: zones of cards [oid, card id, states, holder, hidden-from mask]."""
    st = game.state
    zones: dict[str, list[list[Any]]] = {}
    for (zone, p), ids in st.zones.items():
        key = zone if p is None else f"{zone}@P{p + 1}"
        row = []
        for oid in ids:
            o = st.objects[oid]
            states = " ".join(str(v) for k, v in o.states.items()
                              if v and v != (game.rb.states.get(k) or {}).get("default"))
            mask = sum(1 << q for q in range(st.num_players) if not can_see(game, o, q))
            row.append([oid, o.card_id, states, o.holder, mask])
        zones[key] = row
    counters = [{k: v for k, v in c.items()} for c in st.player_counters]
    return {"turn": st.turn, "node": game.cur_node.id if game.cur_node else "setup", "zones": zones,
            "counters": counters, "vars": json.loads(json.dumps(st.vars, default=str)),
            "roles": {r: f"P{p + 1}" for r, p in st.roles.items()}, "log": len(game.entries),
            "result": st.result, "mats": [mat(game, None)] + [mat(game, p) for p in range(st.num_players)]}


def _oids(value: Any) -> list[int]:
    """The cards an option's value names (a card, or cards among the values of an action)."""
    if isinstance(value, GameObject):
        return [value.oid]
    if isinstance(value, (list, tuple)):
        return [oid for v in value for oid in _oids(v)]
    return []


def _shared_cells(snaps: list[dict[str, Any]]) -> tuple[list[Any], dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The snapshots' mats with each zone cell replaced by its number in one list of distinct cells;
    the card names, palette and theme the mats repeat are kept once."""
    cells: list[Any] = []
    index: dict[str, int] = {}
    card_table: dict[str, Any] = {}
    palette: dict[str, Any] = {}
    theme: dict[str, Any] = {}

    def ref(cell: dict[str, Any]) -> int:
        key = json.dumps(cell, sort_keys=True, separators=(",", ":"), default=str)
        if key not in index:
            index[key] = len(cells)
            cells.append(cell)
        return index[key]

    for snap in snaps:
        packed = []
        for m in snap.get("mats", []):
            card_table.update(m.pop("cards"))
            palette, theme = m.pop("palette"), m.pop("theme")
            for p in m["players"]:
                p["rows"] = [{"id": r["id"], "cells": [ref(c) for c in r["cells"]]} for r in p["rows"]]
            m["shared"] = [ref(c) for c in m["shared"]]
            m["elsewhere"] = [ref(c) for c in m["elsewhere"]]
            packed.append(m)
        snap["mats"] = packed
    return cells, card_table, palette, theme


def snapshots(rep: Replay, rb: Rulebook, cards: dict[str, CardDef]) -> tuple[list[dict[str, Any]], Game]:
    """One snapshot before each recorded decision (with the decision and its answer), and one at the
    end. A recording that stops early (a failure trace) ends where it stops."""
    h = rep.header
    game = Game(rb, cards, h["decks"], seed=int(h["seed"]))
    out: list[dict[str, Any]] = []
    for step in rep.steps:
        d = game.advance()
        if d is None:
            break
        snap = _board(game)
        labels = {o.id: o.label for o in d.options}
        values = {o.id: o.value for o in d.options}
        snap["decision"] = {"player": d.player, "prompt": d.prompt, "min": d.min, "max": d.max,
                            "rules": list(d.rules), "options": [o.label for o in d.options],
                            "answer": [labels.get(a, a) for a in step["answer"]],
                            "cards": sorted({oid for a in step["answer"] for oid in _oids(values.get(a))})}
        out.append(snap)
        try:
            check_answer(d, step["answer"])
        except Exception as e:  # noqa: BLE001 - a diverged recording: show where it stops, and why
            snap["decision"]["error"] = f"the recorded answer is not legal here: {e}"
            return out, game
        try:
            game.answer(step["answer"])
        except Exception as e:  # noqa: BLE001 - the failure a trace records
            snap["decision"]["error"] = f"{type(e).__name__}: {e}"
            return out, game
    if game.advance() is None or game.state.result is not None:
        out.append(_board(game))
    return out, game


def build_page(rep: Replay, rb: Rulebook, cards: dict[str, CardDef], rules_text: dict[str, str] | None = None,
               title: str = "") -> str:
    """The viewer page for a replay, with the text of every cited rule when `rules_text` is given."""
    snaps, game = snapshots(rep, rb, cards)
    log = [[e.turn, e.node, e.kind, e.text, list(e.rules), e.chance, sum(1 << q for q in e.hidden_from),
            e.redacted] for e in game.entries]
    cells, mat_cards, palette, theme = _shared_cells(snaps)
    for s in snaps:
        del s["zones"]  # the page draws the mats
    card_table = {cid: {"name": card_name(cards[cid]), "type": cards[cid].type,
                        "summary": card_summary(rb, cards[cid])} for cid in sorted(mat_cards) if cid in cards}
    cited = sorted({r for e in game.entries for r in e.rules} | {r for s in snaps for r in
                                                                 (s.get("decision") or {}).get("rules", [])})
    rules = {r: rules_text[r] for r in cited if rules_text and r in rules_text}
    data = {"title": title or f"{rb.title}: replay", "game": rb.id, "rules_version": rb.rules_version,
            "players": game.state.num_players, "seed": rep.header.get("seed"), "cards": card_table,
            "log": log, "snapshots": snaps, "cells": cells, "palette": palette, "theme": theme,
            "rules": rules, "end": rep.end}
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    payload = payload.replace("</", "<\\/")  # nothing in the data can close the script element
    page = PAGE.replace("__MATCSS__", mat_css()).replace("__MATJS__", mat_js())
    return page.replace("__TITLE__", _escape(str(data["title"]))).replace("__DATA__", payload)


def mat_js() -> str:
    """The play mat's script (assets/mat.js: `renderMat(element, mat, options)`), to inline in a page."""
    return (ASSETS / "mat.js").read_text(encoding="utf-8")


def mat_css() -> str:
    """The play mat's styles (assets/mat.css), to inline in a page."""
    return (ASSETS / "mat.css").read_text(encoding="utf-8")


def rules_from_file(path: str | Path) -> dict[str, str]:
    """Rule number -> its text, from a rules document (`sogo rules parse` reads the same)."""
    from interpreter.rulestext.parse import parse_rules
    from interpreter.rulestext.source import load_text

    doc = parse_rules(load_text(str(path)), source=str(path))
    return {n: (f"{r.heading}\n" if r.heading else "") + r.text for n, r in doc.rules.items()}


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
