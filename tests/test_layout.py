"""The play mat as rulebook data (layout.yaml, schemas/layout.schema.json, interpreter/loader/layout.py):
every game's layout loads, a rules version or format of a game uses the game's mat, and a rulebook
without one gets a generic mat that places every zone. Bad layouts are in tests/bad_input (layout_*)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.loader.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["lovelive", "haikyu", "hololive", "rebirth", "osica"]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_layout_placing_its_zones(game: str) -> None:
    rb = load_rulebook(game)
    assert rb.layout is not None and not rb.layout.generic and rb.layout.file.endswith("layout.yaml")
    placed = set(rb.layout.zones())
    # Every zone a card lies in during a game is placed (set-aside / looking zones of a procedure may not be).
    assert {z for z, d in rb.zones.items() if d.visibility != "owner" or z == "hand"} <= placed | {"partners_prepared"}
    assert all(c.zone in rb.zones for c in rb.layout.shared) and all(rb.zones[c.zone].shared for c in rb.layout.shared)


def test_a_rules_version_and_a_format_use_the_games_mat() -> None:
    assert load_rulebook("haikyu@1.02").layout.id == load_rulebook("haikyu").layout.id  # type: ignore[union-attr]
    assert load_rulebook("rebirth", fmt="circle").layout.id == load_rulebook("rebirth").layout.id  # type: ignore[union-attr]


def test_without_a_layout_the_mat_is_made_from_the_zones(tmp_path: Path) -> None:
    book = tmp_path / "lovelive"
    shutil.copytree(ROOT / "rulebooks" / "lovelive", book)
    (book / "layout.yaml").unlink()
    rb = load_rulebook(book)
    lay = rb.layout
    assert lay is not None and lay.generic
    assert sorted(lay.zones()) == sorted(rb.zones)  # every zone placed once
    shows = {c.zone: c.show for r in lay.rows for c in r.cells}
    assert shows["main_deck"] == "count" and shows["hand"] == "fan" and shows["member_left"] == "row"
    assert shows["success_zone"] == "stack"  # public and ordered: a pile
    assert lay.tile_for("member") is not None and [f.field for f in lay.tile_for("member").fields][:1] == ["cost"]  # type: ignore[union-attr]
    assert any(s.state == "face" and s.value == "down" and s.look == "face_down" for s in lay.states)
