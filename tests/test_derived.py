"""The store of derived facts (interpreter/table/derived.py) changes no game: with it switched off,
every fact is worked out afresh wherever it is asked, and every golden game comes out byte for byte as
its transcript. A change to the state that the engine fails to report (so that a kept fact goes stale)
shows here as a difference."""

from __future__ import annotations

import pytest

import interpreter.table.derived as derived
from interpreter.cli.setup import load_game_env
from interpreter.replay import golden_games, golden_path, golden_transcript
from interpreter.sim import play_one


@pytest.mark.parametrize(("game", "seed"), golden_games(), ids=lambda v: str(v))
def test_golden_games_are_the_same_with_nothing_kept(game: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(derived, "KEEP_FACTS", False)
    got = golden_transcript(game, seed)
    assert got == golden_path(game, seed).read_text(encoding="utf-8"), \
        f"{game} seed {seed} differs with the store of derived facts switched off (a change not reported?)"


@pytest.mark.parametrize("game", ["lovelive", "haikyu", "hololive", "rebirth", "osica"])
def test_random_games_are_the_same_with_nothing_kept(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rb, cards, decks = load_game_env(game, None)
    kept = [play_one(rb, cards, decks, seed, log=True) for seed in (11, 12)]
    assert all(g.derived.known_keys() for g in kept)  # facts were kept along the way
    monkeypatch.setattr(derived, "KEEP_FACTS", False)
    for seed, g in zip((11, 12), kept, strict=True):
        fresh = play_one(rb, cards, decks, seed, log=True)
        assert not fresh.derived.known_keys()
        assert [e.text for e in fresh.entries] == [e.text for e in g.entries], f"{game} seed {seed}"
        assert fresh.state.fingerprint() == g.state.fingerprint()


FUNCTIONS = """
functions:
  - id: field_of
    rules: ["9"]
    params: [p]
    expr: "cards('field', p)"
  - id: strong_of
    rules: ["9"]
    params: [p]
    expr: "cards('field', p) where it.power > 1"
  - id: tagged
    rules: ["9"]
    params: [c]
    expr: "count(under(c))"
"""


def _fn(rb, name):  # noqa: ANN001, ANN202
    """The RulebookFunction behind the entry expressions call (a bound method of it)."""
    from interpreter.table.rulebook_functions import RulebookFunction

    owner = rb.functions[name].fn.__self__
    assert isinstance(owner, RulebookFunction)
    return owner


def test_a_function_reading_zones_only_is_kept_until_its_player_zone_changes(tmp_path) -> None:  # noqa: ANN001
    """`field_of(p)` reads P's field alone: its value is a fact that a change to the other player's
    field or hand leaves known and a change to P's field forgets; a function reading a field continuous
    effects may change, or the cards under another, is kept for one version only."""
    from toy_engine import game_of, toy_variant

    from interpreter.table.context import Ctx
    from interpreter.table.derived import PLAYER_COUNTERS
    from interpreter.timing.moves import move_card

    env = toy_variant(tmp_path, append=FUNCTIONS)
    rb = env[0]
    assert _fn(rb, "field_of").places == [("field", "$param")]
    assert _fn(rb, "strong_of").places is None  # power: a field continuous effects may change
    assert _fn(rb, "tagged").places is None     # the cards under another card, wherever they are
    g = game_of(env, {"P1": {"field": ["U-PLAIN"], "hand": ["U-PLAIN"]}, "P2": {"field": ["U-PLAIN"]}})
    ctx = Ctx(g, None, you=0)
    call = rb.functions["field_of"].fn
    assert len(call(ctx, 0)) == 1 and len(call(ctx, 1)) == 1
    mine, theirs = g.derived.number(("field_of", 0)), g.derived.number(("field_of", 1))
    assert {("field_of", 0), ("field_of", 1)} <= g.derived.known_keys()
    assert g.derived.readers[("field", 0)] >= {mine} and PLAYER_COUNTERS in g.derived.readers
    card = next(o for o in g.state.objects.values() if o.zone == "hand" and o.zone_player == 0)
    gen = move_card(g, card, "field", 0, ctx)
    for _ in gen:
        pass
    assert ("field_of", 0) not in g.derived.known_keys() and ("field_of", 1) in g.derived.known_keys()
    assert len(call(ctx, 0)) == 2 and theirs == g.derived.number(("field_of", 1))
