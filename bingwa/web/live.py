"""A game being played: the session plus the pages that watch it, its
engine processes, and the one search (an engine's move or a hint) that may
run at a time.

Every message a page sends goes through ``handle``; every change goes to
every page of the game as a new snapshot. A search runs on a worker thread;
when it ends, its result is used only if the game did not change meanwhile
(``session.version``), so an undo or a new game during a search is safe.
An engine that crashes or hangs is reported, restarted once for the same
move, and the game pauses if it fails again: the game is never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from bingwa.engine import BingwaError, Position
from bingwa.engine.limits import Info
from bingwa.engine.records import Annotation
from bingwa.protocol.client import PlayResult
from bingwa.protocol.errors import EngineError

from .engines import EnginePool, EngineSlot
from .messages import MessageError, Player
from .session import GameSession, score_text

Send = Callable[[dict[str, Any]], Awaitable[None]]
HINT_LINES = 3
HINT_PLAYER = Player("engine", think="movetime", amount=1000)


class LiveGame:
    def __init__(self, session: GameSession, pool: EnginePool,
                 latencies: list[float] | None = None) -> None:
        self.session = session
        self.pool = pool
        self.pages: dict[int, Send] = {}
        self.slots: dict[str, EngineSlot] = {}
        self.task: asyncio.Task[None] | None = None
        self.busy: str | None = None  # "move" or "hint" while a search runs
        self.latencies = latencies if latencies is not None else []
        self.last_used = time.monotonic()

    # -- pages -----------------------------------------------------------------
    async def attach(self, page: int, send: Send) -> None:
        self.pages[page] = send
        self.last_used = time.monotonic()
        await send(self.session.snapshot())
        await self.kick()

    async def detach(self, page: int) -> None:
        """A page went away; with the last one go the engine processes."""
        self.pages.pop(page, None)
        self.last_used = time.monotonic()
        if not self.pages:
            await self.close_engines()

    async def close_engines(self) -> None:
        slots, self.slots = list(self.slots.values()), {}
        for slot in slots:
            slot.stop()
        for slot in slots:
            # shielded: the socket's handler may be cancelled as its page
            # goes, and a cancelled to_thread that no worker has picked up
            # yet never runs, which left the engine process behind
            await asyncio.shield(asyncio.to_thread(slot.close))

    async def broadcast(self, message: dict[str, Any]) -> None:
        for send in list(self.pages.values()):
            try:
                await send(message)
            except (ConnectionError, RuntimeError):
                pass  # that page is closing; detach will follow

    async def publish(self) -> None:
        await self.broadcast(self.session.snapshot())

    # -- messages ----------------------------------------------------------------
    async def handle(self, kind: str, fields: dict[str, Any], reply: Send) -> None:
        """Act on one checked message (MessageError, BingwaError: the page's
        error line)."""
        s = self.session
        self.last_used = time.monotonic()
        if kind == "new":
            self.check_players(fields["south"], fields["north"])
            self.interrupt()
            s.set_players(fields["south"], fields["north"])
            s.reset(fields["variant"])
        elif kind == "players":
            self.check_players(fields["south"], fields["north"])
            self.interrupt()
            s.set_players(fields["south"], fields["north"])
        elif kind == "move":
            if self.busy == "move" or s.engine_should_move():
                raise MessageError("wait: it is the engine's turn")
            self.interrupt()
            s.play(fields["move"])
            s.paused = False
        elif kind in ("undo", "redo", "goto"):
            self.interrupt()
            if kind == "undo":
                s.undo()
            elif kind == "redo":
                s.redo()
            else:
                s.goto(fields["ply"])
        elif kind == "pause":
            self.interrupt()
            s.paused = True
            s.changed()
        elif kind == "resume":
            self.interrupt()
            s.paused = False
            s.truncate()
        elif kind == "stop":
            for slot in self.slots.values():
                slot.stop()
            return
        elif kind == "hint":
            await self.start_hint()
            return
        elif kind == "save":
            text, filename = s.save(fields.get("format", "record"))
            await reply({"type": "record", "text": text, "filename": filename})
            return
        elif kind == "load":
            self.interrupt()
            s.load(fields["text"], fields.get("format", "auto"))
        await self.publish()
        await self.kick()

    def check_players(self, *players: Player) -> None:
        for player in players:
            if player.is_engine and player.engine and player.engine not in self.pool.commands:
                raise MessageError(f"no engine named {player.engine!r} "
                                   f"(engines: {', '.join(self.pool.names)})")

    def interrupt(self) -> None:
        """Ask a running search to end now; its result will be stale."""
        if self.busy is not None:
            for slot in self.slots.values():
                slot.stop()

    # -- engines -------------------------------------------------------------------
    def slot(self, name: str) -> EngineSlot:
        name = self.pool.resolve(name)
        if name not in self.slots:
            self.slots[name] = EngineSlot(self.pool, name)
        return self.slots[name]

    async def kick(self) -> None:
        """Start the engine's move when it is an engine's turn."""
        if self.task is not None and not self.task.done():
            return
        if not self.pages or not self.session.engine_should_move():
            return
        self.busy = "move"
        self.task = asyncio.create_task(self._engine_move())

    def _on_info(self, purpose: str, side: int, engine: str) -> Callable[[Info], None]:
        loop = asyncio.get_running_loop()

        def on_info(info: Info) -> None:
            if info.depth is None or info.string is not None:
                return
            message = {"type": "info", "purpose": purpose, "side": side, "engine": engine,
                       "depth": info.depth, "multipv": info.multipv or 1,
                       "score": score_text(info), "nodes": info.nodes, "time": info.time,
                       "pv": info.pv[:16]}
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.broadcast(message)))

        return on_info

    async def _think(self, slot: EngineSlot, pos: Position, player: Player, multipv: int,
                     purpose: str, version: int) -> PlayResult | None:
        """One search, with one restart after a crash or a hang; None when
        it failed twice or the game changed meanwhile."""
        for attempt in (1, 2):
            try:
                return await asyncio.to_thread(
                    slot.think, pos, player, multipv, self._on_info(purpose, pos.turn, slot.name))
            except EngineError as exc:
                if self.session.version != version or not self.pages:
                    return None
                again = attempt == 1
                what = "restarting it" if again else "pausing the game (press Resume to retry)"
                await self.broadcast({"type": "engine_error", "engine": slot.name,
                                      "message": f"engine {slot.name} failed: {exc}; {what}"})
                if not again:
                    if purpose == "move":
                        self.session.paused = True
                        self.session.changed()
                    return None
        return None

    @contextlib.asynccontextmanager
    async def _engine_job(self, publish_if_paused: bool = False) -> AsyncIterator[None]:
        """The frame of an engine task: a rules or engine error is one error
        message to the pages; then the task is over and the next engine
        move may start (and a paused game shows it)."""
        try:
            yield
        except (BingwaError, EngineError) as exc:
            await self.broadcast({"type": "error", "message": str(exc)})
        finally:
            self.busy = None
            self.task = None
            await self.kick()
            if publish_if_paused and self.session.paused:
                await self.publish()

    async def _engine_move(self) -> None:
        s = self.session
        async with self._engine_job(publish_if_paused=True):
            version = s.version
            player = s.player_to_move()
            slot = self.slot(player.engine)
            await self.broadcast({"type": "thinking", "side": s.pos.turn, "engine": slot.name})
            result = await self._think(slot, s.pos.copy(), player, 1, "move", version)
            if result is None or s.version != version or result.move is None:
                return
            info = result.info
            note = Annotation(score_cp=info.score_cp, score_mate=info.score_mate,
                              depth=info.depth, time_ms=round(result.elapsed * 1000))
            s.play(result.move.text, note)
            await self.publish()
            if slot.received_at is not None:
                self.latencies.append(time.monotonic() - slot.received_at)

    async def start_hint(self) -> None:
        if self.task is not None and not self.task.done():
            raise MessageError("wait: the engine is thinking")
        if self.session.pos.is_over():
            raise MessageError("the game is over")
        self.busy = "hint"
        self.task = asyncio.create_task(self._hint())

    async def _hint(self) -> None:
        s = self.session
        version = s.version
        engines = [p for p in s.players if p.is_engine]
        player = engines[0] if engines else HINT_PLAYER
        async with self._engine_job():
            slot = self.slot(player.engine)
            await self.broadcast({"type": "thinking", "side": s.pos.turn, "engine": slot.name,
                                  "purpose": "hint"})
            result = await self._think(slot, s.pos.copy(), player, HINT_LINES, "hint", version)
            if result is None or s.version != version:
                return
            await self.broadcast({"type": "hint", "lines": hint_lines(result)})


def hint_lines(result: PlayResult) -> list[dict[str, Any]]:
    """The best moves with their scores: the deepest report of each MultiPV
    rank, best first (the bestmove alone when the engine reported none)."""
    best: dict[int, Info] = {}
    for info in result.infos:
        if info.pv and (info.score_cp is not None or info.score_mate is not None):
            best[info.multipv or 1] = info
    lines = [{"rank": rank, "move": info.pv[0], "score": score_text(info),
              "depth": info.depth, "pv": info.pv[:12]}
             for rank, info in sorted(best.items())]
    if not lines and result.move is not None:
        lines = [{"rank": 1, "move": result.move.text, "score": "", "depth": None, "pv": []}]
    return lines
