"""Replays: one game as its header, the answer to every decision, and a final state hash.

A replay file is JSON lines (one JSON object per line, UTF-8), so a long game stays readable with
`head`/`grep` and a recording cut short by a crash is still usable up to its last line:

    {"replay": "sogo", "format": 1, "sogo": "0.1.0", "rulebook": "<game>", ...}     header
    {"decision": 0, "player": 0, "node": "setup", "answer": ["yes"]}                  one per decision
    ...
    {"end": "result", "decisions": 139, "fingerprint": "...", "result": {...}, "error": null}

The header holds the Sogo version, the rulebook id and its directory name, the rules version (and
`rulebook_format`, the rulebook's format, when the game was played under one), a sha256 content
hash (of every YAML file in the rulebook directory, the card files the cards came from, and the
decks as loaded: zone -> card ids per player, which the header also carries), the number of
players (`players`, one deck per seat), the seed, the agents, and the checks the recording ran
under (invariants, decision cap). Agents are
not needed to replay: the recorded answers are fed back through `Game.answer()`, so replaying
reproduces the game exactly and the final `GameState.fingerprint()` must match.

`end` is `result` (the game ended), `error` (it raised or broke an invariant: `error` holds
"Type: message", the text a simulation summary reports), or `abandoned` (stopped by a person).

Golden transcripts (tests/golden) are made here too: `python -m interpreter.replay
--regenerate-golden` rewrites them from `tests/golden/manifest.yaml`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.invariants import check_invariants
from interpreter.files import write_text_atomic
from interpreter.loader.diagnostics import LoadError
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.state.decisions import Decision, check_answer
from interpreter.state.errors import IllegalAnswer, asked_of_nobody

FORMAT = 1
Decks = list[dict[str, list[str]]]
AnswerFn = Callable[[Game, Decision], list[str]]


class RunawayGame(RuntimeError):
    """A game that reached the decision cap without a result: reported as a failure, never a hang."""


class Diverged(Exception):
    """A replayed game left the recording (an answer that is no longer legal, or no answer left)."""


def sogo_version() -> str:
    """The installed Sogo version, so a replay says which engine recorded it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sogo")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def error_text(e: BaseException) -> str:
    """The one-line form of a failure, shared by summaries and replays so they can be compared."""
    return f"{type(e).__name__}: {e}"


def node_of(game: Game) -> str:
    """Where the game is (the turn-structure node id, or `setup`), to locate decisions."""
    return game.cur_node.id if game.cur_node is not None else "setup"


# -- content hash ------------------------------------------------------------------------------
def card_files(cards: dict[str, CardDef]) -> list[Path]:
    """The files the cards were loaded from (a card's source is `path:line`)."""
    return sorted({Path(c.source.rsplit(":", 1)[0]) for c in cards.values()})


def _hash_files(files: list[tuple[str, Path]]) -> str:
    h = hashlib.sha256()
    for name, path in sorted(files):
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def content_hashes(rb: Rulebook, cards: dict[str, CardDef], decks: Decks) -> dict[str, str]:
    """sha256 of the rulebook directory's YAML files, the card files and the decks, and of all three.

    Files are named relative to their directory, so a copy elsewhere with the same content hashes
    the same; decks are hashed as loaded since the replay carries them, not their files.
    """
    rb_files = [(p.relative_to(rb.directory).as_posix(), p) for p in rb.directory.rglob("*.yaml")]
    # A versioned rulebook is edits to the rulebook it extends: that one's files count too.
    bases = sorted({f.parent for f in rb.files if rb.directory not in f.parents and f.parent != rb.directory})
    rb_files += [(f"@extends/{d.name}/{p.relative_to(d).as_posix()}", p) for d in bases for p in d.rglob("*.yaml")]
    parts = {
        "rulebook": _hash_files(rb_files),
        "cards": _hash_files([(p.name, p) for p in card_files(cards)]),
        "decks": hashlib.sha256(json.dumps(decks, sort_keys=True).encode()).hexdigest(),
    }
    total = hashlib.sha256("".join(parts[k] for k in ("rulebook", "cards", "decks")).encode()).hexdigest()
    return {"content": total, **parts}


def make_header(rb: Rulebook, decks: Decks, seed: int, agents: list[str], hashes: dict[str, str], *,
                invariants: bool = False, max_decisions: int | None = None) -> dict[str, Any]:
    """The header line of a replay; `hashes` comes from content_hashes (computed once per run).
    `players` is the seat count (one deck per seat); `rulebook_format` the format the game was played
    under, when one was chosen (`format` is the replay file's own format number)."""
    header = {"replay": "sogo", "format": FORMAT, "sogo": sogo_version(), "rulebook": rb.id,
              "rulebook_dir": rb.directory.name, "rules_version": rb.rules_version,
              "content_hash": hashes["content"], "hashes": {k: v for k, v in hashes.items() if k != "content"},
              "players": len(decks), "decks": decks, "seed": seed, "agents": agents, "invariants": invariants,
              "max_decisions": max_decisions}
    if rb.format and rb.format.get("id") is not None:
        header["rulebook_format"] = str(rb.format["id"])
    return header


# -- the file ----------------------------------------------------------------------------------
@dataclass
class Replay:
    """A recorded game: header, one step per decision, and how it ended (None if cut short)."""

    header: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None

    def to_lines(self) -> list[str]:
        rows = [self.header, *self.steps] + ([self.end] if self.end is not None else [])
        return [json.dumps(r, ensure_ascii=False, sort_keys=False, default=str) for r in rows]

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        return write_text_atomic(p, "\n".join(self.to_lines()) + "\n")

    def to_dict(self) -> dict[str, Any]:
        return {"header": self.header, "steps": self.steps, "end": self.end}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Replay:
        return cls(d["header"], list(d["steps"]), d.get("end"))

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        """Read a replay file; raises LoadError at the line and column of the first problem."""
        raw = Path(path).read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            at_line = raw[:e.start].count(b"\n") + 1
            col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
            raise LoadError.single(str(path), at_line, col, f"not UTF-8 text (byte 0x{raw[e.start]:02x}); "
                                   "a replay is JSON lines") from None
        rows: list[Any] = []
        lines: list[int] = []  # the file line of each row (blank lines are skipped)
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise LoadError.single(str(path), n, e.colno, f"not JSON: {e.msg}") from None
            if not isinstance(rows[-1], dict):
                raise LoadError.single(str(path), n, 1, "expected a JSON object")
            lines.append(n)
        if not rows or rows[0].get("replay") != "sogo":
            raise LoadError.single(str(path), 1, 1, 'not a Sogo replay (the first line has no "replay": "sogo")')
        if rows[0].get("format") != FORMAT:
            raise LoadError.single(str(path), lines[0], 1,
                                   f"replay format {rows[0].get('format')!r}, this Sogo reads {FORMAT}")
        seats, decks = rows[0].get("players"), rows[0].get("decks")
        if seats is not None and not (isinstance(decks, list) and seats == len(decks)):
            raise LoadError.single(str(path), lines[0], 1, f"the header says {seats!r} players but carries "
                                   f"{len(decks) if isinstance(decks, list) else 'no list of'} decks (one per player)")
        end = rows[-1] if len(rows) > 1 and "end" in rows[-1] else None
        steps = rows[1:-1] if end is not None else rows[1:]
        for n, s in enumerate(steps):
            if not isinstance(s.get("answer"), list):
                raise LoadError.single(str(path), lines[n + 1], 1, "a decision line needs an 'answer' list")
        return cls(rows[0], steps, end)


class Recorder:
    """Collects the answers of a game being played, to save it as a replay."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.replay = Replay(header)

    def record(self, game: Game, decision: Decision, answer: list[str]) -> None:
        self.replay.steps.append({"decision": len(self.replay.steps), "player": decision.player,
                                  "node": node_of(game), "answer": list(answer)})

    def finish(self, game: Game, error: BaseException | None = None, *, abandoned: bool = False) -> Replay:
        kind = "abandoned" if abandoned else "error" if error is not None else "result"
        self.replay.end = {"end": kind, "decisions": len(self.replay.steps), "node": node_of(game),
                           "fingerprint": game.state.fingerprint(), "result": game.state.result,
                           "error": error_text(error) if error is not None else None}
        return self.replay


# -- driving a game ----------------------------------------------------------------------------
def drive(game: Game, answer: AnswerFn, *, invariants: bool = False, max_decisions: int | None = None,
          recorder: Recorder | None = None) -> None:
    """Advance a game to its end, asking `answer` at every decision (the loop simulations and
    replays share, so a replay meets the same checks, in the same order, as the recorded run)."""
    total = None
    n = 0
    while True:
        d = game.advance()
        if invariants:
            total = check_invariants(game, d, total)
        if d is None:
            return
        if d.player is None:
            raise asked_of_nobody(d, node_of(game))
        if max_decisions is not None and n >= max_decisions:
            raise RunawayGame(f"no result after {n} decisions (the cap is {max_decisions}); "
                              f"turn {game.state.turn}, at {node_of(game)}")
        ids = answer(game, d)
        if recorder is not None:
            recorder.record(game, d, ids)
        game.answer(ids)
        n += 1


@dataclass
class ReplayOutcome:
    """What replaying gave: the game, how far it went, and the first divergence (None: identical)."""

    game: Game
    decisions: int
    error: str | None
    fingerprint: str
    divergence: str | None
    divergence_at: int | None = None


class _Stop(Exception):
    """The recording ran out where it was abandoned: stop quietly."""


def run_replay(rep: Replay, rb: Rulebook, cards: dict[str, CardDef], *, log: bool = True) -> ReplayOutcome:
    """Feed the recorded answers to a fresh game and compare everything the recording says."""
    h = rep.header
    game = Game(rb, cards, h["decks"], seed=int(h["seed"]), log=log)
    steps = rep.steps
    end = rep.end or {}
    first: list[tuple[int, str]] = []  # the first divergence: (decision index, what)
    used = 0

    def answer(g: Game, d: Decision) -> list[str]:
        nonlocal used
        i, node = used, node_of(g)
        if i >= len(steps):
            if end.get("end") == "abandoned" or not end:
                raise _Stop
            raise Diverged(f"decision {i} at {node}: the game asks P{d.player + 1} '{d.prompt}' but the "
                           f"recording has no more answers (it ended: {end.get('error') or end.get('end')})")
        s = steps[i]
        if not first and (s.get("node") != node or s.get("player") != d.player):
            first.append((i, f"decision {i}: recorded at {s.get('node')} for P{int(s.get('player', 0)) + 1}, "
                             f"replayed at {node} for P{d.player + 1}"))
        try:
            check_answer(d, s["answer"])
        except IllegalAnswer as e:
            raise Diverged(f"decision {i} at {node}: the recorded answer {s['answer']} is not legal: {e}"
                           ) from e
        used += 1
        return list(s["answer"])

    error: str | None = None
    try:
        drive(game, answer, invariants=bool(h.get("invariants")), max_decisions=h.get("max_decisions"))
    except _Stop:
        pass
    except Diverged as e:
        first.append((used, str(e)))
    except Exception as e:  # noqa: BLE001 - the failure being reproduced
        error = error_text(e)
    fp = game.state.fingerprint()
    if not first and end:
        want = end.get("error")
        if error != want:
            first.append((used, f"decision {used} at {node_of(game)}: "
                               + (f"the game raised {error}, the recording ended with {want or 'a result'}"
                                  if error else f"the recording ended with {want}, the replay did not")))
        elif used != len(steps):
            first.append((used, f"decision {used} at {node_of(game)}: the replay ended after {used} "
                                f"decisions, the recording has {len(steps)}"))
        elif fp != end.get("fingerprint"):
            first.append((used, f"final state hash {fp} differs from the recorded {end.get('fingerprint')} "
                                f"(after {used} decisions, at {node_of(game)})"))
    if not end and not first:
        first.append((used, f"the recording was cut short after {len(steps)} decisions (no end line)"))
    at, what = first[0] if first else (None, None)
    return ReplayOutcome(game, used, error, fp, what, at)


# -- golden transcripts ------------------------------------------------------------------------
def golden_dir() -> Path:
    """The golden transcripts: a source checkout's tests (an installed Sogo ships none)."""
    from interpreter import locations

    return (locations.source_checkout() or Path.cwd()) / "tests" / "golden"


def golden_games(directory: Path | None = None) -> list[tuple[str, int]]:
    """(game, seed) pairs listed in the golden manifest (`game: [seeds]` per line)."""
    from interpreter.loader.yaml_safe import load_yaml

    data, _ = load_yaml((directory or golden_dir()) / "manifest.yaml")
    return [(str(g), int(s)) for g, seeds in (data or {}).items() for s in seeds]


def golden_transcript(game: str, seed: int) -> str:
    """Exactly what `sogo play GAME --seed SEED` prints (random agents), plus any error and exit code.
    `game` may name a format and a seat count: `game:fmt:3` plays `sogo play game --format fmt
    --players 3`."""
    from click.testing import CliRunner

    from interpreter.cli.main import cli

    name, *variant = game.split(":")
    args = ["play", name, "--seed", str(seed)]
    if variant:
        args += ["--format", variant[0]] + (["--players", variant[1]] if len(variant) > 1 else [])
    r = CliRunner().invoke(cli, args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    out = r.stdout
    if r.exit_code:
        out += f"{r.stderr}exit: {r.exit_code}\n"
    return out


def golden_path(game: str, seed: int, directory: Path | None = None) -> Path:
    return (directory or golden_dir()) / f"{game.replace(':', '-')}-{seed}.txt"


def regenerate_golden(directory: Path | None = None) -> list[Path]:
    """Rewrite every transcript the manifest lists (run on purpose after a rules or engine change)."""
    out = []
    for game, seed in golden_games(directory):
        p = golden_path(game, seed, directory)
        out.append(write_text_atomic(p, golden_transcript(game, seed)))
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m interpreter.replay --regenerate-golden`: the one command that rewrites tests/golden."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m interpreter.replay", description=main.__doc__)
    ap.add_argument("--regenerate-golden", action="store_true", help="rewrite the golden transcripts")
    ap.add_argument("--golden-dir", type=Path, default=None, help="default: tests/golden")
    args = ap.parse_args(argv)
    if not args.regenerate_golden:
        ap.print_help()
        return 2
    for p in regenerate_golden(args.golden_dir):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
