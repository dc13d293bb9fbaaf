"""Engine processes for the web app, driven only through bingwa.protocol's
client.

EnginePool bounds how many engine processes the server runs at once (the
page never names a command: it picks one of the names given to ``bingwa
serve --engine NAME=CMD``). An EngineSlot is one engine process of one
game; its calls block, so the server runs them on worker threads, one at a
time per slot (a lock). An engine that crashes or hangs raises an
EngineError out of ``think``; the slot is then empty and the next call
starts a fresh process (the game itself lives in the session).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits
from bingwa.protocol.client import Engine, PlayResult, Search
from bingwa.protocol.errors import EngineError, EngineStartError
from bingwa.protocol.wire import normalise_name

from .messages import Player

DEFAULT_ENGINE = "bingwa"
DEFAULT_COMMAND = [sys.executable, "-m", "bingwa", "engine"]
HANDSHAKE_TIMEOUT = 15.0  # s: Python starting on a loaded 2-core machine
READY_TIMEOUT = 3.0  # s without readyok to a ping during a search: a hang
SEARCH_MARGIN = 10.0  # s past a movetime before a search counts as hung
UNTIMED_TIMEOUT = 120.0  # s for a depth or node budget


class PoolFullError(EngineStartError):
    """Every engine slot of the server is in use."""


def parse_engine_option(text: str) -> tuple[str, list[str]]:
    """``NAME=CMD`` -> (NAME, CMD split as a shell would); ValueError."""
    import shlex

    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep or not name or not command.strip():
        raise ValueError(f"--engine takes NAME=COMMAND, not {text!r}")
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"--engine {name}: {exc}") from None
    return name, words


def engine_commands(options: tuple[str, ...] | list[str]) -> dict[str, list[str]]:
    """The engines of ``--engine NAME=CMD ...``: added to the default
    ``bingwa`` engine (which an engine named bingwa replaces); ValueError."""
    commands = {DEFAULT_ENGINE: DEFAULT_COMMAND}
    given: set[str] = set()
    for text in options:
        name, command = parse_engine_option(text)
        if name in given:
            raise ValueError(f"--engine {name} is given twice")
        given.add(name)
        commands[name] = command
    return commands


class EnginePool:
    """The engines a server may start: their commands by name, and a bound
    on the processes running at once."""

    def __init__(self, commands: dict[str, list[str]] | None = None, limit: int = 8,
                 ready_timeout: float = READY_TIMEOUT) -> None:
        self.commands = dict(commands) if commands else {DEFAULT_ENGINE: DEFAULT_COMMAND}
        self.limit = limit
        self.ready_timeout = ready_timeout
        self.running = 0
        self._lock = threading.Lock()

    @property
    def names(self) -> list[str]:
        return list(self.commands)

    def resolve(self, name: str) -> str:
        """The engine called ``name`` (the first one for an empty name)."""
        if not name:
            return self.names[0]
        if name not in self.commands:
            raise EngineStartError(f"no engine named {name!r} (engines: {', '.join(self.names)})")
        return name

    def start(self, name: str) -> Engine:
        """A handshaken engine process (PoolFullError, EngineError)."""
        command = self.commands[self.resolve(name)]
        with self._lock:
            if self.running >= self.limit:
                raise PoolFullError(f"all {self.limit} engine slots of this server are in use")
            self.running += 1
        try:
            engine = Engine.popen(command, ready_timeout=self.ready_timeout,
                                  ping_during_search=True,
                                  ping_interval=min(1.0, self.ready_timeout))
            try:
                engine.handshake(HANDSHAKE_TIMEOUT)
            except EngineError:
                engine.transport.close(0.5)
                raise
        except BaseException:
            self.release()
            raise
        return engine

    def release(self) -> None:
        with self._lock:
            self.running -= 1


class EngineSlot:
    """One engine process of a game (started on first use)."""

    def __init__(self, pool: EnginePool, name: str) -> None:
        self.pool = pool
        self.name = pool.resolve(name)
        self.engine: Engine | None = None
        self.variant_spec: str | None = None
        self.search: Search | None = None
        self.received_at: float | None = None  # when the last bestmove was read
        self.restarts = 0
        self._lock = threading.Lock()  # one search at a time
        self._closed = False

    def _ready(self, pos: Position) -> Engine:
        if self.engine is None:
            self.engine = self.pool.start(self.name)
            self.variant_spec = None
        engine = self.engine
        spec = pos.variant.spec()
        if self.variant_spec != spec:
            try:
                engine.set_variant(pos.variant)
            except ValueError as exc:
                raise EngineStartError(f"{self.name} cannot play {spec}: {exc}") from None
            engine.new_game()
            self.variant_spec = spec
        return engine

    def think(self, pos: Position, player: Player, multipv: int = 1,
              on_info: Callable[[Info], None] | None = None) -> PlayResult:
        """Search ``pos`` with ``player``'s strength and budget (blocking).
        An EngineError leaves the slot empty, so the next call restarts."""
        with self._lock:
            if self._closed:
                raise EngineStartError("the page has gone away")
            try:
                engine = self._ready(pos)
                if engine.has_option("Skill Level"):
                    # no level asked: the engine's own default (a slot serves both sides)
                    default = engine.options[normalise_name("Skill Level")].default
                    skill = player.skill if player.skill is not None else default
                    if skill is not None:
                        engine.set_option("Skill Level", skill)
                if engine.has_option("MultiPV"):
                    engine.set_option("MultiPV", multipv)
                engine.on_info = on_info
                limits, timeout = budget(player)
                self.search = engine.go(pos, limits)
                result = self.search.wait(timeout)
                self.received_at = self.search.received_at
                return result
            except EngineError:
                self._discard()
                self.restarts += 1
                raise
            finally:
                self.search = None

    def stop(self) -> None:
        """Ask a running search for its move now (from another thread)."""
        search = self.search
        if search is not None and not search.done:
            try:
                search.stop()
            except EngineError:
                pass

    def pid(self) -> int | None:
        transport: Any = self.engine.transport if self.engine else None
        process = getattr(transport, "process", None)
        return process.pid if process is not None else None

    def _discard(self) -> None:
        if self.engine is not None:
            engine, self.engine = self.engine, None
            try:
                engine.transport.close(0.2)
            finally:
                self.pool.release()

    def close(self) -> None:
        """End the process (``quit``, killed after a moment)."""
        self._closed = True
        self.stop()
        with self._lock:
            if self.engine is not None:
                engine, self.engine = self.engine, None
                try:
                    engine.quit(1.0)
                except EngineError:
                    pass
                finally:
                    self.pool.release()


def budget(player: Player) -> tuple[Limits, float]:
    """The ``go`` limits of ``player`` and how long to wait for bestmove."""
    if player.think == "movetime":
        return Limits(movetime=player.amount), player.amount / 1000 + SEARCH_MARGIN
    if player.think == "depth":
        return Limits(depth=player.amount), UNTIMED_TIMEOUT
    return Limits(nodes=player.amount), UNTIMED_TIMEOUT
