"""The replay viewer: `sogo replay FILE --html OUT` writes one self-contained page with a snapshot of
the table on the game's play mat before every decision and at the end; in headless Chromium, stepping
changes the mat, stepping back restores it, each step has its own link, autoplay steps by itself, a
turn can be jumped to, a player's view hides what they could not see (card backs) with that player at
the bottom, and a cited rule shows its text when the page was given a rules file."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from headless import chromium

from interpreter.cli.main import cli
from interpreter.cli.setup import load_game_env
from interpreter.replay import Replay
from interpreter.viewer import build_page, snapshots

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
RULES = SEEDS / "000_3af871e8eb91afcf.txt"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    path = tmp_path_factory.mktemp("viewer") / "game.jsonl"
    res = CliRunner().invoke(cli, ["play", "lovelive", "--seed", "1", "--save-replay", str(path)])
    assert res.exit_code == 0, res.output
    return path


def page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_a_snapshot_per_decision_and_hidden_cards_marked(recorded):
    rep = Replay.load(recorded)
    rb, cards, _ = load_game_env("lovelive", None)
    snaps, game = snapshots(rep, rb, cards)
    assert len(snaps) == len(rep.steps) + 1 and snaps[-1]["result"] is not None
    assert all("decision" in s for s in snaps[:-1]) and "decision" not in snaps[-1]
    # P2's hand is hidden from P1 (bit 0) and seen by P2 (bit 1 clear).
    hand = next(s for s in snaps if s["zones"]["hand@P2"])["zones"]["hand@P2"]
    assert all(c[4] & 1 and not c[4] & 2 for c in hand)
    # A mat per snapshot for the whole record and for each seat (interpreter/viewer/mat.py).
    assert all(len(s["mats"]) == 1 + game.state.num_players for s in snaps)
    assert [p["seat"] for p in snaps[5]["mats"][2]["players"]] == [1, 0]
    html = build_page(rep, rb, cards)
    data = page_data(html)
    assert len(data["snapshots"]) == len(snaps) and data["rules"] == {}
    # Zone cells are kept once and named by number; the page carries the mat's script.
    assert all(isinstance(k, int) for s in data["snapshots"] for m in s["mats"] for p in m["players"]
               for r in p["rows"] for k in r["cells"])
    assert len(data["cells"]) < sum(len(r["cells"]) for s in data["snapshots"] for m in s["mats"]
                                    for p in m["players"] for r in p["rows"]) / 4
    assert "function renderMat" in html and ".sogo-card" in html
    assert not re.search(r'(src|href)="(https?:)?//', html), "the page loads nothing from elsewhere"


def test_cli_writes_the_page_and_checks_its_options(recorded, tmp_path):
    out = tmp_path / "game.html"
    runner = CliRunner()
    res = runner.invoke(cli, ["replay", str(recorded), "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    bad = runner.invoke(cli, ["replay", str(recorded), "--rules", __file__])
    assert bad.exit_code == 2 and "--rules goes with --html" in bad.output


@pytest.mark.skipif(not RULES.is_file(), reason="the Love Live rules text is not beside the project")
def test_cited_rules_are_embedded(recorded, tmp_path):
    out = tmp_path / "game.html"
    res = CliRunner().invoke(cli, ["replay", str(recorded), "--html", str(out), "--rules", str(RULES)])
    assert res.exit_code == 0, res.output
    rules = page_data(out.read_text(encoding="utf-8"))["rules"]
    assert "9.6.2" in rules and len(rules) > 20


def _browser() -> Any:
    return chromium(1400, 1000)


def test_stepping_through_the_page_in_a_browser(recorded, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    out = tmp_path / "game.html"
    args = ["replay", str(recorded), "--html", str(out)] + (["--rules", str(RULES)] if RULES.is_file() else [])
    assert CliRunner().invoke(cli, args).exit_code == 0
    driver = _browser()
    try:
        driver.get(out.as_uri())
        board = lambda: driver.find_element(By.ID, "board").get_attribute("innerHTML")  # noqa: E731
        seats = lambda: [e.get_attribute("data-seat") for e in driver.find_elements(By.CSS_SELECTOR, ".sogo-seat")]  # noqa: E731
        backs = lambda: len(driver.find_elements(By.CSS_SELECTOR, ".sogo-card.back:not(.counted)"))  # noqa: E731
        first = board()
        assert "sogo-table" in first and seats() == ["1", "0"]  # the whole record: P1 at the bottom
        assert "Deck" in driver.find_element(By.ID, "board").text
        shot = tmp_path / "step0.png"
        driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
        for _ in range(30):
            driver.find_element(By.ID, "next").click()
        assert driver.find_element(By.ID, "pos").text.startswith("step 31 / ")
        assert driver.current_url.endswith("#step=31")
        later = board()
        assert later != first and "Spotlight Energy" in driver.find_element(By.ID, "board").text
        for _ in range(30):
            driver.find_element(By.ID, "prev").click()
        assert board() == first
        Select(driver.find_element(By.ID, "turn")).select_by_value("2")
        assert " - turn 2" in driver.find_element(By.ID, "pos").text
        assert backs() == 0  # the whole record shows every card
        Select(driver.find_element(By.ID, "seen")).select_by_value("0")
        assert backs() > 0 and seats() == ["1", "0"]  # P2's hand is hidden from P1
        Select(driver.find_element(By.ID, "seen")).select_by_value("1")
        assert backs() > 0 and seats() == ["0", "1"]  # P2 at the bottom
        if RULES.is_file():
            driver.find_element(By.CSS_SELECTOR, "#decision a.rule").click()
            text = driver.find_element(By.ID, "ruletext").text
            assert text and "no rules text" not in text
        # A link to a step opens the page at that step; autoplay steps on by itself until paused.
        driver.get(out.as_uri() + "#step=12")
        driver.refresh()
        assert driver.find_element(By.ID, "pos").text.startswith("step 12 / ")
        driver.find_element(By.CSS_SELECTOR, "#pace option[value='250']").click()
        driver.find_element(By.ID, "play").click()
        step = lambda: int(driver.find_element(By.ID, "pos").text.split()[1])  # noqa: E731
        WebDriverWait(driver, 10).until(lambda d: step() >= 15)
        driver.find_element(By.ID, "play").click()
        stopped = step()
        time.sleep(0.6)
        assert step() == stopped
    finally:
        driver.quit()


def test_a_hololive_mat_shows_hp_left_damage_and_attached_cards(tmp_path):
    """hololive on its mat: holomem tiles carry an HP meter (HP left of HP, through continuous
    effects) and their damage; cheer attached to a holomem shows on it."""
    from selenium.webdriver.common.by import By

    rec, out = tmp_path / "holo.jsonl", tmp_path / "holo.html"
    assert CliRunner().invoke(cli, ["play", "hololive", "--seed", "1", "--save-replay", str(rec)]).exit_code == 0
    assert CliRunner().invoke(cli, ["replay", str(rec), "--html", str(out)]).exit_code == 0
    data = page_data(out.read_text(encoding="utf-8"))
    cells = data["cells"]

    def damaged(s):
        return any("damage" in t.get("counters", {}) and any(h["held_look"] == "attached" for h in t.get("held", []))
                   for p in s["mats"][0]["players"] for r in p["rows"] for k in r["cells"]
                   for t in cells[k].get("cards", []) + ([cells[k]["top"]] if "top" in cells[k] else []))

    step = next(i for i, s in enumerate(data["snapshots"]) if damaged(s)) + 1
    driver = _browser()
    try:
        driver.get(f"{out.as_uri()}#step={step}")
        meters = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".sogo-card .meter")]
        assert meters and all(re.fullmatch(r"HP \d+/\d+", m) for m in meters)
        assert driver.find_elements(By.CSS_SELECTOR, ".sogo-card .chip")
        assert driver.find_elements(By.CSS_SELECTOR, ".sogo-attached .att")
    finally:
        driver.quit()
