"""`sogo replay FILE`: play a recorded game again from its answers and check it ends the same way."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from interpreter.loader.diagnostics import LoadError
from interpreter.state.objects import result_text


def _refuse(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)


@click.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--force", is_flag=True,
              help="Replay even under a rulebook, cards or decks whose content hash differs, and report the "
                   "first point of divergence.")
@click.option("--log", "log_format", type=click.Choice(["text", "jsonl", "none"]), default="text",
              show_default=True, help="How to print the replayed game's log.")
@click.option("--rulebook", "rulebook_path", type=click.Path(exists=True, file_okay=False), default=None,
              help="Rulebook directory to replay under (default: the recorded game id under the rulebooks "
                   "directory, $SOGO_RULEBOOKS or rulebooks/).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML page that steps through the game (the board after each decision, "
                   "the log, the decision asked and the answer taken) instead of printing the log.")
@click.option("--rules", "rules_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="With --html: a rules text whose rules the page shows when a citation is clicked.")
def replay(file: str, force: bool, log_format: str, rulebook_path: str | None, html_out: str | None,
           rules_file: str | None) -> None:
    """Reproduce a recorded game (from `play --save-replay` or a simulation failure) and check its
    final state hash. FILE is JSON lines: a header, one answer per decision, an end line (the
    format is described in interpreter/replay.py).

    Exit 0: the game is reproduced exactly. Exit 2: the recorded failure happens again (its error is
    printed, as the simulation summary reported it). Exit 1: the replay is refused (the rulebook,
    cards or decks changed; --force replays anyway) or it diverges from the recording.
    """
    from interpreter.cli.setup import card_folders
    from interpreter.loader.cards import load_cards
    from interpreter.loader.rulebook import load_rulebook
    from interpreter.replay import Replay, content_hashes, run_replay, sogo_version

    try:
        rep = Replay.load(file)
    except (OSError, LoadError) as e:
        _refuse(f"error: {e}")
    h = rep.header
    fmt = h.get("rulebook_format")
    try:
        rb = load_rulebook(rulebook_path or h.get("rulebook_dir") or h["rulebook"],
                           fmt=str(fmt) if fmt is not None else None)
        cards = load_cards(rb, card_folders(rb.id))
    except LoadError as e:
        for d in e.diagnostics:
            click.echo(str(d), err=True)
        under = f" (format {fmt})" if fmt is not None else ""
        _refuse(f"error: cannot load the rulebook '{h.get('rulebook')}'{under} this replay was recorded under")
    if rb.id != h.get("rulebook"):
        _refuse(f"error: {file} is a replay of '{h.get('rulebook')}', not of '{rb.id}'")
    hashes = content_hashes(rb, cards, h["decks"])
    if hashes["content"] != h.get("content_hash"):
        changed = [k for k in ("rulebook", "cards", "decks") if hashes[k] != h.get("hashes", {}).get(k)]
        what = (f"{file} was recorded under {h['rulebook']} rules {h.get('rules_version')} with content hash "
                f"{str(h.get('content_hash'))[:12]}; the files at {rb.directory} (rules {rb.rules_version}) "
                f"hash to {hashes['content'][:12]} (changed: {', '.join(changed) or 'unknown'})")
        if not force:
            _refuse(f"refused: {what}.\nThe game may play differently; use --force to replay anyway and "
                    "report the first point of divergence.")
        click.echo(f"warning: {what}; replaying anyway (--force)", err=True)
    if h.get("sogo") != sogo_version():
        click.echo(f"note: recorded with Sogo {h.get('sogo')}, replaying with {sogo_version()}", err=True)

    if html_out is not None:
        _write_page(rep, rb, cards, html_out, rules_file, file)
        return
    if rules_file is not None:
        raise click.UsageError("--rules goes with --html (the page shows the rules its log cites)")
    out = run_replay(rep, rb, cards, log=log_format != "none")
    for entry in out.game.entries:
        if log_format == "text":
            click.echo(entry.as_text())
        elif log_format == "jsonl":
            click.echo(entry.as_json())
    if out.divergence is not None:
        if out.error:
            click.echo(f"error: {out.error}", err=True)
        click.echo(f"diverged: {out.divergence}", err=True)
        sys.exit(1)
    if out.error:
        click.echo(f"error: {out.error}", err=True)
        click.echo(f"replay: reproduced the recorded failure after {out.decisions} decisions "
                   f"(state hash {out.fingerprint})", err=True)
        sys.exit(2)
    r = out.game.state.result or {}
    who = result_text(r)
    click.echo(f"replay: reproduced {out.decisions} decisions exactly ({who}, turn {out.game.state.turn}); "
               f"final state hash {out.fingerprint} matches", err=True)



def _write_page(rep: object, rb: object, cards: object, out: str, rules_file: str | None, source: str) -> None:
    """The viewer page, written whole or not at all."""
    from interpreter.files import write_text_atomic
    from interpreter.viewer import build_page, rules_from_file

    rules = None
    if rules_file is not None:
        try:
            rules = rules_from_file(rules_file)
        except (OSError, LoadError, UnicodeDecodeError) as e:
            _refuse(f"error: cannot read the rules text {rules_file}: {e}")
    page = build_page(rep, rb, cards, rules, title=f"{source}")  # type: ignore[arg-type]
    write_text_atomic(out, page)
    click.echo(f"wrote {out} ({len(page) // 1024} KiB)", err=True)
