"""Simultaneous steps (issue 29, item 2): a move of several cards, and a `for_each` marked
`simultaneous` (a step applied to several players at once, Love Live 1.3.4.1), are each one step.
Rule processes that interrupt at any moment (`when: always`, a refresh) wait until the whole step is
done, see all of it, and then run once in the rulebook's order; a nested step runs none in its middle.
One card at a time (a draw of several cards) still interrupts between cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, texts, toy_variant

# A refresh-like interrupt: a player whose deck is empty and whose discard pile is not gets the discard
# pile back as their deck. It notes how many cards it found, and goes the other side first (the
# rulebook's order, not the order of the effect that called for it).
PROCESSES = """
rule_processing:
  id: rule_processing
  rules: ["10"]
  processes:
    - id: restock
      rules: ["10"]
      when: always
      for_each_player: "[other_side, mover]"
      if: "count(cards('deck', p)) == 0 and count(cards('discard', p)) > 0"
      do:
        - set_var:
            name: restocked
            value: "as_list(restocked) + ['P' + str(p + 1) + ':' + str(count(cards('discard', p)))]"
        - move: {cards: "cards('discard', p)", to: deck, player: "p"}
"""

CARDS = """game: toy
cards:
  - id: T-SWEEP
    type: unit
    name: Sweep
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - move: {cards: "top('deck', you, 1) + cards('field', you)", to: discard}
  - id: T-BOTH
    type: unit
    name: Both Mill
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - for_each:
              in: "[mover, other_side]"
              as: q
              simultaneous: true
              do:
                - move: {cards: "top('deck', q, 1)", to: discard, player: "q"}
  - id: T-EACH
    type: unit
    name: Each Mill
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - for_each:
              in: "[mover, other_side]"
              as: q
              do:
                - move: {cards: "top('deck', q, 1)", to: discard, player: "q"}
  - id: T-NESTED
    type: unit
    name: Nested
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - for_each:
              in: "[mover, other_side]"
              as: q
              simultaneous: true
              do:
                - move: {cards: "top('deck', q, 1) + cards('field', q)", to: discard, player: "q"}
                - set_var: {name: decks_seen, value: "as_list(decks_seen) + [count(cards('deck', q))]"}
  - id: T-DRAW2
    type: unit
    name: Draw Two
    power: 1
    abilities:
      - kind: quick
        keywords: [in_hand]
        effect:
          - repeat:
              times: 2
              do:
                - move: {cards: "top('deck', you, 1)", to: hand}
"""


def _game(tmp_path: Path, zones: dict[str, Any]) -> Any:
    return game_of(toy_variant(tmp_path, append=PROCESSES, cards=CARDS), zones)


def _use(g: Any, name: str) -> Any:
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:") and name in o.label)])
    return g.advance()


def _ids(g: Any, zone: str, p: int) -> list[str]:
    return [g.state.objects[o].card_id for o in g.state.zone(zone, p)]


def _after(g: Any, first: str, then: str) -> bool:
    """Whether every log line containing `then` comes after every line containing `first`."""
    lines = texts(g)
    return max(i for i, t in enumerate(lines) if first in t) < min(i for i, t in enumerate(lines) if then in t)


def test_a_move_of_several_cards_is_one_step(tmp_path):
    g = _game(tmp_path, {"P1": {"hand": ["T-SWEEP"], "deck": ["U-PLAIN"], "field": ["U-DASH", "U-DASH"]}})
    _use(g, "Sweep")
    # The deck emptied with the first card; the restock waited for the two field cards.
    assert g.state.vars["restocked"] == ["P1:3"]
    assert sorted(_ids(g, "deck", 0)) == ["U-DASH", "U-DASH", "U-PLAIN"] and _ids(g, "discard", 0) == []
    assert _after(g, "moves from field to discard", "rule process restock")


def test_a_simultaneous_step_for_each_player_then_the_rulebooks_order(tmp_path):
    g = _game(tmp_path, {"P1": {"hand": ["T-BOTH"], "deck": ["U-PLAIN"], "discard": ["U-DASH"]},
                         "P2": {"deck": ["U-PLAIN"], "discard": ["U-DASH", "U-DASH"]}})
    _use(g, "Both Mill")
    # Both decks were emptied before either was restocked; then P2 first, as the process lists them.
    assert g.state.vars["restocked"] == ["P2:3", "P1:2"]
    assert len(_ids(g, "deck", 0)) == 2 and len(_ids(g, "deck", 1)) == 3
    assert _after(g, "moves from deck to discard", "rule process restock")


def test_without_the_mark_each_run_is_a_step_of_its_own(tmp_path):
    g = _game(tmp_path, {"P1": {"hand": ["T-EACH"], "deck": ["U-PLAIN"], "discard": ["U-DASH"]},
                         "P2": {"deck": ["U-PLAIN"], "discard": ["U-DASH", "U-DASH"]}})
    _use(g, "Each Mill")
    assert g.state.vars["restocked"] == ["P1:2", "P2:3"]


def test_nested_steps_run_no_interrupt_in_their_middle(tmp_path):
    g = _game(tmp_path, {"P1": {"hand": ["T-NESTED"], "deck": ["U-PLAIN"], "field": ["U-DASH"]},
                         "P2": {"deck": ["U-PLAIN"], "field": ["U-DASH"]}})
    _use(g, "Nested")
    # The inner moves of several cards ended inside the outer step: no restock until it was done.
    assert g.state.vars["decks_seen"] == [0, 0]
    assert g.state.vars["restocked"] == ["P2:2", "P1:2"]


def test_one_card_at_a_time_still_interrupts_between_cards(tmp_path):
    g = _game(tmp_path, {"P1": {"hand": ["T-DRAW2"], "deck": ["U-PLAIN"], "discard": ["U-DASH"]}})
    _use(g, "Draw Two")
    # The first draw emptied the deck: restocked at once, so the second draw found a card.
    assert g.state.vars["restocked"] == ["P1:1"]
    assert sorted(_ids(g, "hand", 0)) == ["T-DRAW2", "U-DASH", "U-PLAIN"]
