"""The replay viewer: one self-contained HTML page that steps through a recorded game.

`build_page` replays the game answer by answer (the engine is deterministic) and keeps, before each
decision and at the end, a snapshot of the board: every zone's cards with their states and what each
player could see of them, the players' counters, the game's variables and roles, the decision asked
and the answer taken, and how far the log had got. The page (interpreter/viewer/page.py) shows one
snapshot at a time with its log; with a rules file, every rule a log entry cites is shown on a click.
Nothing is fetched: data, styles and script are all inside the page.
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
from interpreter.table.views import can_see
from interpreter.viewer.page import PAGE


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
            "result": st.result}


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
        snap["decision"] = {"player": d.player, "prompt": d.prompt, "min": d.min, "max": d.max,
                            "rules": list(d.rules), "options": [o.label for o in d.options],
                            "answer": [labels.get(a, a) for a in step["answer"]]}
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
    used = {c[1] for s in snaps for zone in s["zones"].values() for c in zone}
    card_table = {cid: {"name": card_name(cards[cid]), "type": cards[cid].type,
                        "summary": card_summary(rb, cards[cid])} for cid in sorted(used) if cid in cards}
    cited = sorted({r for e in game.entries for r in e.rules} | {r for s in snaps for r in
                                                                 (s.get("decision") or {}).get("rules", [])})
    rules = {r: rules_text[r] for r in cited if rules_text and r in rules_text}
    data = {"title": title or f"{rb.title}: replay", "game": rb.id, "rules_version": rb.rules_version,
            "players": game.state.num_players, "seed": rep.header.get("seed"), "cards": card_table,
            "log": log, "snapshots": snaps, "rules": rules, "end": rep.end}
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)
    payload = payload.replace("</", "<\\/")  # nothing in the data can close the script element
    return PAGE.replace("__TITLE__", _escape(str(data["title"]))).replace("__DATA__", payload)


def rules_from_file(path: str | Path) -> dict[str, str]:
    """Rule number -> its text, from a rules document (`sogo rules parse` reads the same)."""
    from interpreter.rulestext.parse import parse_rules
    from interpreter.rulestext.source import load_text

    doc = parse_rules(load_text(str(path)), source=str(path))
    return {n: (f"{r.heading}\n" if r.heading else "") + r.text for n, r in doc.rules.items()}


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
