"""The web server's message handling over a real WebSocket (aiohttp's test
client, no browser), with real engine processes at tiny budgets: moves,
engine replies, analysis and hints, bad messages, reloads, the engine
pool's bound, and engines that crash or hang."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bingwa.engine import Position  # noqa: E402
from bingwa.web.engines import DEFAULT_COMMAND, EnginePool  # noqa: E402
from bingwa.web.server import GAMES_KEY, LATENCIES_KEY, make_app  # noqa: E402

HUMAN = {"kind": "human"}
QUICK = {"kind": "engine", "engine": "bingwa", "think": "depth", "amount": 1}
# answers the handshake and pings until its first go, then says nothing more
HUNG_ENGINE = [sys.executable, "-c", textwrap.dedent("""
    import sys
    for line in sys.stdin:
        word = (line.split() or [""])[0]
        if word == "uci":
            print("id name Hung", "uciok", sep="\\n", flush=True)
        elif word == "isready":
            print("readyok", flush=True)
        elif word == "go":
            break
    sys.stdin.read()
""")]


class Page:
    """One page's socket: send messages, read until a type arrives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []

    async def send(self, **message: Any) -> None:
        await self.ws.send_json(message)

    async def next(self, kind: str, timeout: float = 30.0, where: Any = None) -> dict[str, Any]:
        async def read() -> dict[str, Any]:
            while True:
                message = await self.ws.receive_json()
                self.seen.append(message)
                if message["type"] == kind and (where is None or where(message)):
                    return message

        return await asyncio.wait_for(read(), timeout)


async def open_page(client: TestClient, game: str | None = None) -> tuple[Page, dict]:
    page = Page(await client.ws_connect("/ws"))
    hello = await page.next("hello")
    assert "bingwa" in hello["engines"]
    await page.send(type="join", game=game)
    return page, await page.next("state")


def run(test, pool: EnginePool | None = None) -> None:
    async def main() -> None:
        app = make_app(pool or EnginePool())
        async with TestClient(TestServer(app)) as client:
            await test(client, app)

    asyncio.run(main())


def test_hello_lists_every_variant_with_its_options():
    async def test(client, app):
        page = Page(await client.ws_connect("/ws"))
        hello = await page.next("hello")
        names = [v["name"] for v in hello["variants"]]
        assert names == ["oware", "ayoayo", "kalah", "bao", "kujifunza"]
        oware = hello["variants"][0]
        assert oware["options"][0]["name"] == "grandslam"
        assert "capture" in oware["options"][0]["choices"]

    run(test)


def test_bad_messages_get_an_error_and_the_page_goes_on():
    async def test(client, app):
        page, state = await open_page(client)
        await page.ws.send_str("{not json")
        assert "JSON" in (await page.next("error"))["message"]
        await page.ws.send_bytes(b"\x00\x01")
        assert "JSON text" in (await page.next("error"))["message"]
        await page.send(type="move", move="Q")
        assert "not a pit letter" in (await page.next("error"))["message"]
        await page.send(type="new", variant="oware", south=HUMAN, north=HUMAN)
        await page.next("state")
        await page.send(type="move", move="A")
        assert "not your pit" in (await page.next("error"))["message"]
        await page.send(type="new", variant="chess", south=HUMAN, north=HUMAN)
        assert "unknown variant" in (await page.next("error"))["message"]
        await page.send(type="new", variant="oware", south=HUMAN,
                        north={"kind": "engine", "engine": "/bin/sh"})
        assert "no engine named '/bin/sh'" in (await page.next("error"))["message"]
        await page.send(type="load", text="x" * 300_000)
        assert "message too long" in (await page.next("error"))["message"]
        await page.send(type="move", move="c")
        state = await page.next("state")
        assert [p["move"] for p in state["line"]] == ["c"]

    run(test)


def test_the_engine_answers_a_move_and_streams_its_analysis():
    async def test(client, app):
        page, _ = await open_page(client)
        await page.send(type="new", variant="oware", south=HUMAN,
                        north={**QUICK, "amount": 3})
        await page.next("state")
        await page.send(type="move", move="c")
        state = await page.next("state", where=lambda m: len(m["line"]) == 2)
        reply = state["line"][1]
        assert reply["side"] == 1 and reply["note"].endswith("s")  # score/depth time
        assert Position("oware").play("c").parse_move(reply["move"])
        infos = [m for m in page.seen if m["type"] == "info"]
        assert infos and infos[-1]["purpose"] == "move" and infos[-1]["depth"] >= 1
        assert infos[-1]["pv"][0] == reply["move"]
        assert len(app[LATENCIES_KEY]) == 1

    run(test)


def test_engine_against_engine_plays_to_the_end():
    async def test(client, app):
        page, _ = await open_page(client)
        await page.send(type="new", variant="kalah pits=3 seeds=2", south=QUICK, north=QUICK)
        state = await page.next("state", where=lambda m: m["outcome"] is not None, timeout=60)
        assert state["outcome"]["text"].split(",")[0] in ("South wins", "North wins", "Draw")
        assert app[GAMES_KEY][state["game"]].pool.running == 1  # one process for both sides

    run(test)


def test_a_hint_gives_the_best_moves_with_scores():
    async def test(client, app):
        page, _ = await open_page(client)
        await page.send(type="new", variant="oware", south=HUMAN, north=HUMAN)
        await page.next("state")
        await page.send(type="players", south=HUMAN, north={**QUICK, "amount": 2})
        await page.send(type="hint")
        hint = await page.next("hint")
        legal = {m.text for m in Position("oware").legal_moves()}
        assert 1 <= len(hint["lines"]) <= 3
        assert {line["move"] for line in hint["lines"]} <= legal
        assert all(line["score"] for line in hint["lines"])

    run(test)


def test_a_reload_gets_the_game_back_and_engines_end_with_the_page():
    async def test(client, app):
        page, state = await open_page(client)
        await page.send(type="new", variant="oware", south=HUMAN, north=QUICK)
        await page.next("state")
        await page.send(type="move", move="d")
        await page.next("state", where=lambda m: len(m["line"]) == 2)
        pool = app[GAMES_KEY][state["game"]].pool
        assert pool.running == 1
        await page.ws.close()
        for _ in range(400):  # quit, or a kill after 1 s; slow on a loaded machine
            if pool.running == 0:
                break
            await asyncio.sleep(0.05)
        assert pool.running == 0
        again, restored = await open_page(client, state["game"])
        assert restored["game"] == state["game"]
        assert [p["move"] for p in restored["line"]][0] == "d" and restored["cursor"] == 2
        fresh, other = await open_page(client, "no-such-game")
        assert other["game"] != state["game"] and other["line"] == []

    run(test)


def test_a_crashed_engine_is_reported_restarted_and_the_game_goes_on():
    async def test(client, app):
        page, state = await open_page(client)
        await page.send(type="new", variant="oware", south=HUMAN, north=QUICK)
        await page.next("state")
        await page.send(type="move", move="c")
        await page.next("state", where=lambda m: len(m["line"]) == 2)
        slot = app[GAMES_KEY][state["game"]].slots["bingwa"]
        os.kill(slot.pid(), signal.SIGKILL)
        await page.send(type="move", move="d")
        error = await page.next("engine_error")
        assert "restarting it" in error["message"]
        state = await page.next("state", where=lambda m: len(m["line"]) == 4)
        assert [p["move"] for p in state["line"]][:3] == ["c", state["line"][1]["move"], "d"]
        assert slot.restarts == 1

    run(test)


def test_a_hung_engine_is_reported_and_the_game_pauses_unharmed():
    async def test(client, app):
        page, _ = await open_page(client)
        await page.send(type="new", variant="oware", south=HUMAN,
                        north={"kind": "engine", "engine": "hung", "think": "movetime",
                               "amount": 100})
        await page.next("state")
        await page.send(type="move", move="c")
        first = await page.next("engine_error")
        assert "no readyok" in first["message"] and "restarting" in first["message"]
        second = await page.next("engine_error")
        assert "pausing the game" in second["message"]
        state = await page.next("state", where=lambda m: m["paused"])
        assert [p["move"] for p in state["line"]] == ["c"]

    run(test, EnginePool({"bingwa": DEFAULT_COMMAND, "hung": HUNG_ENGINE}, ready_timeout=0.5))


def test_the_pool_bounds_the_engine_processes():
    async def test(client, app):
        first, _ = await open_page(client)
        await first.send(type="new", variant="oware", south=HUMAN, north=QUICK)
        await first.next("state")
        await first.send(type="move", move="c")
        await first.next("state", where=lambda m: len(m["line"]) == 2)
        second, _ = await open_page(client)
        await second.send(type="new", variant="oware", south=QUICK, north=HUMAN)
        error = await second.next("engine_error")
        assert "all 1 engine slots of this server are in use" in error["message"]

    run(test, EnginePool(limit=1))


def test_assets_are_served_and_nothing_else():
    async def test(client, app):
        page = await client.get("/")
        assert page.status == 200 and "app.js" in await page.text()
        script = await client.get("/static/app.js")
        assert script.status == 200 and script.content_type == "text/javascript"
        for path in ("/static/..%2Fserver.py", "/static/server.py", "/static/.hidden.js"):
            assert (await client.get(path)).status == 404

    run(test)


def test_only_the_servers_own_page_may_open_the_socket():
    async def test(client, app):
        from aiohttp import WSServerHandshakeError

        with pytest.raises(WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        own = f"http://{client.server.host}:{client.server.port}"
        ws = await client.ws_connect("/ws", headers={"Origin": own})
        assert (await ws.receive_json())["type"] == "hello"

    run(test)


def test_serve_command_line_errors_are_one_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.chdir(tmp_path)  # the rooms' database goes there

    from bingwa.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["serve", "--engine", "nocommand"])
    assert result.exit_code == 2
    assert result.output.strip() == "bingwa: error: --engine takes NAME=COMMAND, not 'nocommand'"
    result = runner.invoke(main, ["serve", "--engine", "a=x", "--engine", "a=y"])
    assert result.output.strip() == "bingwa: error: --engine a is given twice"
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.startswith(f"bingwa: error: cannot listen on 127.0.0.1:{port}: ")
    assert "Traceback" not in result.output


def test_each_side_gets_its_own_skill_level_from_one_engine_process():
    """One process plays both sides: each search sets the level it needs,
    and no level means the engine's default, not the last one set."""
    from bingwa.web.engines import EngineSlot
    from bingwa.web.messages import Player

    slot = EngineSlot(EnginePool(), "bingwa")
    try:
        slot.think(Position("oware"), Player("engine", "bingwa", 3, "depth", 1))
        slot.think(Position("oware"), Player("engine", "bingwa", None, "depth", 1))
        levels = [line for line in slot.engine.transcript if line.startswith("> setoption name Skill")]
        assert levels == ["> setoption name Skill Level value 3",
                          "> setoption name Skill Level value 20"]
    finally:
        slot.close()
    assert slot.pool.running == 0


def test_engines_given_on_the_command_line_join_the_default_one():
    from bingwa.web.engines import engine_commands

    commands = engine_commands(["mcts=bingwa engine --bot mcts", "other='/opt/my engine' -x"])
    assert commands == {"bingwa": DEFAULT_COMMAND, "mcts": ["bingwa", "engine", "--bot", "mcts"],
                        "other": ["/opt/my engine", "-x"]}
    assert engine_commands(["bingwa=./mine"]) == {"bingwa": ["./mine"]}
    with pytest.raises(ValueError, match="unterminated|No closing quotation"):
        engine_commands(["x='open"])
