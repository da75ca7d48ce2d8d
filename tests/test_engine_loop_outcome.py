"""An unstoppable loop cut off by the rulebook's caps ends as the rulebook says: `lose_master` makes
the player in control (the turn player) lose; `draw` is a draw."""

from __future__ import annotations

from toy_engine import toy_game


def test_loop_master_loses():
    g = toy_game({"P1": {"field": ["U-LOOP"], "hand": ["U-PLAIN"]}})
    d = g.advance()
    g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
    assert g.advance() is None
    assert g.state.result["outcome"] == "win" and g.state.result["winner"] == 1
    assert any("P1 started the loop and loses" in e.text for e in g.entries)


def test_loop_draw_when_the_rulebook_says_so():
    g = toy_game({"P1": {"field": ["U-LOOP"], "hand": ["U-PLAIN"]}})
    g.rb.raw["infinite_loop"] = dict(g.rb.raw["infinite_loop"], result="draw")
    try:
        d = g.advance()
        g.answer([next(o.id for o in d.options if o.id.startswith("use:"))])
        assert g.advance() is None
        assert g.state.result["outcome"] == "draw"
    finally:
        g.rb.raw["infinite_loop"] = dict(g.rb.raw["infinite_loop"], result="lose_master")
