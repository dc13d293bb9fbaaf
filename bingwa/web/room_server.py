"""The rooms of ``bingwa serve`` on the wire: ``POST /rooms`` makes a room
(the host's seat token in the answer), ``/rooms/ws`` is the socket of a
page in a room: ``hello`` (as on ``/ws``), then ``join`` with the room id
and the seat token the page holds, if any.

Every message is checked (messages.parse_message, at most ROOM_MESSAGE
bytes) and then checked against the seat of the page that sent it: a
watcher cannot move, North cannot move for South, an offer is answered by
the other player. Every change is written to the store before any page is
told, then each page gets the room as its seat sees it (``state`` with a
``room`` field). Hints come only where the host allowed them, and go to the
page that asked, never to the opponent.

Bounds: MAX_ROOMS rooms in the store, MAX_WATCHERS watchers a room; each
refusal is one line.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from typing import Any

from aiohttp import WSMsgType, web

from bingwa.engine import BingwaError
from bingwa.engine.limits import Info
from bingwa.protocol.errors import EngineError

from .engines import EnginePool, EngineSlot
from .live import HINT_LINES, HINT_PLAYER, Send, hint_lines
from .messages import MessageError, parse_message
from .rooms import (
    ROOM_ID,
    SEATS,
    SIDE_KEYS,
    Room,
    RoomError,
    RoomStore,
    make_room,
    new_token,
    parse_clock,
    token_hash,
)
from .session import score_text
from .sockets import POOL_KEY, hello_message, same_origin

ROOM_MESSAGE = 4096  # bytes: the largest message a room page sends is a move
MAX_ROOMS = 500
MAX_WATCHERS = 20
ROOM_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "join": {"room": ("str", True), "seat": ("str", False)},
    "move": {"move": ("str", True)},
    "resign": {},
    "offer": {"what": ("str", True)},
    "accept": {},
    "decline": {},
    "hint": {},
    "save": {"format": ("str", False)},
}
CREATE_FIELDS = {"create": {"variant": ("str", True), "side": ("str", True),
                            "help": ("bool", False), "clock": ("any", False)}}
# the main page's messages that have no place in a room
NOT_IN_ROOM = ("new", "players", "undo", "redo", "goto", "pause", "resume", "stop", "load")
_pages = itertools.count(1)


class RoomHall:
    """The rooms a server holds: the store, and those a page has opened
    since the server started (kept in memory with their clocks)."""

    def __init__(self, store: RoomStore, pool: EnginePool, max_rooms: int = MAX_ROOMS,
                 max_watchers: int = MAX_WATCHERS) -> None:
        self.store = store
        self.pool = pool
        self.max_rooms = max_rooms
        self.max_watchers = max_watchers
        self.live: dict[str, LiveRoom] = {}
        self.latencies: list[float] = []  # s from a move's arrival to its last send

    def create(self, fields: dict[str, Any]) -> tuple[LiveRoom, str]:
        rooms = self.store.count()
        if rooms >= self.max_rooms:
            raise RoomError(f"this server holds {rooms} rooms, its limit: no new room")
        clock = parse_clock(fields.get("clock"))
        room, token = make_room(fields["variant"], fields["side"], fields.get("help", False),
                                clock, time.monotonic())
        self.store.add_room(room)
        live = self.live[room.id] = LiveRoom(self, room)
        return live, token

    def find(self, room_id: str) -> LiveRoom:
        if room_id in self.live:
            return self.live[room_id]
        room = self.store.load(room_id, time.monotonic()) if ROOM_ID.match(room_id) else None
        if room is None:
            raise RoomError("no such room on this server (is the link complete?)")
        live = self.live[room_id] = LiveRoom(self, room)
        live.arm_clock()
        return live

    async def close(self) -> None:
        for live in list(self.live.values()):
            await live.close()


class LiveRoom:
    """A room with its pages (each with its seat: 0 host, 1 guest, None a
    watcher), its clock's timer and the engine slot of its hints."""

    def __init__(self, hall: RoomHall, room: Room) -> None:
        self.hall = hall
        self.room = room
        self.pages: dict[int, tuple[int | None, Send]] = {}
        self.timer: asyncio.TimerHandle | None = None
        self.slot: EngineSlot | None = None
        self.hint_task: asyncio.Task[None] | None = None

    # -- pages ---------------------------------------------------------------------
    async def attach(self, page: int, token: str | None, send: Send) -> None:
        room = self.room
        seat = room.seat_of(token)
        given = None
        if seat is None and room.guest_free():
            given = new_token()
            room.seat_hashes[1] = token_hash(given)
            self.hall.store.set_guest(room)
            room.turn_started = time.monotonic()  # the clock starts with both seats taken
            self.arm_clock()
            seat = 1
        if seat is None and self.watchers() >= self.hall.max_watchers:
            raise RoomError(f"this room has {self.hall.max_watchers} watchers, its limit")
        self.pages[page] = (seat, send)
        await self.publish({page: given} if given else None)

    async def detach(self, page: int) -> None:
        if self.pages.pop(page, None) is None:
            return
        await self.publish()
        if not self.pages:
            await self.close_engine()

    def watchers(self) -> int:
        return sum(1 for seat, _ in self.pages.values() if seat is None)

    def game_view(self) -> dict[str, Any]:
        """The game's snapshot, a referee's end in it: the same for every page."""
        state = self.room.session.snapshot()
        if self.room.result is not None:
            state["outcome"] = self.room.result
            state["board"]["over"] = True
        return state

    def view(self, seat: int | None, now: float, game: dict[str, Any] | None = None
             ) -> dict[str, Any]:
        """The room as the page of ``seat`` sees it: the game's snapshot
        (``game``, made once for all the pages) and the room's own part."""
        room = self.room
        state = dict(game or self.game_view())
        present = {s for s, _ in self.pages.values() if s is not None}
        players = {}
        for side, key in enumerate(SIDE_KEYS):
            at = room.seat_at(side)
            players[key] = {"seat": SEATS[at], "taken": room.seat_hashes[at] is not None,
                            "present": at in present}
        clock = None
        if room.clock is not None:
            clock = {"base_ms": room.clock.base_ms, "increment_ms": room.clock.increment_ms,
                     "left": [room.time_left(side, now) for side in (0, 1)],
                     "running": room.clock_running()}
        offer = {"what": room.offer[0], "by": room.offer[1]} if room.offer else None
        state["room"] = {
            "id": room.id, "game": room.number, "players": players, "help": room.help,
            "you": SIDE_KEYS[room.side_of(seat)] if seat is not None else "watcher",
            "seat": SEATS[seat] if seat is not None else None, "clock": clock, "offer": offer,
            "watchers": self.watchers(),
        }
        return state

    async def publish(self, tokens: dict[int, str] | None = None) -> None:
        now = time.monotonic()
        game = self.game_view()
        for page, (seat, send) in list(self.pages.items()):
            message = self.view(seat, now, game)
            if tokens and page in tokens:
                message["room"]["token"] = tokens[page]  # this page's new seat, once
            try:
                await send(message)
            except (ConnectionError, RuntimeError):
                pass  # that page is closing; detach follows

    # -- messages ------------------------------------------------------------------
    async def handle(self, page: int, kind: str, fields: dict[str, Any], reply: Send) -> None:
        """Act on one checked message from ``page`` (RoomError, BingwaError:
        its error line); the store first, then the pages."""
        room, store = self.room, self.hall.store
        seat = self.pages[page][0]
        side = room.side_of(seat) if seat is not None else None
        now = time.monotonic()
        if kind == "move":
            if room.guest_free():
                raise RoomError("nobody has taken the other seat yet: send your friend the link")
            if side is not None and room.flag(now):  # the flag fell before the move came
                store.set_result(room)
                self.arm_clock()
                await self.publish()
                raise RoomError(f"too late: {room.result['text'] if room.result else ''}")
            pending = room.check_move(side, fields["move"], now)
            store.add_move(room, pending)
            room.apply(pending, now)
        elif kind == "resign":
            room.resign(side)
            store.set_result(room)
        elif kind == "offer":
            room.make_offer(side, fields["what"])
        elif kind in ("accept", "decline"):
            accepted = room.answer(side, kind == "accept", now)
            if accepted == "draw":
                store.set_result(room)
            elif accepted == "rematch":
                store.add_game(room)
        elif kind == "hint":
            self.start_hint(side, reply)
            return
        elif kind == "save":
            await reply(self.save(fields.get("format", "record")))
            return
        self.arm_clock()
        await self.publish()
        if kind == "move":
            self.hall.latencies.append(time.monotonic() - now)

    def save(self, fmt: str) -> dict[str, Any]:
        from bingwa.engine.ogn import dumps_ogn

        record = self.room.record()
        name = f"room-{self.room.id}-{self.room.number}"
        if fmt == "ogn":
            return {"type": "record", "text": dumps_ogn(record), "filename": f"{name}.ogn"}
        if fmt != "record":
            raise RoomError(f"save: format must be record or ogn, not {fmt[:40]!r}")
        return {"type": "record", "text": record.dumps(), "filename": f"{name}.bgn"}

    # -- the clock -----------------------------------------------------------------
    def arm_clock(self) -> None:
        """A timer for the moment the running clock reaches zero."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        side = self.room.clock_running()
        if side is None or self.room.guest_free():
            return
        delay = self.room.time_left(side, time.monotonic()) / 1000 + 0.005
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(delay, lambda: asyncio.ensure_future(self._flag()))

    async def _flag(self) -> None:
        self.timer = None
        if self.room.flag(time.monotonic()):
            try:
                self.hall.store.set_result(self.room)
            except RoomError:
                pass  # the game ends on the pages anyway; the next move says why
            await self.publish()
        else:
            self.arm_clock()

    # -- hints -----------------------------------------------------------------------
    def start_hint(self, side: int | None, reply: Send) -> None:
        if not self.room.help:
            raise RoomError("the host did not allow engine help in this room")
        if side is None:
            raise RoomError("hint: you are watching this room")
        if self.room.is_over():
            raise RoomError("the game is over")
        if self.hint_task is not None and not self.hint_task.done():
            raise RoomError("wait: the engine is thinking")
        self.hint_task = asyncio.create_task(self._hint(reply))

    async def _hint(self, reply: Send) -> None:
        session = self.room.session
        version = session.version
        if self.slot is None:
            self.slot = EngineSlot(self.hall.pool, "")
        slot = self.slot
        loop = asyncio.get_running_loop()

        async def tell(message: dict[str, Any]) -> None:
            try:
                await reply(message)
            except (ConnectionError, RuntimeError):
                pass

        def on_info(info: Info) -> None:
            if info.depth is None or info.string is not None:
                return
            message = {"type": "info", "purpose": "hint", "side": session.pos.turn,
                       "engine": slot.name, "depth": info.depth, "multipv": info.multipv or 1,
                       "score": score_text(info), "nodes": info.nodes, "time": info.time,
                       "pv": info.pv[:16]}
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(tell(message)))

        await tell({"type": "thinking", "side": session.pos.turn, "engine": slot.name,
                    "purpose": "hint"})
        try:
            result = await asyncio.to_thread(slot.think, session.pos.copy(), HINT_PLAYER,
                                             HINT_LINES, on_info)
        except (EngineError, BingwaError) as exc:
            await tell({"type": "error", "message": f"engine {slot.name} failed: {exc}"})
            return
        if session.version == version:
            await tell({"type": "hint", "lines": hint_lines(result)})

    async def close_engine(self) -> None:
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.stop()
            await asyncio.shield(asyncio.to_thread(slot.close))

    async def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        await self.close_engine()


# -- HTTP and the socket ----------------------------------------------------------------
HALL_KEY = web.AppKey("rooms", RoomHall)


def setup_rooms(app: web.Application, store: RoomStore | None = None, **bounds: int) -> None:
    """Add the rooms to ``bingwa serve``'s app (an in-memory store by default)."""
    store = store or RoomStore()
    app[HALL_KEY] = RoomHall(store, app[POOL_KEY], **bounds)
    app.router.add_post("/rooms", create_room)
    app.router.add_get("/rooms/ws", room_socket)

    async def close(app: web.Application) -> None:
        await app[HALL_KEY].close()

    async def cleanup(app: web.Application) -> None:
        app[HALL_KEY].store.close()

    app.on_shutdown.append(close)
    app.on_cleanup.append(cleanup)


def _refuse(status: int, line: str) -> web.Response:
    return web.json_response({"error": line}, status=status)


async def create_room(request: web.Request) -> web.StreamResponse:
    """``{"variant", "side", "help", "clock"}`` -> ``{"room", "seat", "side"}``."""
    if not same_origin(request):
        return _refuse(403, "rooms are made from bingwa's own page")
    body = await request.content.read(ROOM_MESSAGE + 1)
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError
    except ValueError:
        return _refuse(400, "a room is asked for with one JSON object")
    try:
        _, fields = parse_message(json.dumps({**data, "type": "create"}), CREATE_FIELDS,
                                  ROOM_MESSAGE)
        live, token = request.app[HALL_KEY].create(fields)
    except BingwaError as exc:
        status = 503 if "its limit" in str(exc) else 400
        return _refuse(status, str(exc))
    side = SIDE_KEYS[live.room.host_side]
    return web.json_response({"room": live.room.id, "seat": token, "side": side})


async def room_socket(request: web.Request) -> web.StreamResponse:
    if not same_origin(request):
        raise web.HTTPForbidden(text="bingwa serve: this socket is for bingwa's own page\n")
    ws = web.WebSocketResponse(max_msg_size=2 * ROOM_MESSAGE, heartbeat=30)
    await ws.prepare(request)
    hall: RoomHall = request.app[HALL_KEY]
    page = next(_pages)
    live: LiveRoom | None = None

    async def send(message: dict[str, Any]) -> None:
        if not ws.closed:
            await ws.send_json(message)

    await send(hello_message(hall.pool))
    try:
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                if msg.type == WSMsgType.BINARY:
                    await send({"type": "error", "message": "messages are JSON text"})
                continue
            try:
                kind = _kind_of(msg.data)
                if kind in NOT_IN_ROOM:
                    raise MessageError(f"{kind}: not in a room (the moves of a room game stand)")
                kind, fields = parse_message(msg.data, ROOM_FIELDS, ROOM_MESSAGE)
                if kind == "join":
                    if live is not None:
                        await live.detach(page)
                        live = None
                    found = hall.find(fields["room"])
                    await found.attach(page, fields.get("seat"), send)
                    live = found
                elif live is None:
                    raise MessageError("join a room first")
                else:
                    await live.handle(page, kind, fields, send)
            except BingwaError as exc:  # RoomError, IllegalMoveError, ...: one line
                await send({"type": "error", "message": str(exc)})
    finally:
        if live is not None:
            await live.detach(page)
    return ws


def _kind_of(raw: str) -> str | None:
    """The type of a message when it is a small JSON object, else None (the
    parser then says what is wrong)."""
    if len(raw) > ROOM_MESSAGE:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None
