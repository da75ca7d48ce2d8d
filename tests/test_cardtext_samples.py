"""The sample cards compiled from their printed text play the same games as their hand-written
abilities: `sogo cards compile --check` finds no difference, and seeded games with the compiled
card file give the same log and final state as with the shipped one."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cardtext.cardfile import check_file, compile_file, unmatched_diagnostics, write_compiled
from interpreter.cli.setup import cards_dir, load_game_env
from interpreter.loader.cards import load_cards
from interpreter.sim import play_one

TITLES = ["lovelive", "haikyu", "osica"]
SEEDS = range(1, 21)


@pytest.mark.parametrize("game", TITLES)
def test_compiled_samples_play_the_same_games(game: str, tmp_path: Path) -> None:
    rb, cards, decks = load_game_env(game, None)
    assert rb.card_text is not None, f"{game} declares no card-text phrases"
    sample = cards_dir(rb.id) / "sample.yaml"
    result = compile_file(rb.card_text, sample)
    assert unmatched_diagnostics(result) == []
    assert check_file(result) == []
    compiled_file = tmp_path / "sample.yaml"
    compiled_file.write_text(write_compiled(result), encoding="utf-8")
    compiled = load_cards(rb, [compiled_file])
    assert sorted(compiled) == sorted(cards)
    lines = [r for c in result.cards for _, r in c.lines]
    assert sum(r.ability is not None for r in lines) >= 0.75 * len(lines)  # most abilities come from their text
    for seed in SEEDS:
        a = play_one(rb, cards, decks, seed, log=True)
        b = play_one(rb, compiled, decks, seed, log=True)
        assert [e.as_json() for e in a.entries] == [e.as_json() for e in b.entries], seed
        assert a.state.fingerprint() == b.state.fingerprint()
