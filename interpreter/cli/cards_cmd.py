"""`sogo cards`: printed card text compiled into abilities, card lists imported, pins and counts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from interpreter.loader.diagnostics import Diagnostic, LoadError


def _echo_all(diags: list[Diagnostic]) -> None:
    for d in sorted(set(diags)):
        click.echo(str(d), err=True)


def _rulebook(game: str) -> Any:
    from interpreter.cli.main import _known_game
    from interpreter.loader.rulebook import load_rulebook

    _known_game(game)
    return load_rulebook(game)


def _grammar(rb: Any) -> Any:
    """The rulebook's card-text phrases; a game without them is told so (exit 1), not a traceback."""
    from interpreter.cardtext.cardfile import grammar_of

    try:
        return grammar_of(rb)
    except LoadError as e:
        _echo_all(e.diagnostics)
        sys.exit(1)


@click.group()
def cards() -> None:
    """Card databases from printed text: compile text into abilities, import card lists, pin, count.

    A card's `text` is its printed text; ability k of the card encodes its line k (see
    docs/writing-cards.md). The phrases that read the text are the rulebook's card_text section.
    """


@cards.command("compile")
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--write", is_flag=True, help="Rewrite each file in place (comments and order kept); "
                                            "default: print the compiled file.")
@click.option("--check", is_flag=True, help="Compile and compare with each card's abilities; report differences "
                                            "(exit 1), write nothing.")
def compile_cmd(game: str, files: tuple[str, ...], write: bool, check: bool) -> None:
    """Compile the printed text of every card in FILES into abilities.

    Each fragment no phrase matches is reported as FILE:LINE:COL; its ability is written as a
    `todo` holding the fragments (the game does not play it until it is written by hand and marked
    `hand: true`). Abilities marked `hand: true` are kept. Exits 1 when a fragment is unmatched or
    (with --check) an ability differs from its text.
    """
    from interpreter.cardtext.cardfile import check_file, compile_file, unmatched_diagnostics, write_compiled
    from interpreter.files import write_text_atomic

    if write and check:
        raise click.UsageError("--check writes nothing: give --write or --check, not both")
    rb = _rulebook(game)
    grammar = _grammar(rb)
    problems: list[Diagnostic] = []
    outputs: list[tuple[Path, str]] = []
    for name in files:
        result = compile_file(grammar, Path(name))
        problems.extend(unmatched_diagnostics(result))
        if check:
            problems.extend(check_file(result))
        else:
            outputs.append((Path(name), write_compiled(result)))
    for path, text in outputs:
        if write:
            write_text_atomic(path, text)
            click.echo(f"{path}: written", err=True)
        else:
            if len(outputs) > 1:
                click.echo(f"# {path}")
            click.echo(text, nl=False)
    _echo_all(problems)
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)


@cards.command("stats")
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--top", type=click.IntRange(min=0), default=20, show_default=True,
              help="How many of the most frequent unmatched fragments to list.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def stats_cmd(game: str, files: tuple[str, ...], top: int, as_json: bool) -> None:
    """How many cards and abilities of FILES compile fully, partly or not at all, and the most
    frequent unmatched fragments (numbers and names blanked): the next phrases to write. A file may
    also be a card-text corpus (a list of `texts`, as tests/data/cardtext/GAME.yaml), each text a card."""
    from interpreter.cardtext.cardfile import compile_file, render_stats, stats

    grammar = _grammar(_rulebook(game))
    report = stats([compile_file(grammar, Path(f), corpus=True) for f in files], top)
    click.echo(json.dumps(report, ensure_ascii=False, indent=2) if as_json else render_stats(report).rstrip("\n"))


@cards.command("pin")
@click.argument("game")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
def pin_cmd(game: str, files: tuple[str, ...]) -> None:
    """After a review: set every ability's pin to its card's current text (rewrites FILES in place)."""
    from interpreter.cardtext.cardfile import pin_file
    from interpreter.files import write_text_atomic

    grammar = _grammar(_rulebook(game))
    for name in files:
        text, changed = pin_file(grammar, Path(name))
        if changed:
            write_text_atomic(name, text)
        click.echo(f"{name}: {changed} pin(s) updated")


@cards.command("import")
@click.argument("game")
@click.argument("card_list", type=click.Path(exists=True, dir_okay=False))
@click.option("--mapping", "mapping_name", required=True,
              help="The card list's format: a mapping file, or the name of one of the rulebook's (imports/NAME.yaml).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True, help="The card file to write.")
@click.option("--compile/--no-compile", "do_compile", default=True, show_default=True,
              help="Compile the imported cards' text into abilities.")
def import_cmd(game: str, card_list: str, mapping_name: str, output: str, do_compile: bool) -> None:
    """Build a card file from a published card list (JSON, CSV or a script) by an import mapping,
    then compile the cards' text. Problems of the imported cards are reported as FILE:LINE:COL of
    the written file; exits 1 when there are any (the file is still written, to be fixed)."""
    import yaml

    from interpreter.cardtext.cardfile import compile_file, unmatched_diagnostics, write_compiled
    from interpreter.cardtext.importer import (
        check_imported,
        find_mapping,
        import_cards,
        load_mapping,
        printing_warnings,
        read_records,
    )
    from interpreter.files import write_text_atomic

    rb = _rulebook(game)
    try:
        mapping = load_mapping(find_mapping(rb, mapping_name))
    except LoadError as e:
        raise click.BadParameter(str(e), param_hint="--mapping") from e
    differences: list[tuple[str, list[str]]] = []
    data = import_cards(read_records(Path(card_list), mapping), mapping, rb.id, differences)
    header = f"# Imported by `sogo cards import {rb.id} {Path(card_list).name} --mapping {mapping['id']}`.\n"
    text = header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=4096)
    out = Path(output)
    try:
        write_text_atomic(out, text)
    except OSError as e:
        raise click.BadParameter(f"cannot write {out}: {e.strerror}", param_hint="--output") from e
    problems: list[Diagnostic] = []
    if do_compile and rb.card_text is None:
        click.echo(f"{out}: not compiled: rulebook '{rb.id}' declares no card-text phrases yet (the text is kept)",
                   err=True)
    elif do_compile:
        grammar = rb.card_text
        write_text_atomic(out, write_compiled(compile_file(grammar, out)))
        problems.extend(unmatched_diagnostics(compile_file(grammar, out)))  # located in the file as written
    problems.extend(printing_warnings(out, differences))
    problems.extend(check_imported(rb, data, out))
    click.echo(f"{out}: {len(data['cards'])} card(s)", err=True)
    _echo_all(problems)
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)


@cards.command("review")
@click.argument("game")
@click.argument("files", nargs=-1, required=True)
@click.option("--only", type=click.Choice(["all", "todo", "changed"]), default="all", show_default=True,
              help="Which abilities to list: every one, those not (fully) written (todo), or those whose "
                   "printed text changed since they were pinned.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a layout for reading (a table on a terminal); json: one object, for tools.")
def review_cmd(game: str, files: tuple[str, ...], only: str, fmt: str) -> None:
    """Review the abilities of the cards in FILES without reading YAML: each ability's printed text
    beside a plain-English description generated from what it compiles to, and its status (compiled,
    hand-written, partial; pinned, or changed since pinned).

    Where no reading exists (a template, keyword, kind or function the rulebook gives no `reads:`)
    the id is shown in `backticks`, and the summary lists what to add. A missing file or one that is
    not a card file of GAME is reported as FILE:LINE:COL (exit 1).
    """
    from interpreter.cardtext.review import render_summary, render_text, review_file, summary
    from interpreter.reading import Reader

    rb = _rulebook(game)
    reader = Reader(rb)
    reviewed = []
    problems: list[Diagnostic] = []
    for name in files:
        try:
            reviewed.extend(review_file(rb, Path(name), reader))
        except LoadError as e:
            problems.extend(e.diagnostics)
    shown = [c for c in reviewed if any(a.wanted(only) for a in c.abilities)]
    report = summary(reviewed)
    report["shown"] = sum(a.wanted(only) for c in reviewed for a in c.abilities)
    if fmt == "json":
        click.echo(json.dumps({"game": rb.id, "only": only, "cards": [c.as_json(only) for c in shown],
                               "summary": report}, ensure_ascii=False, indent=2))
    elif sys.stdout.isatty():
        _review_table(shown, only, report)
    else:
        click.echo(render_text(shown, only), nl=False)
        click.echo(render_summary(report), nl=False)
    _echo_all(problems)
    if problems:
        sys.exit(1)


def _review_table(cards: list[Any], only: str, report: dict[str, Any]) -> None:
    """The review laid out for a terminal by rich: a table per card, printed text beside its reading."""
    import re

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from interpreter.cardtext.review import render_summary, status

    console = Console()
    colour = {"compiled": "green", "hand-written": "cyan", "partial": "yellow", "none": "red"}

    def reading(text: str) -> Text:
        out = Text()
        for k, part in enumerate(re.split(r"(`[^`]*`)", text)):
            out.append(part, style="bold yellow" if k % 2 else "")
        return out

    for card in cards:
        table = Table(title=f"{escape(card.card_id)} {escape(card.name)}  [dim]{escape(card.path)}:{card.line}[/dim]",
                      title_justify="left",
                      show_lines=True, expand=True)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("printed text", ratio=2)
        table.add_column("reads as", ratio=3)
        table.add_column("status", no_wrap=True)
        for a in card.abilities:
            if not a.wanted(only):
                continue
            if a.reading is not None:
                reads = reading(a.reading)
            elif a.todo:
                reads = Text("not written: no phrase reads " + " / ".join(f"「{t}」" for t in a.todo), style="yellow")
            else:
                reads = Text("not written (sogo cards compile)", style="red")
            style = "bold red" if a.pin == "changed" else colour.get(a.origin, "")
            table.add_row(str(a.index), Text(a.printed or "-"), reads, Text(status(a), style=style))
        console.print(table)
    console.print(Text(render_summary(report).rstrip("\n")))


@cards.command("list")
@click.argument("game")
@click.option("--type", "card_type", default=None, metavar="TYPE", help="Only cards of this card type.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per card: id, name, type, file, summary.")
def list_cmd(game: str, card_type: str | None, as_json: bool) -> None:
    """List GAME's cards (its card folder and those added with --add-cards): id, name, type and the
    numbers that matter at a glance; `sogo card GAME ID` shows one in full."""
    from interpreter.agents.cardinfo import card_name, card_summary
    from interpreter.cli.main import _shown_path
    from interpreter.cli.setup import card_folders
    from interpreter.loader.cards import load_cards

    try:
        rb = _rulebook(game)
        pool = load_cards(rb, card_folders(rb.id))
    except LoadError as e:
        _echo_all(e.diagnostics)
        sys.exit(1)
    if card_type is not None and card_type not in rb.card_types:
        raise click.BadParameter(f"no card type '{card_type}' in {game} (types: {', '.join(rb.card_types)})",
                                 param_hint="--type")
    shown = [c for c in pool.values() if card_type is None or c.type == card_type]
    for card in sorted(shown, key=lambda c: c.id):
        if as_json:
            click.echo(json.dumps({"id": card.id, "name": card_name(card), "type": card.type,
                                   "file": card.source, "summary": card_summary(rb, card)},
                                  ensure_ascii=False, sort_keys=True))
        else:
            click.echo(f"{card.type:<10} {card_summary(rb, card)}")
    if not as_json:
        click.echo(f"{len(shown)} card(s) in {', '.join(_shown_path(f) for f in card_folders(rb.id))}")
