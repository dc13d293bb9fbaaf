"""Every board of the small seed counts exact, repetitions included: the
history-aware solver (engine/oware_exhaustive.py) run inside a database
build, and the player that plays its values with the game's own history
(docs/databases.md, "Every line searched").

A proving build (``tablebase.build``) marks exact only the boards whose
proven bounds meet; where a cycle decides the game they stay apart. For
the counts up to ``exact_seeds`` (``bingwa solve build --exact-seeds``,
default 8) the build then solves every board of the count with the
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

The search is compiled where it is built (engine/_owareexact.pyx, over
the move graph ``exact_graph`` makes with the pure-Python rules: the
same search, node for node, as the tests check; in play the same graph
from the databases' compiled rules, ``played_graph``), on ``jobs`` threads;
else the pure-Python solver runs, in ``jobs`` processes from 8 seeds on.
Its moves are ordered by a sweeps-only build's values
(tablebase.sweep_guesses: the exact values order it far worse). 8 seeds
take about 2 minutes with two threads compiled (12 in pure Python); 9
are out of reach: single boards of 9 need more than 35 M nodes, and the
compiled search does about 0.6 M a second (docs/databases.md).
"""

from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
from array import array
from collections.abc import Callable
from typing import Any

from .errors import BingwaError
from .kernel import compiled_module
from .oware_exhaustive import ExhaustiveSolver, components, row_margin

#: from this count on, with ``jobs`` > 1, a count is solved by worker processes
POOL_FROM = 8
#: boards per work item of a worker
CHUNK = 500
#: the stack of a thread of the compiled search (it recurses along a path)
STACK = 512 * 1024 * 1024

BIAS = 64  # a database byte holds value + BIAS (engine/_owaredb.pxd)
RANK_NONE = 0xFFFF  # no rank: the bot does not play that bound from the ranks


class ExactMismatch(BingwaError, ValueError):
    """The search and a proven bound disagree (tablebase.build says it as
    a TablebaseError)."""


def _db() -> Any:
    return compiled_module("owaredb")  # tablebase checked it is built


def compiled_search() -> Any:
    """The compiled search (solve_count uses it only where it is built)."""
    return compiled_module("owareexact")


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


def exact_graph(value_of: Callable[[tuple[int, ...]], int], seeds: int, rule: int,
                guess: Callable[[Any], int]) -> Any:
    """The move graph of ``seeds`` seeds for the compiled search
    (engine/_owareexact.pyx): every position, both sides to move, numbered
    ``2 * rank + side``, its moves by the pure-Python rules (the
    ExhaustiveSolver's), the components of the capture-free moves, the
    captures' exact values from ``value_of`` (South to move, the smaller
    counts) and ``guess`` of every position."""
    return compiled_search().Graph(seeds, *graph_arrays(value_of, seeds, rule, guess))


def graph_arrays(value_of: Callable[[tuple[int, ...]], int], seeds: int, rule: int,
                 guess: Callable[[Any], int]) -> tuple[Any, ...]:
    """exact_graph's arrays (start, kind, child, value, terminal, mirror,
    guess: those of ``Graph``)."""
    db = _db()
    module = compiled_search()
    count = int(db.positions(seeds))
    boards = [tuple(db.unrank(i, seeds)) for i in range(count)]
    states = [(board, (0, 0), side) for board in boards for side in (0, 1)]
    rank = {board: i for i, board in enumerate(boards)}
    rules = ExhaustiveSolver(rule)  # its children(): the pure-Python rules, cached
    comp = components(states, lambda s: [c for c, _ in rules.children(s) if c[1] == (0, 0)])
    start, kind, child, value = array("i", [0]), array("B"), array("i"), array("b")
    terminal, mirror, guesses = array("b"), array("i"), array("b")
    for state in states:
        mover = state[2]
        moves = rules.children(state)
        terminal.append(row_margin(state, mover) if not moves else 0)
        board = state[0]
        mirror.append(2 * rank[turned(board)] if mover else 2 * rank[board])
        guesses.append(max(-seeds, min(seeds, int(guess(state)))))
        for after, gain in moves:
            if after[1] != (0, 0):  # a capture: the smaller count, exact
                pits = after[0] if after[2] == 0 else turned(after[0])
                kind.append(module.MOVE_CAPTURE)
                child.append(-1)
                value.append(gain - int(value_of(pits)))
                continue
            child.append(2 * rank[after[0]] + after[2])
            if comp[after] == comp[state]:
                kind.append(module.MOVE_SAME)
                value.append(row_margin(after, mover))
            else:
                kind.append(module.MOVE_OTHER)
                value.append(0)
        start.append(len(kind))
    return start, kind, child, value, terminal, mirror, guesses


def solve_compiled(graph: Any, first: int, last: int, jobs: int = 1,
                   searched: Callable[[int], None] | None = None) -> list[int]:
    """The values with no history of the boards of ranks ``first`` ..
    ``last - 1`` (South to move) by the compiled search over ``graph``
    (exact_graph), on ``jobs`` threads, each with its own table, handed
    CHUNK boards at a time; ``searched(boards)`` as they come in. Ctrl-C
    ends them (KeyboardInterrupt)."""
    module = compiled_search()
    solvers = [module.Solver(graph) for _ in range(max(1, jobs))]
    values: list[int] = [0] * (last - first)
    parts = [(a, min(last, a + CHUNK)) for a in range(first, last, CHUNK)]
    failed: list[BaseException] = []
    finished: queue.Queue[int] = queue.Queue()  # boards of each chunk done
    lock = threading.Lock()

    def work(solver: Any) -> None:
        while True:
            with lock:
                if not parts or failed:
                    return
                a, b = parts.pop(0)
            try:
                values[a - first:b - first] = solver.solve(a, b)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                with lock:
                    failed.append(exc)
                return
            finished.put(b - a)

    previous = threading.stack_size(STACK)  # the search recurses along a path
    try:
        threads = [threading.Thread(target=work, args=(solver,), daemon=True)
                   for solver in solvers]
        for thread in threads:
            thread.start()
    finally:
        threading.stack_size(previous)
    done = 0
    try:
        while any(thread.is_alive() for thread in threads) or not finished.empty():
            try:
                done += finished.get(timeout=0.2)
            except queue.Empty:
                continue
            if searched is not None:
                searched(done)  # a call per chunk, in the waiting thread
    except KeyboardInterrupt:
        for solver in solvers:
            solver.stop()
        for thread in threads:
            thread.join()
        raise
    if failed:
        raise failed[0]
    return values


def on_deep_stack(call: Callable[[], Any], stop: Callable[[], None]) -> Any:
    """``call()`` run on a thread with a ``STACK``-sized stack (the compiled
    search recurses along the path, deeper than the 8 MB of a usual
    thread allow), the caller waiting for it: Ctrl-C in the caller calls
    ``stop()`` (the search ends at once), waits for the thread and raises
    KeyboardInterrupt. What ``call`` raises is raised here."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            out["error"] = exc

    previous = threading.stack_size(STACK)
    try:
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
    finally:
        threading.stack_size(previous)
    try:
        while thread.is_alive():
            thread.join(0.2)
    except KeyboardInterrupt:
        stop()
        thread.join()
        raise
    if "error" in out:
        raise out["error"]
    return out["value"]


def played_graph(tablebase: Any, seeds: int, guess_data: Any) -> tuple[Any, Any]:
    """The move graph of ``seeds`` seeds as exact_graph makes it, and the
    values of the count's boards (South to move) for ``Solver.know``, both
    from the databases ``tablebase`` (an open _owaredb.Tablebase), made
    with the compiled rules of the databases (``_owaredb.move_graph``) for
    play, where it is paid on the clock: 8 seeds in a fraction of a second,
    where exact_graph takes seconds (the tests check that both give the
    same graph). ``guess_data``: the guesses' value bytes (tablebase.plain_guess_data)."""
    module = compiled_search()
    arrays = _db().move_graph(seeds, tablebase.grandslam, tablebase, guess_data,
                              module.MOVE_SAME, module.MOVE_CAPTURE, module.MOVE_OTHER)
    return module.Graph(seeds, *arrays[:7]), arrays[7]


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
    if compiled_search() is not None:
        graph = exact_graph(level_values(levels), seeds, rule, guess_from(guess_data))
        return solve_compiled(graph, 0, count, jobs, searched)
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


__all__ = ["RANK_NONE", "ExactMismatch", "apply", "compiled_search", "exact_graph", "solve_count",
           "solve_compiled", "solver_over"]
