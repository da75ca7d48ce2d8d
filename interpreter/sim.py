"""Run many seeded games (random agents unless told otherwise) and aggregate what happened.

Game i of a run uses seed `seed + i` and agents seeded from it, exactly as `sogo play --seed`
does, so every simulated game can be replayed on its own. Games run in this process, on a
pool of processes, or on a Dask cluster; each runs the same per-game function and results are
aggregated in seed order, so a summary depends on the seeds only, never on the workers or backend.
A game that raises, breaks an invariant or passes the decision cap is a failure: its replay is
kept (and saved under `failures_dir` when one is given) so `sogo replay` reproduces it.
"""

from __future__ import annotations

import os
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter import compiled
from interpreter.agents import ask, make_agents
from interpreter.engine.game import Game
from interpreter.model.rulebook import CardDef, Rulebook
from interpreter.replay import Recorder, Replay, card_files, content_hashes, drive, error_text, make_header
from interpreter.state.decisions import Decision
from interpreter.state.objects import winners_of

DEFAULT_MAX_DECISIONS = 5000
BACKENDS = ("processes", "dask")
Decks = list[dict[str, list[str]]]


def _answers(seed: int, agents: tuple[str, ...] | None, players: int) -> Callable[[Game, Decision], list[str]]:
    """The seats' agents by name (None: seeded random agents everywhere), seeded from the game's seed
    as `sogo play --seed` seeds them."""
    seats = make_agents(agents or ("random",) * players, seed, players)
    return lambda g, d: ask(seats[d.player], g, d)


def play_one(rb: Rulebook, cards: dict[str, CardDef], decks: Decks, seed: int, *, invariants: bool = False,
             log: bool = False, max_decisions: int | None = None, recorder: Recorder | None = None,
             agents: tuple[str, ...] | None = None) -> Game:
    """One game with seeded agents (random by default); a broken game raises GameError, InvariantError
    or RunawayGame."""
    g = Game(rb, cards, decks, seed=seed, log=log)
    drive(g, _answers(seed, agents, len(decks)), invariants=invariants,
          max_decisions=max_decisions, recorder=recorder)
    return g


@dataclass(frozen=True)
class SimOptions:
    """What every game of a run is played under (picklable: it travels to worker processes)."""

    invariants: bool = False
    max_decisions: int | None = DEFAULT_MAX_DECISIONS
    agents: tuple[str, ...] | None = None  # one name per seat (`make_agent`); None: random everywhere


def play_seed(rb: Rulebook, cards: dict[str, CardDef], decks: Decks, seed: int, opts: SimOptions,
              hashes: Callable[[], dict[str, str]]) -> dict[str, Any]:
    """The per-game function every backend runs: one game's outcome as plain data, with its replay
    when it failed (`hashes` is called only then, so clean games never hash files)."""
    rec = Recorder({})
    try:
        g = Game(rb, cards, decks, seed=seed, log=False)
    except Exception as e:  # noqa: BLE001 - a game that cannot even start has nothing to replay
        return {"seed": seed, "error": error_text(e), "where": _where(e), "replay": None}
    try:
        drive(g, _answers(seed, opts.agents, len(decks)), invariants=opts.invariants,
              max_decisions=opts.max_decisions, recorder=rec)
    except Exception as e:  # noqa: BLE001 - every failure is reported, with its replay
        rec.replay.header = make_header(rb, decks, seed, list(opts.agents or ("random",) * len(decks)), hashes(),
                                        invariants=opts.invariants, max_decisions=opts.max_decisions)
        return {"seed": seed, "error": error_text(e), "where": _where(e),
                "replay": rec.finish(g, e).to_dict()}
    r = g.state.result or {}
    won = winners_of(r)
    key = "draw" if r.get("outcome") == "draw" else ("+".join(f"P{w + 1}" for w in won) if won else "unfinished")
    return {"seed": seed, "key": key, "completed": bool(r), "turns": g.state.turn,
            "decisions": g.state.decisions}


def _where(e: BaseException) -> str:
    """The innermost frame of a failure, to tell failures apart in a summary."""
    tb = traceback.extract_tb(e.__traceback__)
    return f"{Path(tb[-1].filename).name}:{tb[-1].lineno} in {tb[-1].name}" if tb else ""


# -- workers -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """How a worker process loads the same game: paths plus the content hash they must still have.
    The seat count travels as the decks, one per seat; the rulebook's format (if any) as its id."""

    rulebook_dir: str
    card_files: tuple[str, ...]
    decks: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    content_hash: str
    fmt: str | None = None

    @classmethod
    def of(cls, rb: Rulebook, cards: dict[str, CardDef], decks: Decks, content_hash: str) -> GameSpec:
        return cls(str(rb.directory), tuple(str(p) for p in card_files(cards)),
                   tuple(tuple((z, tuple(ids)) for z, ids in d.items()) for d in decks), content_hash,
                   str(rb.format["id"]) if rb.format else None)

    def deck_lists(self) -> Decks:
        return [{z: list(ids) for z, ids in d} for d in self.decks]


_ENV: dict[GameSpec, tuple[Rulebook, dict[str, CardDef], dict[str, str]]] = {}


def _env(spec: GameSpec) -> tuple[Rulebook, dict[str, CardDef], dict[str, str]]:
    """Load the game once per worker process, and refuse files that differ from the parent's."""
    if spec not in _ENV:
        from interpreter.loader.cards import load_cards
        from interpreter.loader.rulebook import load_rulebook

        rb = load_rulebook(spec.rulebook_dir, fmt=spec.fmt)
        cards = load_cards(rb, [Path(p) for p in spec.card_files])
        hashes = content_hashes(rb, cards, spec.deck_lists())
        if hashes["content"] != spec.content_hash:
            raise RuntimeError(f"worker {os.getpid()}: the rulebook or card files at {spec.rulebook_dir} "
                               "differ from the ones the run started with (content hash mismatch)")
        _ENV[spec] = (rb, cards, hashes)
    return _ENV[spec]


def run_chunk(spec: GameSpec, seeds: list[int], opts: SimOptions) -> list[dict[str, Any]]:
    """A worker's task: play a few seeds (module level, so process pools and Dask can ship it)."""
    rb, cards, hashes = _env(spec)
    decks = spec.deck_lists()
    return [play_seed(rb, cards, decks, s, opts, lambda: hashes) for s in seeds]


def _chunks(seeds: list[int], workers: int) -> list[list[int]]:
    size = max(1, min(50, len(seeds) // (workers * 8) or 1))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def _run_processes(spec: GameSpec, chunks: list[list[int]], opts: SimOptions, workers: int
                   ) -> Iterator[list[dict[str, Any]]]:
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(run_chunk, spec, c, opts) for c in chunks]
        for f in as_completed(futures):
            yield f.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # on Ctrl-C, do not play the queued games


def _run_dask(spec: GameSpec, chunks: list[list[int]], opts: SimOptions, workers: int,
              address: str | None) -> Iterator[list[dict[str, Any]]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as e:
        raise RuntimeError('the dask backend needs the optional extra: pip install "sogo[dask]"') from e
    cluster = None
    if address:
        client = Client(address)
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
        client = Client(cluster)
    try:
        futures = client.map(run_chunk, [spec] * len(chunks), chunks, [opts] * len(chunks), pure=False)
        for f in as_completed(futures):
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# -- the run -----------------------------------------------------------------------------------
def simulate(rb: Rulebook, cards: dict[str, CardDef], decks: Decks, games: int, seed: int, *,
             invariants: bool = False, workers: int = 1, backend: str = "processes",
             max_decisions: int | None = DEFAULT_MAX_DECISIONS, failures_dir: str | Path | None = None,
             progress: Callable[[int], None] | None = None, dask_address: str | None = None,
             agents: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Play `games` seeded games and aggregate them in seed order (the same for any workers/backend).

    The game has one seat per deck. `workers` 1 plays in this process; more use a process pool, or
    Dask with backend "dask". `progress(k)` is called as k more games finish. Failures are saved as
    replays under `failures_dir` (if given) and listed, by path, under "failures". `agents` names
    each seat's agent (`make_agent`; default random); a bad name raises ValueError before any game
    starts. Workers load the rulebook under the format `rb` was loaded under.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}' (known: {', '.join(BACKENDS)})")
    if agents is not None:
        make_agents(agents, seed, len(decks))
    opts = SimOptions(invariants, max_decisions, agents)
    seeds = [seed + i for i in range(games)]
    workers = max(1, min(workers, games)) if backend == "processes" else max(1, workers)
    t0 = time.perf_counter()
    outcomes: list[dict[str, Any]] = []
    cache: dict[str, dict[str, str]] = {}

    def hashes() -> dict[str, str]:
        if "h" not in cache:
            cache["h"] = content_hashes(rb, cards, decks)
        return cache["h"]

    if backend == "processes" and workers == 1:
        for s in seeds:
            outcomes.append(play_seed(rb, cards, decks, s, opts, hashes))
            if progress:
                progress(1)
    elif games:
        spec = GameSpec.of(rb, cards, decks, hashes()["content"])
        _ENV.setdefault(spec, (rb, cards, hashes()))  # forked workers inherit it instead of reloading
        chunks = _chunks(seeds, workers)
        stream = (_run_processes(spec, chunks, opts, workers) if backend == "processes"
                  else _run_dask(spec, chunks, opts, workers, dask_address))
        for batch in stream:
            outcomes.extend(batch)
            if progress:
                progress(len(batch))
    seconds = time.perf_counter() - t0
    summary = aggregate(rb, games, seed, sorted(outcomes, key=lambda o: o["seed"]), failures_dir,
                        players=len(decks))
    if rb.format:
        summary["format"] = rb.format.get("id")
        teams = (rb.format.get("teams") or {}).get("seats") or []
        if teams:  # a team's games won (teammates win together)
            summary["wins_by_team"] = {"+".join(f"P{s}" for s in team): summary["wins_by_player"].get(f"P{team[0]}", 0)
                                       for team in teams}
    summary.update(workers=workers, backend=backend, invariants=invariants, max_decisions=max_decisions,
                   compiled_engine=compiled(), seconds=round(seconds, 3),
                   games_per_second=round(games / seconds, 2) if seconds else None)
    return summary


def format_summary(summary: dict[str, Any]) -> str:
    """A simulation summary for people (the --json output is the same data for programs)."""
    s = summary
    played = max(1, s["games"] - s["errors"])
    checks = "invariants checked" if s.get("invariants") else "invariants not checked"
    cap = f"at most {s['max_decisions']} decisions a game" if s.get("max_decisions") else "no cap on decisions"
    fmt = f", format {s['format']}" if s.get("format") else ""
    lines = [f"{s['game']} (rules {s['rules_version']}{fmt}), {s.get('players', 2)} players: "
             f"{s['games']} games from seed {s['seed']}, "
             f"{s['workers']} worker(s) ({s['backend']}), {checks}, {cap}"]
    shares = ", ".join(f"{k} {n} ({100 * n / played:.1f}%)" for k, n in s["results"].items())
    lines.append(f"results:   {shares or 'none'}")
    wins = s.get("wins_by_player") or {}
    shared = any("+" in k for k in s["results"])
    if len(wins) > 2 or shared:  # with two players and no shared win, the results line says it all
        lines.append("wins:      " + ", ".join(f"{p} {n} ({100 * n / played:.1f}%)" for p, n in wins.items())
                     + (" (a shared win counts for each winner)" if shared else ""))
    if s.get("wins_by_team"):
        lines.append("teams:     " + ", ".join(f"{t} {n} ({100 * n / played:.1f}%)"
                                               for t, n in s["wins_by_team"].items()))
    lines.append(f"completed: {s['completed']} of {s['games']}, {s['errors']} error(s)")
    if s["games"] > s["errors"]:
        lines.append(f"per game:  {s['mean_turns']} turns, {s['mean_decisions']} decisions on average")
    engine = " (compiled engine)" if s.get("compiled_engine") else ""
    lines.append(f"speed:     {s['games_per_second'] or '-'} games/s ({s['seconds']} s){engine}")
    for e in s["error_samples"]:
        where = f" [{e['where']}]" if e.get("where") else ""
        lines.append(f"error:     seed {e['seed']}: {e['error']}{where}")
        if e.get("replay"):
            lines.append(f"           reproduce it: sogo replay {e['replay']}")
    if s["errors"] > len(s["error_samples"]):
        lines.append(f"           ... and {s['errors'] - len(s['error_samples'])} more error(s) "
                     f"(--json lists every failed game's replay)")
    return "\n".join(lines) + "\n"


def aggregate(rb: Rulebook, games: int, seed: int, outcomes: list[dict[str, Any]],
              failures_dir: str | Path | None, players: int = 2) -> dict[str, Any]:
    """Sum per-game outcomes (already in seed order) and save the failures' replays.

    `results` counts games by outcome ("P1", "P1+P3" for a shared win, "draw", "unfinished");
    `wins_by_player` counts each seat's wins, a shared win once for each of its winners."""
    results: Counter[str] = Counter()
    wins: Counter[str] = Counter({f"P{i + 1}": 0 for i in range(players)})
    errors: list[dict[str, Any]] = []
    failures: list[str] = []
    turns = decisions = completed = 0
    for o in outcomes:
        if "error" in o:
            sample = {"seed": o["seed"], "error": o["error"], "where": o["where"]}
            if failures_dir is not None and o["replay"] is not None:
                target = Path(failures_dir) / f"{rb.id}-seed{o['seed']}.jsonl"
                path = Replay.from_dict(o["replay"]).save(target)
                sample["replay"] = str(path)
                failures.append(str(path))
            errors.append(sample)
            continue
        completed += o["completed"]
        results[o["key"]] += 1
        if o["key"] not in ("draw", "unfinished"):
            wins.update(o["key"].split("+"))
        turns += o["turns"]
        decisions += o["decisions"]
    done = max(1, len(outcomes) - len(errors))
    return {"game": rb.id, "rules_version": rb.rules_version, "games": games, "seed": seed,
            "completed": completed, "errors": len(errors), "error_samples": errors[:5],
            "results": dict(sorted(results.items())), "players": players,
            "wins_by_player": dict(sorted(wins.items(), key=lambda kv: int(kv[0][1:]))),
            "mean_turns": round(turns / done, 2), "mean_decisions": round(decisions / done, 1),
            "failures": failures}
