"""interpreter/viewer/mat.py: the table as one seat sees it, arranged by the game's play mat. A seat
sees exactly what `Game.view` lets it see (hidden cards never carry their identity, a zone shown as
a count carries no cards), its own mat comes first and the others are turned round, and card tiles
show their fields as continuous effects make them (a hololive holomem's HP left and damage)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from toy_engine import toy_game

from interpreter.cli.setup import cards_dir, load_game_env
from interpreter.engine.game import Game
from interpreter.loader.cards import load_cards
from interpreter.loader.rulebook import load_rulebook
from interpreter.scenarios.runner import build_game
from interpreter.viewer.mat import mat

GAMES = [("lovelive", None, None), ("haikyu", None, None), ("hololive", None, None), ("rebirth", None, None),
         ("osica", None, None), ("rebirth", "circle", 4)]


def random_game(game: str, fmt: str | None, players: int | None, steps: int, seed: int = 3) -> Game:
    rb, cards, decks = load_game_env(game, None, players=players, fmt=fmt)
    g = Game(rb, cards, decks, seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        d = g.advance()
        if d is None:
            break
        ids = [o.id for o in d.options]
        g.answer(pick.sample(ids, max(d.min, min(d.max, 1))) if ids else [])
    return g


def tiles(m: dict[str, Any]) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """Every tile of a mat with its zone and seat, held cards included."""
    cells = [(c, p["seat"]) for p in m["players"] for r in p["rows"] for c in r["cells"]]
    cells += [(c, None) for c in m["shared"]]
    for c, seat in cells:
        for t in c.get("cards", []) + ([c["top"]] if "top" in c else []):
            yield c["zone"], seat, t
            for h in t.get("held", []):
                yield c["zone"], seat, h


@pytest.mark.parametrize("game,fmt,players", GAMES, ids=lambda x: str(x))
def test_a_seat_sees_what_game_view_lets_it_see(game: str, fmt: str | None, players: int | None) -> None:
    g = random_game(game, fmt, players, steps=120)
    for seat in range(g.state.num_players):
        m = mat(g, seat)
        json.dumps(m)  # plain data
        view = g.view(seat)
        known = {c["oid"]: c["card"] for cards in view["zones"].values() for c in cards}
        seen = 0
        for _zone, _p, t in tiles(m):
            if t.get("hidden"):
                assert known[t["oid"]] is None
                assert not {"card", "fields", "counters", "tags", "color"} & set(t), t
            else:
                assert t["card"] == known[t["oid"]] is not None
                seen += 1
        assert seen > 0
        # The card table names only cards the seat sees somewhere.
        assert set(m["cards"]) <= {cid for cid in known.values() if cid}
        for p in m["players"]:
            for r in p["rows"]:
                for c in r["cells"]:
                    assert c["count"] == len(view["zones"][f"{c['zone']}@P{p['seat'] + 1}"])
                    if c["show"] == "count":
                        assert "cards" not in c and "top" not in c


@pytest.mark.parametrize("game,fmt,players", GAMES, ids=lambda x: str(x))
def test_the_seat_first_and_the_others_turned_round(game: str, fmt: str | None, players: int | None) -> None:
    g = random_game(game, fmt, players, steps=10)
    n = g.state.num_players
    lay = g.rb.layout
    assert lay is not None
    written = [[c.zone for c in r.cells] for r in lay.rows]
    for seat in range(n):
        m = mat(g, seat)
        assert [p["seat"] for p in m["players"]] == [(seat + k) % n for k in range(n)]
        own, *others = m["players"]
        assert own["you"] and not own["mirrored"]
        assert [[c["zone"] for c in r["cells"]] for r in own["rows"]] == written
        for p in others:
            assert p["mirrored"] and not p["you"]
            assert [[c["zone"] for c in r["cells"]] for r in p["rows"]] == [row[::-1] for row in written[::-1]]


def test_hp_left_and_damage_through_continuous_effects() -> None:
    """A holomem of HP 90 holding a +20 HP tool, with 30 damage: HP 80 of 110, the damage shown, the
    tool attached; its owner's hand hidden from the opponent."""
    rb = load_rulebook("hololive")
    cards = load_cards(rb, [cards_dir("hololive")])
    sc = {"setup": {"start_at": "main_step", "turn": 3, "turns_taken": {"P1": 2, "P2": 1},
                    "roles": {"first": "P1", "second": "P2", "current": "P1"},
                    "zones": {"P1": {"oshi_position": ["HLS-O01"], "hand": ["HLS-005"], "life": ["HLS-Y01"],
                                     "back": [{"card": "HLS-001", "counters": {"damage": 30}, "under": ["HLS-S04"],
                                               "orientation": "rest"}]},
                              "P2": {"oshi_position": ["HLS-O02"], "center": ["HLS-011"], "life": ["HLS-Y02"]}}}}
    g = build_game(sc, rb, cards)
    m = mat(g, 0)
    (back,) = [c for r in m["players"][0]["rows"] for c in r["cells"] if c["zone"] == "back"]
    (mem,) = back["cards"]
    hp = next(f for f in mem["fields"] if f["id"] == "hp")
    assert (hp["value"], hp["max"], hp["at"]) == (80, 110, "meter")
    assert mem["counters"] == {"damage": 30} and mem["looks"] == ["sideways"]
    (tool,) = mem["held"]
    assert tool["held_look"] == "attached" and m["cards"][tool["card"]]["name"] == "Stage Mic"
    hand = [c for r in mat(g, 1)["players"][1]["rows"] for c in r["cells"] if c["zone"] == "hand"][0]
    assert hand["count"] == 1 and hand["cards"] == [{"oid": hand["cards"][0]["oid"], "hidden": True}]
    assert [v["value"] for v in m["players"][0]["values"] if v["id"] == "life"] == [1]


def test_placement_states_look_as_the_layout_says() -> None:
    g = random_game("lovelive", None, None, steps=150)
    looks = {(t["oid"]): t.get("looks", []) for _z, _p, t in tiles(mat(g, None))}
    waiting = [o.oid for o in g.state.objects.values() if o.oid in looks and o.states.get("orientation") == "wait"]
    active = [o.oid for o in g.state.objects.values() if o.oid in looks and o.states.get("orientation") == "active"]
    assert waiting and active
    assert all("sideways" in looks[oid] for oid in waiting) and not any("sideways" in looks[oid] for oid in active)


def test_everything_shows_every_card_and_the_turn_in_words() -> None:
    g = random_game("hololive", None, None, steps=60)
    m = mat(g, None)
    assert m["seat"] is None and not any(t.get("hidden") for _z, _p, t in tiles(m))
    assert m["phase"] and "_" not in m["phase"] and m["turn"] == g.state.turn


def test_a_rulebook_without_a_layout_gets_the_generic_mat() -> None:
    g = toy_game({"P1": {"hand": ["U-BOOSTER"]}, "P2": {}})
    assert g.rb.layout is not None and g.rb.layout.generic
    m = mat(g, 0)
    zones = {c["zone"] for p in m["players"] for r in p["rows"] for c in r["cells"]}
    assert zones == {z for z, d in g.rb.zones.items() if not d.shared}
    (hand,) = [c for r in m["players"][0]["rows"] for c in r["cells"] if c["zone"] == "hand"]
    assert hand["show"] == "fan" and hand["cards"][0]["card"] == "U-BOOSTER"
