"""The controller side of the protocol: drive an engine process (or a bot
in this process, or a script) with typed limits and results.

    >>> with Engine.popen(["bingwa", "engine", "--bot", "greedy"]) as engine:
    ...     result = engine.play(Position("oware"), Limits(depth=2))
    ...     result.move, result.elapsed

The tournament runner, the ``external`` bot, the compliance checker and the
tests use it. Every failure has its own exception, each naming the command
that triggered it and the last lines exchanged, and each mapped to the way
a referee ends the game (``termination``):

- EngineStartError: the command cannot be started;
- EngineCrash: the process is gone (end of its output, broken pipe);
- EngineStall: no ``uciok``/``readyok`` in time;
- EngineTimeout: no ``bestmove`` in time;
- EngineIllegalMove / EngineUnparsableMove: the ``bestmove`` is not a legal
  move / not a move of the variant at all;
- EngineVariantError: what a referee makes of set_variant's ValueError.

Transports (transport.py) carry the lines: a process, a server on a
thread, or a script of exact lines for tests.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bingwa.bots.base import BotOption
from bingwa.engine import BingwaError, IllegalMoveError, Move, Position
from bingwa.engine.limits import Info, Limits
from bingwa.engine.variant import Variant, find_variant

from .dialect import Dialect
from .dialects import find_dialect
from .errors import (
    EngineCrash,
    EngineError,
    EngineIllegalMove,
    EngineMoveError,
    EngineStall,
    EngineStartError,
    EngineTimeout,
    EngineUnparsableMove,
    EngineVariantError,
)
from .transport import (
    Clock,
    InProcessTransport,
    ProcessTransport,
    ScriptedTransport,
    StreamTransport,
    Transport,
)
from .wire import CommandError, format_go, normalise_name, parse_info, parse_option

__all__ = [
    "Engine", "EngineCrash", "EngineError", "EngineIllegalMove", "EngineMoveError",
    "EngineStall", "EngineStartError", "EngineTimeout", "EngineUnparsableMove",
    "EngineVariantError", "InProcessTransport", "PlayResult", "ProcessTransport",
    "ScriptedTransport", "Search", "StreamTransport", "Transport",
]


# -- results -------------------------------------------------------------------
@dataclass
class PlayResult:
    """What one ``go`` ended with. ``move`` is None when the engine says
    the game is over; ``elapsed`` is measured by the client, in seconds,
    from writing ``go`` to reading ``bestmove``."""

    move: Move | None
    ponder: str | None = None
    info: Info = field(default_factory=Info)  # the last report with a score
    infos: list[Info] = field(default_factory=list)
    elapsed: float = 0.0
    errors: list[str] = field(default_factory=list)  # info string error: ... lines
    lines: list[str] = field(default_factory=list)  # every info and bestmove line


# -- the engine ----------------------------------------------------------------
class Search:
    """A ``go`` in progress. ``wait`` reads until its ``bestmove``."""

    def __init__(self, engine: Engine, position: Position, limits: Limits, sent: float) -> None:
        self.engine = engine
        self.position = position.copy()
        self.limits = limits
        self.sent = sent
        self.bestmove: str | None = None  # the raw bestmove line, once read
        self.received_at: float | None = None
        self.result = PlayResult(None)
        self.stopped_at: float | None = None

    @property
    def done(self) -> bool:
        return self.bestmove is not None

    def stop(self) -> None:
        self.stopped_at = self.engine.clock()
        self.engine.send("stop")

    def ponderhit(self) -> None:
        self.engine.send("ponderhit")

    def _info(self, when: float, line: str) -> None:
        self.result.lines.append(line)
        info = parse_info(line)
        if info.pv:
            try:
                info.pv = self.engine.dialect.moves_from_wire(info.pv)
            except BingwaError:
                pass
        if info.string and info.string.startswith("error:"):
            self.result.errors.append(info.string)
        if info.string is None or info.depth is not None:
            self.result.infos.append(info)
            if info.score_cp is not None or info.score_mate is not None:
                self.result.info = info
        if self.engine.on_info is not None:
            self.engine.on_info(info)

    def _bestmove(self, when: float, line: str) -> None:
        self.result.lines.append(line)
        self.bestmove = line
        self.received_at = when
        self.result.elapsed = when - self.sent

    def wait(self, timeout: float | None = None) -> PlayResult:
        """Read until ``bestmove`` (EngineTimeout after ``timeout``
        seconds; EngineStall when a silent engine does not answer the
        ``isready`` pings) and check the move against the rules."""
        engine = self.engine
        start = engine.clock()
        deadline = None if timeout is None else start + timeout
        quiet_since = start
        ping_due: float | None = None  # readyok deadline of an outstanding ping
        ping_target = 0
        while not self.done:
            waits = [t for t in (deadline, ping_due) if t is not None]
            if engine.ping_during_search and ping_due is None:
                waits.append(quiet_since + engine.ping_interval)
            wake = min(waits) if waits else None
            if engine._pump(wake):
                quiet_since = engine.clock()
                if ping_due is not None and engine._readyoks >= ping_target:
                    ping_due = None
                continue
            now = wake if wake is not None else engine.clock()
            if deadline is not None and now >= deadline:
                raise engine._fail(EngineTimeout, f"no bestmove within {timeout:.3f} s")
            if ping_due is not None and now >= ping_due:
                raise engine._fail(EngineStall, f"no readyok within {engine.ready_timeout:.3f} s "
                                   "during a search")
            if ping_due is None and engine.ping_during_search:
                ping_target = engine._send_ping()
                ping_due = now + engine.ready_timeout
        engine._search = None
        self._check()
        return self.result

    def _check(self) -> None:
        """Turn the bestmove line into a legal Move (or the failure)."""
        engine = self.engine
        words = (self.bestmove or "").split()
        if len(words) < 2:
            raise engine._fail(EngineUnparsableMove, f"bestmove names no move: {self.bestmove!r}")
        position = self.position
        try:
            text = engine.dialect.best_from_wire(words[1])
        except BingwaError as exc:
            raise engine._fail(EngineUnparsableMove, f"bestmove {words[1]!r}: {exc}") from None
        if text is None:
            if not position.is_over():
                legal = " ".join(m.text for m in position.legal_moves())
                raise engine._fail(EngineIllegalMove,
                                   f"bestmove {words[1]} while the game goes on (legal: {legal})")
            self.result.move = None
            return
        try:
            move = position.parse_move(text)
        except IllegalMoveError as exc:
            raise engine._fail(EngineIllegalMove, f"bestmove {words[1]}: {exc}") from None
        except BingwaError as exc:
            raise engine._fail(EngineUnparsableMove, f"bestmove {words[1]}: {exc}") from None
        self.result.move = move
        if len(words) >= 4 and words[2] == "ponder":
            try:
                child = position.play(move)
                self.result.ponder = child.parse_move(
                    engine.dialect.best_from_wire(words[3]) or "").text
            except BingwaError:
                self.result.ponder = None


class Engine:
    """A protocol engine driven through a Transport.

    ``ping_during_search``: while waiting for ``bestmove``, send ``isready``
    after ``ping_interval`` seconds of silence and fail with EngineStall if
    ``readyok`` does not come within ``ready_timeout``. Off for engines
    that answer nothing while they search (the Aualé dialect): then only
    the search time-out applies.
    """

    def __init__(
        self,
        transport: Transport,
        *,
        dialect: str | Dialect = "uci",
        clock_names: str = "uci",
        ready_timeout: float = 5.0,
        ping_during_search: bool | None = None,
        ping_interval: float = 1.0,
        clock: Clock = time.monotonic,
        on_info: Callable[[Info], None] | None = None,
    ) -> None:
        self.transport = transport
        self.dialect = find_dialect(dialect) if isinstance(dialect, str) else dialect
        self.clock_names = clock_names
        self.ready_timeout = ready_timeout
        if ping_during_search is None:
            ping_during_search = self.dialect.name == "uci"
        self.ping_during_search = ping_during_search
        self.ping_interval = ping_interval
        self.clock = clock
        self.on_info = on_info
        self.id: dict[str, str] = {}
        self.options: dict[str, BotOption] = {}
        self.option_lines: list[str] = []
        self.bad_option_lines: list[str] = []
        self.transcript: collections.deque[str] = collections.deque(maxlen=200)
        self.last_command: str | None = None
        self.responses: collections.deque[str] = collections.deque()
        self.messages: list[str] = []  # info lines outside a search
        self.stray: list[str] = []  # lines the protocol does not expect (bestmove without go)
        self.other: list[str] = []  # other lines (d, perft output...)
        self.received: list[str] | None = None  # a list here records every line read
        self._readyoks = 0
        self._ready_times: list[float] = []
        self._pings = 0
        self._uciok = False
        self._search: Search | None = None
        self.handshake_ok = False

    # -- construction -----------------------------------------------------
    @classmethod
    def popen(cls, command: list[str], *, cwd: str | None = None,
              env: dict[str, str] | None = None, **kw: Any) -> Engine:
        return cls(ProcessTransport(command, cwd=cwd, env=env), **kw)

    @classmethod
    def in_process(cls, bot: Any, *, variant: str = "oware", dialect: str = "uci",
                   **kw: Any) -> Engine:
        """A bot served by an EngineServer on a thread of this process."""
        from .server import EngineServer

        transport = InProcessTransport(
            lambda i, o: EngineServer(bot, i, o, variant=variant, dialect=dialect))
        return cls(transport, dialect=dialect, **kw)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    # -- lines ------------------------------------------------------------
    def send(self, line: str) -> None:
        self.transcript.append("> " + line)
        if line not in ("isready", "stop", "ponderhit"):
            self.last_command = line
        try:
            self.transport.send(line)
        except EngineCrash as exc:
            raise self._fail(EngineCrash, str(exc)) from None

    def _fail(self, kind: type[EngineError], message: str) -> EngineError:
        return kind(message, command=self.last_command, transcript=self.transcript)

    def _pump(self, until: float | None) -> bool:
        """Read and route one line; False when ``until`` came first."""
        timeout = None if until is None else max(0.0, until - self.clock())
        try:
            got = self.transport.receive(timeout)
        except EngineCrash as exc:
            error = self._fail(EngineCrash, str(exc))
            error.returncode = exc.returncode  # type: ignore[attr-defined]
            raise error from None
        if got is None:
            return False
        when, line = got
        self.transcript.append("< " + line)
        if self.received is not None:
            self.received.append(line)
        self._route(when, line)
        return True

    def _route(self, when: float, line: str) -> None:
        word = line.split(None, 1)[0] if line.strip() else ""
        search = self._search
        if word == "readyok":
            self._readyoks += 1
            self._ready_times.append(when)
        elif word == "bestmove":
            if search is not None and not search.done:
                search._bestmove(when, line)
            else:
                self.stray.append(line)
        elif word == "info":
            if search is not None and not search.done:
                search._info(when, line)
            else:
                self.messages.append(line)
        elif word == "response":
            self.responses.append(line[len("response"):].strip())
        elif word == "id" and not self._uciok:
            _, key, value = (line.split(None, 2) + ["", ""])[:3]
            self.id[key] = value
        elif word == "option" and not self._uciok:
            self.option_lines.append(line)
            try:
                option = parse_option(line)
                self.options[normalise_name(option.name)] = option
            except CommandError:
                self.bad_option_lines.append(line)
        elif word in ("uciok", "ugiok"):
            self._uciok = True
        else:
            self.other.append(line)

    def _send_ping(self) -> int:
        self._pings += 1
        self.send("isready")
        return self._pings

    # -- commands -----------------------------------------------------------
    def handshake(self, timeout: float = 10.0, command: str = "uci") -> None:
        """``uci`` -> id, options, ``uciok`` (EngineStall after ``timeout``)."""
        self.send(command)
        deadline = self.clock() + timeout
        while not self._uciok:
            if not self._pump(deadline):
                raise self._fail(EngineStall, f"no uciok within {timeout:.3f} s")
            if self.transcript[-1] == f"< {command}" and not self.id:
                # cat, a shell, a tee: waiting for uciok would only time out
                raise self._fail(EngineStartError, f"the engine wrote back the {command!r} it "
                                 "was sent: it echoes its input, it is no engine")
        self.handshake_ok = True

    def ping(self, timeout: float | None = None) -> float:
        """``isready`` -> ``readyok``; the round trip in seconds, measured
        from writing the line to reading the answer (EngineStall)."""
        timeout = self.ready_timeout if timeout is None else timeout
        sent = self.clock()
        target = self._send_ping()
        deadline = sent + timeout
        while self._readyoks < target:
            if not self._pump(deadline):
                raise self._fail(EngineStall, f"no readyok within {timeout:.3f} s")
        return max(0.0, self._ready_times[target - 1] - sent)

    def has_option(self, name: str) -> bool:
        return normalise_name(name) in self.options

    def set_option(self, name: str, value: Any = None) -> None:
        """``setoption``; booleans are written true/false."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        line = f"setoption name {name}" + ("" if value is None else f" value {value}")
        self.send(line)

    def configure(self, options: dict[str, Any]) -> None:
        for name, value in options.items():
            self.set_option(name, value)

    def set_variant(self, variant: Variant | str) -> Variant:
        """Select ``variant`` (a Variant or a spec): ``UCI_Variant`` and each
        parameter of the variant the engine declares. ValueError when the
        engine cannot play it."""
        if isinstance(variant, str):
            variant = find_variant(variant)
        self.dialect.check_variant(variant)
        if self.has_option("UCI_Variant"):
            self.set_option("UCI_Variant", variant.name)
            for name, value in variant.options.items():
                if self.has_option(name):
                    self.set_option(name, value)
        elif variant != find_variant("oware"):
            raise ValueError(f"the engine offers no UCI_Variant option: it cannot play "
                             f"{variant.spec()}")
        return variant

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ping()

    def position_command(self, position: Position) -> str:
        """The ``position`` line of ``position``'s game: its root and its moves."""
        dialect = self.dialect
        if position.root == position.variant.initial_state():
            head = "position startpos"
        else:
            head = "position fen " + dialect.position_to_wire(position)
        moves = dialect.moves_to_wire([m.text for m in position.move_stack])
        return head + (" moves " + " ".join(moves) if moves else "")

    def go(self, position: Position, limits: Limits) -> Search:
        """Send the game and ``go``; the Search reads the answer."""
        if self._search is not None and not self._search.done:
            raise RuntimeError("a search is already running")
        self.send(self.position_command(position))
        searchmoves = [self.dialect.move_to_wire(m) for m in limits.searchmoves]
        line = format_go(limits, self.clock_names, moves=searchmoves)
        search = Search(self, position, limits, self.clock())
        self._search = search
        self.send(line)
        search.sent = self.clock()
        return search

    def play(self, position: Position, limits: Limits, timeout: float | None = None) -> PlayResult:
        """One move: ``position``, ``go``, wait for ``bestmove``, check it."""
        return self.go(position, limits).wait(timeout)

    def query(self, what: str, timeout: float | None = None) -> str:
        """``query WHAT`` -> the words after ``response``."""
        timeout = self.ready_timeout if timeout is None else timeout
        self.responses.clear()
        self.send(f"query {what}")
        deadline = self.clock() + timeout
        while not self.responses:
            if not self._pump(deadline):
                raise self._fail(EngineStall, f"no response to query {what} within "
                                 f"{timeout:.3f} s")
        return self.responses.popleft()

    def quit(self, timeout: float = 2.0) -> int | None:
        """``quit``; the exit status (the process is killed after ``timeout``)."""
        try:
            self.transport.send("quit")
            self.transcript.append("> quit")
        except EngineCrash:
            pass
        return self.transport.close(timeout)
