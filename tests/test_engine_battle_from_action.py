"""A battle entered from an action and left back to the main phase: the pattern rulebooks/README.md
shows ("A battle entered from an action: jump there and back"), tested as written there. Its YAML
block takes the place of the toy rulebook's actions and turn structure; the turn player attacks twice
and passes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY, play, texts

from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game

README = Path(__file__).resolve().parents[1] / "rulebooks" / "README.md"
HEADING = "## A battle entered from an action: jump there and back"

CARDS = """game: toy
cards:
  - {id: B-ONE, type: unit, name: One, power: 1}
  - {id: B-TWO, type: unit, name: Two, power: 2}
  - {id: B-THREE, type: unit, name: Three, power: 3}
"""


def example() -> str:
    """The README's YAML block under the heading, as written."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index(HEADING):]
    match = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert match is not None
    return match.group(1)


def load(tmp: Path, block: str) -> tuple[Any, Any]:
    """The toy rulebook with its actions and turn structure replaced by `block`'s, and three units."""
    d = tmp / "toy"
    shutil.copytree(TOY, d)
    toy = (d / "all.yaml").read_text(encoding="utf-8")
    actions, turn = block.split("\nturn:\n")
    # The toy's own actions and turn give way to the example's (its turn player role is the toy's mover).
    before, rest = toy.split("\nactions:\n")
    after_actions = rest[rest.index("\ndeck_construction:"):]
    toy = before + "\n" + actions.strip() + "\n" + after_actions.split("\nturn:\n")[0] + "\nturn:\n" + turn
    toy = toy.replace("turn_player: current", "turn_player: mover").replace("stage ==", "turn ==")  # no `stage` here
    toy = toy.replace("ordered: false, groups: [board]}", "ordered: false, groups: [board], states: [face]}")
    # The toy's event `ping` was raised by its own turn: a template raises it now (a declared event
    # must be raised by something).
    toy += "\ntemplates:\n  - {id: ping, rules: [\"5\"], params: {}, do: [{emit: {event: ping}}]}\n"
    (d / "all.yaml").write_text(toy, encoding="utf-8")
    cards = tmp / "cards"
    cards.mkdir()
    (cards / "battle.yaml").write_text(CARDS, encoding="utf-8")
    rb = load_rulebook(str(d))
    return rb, load_cards(rb, [cards])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return load(tmp_path_factory.mktemp("battle"), example())


def test_without_the_jump_the_battle_is_unreachable(tmp_path: Path) -> None:
    block = re.sub(r"\n *- jump: \{to: battle\}[^\n]*", "", example())
    with pytest.raises(LoadError) as e:
        load(tmp_path, block)
    assert "node 'turn.battle' can never be reached" in str(e.value)


def labels(d: Any) -> list[str]:
    return sorted(o.label.split(" [")[0] for o in d.options)


def attack(d: Any, name: str) -> str:
    return next(o.id for o in d.options if o.id.startswith("attack:") and name in o.label)


def test_the_battle_runs_between_play_timings_of_the_main_phase(env: tuple[Any, Any]) -> None:
    rb, cards = env
    g = build_game({"setup": {"start_at": "turn", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"},
                              "zones": {"P1": {"field": ["B-ONE", "B-TWO", "B-THREE"]}}}}, rb, cards)
    st = g.state
    d = g.advance()
    assert d.kind == "play" and labels(d) == ["attack One", "attack Three", "attack Two",
                                                                      "pass"]
    d = play(g, [attack(d, "One")])
    # The battle ran once, then the main phase's play timing came again: One has attacked.
    assert st.vars["battles"] == 1 and st.vars["last_attacker"] == "One" and st.vars.get("ended") is None
    assert d.kind == "play" and st.turn == 1 and labels(d) == [
        "attack Three", "attack Two", "pass"]
    d = play(g, [attack(d, "Two")])
    assert st.vars["battles"] == 2 and st.vars["last_attacker"] == "Two" and st.vars.get("ended") is None
    assert st.turn == 1 and labels(d) == ["attack Three", "pass"]
    d = play(g, ["pass"])
    # Passing ended the main phase and went to the end phase without a battle; the next turn's main phase
    # offers Three again.
    assert st.vars["ended"] is True and st.vars["battles"] == 2 and st.turn == 2
    assert labels(d) == ["attack Three", "pass"]
    log = texts(g)
    assert log.count("play moves to battle") == 2
    battle_steps = [i for i, t in enumerate(log) if t == "play moves to battle"]
    assert all(i < log.index("P1 passes") for i in battle_steps)
