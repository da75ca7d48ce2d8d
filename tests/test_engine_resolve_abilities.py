"""A card's own abilities of one kind carried out by a rule or an action (verb resolve_abilities:
hololive's support text as the card is played, 'when downed' abilities inside down processing), and
whether such an ability could be paid for now (function payable: a support card that would change
nothing cannot be played, hololive 10.7.2.3.7)."""

from __future__ import annotations

from pathlib import Path

from toy_engine import game_of, toy_variant

KIND = ("  - {id: aura, rules: [\"4\"], played: never}",
        "  - {id: aura, rules: [\"4\"], played: never}\n  - {id: text, rules: [\"4\"]}")

ACTION = """
templates:
  - id: only_if
    rules: ["4"]
    params: {cond: true}
    can: "cond"
    do: []
"""

CARDS = """game: toy
cards:
  - id: R-BOOK
    type: unit
    name: Book
    power: 1
    abilities:
      - kind: text
        cost:
          - call: {template: only_if, cond: "count(cards('deck', you)) > 0"}
        effect:
          - move: {cards: "top('deck', you, 1)", to: hand}
      - kind: text
        effect:
          - set_var: {name: second_text, value: true}
"""


def _env(tmp_path: Path):
    act = ('  - {id: use, rules: ["7"], kind: activate}',
           '  - {id: use, rules: ["7"], kind: activate}\n'
           '  - id: read\n    rules: ["7"]\n    kind: play_card\n'
           '    candidates: "cards(\'hand\', you) where payable(it, \'text\')"\n'
           '    do:\n      - resolve_abilities: {card: "this", kind: text}\n')
    return toy_variant(tmp_path, append=ACTION, cards=CARDS, replace=(KIND, act,
        ('play_timing: {player: "turn_player", actions: [use, give_up]}',
         'play_timing: {player: "turn_player", actions: [use, give_up, read]}')))


def test_a_cards_abilities_of_a_kind_are_carried_out_in_the_order_chosen(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"hand": ["R-BOOK"], "deck": ["U-PLAIN"]}})
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("read:"))])
    d = g.advance()
    assert d.prompt == "choose_ability_order" and len(d.options) == 2
    g.answer([d.options[1].id])  # the second first
    g.advance()
    assert g.state.vars.get("second_text") is True
    hand = [g.state.objects[o].card_id for o in g.state.zone("hand", 0)]
    assert "U-PLAIN" in hand, "then the first: its cost could be paid, a card was drawn"


def test_payable_reads_the_cost_of_a_kind(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"hand": ["R-BOOK"]}})
    d = g.advance()
    # The second text has no cost, so the card could still do something: it is offered.
    assert any(o.id.startswith("read:") for o in d.options)
    second = "      - kind: text\n        effect:\n          - set_var: {name: second_text, value: true}\n"
    bare = CARDS.replace(second, "")
    env = toy_variant(tmp_path / "bare", append=ACTION, cards=bare, replace=(KIND,))
    g2 = game_of(env, {"P1": {"hand": ["R-BOOK"]}})
    book = g2.state.objects[g2.state.zone("hand", 0)[0]]
    from interpreter.table.context import Ctx
    from interpreter.table.functions import f_payable
    assert f_payable(Ctx(g2, None, you=0), book, "text") is False, "an empty deck: nothing to draw"


# ---- abilities of several cards carried out on an event (resolve_abilities with `event`) ----------
# A rule process's own kind of ability ("when downed" in hololive, 10.1.1.2.3): no auto ability, but
# an ability with a trigger that a rule carries out when its event happens, the turn player's first.

FALL_KIND = ("  - {id: aura, rules: [\"4\"], played: never}",
             "  - {id: aura, rules: [\"4\"], played: never}\n  - {id: fall, rules: [\"4\"]}")
FALL_EVENT = ('  - {id: ping, rules: ["5"], fields: []}',
              '  - {id: ping, rules: ["5"], fields: []}\n  - {id: fell, rules: ["5"], fields: [card, by]}')
FALL_KEYWORDS = ('  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}',
                 '  - {id: from_discard, rules: ["4"], kind: active_zones, zones: [discard]}\n'
                 '  - {id: once_a_turn, rules: ["4"], kind: limit, uses_per_turn: 1}\n'
                 '  - {id: when_fell, rules: ["4"], kind: trigger, trigger: {event: fell, if: "event.card == this"}}')

FALL_CARDS = """game: toy
cards:
  - id: F-PUSH
    type: unit
    name: Push
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - call:
              template: fell
              card: "(cards('field', other(you)) where it.name == 'Victim')[0]"
              by: "(cards('field', you) where it.name == 'Hunter')[0]"
  - id: F-VICTIM
    type: unit
    name: Victim
    power: 1
    abilities:
      - kind: fall
        keywords: [when_fell]
        effect:
          - set_var: {name: record, value: "as_list(record) + ['victim']"}
  - id: F-CHARM
    type: unit
    name: Charm
    power: 1
    abilities:
      - kind: fall
        keywords: [once_a_turn]
        optional: true
        trigger: {event: fell, if: "event.card.controller == you"}
        cost:
          - move: {cards: "top('deck', you, 1)", to: discard}
        effect:
          - set_var: {name: record, value: "as_list(record) + ['charm:' + event.card.name]"}
  - id: F-HUNTER
    type: unit
    name: Hunter
    power: 1
    abilities:
      - kind: fall
        trigger: {event: fell, if: "event.by == this"}
        effect:
          - set_var: {name: record, value: "as_list(record) + ['hunter']"}
  - id: F-WATCHER
    type: unit
    name: Watcher
    power: 1
    abilities:
      - kind: fall
        trigger: {event: fell}
        effect:
          - set_var: {name: record, value: "as_list(record) + ['watcher:' + str(you)]"}
  - id: F-DEAF
    type: unit
    name: Deaf
    power: 1
    abilities:
      - kind: fall
        trigger: {event: fell, if: "event.by == this"}
        effect:
          - set_var: {name: record, value: "as_list(record) + ['deaf']"}
"""


# The rule that carries the abilities out when a card falls, raising the event fell.
FALL_TEMPLATES = """templates:
  - id: fell
    rules: ["5"]
    params: {card: null, by: null}
    do:
      - resolve_abilities:
          kind: fall
          event: fell
          fields: {card: "card", by: "by"}
          players: "players_from(turn_player)"
"""


def _fall_env(tmp_path: Path):
    return toy_variant(tmp_path, cards=FALL_CARDS, replace=(FALL_KIND, FALL_EVENT, FALL_KEYWORDS),
                       append=FALL_TEMPLATES)


def _push(g):
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and "F-PUSH" in o.label)])
    return g.advance()


def test_abilities_on_an_event_turn_player_first_each_choosing_the_order(tmp_path):
    zones = {"P1": {"hand": ["F-PUSH"], "field": ["F-HUNTER", "F-WATCHER", "F-DEAF"]},
             "P2": {"field": ["F-VICTIM", "F-CHARM", "F-WATCHER"], "deck": ["U-PLAIN"]}}
    g = game_of(_fall_env(tmp_path), zones)
    d = _push(g)
    # P1's two abilities that hold (the hunter that felled it, a watcher; not the other unit) first.
    assert d.player == 0 and d.prompt == "choose_ability_order"
    assert sorted(o.label.split(" [")[0] for o in d.options) == ["Hunter", "Watcher"]
    g.answer([next(o.id for o in d.options if o.label.startswith("Watcher"))])
    d = g.advance()
    # Then P2's three: the felled card's own, the charm (any of P2's felled), a watcher.
    assert d.player == 1 and d.prompt == "choose_ability_order" and len(d.options) == 3
    g.answer([next(o.id for o in d.options if o.label.startswith("Charm"))])
    d = g.advance()
    assert d.player == 1 and d.prompt == "pay_optional_cost"  # the charm is optional, with a cost
    g.answer(["yes"])
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.label.startswith("Victim"))])
    g.advance()
    assert g.state.vars["record"] == ["watcher:0", "hunter", "charm:Victim", "victim", "watcher:1"]
    assert [g.state.objects[o].card_id for o in g.state.zone("discard", 1)] == ["U-PLAIN"], "the charm's cost"


def test_an_optional_ability_on_an_event_declined_and_a_used_up_one_skipped(tmp_path):
    zones = {"P1": {"hand": ["F-PUSH", "F-PUSH", "F-PUSH"], "field": ["F-HUNTER"]},
             "P2": {"field": ["F-VICTIM", "F-CHARM"], "deck": ["U-PLAIN", "U-PLAIN"]}}
    g = game_of(_fall_env(tmp_path), zones)

    def charm_first(answer: str) -> None:
        d = g.advance()
        assert d.player == 1 and d.prompt == "choose_ability_order"
        g.answer([next(o.id for o in d.options if o.label.startswith("Charm"))])
        d = g.advance()
        assert d.prompt == "pay_optional_cost"
        g.answer([answer])

    _push(g)
    charm_first("no")  # declined: nothing paid, no use counted
    _push(g)
    charm_first("yes")
    _push(g)  # used up this turn: not carried out, so nothing to order
    g.advance()
    assert g.state.vars["record"] == ["hunter", "victim", "hunter", "charm:Victim", "victim", "hunter", "victim"]
    assert len(g.state.zone("discard", 1)) == 1, "the cost was paid once"


def test_a_trigger_on_a_kind_played_voluntarily_is_an_error(tmp_path):
    import pytest

    from interpreter.loader.diagnostics import LoadError
    bad = FALL_CARDS.replace("      - kind: fall\n        trigger: {event: fell}",
                             "      - kind: quick\n        trigger: {event: fell}")
    with pytest.raises(LoadError, match="a 'trigger' is for an auto ability"):
        toy_variant(tmp_path, cards=bad, replace=(FALL_KIND, FALL_EVENT, FALL_KEYWORDS), append=FALL_TEMPLATES)
