"""Conformance scenarios: a starting state, scripted answers, and expectations.

A scenario starts at any turn-structure node with given zone contents (placement states, cards
under members, marks, counters), roles and turn number; answers every decision from its script
(an unscripted decision fails the scenario, like XMage's strict mode); stops at a node, when the
script is used up, or at the end of the game; then checks zones, states, counts, roles, variables,
log entries (with the rules they cite) and the result. See tests/scenarios/README.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine.decisions import Decision, IllegalAnswer
from interpreter.engine.game import Game, GameError
from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import Diagnostics, LoadError
from interpreter.loader.model import CardDef, Rulebook
from interpreter.loader.rulebook import load_rulebook
from interpreter.loader.schema import schema_names, validate
from interpreter.loader.yaml_safe import load_yaml
from interpreter.state.objects import GameObject

SCENARIO_KEYS = {"id", "title", "rulebook", "rules", "cards", "setup", "answers", "stop", "expect", "notes", "seed"}
_CACHE: dict[str, tuple[Rulebook, dict[str, CardDef]]] = {}


@dataclass
class Outcome:
    id: str
    path: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    game: Game | None = None


def _player(key: Any, where: str) -> int:
    if isinstance(key, str) and key.upper().startswith("P") and key[1:].isdigit():
        return int(key[1:]) - 1
    raise ValueError(f"{where}: expected a player written P1 or P2, got {key!r}")


def _env(rulebook: str, cards_paths: list[str], base: Path) -> tuple[Rulebook, dict[str, CardDef]]:
    key = rulebook + "|" + "|".join(cards_paths)
    if key not in _CACHE:
        rb = load_rulebook(rulebook)
        paths = [Path(p) if Path(p).is_absolute() else _repo() / p for p in cards_paths] or [_repo() / "cards" / rb.id]
        _CACHE[key] = (rb, load_cards(rb, paths))
    return _CACHE[key]


def _repo() -> Path:
    return Path(__file__).resolve().parents[2]


def _match(decision: Decision, selectors: list[str], game: Game) -> list[str]:
    """Turn readable selectors into option ids: an option id, a label, a card id, or ACTION:CARD_ID."""
    out: list[str] = []
    for sel in selectors:
        sel = str(sel)
        found = None
        for o in decision.options:
            if o.id in out:
                continue
            v = o.value
            obj = v if isinstance(v, GameObject) else (v[1] if isinstance(v, tuple) and len(v) > 1 else None)
            if o.id == sel or o.label == sel:
                found = o.id
            elif isinstance(obj, GameObject):
                if obj.card_id == sel:
                    found = o.id
                elif ":" in sel:
                    act, cid = sel.split(":", 1)
                    if o.id.startswith(act + ":") and obj.card_id == cid:
                        found = o.id
            elif isinstance(v, dict) and v.get("id") == sel:
                found = o.id
            elif isinstance(v, str) and v == sel:
                found = o.id
            if found:
                break
        if found is None:
            raise IllegalAnswer(f"no option matches '{sel}' in {decision.describe()}; options: "
                                + ", ".join(f"{o.id} ({o.label})" for o in decision.options))
        out.append(found)
    return out


def _place(game: Game, zones: dict[str, Any]) -> None:
    rb = game.rb
    for pkey, zmap in (zones or {}).items():
        shared = pkey == "shared"
        p = None if shared else _player(pkey, "setup.zones")
        for zone, entries in (zmap or {}).items():
            if zone not in rb.zones:
                raise ValueError(f"setup.zones.{pkey}: unknown zone '{zone}' (known: {', '.join(rb.zones)})")
            for e in entries or []:
                spec = {"card": e} if isinstance(e, str) else dict(e)
                cid = spec.pop("card")
                if cid not in game.cards:
                    raise ValueError(f"setup.zones.{pkey}.{zone}: unknown card '{cid}'")
                owner = _player(spec.pop("owner"), "owner") if "owner" in spec else (p if p is not None else 0)
                under = spec.pop("under", [])
                marks = spec.pop("marks", {})
                counters = spec.pop("counters", {})
                states = {k: v for k, v in spec.items()}
                obj = game._create(cid, owner, zone, states, None if shared else p)
                obj.marks.update(marks)
                obj.counters.update(counters)
                for u in under:
                    uid = u if isinstance(u, str) else u["card"]
                    uo = game._create(uid, owner, zone, {}, None if shared else p)
                    uo.holder = obj.oid
                    uo.states = {}


def build_game(sc: dict[str, Any], rb: Rulebook, cards: dict[str, CardDef]) -> Game:
    setup = sc.get("setup", {}) or {}
    players = int(rb.raw.get("players", {}).get("count", 2))
    game = Game(rb, cards, [{} for _ in range(players)], seed=int(sc.get("seed", 0)))
    if setup.get("from_start"):
        # A scenario that plays the setup procedure itself supplies the decks.
        for pkey, deck in (setup.get("decks") or {}).items():
            p = _player(pkey, "setup.decks")
            for zone, ids in deck.items():
                for cid in ids:
                    game._create(cid, p, zone)
        return game
    game.state.turn = int(setup.get("turn", 1))
    for role, pkey in (setup.get("roles") or {"first": "P1", "second": "P2"}).items():
        if role not in rb.roles:
            raise ValueError(f"setup.roles: unknown role '{role}'")
        game.state.roles[role] = _player(pkey, "setup.roles")
    game.state.vars.update(setup.get("vars") or {})
    _place(game, setup.get("zones") or {})
    start = setup.get("start_at")
    if start is None:
        raise ValueError("setup.start_at: name the node to start from (or set from_start: true)")
    nid = rb.graph.resolve(start, None)
    if nid is None:
        raise ValueError(f"setup.start_at: no node '{start}' in the turn structure")
    game.start_node = nid
    return game


def run_scenario(path: Path) -> Outcome:
    path = Path(path)
    try:
        sc, smap = load_yaml(path)
    except LoadError as e:
        return Outcome(path.stem, str(path), False, [str(d) for d in e.diagnostics])
    diags = Diagnostics()
    if "scenario" in schema_names():
        diags.extend(validate(sc, "scenario", smap, str(path)))
    if not isinstance(sc, dict):
        return Outcome(path.stem, str(path), False, [f"{path}:1:1: a scenario is a mapping"])
    for k in sc:
        if k not in SCENARIO_KEYS:
            line, col = smap.key((k,))
            diags.add(str(path), line, col, f"unknown key '{k}' (allowed: {', '.join(sorted(SCENARIO_KEYS))})")
    if diags:
        return Outcome(str(sc.get("id", path.stem)), str(path), False, [str(d) for d in diags.sorted()])
    sid = str(sc.get("id", path.stem))
    out = Outcome(sid, str(path), True, rules=[str(r) for r in sc.get("rules", [])])
    try:
        if "rulebook" not in sc:
            return Outcome(sid, str(path), False, [f"{path}:1:1: a scenario names its 'rulebook'"])
        rb, cards = _env(str(sc["rulebook"]), list(sc.get("cards", []) or []), path.parent)
        game = build_game(sc, rb, cards)
    except (LoadError, ValueError) as e:
        return Outcome(sid, str(path), False, [f"{path}: {e}"])
    out.game = game
    stop = sc.get("stop", {}) or {}
    if "at" in stop:
        target = rb.graph.resolve(stop["at"], None)
        if target is None:
            return Outcome(sid, str(path), False, [f"{path}: stop.at: no node '{stop['at']}'"])
        # A base id stops at whichever instance comes first; a dotted name stops at that node.
        game.stop_at = stop["at"] if stop["at"] in rb.graph.by_base else target
    answers = list(sc.get("answers", []) or [])
    used = 0
    try:
        while True:
            d = game.advance()
            if d is None:
                break
            if used >= len(answers):
                if stop.get("when") == "answers_used":
                    break
                out.failures.append(f"unscripted decision: {d.describe()}; options: "
                                    + ", ".join(f"{o.id} ({o.label})" for o in d.options))
                break
            a = answers[used]
            used += 1
            if isinstance(a, dict):
                if "player" in a and _player(a["player"], "answers") != d.player:
                    out.failures.append(f"answer {used}: expected a decision for {a['player']}, "
                                        f"got {d.describe()}")
                    break
                sel = a.get("choose", [])
            else:
                sel = a
            sel = sel if isinstance(sel, list) else [sel]
            game.answer(_match(d, [str(s) for s in sel], game))
    except (IllegalAnswer, GameError) as e:
        out.failures.append(f"answer {used}: {e}")
    if used < len(answers) and not out.failures:
        out.failures.append(f"only {used} of {len(answers)} scripted answers were used")
    out.failures.extend(check_expectations(game, sc.get("expect", {}) or {}))
    out.passed = not out.failures
    return out


def _ids(game: Game, zone: str, p: int | None) -> list[str]:
    return [game.state.objects[i].card_id for i in game.state.zones[(zone, p)]]


def check_expectations(game: Game, exp: dict[str, Any]) -> list[str]:
    fails: list[str] = []
    st = game.state
    if "result" in exp:
        want = exp["result"]
        got = st.result
        if want in (None, "none"):
            if got is not None:
                fails.append(f"expected the game to go on, but it ended: {got}")
        elif want == "draw":
            if not got or got.get("outcome") != "draw":
                fails.append(f"expected a draw, got {got}")
        else:
            wp = _player(want.get("winner") if isinstance(want, dict) else want, "expect.result")
            if not got or got.get("winner") != wp:
                fails.append(f"expected P{wp + 1} to win, got {got}")
    for pkey, zmap in (exp.get("zones") or {}).items():
        p = None if pkey == "shared" else _player(pkey, "expect.zones")
        for zone, want in zmap.items():
            got = _ids(game, zone, p)
            if isinstance(want, list):
                same = got == want if game.rb.zones[zone].ordered else sorted(got) == sorted(want)
                if not same:
                    fails.append(f"{pkey} {zone}: expected {want}, got {got}")
    for pkey, zmap in (exp.get("counts") or {}).items():
        p = None if pkey == "shared" else _player(pkey, "expect.counts")
        for zone, n in zmap.items():
            got = len(st.zones[(zone, p)])
            if got != n:
                fails.append(f"{pkey} {zone}: expected {n} cards, got {got}")
    for item in exp.get("states", []) or []:
        p = None if item.get("player", "P1") == "shared" else _player(item.get("player", "P1"), "expect.states")
        objs = [st.objects[i] for i in st.zones[(item["zone"], p)] if st.objects[i].card_id == item["card"]]
        if not objs:
            fails.append(f"state check: no {item['card']} in {item['zone']}")
            continue
        for k, v in item.items():
            if k in ("player", "zone", "card"):
                continue
            if k == "under":
                got_under = sorted(st.objects[i].card_id for i in st.zones[(item["zone"], p)]
                                   if st.objects[i].holder == objs[0].oid)
                if got_under != sorted(v):
                    fails.append(f"{item['card']} in {item['zone']}: expected under {v}, got {got_under}")
            elif k == "field":
                for fname, fv in v.items():
                    got = game.field(objs[0], fname)
                    if got != fv:
                        fails.append(f"{item['card']}: expected {fname} {fv}, got {got}")
            elif objs[0].states.get(k) != v:
                fails.append(f"{item['card']} in {item['zone']}: expected {k} {v}, got {objs[0].states.get(k)}")
    for role, pkey in (exp.get("roles") or {}).items():
        if st.roles.get(role) != _player(pkey, "expect.roles"):
            fails.append(f"expected {pkey} to be {role}")
    for name, v in (exp.get("vars") or {}).items():
        if st.vars.get(name) != v:
            fails.append(f"expected variable {name} = {v!r}, got {st.vars.get(name)!r}")
    if "turn" in exp and st.turn != exp["turn"]:
        fails.append(f"expected turn {exp['turn']}, got {st.turn}")
    if "pending" in exp and len(st.pending) != exp["pending"]:
        fails.append(f"expected {exp['pending']} pending abilities, got {len(st.pending)}")
    for item in exp.get("log", []) or []:
        if not _log_has(game, item):
            fails.append(f"expected a log entry {item}")
    for item in exp.get("no_log", []) or []:
        if _log_has(game, item):
            fails.append(f"expected no log entry {item}")
    return fails


def _log_has(game: Game, item: dict[str, Any]) -> bool:
    text = str(item.get("text", ""))
    rule = item.get("rule")
    kind = item.get("kind")
    for e in game.entries:
        if text and text not in e.text:
            continue
        if rule is not None and str(rule) not in e.rules:
            continue
        if kind is not None and e.kind != kind:
            continue
        return True
    return False


