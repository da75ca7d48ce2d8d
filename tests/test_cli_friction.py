"""Friction a new user meets on the command line (issue 34 item 5): `validate GAME`, `sogo games`,
cards added to a game's own (`--add-cards`) rather than hiding them, `sogo cards list`, the search-path
options after the command, `validate rulebooks/*` past a README, and a Quickstart of two commands
whose first installs only what playing needs. (`play` naming what it loaded: tests/test_brief_log.py;
misspelt keys: tests/bad_input, e.g. card_misspelt_verb_argument and card_unknown_keyword.)"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter import locations
from interpreter.cli.main import cli, hoist_global_options

ROOT = Path(__file__).resolve().parent.parent

EXTRA_CARD = """game: lovelive
cards:
  - {id: USR-M01, number: USR-M01, name: Quiet Newcomer, type: member, cost: 1, hearts: {pink: 1}, blades: 1}
"""


def run(*args: str, code: int = 0) -> Any:
    """One `sogo` command; the search-path options it puts into the environment (for worker
    processes) are taken out again, so that each command starts afresh."""
    saved = {k: os.environ.get(k) for k in locations.ENV.values()}
    try:
        r = CliRunner().invoke(cli, list(args))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert r.exit_code == code, r.output
    return r


@pytest.fixture
def extra(tmp_path: Path) -> Path:
    (tmp_path / "lovelive").mkdir()
    (tmp_path / "lovelive" / "extra.yaml").write_text(EXTRA_CARD, encoding="utf-8")
    return tmp_path


def test_validate_takes_a_game_id() -> None:
    out = run("validate", "lovelive").stdout
    assert "ok rulebook lovelive 1.06" in out
    assert re.search(r"^ok cards \S*cards/lovelive \(\d+ cards, 2 legal decks\)$", out, re.M)
    r = run("validate", "no_such_game", code=1)
    assert "no_such_game:1:1: no such file or directory, nor a game id (games: " in r.stderr


def test_validate_skips_what_is_not_yaml() -> None:
    r = run("validate", str(ROOT / "rulebooks" / "README.md"), str(ROOT / "rulebooks" / "osica"))
    assert "rulebooks/README.md (not YAML)" in r.stdout and "ok rulebook osica" in r.stdout


def test_games_lists_each_rulebook_with_version_formats_and_folders() -> None:
    out = run("games").stdout
    for name, version in (("lovelive", "1.06"), ("haikyu", "1.03"), ("haikyu@1.02", "1.02"), ("hololive", "1.7.0")):
        assert re.search(rf"^{re.escape(name)}: .+ \(rules {re.escape(version)}\), 2 players$", out, re.M), name
    assert "formats: rumble, rumble_one_out, circle, circle_one_out, double_team" in out
    assert re.search(r"^    rulebook: \S*rulebooks/osica$", out, re.M)
    assert re.search(r"^    cards: \S*cards/osica$", out, re.M)


def test_added_cards_extend_the_game_and_cards_hide_it(extra: Path) -> None:
    shipped = run("cards", "list", "lovelive").stdout
    n = int(re.search(r"^(\d+) card\(s\)", shipped.splitlines()[-1])[1])
    added = run("--add-cards", str(extra), "cards", "list", "lovelive").stdout
    assert "Quiet Newcomer [USR-M01]" in added and int(added.splitlines()[-1].split()[0]) == n + 1
    hidden = run("--cards", str(extra), "cards", "list", "lovelive").stdout
    assert hidden.splitlines()[-1].startswith("1 card(s)")
    # play keeps the sample decks (the shipped folder's) and can look the new card up
    r = run("play", "lovelive", "--seed", "1", "--add-cards", str(extra), "--log", "full")
    assert "decks: P1 " in r.stderr and "cards/lovelive/deck-a.yaml" in r.stderr
    assert "Quiet Newcomer" in run("card", "lovelive", "USR-M01", "--add-cards", str(extra)).stdout


def test_cards_list_names_every_card_once() -> None:
    lines = run("cards", "list", "hololive").stdout.splitlines()
    ids = [re.search(r"\[([^\]]+)\]", x)[1] for x in lines[:-1]]
    assert len(ids) == len(set(ids)) == int(lines[-1].split()[0])
    assert all(x.split()[0] in ("holomem", "oshi", "support", "cheer") for x in lines[:-1])


def test_search_path_options_after_the_command(extra: Path) -> None:
    assert hoist_global_options(["play", "g", "--cards", "D", "--seed", "1", "--rulebooks=R"]) == \
        ["--cards", "D", "--rulebooks=R", "play", "g", "--seed", "1"]
    assert hoist_global_options(["scenario", "run", "--", "--cards", "x"]) == ["scenario", "run", "--", "--cards", "x"]
    after = run("cards", "list", "lovelive", "--cards", str(extra)).stdout
    assert after == run("--cards", str(extra), "cards", "list", "lovelive").stdout


def test_quickstart_is_two_commands_the_first_only_for_playing() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quickstart\n\n```sh\n(.*?)```", readme, re.S)[1].strip().splitlines()
    assert len(block) == 2
    first, second = block
    assert re.match(r"python3 -m pip install -e \. && sogo play \w+", first), first
    assert '".[test]"' in second
    test_command = second.split(" && ", 1)[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == test_command  # .ci/run runs the README's test command
    deps = " ".join(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"])
    for heavy in ("dask", "selenium", "mypy", "pytest"):
        assert heavy not in deps
    after = readme.split(block[1], 1)[1][:1200]
    assert re.search(r"about \d+ minutes", after) and "tests/test_scenarios.py" in after
