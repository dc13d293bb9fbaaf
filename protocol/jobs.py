"""The heavy commands of the engine side, ``go``, ``perft`` and ``bench``:
what the worker thread of protocol/server.py runs, one after the other.

A Job is one of them as received: its words, its limits (``go``), the
events that stop it, release a held bestmove and mark a ``ponderhit``, and
its timers. The server owns the threads and the queue, gives a job its
position, dialect and move overhead as it starts it, and calls ``run_job``,
which writes through the server (Output). Every ``go`` gets exactly one
bestmove, and a legal one: when the bot fails or errs, a legal move with
an error line.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from bingwa.bots.base import Bot
from bingwa.engine import BingwaError, Position
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.perft import PerftStopped
from bingwa.engine.perft import count as perft_count
from bingwa.engine.timeman import ponderhit_ms, watchdog_ms

from .dialect import UCI, Dialect, reworded
from .wire import format_info, parse_go, parse_int

JOBS = frozenset(("go", "perft", "bench"))
MAX_NAMED_REFUSALS = 3  # refused searchmoves named one by one in the error line
MAX_SEARCHMOVES = 1024  # distinct searchmoves words read: more than any variant has moves
MAX_PERFT_DEPTH = 64
MAX_TIMER = 10**6  # seconds: longer waits are capped (Event.wait overflows)


class Output(Protocol):
    """What a job writes through (the EngineServer) and the bot it asks."""

    bot: Bot

    def send(self, line: str) -> None: ...

    def info_string(self, text: str) -> None: ...

    def error(self, text: str) -> None: ...

    def log_traceback(self) -> None: ...


def searches_without_end(limits: Limits, side: int | None) -> bool:
    """Only ``stop`` (or a new ``go``, ``quit``, the end of the input) would
    end a search with these limits: ``infinite``, or no depth, nodes or
    movetime and no clock of the side to move (``side`` None: not known
    yet, so no clock at all). ``go wtime 5`` with North to move is one."""
    if limits.infinite:
        return True
    if limits.depth or limits.nodes or limits.movetime:
        return False
    if side is None:
        return limits.p1time is None and limits.p2time is None
    return limits.clock(side)[0] is None


def perft_depth(words: list[str]) -> int | None:
    """The depth of a ``perft N`` line, or None when it is not one."""
    depth = parse_int(words[1]) if len(words) == 2 else None
    return depth if depth is not None and 0 <= depth <= MAX_PERFT_DEPTH else None


class Job:
    """One heavy command: a search, a perft or a bench run."""

    def __init__(self, words: list[str]) -> None:
        self.kind = words[0]
        self.words = words
        self.stop = threading.Event()  # the bot stops
        self.release = threading.Event()  # a held bestmove may go out
        self.ponderhit = threading.Event()
        self.limits = Limits()
        self.problems: list[str] = []
        if self.kind == "go":
            self.limits, self.problems = parse_go(words[1:])
            if self.problems:
                # a malformed go is answered at once, never held nor left
                # unbounded by what was dropped: a one-ply look
                self.limits = Limits(depth=1, searchmoves=self.limits.searchmoves)
        self.position: Position | None = None
        self.dialect: Dialect = UCI
        self.overhead = 0
        self.timers: list[threading.Timer] = []
        self.answered = False  # its bestmove went out

    @property
    def holds(self) -> bool:
        """Its bestmove waits for stop (infinite) or ponderhit (ponder)."""
        return self.kind == "go" and (
            self.limits.infinite or (self.limits.ponder and not self.ponderhit.is_set()))

    def unbounded(self) -> bool:
        """Only stop (or ponderhit) would end it (searches_without_end, for
        its side to move once it has its position)."""
        if self.kind != "go":
            return False
        if self.limits.ponder and not self.ponderhit.is_set():
            return True
        side = self.position.turn if self.position is not None else None
        return searches_without_end(self.limits, side)

    def halt(self) -> None:
        self.stop.set()
        self.release.set()

    def after(self, milliseconds: float, action: Callable[[], None]) -> None:
        timer = threading.Timer(min(milliseconds / 1000.0, MAX_TIMER), action)
        timer.daemon = True
        self.timers.append(timer)
        timer.start()

    def cancel_timers(self) -> None:
        for timer in self.timers:
            timer.cancel()

    def start_thinking(self) -> None:
        """``ponderhit``: the pondered move was played; search on as a
        normal search with the clock of the ``go ponder`` line."""
        self.limits.ponder = False
        self.release.set()
        if self.position is None:
            return
        position = self.position
        budget = ponderhit_ms(self.limits, position.turn, position.variant.moves_left(position.state))
        if budget is not None:
            self.after(budget, self.stop.set)
        elif not self.limits.infinite:
            self.stop.set()


def run_job(job: Job, out: Output) -> None:
    if job.kind == "go":
        run_search(job, out)
    elif job.kind == "perft":
        run_perft(job, out)
    else:
        run_bench(job, out)


# -- go ---------------------------------------------------------------------
def run_search(job: Job, out: Output) -> None:
    problems = list(job.problems)
    position = job.position
    dialect = job.dialect
    best: str | None = None
    ponder: str | None = None
    if position is None:
        problems.append("go before any position (send position startpos|fen ...)")
    elif not position.is_over():
        check_searchmoves(job, position, problems)
    if problems:
        out.error("; ".join(problems))
    if position is not None and not position.is_over():
        best, ponder = search(job, position, out)
    if job.holds:
        job.release.wait()
    job.answered = True
    out.send(f"bestmove {dialect.best_to_wire(best)}" + (
        f" ponder {dialect.move_to_wire(ponder)}" if ponder else ""))


def check_searchmoves(job: Job, position: Position, problems: list[str]) -> None:
    """Keep the legal searchmoves; each distinct word is read once, at
    most MAX_SEARCHMOVES of them (a few milliseconds: a bestmove after
    stop is never held up), and the first few refusals are named."""
    wanted = list(dict.fromkeys(job.limits.searchmoves))
    if not wanted:
        return
    if len(wanted) > MAX_SEARCHMOVES:
        problems.append(f"searchmoves names {len(wanted)} different words; "
                        f"the first {MAX_SEARCHMOVES} are read")
        wanted = wanted[:MAX_SEARCHMOVES]
    kept: list[str] = []
    try:
        texts = list(dict.fromkeys(job.dialect.moves_from_wire(wanted)))
    except BingwaError as exc:
        problems.append(f"searchmoves: {exc}")
        texts = []
    refused: list[str] = []
    for text in texts:
        try:
            kept.append(position.parse_move(text).text)
        except BingwaError as exc:
            refused.append(reworded(exc, text, job.dialect))
    problems += [f"searchmoves: {why}" for why in refused[:MAX_NAMED_REFUSALS]]
    if len(refused) > MAX_NAMED_REFUSALS:
        problems.append(f"and {len(refused) - MAX_NAMED_REFUSALS} more searchmoves refused")
    job.limits.searchmoves = kept


def search(job: Job, position: Position, out: Output) -> tuple[str | None, str | None]:
    limits = job.limits
    limit = watchdog_ms(limits, position.turn)
    if limit is not None:
        job.after(limit, job.stop.set)
    if limits.ponder and job.ponderhit.is_set():
        job.start_thinking()
    dialect = job.dialect

    def emit(info: Info) -> None:
        try:
            pv = dialect.pv_to_wire([str(m) for m in info.pv]) if info.pv else None
            line = format_info(info, pv=pv, score=dialect.score_to_wire(info))
        except (BingwaError, TypeError, ValueError):
            line = format_info(info, pv=[])
        if line != "info":
            out.send(line)

    result: SearchResult | None = None
    try:
        result = out.bot.go(position.copy(), limits, emit, job.stop)
    except Exception as exc:
        out.log_traceback()
        out.error(f"the {out.bot.name} bot failed: {type(exc).__name__}: {exc}")
    return checked_result(job, position, result, out)


def checked_result(
    job: Job, position: Position, result: SearchResult | None, out: Output
) -> tuple[str | None, str | None]:
    """The bot's move if it is legal, else a legal one (with an error
    line): the GUI must never receive an illegal move from us."""
    best = getattr(result, "best", None)
    move = None
    if best is not None:
        try:
            move = position.parse_move(str(best))
        except BingwaError as exc:
            out.error(f"the {out.bot.name} bot chose {best!r}: {exc}")
    if move is None:
        choices = position.legal_moves()
        wanted = set(job.limits.searchmoves)
        move = next((m for m in choices if m.text in wanted), choices[0])
        if best is None:
            out.error(f"the {out.bot.name} bot gave no move; playing {move.text}")
        return move.text, None
    ponder = getattr(result, "ponder", None)
    if ponder is not None:
        try:
            ponder = position.play(move).parse_move(str(ponder)).text
        except BingwaError:
            ponder = None
    return move.text, ponder


# -- perft and bench ----------------------------------------------------------
def run_perft(job: Job, out: Output) -> None:
    depth = perft_depth(job.words)
    assert depth is not None  # checked before the job was queued
    position = job.position
    if position is None:
        out.error("perft before any position (send position startpos|fen ...)")
        return
    kernel = position.variant.kernel
    start = time.perf_counter()
    if depth == 0 or position.is_over():
        total = 1 if depth == 0 else 0
    else:
        total = 0
        moves = position.legal_moves()
        for n, move in enumerate(moves):
            try:
                if job.stop.is_set():
                    raise PerftStopped
                count = perft_count(kernel, kernel.play(position.state, move.code),
                                    depth - 1, job.stop.is_set)
            except PerftStopped:
                out.info_string(f"perft stopped after {n} of {len(moves)} moves")
                return
            total += count
            out.send(f"{job.dialect.move_to_wire(move.text)}: {count}")
    elapsed = time.perf_counter() - start
    out.send(f"Nodes searched: {total}")
    out.info_string(f"perft {depth} in {elapsed:.3f} s")


def run_bench(job: Job, out: Output) -> None:
    """The search's bench (``bingwa bench``): the same positions, depths
    and node count."""
    from bingwa.engine.bench import bench_run

    nodes, seconds, rows = bench_run(stop=job.stop)
    if job.stop.is_set():
        out.info_string(f"bench stopped after {len(rows)} variants")
        return
    for name, count, spent in rows:
        out.info_string(f"bench {name}: {count} nodes in {spent:.3f} s")
    out.send(f"Nodes searched: {nodes}")
    out.send(f"Nodes/second: {int(nodes / seconds) if seconds else 0}")
