"""Game actions as events (issue 29, items 4-6), on a variant of the toy rulebook.

A draw and a shuffle are events the rulebook raises from its own templates (a trigger on them fires;
`log: false` keeps them out of the log, which has the move and the shuffle already). A player's loss
and win are the engine's events `game_lost` / `game_won`: a rulebook that declares them has each loss
or win a `lose` / `win` step makes offered to replacement effects first ("if you would lose,
instead ..."), a concession never; a player who leaves a game that goes on raises `game_lost` for the
others' triggers. The load-time checks (a declared event nothing raises, a card-text phrase naming an
undeclared event) have their cases in tests/bad_input/ (event_never_raised, card_text_unknown_event).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from toy_engine import game_of, toy_variant

from interpreter.loader.diagnostics import LoadError

EVENTS = ('  - {id: ping, rules: ["5"], fields: []}',
          '  - {id: ping, rules: ["5"], fields: []}\n'
          '  - {id: drew, rules: ["5"], fields: [player, card], log: false}\n'
          '  - {id: shuffled, rules: ["5"], fields: [player, zone], log: false}\n'
          '  - {id: game_lost, rules: ["1"], fields: [player]}\n'
          '  - {id: game_won, rules: ["1"], fields: [player]}')

# The game's draw and shuffle, each raising its event (one per card drawn, none from an empty deck),
# and a rule process that makes a player with a card in the discard pile lose.
APPENDED = """templates:
  - id: draw
    rules: ["5"]
    params: {n: 1, player: "you"}
    do:
      - repeat:
          times: "n"
          do:
            - let: {drawn: "[]"}
            - move: {cards: "top('deck', player, 1)", to: hand, player: "player", as: drawn}
            - if:
                cond: "count(drawn) > 0"
                then:
                  - emit: {event: drew, player: "player", card: "drawn[0]"}
  - id: shuffle
    rules: ["5"]
    params: {player: "you"}
    do:
      - shuffle: {zone: deck, player: "player"}
      - emit: {event: shuffled, player: "player", zone: "'deck'"}
rule_processing:
  id: rule_processing
  rules: ["10"]
  processes:
    - id: defeat
      rules: ["10"]
      for_each_player: "players()"
      if: "count(cards('discard', p)) >= 1"
      do:
        - lose: {player: "p"}
"""

CARDS = """game: toy
cards:
  - id: G-DRAWER
    type: unit
    name: Drawer
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - call: {template: draw, n: 2}
  - id: G-SHUFFLER
    type: unit
    name: Shuffler
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - call: {template: shuffle}
  # When you draw a card: note its name.
  - id: G-EAR
    type: unit
    name: Ear
    power: 1
    abilities:
      - kind: reflex
        trigger: {event: drew, if: "event.player == you"}
        effect:
          - set_var: {name: heard, value: "as_list(heard) + [event.card.name]"}
  # When your deck is shuffled: count it.
  - id: G-RIFFLE
    type: unit
    name: Riffle
    power: 1
    abilities:
      - kind: reflex
        trigger: {event: shuffled, if: "event.player == you and event.zone == 'deck'"}
        effect:
          - set_var: {name: riffles, value: "sum([riffles]) + 1"}
  # If you would lose the game, instead put the cards of your discard pile into your deck.
  - id: G-WARD
    type: unit
    name: Ward
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: game_lost
          if: "event.player == you"
          instead:
            - move: {cards: "cards('discard', you)", to: deck}
            - set_var: {name: saved, value: "sum([saved]) + 1"}
  # If an opponent would win the game, instead nothing happens.
  - id: G-SPOILER
    type: unit
    name: Spoiler
    power: 1
    abilities:
      - kind: aura
        keywords: [in_field]
        effect:
          event: game_won
          if: "event.player != you"
          instead:
            - set_var: {name: spoiled, value: "event.player"}
  # When a player loses the game (and leaves it): note who.
  - id: G-MOURNER
    type: unit
    name: Mourner
    power: 1
    abilities:
      - kind: reflex
        trigger: {event: game_lost}
        effect:
          - set_var: {name: mourned, value: "as_list(mourned) + [event.player]"}
  - id: G-VICTOR
    type: unit
    name: Victor
    power: 1
    abilities:
      - kind: quick
        keywords: [in_field]
        effect:
          - win: {player: "you"}
  - id: G-DOOM
    type: unit
    name: Doom
    power: 1
    abilities:
      - kind: quick
        keywords: [in_field]
        effect:
          - lose: {player: "you"}
"""


def _env(tmp_path: Path, players: int = 2) -> tuple[Any, Any]:
    replace: tuple[tuple[str, str], ...] = (EVENTS,)
    if players > 2:
        replace += (("    - {id: ct_other, rules: [\"7\"], player: non_turn_player}",
                     "    - {id: ct_other, rules: [\"7\"], players: \"opponents(turn_player)\"}"),)
    return toy_variant(tmp_path, replace=replace, append=APPENDED, cards=CARDS,
                       head=(("count: 2}", f"count: {players}}}"),))


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return _env(tmp_path_factory.mktemp("game_events"))


def _use(g: Any, name: str) -> Any:
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and name in o.label)])
    return g.advance()


def _texts(g: Any) -> list[str]:
    return [e.text for e in g.entries]


# -- draws and shuffles --------------------------------------------------------------------------------
def test_a_draw_raises_one_event_per_card_and_a_trigger_on_it_fires(env):
    g = game_of(env, {"P1": {"field": ["G-EAR"], "hand": ["G-DRAWER"], "deck": ["U-PLAIN", "U-DASH"]}})
    _use(g, "Drawer")
    assert sorted(g.state.vars["heard"]) == ["Dash", "Plain"], "the trigger fired once for each card drawn"
    assert not any(t.startswith("event drew") for t in _texts(g)), "log: false keeps the event out of the log"
    assert sum(" moves from deck to hand" in t for t in _texts(g)) == 2, "the draws themselves are logged"


def test_drawing_from_an_empty_deck_raises_nothing(env):
    g = game_of(env, {"P1": {"field": ["G-EAR"], "hand": ["G-DRAWER"], "deck": ["U-PLAIN"]}})
    _use(g, "Drawer")
    assert g.state.vars["heard"] == ["Plain"]


def test_an_opponents_draw_is_not_yours(env):
    g = game_of(env, {"P1": {"hand": ["G-DRAWER"], "deck": ["U-PLAIN"]}, "P2": {"field": ["G-EAR"]}})
    _use(g, "Drawer")
    assert "heard" not in g.state.vars


def test_a_shuffle_raises_its_event_and_a_trigger_on_it_fires(env):
    g = game_of(env, {"P1": {"field": ["G-RIFFLE"], "hand": ["G-SHUFFLER"], "deck": ["U-PLAIN", "U-DASH"]}})
    _use(g, "Shuffler")
    assert g.state.vars["riffles"] == 1
    assert any(t.startswith("P1 shuffles deck") for t in _texts(g))
    assert not any(t.startswith("event shuffled") for t in _texts(g))


def test_an_event_without_log_false_is_logged(env):
    g = game_of(env, {"P1": {"field": ["U-PLAIN"]}})
    g.advance()
    assert "event ping" in _texts(g)


# -- losing and winning --------------------------------------------------------------------------------
def test_a_loss_by_a_rule_process_is_replaced(env):
    g = game_of(env, {"P1": {"field": ["G-WARD"], "discard": ["U-PLAIN"]}})
    g.advance()
    assert g.state.result is None, "the loss was replaced"
    assert g.state.vars["saved"] == 1
    assert [o.card_id for o in g.state.objects.values() if o.zone == "deck"] == ["U-PLAIN"]
    assert "game_lost is replaced" in _texts(g)


def test_a_concession_is_never_replaced(env):
    g = game_of(env, {"P1": {"field": ["G-WARD"]}})
    g.advance()
    g.concede(0)
    assert g.state.result is not None and g.state.result["winner"] == 1
    assert "saved" not in g.state.vars


def test_a_loss_an_effect_makes_is_replaced_too(env):
    g = game_of(env, {"P1": {"field": ["G-WARD", "G-DOOM"]}})
    _use(g, "Doom")
    assert g.state.result is None and g.state.vars["saved"] == 1


def test_a_replacement_applies_only_to_the_losses_it_names(env):
    # Both players meet the loss condition in one batch: P1's loss is replaced, P2's is not, so P2
    # loses alone (the batch is finalised together: without the replacement it would be a draw).
    g = game_of(env, {"P1": {"field": ["G-WARD"], "discard": ["U-PLAIN"]}, "P2": {"discard": ["U-DASH"]}})
    g.advance()
    assert g.state.result is not None and g.state.result["outcome"] == "win" and g.state.result["winner"] == 0


def test_without_a_replacement_losses_declared_together_are_a_draw(env):
    g = game_of(env, {"P1": {"discard": ["U-PLAIN"]}, "P2": {"discard": ["U-DASH"]}})
    g.advance()
    assert g.state.result is not None and g.state.result["outcome"] == "draw"


def test_a_win_is_replaced(env):
    g = game_of(env, {"P1": {"field": ["G-VICTOR"]}, "P2": {"field": ["G-SPOILER"]}})
    _use(g, "Victor")
    assert g.state.result is None and g.state.vars["spoiled"] == 0


def test_a_player_who_leaves_raises_game_lost_for_the_others(tmp_path):
    g = game_of(_env(tmp_path, players=3), {"P1": {"field": ["G-MOURNER"]}, "P2": {"discard": ["U-PLAIN"]},
                                            "P3": {"field": ["U-PLAIN"]}})
    g.advance()
    assert g.state.result is None and g.state.left == [1]
    assert g.state.vars["mourned"] == [1], "P1's ability triggered on P2's loss and resolved"


def test_an_undeclared_event_nothing_raises_is_a_load_error(tmp_path):
    with pytest.raises(LoadError) as e:
        toy_variant(tmp_path, replace=(EVENTS,), append=APPENDED.replace(
            "      - emit: {event: shuffled, player: \"player\", zone: \"'deck'\"}\n", ""))
    assert "event 'shuffled' is declared but nothing raises it" in str(e.value)


# -- the five games alike ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["lovelive", "haikyu", "hololive", "rebirth", "osica"])
def test_every_game_draws_and_shuffles_alike(game):
    from interpreter.loader.rulebook import load_rulebook

    rb = load_rulebook(game)
    assert rb.events["drew"].get("fields") == ["player", "card"] and rb.events["drew"].get("log") is False
    if game == "osica":  # no shuffle action and no card reacting to a win (decision no_shuffle_or_outcome_events)
        assert not {"shuffled", "game_lost", "game_won"} & set(rb.events)
        return
    assert rb.events["shuffled"].get("fields") == ["player", "zone"] and rb.events["shuffled"].get("log") is False
    assert rb.events["game_lost"].get("fields") == ["player"] and rb.events["game_won"].get("fields") == ["player"]
