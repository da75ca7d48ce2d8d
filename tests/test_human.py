"""The human player at a terminal: the board shows cards by name with the fields that matter, a
player can ask for a card's full text and for a zone, a wrong entry says what a valid one looks like,
and `sogo card` prints one card."""

from __future__ import annotations

from click.testing import CliRunner

from interpreter.agents.human import HumanAgent
from interpreter.cli.main import cli
from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game


def asked(inputs):
    """P1 (a human) at the Love Live mulligan, answering `inputs` in turn; what it wrote and returned."""
    rb, cards, decks = load_game_env("lovelive", None)
    g = Game(rb, cards, decks, seed=3)
    d = g.advance()
    while not (d.player == 0 and d.prompt == "mulligan"):  # P2 picks who goes first, may mulligan first
        g.answer([] if d.min == 0 else [d.options[0].id])
        d = g.advance()
    out: list[str] = []
    feed = iter(inputs)
    agent = HumanAgent(0, read=lambda _prompt: next(feed), write=out.append)
    agent.use_cards(rb, cards)
    answer = agent.decide(d.for_agent(), g.view(0))
    return "\n".join(out), answer, d


def test_the_board_shows_names_and_fields():
    text, _, _ = asked(["2"])
    assert "hand@P1 (6)" in text
    assert "Sora Kirishima [SGL-M06] (cost 5, hearts red×2 yellow×2, blades 3)" in text
    assert "hand@P2 (6): hidden" in text and "SGL-" not in text.split("hand@P2")[1].split("\n")[0]


def test_show_card_text_zone_and_help():
    text, answer, d = asked(["?3", "show SGL-M01", "zone hand", "zone hand P2", "help", "3"])
    assert "Mei Kurosawa [SGL-M08] - member" in text  # option 3's card, in full
    assert "ability 1 (auto; enter): When this member comes onto the stage, you may pay [E]" in text
    assert "Aoi Hoshimori [SGL-M01] - member" in text
    assert "hand@P2 (6)\n  6 hidden card(s)" in text
    assert "zone NAME [P2]" in text
    assert answer == [d.options[2].id]


def test_a_wrong_entry_says_what_is_valid():
    text, answer, d = asked(["9", "abc", "1 1", ""])
    assert "enter between 0 and 6 different numbers from 1 to 6 (nothing for none)" in text
    assert answer == []  # nothing: keep the hand


def test_sogo_card_prints_one_card_and_refuses_an_unknown_one():
    runner = CliRunner()
    ok = runner.invoke(cli, ["card", "haikyu", "SGH-017"])
    assert ok.exit_code == 0
    assert ok.output.splitlines()[0] == "Jin Kuroba [SGH-017] - character"
    assert "  attack_point: 4" in ok.output and "text: [=サーブフェイズ][=サーブエリア]" in ok.output
    missing = runner.invoke(cli, ["card", "lovelive", "aoi"])
    assert missing.exit_code == 2 and "no card 'aoi' in lovelive (did you mean: SGL-M01)" in missing.output


def test_a_human_plays_a_whole_game_from_the_command_line():
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "haikyu", "--agents", "human,random", "--seed", "3"], input="1\n" * 2000)
    assert res.exit_code == 0, res.output[-2000:]
    assert "result:" in res.output
    assert "P1's view" in res.output and "Your choice" in res.output
