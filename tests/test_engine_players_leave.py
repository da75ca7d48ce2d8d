"""More than two players (issue 20's foundation): a player who loses while others play on leaves the
game (Re:Birth 12.4): the cards they own cease to exist, their pending abilities and effects end and
nothing is processed for them; `players()`, `other()` and `opponents()` skip them; the last player in
wins; several players may win together. With two players nothing changes (the golden transcripts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, toy_variant

from interpreter.engine.invariants import check_invariants
from interpreter.table.context import Ctx
from interpreter.timing.outcomes import finalize_outcomes

CARDS = """game: toy
cards:
  - id: T-DOOM
    type: unit
    name: Doom
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - lose: {player: "you"}
  - id: T-TRIUMPH
    type: unit
    name: Triumph
    power: 1
    abilities:
      - kind: quick
        keywords: [on_board]
        effect:
          - win: {player: "[you, other(you)]"}
"""


def _env(tmp_path: Path, players: int = 3) -> tuple[Any, Any]:
    return toy_variant(tmp_path, cards=CARDS, head=(("count: 2}", f"count: {players}}}"),), replace=(
        ("    - {id: ct_other, rules: [\"7\"], player: non_turn_player}",
         "    - {id: ct_other, rules: [\"7\"], players: \"opponents(turn_player)\"}"),))


def _game(env: tuple[Any, Any], zones: dict[str, Any]) -> Any:
    return game_of(env, zones)


def _ctx(g: Any) -> Ctx:
    return Ctx(g, None, you=0)


def test_a_loser_leaves_and_the_last_player_in_wins(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["U-PLAIN"]}, "P2": {"field": ["T-DOOM"], "hand": ["U-PLAIN"]},
                               "P3": {"field": ["T-DOOM"]}})
    total = len(g.state.objects)
    g.advance()
    texts = [e.text for e in g.entries]
    assert "P2 leaves the game" in texts and "P3 leaves the game" not in texts
    assert g.state.result == {"outcome": "win", "winner": 0, "rules": g.state.result["rules"],
                              "turn": g.state.result["turn"]}
    assert g.state.left == [1], "the last loser did not leave: the game ended with P1 the only one in"
    assert not any(o.owner == 1 for o in g.state.objects.values()), "P2's cards ceased to exist"
    assert g.state.cards_gone == 2
    check_invariants(g, None, total)  # the cards gone with P2 are counted, not lost


def test_players_other_and_opponents_skip_a_player_who_left(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["U-PLAIN"]}, "P2": {"hand": ["U-PLAIN"]}, "P3": {}})
    finalize_outcomes(g, [(1, "lose")], ("1",))
    assert g.state.result is None, "two players are still in"
    assert g.players_in() == [0, 2]
    assert g._other(0) == 2 and g._other(2) == 0
    from interpreter.table.functions import f_opponents, f_players

    assert f_players(_ctx(g)) == [0, 2] and f_opponents(_ctx(g), 0) == [2]


def test_losers_together_leave_nobody_is_a_draw(tmp_path):
    g = _game(_env(tmp_path), {"P1": {}, "P2": {}, "P3": {}})
    finalize_outcomes(g, [(0, "lose"), (1, "lose"), (2, "lose")], ("1",))
    assert g.state.result["outcome"] == "draw" and g.state.result["winner"] is None


def test_two_players_win_together(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["T-TRIUMPH"]}, "P2": {}, "P3": {}})
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    g.advance()
    r = g.state.result
    assert r["outcome"] == "win" and r["winners"] == [0, 1] and r["winner"] is None
    assert "P1 and P2 win the game" in [e.text for e in g.entries]


def test_a_concession_with_others_playing_on(tmp_path):
    g = _game(_env(tmp_path), {"P1": {"field": ["U-PLAIN"]}, "P2": {"field": ["T-DOOM"]}, "P3": {}})
    g.concede(2)
    assert g.state.result is None and g.state.left == [2]
    g.advance()  # P2's Doom: P2 loses too, P1 is the last one in
    assert g.state.result["winner"] == 0


def test_with_two_players_a_loser_does_not_leave_the_other_wins(tmp_path):
    g = _game(_env(tmp_path, players=2), {"P1": {"field": ["U-PLAIN"]}, "P2": {"field": ["T-DOOM"]}})
    g.advance()
    assert g.state.result["winner"] == 0 and "winners" not in g.state.result
    assert g.state.left == [], "the game ended; nobody needed to leave"
