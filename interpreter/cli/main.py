"""The `sogo` command line: validate, play, simulate, scenarios, graphs and rules tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from interpreter.loader.diagnostics import LoadError
from interpreter.state.objects import result_text


def _fail(diags: Any) -> None:
    for d in getattr(diags, "diagnostics", [diags]):
        click.echo(str(d), err=True)
    sys.exit(1)


_GLOBAL_OPTIONS = ("--rulebooks", "--cards", "--add-cards")


class _SogoGroup(click.Group):
    """The `sogo` group: its search-path options may also be written after the command
    (`sogo play GAME --cards DIR`); they are taken to the front before click reads the line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(args))


def hoist_global_options(args: list[str]) -> list[str]:
    """`--rulebooks DIR` / `--cards DIR` / `--add-cards DIR` (or `--cards=DIR`) written anywhere
    before a `--` moved to the front, in order; the rest kept as it was."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            rest += args[i:]
            break
        name = a.split("=", 1)[0]
        if name in _GLOBAL_OPTIONS and "=" in a:
            front.append(a)
        elif a in _GLOBAL_OPTIONS:
            front += args[i:i + 2]  # without its value click reports it, as for any option
            i += 1
        else:
            rest.append(a)
        i += 1
    return front + rest


@click.group(cls=_SogoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sogo")
@click.option("--rulebooks", "rulebook_dirs", multiple=True, type=click.Path(file_okay=False),
              help="A directory of rulebooks to search before $SOGO_RULEBOOKS, ./rulebooks and the shipped ones "
                   "(repeatable).")
@click.option("--cards", "card_dirs", multiple=True, type=click.Path(file_okay=False),
              help="A directory of card folders (one per game id) to search before $SOGO_CARDS, ./cards and the "
                   "shipped ones (repeatable).")
@click.option("--add-cards", "added_dirs", multiple=True, type=click.Path(file_okay=False),
              help="A directory of card folders (one per game id) whose cards are added to the game's own "
                   "instead of hiding them (repeatable; also $SOGO_ADD_CARDS).")
def cli(rulebook_dirs: tuple[str, ...], card_dirs: tuple[str, ...], added_dirs: tuple[str, ...]) -> None:
    """Sogo: run trading card games from their comprehensive rules, written as data.

    Rulebooks and cards are found by game id along a search path: --rulebooks / --cards, then
    $SOGO_RULEBOOKS / $SOGO_CARDS (lists of directories), then ./rulebooks and ./cards, then the
    rulebooks and sample cards shipped with Sogo; the first card folder found for a game hides the
    others. --add-cards DIR adds the cards of DIR/GAME/ to the game's own (the sample decks stay).
    These options may also be given after the command (`sogo play GAME --cards DIR`).
    """
    from interpreter import locations

    locations.add_search_dirs("rulebooks", rulebook_dirs)
    locations.add_search_dirs("cards", card_dirs)
    locations.add_search_dirs("added_cards", added_dirs)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
def validate(paths: tuple[str, ...]) -> None:
    """Check rulebooks, card files, decks, scenarios and replays; report every problem as FILE:LINE:COL.

    A PATH may be a game id, as `play` takes it (`sogo validate GAME`): its rulebook and its card
    folders. Files that are not YAML or replays (a README among `rulebooks/*`) are skipped, and said so."""
    from interpreter.cli.validate import validate_paths

    problems, checked = validate_paths([Path(p) for p in paths])
    for d in problems:
        click.echo(str(d), err=True)
    for line in checked:
        click.echo(line)
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)


@cli.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per game.")
def games_cmd(as_json: bool) -> None:
    """List the games Sogo finds: each rulebook's id, rules version, formats and seat counts, where
    it was found and where its cards are (the search path: see `sogo --help`)."""
    from interpreter.cli.games import game_rows

    rows = game_rows()
    if as_json:
        for row in rows:
            click.echo(json.dumps(row, sort_keys=True, ensure_ascii=False))
        return
    for row in rows:
        click.echo(f"{row['name']}: {row['title']} (rules {row['rules_version']}), "
                   f"{row['players']} players")
        if row["formats"]:
            click.echo(f"    formats: {', '.join(row['formats'])}")
        click.echo(f"    rulebook: {row['rulebook']}")
        click.echo(f"    cards: {', '.join(row['cards']) or '(none found)'}")
        if row.get("decks"):
            click.echo(f"    decks: {row['decks']}")
        for problem in row.get("problems", []):
            click.echo(f"    problem: {problem}")


def _known_game(name: str) -> None:
    """A GAME argument names a rulebook: one that is not found is a usage error (exit 2) that lists
    the games known and where Sogo looked, not a file position."""
    from interpreter.loader.rulebook import find_rulebook

    try:
        find_rulebook(name)
    except LoadError as e:
        raise click.BadParameter(e.diagnostics[0].message, param_hint="GAME") from e


def _setup(game_name: str, decks: tuple[str, ...] | None, players: int | None = None,
           fmt: str | None = None) -> tuple[Any, Any, list[Any]]:
    from interpreter.cli.setup import SetupError, load_game_env

    _known_game(game_name)
    try:
        return load_game_env(game_name, list(decks) if decks else None, players, fmt)
    except SetupError as e:
        raise click.BadParameter(str(e), param_hint=e.param) from e
    except LoadError as e:
        _fail(e)
        raise


class _SeatsCommand(click.Command):
    """A command whose --decks takes one deck file per seat: `--decks A B C` (every word up to the
    next option), spelled out for click as `--decks A --decks B --decks C`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _spread_decks(args))


def _spread_decks(args: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            out += args[i - 1:]
            break
        if a != "--decks":
            out.append(a)
            continue
        taken = 0
        while i < len(args) and not (args[i].startswith("-") and args[i] != "-"):
            out += ["--decks", args[i]]
            i += 1
            taken += 1
        if not taken:
            out.append(a)  # click reports the missing value
    return out


def _deck_names(rb: Any, decks: tuple[str, ...], seats: int) -> list[str]:
    """The deck file each seat plays (the given ones, else the sample decks, dealt in turn)."""
    from interpreter.cli.setup import sample_decks, seat_decks

    paths = [Path(d) for d in decks] if decks else sample_decks(rb)
    return [_shown_path(p) for p in seat_decks(paths, seats)] if paths else []


def _shown_path(p: Path) -> str:
    """A path relative to the working directory when inside it, else absolute."""
    full, here = p.resolve(), Path.cwd().resolve()
    return str(full.relative_to(here)) if full.is_relative_to(here) else str(full)


def play_header(rb: Any, deck_paths: list[str]) -> str:
    """The line saying which rulebook (id, rules version, folder) and decks a game was played with."""
    version = str(getattr(rb, "rules_version", "") or "")
    rules = f"rules {version}" if version and version != "unversioned" else "rules without a version"
    decks = ", ".join(f"P{i + 1} {d}" for i, d in enumerate(deck_paths))
    return f"{rb.id} ({rules}, {_shown_path(rb.directory)}); decks: {decks}"


def _agent_names(agents: str | None, players: int) -> str:
    """The --agents value, random at every seat when none is given."""
    return agents if agents else ",".join(["random"] * players)


_DECKS_HELP = ("Deck files, one per seat in seat order (--decks A B C); fewer decks than seats are dealt "
               "again in turn (one deck sits at every seat). Put GAME before this option. "
               "Default: the game's sample decks, in turn.")
_PLAYERS_HELP = "Number of players (seats); one of the counts the rulebook allows [default: its players.count]."
_FORMAT_HELP = "A format of the rulebook to play under (its seat counts, teams and rule edits; see its formats:)."


def _seats(agents: str, players: int, seed: int, *, human: bool) -> tuple[tuple[str, ...], list[Any]]:
    """The --agents names, one per seat, and the agents they make (a usage error otherwise)."""
    from interpreter.agents import make_agents

    names = tuple(n.strip() for n in agents.split(","))
    if not human and "human" in names:
        raise click.BadParameter("a simulation has no one to ask: play as a human with `sogo play`",
                                 param_hint="--agents")
    try:
        return names, make_agents(names, seed, players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--agents") from e


@cli.command(cls=_SeatsCommand)
@click.argument("game")
@click.option("--seed", default=1, show_default=True, help="Seed for the game's random generator.")
@click.option("--players", "seats", type=click.IntRange(min=1), default=None, help=_PLAYERS_HELP)
@click.option("--agents", default=None,
              help="Comma-separated agent per player: random, first, human, or mc (a Monte Carlo search; "
                   "mc:N tries each option in N imagined worlds, 8 by default)  [default: random everywhere]")
@click.option("--decks", multiple=True, type=click.Path(exists=True), metavar="DECK...", help=_DECKS_HELP)
@click.option("--format", "fmt", default=None, metavar="NAME", help=_FORMAT_HELP)
@click.option("--log", "log_format", type=click.Choice(["brief", "full", "text", "jsonl"]), default=None,
              help="brief: the game told for people (turn and phase headings, cards by name, no rule numbers "
                   "unless --rules); full (or text): every event with its node and rules; jsonl: one JSON "
                   "object per event.  [default: brief on a terminal, else full]")
@click.option("--rules", "show_rules", is_flag=True, help="In the brief log, cite the rules each line applies.")
@click.option("--save-replay", type=click.Path(dir_okay=False), default=None,
              help="Save the game as a replay (JSON lines) that `sogo replay` reproduces.")
def play(game: str, seed: int, seats: int | None, agents: str | None, decks: tuple[str, ...], fmt: str | None,
         log_format: str | None, show_rules: bool, save_replay: str | None) -> None:
    """Play one complete game and print its log: told for people (brief), or every event with the
    rules it applies (full)."""
    from interpreter.agents import ask
    from interpreter.engine.game import Game
    from interpreter.replay import node_of
    from interpreter.state.errors import GameError, asked_of_nobody
    from interpreter.viewer.brief_log import BriefLog

    rb, cards, deck_lists = _setup(game, decks, seats, fmt)
    if log_format is None:
        log_format = "brief" if sys.stdout.isatty() else "full"
    brief = None
    # Which rulebook and decks: the brief log's first line, else on stderr (the full log is unchanged).
    loaded = play_header(rb, _deck_names(rb, decks, len(deck_lists)))
    if log_format == "brief":
        brief = BriefLog(rb, cards, rules=show_rules)
        click.echo(loaded)
    else:
        click.echo(loaded, err=True)
    names, players = _seats(_agent_names(agents, len(deck_lists)), len(deck_lists), seed, human=True)
    for seat in players:
        if hasattr(seat, "use_cards"):
            seat.use_cards(rb, cards)  # a human player reads cards by name
    # With a human at the table the brief log is theirs: each is told, at their decisions, what
    # happened since their last one as their seat may read it (a player shown the full log reads that).
    people = [seat for seat, n in zip(players, names, strict=True) if n == "human"]
    for seat in people:
        seat.log, seat.log_rules = brief is not None, show_rules
    g = Game(rb, cards, deck_lists, seed=seed)
    recorder = None
    if save_replay:
        from interpreter.replay import Recorder, content_hashes, make_header

        recorder = Recorder(make_header(rb, deck_lists, seed, list(names),
                                        content_hashes(rb, cards, deck_lists)))

    def save(error: BaseException | None = None, abandoned: bool = False) -> None:
        if recorder is not None and save_replay:
            recorder.finish(g, error, abandoned=abandoned).save(save_replay)
            click.echo(f"replay saved to {save_replay}", err=True)

    printed = 0
    # With a human at the table the log shows only what that player may see.
    humans = [i for i, n in enumerate(names) if n == "human"]
    reader = humans[0] if len(humans) == 1 else None

    def flush(end: bool = False) -> None:
        nonlocal printed
        if brief is not None and people:  # the people tell it; the last lines, once, as the first reads them
            if end:
                for line in people[0].news(g):
                    click.echo(line)
            return
        fresh = [e.for_player(reader) for e in g.entries[printed:]]
        printed = len(g.entries)
        if brief is not None:
            for line in brief.feed(fresh):
                click.echo(line)
            return
        for e in fresh:
            click.echo(e.as_json() if log_format == "jsonl" else e.as_text())

    try:
        while True:
            d = g.advance()
            flush(end=d is None)
            if d is None:
                break
            if d.player is None:
                raise asked_of_nobody(d, node_of(g))
            ids = ask(players[d.player], g, d)
            if recorder is not None:
                recorder.record(g, d, ids)
            g.answer(ids)
    except GameError as e:
        flush(end=True)
        save(e)
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, EOFError, click.Abort):
        save(abandoned=True)
        click.echo("\ngame abandoned", err=True)
        sys.exit(130)
    save()
    r = g.state.result or {}
    if log_format == "brief":
        click.echo(f"\nThe game ended after {r.get('turn')} turns and {g.state.decisions} decisions.")
    if log_format in ("full", "text"):
        who = result_text(r)
        click.echo(f"result: {who} after {r.get('turn')} turns, {g.state.decisions} decisions "
                   f"(rules {', '.join(r.get('rules', []))})")


@cli.command(cls=_SeatsCommand)
@click.argument("game")
@click.option("-n", "games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", default=1, show_default=True, help="First seed; game i uses seed+i.")
@click.option("--players", "seats", type=click.IntRange(min=1), default=None, help=_PLAYERS_HELP)
@click.option("--decks", multiple=True, type=click.Path(exists=True), metavar="DECK...", help=_DECKS_HELP)
@click.option("--format", "fmt", default=None, metavar="NAME", help=_FORMAT_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes to play on (default: all cores); 1 plays in this process.")
@click.option("--backend", type=click.Choice(["processes", "dask"]), default="processes", show_default=True,
              help="A local process pool, or Dask (the optional extra sogo[dask]).")
@click.option("--dask-address", default=None,
              help="Scheduler of an existing Dask cluster (default: a local one with --workers processes).")
@click.option("--max-decisions", type=click.IntRange(min=1), default=5000, show_default=True,
              help="A game with no result after this many decisions is a failure (never a hang).")
@click.option("--invariants/--no-invariants", default=True, show_default=True,
              help="Check card conservation, zone limits and hidden information after every step.")
@click.option("--failures-dir", type=click.Path(file_okay=False), default="sogo-failures", show_default=True,
              help="Where the replays of failed games are saved.")
@click.option("--agents", default=None,
              help="Comma-separated agent per player: random, first or mc[:N] (see `sogo play`)  "
                   "[default: random everywhere]")
def simulate(game: str, games: int, seed: int, seats: int | None, decks: tuple[str, ...], fmt: str | None,
             as_json: bool, workers: int | None,
             backend: str, dask_address: str | None, max_decisions: int, invariants: bool,
             failures_dir: str, agents: str | None) -> None:
    """Play many seeded games (random agents unless --agents says otherwise) and report outcomes,
    turns, errors and speed.

    Results depend on the seeds only, not on --workers or --backend. Each failed game (an error, a
    broken invariant, or no result within --max-decisions) is saved as a replay under
    --failures-dir; `sogo replay FILE` reproduces it. Exits 1 when any game failed.
    """
    import os

    from interpreter.sim import format_summary
    from interpreter.sim import simulate as run_sim

    rb, cards, deck_lists = _setup(game, decks, seats, fmt)
    names = _seats(agents, len(deck_lists), seed, human=False)[0] if agents else None
    bar: Any = None
    if not as_json and sys.stderr.isatty():
        from tqdm import tqdm

        tqdm.monitor_interval = 0  # no monitor thread in a process that forks workers
        bar = tqdm(total=games, unit="game", file=sys.stderr, dynamic_ncols=True, leave=False)
    try:
        summary = run_sim(rb, cards, deck_lists, games, seed, invariants=invariants, backend=backend,
                          workers=workers or os.cpu_count() or 1, max_decisions=max_decisions,
                          failures_dir=failures_dir, progress=bar.update if bar is not None else None,
                          dask_address=dask_address, agents=names)
    except RuntimeError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("\nsimulation interrupted", err=True)
        sys.exit(130)
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True))
    else:
        click.echo(format_summary(summary), nl=False)
    if summary["errors"]:
        sys.exit(1)


@cli.group()
def scenario() -> None:
    """Conformance scenarios."""


@scenario.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-v", "--verbose", is_flag=True, help="Print the log of failing scenarios.")
def scenario_run(paths: tuple[str, ...], verbose: bool) -> None:
    """Run scenario files (or directories of them); exit 1 if any fails."""
    from interpreter.scenarios.runner import run_scenario

    files: list[Path] = []
    for p in map(Path, paths):
        files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    failed = 0
    for f in files:
        o = run_scenario(f)
        status = "PASS" if o.passed else "FAIL"
        click.echo(f"{status} {o.id} ({', '.join(o.rules)})")
        if not o.passed:
            failed += 1
            for msg in o.failures:
                click.echo(f"     {msg}")
            if verbose and o.game is not None:
                for e in o.game.entries:
                    click.echo("       " + e.as_text())
    click.echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


@cli.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["dot", "mermaid"]), default="mermaid", show_default=True)
def graph(game: str, fmt: str) -> None:
    """Print the turn structure as a Graphviz or Mermaid diagram."""
    from interpreter.loader.graph_render import to_dot, to_mermaid
    from interpreter.loader.rulebook import load_rulebook

    _known_game(game)
    try:
        rb = load_rulebook(game)
    except LoadError as e:
        _fail(e)
    click.echo(to_dot(rb.graph) if fmt == "dot" else to_mermaid(rb.graph))


@cli.command("card")
@click.argument("game")
@click.argument("card_id")
def card_cmd(game: str, card_id: str) -> None:
    """Print one card of GAME's card database: its fields, text and abilities with the rules they cite
    and how each reads in plain English (as `sogo cards review` shows it)."""
    from interpreter.agents.cardinfo import card_details
    from interpreter.cardtext.review import readings_of
    from interpreter.cli.setup import card_folders, cards_dir
    from interpreter.loader.cards import load_cards
    from interpreter.loader.rulebook import load_rulebook

    _known_game(game)
    try:
        rb = load_rulebook(game)
        cards = load_cards(rb, card_folders(rb.id))
    except LoadError as e:
        _fail(e)
    card = cards.get(card_id)
    if card is None:
        near = sorted(c for c in cards if card_id.lower() in c.lower() or card_id.lower() in
                      str(cards[c].fields.get("name", "")).lower())
        hint = f" (did you mean: {', '.join(near[:8])})" if near else f" ({len(cards)} cards in {cards_dir(rb.id)})"
        raise click.BadParameter(f"no card '{card_id}' in {game}{hint}", param_hint="CARD_ID")
    click.echo("\n".join(card_details(rb, card, readings_of(rb, card))))


@cli.command("schema")
@click.argument("game")
@click.option("--write", "write_dir", type=click.Path(file_okay=False), default=None,
              help="Write it to DIR/GAME.cards.schema.json instead of printing it.")
def schema_cmd(game: str, write_dir: str | None) -> None:
    """Print the JSON Schema of GAME's card files, generated from its rulebook, for editors: point
    yaml-language-server at the written file (see docs/writing-cards.md)."""
    from interpreter.loader.cards import card_schema
    from interpreter.loader.rulebook import load_rulebook

    _known_game(game)
    try:
        rb = load_rulebook(game)
    except LoadError as e:
        _fail(e)
    text = json.dumps(card_schema(rb), indent=2, ensure_ascii=False) + "\n"
    if write_dir is None:
        click.echo(text, nl=False)
        return
    out = Path(write_dir) / f"{rb.id}.cards.schema.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)  # written whole or not at all
    click.echo(f"wrote {out}")


@cli.command("reference")
@click.option("--write", "write_file", type=click.Path(dir_okay=False), default=None,
              help="Write it to FILE (e.g. docs/reference.md) instead of printing it.")
@click.option("--check", "check_file", type=click.Path(dir_okay=False), default=None,
              help="Exit 1 if FILE differs from it (or some entry lacks its summary or example).")
def reference_cmd(write_file: str | None, check_file: str | None) -> None:
    """Print the reference of expressions and effects, generated from the interpreter's own registries:
    operators, names, what a player knows, card attributes, functions, verbs, kinds of action and the
    engine's events, each with an example."""
    from interpreter.reference import REGENERATE, problems, render

    missing = problems()
    for line in missing:
        click.echo(line, err=True)
    text = render()
    if check_file is not None:
        path = Path(check_file)
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != text:
            click.echo(f"{check_file} is out of date: run `{REGENERATE}`", err=True)
        sys.exit(1 if missing or current != text else 0)
    if write_file is None:
        click.echo(text, nl=False)
    else:
        out = Path(write_file)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)  # written whole or not at all
        click.echo(f"wrote {out}")
    if missing:
        sys.exit(1)


def _register_optional() -> None:
    from interpreter.cli.replay_cmd import replay

    cli.add_command(replay)
    from interpreter.cli.cards_cmd import cards

    cli.add_command(cards)
    from interpreter.cli.serve_cmd import serve

    cli.add_command(serve)
    try:
        from interpreter.cli.rules_cmd import rules
    except ImportError:  # pragma: no cover - the rules tools are optional at import time
        return
    cli.add_command(rules)
    from interpreter.cli.coverage_cmd import coverage
    from interpreter.cli.diff_cmd import diff

    cli.add_command(coverage)
    cli.add_command(diff)


_register_optional()


def main() -> None:
    try:
        cli(standalone_mode=True)
    except LoadError as e:
        _fail(e)


if __name__ == "__main__":
    main()
