"""The brief log (`sogo play --log brief`, interpreter/viewer/brief_log.py): a game told for people.

On every shipped game: headings for the setup, each turn and its phases in words, no line wider than
a terminal, no Python reprs or object ids, no rule numbers unless asked (`--rules`), and a result
line with its reason in words and its rule. On a toy game, the exact lines: cards followed across
moves by their handle, moves grouped, a note's brief form, the result's reason; and a player's view
that does not follow a card through a zone that player cannot see. The full log is not touched by
any of it (tests/test_golden.py)."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from click.testing import CliRunner
from toy_engine import game_of, toy_variant

from interpreter.cli.main import cli
from interpreter.viewer.brief_log import WIDTH, BriefLog, wrap

GAMES = ["lovelive", "haikyu", "hololive", "rebirth", "osica"]


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def _play(*args: str) -> Any:
    r = CliRunner().invoke(cli, ["play", *args])
    assert r.exit_code == 0, r.output
    return r


@pytest.mark.parametrize("game", GAMES)
def test_brief_log_reads_as_a_report(game: str) -> None:
    r = _play(game, "--seed", "3", "--log", "brief")
    header, *lines = r.stdout.splitlines()
    assert header.startswith(f"{game} (rules ") and "decks: P1 " in header
    assert "Setup" in lines and "Turn 1" in [re.sub(r" · P\d+$", "", x) for x in lines]
    assert any(re.match(r"^  \S.* · P\d+$", x) for x in lines), "no phase heading naming its turn player"
    for line in lines:
        assert _width(line) <= WIDTH, line
        assert not re.search(r"\{'|': |\['|#\d+\]|until until|\w+_\w+", line), line
    result = [x for x in lines if re.match(r"^    (P\d( and P\d)* wins?|the game is a draw)", x)]
    assert len(result) == 1
    assert re.match(r"^    P\d wins: \S.* \(\S+\)$", result[0]), result[0]  # a reason and its rule
    assert not any(re.search(r"\[\d+[.-]\d", x) for x in lines), "rule numbers without --rules"


def test_rules_on_demand() -> None:
    plain = _play("lovelive", "--seed", "3", "--log", "brief").stdout.splitlines()
    cited = _play("lovelive", "--seed", "3", "--log", "brief", "--rules").stdout.splitlines()
    assert any(re.search(r"  \[7\.\d[\d.]*(, [\d.]+)*\]$", x) for x in cited)
    assert len(cited) >= len(plain)


def test_full_log_is_the_text_log_and_the_default_off_a_terminal() -> None:
    full = _play("hololive", "--seed", "1", "--log", "full")
    assert full.stdout == _play("hololive", "--seed", "1", "--log", "text").stdout
    assert full.stdout == _play("hololive", "--seed", "1").stdout  # CliRunner's stdout is no terminal
    assert full.stdout.startswith("T0   setup")
    # which rulebook and decks were loaded goes to stderr, not into the full log
    assert "hololive (rules 1.7.0, " in full.stderr and "decks: P1 " in full.stderr


TOY_END = """    - id: three
      kind: step
      reads: "the last step"
      rules: ["6"]
      do:
        - move: {cards: "top('deck', you, 2)", to: hand}
        - move: {cards: "cards('hand', you)", to: field}
        - log: {message: "'P1 +1'", brief: "'P1 scores 1'"}
        - lose: {player: "other_side", reason: "the test says so"}"""


@pytest.fixture(scope="module")
def toy_end(tmp_path_factory: Any) -> tuple[Any, Any]:
    return toy_variant(tmp_path_factory.mktemp("brief"), replace=(
        ('        - play_timing: {player: "turn_player", actions: [use, give_up]}\n', ""),
        ("""    - id: three
      kind: step
      rules: ["6"]
      do:
        - set_var: {name: three_done, value: true}""", TOY_END)))


def _brief_of(env: tuple[Any, Any], reader: int | None) -> list[str]:
    g = game_of(env, {"P1": {"deck": ["U-PLAIN", "U-PLAIN", "U-DASH"]}})
    assert g.advance() is None and g.state.result is not None
    return BriefLog(*env, roles=dict(g.state.roles)).feed([e.for_player(reader) for e in g.entries])


def test_toy_game_exactly(toy_end: tuple[Any, Any]) -> None:
    assert _brief_of(toy_end, None) == [
        "",
        "Turn 1 · P1",
        "  the last step · P1",
        "    P1 deck → hand: Plain (a, b)",
        "    P1 hand → field: Plain (b, a)",  # the same two cards (no new handles), followed as they move
        "    P1 scores 1",
        "    P1 wins: P2 loses, the test says so (6)",
    ]


def test_a_player_does_not_follow_cards_through_what_they_cannot_see(toy_end: tuple[Any, Any]) -> None:
    assert _brief_of(toy_end, 1)[3:5] == [
        "    P1 deck → hand: 2 cards",
        "    P1 hand → field: Plain (a, b)",
    ]


def test_wrap_counts_wide_characters_twice() -> None:
    lines = wrap("一二三四五六七八九十 x", 12, "  ", "    ")
    assert lines == ["  一二三四五", "    六七八九", "    十 x"]
    assert all(_width(x) <= 12 for x in lines)
