"""`sogo serve GAME`: play a game in the browser, on the game's play mat (interpreter/serve/)."""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path
from typing import Any

import click


class _ServeCommand(click.Command):
    """--decks takes one deck per seat (`--decks A B`), as `sogo play` does."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from interpreter.cli.main import _spread_decks

        return super().parse_args(ctx, _spread_decks(args))


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@click.command("serve", cls=_ServeCommand)
@click.argument("game")
@click.option("--agents", default=None,
              help="Comma-separated player per seat: human (a person, in the browser), random, first or mc[:N] "
                   "[default: human at the first seat, random at the others].")
@click.option("--hotseat", is_flag=True,
              help="All human seats share one link (one screen): the page asks to hand it over between them.")
@click.option("--seed", default=1, show_default=True, help="Seed for the game's random generator (New game adds 1).")
@click.option("--players", "seats", type=click.IntRange(min=1), default=None,
              help="Number of players (seats); one of the counts the rulebook allows.")
@click.option("--decks", multiple=True, type=click.Path(exists=True), metavar="DECK...",
              help="Deck files, one per seat (--decks A B); default: the game's sample decks, in turn.")
@click.option("--format", "fmt", default=None, metavar="NAME", help="A format of the rulebook to play under.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect unless you name another address.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--replays", "replay_dir", type=click.Path(file_okay=False), default="sogo-replays",
              show_default=True, help="Where Save replay writes replays (`sogo replay FILE` reads them).")
@click.option("--save-at-end", is_flag=True, help="Save the replay by itself when a game ends.")
@click.option("--open", "open_browser", is_flag=True, help="Open the first seat's page in the web browser.")
def serve(game: str, agents: str | None, hotseat: bool, seed: int, seats: int | None, decks: tuple[str, ...],
          fmt: str | None, host: str, port: int, replay_dir: str, save_at_end: bool, open_browser: bool) -> None:
    """Play GAME in the web browser against agents, or with other people (each at their own link, or
    --hotseat at one screen), on the game's play mat.

    Each person's page is sent only what their seat may see. Stop the server with Ctrl+C.
    """
    try:
        import uvicorn

        from interpreter.serve.app import Table, make_app, new_tokens
        from interpreter.serve.session import HUMAN, Session, game_title
    except ImportError as e:  # pragma: no cover - depends on the installed extras
        raise click.UsageError(f"sogo serve needs the serve extra: pip install 'sogo[serve]' ({e})") from e
    from interpreter.agents import make_agents
    from interpreter.cli.main import _setup

    rb, cards, deck_lists = _setup(game, decks, seats, fmt)
    n = len(deck_lists)
    names = [x.strip() for x in (agents or ",".join([HUMAN] + ["random"] * (n - 1))).split(",")]
    try:
        make_agents(tuple("random" if x == HUMAN else x for x in names), seed, n)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--agents") from e
    humans = [p for p, x in enumerate(names) if x == HUMAN]
    if not humans:
        raise click.BadParameter("no seat is a person's: name at least one seat `human`", param_hint="--agents")

    def new_session(s: int) -> Any:
        return Session(rb, cards, deck_lists, s, names, Path(replay_dir), save_at_end=save_at_end)

    tokens = new_tokens(humans, hotseat)
    table = Table(new_session, seed, tokens)
    app = make_app(table)
    if port == 0:
        port = _free_port(host)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Serving {game_title(rb)} (seed {seed}; seats: {', '.join(names)}) at http://{shown}:{port}/")
    links = []
    for token, seat in tokens.items():
        url = f"http://{shown}:{port}/play/{token}"
        who = "all human seats (hotseat)" if seat < 0 else f"P{seat + 1}"
        click.echo(f"  {who}: {url}")
        links.append(url)
    if not _loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach it and has a seat's link can play that seat",
                   err=True)
    click.echo("Keep each link for its player (it is that seat's key). Ctrl+C stops the server.")
    if open_browser:
        import webbrowser

        webbrowser.open(links[0])
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 16)
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles Ctrl+C itself
        pass
    sys.exit(0)
