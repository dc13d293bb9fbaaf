"""The engine side of the protocol (docs/protocol.md), generic over every Bot.

Two threads share the work:

- the *reader* (``run``) reads the input line by line. It answers
  ``isready`` at once, acts on ``stop``, ``ponderhit`` and ``quit`` at once,
  and runs the quick commands (``position``, ``setoption``, ``d``,
  ``query``...) itself when nothing is waiting before them;
- the *worker* runs the heavy commands (``go``, ``perft``, ``bench``:
  jobs.py) one after the other, and the commands that arrived behind
  them, in order.

So ``isready`` and ``stop`` are answered within milliseconds even in the
middle of a search, and a script that pipes ``go`` after ``go`` gets each
search done in turn. Invariants:

- every output line is written whole and flushed (one lock);
- every ``go`` gets exactly one ``bestmove``; in ``go infinite`` and
  ``go ponder`` it is held back until ``stop`` (or ``ponderhit``);
- bad input gets one ``info string error: ...`` line (MAX_ERROR characters
  at most) and changes nothing; a line over MAX_LINE is refused as it is
  read; a malformed ``go`` is answered at once (a one-ply look); no
  traceback ever reaches the output (a failing bot's traceback goes to
  the error stream and a legal move is still played);
- a ``go`` that arrives while an unbounded search (infinite, ponder, no
  limit for the side to move) runs stops that search first, so that
  nothing can hang; ``stop`` ends every job received, perft and bench
  included;
- the end of the input (the GUI is gone) stops every search, each still
  answered, and the engine exits once the queued commands ran.
"""

from __future__ import annotations

import collections
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, TextIO

from bingwa import __version__
from bingwa.bots.base import Bot, BotOption
from bingwa.engine import BingwaError, Position
from bingwa.engine.variant import Variant

from .dialect import UCI, Dialect, reworded
from .jobs import JOBS, MAX_PERFT_DEPTH, Job, perft_depth, run_job
from .options import EngineOptions
from .wire import (
    CommandError,
    clipped,
    normalise_name,
    parse_position,
    parse_setoption,
    strip_comment,
)

MAX_LINE = 100_000  # characters; a longer line is refused
MAX_ERROR = 400  # characters an error line holds at most
QUIT_GRACE = 5.0  # seconds a search gets to end after quit

URGENT = frozenset(("isready", "stop", "ponderhit", "quit"))
# commands that must wait for a running job: they change what it uses
WAIT_FOR_JOB = JOBS | {"setoption", "ucinewgame"}
KNOWN = sorted(URGENT | JOBS | {
    "uci", "ugi", "debug", "setoption", "ucinewgame", "position", "d", "query",
    "register", "gameover",
})


class EngineServer:
    """A bot behind the protocol, reading ``input`` and writing ``output``."""

    def __init__(
        self,
        bot: Bot,
        input: TextIO,
        output: TextIO,
        *,
        variant: str = "oware",
        dialect: str | Dialect = "uci",
        errors: TextIO | None = None,
        name: str | None = None,
    ) -> None:
        self.bot = bot
        self.input = input
        self.output = output
        self.errors = errors
        self.name = name or f"bingwa {__version__} ({bot.name})"
        self.settings = EngineOptions(bot, variant, dialect)
        self.position: Position | None = None
        self.debug = False

        self._out_lock = threading.Lock()
        self._output_broken = False
        self._cond = threading.Condition(threading.RLock())
        self._queue: collections.deque[tuple[list[str], Job | None]] = collections.deque()
        self._busy = False
        self._current: Job | None = None
        self._closing = False
        self._worker: threading.Thread | None = None

    # -- output ---------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one line and flush it (from any thread)."""
        with self._out_lock:
            if self._output_broken:
                return
            try:
                self.output.write(line + "\n")
                self.output.flush()
                return
            except (OSError, ValueError):
                self._output_broken = True
        # the GUI went away: stop working, leave quietly (outside the output
        # lock: the state lock is always taken before it, never after)
        self._halt_all()

    def info_string(self, text: str) -> None:
        self.send("info string " + " ".join(text.split()))

    def error(self, text: str) -> None:
        """The one line bad input gets, at most MAX_ERROR characters long
        (it may quote what was sent, and that can be huge)."""
        self.info_string(f"error: {clipped(' '.join(text.split()), MAX_ERROR - len('error: '))}")

    def log_traceback(self) -> None:
        if self.errors is not None:
            try:
                traceback.print_exc(file=self.errors)
                self.errors.flush()
            except (OSError, ValueError):
                pass

    # -- the reader -----------------------------------------------------
    def run(self) -> int:
        """Serve until ``quit`` or the end of the input; returns the exit
        status (0)."""
        self._worker = threading.Thread(target=self._work, name="bingwa-worker", daemon=True)
        self._worker.start()
        while True:
            line = self._read_line()
            if line is None:
                self._finish(eof=True)
                return 0
            if not self.handle_line(line):
                self._finish(eof=False)
                return 0
            if self._output_broken:
                self._finish(eof=False)
                return 0

    def _read_line(self) -> str | None:
        """The next input line, None at the end of the input. A line longer
        than MAX_LINE is refused as it is read, in pieces, never held whole."""
        try:
            line = self.input.readline(MAX_LINE + 1)
            if len(line) <= MAX_LINE or line.endswith("\n"):
                return line or None
            while line and not line.endswith("\n"):
                line = self.input.readline(MAX_LINE)
        except (OSError, ValueError):
            return None
        self.error(f"line of more than {MAX_LINE} characters refused")
        return "\n" if line else None

    def handle_line(self, raw: str) -> bool:
        """Act on one input line; False after ``quit``."""
        line = strip_comment(raw.rstrip("\r\n")).strip()
        if not line:
            return True
        if len(line) > MAX_LINE:
            self.error(f"line of more than {MAX_LINE} characters refused")
            return True
        words = line.split()
        command = words[0]
        if command == "isready":
            self.send("readyok")
            return True
        if command == "stop":
            self._stop()
            return True
        if command == "ponderhit":
            self._ponderhit()
            return True
        if command == "quit":
            return False
        if command == "bench" and len(words) > 1:
            self.error("bench takes no argument")
            return True
        if command == "perft" and perft_depth(words) is None:
            # refused at once, so that the error comes before a later readyok
            self.error(f"perft takes a depth in 0..{MAX_PERFT_DEPTH}: perft <depth>")
            return True
        with self._cond:
            if command == "setoption" and self._may_set_while_pondering(line):
                self._execute(words, line)
                return True
            job = Job(words) if command in JOBS else None
            if command == "go":
                self._supersede()
            if job is not None or self._queue or (self._busy and command in WAIT_FOR_JOB):
                self._queue.append((words, job))
                self._cond.notify_all()
                return True
            self._execute(words, line)
        return True

    def _execute(self, words: list[str], line: str) -> None:
        """Run a quick command (caller holds the lock)."""
        handler = self.COMMANDS.get(words[0])
        if handler is None:
            hint = " (commands are lower case)" if words[0].lower() in KNOWN else ""
            self.error(f"unknown command {words[0]!r}{hint}; known: {', '.join(KNOWN)}")
            return
        try:
            handler(self, words, line)
        except (CommandError, BingwaError) as exc:
            self.error(str(exc))
        except Exception as exc:  # a bug (ours or a bot's) must not kill the engine
            self.log_traceback()
            self.error(f"internal error in {words[0]}: {type(exc).__name__}: {exc}")

    # -- urgent commands ------------------------------------------------
    def _jobs(self) -> list[Job]:
        """The running job and the queued ones, oldest first."""
        jobs = [self._current] if self._current else []
        return jobs + [job for _, job in self._queue if job is not None]

    def _stop(self) -> None:
        """Every job received, running or waiting: a perft 30 sent just
        before may not have started yet."""
        self._halt_all()

    def _ponderhit(self) -> None:
        with self._cond:
            for job in self._jobs():
                if job.kind == "go" and job.limits.ponder and not job.ponderhit.is_set():
                    job.ponderhit.set()
                    job.release.set()
                    if job is self._current:
                        job.start_thinking()
                    return

    def _may_set_while_pondering(self, line: str) -> bool:
        """A setoption the dialect wants applied during a ``go ponder``
        rather than after it (caller holds the lock): nothing else waits,
        and the running search does not use the option."""
        job = self._current
        if not (self.dialect.setoption_during_ponder and job is not None and not self._queue
                and job.kind == "go" and job.limits.ponder and not job.ponderhit.is_set()):
            return False
        try:
            name = parse_setoption(line).name
        except CommandError:
            return False
        return self.settings.search_ignores(name)

    def _go_waiting(self) -> bool:
        return any(job is not None and job.kind == "go" for _, job in self._queue)

    def _supersede(self) -> None:
        """A new go stops every earlier search that only stop would end."""
        for job in self._jobs():
            if job.unbounded() and not job.stop.is_set():
                job.halt()

    def _halt_all(self) -> None:
        with self._cond:
            for job in self._jobs():
                job.halt()

    def _finish(self, eof: bool) -> None:
        """``quit``: stop now; every ``go`` already received still answers
        its one bestmove (halted at once, with the commands queued before it),
        and what waits after the last go is dropped. End of input (the GUI
        is gone): every search is halted and answered, the other queued
        commands still run (a piped ``perft`` prints its count)."""
        with self._cond:
            self._closing = True
            if eof:
                for job in self._jobs():
                    if job.kind == "go":
                        job.halt()
            else:
                waiting = list(self._queue)
                last_go = max(
                    (i for i, (_, job) in enumerate(waiting) if job is not None and job.kind == "go"),
                    default=-1,
                )
                self._queue = collections.deque(
                    (words, job) for words, job in waiting[: last_go + 1]
                    if job is None or job.kind == "go"
                )
                for job in self._jobs():
                    job.halt()
            self._cond.notify_all()
        worker = self._worker
        if worker is None:
            return
        deadline = None if eof else time.monotonic() + QUIT_GRACE
        while worker.is_alive():
            if deadline is not None and time.monotonic() > deadline:
                break
            worker.join(0.05)

    # -- the worker -----------------------------------------------------
    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._busy = False
                    self._cond.notify_all()
                    if self._closing:
                        return
                    self._cond.wait()
                words, job = self._queue.popleft()
                self._busy = True
                if job is None:
                    self._execute(words, " ".join(words))
                    continue
                job.position = self.position.copy() if self.position is not None else None
                job.dialect = self.dialect
                job.overhead = int(self.values[normalise_name("Move Overhead")])
                job.limits.move_overhead = job.overhead  # every deadline keeps it (timeman)
                self._current = job
                if job.unbounded() and (self._closing or self._go_waiting()):
                    # its side to move is known only now: a go behind it,
                    # or the end of the input, ends it as it would have
                    job.halt()
            try:
                run_job(job, self)
            except Exception as exc:  # a bug must not kill the engine
                self.log_traceback()
                self.error(f"internal error in {job.kind}: {type(exc).__name__}: {exc}")
                if job.kind == "go" and not job.answered:
                    self.send(f"bestmove {job.dialect.none_move}")
            finally:
                job.cancel_timers()
                with self._cond:
                    self._current = None

    # -- quick commands -------------------------------------------------
    def cmd_uci(self, words: list[str], line: str) -> None:
        self.send(f"id name {self.name}")
        self.send(f"id author {self.bot.author}")
        for option in self.options():
            self.send(option.uci())
        self.send("ugiok" if words[0] == "ugi" else "uciok")

    def cmd_debug(self, words: list[str], line: str) -> None:
        if len(words) != 2 or words[1] not in ("on", "off"):
            raise CommandError("debug takes on or off")
        self.debug = words[1] == "on"

    def cmd_ignore(self, words: list[str], line: str) -> None:
        """Accepted without effect (``register``, USI's ``gameover``)."""

    def cmd_ucinewgame(self, words: list[str], line: str) -> None:
        self.position = None
        self.bot.new_game()

    def cmd_position(self, words: list[str], line: str) -> None:
        command = parse_position(words)
        dialect = self.dialect
        hint = self._dialect_hint(command.text, command.moves)
        if command.text is None:
            position = Position(self.variant)
        else:
            try:
                position = dialect.position_from_wire(self.variant, command.text)
            except BingwaError as exc:
                raise CommandError(f"{exc}{hint}") from None
        try:
            moves = dialect.moves_from_wire(command.moves)
        except BingwaError as exc:
            raise CommandError(f"moves: {exc}{hint}") from None
        for n, text in enumerate(moves, 1):
            try:
                position.push(text)
            except BingwaError as exc:
                raise CommandError(f"move {n}: {reworded(exc, text, dialect)}{hint}") from None
        self.position = position

    def _dialect_hint(self, text: str | None, moves: tuple[str, ...]) -> str:
        """A pointer to the Aualé dialect when bingwa's reads what looks like it."""
        if self.dialect is not UCI or self.variant.name != "oware":
            return ""
        diagram = text is not None and text.count("-") == 14
        letters = any(len(w) > 1 and all(c in "abcdefABCDEF" for c in w) for w in moves)
        return " (Aualé notation? setoption name Dialect value auale)" if diagram or letters else ""

    def cmd_d(self, words: list[str], line: str) -> None:
        position = self._need_position("d")
        dialect = self.dialect
        for row in position.draw().splitlines():
            self.send(row)
        self.send(f"Variant: {position.variant.spec()}")
        self.send(f"Position: {position.text()}")
        if dialect is not UCI:
            self.send(f"Wire: {dialect.position_to_wire(position, root=False)}")
        self.send(f"Key: {position.key:016X}")
        legal = [m.text for m in position.legal_moves()]
        self.send("Legal moves: " + (" ".join(map(dialect.move_to_wire, legal)) or "(none)"))
        outcome = position.outcome()
        if outcome is not None:
            self.send(f"Result: {outcome.result()} ({outcome.termination.value}, "
                      f"scores {outcome.scores[0]}-{outcome.scores[1]})")

    def cmd_query(self, words: list[str], line: str) -> None:
        if len(words) != 2 or words[1] not in ("gameover", "p1turn", "result", "legalmoves"):
            raise CommandError("query takes gameover, p1turn, result or legalmoves")
        position = self._need_position("query")
        what = words[1]
        if what == "gameover":
            answer = "true" if position.is_over() else "false"
        elif what == "p1turn":
            answer = "true" if position.turn == 0 else "false"
        elif what == "result":
            outcome = position.outcome()
            answer = "none" if outcome is None else {0: "p1win", 1: "p2win", None: "draw"}[
                outcome.winner]
        else:
            legal = [self.dialect.move_to_wire(m.text) for m in position.legal_moves()]
            answer = " ".join(legal) or "(none)"
        self.send(f"response {answer}")

    def _need_position(self, command: str) -> Position:
        if self.position is None:
            raise CommandError(f"{command} before any position (send position startpos|fen ...)")
        return self.position

    # -- options ----------------------------------------------------------
    def options(self) -> list[BotOption]:
        """Every option, as the handshake lists them."""
        return self.settings.listed()

    def cmd_setoption(self, words: list[str], line: str) -> None:
        request = parse_setoption(line)
        outcome = self.settings.set(request.name, request.value)
        if outcome.note:
            self.info_string(outcome.note)
        if outcome.new_game:
            self.position = None
            self.bot.new_game()

    @property
    def variant(self) -> Variant:
        return self.settings.variant

    @property
    def dialect(self) -> Dialect:
        return self.settings.dialect

    @property
    def values(self) -> dict[str, Any]:
        """The standard options' values, by normalised name."""
        return self.settings.values

    COMMANDS: dict[str, Callable[[EngineServer, list[str], str], None]] = {
        "uci": cmd_uci,
        "ugi": cmd_uci,
        "debug": cmd_debug,
        "register": cmd_ignore,
        "gameover": cmd_ignore,
        "ucinewgame": cmd_ucinewgame,
        "position": cmd_position,
        "setoption": cmd_setoption,
        "d": cmd_d,
        "query": cmd_query,
    }
