"""Speed benchmark (reports figures; not a test): `python tests/benchmarks/bench_speed.py [GAME] [-n N]`;
with `--profile`, where the time goes instead.

Measures, on one core: rulebook load-and-validate time, card load time, random games per second,
decisions per second, the peak memory of one game, and what search agents pay for a copy: a state
copy, and a fork at a play timing (a restart from the copied state) or elsewhere (from the last play
timing the game kept, and, for comparison, a replay of every answer from the start), as medians over
every decision of a few games; and what the Monte Carlo search agent pays per decision, with the
cost of one imagined world beside it. Prints a JSON object.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

from interpreter import compiled
from interpreter.agents import MonteCarloAgent, RandomAgent
from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.loader.rulebook import load_rulebook
from interpreter.sim import play_one


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="lovelive")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true",
                    help="instead: profile N games and print where the time goes, by part of the interpreter")
    args = ap.parse_args()
    if args.profile:
        _profile(args.game, args.n, args.seed)
        return

    t0 = time.perf_counter()
    for _ in range(5):
        load_rulebook(args.game)
    load_s = (time.perf_counter() - t0) / 5
    t0 = time.perf_counter()
    rb, cards, decks = load_game_env(args.game, None)
    env_s = time.perf_counter() - t0

    decisions = turns = 0
    t0 = time.perf_counter()
    for i in range(args.n):
        g = play_one(rb, cards, decks, args.seed + i)
        decisions += g.state.decisions
        turns += g.state.turn
    dt = time.perf_counter() - t0

    tracemalloc.start()
    play_one(rb, cards, decks, args.seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    costs = _copy_costs(rb, cards, decks, args.seed)
    search = _search_costs(rb, cards, decks, args.seed)

    print(json.dumps({
        "game": args.game, "games": args.n, "compiled_engine": compiled(),
        "rulebook_load_validate_s": round(load_s, 3), "rulebook_cards_decks_load_s": round(env_s, 3),
        "games_per_second": round(args.n / dt, 1), "decisions_per_second": round(decisions / dt),
        "mean_decisions": round(decisions / args.n, 1), "mean_turns": round(turns / args.n, 2),
        "peak_memory_one_game_kib": round(peak / 1024),
        "state_copy_ms": _median_ms(costs["copy"]),
        "fork_at_play_timing_ms": _median_ms(costs["restart"]), "forks_at_play_timing": len(costs["restart"]),
        "fork_from_checkpoint_ms": _median_ms(costs["checkpoint"]), "forks_from_checkpoint": len(costs["checkpoint"]),
        "fork_by_full_replay_ms": _median_ms(costs["replay"]), "forks_by_full_replay": len(costs["replay"]),
        **search,
    }, indent=2))


def _copy_costs(rb, cards, decks, seed: int, games: int = 5) -> dict[str, list[float]]:  # noqa: ANN001
    """Time a state copy and a fork at every decision of a few games. Forks away from play timings
    are timed twice: from the last play timing the game kept, and (checkpoints off) from the start."""
    out: dict[str, list[float]] = {"copy": [], "restart": [], "checkpoint": [], "replay": []}
    for i in range(games):
        g = Game(rb, cards, decks, seed + i, log=False)
        agent = RandomAgent(seed + i)
        while (d := g.advance()) is not None:
            t0 = time.perf_counter()
            g.state.copy()
            out["copy"].append(time.perf_counter() - t0)
            kind = "restart" if g.resume_at is not None else "checkpoint" if g._checkpoint is not None else None
            t0 = time.perf_counter()
            g.fork()
            if kind is not None:
                out[kind].append(time.perf_counter() - t0)
            if kind != "restart":
                g.checkpoints, kept = False, g._checkpoint
                g._checkpoint = None
                t0 = time.perf_counter()
                g.fork()
                out["replay"].append(time.perf_counter() - t0)
                g.checkpoints, g._checkpoint = True, kept
            g.answer(agent.decide(d, {}))
    return out


def _search_costs(rb, cards, decks, seed: int, decisions: int = 8, rollouts: int = 4) -> dict[str, Any]:  # noqa: ANN001
    """What the Monte Carlo agent pays at P1's first play timings with a choice (against a random
    P2): time per decision, play-outs per second, and the median imagined world (`Game.imagine`,
    a state copy with the hidden cards re-dealt), so the share of a search spent copying shows."""
    g = Game(rb, cards, decks, seed, log=False)
    mc, other = MonteCarloAgent(seed, rollouts=rollouts), RandomAgent(seed)
    spent, worlds, asked = 0.0, [], 0
    while (d := g.advance()) is not None and asked < decisions:
        if d.player == 0 and g.imaginable() and len(d.ids()) > 1:
            for s in range(3):
                t0 = time.perf_counter()
                g.imagine(0, s)
                worlds.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            g.answer(mc.decide_in(g, d))
            spent += time.perf_counter() - t0
            asked += 1
        else:
            g.answer((mc.fallback if d.player == 0 else other).decide(d, {}))
    return {"search_rollouts_per_option": rollouts, "search_decisions": asked,
            "search_decision_ms": round(spent / asked * 1000, 1) if asked else None,
            "search_playouts_per_second": round(mc.playouts / spent, 1) if spent else None,
            "imagined_world_ms": _median_ms(worlds)}


def _profile(game: str, n: int, seed: int) -> None:
    """Self time by part of the interpreter (its subpackages; Python's builtins apart) and the
    costliest functions, from cProfile over N games. Profiling slows every call alike, so read the
    shares, not the absolute times."""
    rb, cards, decks = load_game_env(game, None)
    prof = cProfile.Profile()
    prof.enable()
    for i in range(n):
        play_one(rb, cards, decks, seed + i)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    parts: dict[str, list[float]] = {}
    funcs = []
    for (file, line, name), (_, calls, self_time, _, _) in stats.items():
        path = Path(file)
        if "interpreter" in path.parts:
            rel = path.parts[path.parts.index("interpreter") + 1:]
            part = "interpreter." + (rel[0] if len(rel) > 1 else Path(rel[0]).stem)
            where = f"{'/'.join(rel)}:{line}({name})"
        else:
            part = "python builtins" if file == "~" else "python library"
            where = name if file == "~" else f"{path.name}:{line}({name})"
        acc = parts.setdefault(part, [0.0, 0])
        acc[0] += self_time
        acc[1] += calls
        funcs.append((self_time, calls, where))
    total = sum(t for t, _ in parts.values()) or 1.0
    print(f"{game}: {n} games profiled; self time by part (share), calls per game")
    for part, (t, calls) in sorted(parts.items(), key=lambda kv: -kv[1][0]):
        print(f"  {part:28s} {100 * t / total:5.1f}%  {calls / n:10.0f}")
    print("costliest functions (self time share, calls per game)")
    for t, calls, where in sorted(funcs, reverse=True)[:20]:
        print(f"  {100 * t / total:5.1f}%  {calls / n:9.0f}  {where}")


def _median_ms(xs: list[float]) -> float | None:
    return round(statistics.median(xs) * 1000, 3) if xs else None


if __name__ == "__main__":
    main()
