"""Instructions per random game, counted by valgrind (reports a figure; not a test):
`python tests/benchmarks/instructions.py [GAME] [-n N] [--tree DIR]`.

Timings on a shared machine drift by 10% and more within minutes; an instruction count does not:
the same code, rulebook and seeds give the same count, whatever else the machine is doing (hash
randomisation is fixed too, or the order of sets would move it by a few tenths of a percent). That
makes it the measure for judging an optimisation of a few percent (it does not see memory stalls,
so confirm a large change with `compare.py`). The probe loads the game and plays N seeded games;
a second probe that only loads is subtracted, so the figure is per game played. `--tree` measures
another checkout (plain or compiled in place) instead of this one.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from interpreter.cli.setup import load_game_env
from interpreter.sim import play_one
rb, cards, decks = load_game_env(sys.argv[1], None)
for i in range(int(sys.argv[2])):
    play_one(rb, cards, decks, 1 + i)
"""


def count(tree: Path, game: str, games: int) -> int:
    """Instructions the probe executes in `tree` (the interpreter's start-up and loading included)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")  # set and dict orders too
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", PROBE, game, str(games)],
                         cwd=tree, env=env, capture_output=True, text=True, check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="lovelive")
    ap.add_argument("-n", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[2],
                    help="the checkout to measure (default: this one)")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    tree = args.tree.resolve()
    per_game = (count(tree, args.game, args.n) - count(tree, args.game, 0)) // args.n
    compiled = any(tree.glob("*__mypyc*"))
    print(f"{args.game}: {per_game:,} instructions per game ({args.n} games, "
          f"{'compiled' if compiled else 'plain'} engine at {tree})")


if __name__ == "__main__":
    main()
