"""`sogo serve` in headless Chromium: a person's seat plays a complete game of each game against a
random agent through the page, clicking only what the page offers (an option's button, a highlighted
card on the mat, a highlighted area), and the page shows the result.

A screenshot of each game's page in the middle of the game is taken on the way; with
SOGO_SERVE_SCREENSHOTS=DIR it is kept as DIR/GAME.png (docs/serve/ holds the ones in the docs:
`SOGO_SERVE_SCREENSHOTS=docs/serve python -m pytest tests/test_serve_browser.py`)."""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from headless import chromium  # noqa: E402

from interpreter.cli.setup import load_game_env  # noqa: E402
from interpreter.serve.app import Table, make_app, new_tokens  # noqa: E402
from interpreter.serve.session import Session  # noqa: E402

GAMES = ["lovelive", "haikyu", "hololive", "rebirth", "osica"]
# The turn from which a play timing with several options is pictured (the game's middle, roughly).
SHOT_TURN = {"lovelive": 4, "haikyu": 3, "hololive": 8, "rebirth": 8, "osica": 5}


def _browser() -> Any:
    return chromium(1680, 1050)


@pytest.fixture(scope="module")
def browser():
    driver = _browser()
    yield driver
    driver.quit()


class Server:
    """`sogo serve`'s app under uvicorn on a free local port, in a thread of the test."""

    def __init__(self, game: str, tmp: Path, seed: int) -> None:
        rb, cards, decks = load_game_env(game, None)
        names = ["human", "random"]
        self.table = Table(lambda s: Session(rb, cards, decks, s, names, tmp), seed, new_tokens([0], False))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(make_app(self.table), host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def url(self) -> str:
        (token,) = self.table.tokens
        return f"http://127.0.0.1:{self.port}/play/{token}"


def _click(driver: Any, el: Any) -> None:
    """A person's click; where the element lies under another (overlapping cards), the click event."""
    from selenium.common.exceptions import WebDriverException

    try:
        el.click()
    except WebDriverException:
        driver.execute_script("arguments[0].click()", el)


def _wait_for_change(driver: Any, number: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20, poll_frequency=0.03).until(lambda d: d.execute_script(
        "const r = document.getElementById('result');"
        "const box = document.getElementById('decision');"
        "return (!r.hidden) || (box.dataset.number && box.dataset.number !== arguments[0] && "
        "!box.classList.contains('sent'));", number))


def play_through_the_page(driver: Any, game: str, url: str, rng: random.Random, shot: Path) -> dict[str, int]:
    """Play seat 1 to the end by clicking what the page offers; count the ways options were taken."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    _wait_for_change(driver, "")
    ways = {"button": 0, "card": 0, "area": 0, "confirm": 0}
    shot_taken = False
    for _ in range(2000):
        if driver.find_element(By.ID, "result").is_displayed():
            break
        box = driver.find_element(By.ID, "decision")
        number = box.get_attribute("data-number")
        buttons = box.find_elements(By.CSS_SELECTOR, "button.option")
        assert buttons, "a decision with no option on the page"
        confirm = box.find_elements(By.ID, "confirm")
        if not shot_taken and not confirm and len(buttons) >= 3 and _turn(driver) >= SHOT_TURN[game]:
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(shot))
            shot_taken = True
        if confirm:  # several may be chosen: toggle some, then confirm
            lo, hi = _span(box.find_element(By.CSS_SELECTOR, ".span").text, len(buttons))
            for i in rng.sample(range(len(buttons)), rng.randint(lo, hi)):
                _click(driver, box.find_elements(By.CSS_SELECTOR, "button.option")[i])
                box = driver.find_element(By.ID, "decision")
            _click(driver, driver.find_element(By.ID, "confirm"))
            ways["confirm"] += 1
        else:
            b = rng.choice(buttons)
            oid = _option_card(driver, b)
            kind = b.get_attribute("class")
            target = None
            if "card" in kind and oid is not None and rng.random() < 0.6:
                found = driver.find_elements(By.CSS_SELECTOR, f"#mat .sogo-card.hl[data-oid='{oid}']")
                same = [x for x in buttons if _option_card(driver, x) == oid]
                if found and len(same) == 1:
                    target, way = found[0], "card"
            elif "zone" in kind and rng.random() < 0.6:
                cells = driver.find_elements(By.CSS_SELECTOR, "#mat .sogo-cell.target")
                zone = b.get_attribute("data-option-id").removeprefix("z:")
                cells = [c for c in cells if c.get_attribute("data-zone") == zone]
                if cells:
                    target, way = cells[0], "area"
            if target is None:
                target, way = b, "button"
            _click(driver, target)
            ways[way] += 1
        _wait_for_change(driver, number)
    assert driver.find_element(By.ID, "result").is_displayed(), "the game did not end"
    if not shot_taken:
        driver.save_screenshot(str(shot))
    return ways


def _turn(driver: Any) -> int:
    text = driver.execute_script("const b = document.querySelector('.sogo-banner'); return b ? b.textContent : '';")
    digits = "".join(ch if ch.isdigit() else " " for ch in text.split("·")[0]).split()
    return int(digits[0]) if digits else 0


def _option_card(driver: Any, button: Any) -> int | None:
    """The card an option button is about (its id names it as c<oid>)."""
    oid = button.get_attribute("data-option-id") or ""
    for part in oid.split(":"):
        if part.startswith("c") and part[1:].isdigit():
            return int(part[1:])
    return None


def _span(text: str, n: int) -> tuple[int, int]:
    words = text.split("·")[0].split()
    nums = [int(w) for w in words if w.isdigit()]
    return (nums[0], nums[-1]) if nums else (0, n)


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_a_complete_game_through_the_page(browser, game, tmp_path):
    from selenium.webdriver.common.by import By

    shot = tmp_path / f"{game}.png"
    with Server(game, tmp_path, seed=1) as server:
        ways = play_through_the_page(browser, game, server.url(), random.Random(11), shot)
        result = browser.find_element(By.ID, "result").text
        assert "win" in result or "draw" in result, result
        assert server.table.session.game.state.result is not None
        # The seat's page ends showing the final table; the log was written as the game went.
        assert browser.find_elements(By.CSS_SELECTOR, "#log li.entry")
        assert browser.find_elements(By.CSS_SELECTOR, "#mat .sogo-seat")
        # Save replay: written, then offered for download once the game is over.
        browser.find_element(By.ID, "save").click()
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(browser, 10).until(lambda d: "Replay saved" in d.find_element(By.ID, "saved").text)
        assert any(p.suffix == ".jsonl" for p in tmp_path.iterdir())
    assert ways["button"] > 0 and sum(ways.values()) > 3
    assert shot.is_file() and shot.stat().st_size > 20_000
    keep = os.environ.get("SOGO_SERVE_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
