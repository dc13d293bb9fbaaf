"""The aiohttp application of ``bingwa serve``: the page and its assets
(shipped in the package, nothing fetched at run time) and one WebSocket per
page at ``/ws``.

A page opens the socket, gets ``hello`` (the variants with their options,
the engine names), then sends ``join`` with the game id it remembers (a
reload gets its game back) or none (a new game). Games live in memory,
at most MAX_GAMES; the oldest one no page watches makes room.
"""

from __future__ import annotations

import itertools
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from bingwa.engine import BingwaError

from .engines import EnginePool
from .live import LiveGame
from .messages import MAX_MESSAGE, MessageError, parse_message
from .room_server import setup_rooms
from .session import GameSession
from .sockets import POOL_KEY, hello_message, same_origin

MAX_GAMES = 100
STATIC = resources.files("bingwa.web") / "static"
GAMES_KEY = web.AppKey("games", dict)
LATENCIES_KEY = web.AppKey("latencies", list)
_page_ids = itertools.count(1)


def make_app(pool: EnginePool | None = None, rooms: Any = None) -> web.Application:
    """The app; ``rooms`` is the RoomStore of the rooms (in memory if None)."""
    app = web.Application(client_max_size=MAX_MESSAGE)
    app[POOL_KEY] = pool or EnginePool()
    setup_rooms(app, rooms)
    app[GAMES_KEY] = {}
    app[LATENCIES_KEY] = []
    app.router.add_get("/", index)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/static/{name}", static_file)
    app.on_shutdown.append(close_all)
    return app


async def index(request: web.Request) -> web.StreamResponse:
    return _asset("index.html")


async def static_file(request: web.Request) -> web.StreamResponse:
    return _asset(request.match_info["name"])


CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                 ".svg": "image/svg+xml"}


def _asset(name: str) -> web.StreamResponse:
    suffix = name[name.rfind("."):] if "." in name else ""
    if "/" in name or name.startswith(".") or suffix not in CONTENT_TYPES:
        raise web.HTTPNotFound()
    asset = STATIC / name
    if not asset.is_file():
        raise web.HTTPNotFound()
    return web.Response(body=asset.read_bytes(), content_type=CONTENT_TYPES[suffix],
                        charset="utf-8", headers={"Cache-Control": "no-cache"})


async def close_all(app: web.Application) -> None:
    for game in list(app[GAMES_KEY].values()):
        await game.close_engines()


def find_game(app: web.Application, game_id: str | None) -> LiveGame:
    """The game ``game_id`` if the server has it, else a new one."""
    games: dict[str, LiveGame] = app[GAMES_KEY]
    if game_id and game_id in games:
        return games[game_id]
    if len(games) >= MAX_GAMES:
        idle = [g for g in games.values() if not g.pages]
        if idle:
            oldest = min(idle, key=lambda g: g.last_used)
            del games[oldest.session.id]
    game = LiveGame(GameSession(), app[POOL_KEY], app[LATENCIES_KEY])
    games[game.session.id] = game
    return game


async def websocket(request: web.Request) -> web.StreamResponse:
    if not same_origin(request):
        raise web.HTTPForbidden(text="bingwa serve: this socket is for bingwa's own page\n")
    # twice the message limit: a message a little too long gets its error line
    # from parse_message; only a huge one closes the socket
    ws = web.WebSocketResponse(max_msg_size=2 * MAX_MESSAGE, heartbeat=30)
    await ws.prepare(request)
    app = request.app
    page = next(_page_ids)
    game: LiveGame | None = None

    async def send(message: dict[str, Any]) -> None:
        if not ws.closed:
            await ws.send_json(message)

    pool: EnginePool = app[POOL_KEY]
    await send(hello_message(pool))
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await send({"type": "error", "message": "messages are JSON text"})
                continue
            try:
                kind, fields = parse_message(msg.data)
                if kind == "join":
                    if game is not None:
                        await game.detach(page)
                    game = find_game(app, fields.get("game"))
                    await game.attach(page, send)
                elif game is None:
                    raise MessageError("join a game first")
                else:
                    await game.handle(kind, fields, send)
            except BingwaError as exc:  # MessageError, IllegalMoveError, ...: one line
                await send({"type": "error", "message": str(exc)})
    finally:
        if game is not None:
            await game.detach(page)
    return ws


def serve(host: str, port: int, pool: EnginePool, print_line: Any = print,
          rooms: Any = None) -> None:
    """Run the server until interrupted (Ctrl-C ends the engines too; every
    room's moves are in its store already)."""
    app = make_app(pool, rooms)
    web.run_app(app, host=host, port=port, print=print_line, handle_signals=True)
