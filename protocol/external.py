"""The ``external`` bot: any engine command behind bingwa's protocol client
(protocol/client.py), so that another program plays wherever a bot does
(``bingwa play``, the tournament runner, ``bingwa engine`` as a relay). It
is found by name in protocol/bots.py, not in bingwa.bots: bots sit below
the protocol.

Options:

- ``Command``: the engine's command line (split like a shell does), e.g.
  ``bingwa engine --bot mcts``; started at the first ``go`` (or by
  ``ensure_started``, which the command line calls before a game so that a
  bad command fails at once) and again after the command changes or the
  engine fails.
- ``Engine Dialect``: ``uci`` or ``auale`` (the Aualé GUI's Oware dialect).
- ``Engine Options``: ``Name=Value`` pairs separated by ``;`` sent with
  ``setoption`` after the handshake (``Hash=64; Skill Level=5``).
- ``Log``: a file the traffic is appended to, one line each, ``> `` for what
  bingwa sent and ``< `` for what the engine answered, after the seconds
  since the engine started.
- ``MultiPV``: passed on to the engine when it has that option.
- ``Moves``: restrict the engine to these moves (space or comma separated):
  they go out as ``searchmoves``, less those illegal in the position; when
  none of them is legal, the engine chooses among all moves.

A failure of the engine (crash, stall, illegal move) is raised as the
client's EngineError, after which the engine is closed and restarted at the
next ``go``; the protocol server turns the error into an ``info string``
line and a legal move.
"""

from __future__ import annotations

import dataclasses
import shlex
import threading
import time
from typing import Any, TextIO

from bingwa.bots.base import Bot, BotOption, BotOptionError, Emit
from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult

from .client import Engine
from .errors import EngineError, EngineStartError
from .transport import ProcessTransport

EMPTY = ("", "<empty>")


class LoggingTransport:
    """A Transport that writes every line it carries to ``log``."""

    def __init__(self, inner: Any, log: TextIO) -> None:
        self.inner = inner
        self.log = log
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def _write(self, arrow: str, line: str) -> None:
        with self.lock:
            self.log.write(f"{time.monotonic() - self.start:9.3f} {arrow} {line}\n")
            self.log.flush()

    def send(self, line: str) -> None:
        self._write(">", line)
        self.inner.send(line)

    def receive(self, timeout: float | None) -> Any:
        received = self.inner.receive(timeout)
        if received is not None:
            self._write("<", received[1])
        return received

    def close(self, timeout: float = 2.0) -> int | None:
        try:
            return self.inner.close(timeout)
        finally:
            with self.lock:
                self.log.close()

    def returncode(self) -> int | None:
        return self.inner.returncode()

    def error_tail(self) -> list[str]:
        return self.inner.error_tail()


def parse_engine_options(text: str) -> dict[str, str]:
    """``Name=Value; Name2=Value2`` -> {name: value} (BotOptionError)."""
    options: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise BotOptionError(f"engine option {part.strip()!r} must be written Name=Value")
        options[name.strip()] = value.strip()
    return options


class ExternalBot(Bot):
    name = "external"
    summary = "another engine command behind the protocol client (log it, restrict its moves)"

    def __init__(self, transport_factory: Any = None) -> None:
        """``transport_factory(command) -> Transport`` replaces the process
        (tests serve an engine in this process)."""
        super().__init__()
        self.transport_factory = transport_factory
        self.engine: Any = None
        self.variant: Any = None

    def options(self) -> list[BotOption]:
        return [
            BotOption("Command", "string", "", help="the engine command line"),
            BotOption("Engine Dialect", "combo", "uci", vars=("uci", "auale"),
                      help="the engine's protocol dialect"),
            BotOption("Engine Options", "string", "", help="Name=Value; ... sent to the engine"),
            BotOption("Log", "string", "", help="file the traffic is appended to"),
            BotOption("Moves", "string", "", help="moves the engine may choose from"),
            BotOption("MultiPV", "spin", 1, 1, 256, help="passed on to the engine"),
        ]

    def set_option(self, name: str, value: str | None) -> None:
        option = self.find_option(name)
        if option.name == "Engine Options":
            parse_engine_options(value or "")  # refuse a malformed list now
        elif option.name == "Command":
            try:
                shlex.split(value or "")
            except ValueError as exc:  # an unclosed quote
                raise BotOptionError(f"option Command: {exc} in {value!r}") from None
        super().set_option(name, value)
        if option.name in ("Command", "Engine Dialect", "Engine Options", "Log"):
            self.close()  # the next go starts the engine afresh
        elif option.name == "MultiPV" and self.engine is not None:
            self.pass_multipv(self.engine)

    def pass_multipv(self, engine: Any) -> None:
        if engine.has_option("MultiPV"):
            engine.set_option("MultiPV", self.option("MultiPV"))

    def text_option(self, name: str) -> str:
        value = self.option(name) or ""
        return "" if value.strip() in EMPTY else value.strip()

    # -- the engine's life ----------------------------------------------
    def start(self) -> Any:
        command = shlex.split(self.text_option("Command"))
        if not command:
            raise EngineStartError("the external bot has no Command option set")
        if self.transport_factory is not None:
            transport = self.transport_factory(command)
        else:
            transport = ProcessTransport(command)
        log = self.text_option("Log")
        if log:
            try:
                stream = open(log, "a", encoding="utf-8")  # noqa: SIM115 closed with the engine
            except OSError as exc:
                transport.close()
                raise EngineStartError(f"cannot open the log {log}: {exc.strerror}") from None
            transport = LoggingTransport(transport, stream)
        engine = Engine(transport, dialect=self.option("Engine Dialect"))
        try:
            engine.handshake()
            for name, value in parse_engine_options(self.text_option("Engine Options")).items():
                engine.set_option(name, value)
            if self.option("MultiPV") > 1:
                self.pass_multipv(engine)
            engine.ping()
        except Exception:
            engine.quit()
            raise
        self.engine = engine
        self.variant = None
        return engine

    def ensure_started(self) -> None:
        """Start the engine now unless it runs: EngineError (EngineStartError
        for a command that cannot start) instead of a failed first move."""
        if self.engine is None:
            self.start()

    def close(self) -> None:
        if self.engine is not None:
            engine, self.engine = self.engine, None
            try:
                engine.quit()
            except Exception:  # noqa: BLE001 the engine may be gone already
                pass

    def new_game(self) -> None:
        if self.engine is not None:
            try:
                self.engine.new_game()
            except Exception:  # noqa: BLE001 restarted at the next go
                self.close()

    def restricted(self, position: Position, limits: Limits) -> Limits:
        """``limits`` with searchmoves narrowed to the Moves option."""
        wanted = self.text_option("Moves").replace(",", " ").split()
        if not wanted:
            return limits
        legal = {m.text for m in position.legal_moves()}
        allowed = [text for text in dict.fromkeys(wanted) if text in legal]
        if limits.searchmoves:
            allowed = [text for text in allowed if text in limits.searchmoves]
        if not allowed:
            return limits
        return dataclasses.replace(limits, searchmoves=allowed)

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        if position.is_over():
            return SearchResult(None)
        limits = self.restricted(position, limits)
        try:
            engine = self.engine or self.start()
            if self.variant != position.variant:
                engine.set_variant(position.variant)
                engine.new_game()
                self.variant = position.variant
            engine.on_info = emit
            search = engine.go(position, limits)
            finished = threading.Event()

            def relay_stop() -> None:
                while not finished.wait(0.005):
                    if stop.is_set():
                        if not search.done:
                            search.stop()
                        return

            relay = threading.Thread(target=relay_stop, daemon=True, name="bingwa-external-stop")
            relay.start()
            try:
                result = search.wait()
            finally:
                finished.set()
                relay.join()
                engine.on_info = None
        except EngineError:
            self.close()
            raise
        info: Info | None = result.info if result.infos else None
        best = result.move.text if result.move is not None else None
        return SearchResult(best, result.ponder, info)

    def __del__(self) -> None:
        self.close()
