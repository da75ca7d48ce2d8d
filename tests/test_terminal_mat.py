"""interpreter/viewer/terminal.py: the play mat drawn as text for the terminal player. A mid-game mat
of each game, drawn at a fixed width, says whose turn and which phase it is, shows every player's
counters, draws each mat's zones in the layout's order (the others' turned round above, the seat's own
below), keeps hidden cards hidden, and shows HP left and damage on a hololive holomem."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

from interpreter.cli.setup import cards_dir, load_game_env
from interpreter.engine.game import Game
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game
from interpreter.viewer.mat import layout_of, mat
from interpreter.viewer.terminal import look_words, mat_text, render_mat, turn_line

GAMES = ["lovelive", "haikyu", "hololive", "rebirth", "osica"]
WIDTH = 140


def played(game: str, steps: int | None = None, seed: int = 3) -> tuple[Game, int]:
    """A seeded game of random answers, `steps` decisions in (None: to its end); the decisions made."""
    rb, cards, decks = load_game_env(game, None)
    g = Game(rb, cards, decks, seed=seed)
    pick = random.Random(seed)
    made = 0
    while steps is None or made < steps:
        d = g.advance()
        if d is None:
            break
        ids = [o.id for o in d.options]
        g.answer(pick.sample(ids, max(d.min, min(d.max, 1))) if ids else [])
        made += 1
    return g, made


def mid_game(game: str, seed: int = 3) -> Game:
    """The same seeded game two thirds of the way through its decisions: still on, the table busy."""
    _, total = played(game, None, seed)
    return played(game, total * 2 // 3, seed)[0]


def draw(m: dict[str, Any], g: Game) -> str:
    """The mat drawn as the tests read it: rich's recording console at a fixed width, plain text."""
    console = Console(record=True, width=WIDTH, file=io.StringIO())
    console.print(render_mat(m, look_words(layout_of(g))))
    return console.export_text()


def panels(text: str) -> list[list[str]]:
    """Each player's panel, as its lines (title line first), top to bottom."""
    out: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("╭"):
            out.append([line])
        elif out and (line.startswith("│") or line.startswith("╰")):
            out[-1].append(line)
    return out


def labels_in_order(lines: list[str], labels: list[str]) -> int:
    """The index of the first line holding every label left to right (-1: none does)."""
    for i, line in enumerate(lines):
        at = 0
        for label in labels:
            at = line.find(label, at)
            if at < 0:
                break
            at += len(label)
        else:
            return i
    return -1


@pytest.mark.parametrize("game", GAMES)
def test_a_mid_game_mat_reads_as_the_table(game: str) -> None:
    g = mid_game(game)
    assert g.state.result is None
    m = mat(g, 0)
    text = draw(m, g)
    assert text == mat_text(m, WIDTH, look_words(layout_of(g)))  # the text the player is shown
    lines = text.splitlines()
    # Whose turn and where, in words, first.
    assert lines[0] == turn_line(m)
    assert f"Turn {g.state.turn}" in lines[0] and m["phase"] in lines[0] and "_" not in lines[0]
    if g.cur_tp is not None:
        assert f"P{g.cur_tp + 1}'s turn" in lines[0]
    drawn = panels(text)
    assert len(drawn) == g.state.num_players
    # The others first, the seat's own mat last; each panel's title has the player's counters.
    by_panel = list(m["players"][1:][::-1]) + [m["players"][0]]
    for p, panel in zip(by_panel, drawn, strict=True):
        title = panel[0]
        assert p["name"] in title and ("(you)" in title) == p["you"]
        for v in p["values"]:
            assert f"{v['label']} {v['value']}" in title
        # Rows top to bottom as the mat gives them, cells left to right.
        at = 0
        for row in p["rows"]:
            found = labels_in_order(panel[at:], [c["label"] for c in row["cells"]])
            assert found >= 0, (row["id"], panel)
            at += found + 1
    # A card the seat may not see is drawn as hidden, never by name: the opponent's hand.
    opp = m["players"][1]
    (hand,) = [c for r in opp["rows"] for c in r["cells"] if c["zone"] == "hand"]
    hidden_names = {str(g.cards[g.state.objects[oid].card_id].fields.get("name"))
                    for oid in g.state.zones[("hand", opp["seat"])]}
    shown = {str(c["name"]) for c in m["cards"].values()}  # the names the seat sees somewhere
    panel = drawn[-2]
    hand_line = 1 + labels_in_order(panel[1:], [hand["label"]])
    assert hand_line > 0
    if hand["count"]:
        assert "hidden" in panel[hand_line + 1]
        assert not any(name in panel[hand_line + 1] for name in hidden_names - shown)
    assert all(t.get("hidden") for t in hand.get("cards", []))


def test_hololive_hp_left_damage_rest_and_attached_cards() -> None:
    """A rested holomem of HP 90 holding a +20 HP tool, with 30 damage: HP 80/110, damage 30, rest,
    the tool attached; the opponent's hand hidden from the seat."""
    rb = load_rulebook("hololive")
    cards = load_cards(rb, [cards_dir("hololive")])
    sc = {"setup": {"start_at": "main_step", "turn": 3, "turns_taken": {"P1": 2, "P2": 1},
                    "roles": {"first": "P1", "second": "P2", "current": "P1"},
                    "zones": {"P1": {"oshi_position": ["HLS-O01"], "hand": ["HLS-005"], "life": ["HLS-Y01"],
                                     "back": [{"card": "HLS-001", "counters": {"damage": 30}, "under": ["HLS-S04"],
                                               "orientation": "rest"}]},
                              "P2": {"oshi_position": ["HLS-O02"], "center": ["HLS-011"], "life": ["HLS-Y02"],
                                     "hand": ["HLS-S06"]}}}}
    g = build_game(sc, rb, cards)
    text = draw(mat(g, 0), g)
    (line,) = [ln for ln in text.splitlines() if "HP 80/110" in ln]
    assert "damage 30" in line and "(rest)" in line
    assert "attached: Stage Mic" in text
    assert "Life 1" in text.splitlines()[-1] or any("Life 1" in ln for ln in panels(text)[-1][:1])
    name = str(cards["HLS-S06"].fields["name"])
    assert name not in text and "hidden" in text
    # Seen by P2, the same holomem is P1's, P2's hand is shown.
    seen_by_p2 = draw(mat(g, 1), g)
    assert name in seen_by_p2 and "HP 80/110" in seen_by_p2


def test_alike_cards_are_one_line_and_face_down_is_said() -> None:
    g = mid_game("rebirth")
    text = draw(mat(g, 0), g)
    assert "× " in text  # energy cards alike, counted
    assert "face down" in text


def test_a_finished_game_says_who_won() -> None:
    g, _ = played("haikyu")
    assert g.state.result is not None
    text = draw(mat(g, 0), g)
    assert text.splitlines()[1].startswith("Game over: P") and "wins" in text.splitlines()[1]
