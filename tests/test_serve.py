"""`sogo serve` (interpreter/serve/): the web app driven through Starlette's TestClient, page by page
and socket message by socket message.

- A complete game of each game is played through a seat's socket, and every message that seat is
  sent is inspected: no card it may not see carries its identity (the mat, the options, the log as it
  may read it), so two people at one server cannot read each other's hands from the socket.
- The game played through the app is the game the engine plays: its saved replay reproduces it
  (describing the options never changed the game).
- What a page sends that is not an offered option (or not JSON, or for another seat, or stale) is
  refused with a message, and the socket goes on working; no file outside the assets and the replays
  the server wrote is served, whatever the path says.
- Hotseat: one link for every person, a hand-over screen carrying nothing of the table between seats.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from interpreter.cli.main import cli  # noqa: E402
from interpreter.cli.setup import load_game_env  # noqa: E402
from interpreter.replay import Replay, run_replay  # noqa: E402
from interpreter.serve.app import HOTSEAT, Table, make_app, new_tokens  # noqa: E402
from interpreter.serve.log import PageLog  # noqa: E402
from interpreter.serve.session import Session  # noqa: E402
from interpreter.table.views import can_see  # noqa: E402
from interpreter.viewer.brief_log import BriefLog  # noqa: E402
from interpreter.viewer.wording import Wording, current_ctx  # noqa: E402

GAMES = ["lovelive", "haikyu", "hololive", "rebirth", "osica"]
_ENV: dict[str, Any] = {}


def env(game: str) -> Any:
    if game not in _ENV:
        _ENV[game] = load_game_env(game, None)
    return _ENV[game]


def serve(game: str, names: list[str], tmp: Path, *, hotseat: bool = False, seed: int = 1) -> tuple[Table, Any]:
    rb, cards, decks = env(game)
    humans = [p for p, n in enumerate(names) if n == "human"]
    table = Table(lambda s: Session(rb, cards, decks, s, names, tmp), seed, new_tokens(humans, hotseat))
    return table, make_app(table)


def token_of(table: Table, seat: int) -> str:
    return next(t for t, s in table.tokens.items() if s == seat)


def walk(value: Any) -> Any:
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def check_sees_only_its_own(msg: dict[str, Any], table: Table, seat: int) -> int:
    """Everything `seat` is sent is what it may see now; returns how many hidden cards were checked."""
    game = table.session.game
    objs = game.state.objects
    hidden = 0
    seen_ids = {o.card_id for o in objs.values() if can_see(game, o, seat)}
    for d in walk(msg["mat"]):
        if "oid" in d and d["oid"] in objs:
            if can_see(game, objs[d["oid"]], seat):
                assert "card" in d, d
            else:
                hidden += 1
                assert not {"card", "fields", "counters", "tags"} & d.keys(), d
    assert set(msg["mat"]["cards"]) <= seen_ids
    decision = msg["decision"]
    if decision is not None:
        assert game._decision is not None and game._decision.player == seat
        for o in decision["options"]:
            if "card" in o and o["card"] in objs and not can_see(game, objs[o["card"]], seat):
                assert o["title"].startswith("hidden card"), o
    # The log is the brief log of the entries as this seat may read them, read on from the last message.
    logs: dict[int, PageLog] = table.__dict__.setdefault("test_logs", {})
    if msg["log_reset"] or seat not in logs:
        assert msg["log_reset"]
        logs[seat] = PageLog(game.rb, game.cards, seat)
    assert msg["log"] == logs[seat].read(game.entries)
    assert all(set(line) == {"heading", "text", "rules"} for line in msg["log"])
    return hidden


def pick(rng: random.Random, decision: dict[str, Any]) -> list[str]:
    ids = [o["id"] for o in decision["options"]]
    return rng.sample(ids, rng.randint(decision["min"], decision["max"]))


@pytest.mark.parametrize("game", GAMES)
def test_a_complete_game_through_the_socket_shows_the_seat_only_what_it_may_see(game, tmp_path):
    table, app = serve(game, ["human", "random"], tmp_path)
    rng = random.Random(7)
    hidden = answers = 0
    notes: list[str] = []
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token_of(table, 0)}") as ws:
        msg = ws.receive_json()
        while True:
            assert msg["type"] == "state" and msg["seat"] == 0
            hidden += check_sees_only_its_own(msg, table, 0)
            notes += msg["notes"]
            if msg["result"] is not None:
                break
            assert msg["decision"] is not None, msg["error"]
            ws.send_json({"type": "answer", "number": msg["number"], "ids": pick(rng, msg["decision"])})
            answers += 1
            msg = ws.receive_json()
        assert msg["mat"]["result"] is not None and answers > 3
        assert hidden > 0  # the opponent's hand and the decks were there, as card backs
        # What the engine did for the seat unasked was announced (viewer.wording.Announcer).
        assert all(n.startswith(("Nothing to do but pass: passed for you", "The only possible choice was made "
                                 "for you: ")) for n in notes), notes
        assert notes or game == "haikyu"
        ws.send_json({"type": "save"})
        saved = ws.receive_json()
    assert saved["type"] == "saved" and saved["final"]
    # The game served is the engine's game: its replay reproduces it exactly.
    rb, cards, _ = env(game)
    out = run_replay(Replay.load(saved["path"]), rb, cards, log=False)
    assert out.divergence is None and out.fingerprint == Replay.load(saved["path"]).end["fingerprint"]


def test_two_people_at_one_server_cannot_read_each_others_hands(tmp_path):
    table, app = serve("lovelive", ["human", "human"], tmp_path)
    rng = random.Random(3)
    hands_hidden = 0
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token_of(table, 0)}") as one, \
            client.websocket_connect(f"/ws/{token_of(table, 1)}") as two:
        socks = [one, two]
        msgs = [one.receive_json(), two.receive_json()]
        for _ in range(400):
            for seat, msg in enumerate(msgs):
                check_sees_only_its_own(msg, table, seat)
                game = table.session.game
                other_hand = game.state.zones.get(("hand", 1 - seat), [])
                shown = {d["oid"]: d for d in walk(msg["mat"]) if "oid" in d}
                for oid in other_hand:  # unless an effect revealed it to this seat (then it knows it)
                    if not can_see(game, game.state.objects[oid], seat):
                        assert "card" not in shown.get(oid, {})
                        hands_hidden += 1
            if msgs[0]["result"] is not None:
                break
            seat = next(s for s, m in enumerate(msgs) if m["decision"] is not None)
            assert msgs[1 - seat]["decision"] is None and msgs[1 - seat]["waiting"] == f"P{seat + 1} is choosing"
            socks[seat].send_json({"type": "answer", "number": msgs[seat]["number"],
                                   "ids": pick(rng, msgs[seat]["decision"])})
            msgs = [one.receive_json(), two.receive_json()]
    assert hands_hidden > 100


def test_what_is_not_an_offered_option_is_refused_with_a_message(tmp_path):
    table, app = serve("lovelive", ["human", "human"], tmp_path)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token_of(table, 0)}") as one, \
            client.websocket_connect(f"/ws/{token_of(table, 1)}") as two:
        msgs = {0: one.receive_json(), 1: two.receive_json()}
        seat = next(s for s, m in msgs.items() if m["decision"])
        me, other = (one, two) if seat == 0 else (two, one)
        number = msgs[seat]["number"]
        ids = [o["id"] for o in msgs[seat]["decision"]["options"]]
        bad = [
            (me, "not json", "JSON"),
            (me, "[1, 2]", "object"),
            (me, {"type": "cheat"}, "unknown message type"),
            (me, {"type": "answer", "number": number, "ids": ["c99999"]}, "not one of the options offered"),
            (me, {"type": "answer", "number": number, "ids": "p1"}, "list of option ids"),
            (me, {"type": "answer", "number": number, "ids": [{"x": 1}]}, "list of option ids"),
            (me, {"type": "answer", "number": number, "ids": ids * 2}, ""),
            (me, {"type": "answer", "number": number - 1, "ids": ids[:1]}, "no longer asked"),
            (other, {"type": "answer", "number": number, "ids": ids[:1]}, "not P"),
            (me, {"type": "new_game"}, "not over"),
            (me, {"type": "ready"}, "unknown message type"),
            (me, "x" * 30_000, "too long"),
        ]
        for sock, payload, says in bad:
            if isinstance(payload, str):
                sock.send_text(payload)
            else:
                sock.send_json(payload)
            reply = sock.receive_json()
            assert reply["type"] == "refused" and says in reply["message"], (payload, reply)
            assert "Traceback" not in reply["message"]
        # The socket still works: a real answer is taken and both pages are sent the table.
        me.send_json({"type": "answer", "number": number, "ids": ids[:1]})
        assert me.receive_json()["type"] == "state" and other.receive_json()["type"] == "state"


def test_no_file_outside_the_assets_and_the_replays_it_wrote(tmp_path):
    table, app = serve("lovelive", ["human", "random"], tmp_path)
    token = token_of(table, 0)
    with TestClient(app) as client:
        assert client.get("/assets/mat.js").status_code == 200
        assert "renderMat" in client.get("/assets/mat.js").text
        assert client.get(f"/play/{token}").status_code == 200
        page = client.get(f"/play/{token}").text
        assert "hand" not in page.lower() or "handover" in page.lower()  # the page itself holds no game
        for path in ["/assets/../pyproject.toml", "/assets/%2e%2e%2fpyproject.toml", "/assets/..%2f..%2fsetup.py",
                     "/assets/mat.py", "/assets/%2Fetc%2Fpasswd", "/assets//etc/passwd", "/play/wrong",
                     "/play/../assets/mat.js/../../../setup.py", "/replays/..%2f..%2fsetup.py",
                     "/replays/%2e%2e/pyproject.toml", "/replays/x.jsonl", "/replays/x.jsonl/view",
                     "/interpreter/serve/app.py", "/setup.py"]:
            r = client.get(path)
            assert r.status_code == 404, path
            assert "[project]" not in r.text and "setuptools" not in r.text
        with client.websocket_connect(f"/ws/{token}") as ws:
            first = ws.receive_json()
            # A replay saved mid-game is written, but not served while the game goes on (it holds every card).
            ws.send_json({"type": "save"})
            saved = ws.receive_json()
            assert saved["type"] == "saved" and not saved["final"] and "download" not in saved
            assert Path(saved["path"]).is_file() and Path(saved["path"]).parent == tmp_path
            assert client.get(f"/replays/{saved['name']}").status_code == 404
            assert first["number"] == 1
        with pytest.raises(Exception):  # noqa: B017 - the socket of no seat is closed at once
            with client.websocket_connect("/ws/wrong") as ws:
                ws.receive_json()


def test_a_finished_games_replay_is_served_and_opens_in_the_viewer(tmp_path):
    table, app = serve("haikyu", ["human", "random"], tmp_path)
    rng = random.Random(1)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token_of(table, 0)}") as ws:
        msg = ws.receive_json()
        while msg["result"] is None:
            ws.send_json({"type": "answer", "number": msg["number"], "ids": pick(rng, msg["decision"])})
            msg = ws.receive_json()
        ws.send_json({"type": "save"})
        saved = ws.receive_json()
        assert saved["final"]
        r = client.get(saved["download"])
        assert r.status_code == 200 and r.text.startswith('{"replay": "sogo"')
        view = client.get(saved["view"])
        assert view.status_code == 200 and "renderMat" in view.text
        # New game: the next seed, the same links.
        ws.send_json({"type": "new_game"})
        fresh = ws.receive_json()
        assert fresh["type"] == "state" and fresh["result"] is None and table.session.seed == 2


def test_the_page_log_is_the_brief_log_and_the_full_log_on_demand(tmp_path):
    """The page's log is the brief log as the seat reads it (headings, lines, rules kept apart); the
    page's switch asks for the engine's full log instead: every entry as the seat may read it."""
    table, app = serve("hololive", ["human", "random"], tmp_path)
    rng = random.Random(2)
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token_of(table, 0)}") as ws:
        msg = ws.receive_json()
        for _ in range(30):
            ws.send_json({"type": "answer", "number": msg["number"], "ids": pick(rng, msg["decision"])})
            msg = ws.receive_json()
        game = table.session.game
        ws.send_json({"type": "log", "full": True})
        full = ws.receive_json()
        assert full["log_reset"] and [x["text"] for x in full["log"]] == [e.for_player(0).text for e in game.entries]
        assert {"seq", "turn", "kind", "chance"} <= set(full["log"][0])
        ws.send_json({"type": "log", "full": False})
        brief = ws.receive_json()
    assert brief["log_reset"]
    told = BriefLog(game.rb, game.cards).items([e.for_player(0) for e in game.entries])
    assert [(x["heading"] or "line", x["text"]) for x in brief["log"]] == [(x.kind, x.text) for x in told]
    headings = {x["heading"] for x in brief["log"]}
    assert {"setup", "turn", "phase"} <= headings and any(x["rules"] for x in brief["log"])
    assert len(brief["log"]) < len(full["log"]) and not any(re.search(r"#\d+\]", x["text"]) for x in brief["log"])


def test_hotseat_hands_the_screen_over_showing_nothing_between_seats(tmp_path):
    table, app = serve("lovelive", ["human", "human"], tmp_path, hotseat=True)
    (token,) = table.tokens
    assert table.tokens[token] == HOTSEAT
    rng = random.Random(5)
    handovers = set()
    with TestClient(app) as client, client.websocket_connect(f"/ws/{token}") as ws:
        msg = ws.receive_json()
        for _ in range(60):
            if msg["type"] == "handover":
                assert set(msg) == {"type", "seat", "name"}  # nothing of the table
                handovers.add(msg["seat"])
                ws.send_json({"type": "answer", "number": 1, "ids": ["p1"]})
                assert ws.receive_json()["type"] == "refused"  # no seat is shown until it is taken
                ws.send_json({"type": "ready"})
                msg = ws.receive_json()
                assert msg["type"] == "state" and msg["seat"] in handovers
                assert msg["log_reset"]
            check_sees_only_its_own(msg, table, msg["seat"])
            ws.send_json({"type": "answer", "number": msg["number"], "ids": pick(rng, msg["decision"])})
            msg = ws.receive_json()
    assert handovers == {0, 1}


def test_choose_one_options_say_what_they_change_without_changing_the_game():
    """Love Live's baton touch: the course of action that lowers the payment says so (to pay N -> M)
    and the one that does not says the payment; describing them changes nothing in the game."""
    from interpreter.agents import RandomAgent
    from interpreter.engine.game import Game

    rb, cards, decks = env("lovelive")
    for seed in range(1, 30):
        g = Game(rb, cards, decks, seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while (d := g.advance()) is not None:
            if d.kind == "one" and len(d.options) == 2 and any(o.value.get("do") for o in d.options):
                ctx = current_ctx(g)
                before = (g.state.fingerprint(), dict(ctx.all_vars()))
                described = Wording(g, d.player).describe(d, ctx)
                assert (g.state.fingerprint(), dict(ctx.all_vars())) == before
                details = {o["id"]: o["detail"] for o in described["options"]}
                changes = [t for t in details.values() if "→" in t]
                assert len(changes) == 1, details
                name = changes[0].split(" → ")[0].rsplit(" ", 1)[0]
                assert any(t.startswith(name) and "→" not in t for t in details.values()), details
                return
            g.answer(agents[d.player].decide(d, {}))
    pytest.fail("no decision between two courses of action in 30 games")


def test_the_command_listens_on_localhost_and_needs_a_person(monkeypatch, tmp_path):
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    res = CliRunner().invoke(cli, ["serve", "haikyu", "--replays", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert calls and calls[0]["host"] == "127.0.0.1"
    assert "P1: http://127.0.0.1:8765/play/" in res.output and "warning" not in res.output
    res = CliRunner().invoke(cli, ["serve", "haikyu", "--agents", "random,random"])
    assert res.exit_code == 2 and "human" in res.output
    res = CliRunner().invoke(cli, ["serve", "haikyu", "--agents", "human,wizard"])
    assert res.exit_code == 2 and "unknown agent" in res.output
    res = CliRunner().invoke(cli, ["serve", "haikyu", "--agents", "human,human", "--hotseat", "--host", "0.0.0.0"])
    assert res.exit_code == 0 and "hotseat" in res.output and "warning" in res.output
    assert calls[-1]["host"] == "0.0.0.0"
