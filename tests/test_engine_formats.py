"""Formats (issue 20): a rulebook lists `formats`, each a file formats/ID.yaml with its seat counts,
its teams and edits in the language of rules versions; `load_rulebook(game, fmt=ID)` plays it.
Teammates win together, and with `lose_together` one player leaving makes the team lose."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY

from interpreter.loader.cards import load_cards
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game
from interpreter.table.context import Ctx
from interpreter.table.functions import f_opponents, f_teammates
from interpreter.timing.outcomes import finalize_outcomes

TRIO = """id: trio
title: Three at once
rules: ["1"]
players: {id: trio_players, rules: ["1"], count: 3, counts: [3, 4]}
edits:
  - note: a function the format adds
    add:
      functions:
        - {id: seats_in, rules: ["1"], params: [], expr: "count(players())"}
"""

PAIRS = """id: pairs
rules: ["1"]
players: {id: pairs_players, rules: ["1"], count: 4}
teams: {id: pairs_teams, rules: ["1"], seats: [[1, 3], [2, 4]], lose_together: true}
"""


def _dir(tmp_path: Path, trio: str = TRIO) -> Path:
    d = tmp_path / "toy"
    shutil.copytree(TOY, d)
    head = (d / "rulebook.yaml").read_text(encoding="utf-8")
    (d / "rulebook.yaml").write_text(head.replace("parts:", "formats: [trio, pairs]\nparts:"), encoding="utf-8")
    (d / "formats").mkdir()
    (d / "formats" / "trio.yaml").write_text(trio, encoding="utf-8")
    (d / "formats" / "pairs.yaml").write_text(PAIRS, encoding="utf-8")
    return d


def _game(rb: Any, zones: dict[str, Any]) -> Any:
    cards = load_cards(rb, [TOY / "cards"])
    sc = {"setup": {"start_at": "round", "turn": 0, "roles": {"mover": "P1", "other_side": "P2"}, "zones": zones}}
    return build_game(sc, rb, cards)


def test_a_format_sets_players_and_edits_the_rulebook(tmp_path):
    d = _dir(tmp_path)
    plain = load_rulebook(str(d))
    assert plain.format is None and plain.raw["players"]["count"] == 2 and "seats_in" not in plain.functions
    trio = load_rulebook(str(d), fmt="trio")
    assert trio.format == {"id": "trio", "title": "Three at once", "rules": ["1"]}
    assert trio.raw["players"]["counts"] == [3, 4]
    assert "seats_in" in trio.functions
    g = _game(trio, {})
    assert g.state.num_players == 3


def test_an_unknown_format_is_named_with_the_known_ones(tmp_path):
    with pytest.raises(LoadError) as err:
        load_rulebook(str(_dir(tmp_path)), fmt="quartet")
    assert "no format 'quartet' (this rulebook has: trio, pairs)" in str(err.value)
    assert "rulebook.yaml:" in str(err.value)


def test_a_format_file_problem_is_located_in_it(tmp_path):
    d = _dir(tmp_path, TRIO.replace("count: 3,", "count: three,"))
    with pytest.raises(LoadError) as err:
        load_rulebook(str(d), fmt="trio")
    assert "formats/trio.yaml:4:" in str(err.value)


def test_teammates_and_opponents(tmp_path):
    g = _game(load_rulebook(str(_dir(tmp_path)), fmt="pairs"), {})
    ctx = Ctx(g, None, you=0)
    assert f_teammates(ctx, 0) == [2] and f_opponents(ctx, 0) == [1, 3]


def test_a_team_loses_together_and_the_other_team_wins(tmp_path):
    g = _game(load_rulebook(str(_dir(tmp_path)), fmt="pairs"), {"P1": {"hand": ["U-PLAIN"]}})
    finalize_outcomes(g, [(0, "lose")], ("1",))
    r = g.state.result
    assert r["outcome"] == "win" and r["winners"] == [1, 3]
    assert sorted(g.state.left) == [0, 2], "P1 lost and P3 with them"


def test_a_team_wins_together(tmp_path):
    g = _game(load_rulebook(str(_dir(tmp_path)), fmt="pairs"), {})
    finalize_outcomes(g, [(1, "win")], ("1",))
    assert g.state.result["winners"] == [1, 3]


def test_rebirth_formats_say_who_the_opponents_and_the_players_are():
    """Re:Birth 12.5.4, 12.6.4, 12.7.9, 12.7.10.1: 相手 and プレイヤー per format (rulebook functions
    the formats replace), with four seats."""
    from interpreter.cli.setup import load_game_env
    from interpreter.engine.game import Game
    from interpreter.loader.compile import Loc
    from interpreter.loader.yaml_safe import SourceMap

    def ask(fmt: str, expr: str) -> Any:
        rb, cards, decks = load_game_env("rebirth", None, 4, fmt)
        g = Game(rb, cards, decks, seed=1)
        return rb.compiler.expr(expr, Loc("t", SourceMap("t"), ()))(Ctx(g, None, you=0))

    assert ask("rumble", "[opponents_of(0), all_players_for(0)]") == [[1, 2, 3], [0, 1, 2, 3]]
    assert ask("circle", "[opponents_of(0), all_players_for(0)]") == [[1, 3], [0, 1, 3]]
    assert ask("double_team", "[opponents_of(0), allies(0), opponents_designated(0)]") == [[1, 3], [0, 2], 1]
