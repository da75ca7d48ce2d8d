"""Screenshots of a mid-game play mat of each game (docs/mats/GAME.png), made the way a person sees
them: a seeded game is recorded (`sogo play GAME --save-replay`), written as a replay page
(`sogo replay --html`) and opened in headless Chromium at a step in the middle of the game, seen by
P1. Needs Chromium, chromedriver and selenium (the test extras; .ci/run installs Debian's chromium).

    python tools/mat_screenshots.py [--out docs/mats] [GAME ...]

The step shown is the decision, in the middle half of the game, with the most cards on the mats (hands
aside), so the picture is a busy table rather than the setup or the last turn. Card names in Japanese
need a CJK font for Chromium (Debian: fonts-noto-cjk)."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (picture name, game, seed, extra `play` arguments)
GAMES = [
    ("lovelive", "lovelive", 1, []),
    ("haikyu", "haikyu", 3, []),
    ("hololive", "hololive", 1, []),
    ("rebirth", "rebirth", 1, []),
    ("rebirth-circle-4", "rebirth", 1, ["--format", "circle", "--players", "4"]),
    ("osica", "osica", 1, []),
]


def browser(width: int, height: int):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tempfile.mkdtemp()}", f"--window-size={width},{height}",
                 "--force-device-scale-factor=1"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=opts)


def busy_step(page: Path) -> int:
    """The step (1-based) in the middle half of the game whose mats hold the most cards in view."""
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>',
                                page.read_text(encoding="utf-8"), re.S).group(1))  # type: ignore[union-attr]
    snaps = data["snapshots"]
    cells = data["cells"]

    def shown(snap: dict) -> int:  # type: ignore[type-arg]
        m = snap["mats"][1]
        return sum(len(cells[k].get("cards", [])) + ("top" in cells[k]) for p in m["players"]
                   for r in p["rows"] for k in r["cells"] if cells[k]["show"] != "fan")

    lo, hi = len(snaps) // 4, max(len(snaps) // 4 + 1, 3 * len(snaps) // 4)
    return max(range(lo, hi), key=lambda i: (shown(snaps[i]), -abs(i - len(snaps) // 2))) + 1


def shoot(name: str, game: str, seed: int, extra: list[str], out: Path, work: Path) -> Path:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    rep, page = work / f"{name}.jsonl", work / f"{name}.html"
    cli = [sys.executable, "-m", "interpreter.cli.main"]
    subprocess.run(cli + ["play", game, "--seed", str(seed), *extra, "--save-replay", str(rep)], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(cli + ["replay", str(rep), "--html", str(page)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    step = busy_step(page)
    wide = "--players" in extra
    driver = browser(1800 if wide else 1400, 1400)
    try:
        driver.get(f"{page.as_uri()}#step={step}")
        Select(driver.find_element(By.ID, "seen")).select_by_value("0")
        table = driver.find_element(By.CSS_SELECTOR, "#board .sogo-table")
        target = out / f"{name}.png"
        table.screenshot(str(target))
    finally:
        driver.quit()
    print(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: {game} seed {seed}, step {step}")
    return target


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "mats"))
    ap.add_argument("games", nargs="*", help="picture names (default: all)")
    args = ap.parse_args(argv)
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("headless Chromium is not installed (chromium and chromedriver)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, game, seed, extra in GAMES:
            if not args.games or name in args.games:
                shoot(name, game, seed, extra, out, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
