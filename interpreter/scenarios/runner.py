"""Conformance scenarios: a starting state, scripted answers, and expectations.

A scenario starts at any turn-structure node with given zone contents (placement states, cards
under members, marks, counters), roles and turn number; answers every decision from its script
(an unscripted decision fails the scenario, like XMage's strict mode); stops at a node, when the
script is used up (at a play timing the engine passes by itself too), or at the end of the game;
checks what a decision offers where the script says so; then checks zones, states (marks and
counters too), counts, roles, variables, log entries (with the rules they cite) and the result. See
tests/scenarios/README.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter import locations
from interpreter.cli.setup import cards_dir
from interpreter.engine.game import Game
from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import Diagnostic, LoadError
from interpreter.loader.rulebook import find_rulebook, load_rulebook
from interpreter.loader.schema import validate
from interpreter.loader.yaml_safe import PathKey, load_yaml
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.decisions import Decision, Option
from interpreter.state.errors import GameError, IllegalAnswer
from interpreter.state.objects import GameObject, Pending, winners_of
from interpreter.table.context import GLOBAL_NAMES
from interpreter.table.views import describe_pending
from interpreter.timing.moves import create_card

_CACHE: dict[str, tuple[Rulebook, dict[str, CardDef]]] = {}
_ENTRY_KEYS = {"card", "owner", "under", "marks", "counters", "entered_turn"}
"""Keys of a card entry in setup.zones; any other key is a placement state."""
_STATE_CHECK_KEYS = {"player", "zone", "card", "under", "field", "marks", "counters"}
"""Keys of an expect.states item; any other key is a placement state."""

_OBJECT_OPTION = re.compile(r"c\d+(:a\d+)?$")
"""The tail of an option id that names an object by its number (play_member:c12, use_skill:c1:a0)."""

Problem = tuple[PathKey, str]
"""A problem with a scenario: where in the scenario file (a source-map path) and what."""


@dataclass
class Outcome:
    id: str
    path: str
    passed: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    game: Game | None = None

    @property
    def failures(self) -> list[str]:
        """The problems as `path:line:col: message` lines, for printing."""
        return [str(d) for d in self.diagnostics]


def _player(key: Any, where: str) -> int:
    if isinstance(key, str) and key.upper().startswith("P") and key[1:].isdigit():
        return int(key[1:]) - 1
    raise ValueError(f"{where}: expected a player written P1 or P2, got {key!r}")


def _env(rulebook: str, cards_paths: list[str], fmt: str | None = None) -> tuple[Rulebook, dict[str, CardDef]]:
    key = rulebook + "|" + (fmt or "") + "|" + "|".join(cards_paths)
    if key not in _CACHE:
        rb = load_rulebook(rulebook, fmt=fmt)
        paths = [_card_path(p) for p in cards_paths] or [cards_dir(rb.id)]
        _CACHE[key] = (rb, load_cards(rb, paths))
    return _CACHE[key]


def _card_path(given: str) -> Path:
    """A scenario's `cards:` entry: absolute, or relative to the working directory, else to the source
    checkout Sogo runs from; `cards/<game>` is also looked up on the card search path."""
    p = Path(given)
    if p.is_absolute() or p.exists():
        return p
    checkout = locations.source_checkout()
    if checkout is not None and (checkout / p).exists():
        return checkout / p
    if len(p.parts) == 2 and p.parts[0] == "cards":
        return cards_dir(p.parts[1])
    return p


def _option_matches(o: Option, sel: str) -> bool:
    """Whether a readable selector names this option: its id, its label, its card's id,
    ACTION:CARD_ID, or the id of a named course of action."""
    if o.id == sel or o.label == sel:
        return True
    v = o.value
    obj = v if isinstance(v, GameObject) else (v[1] if isinstance(v, tuple) and len(v) > 1 else None)
    if isinstance(obj, GameObject):
        if obj.card_id == sel:
            return True
        if ":" in sel:
            act, cid = sel.split(":", 1)
            return o.id.startswith(act + ":") and obj.card_id == cid
        return False
    if isinstance(v, dict):
        return v.get("id") == sel
    return isinstance(v, str) and v == sel


def _offered_as(decision: Decision, sel: str) -> list[Option]:
    """The options a check's selector names: as an answer would, or every option of an action
    (`move` names move:c12 and move:c15)."""
    return [o for o in decision.options if _option_matches(o, sel) or o.id.startswith(sel + ":")]


def _options_text(decision: Decision) -> str:
    return ", ".join(f"{o.id} ({o.label})" for o in decision.options)


def _match(decision: Decision, selectors: list[str], game: Game) -> list[str]:
    """Turn readable selectors into option ids: an option id, a label, a card id, or ACTION:CARD_ID."""
    out: list[str] = []
    for sel in selectors:
        sel = str(sel)
        found = next((o.id for o in decision.options if o.id not in out and _option_matches(o, sel)), None)
        if found is None:
            raise IllegalAnswer(f"no option matches '{sel}' in {decision.describe()}; options: "
                                + _options_text(decision))
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
                spec: dict[str, Any] = {"card": e} if isinstance(e, str) else dict(e)
                cid = spec.pop("card")
                if cid not in game.cards:
                    raise ValueError(f"setup.zones.{pkey}.{zone}: unknown card '{cid}'")
                owner = _player(spec.pop("owner"), "owner") if "owner" in spec else (p if p is not None else 0)
                under = spec.pop("under", [])
                marks: dict[str, Any] = spec.pop("marks", {})
                counters: dict[str, int] = spec.pop("counters", {})
                entered = spec.pop("entered_turn", None)
                states = {k: v for k, v in spec.items()}
                obj = create_card(game, cid, owner, zone, states, None if shared else p)
                obj.marks.update(marks)
                obj.counters.update(counters)
                held = []
                for u in under:
                    uid = u if isinstance(u, str) else u["card"]
                    uo = create_card(game, uid, owner, zone, {}, None if shared else p)
                    uo.holder = obj.oid
                    uo.states = {}
                    held.append(uo)
                if entered is not None:
                    for o in (obj, *held):
                        _arrived(game, o, int(entered))


def arrival_marks_of(rb: Rulebook, zone: str) -> list[str]:
    """The arrival marks a card entering `zone` from outside their groups gets (zone_rules
    arrival_marks), which a placed card with `entered_turn` carries too."""
    return [mark for group, mark in rb.arrival_marks if zone in rb.group_sets.get(group, ())]


def _arrived(game: Game, obj: GameObject, turn: int) -> None:
    """A placed card entered its zone in `turn`: the engine's record of it (entered_turn) and the
    rulebook's arrival marks say so alike, as a move there in that turn would have made them."""
    obj.entered_turn = turn
    for mark in arrival_marks_of(game.rb, obj.zone):
        obj.marks[mark] = turn


def default_roles(rb: Rulebook) -> dict[str, str]:
    """The roles a scenario without `setup.roles` starts with: `first` P1 and `second` P2, those of
    the two the rulebook has (a rulebook with other roles gets none)."""
    return {role: pkey for role, pkey in (("first", "P1"), ("second", "P2")) if role in rb.roles}


def seat_count(sc: dict[str, Any], rb: Rulebook) -> int:
    """The scenario's `players` (one of the rulebook's or its format's seat counts), else its default."""
    return int(sc.get("players") or (rb.raw.get("players") or {}).get("count", 2))


def build_game(sc: dict[str, Any], rb: Rulebook, cards: dict[str, CardDef]) -> Game:
    setup = sc.get("setup", {}) or {}
    players = seat_count(sc, rb)
    game = Game(rb, cards, [{} for _ in range(players)], seed=int(sc.get("seed", 0)))
    if setup.get("from_start"):
        # A scenario that plays the setup procedure itself supplies the decks.
        for pkey, deck in (setup.get("decks") or {}).items():
            p = _player(pkey, "setup.decks")
            for zone, ids in deck.items():
                for cid in ids:
                    create_card(game, cid, p, zone)
        return game
    game.state.turn = int(setup.get("turn", 1))
    # Turns each player has taken: as given, else one each once the game is past its first turn.
    taken = setup.get("turns_taken") or {}
    game.state.turns_taken = [int(taken.get(f"P{p + 1}", 1 if game.state.turn > 1 else 0)) for p in range(players)]
    for role, pkey in (setup.get("roles") or default_roles(rb)).items():
        if role not in rb.roles:
            raise ValueError(f"setup.roles: unknown role '{role}'")
        game.state.roles[role] = _player(pkey, "setup.roles")
    game.state.vars.update(setup.get("vars") or {})
    for pkey, pstate in (setup.get("players") or {}).items():
        counters = game.state.player_counters[_player(pkey, "setup.players")]
        counters.update(pstate.get("counters") or {})
        counters.update({STATUS + name: 1 for name in pstate.get("statuses") or []})
    _place(game, setup.get("zones") or {})
    for item in setup.get("pending") or []:
        obj = _find_card(game, item)
        if obj is None:
            raise ValueError(f"setup.pending: no {item['card']} in {item['zone']}")
        master = _player(item["master"], "setup.pending") if "master" in item else obj.controller
        game.state.pending.append(Pending(game.state.new_id(), obj.oid, obj.card_id, int(item["ability"]) - 1,
                                          master, {"type": "scenario"}))
    start = setup.get("start_at")
    if start is None:
        raise ValueError("setup.start_at: name the node to start from (or set from_start: true)")
    nid = rb.graph.resolve(start, None)
    if nid is None:
        raise ValueError(f"setup.start_at: no node '{start}' in the turn structure")
    game.start_node = nid
    return game


STATUS = "status:"
"""How a player's status is kept among their counters (the `status` verb)."""


def _find_card(game: Game, item: dict[str, Any]) -> GameObject | None:
    """The first card with the item's id in the item's zone (of `player`, P1 by default)."""
    zone = item["zone"]
    p = None if game.rb.zones[zone].shared else _player(item.get("player", "P1"), "pending")
    for oid in game.state.zones[(zone, p)]:
        obj = game.state.objects[oid]
        if obj.card_id == item["card"]:
            return obj
    return None


def run_scenario(path: Path) -> Outcome:
    """Run one scenario file. Never raises: bad input, and even an engine bug, is a failure of the
    scenario, located in its file where possible, so one broken scenario cannot stop a whole run."""
    path = Path(path)
    try:
        return _run(path)
    except Exception as e:  # the last resort the contract needs; the message names the bug
        return Outcome(path.stem, str(path), False, [Diagnostic(str(path), 1, 1,
                                                                f"internal error: {type(e).__name__}: {e}")])


def _run(path: Path) -> Outcome:
    src = str(path)
    try:
        sc, smap = load_yaml(path)
    except LoadError as e:
        return Outcome(path.stem, src, False, e.diagnostics)
    if not isinstance(sc, dict):
        return Outcome(path.stem, src, False, [Diagnostic(src, 1, 1, "a scenario is a mapping")])
    sid = sc["id"] if isinstance(sc.get("id"), str) else path.stem

    def located(problems: list[Problem], at_key: bool = False) -> list[Diagnostic]:
        return [Diagnostic(src, *(smap.key(p) if at_key else smap.get(p)), m) for p, m in problems]

    def failed(diags: list[Diagnostic]) -> Outcome:
        return Outcome(sid, src, False, sorted(set(diags)))

    shape = validate(sc, "scenario", smap, src)
    if shape:
        return failed(shape)
    try:
        find_rulebook(sc["rulebook"])
    except LoadError as e:  # reported at the name, not at the made-up path of a rulebook that is not there
        return failed(located([(("rulebook",), d.message) for d in e.diagnostics]))
    try:
        rb, cards = _env(sc["rulebook"], list(sc.get("cards") or []), sc.get("format"))
    except LoadError as e:
        return failed(e.diagnostics)
    counts = (rb.raw.get("players") or {}).get("counts") or [(rb.raw.get("players") or {}).get("count", 2)]
    if "players" in sc and sc["players"] not in counts:
        return failed(located([(("players",), f"this game is played by {' or '.join(map(str, counts))} players, "
                                              f"not {sc['players']}")]))
    keys, values = _check_setup(sc, rb, cards)
    if keys or values:
        return failed(located(keys, at_key=True) + located(values))
    game = build_game(sc, rb, cards)
    out = Outcome(sid, src, True, rules=list(sc["rules"]), game=game)
    keys, values = _check_expect_names(sc.get("expect") or {}, rb, cards, seat_count(sc, rb))
    if keys or values:
        out.diagnostics = sorted(set(located(keys, at_key=True) + located(values)))
        out.passed = False
        return out
    stop = sc.get("stop") or {}
    if "at" in stop:
        # A base id stops at whichever instance comes first; a dotted name stops at that node.
        game.stop_at = stop["at"] if stop["at"] in rb.graph.by_base else rb.graph.resolve(stop["at"], None)
    problems = _play(game, sc.get("answers") or [], stop)
    if not problems:  # once the script broke, the state says nothing about the expectations
        problems = check_expectations(game, sc.get("expect") or {})
    out.diagnostics = located(problems)
    out.passed = not problems
    return out


def _shown(entry: Any) -> str:
    """A script entry as the scenario writes it, for messages."""
    if isinstance(entry, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in entry.items()) + "}"
    if isinstance(entry, list):
        return "[" + ", ".join(_shown(v) for v in entry) + "]"
    return str(entry)


def _shown_value(v: Any) -> str:
    """A value as YAML writes it (a mark that is not there is null)."""
    return "null" if v is None else "true" if v is True else "false" if v is False else repr(v)


def _pkey(p: int) -> str:
    return f"P{p + 1}"


class _Script:
    """The scripted answers and where the play stands in them: which entry comes next, and where a
    problem with an entry is reported (each message names the entry as `answer N`, counted from 1)."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers
        self.used = 0

    @property
    def done(self) -> bool:
        return self.used >= len(self.answers)

    def next(self) -> Any:
        return self.answers[self.used]

    def refused(self, d: Decision, reason: str, *at: str | int) -> Problem:
        """The one way a scripted answer is refused: which entry, at which decision, and why."""
        i = self.used
        return (("answers", i, *at), f"answer {i + 1} ({_shown(self.answers[i])}) refused at {d.describe()}: "
                                     f"{reason}; offered: {_options_text(d)}")

    def failed_after(self, e: Exception) -> Problem:
        """The game stopped with an error after the last entry used (or before the first)."""
        if self.used == 0:
            return ("setup", "start_at"), f"before the first answer: {e}"
        return ("answers", self.used - 1), f"after answer {self.used} ({_shown(self.answers[self.used - 1])}): {e}"


def _play(game: Game, answers: list[Any], stop: dict[str, Any]) -> list[Problem]:
    """Answer each decision from the script; a problem stops the play.

    The runner also sees the play timings where passing is all a player may do, which the engine
    passes by itself (Game.show_automatic): a plain answer is never used there, an `auto_pass`
    entry is, and `stop: {when: answers_used}` stops at the first of them once the script is used
    up, as it does at an asked decision, instead of playing on past the point the script reached."""
    game.show_automatic = True
    script = _Script(answers)
    try:
        d = game.advance()
    except GameError as e:
        return [script.failed_after(e)]
    while d is not None:
        if d.player is None:  # asked of a role nobody holds: the scenario did not give it
            return [(("setup", "roles"), f"the game asks no one ('{d.prompt}' for a role no player holds): "
                                         f"give the roles the turn needs in setup.roles (this rulebook's: "
                                         f"{', '.join(game.rb.roles)})")]
        if script.done:
            if stop.get("when") == "answers_used":
                break
            if not d.automatic:
                return [(("answers",), f"unscripted decision: {d.describe()}; options: {_options_text(d)}")]
            ids: list[str] | None = [d.options[0].id]
        elif d.automatic:
            a = script.next()
            if isinstance(a, dict) and "auto_pass" in a and _player(a["auto_pass"], "answers") == d.player:
                problems = _check_offers(script, d, a)
                if problems:
                    return problems
                script.used += 1
            ids = [d.options[0].id]
        else:
            try:
                ids = _scripted(script, d, game)
            except _Refused as r:
                return r.problems
        try:
            if ids is not None:
                game.answer(ids)
            d = game.advance()
        except (IllegalAnswer, GameError) as e:
            return [script.failed_after(e)]
    if not script.done:
        return [(("answers", script.used), f"only {script.used} of {len(answers)} scripted answers were used")]
    return []


class _Refused(Exception):
    """A scripted entry that cannot be used at the decision it met: refused, or its checks failed."""

    def __init__(self, *problems: Problem) -> None:
        super().__init__(problems[0][1])
        self.problems = list(problems)


def _scripted(script: _Script, d: Decision, game: Game) -> list[str] | None:
    """The option ids the next entry answers an asked decision with (the entry is used); None for a
    concession, made here. A refused entry raises _Refused; so do its failed checks."""
    a = script.next()
    if isinstance(a, dict) and "auto_pass" in a:
        who = a["auto_pass"]
        why = (f"expected {who} to pass by itself here (passing the only legal answer), but "
               f"{_pkey(d.player)} is asked")
        offered = [s for s in a.get("not_offered") or [] if _offered_as(d, str(s))]
        if offered:
            why += f", and {', '.join(map(str, offered))} is offered"
        raise _Refused(script.refused(d, why, "auto_pass"))
    if isinstance(a, dict) and "concede" in a:
        script.used += 1
        game.concede(_player(a["concede"], "answers"))
        return None
    if isinstance(a, dict):
        problems = _check_offers(script, d, a)
        if "player" in a and _player(a["player"], "answers") != d.player:
            problems.insert(0, script.refused(d, f"it is {_pkey(d.player)}'s decision, not {a['player']}'s", "player"))
        if problems:
            raise _Refused(*problems)
        sel = a["choose"]
        at: tuple[str, ...] = ("choose",)
    else:
        sel, at = a, ()
    picks = [str(x) for x in (sel if isinstance(sel, list) else [sel])]
    ids: list[str] = []
    for x in picks:
        found = next((o.id for o in d.options if o.id not in ids and _option_matches(o, x)), None)
        if found is None:
            raise _Refused(script.refused(d, f"no option matches '{x}'", *at))
        ids.append(found)
    if not d.min <= len(ids) <= d.max:
        span = f"{d.min}" if d.min == d.max else f"{d.min} to {d.max}"
        raise _Refused(script.refused(d, f"it takes {span} pick(s), the answer gives {len(ids)}", *at))
    script.used += 1
    return ids


def _check_offers(script: _Script, d: Decision, a: dict[str, Any]) -> list[Problem]:
    """An entry's checks of what the decision offers: `offered` (each names some option) and
    `not_offered` (none names any)."""
    i = script.used
    problems: list[Problem] = []
    for j, sel in enumerate(a.get("offered") or []):
        if not _offered_as(d, str(sel)):
            problems.append((("answers", i, "offered", j),
                             f"answer {i + 1}: expected '{sel}' to be offered at {d.describe()}, but it is not; "
                             f"offered: {_options_text(d)}"))
    for j, sel in enumerate(a.get("not_offered") or []):
        hits = _offered_as(d, str(sel))
        if hits:
            problems.append((("answers", i, "not_offered", j),
                             f"answer {i + 1}: expected '{sel}' not to be offered at {d.describe()}, but it is: "
                             + ", ".join(f"{o.id} ({o.label})" for o in hits)))
    return problems


def _players_text(n: int) -> str:
    names = [f"P{i + 1}" for i in range(n)]
    return names[0] if n == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class _Names:
    """Checks of the names a scenario uses against its rulebook and cards, collected with where they
    are: `keys` are reported at the key, `values` at the value."""

    def __init__(self, rb: Rulebook, cards: dict[str, CardDef], players: int | None = None) -> None:
        self.rb = rb
        self.cards = cards
        self.players = int((rb.raw.get("players") or {}).get("count", 2)) if players is None else players
        self.keys: list[Problem] = []
        self.values: list[Problem] = []

    def player(self, key: str, path: PathKey, what: str, *, at_key: bool) -> bool:
        """A player the game has (P1..Pn); the schema already checked the spelling."""
        if 1 <= int(key[1:]) <= self.players:
            return True
        (self.keys if at_key else self.values).append(
            (path, f"{what}: no player {key} (this game has {_players_text(self.players)})"))
        return False

    def holder(self, key: str, path: PathKey, what: str) -> bool:
        return key == "shared" or self.player(key, path, what, at_key=True)

    def zone(self, holder: str, zone: str, path: PathKey, what: str) -> bool:
        """A zone of the rulebook, written under `shared` exactly when it is a shared zone."""
        zd = self.rb.zones.get(zone)
        if zd is None:
            self.keys.append((path, f"{what}: unknown zone '{zone}' (known: {', '.join(self.rb.zones)})"))
            return False
        if zd.shared != (holder == "shared"):
            where = "under 'shared'" if zd.shared else f"under a player ({_players_text(self.players)})"
            self.keys.append((path, f"{what}: zone '{zone}' is {'shared' if zd.shared else 'a player zone'}; "
                                    f"list it {where}"))
            return False
        return True

    def card(self, cid: str, path: PathKey, what: str) -> None:
        if cid not in self.cards:
            self.values.append((path, f"{what}: unknown card '{cid}'"))

    def states(self, item: dict[str, Any], skip: set[str], path: PathKey, what: str) -> None:
        """Placement states written as keys of a card entry (orientation: wait)."""
        for k, v in item.items():
            if k in skip:
                continue
            st = self.rb.states.get(k)
            if st is None:
                self.keys.append(((*path, k), f"{what}: unknown placement state '{k}' "
                                              f"(known: {', '.join(self.rb.states) or 'none'})"))
            elif v not in (st.get("values") or [v]):
                self.values.append(((*path, k), f"{what}: placement state '{k}' has no value '{v}' "
                                                f"(known: {', '.join(st.get('values') or [])})"))

    def pending(self, item: dict[str, Any], path: PathKey, what: str, zones: dict[str, Any] | None) -> None:
        """A pending ability names a card (placed in that zone by the setup, when `zones` is given)
        and one of its auto abilities, numbered from 1."""
        holder = item.get("player", "P1")
        zd = self.rb.zones.get(item["zone"])
        if zd is not None and zd.shared and "player" not in item:
            holder = "shared"
        if not self.holder(holder, (*path, "player"), what) or not self.zone(holder, item["zone"], (*path, "zone"),
                                                                              what):
            return
        if "master" in item:
            self.player(item["master"], (*path, "master"), f"{what} master", at_key=False)
        cid = item["card"]
        card = self.cards.get(cid)
        if card is None:
            self.values.append(((*path, "card"), f"{what}: unknown card '{cid}'"))
            return
        if zones is not None:
            placed = [e if isinstance(e, str) else e.get("card") for e in (zones.get(holder) or {}).get(item["zone"])
                      or []]
            if cid not in placed:
                self.values.append(((*path, "card"), f"{what}: no {cid} is placed in {holder} {item['zone']} "
                                                     f"(setup.zones)"))
        autos = [i + 1 for i, ab in enumerate(card.abilities) if ab.kind == "auto"]
        if item["ability"] not in autos:
            known = ", ".join(map(str, autos)) or "none"
            self.values.append(((*path, "ability"), f"{what}: {cid} has no triggered ability {item['ability']} "
                                                    f"(its triggered abilities: {known})"))

    def arrival(self, entry: dict[str, Any], zone: str, turn: int, path: PathKey, what: str) -> None:
        """`entered_turn` is a turn the game has had (not after the scenario's), and sets the arrival
        marks itself: giving one of them in `marks` too would say two things."""
        if "entered_turn" in entry and entry["entered_turn"] > turn:
            self.values.append(((*path, "entered_turn"), f"{what}: entered_turn {entry['entered_turn']} is after "
                                                        f"the scenario's turn ({turn})"))
        for mark in arrival_marks_of(self.rb, zone):
            if mark in (entry.get("marks") or {}):
                self.keys.append(((*path, "marks", mark), f"{what}: '{mark}' is this zone's arrival mark: give "
                                                          f"the card's entered_turn instead, which sets it and "
                                                          f"the engine's record of the turn alike"))

    def selector(self, sel: str, path: PathKey, what: str) -> None:
        """A check's name for an option: what names a card or an action must name one that exists,
        or a misspelt name would make a `not_offered` check that always holds."""
        head, _, tail = sel.partition(":")
        if tail and head in self.rb.actions:
            if not _OBJECT_OPTION.match(tail):  # else an object's option, by its number (c2, c1:a0)
                self.card(tail, path, what)
        elif tail and head == "z":
            if tail not in self.rb.zones:
                self.values.append((path, f"{what}: unknown zone '{tail}'"))
        elif tail and head != "s":
            self.values.append((path, f"{what}: '{sel}': no action '{head}' in this rulebook (known: "
                                      f"{', '.join(self.rb.actions)}); write ACTION:CARD_ID"))

    def role(self, role: str, path: PathKey, what: str) -> None:
        if role not in self.rb.roles:
            self.keys.append((path, f"{what}: unknown role '{role}' (known: {', '.join(self.rb.roles)})"))

    def node(self, name: str, path: PathKey, what: str) -> None:
        if self.rb.graph.resolve(name, None) is None:
            self.values.append((path, f"{what}: no node '{name}' in the turn structure"))


def _check_setup(sc: dict[str, Any], rb: Rulebook, cards: dict[str, CardDef]) -> tuple[list[Problem], list[Problem]]:
    """Everything the game is built from must exist: players, zones, cards, roles, states, nodes."""
    n = _Names(rb, cards, seat_count(sc, rb))
    setup = sc.get("setup") or {}
    for pkey, zmap in (setup.get("zones") or {}).items():
        zpath: PathKey = ("setup", "zones", pkey)
        if not n.holder(pkey, zpath, "setup.zones"):
            continue
        for zone, entries in (zmap or {}).items():
            if not n.zone(pkey, zone, (*zpath, zone), f"setup.zones.{pkey}"):
                continue
            what = f"setup.zones.{pkey}.{zone}"
            for i, e in enumerate(entries):
                epath: PathKey = (*zpath, zone, i)
                if isinstance(e, str):
                    n.card(e, epath, what)
                    continue
                n.card(e["card"], (*epath, "card"), what)
                if "owner" in e:
                    n.player(e["owner"], (*epath, "owner"), f"{what} owner", at_key=False)
                for j, u in enumerate(e.get("under") or []):
                    n.card(u if isinstance(u, str) else u["card"], (*epath, "under", j), f"{what} under")
                n.states(e, _ENTRY_KEYS, epath, what)
                n.arrival(e, zone, int(setup.get("turn", 1)), epath, what)
    for pkey, deck in (setup.get("decks") or {}).items():
        dpath: PathKey = ("setup", "decks", pkey)
        if not n.player(pkey, dpath, "setup.decks", at_key=True):
            continue
        for zone, ids in deck.items():
            if n.zone(pkey, zone, (*dpath, zone), f"setup.decks.{pkey}"):
                for i, cid in enumerate(ids):
                    n.card(cid, (*dpath, zone, i), f"setup.decks.{pkey}.{zone}")
    for name in setup.get("vars") or {}:
        if name in GLOBAL_NAMES:  # expressions read these from the game, never from a variable
            n.keys.append((("setup", "vars", name), f"setup.vars: '{name}' is a name the engine gives "
                                                   f"({', '.join(sorted(GLOBAL_NAMES))}); set it another way"))
    for role, pkey in (setup.get("roles") or {}).items():
        n.role(role, ("setup", "roles", role), "setup.roles")
        n.player(pkey, ("setup", "roles", role), f"setup.roles.{role}", at_key=False)
    for section in ("players", "turns_taken"):
        for pkey in setup.get(section) or {}:
            n.player(pkey, ("setup", section, pkey), f"setup.{section}", at_key=True)
    for i, item in enumerate(setup.get("pending") or []):
        n.pending(item, ("setup", "pending", i), "setup.pending", setup.get("zones") or {})
    if not setup.get("from_start"):
        if "start_at" not in setup:
            n.values.append((("setup",), "setup.start_at: name the node to start from (or set from_start: true)"))
        else:
            n.node(setup["start_at"], ("setup", "start_at"), "setup.start_at")
    stop = sc.get("stop") or {}
    if "at" in stop:
        n.node(stop["at"], ("stop", "at"), "stop.at")
    for i, a in enumerate(sc.get("answers") or []):
        if isinstance(a, dict):
            for key in ("concede", "player", "auto_pass"):
                if key in a:
                    n.player(a[key], ("answers", i, key), f"answer {i + 1}", at_key=False)
            for key in ("offered", "not_offered"):
                for j, sel in enumerate(a.get(key) or []):
                    n.selector(sel, ("answers", i, key, j), f"answer {i + 1} {key}")
    return n.keys, n.values


def _check_expect_names(exp: dict[str, Any], rb: Rulebook, cards: dict[str, CardDef],
                        players: int | None = None) -> tuple[list[Problem], list[Problem]]:
    """What the expectations name must exist too, or a check would compare against nothing."""
    n = _Names(rb, cards, players)
    for i, pkey in enumerate(exp.get("left") or []):
        n.player(pkey, ("expect", "left", i), "expect.left", at_key=False)
    for section in ("zones", "counts"):
        for pkey, zmap in (exp.get(section) or {}).items():
            zpath: PathKey = ("expect", section, pkey)
            if not n.holder(pkey, zpath, f"expect.{section}"):
                continue
            for zone, want in zmap.items():
                if n.zone(pkey, zone, (*zpath, zone), f"expect.{section}.{pkey}") and section == "zones":
                    for i, cid in enumerate(want):
                        n.card(cid, (*zpath, zone, i), f"expect.zones.{pkey}.{zone}")
    for i, item in enumerate(exp.get("states") or []):
        spath: PathKey = ("expect", "states", i)
        holder = item.get("player", "P1")
        if not n.holder(holder, (*spath, "player"), "expect.states"):
            continue
        zd = rb.zones.get(item["zone"])
        if zd is not None and zd.shared and "player" not in item:
            holder = "shared"  # a shared zone needs no player
        if n.zone(holder, item["zone"], (*spath, "zone"), "expect.states"):
            n.card(item["card"], (*spath, "card"), "expect.states")
            n.states(item, _STATE_CHECK_KEYS, spath, "expect.states")
    for role, pkey in (exp.get("roles") or {}).items():
        n.role(role, ("expect", "roles", role), "expect.roles")
        n.player(pkey, ("expect", "roles", role), f"expect.roles.{role}", at_key=False)
    for pkey in exp.get("players") or {}:
        n.player(pkey, ("expect", "players", pkey), "expect.players", at_key=True)
    if isinstance(exp.get("pending"), list):
        for i, item in enumerate(exp["pending"]):
            n.pending(item, ("expect", "pending", i), "expect.pending", None)
    result = exp.get("result")
    winner = result.get("winner") if isinstance(result, dict) else result
    if isinstance(winner, str) and winner.startswith("P"):
        n.player(winner, ("expect", "result"), "expect.result", at_key=False)
    if isinstance(result, dict) and isinstance(result.get("winners"), list):
        for i, w in enumerate(result["winners"]):
            n.player(w, ("expect", "result", "winners", i), "expect.result", at_key=False)
    return n.keys, n.values


def _ids(game: Game, zone: str, p: int | None) -> list[str]:
    return [game.state.objects[i].card_id for i in game.state.zones[(zone, p)]]


def _holder(game: Game, zone: str, pkey: str) -> int | None:
    return None if game.rb.zones[zone].shared else _player(pkey, "expect")


def check_expectations(game: Game, exp: dict[str, Any]) -> list[Problem]:
    """Compare the final state with `expect`; each failure is located at its expectation. The names
    in `exp` were checked before the game ran (_check_expect_names)."""
    return list(_expectation_failures(game, exp))


def _expectation_failures(game: Game, exp: dict[str, Any]) -> Iterator[Problem]:
    st = game.state
    if "result" in exp:
        want = exp["result"]
        got = st.result
        if want in (None, "none"):
            if got is not None:
                yield ("expect", "result"), f"expected the game to go on, but it ended: {got}"
        elif want == "draw":
            if not got or got.get("outcome") != "draw":
                yield ("expect", "result"), f"expected a draw, got {got}"
        elif isinstance(want, dict) and isinstance(want.get("winners"), list):
            wps = sorted(_player(w, "expect.result") for w in want["winners"])
            if winners_of(got) != wps:
                yield ("expect", "result"), f"expected {' and '.join(f'P{w + 1}' for w in wps)} to win, got {got}"
        else:
            wp = _player(want.get("winner") if isinstance(want, dict) else want, "expect.result")
            if not got or got.get("winner") != wp:
                yield ("expect", "result"), f"expected P{wp + 1} to win, got {got}"
    if "left" in exp:
        want_left = [_player(pk, "expect.left") for pk in exp["left"]]
        if st.left != want_left:
            yield ("expect", "left"), (f"expected {[f'P{p + 1}' for p in want_left]} to have left (in that order), "
                                       f"got {[f'P{p + 1}' for p in st.left]}")
    for pkey, zmap in (exp.get("zones") or {}).items():
        for zone, want in zmap.items():
            have = _ids(game, zone, _holder(game, zone, pkey))
            same = have == want if game.rb.zones[zone].ordered else sorted(have) == sorted(want)
            if not same:
                yield ("expect", "zones", pkey, zone), f"{pkey} {zone}: expected {want}, got {have}"
    for pkey, zmap in (exp.get("counts") or {}).items():
        for zone, count in zmap.items():
            n = len(st.zones[(zone, _holder(game, zone, pkey))])
            if n != count:
                yield ("expect", "counts", pkey, zone), f"{pkey} {zone}: expected {count} cards, got {n}"
    for i, item in enumerate(exp.get("states") or []):
        where: PathKey = ("expect", "states", i)
        zone = item["zone"]
        p = _holder(game, zone, item.get("player", "P1"))
        objs = [st.objects[o] for o in st.zones[(zone, p)] if st.objects[o].card_id == item["card"]]
        if not objs:
            yield where, f"state check: no {item['card']} in {zone}"
            continue
        objs.sort(key=lambda o: o.holder is not None)  # a card on top before one held under another
        for k, v in item.items():
            if k in ("player", "zone", "card"):
                continue
            if k == "under":
                got_under = sorted(st.objects[o].card_id for o in st.zones[(zone, p)]
                                   if st.objects[o].holder == objs[0].oid)
                if got_under != sorted(v):
                    yield (*where, k), f"{item['card']} in {zone}: expected under {v}, got {got_under}"
            elif k == "field":
                for fname, fv in v.items():
                    got = game.field(objs[0], fname)
                    if got != fv:
                        yield (*where, k, fname), f"{item['card']}: expected {fname} {fv}, got {got}"
            elif k == "marks":  # as the rulebook reads them: a mark not there reads null
                for mname, mv in v.items():
                    got = objs[0].marks.get(mname)
                    if got != mv or type(got) is not type(mv):
                        yield ((*where, k, mname), f"{item['card']} in {zone}: expected mark {mname} "
                                                   f"{_shown_value(mv)}, got {_shown_value(got)}")
            elif k == "counters":
                for cname, cv in v.items():
                    on_card = objs[0].counters.get(cname, 0)
                    if on_card != cv:
                        yield ((*where, k, cname),
                               f"{item['card']} in {zone}: expected counter {cname} {cv}, got {on_card}")
            elif objs[0].states.get(k) != v:
                yield (*where, k), f"{item['card']} in {zone}: expected {k} {v}, got {objs[0].states.get(k)}"
    for role, pkey in (exp.get("roles") or {}).items():
        if st.roles.get(role) != _player(pkey, "expect.roles"):
            yield ("expect", "roles", role), f"expected {pkey} to be {role}"
    for name, v in (exp.get("vars") or {}).items():
        if st.vars.get(name) != v:
            yield ("expect", "vars", name), f"expected variable {name} = {v!r}, got {st.vars.get(name)!r}"
    if "turn" in exp and st.turn != exp["turn"]:
        yield ("expect", "turn"), f"expected turn {exp['turn']}, got {st.turn}"
    want_pending = exp.get("pending")
    if isinstance(want_pending, int) and len(st.pending) != want_pending:
        yield ("expect", "pending"), f"expected {want_pending} pending abilities, got {len(st.pending)}"
    elif isinstance(want_pending, list):
        have = [describe_pending(game, x) + f" (P{x.master + 1})" for x in st.pending]
        want = []
        for item in want_pending:
            obj = _find_card(game, item)
            master = _player(item["master"], "expect.pending") if "master" in item else (
                obj.controller if obj is not None else None)
            want.append((obj.oid if obj is not None else None, item["ability"] - 1, master))
        now = [(x.source, x.ability, x.master) for x in st.pending]
        if now != want:
            yield ("expect", "pending"), f"expected pending {want_pending}, got {have or 'none'}"
    for pkey, pstate in (exp.get("players") or {}).items():
        counters = st.player_counters[_player(pkey, "expect.players")]
        for name, v in (pstate.get("counters") or {}).items():
            if counters.get(name, 0) != v:
                yield (("expect", "players", pkey, "counters", name),
                       f"{pkey}: expected counter {name} = {v}, got {counters.get(name, 0)}")
        if "statuses" in pstate:
            have_st = sorted(k[len(STATUS):] for k, v in counters.items() if k.startswith(STATUS) and v)
            want_st = sorted(pstate["statuses"])
            if have_st != want_st:
                yield ("expect", "players", pkey, "statuses"), f"{pkey}: expected statuses {want_st}, got {have_st}"
    for i, item in enumerate(exp.get("log") or []):
        if not _log_has(game, item):
            yield ("expect", "log", i), f"expected a log entry {item}"
    for i, item in enumerate(exp.get("no_log") or []):
        if _log_has(game, item):
            yield ("expect", "no_log", i), f"expected no log entry {item}"
    after = 0
    for i, item in enumerate(exp.get("log_order") or []):
        found = _log_index(game, item, after)
        if found is None:
            yield ("expect", "log_order", i), (f"expected a log entry {item}" +
                                               (" after the one before it" if i else ""))
            break
        after = found + 1


def _log_has(game: Game, item: dict[str, Any]) -> bool:
    return _log_index(game, item, 0) is not None


def _log_index(game: Game, item: dict[str, Any], start: int) -> int | None:
    """The index of the first log entry from `start` on that matches `item`, if any."""
    text = str(item.get("text", ""))
    rule = item.get("rule")
    kind = item.get("kind")
    for i in range(start, len(game.entries)):
        e = game.entries[i]
        if text and text not in e.text:
            continue
        if rule is not None and str(rule) not in e.rules:
            continue
        if kind is not None and e.kind != kind:
            continue
        return i
    return None


