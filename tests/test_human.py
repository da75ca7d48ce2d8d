"""The human player at a terminal: at each decision the play mat its seat sees, then the question in
words (the layout's labels, the ability and its cost read in plain English, never internal ids), what
the engine did for it without asking, and answers by number, by name, `pass`, Enter for nothing where
nothing may be chosen, and `quit`. A complete game is played through it with scripted answers, and
from the command line; `sogo card` prints one card."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from interpreter.agents import RandomAgent, ask
from interpreter.agents.human import HumanAgent, Quit
from interpreter.cli.main import cli
from interpreter.cli.setup import load_game_env
from interpreter.engine.game import Game
from interpreter.state.decisions import Decision
from interpreter.viewer.brief_log import BriefLog


def at_decision(game: str, seed: int, wanted: Callable[[Decision], bool], limit: int = 3000) -> tuple[Game, Decision]:
    """A seeded game of random answers, stopped at P1's first decision that is `wanted`."""
    rb, cards, decks = load_game_env(game, None)
    g = Game(rb, cards, decks, seed=seed)
    pick = random.Random(seed)
    for _ in range(limit):
        d = g.advance()
        assert d is not None, "the game ended before the decision wanted"
        if d.player == 0 and wanted(d):
            return g, d
        ids = [o.id for o in d.options]
        g.answer(pick.sample(ids, max(d.min, min(d.max, 1))) if ids else [])
    raise AssertionError("no such decision")


def run(game: str, seed: int, wanted: Callable[[Decision], bool], inputs: list[str]) -> tuple[str, list[str], Decision]:
    """P1 (a human) asked the `wanted` decision at the table, answering `inputs` in turn: what it
    wrote, what it answered, and the decision."""
    g, d = at_decision(game, seed, wanted)
    out: list[str] = []
    feed = iter(inputs)
    agent = HumanAgent(0, read=lambda _prompt: next(feed), write=out.append, width=120)
    answer = ask(agent, g, d)
    return "\n".join(out), answer, d


def question(text: str) -> str:
    """The decision part of what was written (after the mat)."""
    return text.split("your decision:", 1)[1]


def mat_top(text: str) -> str:
    """The first line of the mat (after what happened since the last decision)."""
    return next(line for line in text.splitlines() if line.startswith("Turn ") and "'s turn" in line)


def test_the_mat_then_the_question_in_words() -> None:
    text, answer, d = run("lovelive", 3, lambda d: d.prompt == "choose_member_area", ["1"])
    first = mat_top(text)
    assert first.startswith("Turn ") and "P1's turn (you)" in first and "_" not in first
    assert "P1 (you)" in text and "Hand" in text  # the mat, with the seat's own panel
    q = question(text)
    assert "Choose member area — choose 1\n" in q
    assert "choose_member_area" not in q and "member_left" not in q and "z:" not in q
    options = re.findall(r"^\s+\d+\. (\w+)  — (.*)$", q, re.M)
    assert options and {name for name, _ in options} <= {"Left", "Center", "Right"}  # the layout's labels
    assert all(detail == "empty now" or detail.startswith("now holds ") for _, detail in options)
    assert re.search(r"^  card: \S", q, re.M)  # the member being played
    assert answer == [d.options[0].id]


def test_what_happened_since_the_last_decision_as_the_seat_reads_it() -> None:
    """Before the mat, the brief log of everything since the player's last decision, as its seat may
    read it: the opponent's hand is cards, not names."""
    g, d = at_decision("lovelive", 3, lambda d: d.prompt == "choose_member_area")
    out: list[str] = []
    feed = iter(["1"])
    agent = HumanAgent(0, read=lambda _prompt: next(feed), write=out.append, width=120)
    ask(agent, g, d)
    told = out[:next(i for i, x in enumerate(out) if x.startswith(mat_top("\n".join(out))))]
    assert told == [*BriefLog(g.rb, g.cards, width=120).feed([e.for_player(0) for e in g.entries]), ""]
    assert told[0] == "Setup" and "    P2 main deck → hand: 6 cards" in told
    quiet = HumanAgent(0, read=lambda _prompt: "1", write=(said := []).append, width=120, log=False)
    ask(quiet, g, d)
    assert said[0].startswith(mat_top("\n".join(said)))  # no log: the mat first


def test_an_optional_cost_names_the_ability_and_its_cost() -> None:
    text, answer, d = run("lovelive", 2, lambda d: d.prompt == "pay_optional_cost", ["no"])
    q = question(text)
    assert "Use this ability and pay its cost?" in q and "pay_optional_cost" not in q
    about = next(line for line in q.splitlines() if line.startswith("  ability: "))
    assert "Cost" in about and "Effect" in about  # the ability as it reads, its cost included
    assert re.search(r"1\. Yes\b", q) and re.search(r"2\. No\b", q)
    assert answer == ["no"]


def test_actions_by_name_and_pass() -> None:
    wanted: Callable[[Decision], bool] = lambda d: d.prompt == "play_timing" and len(d.options) > 2  # noqa: E731
    text, answer, d = run("lovelive", 3, wanted, ["pass"])
    q = question(text)
    assert "Your move: take an action, or pass" in q and "Pass  — do nothing more now" in q
    assert "play_member" not in q and "Play member: " in q
    assert answer == ["pass"]
    # The first action by (part of) its name; a name that is no option says so.
    title = re.search(r"^\s+1\. (.*?)(?:  — .*)?$", q, re.M)
    assert title is not None
    text, answer, d = run("lovelive", 3, wanted, ["no such thing", title.group(1)])
    assert "No option is called 'no such thing'" in text
    assert answer == [d.options[0].id]


def test_enter_chooses_nothing_only_where_nothing_may_be_chosen() -> None:
    text, answer, _ = run("lovelive", 3, lambda d: d.prompt == "mulligan", [""])
    assert "Enter alone to choose nothing" in question(text) and answer == []
    text, answer, d = run("lovelive", 3, lambda d: d.prompt == "choose_member_area", ["", "9", "pass", "2"])
    assert "Enter alone" not in question(text).split("Your choice")[0]
    assert "Something must be chosen here" in text and "Options are numbered 1 to" in text
    assert "There is no passing here" in text and answer == [d.options[1].id]


def test_commands_card_text_zone_rules_help_and_quit() -> None:
    text, answer, d = run("lovelive", 3, lambda d: d.prompt == "mulligan", ["?1", "zone hand", "zone hand P2",
                                                                              "rules", "help", "1"])
    assert "- member" in text or "- live" in text  # option 1's card in full
    assert "hidden card(s)" in text  # P2's hand, hidden
    assert "rules: " in text and "Enter (an empty answer) chooses nothing" in text
    assert answer == [d.options[0].id]
    with pytest.raises(Quit):
        run("lovelive", 3, lambda d: d.prompt == "mulligan", ["quit"])


def person(out: list[str], seed: int) -> Callable[[str], str]:
    """A scripted player reading the question as written: `pass` or Enter where offered, else
    options by name or number (as many as asked), at random from a seed."""
    rng = random.Random(seed)

    def read(_prompt: str) -> str:
        block = "\n".join(out).rsplit("your decision:", 1)[1]
        options = re.findall(r"^\s+(\d+)\. (.*?)(?:  — .*)?$", block, re.M)
        hint = block.strip().splitlines()[-1]
        if "pass" in hint and rng.random() < 0.3:
            return "pass"
        if "Enter alone" in hint and rng.random() < 0.3:
            return ""
        want = re.match(r"\(Enter (\d+) numbers", hint)
        k = int(want.group(1)) if want else 1
        chosen = rng.sample(options, k)
        if k == 1 and rng.random() < 0.5 and "," not in chosen[0][1]:
            return chosen[0][1]
        return " ".join(n for n, _ in chosen)

    return read


@pytest.mark.parametrize("game,seed", [("haikyu", 3), ("lovelive", 5)])
def test_a_complete_game_through_the_human_player(game: str, seed: int) -> None:
    rb, cards, decks = load_game_env(game, None)
    g = Game(rb, cards, decks, seed=seed)
    out: list[str] = []
    human = HumanAgent(0, read=person(out, seed), write=out.append, width=120)
    agents: list[Any] = [human, RandomAgent(seed)]
    asked_of_p1 = 0
    while (d := g.advance()) is not None:
        asked_of_p1 += d.player == 0
        g.answer(ask(agents[d.player], g, d))
    assert g.state.result is not None
    text = "\n".join(out)
    assert text.count("your decision:") == asked_of_p1 > 3
    if game == "lovelive":  # said: a pass with nothing else to do, a baton touch that was the only way to play
        assert "» Nothing to do but pass: passed for you" in text
        assert "» The only possible choice was made for you: Baton touch" in text
    # No internal ids in the questions: prompts and options in words.
    for block in text.split("your decision:")[1:]:
        q = block.split("\nTurn ")[0]
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", q.split("\n", 1)[0]), q.split("\n", 1)[0]


def test_a_human_plays_and_quits_from_the_command_line() -> None:
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "haikyu", "--agents", "human,random", "--seed", "3"], input="1\n" * 2000)
    assert res.exit_code == 0, res.output[-2000:]
    assert "result:" in res.output
    assert "P1, your decision:" in res.output and "Your choice" in res.output and "Turn 1 · " in res.output
    # With the brief log the player tells it, once: each line since the last decision before the mat.
    brief = runner.invoke(cli, ["play", "haikyu", "--agents", "human,random", "--seed", "3", "--log", "brief"],
                          input="1\n" * 2000)
    assert brief.exit_code == 0, brief.output[-2000:]
    lines = brief.output.splitlines()
    assert lines.count("Setup") == 1 and lines.count("Turn 1 · P1") + lines.count("Turn 1 · P2") == 1
    assert len([x for x in lines if re.match(r"^    P\d wins: ", x)]) == 1  # the last lines, told at the end
    quit_ = runner.invoke(cli, ["play", "haikyu", "--agents", "human,random", "--seed", "3"], input="1\nquit\n")
    assert quit_.exit_code == 130 and "game abandoned" in quit_.output


def test_sogo_card_prints_one_card_and_refuses_an_unknown_one() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["card", "haikyu", "SGH-017"])
    assert ok.exit_code == 0
    assert ok.output.splitlines()[0] == "Jin Kuroba [SGH-017] - character"
    assert "  attack_point: 4" in ok.output and "text: [=サーブフェイズ][=サーブエリア]" in ok.output
    missing = runner.invoke(cli, ["card", "lovelive", "aoi"])
    assert missing.exit_code == 2 and "no card 'aoi' in lovelive (did you mean: SGL-M01)" in missing.output


def test_without_a_table_the_labels_are_asked() -> None:
    """An agent asked with a decision and a view only (no game at hand) still answers, by label."""
    g, d = at_decision("lovelive", 3, lambda d: d.prompt == "mulligan")
    out: list[str] = []
    feed = iter(["2"])
    agent = HumanAgent(0, read=lambda _prompt: next(feed), write=out.append)
    assert agent.decide(d.for_agent(), g.view(0)) == [d.options[1].id]
    assert d.options[1].label in "\n".join(out)
