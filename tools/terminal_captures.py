"""Text captures of the terminal player (interpreter/agents/human.py) for docs/terminal-player.md: a
seeded game with P1 at the terminal (answering at random from a seed) and P2 a random agent, stopped
at P1's first move (a play timing) from a given turn on; what P1 was shown there (what happened since
its last decision, the mat, what was done for it, the question in words) is written into the page,
110 columns wide.

    python tools/terminal_captures.py            # rewrites docs/terminal-player.md's captures
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.agents import RandomAgent, ask  # noqa: E402
from interpreter.agents.human import HumanAgent  # noqa: E402
from interpreter.cli.setup import load_game_env  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402

# (game, seed, the turn from which P1's first move is captured, title)
CAPTURES = [("hololive", 2, 9, "hololive OFFICIAL CARD GAME"),
            ("lovelive", 5, 5, "Love Live! Series Official Card Game")]
PAGE = ROOT / "docs" / "terminal-player.md"
START, END = "<!-- captures -->", "<!-- /captures -->"


class Stop(Exception):
    pass


def capture(game: str, seed: int, turn: int) -> str:
    """What P1 saw at its first move (a play timing) from `turn` on."""
    rb, cards, decks = load_game_env(game, None)
    g = Game(rb, cards, decks, seed=seed)
    rng = random.Random(seed)
    shown: list[str] = []

    def read(_prompt: str) -> str:
        block = "\n".join(shown).rsplit("your decision:", 1)[1]
        if g.state.turn >= turn and g.cur_tp == 0 and "Your move" in block.split("\n", 1)[0]:
            raise Stop
        options = re.findall(r"^\s+(\d+)\. ", block, re.M)
        hint = block.strip().splitlines()[-1]
        if "Enter alone" in hint and rng.random() < 0.3:
            return ""
        want = re.match(r"\(Enter (\d+) numbers", hint)
        return " ".join(rng.sample(options, int(want.group(1)) if want else 1))

    human = HumanAgent(0, read=read, write=shown.append, width=110)
    agents = [human, RandomAgent(seed)]
    try:
        while (d := g.advance()) is not None:
            if d.player == 0:
                shown.clear()
            g.answer(ask(agents[d.player], g, d))
    except Stop:
        return "\n".join(shown).rstrip() + "\nYour choice: "
    raise SystemExit(f"{game} seed {seed}: the game ended before the capture")


def main() -> None:
    parts = [START]
    for game, seed, turn, title in CAPTURES:
        parts += [f"\n### {title} (`sogo play {game} --agents human,random --seed {seed}`)\n",
                  "```text", capture(game, seed, turn), "```"]
    parts.append(END)
    page = PAGE.read_text(encoding="utf-8")
    head, _, rest = page.partition(START)
    _, _, tail = rest.partition(END)
    PAGE.write_text(head + "\n".join(parts) + tail, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
