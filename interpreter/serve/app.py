"""The web app of `sogo serve`: a Starlette application (run by uvicorn) that serves the play page, its
assets, a websocket per open page and the replays the game was saved as.

Safe by construction:
- A page is opened by its seat's secret link, `/play/TOKEN` (the command prints one per person, or one
  for a hotseat table that all people share); its websocket, `/ws/TOKEN`, is that seat's. The page
  itself is the same static file for everyone: what it shows arrives on its socket, and every message
  is built by `Session.message(seat)` from what that seat may see (the play mat `mat(game, seat)`, its
  own decision) and the page's own log of that seat (serve/log.py: the brief log as that seat reads
  it, or the engine's full log at the page's asking). A hotseat table is sent a seat's table only after the
  person at the screen says they are that seat (a hand-over screen between seats).
- Whatever a page sends is checked: an answer must be the pending decision of that page's seat and
  name only options offered; anything else is refused with a message, never a traceback.
- Files: the assets are a fixed table of names (no path is ever built from a request), and a replay
  is served only by a name this server wrote, once its game has ended.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.serve.log import PageLog
from interpreter.serve.session import Refused, Session, game_title

HOTSEAT = -1
MAX_MESSAGE = 20_000  # characters: an answer is a short list of option ids
_log = logging.getLogger("sogo.serve")


def _asset(package: str, name: str) -> Path:
    return Path(str(resources.files(package).joinpath("assets", name)))


# The only files served besides replays: name -> (file, media type).
ASSETS: dict[str, tuple[Path, str]] = {
    "mat.js": (_asset("interpreter.viewer", "mat.js"), "text/javascript"),
    "mat.css": (_asset("interpreter.viewer", "mat.css"), "text/css"),
    "play.js": (_asset("interpreter.serve", "play.js"), "text/javascript"),
    "play.css": (_asset("interpreter.serve", "play.css"), "text/css"),
}


@dataclass
class Page:
    """One open page: its seat (HOTSEAT: whichever person must decide) and what it was sent so far."""

    ws: WebSocket
    seat: int
    shown: int | None = None  # the seat whose table a hotseat page shows now
    log: PageLog | None = None  # the log sent so far (None: start it over)
    full_log: bool = False  # the engine's full log rather than the brief one
    notes_at: int = 0
    handing_over: int | None = None


@dataclass
class Table:
    """The served game and its open pages. `new_session(seed)` makes the next game (New game)."""

    new_session: Callable[[int], Session]
    seed: int
    tokens: dict[str, int]  # secret link -> seat (HOTSEAT for the shared table)
    session: Session = field(init=False)
    pages: list[Page] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.session = self.new_session(self.seed)

    # -- what a page is sent ---------------------------------------------------------------------
    def seat_of(self, page: Page) -> int | None:
        """The seat a page shows now (a hotseat page: the person who must decide, once handed over)."""
        if page.seat != HOTSEAT:
            return page.seat
        return page.shown

    def hotseat_target(self) -> int | None:
        d = self.session.decision
        if d is not None:
            return d.player
        return None

    def messages(self, page: Page) -> list[dict[str, Any]]:
        s = self.session
        if page.seat == HOTSEAT:
            target = self.hotseat_target()
            if target is not None and target != page.shown:
                page.handing_over = target
                return [{"type": "handover", "seat": target, "name": f"P{target + 1}"}]
            if page.shown is None:
                humans = s.humans
                page.shown = humans[0] if humans else 0
        seat = self.seat_of(page)
        assert seat is not None
        msg = s.message(seat)
        msg["log_reset"] = page.log is None or page.log.seat != seat
        if msg["log_reset"]:
            page.log = s.page_log(seat, page.full_log)
        assert page.log is not None
        msg["log"] = page.log.read(s.game.entries)
        msg["notes"], page.notes_at = s.notes_for(seat, page.notes_at)
        msg["hotseat"] = page.seat == HOTSEAT
        return [msg]

    async def send(self, page: Page) -> None:
        for m in self.messages(page):
            await page.ws.send_text(json.dumps(m, ensure_ascii=False))

    async def broadcast(self) -> None:
        for page in list(self.pages):
            try:
                await self.send(page)
            except Exception:  # noqa: BLE001 - a page that went away is dropped
                if page in self.pages:
                    self.pages.remove(page)

    # -- what a page asks ------------------------------------------------------------------------
    async def handle(self, page: Page, raw: str) -> dict[str, Any] | None:
        """Carry out one message from a page; the reply for that page alone (None: the table changed and
        every page is sent its state). Refused raises with the reason."""
        if len(raw) > MAX_MESSAGE:
            raise Refused("message too long")
        try:
            msg = json.loads(raw)
        except ValueError:
            raise Refused("not a JSON message") from None
        if not isinstance(msg, dict):
            raise Refused("a message is a JSON object with a type")
        kind = msg.get("type")
        s = self.session
        if kind == "answer":
            seat = self.seat_of(page)
            if seat is None or (page.seat == HOTSEAT and page.handing_over is not None):
                raise Refused("this page shows no seat yet")
            await asyncio.to_thread(s.answer, seat, msg.get("number"), msg.get("ids"))
            return None
        if kind == "ready" and page.seat == HOTSEAT:
            if page.handing_over is None:
                raise Refused("no seat is being handed over")
            page.shown, page.handing_over = page.handing_over, None
            page.log, page.notes_at = None, 0
            await self.send(page)
            return {}
        if kind == "log":
            page.full_log = msg.get("full") is True
            page.log = None
            await self.send(page)
            return {}
        if kind == "save":
            saved = s.save()
            reply: dict[str, Any] = {"type": "saved", "name": saved.name, "path": str(saved.path),
                                     "final": saved.final}
            if saved.final:
                reply["download"] = f"/replays/{saved.name}"
                reply["view"] = f"/replays/{saved.name}/view"
            return reply
        if kind == "new_game":
            if not s.over:
                raise Refused("the game is not over yet")
            self.seed += 1
            self.session = await asyncio.to_thread(self.new_session, self.seed)
            for p in self.pages:
                p.log, p.notes_at = None, 0
                p.shown = None
            return None
        raise Refused(f"unknown message type {str(kind)[:40]!r}")

def _page_html(title: str) -> str:
    """The play page: the same static page for every seat (what it shows comes over its socket)."""
    from html import escape

    text = _asset("interpreter.serve", "play.html").read_text(encoding="utf-8")
    return text.replace("{title}", escape(title))


def make_app(table: Table) -> Starlette:
    """The app serving `table` (module docstring)."""
    title = game_title(table.session.rb)
    page_html = _page_html(title)

    async def index(request: Request) -> Response:
        from html import escape

        return HTMLResponse(
            f"<!doctype html><meta charset='utf-8'><title>Sogo</title><h1>{escape(title)}</h1>"
            "<p>This Sogo server plays one game. Open your seat's link, which <code>sogo serve</code> printed "
            "when it started.</p>")

    async def play(request: Request) -> Response:
        if request.path_params["token"] not in table.tokens:
            return PlainTextResponse("no such seat: open the link sogo serve printed", status_code=404)
        return HTMLResponse(page_html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def asset(request: Request) -> Response:
        entry = ASSETS.get(request.path_params["name"])
        if entry is None:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(entry[0], media_type=entry[1])

    def saved_file(name: str) -> Path | None:
        s = table.session
        return next((x.path for x in s.saved if x.name == name and x.final), None)

    async def replay(request: Request) -> Response:
        path = saved_file(request.path_params["name"])
        if path is None:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(path, media_type="application/x-ndjson", filename=path.name)

    async def replay_view(request: Request) -> Response:
        path = saved_file(request.path_params["name"])
        if path is None:
            return PlainTextResponse("not found", status_code=404)
        from interpreter.replay import Replay
        from interpreter.viewer import build_page

        s = table.session
        html = await asyncio.to_thread(build_page, Replay.load(path), s.rb, s.cards, None, path.name)
        return HTMLResponse(html)

    async def socket(ws: WebSocket) -> None:
        seat = table.tokens.get(ws.path_params["token"])
        if seat is None:
            await ws.close(code=4404, reason="no such seat")
            return
        await ws.accept()
        page = Page(ws, seat)
        async with table.lock:
            table.pages.append(page)
            await table.send(page)
        try:
            while True:
                raw = await ws.receive_text()
                async with table.lock:
                    try:
                        reply = await table.handle(page, raw)
                    except Refused as e:
                        await ws.send_text(json.dumps({"type": "refused", "message": str(e)}))
                        continue
                    except Exception:  # noqa: BLE001 - never a traceback to a page
                        _log.exception("a message could not be handled")
                        await ws.send_text(json.dumps({"type": "refused", "message": "the server could not do that"}))
                        continue
                    if reply is None:
                        await table.broadcast()
                    elif reply:
                        await ws.send_text(json.dumps(reply, ensure_ascii=False))
        except WebSocketDisconnect:
            pass
        finally:
            if page in table.pages:
                table.pages.remove(page)

    routes = [
        Route("/", index),
        Route("/play/{token}", play),
        Route("/assets/{name}", asset),
        Route("/replays/{name}", replay),
        Route("/replays/{name}/view", replay_view),
        WebSocketRoute("/ws/{token}", socket),
    ]
    return Starlette(routes=routes)


def new_tokens(humans: list[int], hotseat: bool) -> dict[str, int]:
    """A secret link per person's seat, or one shared hotseat link for all of them."""
    if hotseat:
        return {secrets.token_urlsafe(12): HOTSEAT}
    return {secrets.token_urlsafe(12): p for p in humans}
