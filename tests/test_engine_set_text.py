"""A card's text set by an effect (`set_text:` in an effect description): the card has those abilities
instead of its printed ones while the effect applies (hololive 13.6: ability change), abilities
granted to it still add, and the latest effect's text wins; on a variant of the toy rulebook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toy_engine import game_of, play, toy_variant

from interpreter.expr import compile_expr
from interpreter.table.context import Ctx

CARDS = """game: toy
cards:
  - id: X-ECHO
    type: unit
    name: Echo
    power: 1
    abilities:
      - kind: quick
        effect:
          - set_var: {name: said, value: "'printed'"}
      - kind: reflex
        keywords: [on_ping]
        effect:
          - set_var: {name: heard, value: "as_list(heard) + ['printed']"}
  - id: X-SCRIBE
    type: unit
    name: Scribe
    power: 1
    abilities:
      - kind: aura
        effect:
          affects: "cards('field', you) where it.name == 'Echo'"
          set_text:
            - kind: quick
              effect:
                - set_var: {name: said, value: "'rewritten'"}
            - kind: reflex
              keywords: [on_ping]
              effect:
                - set_var: {name: heard, value: "as_list(heard) + ['rewritten']"}
  - id: X-EDITOR
    type: unit
    name: Editor
    power: 1
    abilities:
      - kind: quick
        effect:
          - continuous:
              effect:
                affects: "cards('field', you) where it.name == 'Echo' or it.name == 'Plain'"
                set_text: {kind: aura, effect: {affects: "this", modify: {power: {add: 5}}}}
              duration: round
"""


def _env(tmp_path: Path) -> Any:
    return toy_variant(tmp_path, cards=CARDS)


def _obj(g: Any, card_id: str) -> Any:
    return next(o for o in g.state.objects.values() if o.card_id == card_id)


def _ev(g: Any, src: str) -> Any:
    rb = g.rb
    return compile_expr(src, names=rb.names, functions=rb.functions)(Ctx(g, None, you=0))


def _use(d: Any, name: str) -> str:
    return next(o.id for o in d.options if o.id.startswith("use:") and f"{name} [" in o.label)


def test_a_card_has_the_text_an_effect_sets_instead_of_its_printed_one(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"field": ["X-ECHO", "X-SCRIBE"]}})
    d = g.advance()
    assert g.state.vars.get("heard") == ["rewritten"], "the text's auto ability triggered, not the printed one"
    assert _ev(g, "ability_count((cards('field', you) where it.name == 'Echo')[0])") == 2
    play(g, [_use(d, "Echo")])
    assert g.state.vars.get("said") == "rewritten"


def test_grants_still_add_and_the_latest_text_wins_until_its_duration_ends(tmp_path):
    g = game_of(_env(tmp_path), {"P1": {"field": ["X-ECHO", "X-SCRIBE", "X-EDITOR", "U-PLAIN", "U-TEACHER"]}})
    d = g.advance()
    echo, plain = _obj(g, "X-ECHO"), _obj(g, "U-PLAIN")
    assert g.field(plain, "power") == 3, "Teacher's granted aura: +1"
    d = play(g, [_use(d, "Editor")])
    # Echo: the Editor's text (made later than the Scribe's card came) replaces the Scribe's.
    assert g.field(echo, "power") == 6 and [ab.kind for ab in g.abilities_of(echo)] == ["continuous"]
    # Plain: the Editor's text, and Teacher's grants after it (a quick ability and +1).
    assert g.field(plain, "power") == 8
    assert [ab.kind for ab in g.abilities_of(plain)] == ["continuous", "activated", "continuous"]
    assert not any(o.id.startswith("use:") and "Echo [" in o.label for o in d.options)
    play(g, ["pass"])  # the round ends, and the Editor's effect with it
    assert g.field(echo, "power") == 1 and len(g.abilities_of(echo)) == 2
    assert g.field(plain, "power") == 3
