"""The card schemas shipped for editors (schemas/cards/) are what `sogo schema GAME` generates from the
rulebooks now, and `--write` writes the same file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.loader.cards import card_schema
from interpreter.loader.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", ["lovelive", "haikyu", "rebirth", "hololive", "osica"])
def test_shipped_card_schema_is_up_to_date(game):
    shipped = json.loads((ROOT / "schemas" / "cards" / f"{game}.cards.schema.json").read_text(encoding="utf-8"))
    assert shipped == card_schema(load_rulebook(game)), f"regenerate it: sogo schema {game} --write schemas/cards"


def test_write_writes_the_printed_schema(tmp_path):
    runner = CliRunner()
    printed = runner.invoke(cli, ["schema", "haikyu"])
    written = runner.invoke(cli, ["schema", "haikyu", "--write", str(tmp_path / "out")])
    assert printed.exit_code == 0 and written.exit_code == 0
    assert (tmp_path / "out" / "haikyu.cards.schema.json").read_text(encoding="utf-8") == printed.output
