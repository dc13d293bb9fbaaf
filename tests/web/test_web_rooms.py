"""Rooms (bingwa/web/rooms.py, room_server.py) over the real socket
(aiohttp's test client, no browser): seats and tokens, every message
checked against the seat that sent it, resign, draw offers, rematches,
clocks, hints only where allowed, the bounds, and rooms that survive a
restart of the server through their SQLite store."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bingwa.engine import Position, find_variant  # noqa: E402
from bingwa.engine.ogn import parse_ogn  # noqa: E402
from bingwa.engine.records import parse_record  # noqa: E402
from bingwa.web.room_server import HALL_KEY, ROOM_MESSAGE  # noqa: E402
from bingwa.web.rooms import ClockSetting, Room, RoomError, RoomStore, token_hash  # noqa: E402
from bingwa.web.server import make_app  # noqa: E402


class Page:
    """One room page's socket."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def send(self, **message: Any) -> None:
        await self.ws.send_json(message)

    async def next(self, kind: str, where: Any = None, timeout: float = 30.0) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            while True:
                message = await self.ws.receive_json()
                if message["type"] == kind and (where is None or where(message)):
                    return message

        return await asyncio.wait_for(read(), timeout)

    async def error(self) -> str:
        return (await self.next("error"))["message"]


async def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"variant": "oware", "side": "south", **fields}
    response = await client.post("/rooms", json=body)
    return {"status": response.status, **(await response.json())}


async def enter(client: TestClient, room: str, seat: str | None = None) -> tuple[Page, dict]:
    page = Page(await client.ws_connect("/rooms/ws"))
    await page.next("hello")
    await page.send(type="join", room=room, seat=seat)
    return page, await page.next("state")


def run(test, store: RoomStore | None = None, **bounds: int) -> None:
    async def main() -> None:
        app = make_app(rooms=store)
        if bounds:
            for name, value in bounds.items():
                setattr(app[HALL_KEY], name, value)
        async with TestClient(TestServer(app)) as client:
            await test(client, app)

    asyncio.run(main())


def legal(state: dict[str, Any]) -> list[str]:
    return [m["text"] for row in state["board"]["rows"] for cell in row
            for m in cell.get("moves", [])]


async def table(client: TestClient, **fields: Any) -> tuple[Page, Page, dict, dict]:
    """A room with both seats taken: (host, guest, host's state, guest's)."""
    made = await create(client, **fields)
    host, _ = await enter(client, made["room"], made["seat"])
    guest, guest_state = await enter(client, made["room"])
    host_state = await host.next("state", lambda m: m["room"]["players"]["north"]["present"]
                                 or m["room"]["players"]["south"]["present"] and
                                 m["room"]["watchers"] == 0 and
                                 all(p["taken"] for p in m["room"]["players"].values()))
    return host, guest, host_state, guest_state


def test_the_guest_takes_the_free_seat_and_later_visitors_watch():
    async def test(client, app):
        made = await create(client, side="north")
        assert made["status"] == 200 and made["side"] == "north"
        host, state = await enter(client, made["room"], made["seat"])
        assert state["room"]["you"] == "north" and state["room"]["seat"] == "host"
        assert not state["room"]["players"]["south"]["taken"]
        guest, state = await enter(client, made["room"])
        assert state["room"]["you"] == "south" and state["room"]["seat"] == "guest"
        token = state["room"]["token"]
        assert len(token) >= 22  # 128 random bits
        watcher, state = await enter(client, made["room"])
        assert state["room"]["you"] == "watcher" and "token" not in state["room"]
        assert state["room"]["watchers"] == 1
        # the guest's token takes the guest's seat back; the store has only its hash
        again, state = await enter(client, made["room"], token)
        assert state["room"]["you"] == "south"
        row = app[HALL_KEY].store.db.execute("SELECT guest_seat FROM rooms").fetchone()
        assert row[0] == token_hash(token) and token not in row[0]

    run(test)


def test_a_watcher_cannot_move_and_north_cannot_move_for_south():
    async def test(client, app):
        host, guest, state, _ = await table(client, side="south")
        watcher, _ = await enter(client, state["room"]["id"])
        await watcher.send(type="move", move="c")
        assert await watcher.error() == "you are watching this room: only its two players move"
        await guest.send(type="move", move="c")
        assert await guest.error() == "it is South's turn: you play North"
        await host.send(type="move", move="A")
        assert await host.error() == "A: not your pit (South to move)"
        await host.send(type="move", move="c")
        after = await guest.next("state", lambda m: len(m["line"]) == 1)
        assert after["line"][0]["move"] == "c" and after["board"]["turn"] == 1
        await watcher.send(type="offer", what="draw")
        assert await watcher.error() == "offer: you are watching this room"

    run(test)


def test_the_host_cannot_move_before_the_guest_arrives():
    async def test(client, app):
        made = await create(client)
        host, _ = await enter(client, made["room"], made["seat"])
        await host.send(type="move", move="c")
        assert await host.error() == ("nobody has taken the other seat yet: "
                                      "send your friend the link")

    run(test)


def test_resign_ends_the_game_and_a_rematch_swaps_the_colours():
    async def test(client, app):
        host, guest, _, _ = await table(client, side="south")
        await guest.send(type="offer", what="rematch")
        assert await guest.error() == "a rematch is offered when the game is over"
        await host.send(type="resign")
        over = await guest.next("state", lambda m: m["outcome"] is not None)
        assert over["outcome"]["text"] == "North wins, 0-0: South resigned"
        assert over["board"]["over"] and over["outcome"]["result"] == "0-1"
        await guest.send(type="offer", what="rematch")
        offered = await host.next("state", lambda m: m["room"]["offer"] is not None)
        assert offered["room"]["offer"] == {"what": "rematch", "by": 1}
        await guest.send(type="accept")
        assert await guest.error() == "the rematch offer is yours: the other player answers it"
        await host.send(type="accept")
        fresh = await host.next("state", lambda m: m["room"]["game"] == 2)
        assert fresh["room"]["you"] == "north" and fresh["outcome"] is None
        assert fresh["line"] == []
        # the guest now plays South and moves first
        await guest.send(type="move", move="a")
        await host.next("state", lambda m: len(m["line"]) == 1)

    run(test)


def test_a_draw_offer_is_declined_then_accepted():
    async def test(client, app):
        host, guest, _, _ = await table(client)
        await host.send(type="offer", what="draw")
        await guest.next("state", lambda m: m["room"]["offer"] == {"what": "draw", "by": 0})
        await host.send(type="offer", what="draw")
        assert await host.error() == "South's draw offer is waiting for an answer"
        await guest.send(type="decline")
        await host.next("state", lambda m: m["room"]["offer"] is None)
        await guest.send(type="accept")
        assert await guest.error() == "there is no offer to answer"
        await guest.send(type="offer", what="draw")
        await host.next("state", lambda m: m["room"]["offer"] == {"what": "draw", "by": 1})
        await host.send(type="accept")
        over = await guest.next("state", lambda m: m["outcome"] is not None)
        assert over["outcome"]["text"] == "Draw, 0-0: a draw was agreed"
        await host.send(type="save", format="record")
        record = parse_record((await host.next("record"))["text"])
        assert record.result == "1/2-1/2" and record.tags["Termination"] == "agreement"

    run(test)


def test_a_finished_oware_game_downloads_as_a_record_and_as_ogn():
    async def test(client, app):
        host, guest, state, _ = await table(client)
        pages = {0: host, 1: guest}
        rng = random.Random(7)
        played = []
        while state["outcome"] is None:
            move = rng.choice(legal(state))
            played.append(move)
            count = len(played)
            await pages[state["board"]["turn"]].send(type="move", move=move)
            state = await host.next("state", lambda m, n=count: len(m["line"]) == n)
        await guest.send(type="save", format="record")
        record = parse_record((await guest.next("record"))["text"])
        assert [m.text for m in record.moves] == played
        assert record.tags["South"] == "host" and record.result == state["outcome"]["result"]
        await guest.send(type="save", format="ogn")
        ogn = (await guest.next("record"))["text"]
        assert '[Variant "Abapa"]' in ogn and len(parse_ogn(ogn)[0].moves) == len(played)

    run(test)


def test_hints_come_only_where_the_host_allowed_them_and_only_to_the_asker():
    async def test(client, app):
        host, guest, _, _ = await table(client)
        await host.send(type="hint")
        assert await host.error() == "the host did not allow engine help in this room"
        host, guest, state, _ = await table(client, help=True)
        watcher, _ = await enter(client, state["room"]["id"])
        await watcher.send(type="hint")
        assert await watcher.error() == "hint: you are watching this room"
        await guest.send(type="hint")
        hint = await guest.next("hint", timeout=60)
        start = Position(find_variant("oware"))
        assert hint["lines"] and hint["lines"][0]["move"] in [m.text for m in start.legal_moves()]
        await host.send(type="save")  # the host's next message is its own record: no hint
        assert (await host.next("record"))["type"] == "record"

    run(test)


def test_a_restart_loses_no_room_and_no_move(tmp_path):
    path = tmp_path / "rooms.sqlite"
    made: dict[str, Any] = {}

    async def first(client, app):
        host, guest, state, guest_state = await table(client, variant="bao",
                                                      clock={"minutes": 5, "increment": 2})
        made.update(room=state["room"]["id"], guest=guest_state["room"]["token"])
        made["host"] = (await create(client))["seat"]  # another room, never joined
        pages = {0: host, 1: guest}
        for ply in range(1, 5):
            move = legal(state)[0]
            await pages[state["board"]["turn"]].send(type="move", move=move)
            state = await host.next("state", lambda m, n=ply: len(m["line"]) == n)
        made["line"] = [p["move"] for p in state["line"]]
        made["position"] = state["position"]
        made["left"] = state["room"]["clock"]["left"]

    run(first, RoomStore(path))

    async def second(client, app):
        guest, state = await enter(client, made["room"], made["guest"])
        assert [p["move"] for p in state["line"]] == made["line"]
        assert state["position"] == made["position"] and state["room"]["you"] == "north"
        # the clocks as they stood after the last move; none ran while down
        left = state["room"]["clock"]["left"]
        assert left[1] == made["left"][1] and left[0] <= made["left"][0]
        assert left[0] > made["left"][0] - 5000
        assert app[HALL_KEY].store.count() == 2

    run(second, RoomStore(path))
    # the stored moves replay to the same game, with the rules alone
    db = sqlite3.connect(path)
    moves = [row[0] for row in db.execute("SELECT move FROM room_moves ORDER BY ply")]
    pos = Position(find_variant("bao"))
    for move in moves:
        pos.push(move)
    assert moves == made["line"] and pos.text() == made["position"]


def test_the_bounds_are_kept_with_one_line_each():
    async def test(client, app):
        made = await create(client)
        assert made["status"] == 200
        full = await create(client)
        assert full["status"] == 503
        assert full["error"] == "this server holds 1 rooms, its limit: no new room"
        host, _ = await enter(client, made["room"], made["seat"])
        await enter(client, made["room"])  # the guest
        await enter(client, made["room"])  # the one watcher allowed
        page = Page(await client.ws_connect("/rooms/ws"))
        await page.next("hello")
        await page.send(type="join", room=made["room"])
        assert await page.error() == "this room has 1 watchers, its limit"
        await page.send(type="move", move="a" * (ROOM_MESSAGE + 10))
        assert await page.error() == (f"message too long ({ROOM_MESSAGE + 38} bytes, "
                                      f"at most {ROOM_MESSAGE})")
        await page.send(type="undo")
        assert await page.error() == "undo: not in a room (the moves of a room game stand)"
        await page.send(type="join", room="../../etc/passwd")
        assert await page.error() == "no such room on this server (is the link complete?)"
        await page.send(type="join", room="A" * 22)
        assert await page.error() == "no such room on this server (is the link complete?)"
        await page.send(type="move", move="c")
        assert await page.error() == "join a room first"

    run(test, max_rooms=1, max_watchers=1)


@pytest.mark.parametrize("body, line", [
    ({"variant": "chess", "side": "south"}, "unknown variant"),
    ({"variant": "oware", "side": "east"}, "side must be south, north or random, not 'east'"),
    ({"variant": "oware", "side": "south", "help": "yes"}, "create: help must be true or false"),
    ({"variant": "oware", "side": "south", "clock": {"minutes": 0}},
     "clock: minutes must be at least 1"),
    ({"variant": "oware", "side": "south", "clock": {"minutes": 5, "increment": -1}},
     "clock: increment must be a whole number in 0..60"),
    ({"variant": "oware", "side": "south", "seats": 3}, "create: unknown field 'seats'"),
    ([1, 2], "a room is asked for with one JSON object"),
])
def test_a_bad_room_request_gets_one_line(body, line):
    async def test(client, app):
        response = await client.post("/rooms", json=body)
        assert response.status == 400
        assert line in (await response.json())["error"]
        assert app[HALL_KEY].store.count() == 0

    run(test)


def test_only_the_servers_own_page_may_make_a_room():
    async def test(client, app):
        response = await client.post("/rooms", json={"variant": "oware", "side": "south"},
                                     headers={"Origin": "http://evil.example"})
        assert response.status == 403

    run(test)


def test_a_flag_falls_at_zero_and_each_move_adds_the_increment():
    room = Room("r" * 16, token_hash("h"), "kalah pits=3 seeds=2", 0,
                clock=ClockSetting(60_000, 2_000), guest_hash=token_hash("g"), now=100.0)
    assert room.time_left(0, 110.0) == 50_000 and room.time_left(1, 110.0) == 60_000
    pending = room.check_move(0, "a", 110.0)
    assert pending.clock_ms == 52_000
    room.apply(pending, 110.0)
    # Kalah: a sowing that ends in the store plays again, on the same clock
    turn = room.session.pos.turn
    assert not room.flag(110.0 + 59.0)
    assert room.flag(110.0 + 61.0 if turn == 1 else 110.0 + 53.0)
    assert room.result is not None and room.result["termination"] == "time forfeit"
    assert room.result["winner"] == 1 - turn and room.clock_running() is None
    with pytest.raises(RoomError, match="the game is over"):
        room.check_move(turn, "b", 200.0)
    # no clock runs while the host waits for the guest
    alone = Room("s" * 16, token_hash("h"), "oware", 0, clock=ClockSetting(60_000, 0), now=0.0)
    assert alone.clock_running() is None and alone.time_left(0, 500.0) == 60_000
    assert not alone.flag(500.0)


def test_a_stored_room_whose_moves_do_not_replay_is_one_line(tmp_path):
    path = tmp_path / "rooms.sqlite"
    store = RoomStore(path)
    room = Room("x" * 16, token_hash("h"), "oware", 0, now=0.0)
    store.add_room(room)
    store.db.execute("INSERT INTO room_moves VALUES (?, 1, 1, 'Z', 0, NULL, 'now')", (room.id,))
    with pytest.raises(RoomError, match="its stored moves do not replay"):
        store.load(room.id, 0.0)
    store.db.execute("DELETE FROM room_moves")
    store.db.execute("DELETE FROM room_games")
    with pytest.raises(RoomError, match="the rooms database cannot give it back"):
        store.load(room.id, 0.0)
    (tmp_path / "junk.sqlite").write_text("not a database" * 100)
    with pytest.raises(RoomError, match="not a rooms database"):
        RoomStore(tmp_path / "junk.sqlite")


def test_serve_warns_off_loopback_and_says_what_is_wrong_with_its_database(tmp_path):
    import socket

    from click.testing import CliRunner

    from bingwa.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["serve", "--db", "/nonexistent/x.sqlite"])
    assert result.exit_code == 2
    assert result.output.strip() == ("bingwa: error: --db /nonexistent/x.sqlite: "
                                     "the folder /nonexistent does not exist")
    result = runner.invoke(main, ["serve", "--db", str(tmp_path)])
    assert result.output.strip() == f"bingwa: error: --db {tmp_path}: is a folder, not a file"
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database" * 100)
    result = runner.invoke(main, ["serve", "--db", str(junk)])
    assert result.exit_code == 2 and "not a rooms database" in result.output
    assert "Traceback" not in result.output
    with socket.socket() as busy:  # so that the command ends after its checks
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(main, ["serve", "--host", "0.0.0.0", "--port", str(port),
                                      "--db", str(tmp_path / "rooms.sqlite")])
    assert result.output.splitlines()[0] == (
        "bingwa serve: warning: listening on 0.0.0.0: the server faces the network; "
        "anyone who reaches it can open rooms and run the engines")
    assert (tmp_path / "rooms.sqlite").exists()


def test_bad_room_messages_get_one_line_each_and_the_socket_goes_on():
    async def test(client, app):
        host, guest, _, _ = await table(client)
        for raw, line in [
            ("not json", "a message must be one JSON object"),
            ("[1, 2]", "a message must be one JSON object"),
            ('{"type": "fly"}', "unknown message type 'fly' (known: join, move, resign, offer,"),
            ('{"type": "move"}', "move: the field 'move' is missing"),
            ('{"type": "move", "move": 5}', "move: move must be text"),
            ('{"type": "move", "move": "c", "extra": 1}', "move: unknown field 'extra'"),
            ('{"type": "join", "room": {"a": 1}}', "join: room must be text"),
            ('{"type": "offer", "what": "peace"}', "offer: what must be draw or rematch, not"),
            ('{"type": "move", "move": "zz"}', "'zz' is not a pit letter"),
            ('{"type": "save", "format": "pdf"}', "save: format must be record or ogn"),
        ]:
            await host.ws.send_str(raw)
            assert (await host.error()).startswith(line), raw
        await host.ws.send_bytes(b"\x00")
        assert await host.error() == "messages are JSON text"
        await host.send(type="move", move="c")
        state = await guest.next("state", lambda m: len(m["line"]) == 1)
        assert state["line"][0]["move"] == "c"

    run(test)


def test_the_servers_timer_ends_the_game_when_a_flag_falls():
    async def test(client, app):
        host, guest, state, _ = await table(client, clock={"minutes": 1, "increment": 0})
        await host.send(type="move", move="c")
        await guest.next("state", lambda m: len(m["line"]) == 1)
        live = app[HALL_KEY].live[state["room"]["id"]]
        live.room.remaining[1] = 300  # North has 0.3 s left: nobody moves
        live.arm_clock()
        over = await host.next("state", lambda m: m["outcome"] is not None, timeout=5)
        assert over["outcome"]["text"] == "South wins, 0-0: North's time ran out"
        assert over["room"]["clock"]["left"][1] == 0 and over["room"]["clock"]["running"] is None
        await guest.send(type="move", move="A")
        assert await guest.error() == "the game is over"
        await guest.send(type="save")
        record = parse_record((await guest.next("record"))["text"])
        assert record.result == "1-0" and record.tags["Termination"] == "time forfeit"
        assert record.tags["TimeControl"] == "60+0"
        stored = app[HALL_KEY].store.db.execute("SELECT result FROM room_games").fetchone()[0]
        assert "time forfeit" in stored

    run(test)


def test_ctrl_c_of_bingwa_serve_loses_no_move(tmp_path):
    """A real ``bingwa serve`` process: a room, two moves, Ctrl-C; a new
    server on the same file has the room with both moves."""
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "rooms.sqlite"
    server = subprocess.Popen([sys.executable, "-m", "bingwa", "serve", "--port", str(port),
                               "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    seen: dict[str, Any] = {}

    async def play() -> None:
        from aiohttp import ClientSession

        async with ClientSession() as session:
            for _ in range(100):  # the server starts
                try:
                    response = await session.post(f"http://127.0.0.1:{port}/rooms",
                                                  json={"variant": "oware", "side": "south"})
                    break
                except OSError:
                    await asyncio.sleep(0.1)
            made = await response.json()
            host = Page(await session.ws_connect(f"http://127.0.0.1:{port}/rooms/ws"))
            await host.next("hello")
            await host.send(type="join", room=made["room"], seat=made["seat"])
            guest = Page(await session.ws_connect(f"http://127.0.0.1:{port}/rooms/ws"))
            await guest.next("hello")
            await guest.send(type="join", room=made["room"])
            await guest.next("state")
            await host.send(type="move", move="c")
            await guest.next("state", lambda m: len(m["line"]) == 1)
            await guest.send(type="move", move="A")
            await host.next("state", lambda m: len(m["line"]) == 2)
            seen["room"] = made["room"]

    try:
        asyncio.run(play())
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=20)
    finally:
        server.kill()
    assert "Traceback" not in err and "Traceback" not in out
    assert server.returncode is not None and "play at http://localhost" in out
    store = RoomStore(db)
    room = store.load(seen["room"], 0.0)
    assert room is not None and room.session.line == ["c", "A"]
