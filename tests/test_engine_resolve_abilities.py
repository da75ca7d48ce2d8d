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
    from interpreter.engine.context import Ctx
    from interpreter.engine.functions import f_payable
    assert f_payable(Ctx(g2, None, you=0), book, "text") is False, "an empty deck: nothing to draw"
