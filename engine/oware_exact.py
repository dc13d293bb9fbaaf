"""Every board of the small seed counts exact, repetitions included: the
history-aware solver (engine/oware_exhaustive.py) run inside a database
build, and the player that plays its values with the game's own history
(docs/databases.md, "Every line searched").

A proving build (``tablebase.build``) marks exact only the boards whose
proven bounds meet; where a cycle decides the game they stay apart. For
the counts up to ``exact_seeds`` (``bingwa solve build --exact-seeds``,
default 7) the build then solves every board of the count with the
exhaustive solver, the game started there with no history and every line
searched, the path since the last capture remembered, and writes that
value as exact: the value byte unmarked, the proven bounds both that
value, a rank kept only where its bound did not move (``RANK_NONE``
elsewhere: the perfect bot plays those boards by ``oware_exact_player.ExactPlayer``, not by
the ranks). The next counts are then built over exact values, so a capture
into a small count no longer leaves a bound open.

Two independent methods meet on the boards both decide: the sweeps'
proven entries and the solver's values. Where a proven bound and the
solver disagree the build stops (``TablebaseError``): one of them is
wrong, and nothing is written. ``bingwa solve verify`` solves the
counts again (``resolve``) and compares every entry.

The solver is pure Python: 0..7 seeds take about 10 s, 8 seeds about 12
minutes on two processes (``jobs``), its moves ordered by a sweeps-only
build's values (tablebase.sweep_guesses: the exact values order it far
worse); 9 and more are out of reach here.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from typing import Any

from .errors import BingwaError
from .kernel import compiled_module
from .oware_exhaustive import ExhaustiveSolver

#: from this count on, with ``jobs`` > 1, a count is solved by worker processes
POOL_FROM = 8
#: boards per work item of a worker
CHUNK = 500

BIAS = 64  # a database byte holds value + BIAS (engine/_owaredb.pxd)
RANK_NONE = 0xFFFF  # no rank: the bot does not play that bound from the ranks


class ExactMismatch(BingwaError, ValueError):
    """The search and a proven bound disagree (tablebase.build says it as
    a TablebaseError)."""


def _db() -> Any:
    return compiled_module("owaredb")  # tablebase checked it is built


def turned(board: tuple[int, ...]) -> tuple[int, ...]:
    return board[6:] + board[:6]


def solver_over(value_of: Callable[[tuple[int, ...]], int], seeds: int, rule: int,
                guess: Callable[[Any], int] | None = None,
                known: bool = False) -> ExhaustiveSolver:
    """An exhaustive solver that knows the values of every board of fewer
    than ``seeds`` seeds, both sides to move, from ``value_of(board)``
    (South to move; exact there: counts solved before), with the count
    ``seeds`` opened;
    ``known``: of that count too (the values with no history, which a
    move into another component of the capture-free moves needs)."""
    db = _db()
    solver = ExhaustiveSolver(rule, guess=guess)
    for n in range(seeds + 1 if known else seeds):
        for i in range(int(db.positions(n))):
            board = tuple(db.unrank(i, n))
            value = value_of(board)
            solver.values[(board, (0, 0), 0)] = int(value)
            solver.values[(turned(board), (0, 0), 1)] = int(value)
    solver.open_level(seeds)
    return solver


def guess_from(data: Any) -> Callable[[Any], int]:
    """The solver's guess from a count's value bytes (the sweeps' values:
    a wrong guess costs time, never a wrong value)."""
    db = _db()

    def guess(state: Any) -> int:
        board = tuple(state[0]) if state[2] == 0 else turned(tuple(state[0]))
        return (data[int(db.rank(board))] & 0x7F) - BIAS

    return guess


def level_values(levels: list[Any]) -> Callable[[tuple[int, ...]], int]:
    """``value_of(board)`` from the value bytes of the counts 0, 1, ..."""
    db = _db()

    def value_of(board: tuple[int, ...]) -> int:
        return (levels[sum(board)][int(db.rank(board))] & 0x7F) - BIAS

    return value_of


def solve_count(levels: list[Any], seeds: int, rule: int, guess_data: Any,
                jobs: int = 1, searched: Callable[[int], None] | None = None) -> list[int]:
    """The value of every board of ``seeds`` seeds, South to move, in rank
    order, the smaller counts' exact values in ``levels`` (value bytes of
    0..seeds-1). From POOL_FROM seeds on, with ``jobs`` > 1, in ``jobs``
    processes; Ctrl-C ends them and raises KeyboardInterrupt.
    ``searched(boards)``: how many boards are solved so far, after every
    CHUNK of them (and once all are)."""
    db = _db()
    count = int(db.positions(seeds))
    if jobs < 2 or seeds < POOL_FROM:
        solver = solver_over(level_values(levels), seeds, rule, guess_from(guess_data))
        values = []
        for i in range(count):
            values.append(solver.top((tuple(db.unrank(i, seeds)), (0, 0), 0)))
            if searched is not None and (i + 1) % CHUNK == 0 and i + 1 < count:
                searched(i + 1)
        if searched is not None:
            searched(count)
        return values
    pool = multiprocessing.get_context("spawn").Pool(
        jobs, initializer=_start,
        initargs=([bytes(level) for level in levels[:seeds]], seeds, rule, bytes(guess_data)))
    values = [0] * count
    done = 0
    try:
        parts = [(start, min(count, start + CHUNK)) for start in range(0, count, CHUNK)]
        for start, found in pool.imap_unordered(_solve_range, parts):
            values[start:start + len(found)] = found
            done += len(found)
            if searched is not None:
                searched(done)
    except KeyboardInterrupt:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
    return values


_WORKER: dict[str, Any] = {}


def _start(levels: list[bytes], seeds: int, rule: int, guess_data: bytes) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process ends the pool
    _WORKER["solver"] = solver_over(level_values(levels), seeds, rule, guess_from(guess_data))
    _WORKER["seeds"] = seeds


def _solve_range(part: tuple[int, int]) -> tuple[int, list[int]]:
    db = _db()
    solver, seeds = _WORKER["solver"], _WORKER["seeds"]
    start, stop = part
    return start, [solver.top((tuple(db.unrank(i, seeds)), (0, 0), 0))
                   for i in range(start, stop)]


def apply(seeds: int, values: list[int], data: bytearray, bounds: bytearray,
          ranks: bytearray) -> int:
    """Write the solver's ``values`` into a count's value bytes, proven
    bounds and ranks (as ``build_level`` made them); returns how many
    entries became exact. ExactMismatch where a proven bound excludes the
    solver's value (one of the two methods is wrong: nothing is written)."""
    db = _db()
    rank_of = memoryview(ranks).cast("H")
    changes = []
    for i, value in enumerate(values):
        lo, hi = bounds[2 * i] - BIAS, bounds[2 * i + 1] - BIAS
        if not lo <= value <= hi:
            board = ",".join(map(str, db.unrank(i, seeds)))
            raise ExactMismatch(
                f"{seeds} seeds, board {board}: the history-aware search finds {value:+d}, "
                f"outside the proven bounds [{lo:+d}, {hi:+d}]; one of them is wrong "
                "(please report it)")
        if lo < hi:
            changes.append((i, value, lo, hi))
    for i, value, lo, hi in changes:
        data[i] = db.byte_of(value)
        bounds[2 * i] = bounds[2 * i + 1] = value + BIAS
        if lo != value:  # a rank stays only with the bound it ranks
            rank_of[2 * i] = RANK_NONE
        if hi != value:
            rank_of[2 * i + 1] = RANK_NONE
    rank_of.release()
    return len(changes)


__all__ = ["RANK_NONE", "ExactMismatch", "apply", "solve_count", "solver_over"]
