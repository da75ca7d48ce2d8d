"""Multiplayer mechanisms (issue 20), on the toy rulebook with three or four seats: turn order from a
player, the seating as the turn began (a player who left keeps an empty place until the turn ends),
team turns and turns taken, play timing shared by several players until all pass in a row, pending
abilities pooled by team, choosing several players, designations (a played effect's "the opponent"
designated as it resolves, a continuous ability's meaning otherwise), a format's winners when players
leave, formats extending formats, teammates seeing each other's cards, and a departed player passing."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from toy_engine import TOY, play, texts

from interpreter.engine.walker import enter
from interpreter.loader.cards import load_cards
from interpreter.loader.compile import Loc
from interpreter.loader.diagnostics import LoadError
from interpreter.loader.rulebook import load_rulebook
from interpreter.loader.yaml_safe import SourceMap
from interpreter.scenarios.runner import build_game
from interpreter.table.context import Ctx
from interpreter.table.views import can_see, describe_for
from interpreter.timing.moves import move_card
from interpreter.timing.outcomes import finalize_outcomes

CARDS = """game: toy
cards:
  - id: M-TAP
    type: unit
    name: Tap
    power: 1
    abilities:
      - kind: quick
        effect:
          - set_var: {name: taps, value: "sum([taps]) + 1"}
  - id: M-PING
    type: unit
    name: Ping
    power: 1
    abilities:
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: order, value: "as_list(order) + [you]"}
  - id: M-SQUEEZE
    type: unit
    name: Squeeze
    power: 1
    abilities:
      - kind: quick
        effect:
          - for_each:
              in: foe_set
              as: f
              do:
                - move: {cards: "cards('hand', f)", to: discard, player: "f"}
  - id: M-WEAKEN
    type: unit
    name: Weaken
    power: 1
    abilities:
      - kind: aura
        effect:
          affects: "cards_of('field', foe_set)"
          modify: {power: {add: -1}}
"""

DESIGNATIONS = """
designations:
  - id: designated_foes
    rules: ["10"]
    name: foe_set
    from: "opponents(you)"
    count: "foes_named(you)"
    otherwise: "opponents(you)"
functions:
  - {id: foes_named, rules: ["10"], params: [p], expr: "1"}
"""

FORMATS = {
    "trio": 'id: trio\nrules: ["1"]\nplayers: {id: trio_players, rules: ["1"], count: 3, counts: [3, 4]}\n',
    "pairs": ('id: pairs\nrules: ["1"]\nplayers: {id: pairs_players, rules: ["1"], count: 4}\n'
              'teams: {id: pairs_teams, rules: ["1"], seats: [[1, 3], [2, 4]], turns: team, share_hidden: true}\n'),
    "trio_last_out": ('id: trio_last_out\nrules: ["1"]\nextends: trio\n'
                      'after_leaving: {id: next_wins, rules: ["1"],\n'
                      '                winners: "players() where next_player(it) in leavers"}\n'
                      'edits:\n  - add:\n      functions:\n'
                      '        - {id: extended, rules: ["1"], params: [], expr: "true"}\n'),
    "loop_a": 'id: loop_a\nrules: ["1"]\nextends: loop_b\n',
    "loop_b": 'id: loop_b\nrules: ["1"]\nextends: loop_a\n',
}


def _book(tmp_path: Path, *, all_edits: tuple[tuple[str, str], ...] = (), append: str = "") -> Path:
    d = tmp_path / "toy"
    shutil.copytree(TOY, d)
    text = (d / "all.yaml").read_text(encoding="utf-8")
    for old, new in all_edits:
        assert old in text, old
        text = text.replace(old, new)
    (d / "all.yaml").write_text(text + DESIGNATIONS + append, encoding="utf-8")
    head = (d / "rulebook.yaml").read_text(encoding="utf-8")
    (d / "rulebook.yaml").write_text(head.replace("parts:", f"formats: [{', '.join(FORMATS)}]\nparts:"),
                                     encoding="utf-8")
    (d / "formats").mkdir()
    for name, body in FORMATS.items():
        (d / "formats" / f"{name}.yaml").write_text(body, encoding="utf-8")
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "multi.yaml").write_text(CARDS, encoding="utf-8")
    return d


def _game(book: Path, fmt: str, zones: dict[str, Any], players: int | None = None, mover: str = "P1") -> Any:
    rb = load_rulebook(str(book), fmt=fmt)
    cards = load_cards(rb, [TOY / "cards", book.parent / "cards"])
    sc = {"players": players, "setup": {"start_at": "round", "turn": 0,
                                        "roles": {"mover": mover, "other_side": "P2"}, "zones": zones}}
    return build_game({k: v for k, v in sc.items() if v is not None}, rb, cards)


def _ctx(g: Any, you: int = 0) -> Ctx:
    return Ctx(g, None, you=you)


def _eval(g: Any, expr: str, you: int = 0) -> Any:
    return g.rb.compiler.expr(expr, Loc("test", SourceMap("test"), ()))(_ctx(g, you))


def _use(g: Any) -> Any:
    """Take the first `use` action offered; returns the next decision."""
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    return g.advance()


def test_turn_order_starts_with_a_player_and_skips_those_who_left(tmp_path):
    g = _game(_book(tmp_path), "trio", {}, players=4)
    assert _eval(g, "players_from(2)") == [2, 3, 0, 1]
    finalize_outcomes(g, [(3, "lose")], ("1",))
    assert _eval(g, "players_from(2)") == [2, 0, 1]
    assert _eval(g, "players_from(3)") == [0, 1, 2], "a player who left: from the next one"
    assert _eval(g, "players_left()") == [3]


def test_a_player_who_leaves_keeps_an_empty_place_until_the_turn_ends(tmp_path):
    g = _game(_book(tmp_path), "trio", {}, players=4)
    enter(g, g.rb.graph.nodes["round"])  # a turn begins: the seating is taken
    assert _eval(g, "[previous_player(0), next_player(0)]") == [3, 1]
    finalize_outcomes(g, [(1, "lose")], ("1",))
    assert _eval(g, "next_player(0)") == 1, "P2's place stays, empty, for the rest of the turn"
    assert _eval(g, "[next_player(0)] where it in players()") == []
    assert _eval(g, "previous_player(2)") == 1
    enter(g, g.rb.graph.nodes["round"])  # the next turn: P2's place is gone
    assert _eval(g, "[next_player(0), previous_player(2)]") == [2, 0]


def test_team_turns_and_turns_taken(tmp_path):
    g = _game(_book(tmp_path), "pairs", {}, mover="P2")
    enter(g, g.rb.graph.nodes["round"])
    assert _eval(g, "turn_team()") == [1, 3]
    assert _eval(g, "[turns_taken(0), turns_taken(1), turns_taken(2), turns_taken(3)]") == [0, 1, 0, 1]
    solo = _game(_book(tmp_path / "solo"), "trio", {}, mover="P3")
    enter(solo, solo.rb.graph.nodes["round"])
    assert _eval(solo, "turn_team()") == [2]
    assert _eval(solo, "[turns_taken(0), turns_taken(2)]") == [0, 1]


def test_teammates_see_each_others_hidden_cards(tmp_path):
    g = _game(_book(tmp_path), "pairs", {"P1": {"hand": ["U-PLAIN"]}})
    card = g.state.objects[g.state.zones[("hand", 0)][0]]
    assert can_see(g, card, 0) and can_see(g, card, 2), "P3 is P1's teammate"
    assert not can_see(g, card, 1) and not can_see(g, card, 3)
    assert "Plain" in describe_for(g, card, 2) and "hidden" in describe_for(g, card, 1)
    assert g.view(2)["zones"]["hand@P1"][0]["card"] == "U-PLAIN", "the teammate's board shows it"
    assert g.view(1)["zones"]["hand@P1"][0]["card"] is None


def test_play_timing_for_several_players_goes_round_until_all_pass_in_a_row(tmp_path):
    book = _book(tmp_path, all_edits=(('play_timing: {player: "turn_player", actions: [use, give_up]}',
                                       'play_timing: {player: "players_from(turn_player)", actions: [use]}'),))
    g = _game(book, "trio", {"P1": {"field": ["M-TAP"]}, "P2": {"field": ["M-TAP"]}, "P3": {"field": ["M-TAP"]}})
    g.stop_at = "two"
    asked = []
    # P1 taps, P2 passes, P3 taps, P1 passes, P2 passes, P3 passes: three passes in a row end it.
    for answer in ["use:", "pass", "use:", "pass", "pass", "pass"]:
        d = g.advance()
        asked.append(d.player)
        g.answer([next(o.id for o in d.options if o.id.startswith(answer))])
    assert g.advance() is None
    assert asked == [0, 1, 2, 0, 1, 2]
    assert g.state.vars["taps"] == 2


def test_play_timing_passed_in_order_needs_a_round_of_passes_from_the_first_player(tmp_path):
    """`end: passed_in_order`: the turn player passing and then the others end it; the others
    passing and then the turn player does not (the round must start with the first of the list)."""
    book = _book(tmp_path, all_edits=(('play_timing: {player: "turn_player", actions: [use, give_up]}',
                                       'play_timing: {player: "players_from(turn_player)", actions: [use],'
                                       ' end: passed_in_order}'),))
    g = _game(book, "trio", {"P1": {"field": ["M-TAP"]}, "P2": {"field": ["M-TAP"]}, "P3": {"field": ["M-TAP"]}})
    g.stop_at = "two"
    asked = []
    # P1 taps, P2 and P3 pass, P1 passes: three in a row, but begun by P2, so it goes on; P2 and P3
    # pass again, and P1, P2, P3 have now passed in order.
    for answer in ["use:", "pass", "pass", "pass", "pass", "pass"]:
        d = g.advance()
        asked.append(d.player)
        g.answer([next(o.id for o in d.options if o.id.startswith(answer))])
    assert g.advance() is None
    assert asked == [0, 1, 2, 0, 1, 2]
    assert g.state.vars["taps"] == 1


def test_pending_abilities_are_pooled_by_team_when_the_order_says_so(tmp_path):
    book = _book(tmp_path, all_edits=(
        ('    - {id: ct_mover, rules: ["7"], player: turn_player}\n'
         '    - {id: ct_other, rules: ["7"], player: non_turn_player}',
         '    - {id: ct_teams, rules: ["7"], players: "players_from(turn_player)", by_team: true}'),))
    g = _game(book, "pairs", {p: {"field": ["M-PING"]} for p in ("P1", "P2", "P3", "P4")})
    g.stop_at = "three"
    d = play(g, [])
    assert d is not None and d.player == 0 and d.prompt == "choose_pending_ability"
    assert len(d.options) == 2, "P1 chooses among P1's and P3's (the turn team's) abilities"
    p3 = next(o.id for o in d.options if o.value.master == 2)
    g.answer([p3])
    d = g.advance()  # P1's own is all the team has left: it resolves; then P2 chooses for P2 and P4
    while d is not None and d.prompt != "choose_pending_ability":
        g.answer([d.options[-1].id])
        d = g.advance()
    assert d is not None and d.player == 1 and len(d.options) == 2
    g.answer([d.options[0].id])
    while (d := g.advance()) is not None:
        g.answer([d.options[-1].id])
    assert g.state.vars["order"][:2] == [2, 0] and sorted(g.state.vars["order"][2:]) == [1, 3]


def test_choose_player_takes_several_and_asks_only_when_there_is_a_choice(tmp_path):
    cards = CARDS + "".join(f"""  - id: M-PICK{n}
    type: unit
    name: Pick {n}
    power: 1
    abilities:
      - kind: quick
        effect:
          - choose_player: {{player: you, from: "opponents(you)", min: {n}, max: {n}, as: picked}}
          - set_var: {{name: picked, value: picked}}
""" for n in (1, 2))
    book = _book(tmp_path)
    (tmp_path / "cards" / "multi.yaml").write_text(cards, encoding="utf-8")
    for n, asked in ((2, False), (1, True)):
        g = _game(book, "trio", {"P1": {"field": [f"M-PICK{n}"]}})
        d = _use(g)
        if asked:
            assert d.prompt == "choose_player" and [o.id for o in d.options] == ["p2", "p3"]
            g.answer(["p3"])
            d = g.advance()
        assert g.state.vars["picked"] == ([1, 2] if n == 2 else [2])


def test_a_played_effect_designates_and_a_continuous_one_means_every_opponent(tmp_path):
    book = _book(tmp_path)
    zones = {"P1": {"field": ["M-SQUEEZE", "M-WEAKEN"]}, "P2": {"hand": ["U-PLAIN"], "field": ["U-PLAIN"]},
             "P3": {"hand": ["U-PLAIN"], "field": ["U-PLAIN"]}}
    g = _game(book, "trio", zones)
    weak = [g.attr(g.state.objects[o], "power") for p in (1, 2) for o in g.state.zones[("field", p)]]
    assert weak == [1, 1], "the continuous ability: every opponent's field (foe_set means opponents(you))"
    d = _use(g)
    assert d.prompt == "designated_foes" and [o.id for o in d.options] == ["p2", "p3"]
    g.answer(["p3"])
    g.advance()
    assert len(g.state.zones[("hand", 1)]) == 1 and len(g.state.zones[("hand", 2)]) == 0
    assert "P1 designates P3" in texts(g)


def test_a_designation_of_every_candidate_asks_nothing(tmp_path):
    book = _book(tmp_path, append="")
    text = (book / "all.yaml").read_text(encoding="utf-8").replace('expr: "1"}', 'expr: "count(opponents(p))"}')
    (book / "all.yaml").write_text(text, encoding="utf-8")
    g = _game(book, "trio", {"P1": {"field": ["M-SQUEEZE"]}, "P2": {"hand": ["U-PLAIN"]}, "P3": {"hand": ["U-PLAIN"]}})
    d = _use(g)
    assert d is None or d.prompt != "designated_foes"
    assert g.state.zones[("hand", 1)] == [] and g.state.zones[("hand", 2)] == []


def test_a_format_names_the_winners_when_players_leave(tmp_path):
    g = _game(_book(tmp_path), "trio_last_out", {}, players=4)
    enter(g, g.rb.graph.nodes["round"])
    finalize_outcomes(g, [(2, "lose")], ("1",))
    assert g.state.result["outcome"] == "win" and g.state.result["winner"] == 1, "P2 sat right before P3"
    both = _game(_book(tmp_path / "b"), "trio_last_out", {}, players=4)
    enter(both, both.rb.graph.nodes["round"])
    finalize_outcomes(both, [(1, "lose"), (2, "lose")], ("1",))
    assert both.state.result["winner"] == 0, "P1's next (P2) left; P4's next (P1) did not"
    pair = _game(_book(tmp_path / "c"), "trio_last_out", {}, players=4)
    enter(pair, pair.rb.graph.nodes["round"])
    finalize_outcomes(pair, [(1, "lose"), (3, "lose")], ("1",))
    assert pair.state.result["winners"] == [0, 2], "each of P1 and P3 sat right before a player who left"


def test_a_format_extends_another(tmp_path):
    rb = load_rulebook(str(_book(tmp_path)), fmt="trio_last_out")
    assert rb.raw["players"]["counts"] == [3, 4], "players inherited from trio"
    assert "extended" in rb.functions and rb.after_leaving is not None
    assert rb.format["extends"] == "trio"


def test_a_format_cannot_extend_itself(tmp_path):
    with pytest.raises(LoadError) as err:
        load_rulebook(str(_book(tmp_path)), fmt="loop_a")
    assert "extends itself" in str(err.value) and "formats/loop_b.yaml:3:" in str(err.value)


def test_a_departed_player_passes_at_play_timing(tmp_path):
    book = _book(tmp_path)
    g = _game(book, "trio", {"P1": {"field": ["M-TAP"]}, "P2": {"field": ["U-PLAIN"]}})
    finalize_outcomes(g, [(0, "lose")], ("1",))
    g.stop_at = "two"
    assert g.advance() is None
    assert "taps" not in g.state.vars and "P1 passes" in texts(g)


def test_a_watched_leaving_rule_is_checked_after_every_move(tmp_path):
    """`after_leaving.watch`: once a player has left, the winners are looked for after every action
    (Re:Birth 12.5.3.2: the moment one player has strictly the fewest cards somewhere)."""
    book = _book(tmp_path)
    fewest = ('after_leaving: {id: fewest, rules: ["1"], watch: true,\n'
              '                winners: "players() where count(players() where count(cards(\'discard\', it)) <= 0) == 1'
              ' and count(cards(\'discard\', it)) == 0"}\n')
    (book / "formats" / "trio.yaml").write_text(FORMATS["trio"] + fewest, encoding="utf-8")
    g = _game(book, "trio", {"P1": {"hand": ["U-PLAIN"]}, "P2": {"hand": ["U-PLAIN"]}, "P3": {"hand": ["U-PLAIN"]}},
              players=4)
    finalize_outcomes(g, [(3, "lose")], ("1",))
    assert g.state.result is None, "three players share the fewest (none): the game goes on"
    ctx = _ctx(g, 1)
    for p in (1, 2):
        card = g.state.objects[g.state.zones[("hand", p)][0]]
        list(move_card(g, card, "discard", p, ctx))
        if p == 1:
            assert g.state.result is None, "P1 and P3 still share the fewest"
    assert g.state.result["winner"] == 0, "the moment P1 alone has the fewest, P1 wins"


def test_an_ability_whose_master_leaves_ends_where_it_stands(tmp_path):
    cards = CARDS + """  - id: M-FALL
    type: unit
    name: Fall
    power: 1
    abilities:
      - kind: quick
        effect:
          - lose: {player: "you"}
          - set_var: {name: after_leaving, value: true}
"""
    book = _book(tmp_path)
    (tmp_path / "cards" / "multi.yaml").write_text(cards, encoding="utf-8")
    g = _game(book, "trio", {"P1": {"field": ["M-FALL"]}})
    _use(g)
    assert g.state.left == [0] and "after_leaving" not in g.state.vars, "12.4.4: the rest of it is not done"
