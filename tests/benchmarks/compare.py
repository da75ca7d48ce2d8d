"""Compare the speed of this working tree with another revision, back to back (reports figures; not a
test): `python tests/benchmarks/compare.py REV [GAME...] [--rounds R] [--games N]`.

Single benchmark runs on a shared machine vary by ±10%, more than most optimisations gain, so a
change is judged against its base measured in the same minutes: REV is checked out in a temporary
git worktree, and the two trees are measured alternately, R rounds each, in fresh processes. Each
measurement is the best of 7 batches of N seeded random games in CPU time (the least disturbed
batch). The same seeds are played by both trees.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys, time
from interpreter.cli.setup import load_game_env
from interpreter.sim import play_one
game, n = sys.argv[1], int(sys.argv[2])
rb, cards, decks = load_game_env(game, None)
for i in range(3):
    play_one(rb, cards, decks, 500 + i)
best = 0.0
for _ in range(7):
    t0 = time.process_time()
    for i in range(n):
        play_one(rb, cards, decks, 1 + i)
    best = max(best, n / (time.process_time() - t0))
print(best)
"""


def measure(tree: Path, game: str, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "SOGO_RULEBOOKS": str(tree / "rulebooks")}
    out = subprocess.run([sys.executable, "-c", PROBE, game, str(games)], cwd=tree, env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the revision to compare with (a commit, branch or tag)")
    ap.add_argument("games", nargs="*", default=["lovelive", "haikyu"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games-per-batch", dest="batch", type=int, default=20)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="sogo-compare-") as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(base), args.rev], cwd=ROOT, check=True)
        try:
            print(f"{'game':10} {'base g/s':>10} {'this g/s':>10} {'change':>8}   (best of 7 batches of "
                  f"{args.batch} games, median of {args.rounds} rounds; base = {args.rev})")
            for game in args.games:
                before, after = [], []
                for _ in range(args.rounds):
                    before.append(measure(base, game, args.batch))
                    after.append(measure(ROOT, game, args.batch))
                b, a = statistics.median(before), statistics.median(after)
                print(f"{game:10} {b:10.1f} {a:10.1f} {100 * (a / b - 1):+7.1f}%")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
