"""``Kalah Endgames`` builds the solver's databases on the engine's clock
(engine/solvers.py KalahSolver.extend, engine/searcher.py
_build_endgames): in order, for its share of a move once the root is
within reach of them, a level cut short going on at the next move; every
level at once with no clock, so that a fixed-node search stays
deterministic."""

from __future__ import annotations

import random
import signal
import threading
import time

import pytest

from bingwa.engine import Position
from bingwa.engine.limits import Limits

pytest.importorskip("bingwa.engine._kalahsolve")
pytest.importorskip("bingwa.engine.search")


def kalah_root(seeds_in_pits: int, seed: int = 4) -> Position:
    """A Kalah(6,4) position of a random game with at most so many seeds
    in the pits, the game not over."""
    rng = random.Random(seed)
    while True:
        pos = Position("kalah")
        while not pos.is_over() and sum(pos.state[0]) > seeds_in_pits:
            pos.push(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            return pos


def _same_values(lazy: object, whole: object, seeds: int, rng: random.Random,
                 count: int = 300) -> None:
    for _ in range(count):
        pits = [0] * 12
        for _ in range(rng.randrange(seeds + 1)):
            pits[rng.randrange(12)] += 1
        assert lazy.solver.db_lookup(pits) == whole.solver.db_lookup(pits)  # type: ignore[attr-defined]


def test_extend_builds_in_order_until_the_deadline_and_goes_on_where_it_stopped():
    from bingwa.engine.solvers import KalahSolver

    variant = Position("kalah").variant
    lazy = KalahSolver(variant, 10, table_mb=1, build=False)
    assert lazy.built_seeds == -1
    with pytest.raises(ValueError):
        lazy.solver.db_lookup([0] * 11 + [1])  # nothing built: nothing to read
    # a deadline already past: the levels of fewer than 16,384 positions
    # (0..6 seeds), then 16,384 positions of the next, kept for later
    assert lazy.extend(time.monotonic() - 1) == 6
    assert lazy.solver.level_done == 16_384
    assert lazy.extend(stop=lambda: True) == 6  # stopped: nothing more
    assert lazy.solver.level_done == 16_384
    # short deadlines, again and again: each call goes on where the last
    # stopped, until every level is built
    calls, done = 0, lazy.solver.level_done
    while lazy.built_seeds < 10:
        before = (lazy.built_seeds, lazy.solver.level_done)
        lazy.extend(time.monotonic() + 0.002)
        assert (lazy.built_seeds, lazy.solver.level_done) > before  # progress, never lost
        calls += 1
    assert calls > 3 and lazy.solver.level_done == 0
    assert done < lazy.solver.level_size(7)
    assert lazy.extend() == 10  # nothing left
    _same_values(lazy, KalahSolver(variant, 10, table_mb=1), 10, random.Random(1))


def test_a_stop_ends_a_level_within_milliseconds_and_keeps_its_positions():
    from bingwa.engine.solvers import KalahSolver

    variant = Position("kalah").variant
    lazy = KalahSolver(variant, 14, table_mb=1, build=False)
    assert lazy.extend(stop=lambda: lazy.built_seeds >= 13) == 13
    # 14 seeds: 4.5 M positions, most of a second; stopped 20 ms into it
    halt = _set_after(0.02)
    began = time.monotonic()
    assert lazy.extend(stop=halt.is_set) == 13
    assert time.monotonic() - began < 0.5
    assert 0 < lazy.solver.level_done < lazy.solver.level_size(14)
    assert lazy.extend() == 14
    _same_values(lazy, KalahSolver(variant, 14, table_mb=1), 14, random.Random(3), 200)


def test_ctrl_c_during_a_level_stops_the_build_and_keeps_the_levels_before_it():
    from bingwa.engine.solvers import KalahSolver

    variant = Position("kalah").variant
    lazy = KalahSolver(variant, 14, table_mb=1, build=False)
    assert lazy.extend(stop=lambda: lazy.built_seeds >= 13) == 13
    # 14 seeds: 4.4 M positions, most of a second; Ctrl-C 50 ms into it
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt):
            lazy.extend()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert lazy.built_seeds == 13  # the level stopped is not probed half built
    assert 0 < lazy.solver.level_done < lazy.solver.level_size(14)  # but what it has stays
    assert lazy.extend() == 14  # and building again finishes it
    _same_values(lazy, KalahSolver(variant, 14, table_mb=1), 14, random.Random(2), 200)


def test_the_engine_builds_nothing_far_from_the_databases_and_all_with_no_clock():
    from bingwa.engine.searcher import BUILD_REACH, Searcher
    from bingwa.engine.solvers import endgame_solver

    variant = Position("kalah").variant
    solver = endgame_solver(variant, 1)  # 0..10 seeds
    assert solver.db_seeds == 10 and solver.built_seeds == -1
    searcher = Searcher(1)
    searcher.set_kalah_endgames(solver)
    far = kalah_root(48)  # the start: 48 seeds in the pits
    assert sum(far.state[0]) > 10 + BUILD_REACH
    searcher.search(far, Limits(nodes=5_000))
    assert solver.built_seeds == -1
    near = kalah_root(10 + BUILD_REACH)
    searcher.search(near, Limits(nodes=5_000))
    assert solver.built_seeds == 10  # a node limit: every level, before the search
    nodes = searcher.nodes
    # analysis stopped before its build: no level built, the answer at once
    stopped = endgame_solver(variant, 1)
    searcher.set_kalah_endgames(stopped)
    halt = threading.Event()
    halt.set()
    assert searcher.search(near, Limits(infinite=True), stop_event=halt).best is not None
    assert stopped.built_seeds == -1
    # the same search again (the databases now built either way): same count
    again = endgame_solver(variant, 1)
    other = Searcher(1)
    other.set_kalah_endgames(again)
    other.search(near, Limits(nodes=5_000))
    assert other.nodes == nodes and again.built_seeds == 10


def test_on_a_clock_the_engine_builds_for_its_share_of_the_move_and_goes_on_next_move():
    from bingwa.engine.searcher import BUILD_SHARE, Searcher
    from bingwa.engine.solvers import endgame_solver
    from bingwa.engine.timeman import allocate, ponderhit_ms

    variant = Position("kalah").variant
    solver = endgame_solver(variant, 16)  # 0..14 seeds: about 2 s to build
    assert solver.db_seeds == 14
    searcher = Searcher(1)
    searcher.set_kalah_endgames(solver)
    near = kalah_root(20)
    progress = []
    for _ in range(3):
        result = searcher.search(near, Limits(movetime=100))
        assert result.best in [m.text for m in near.legal_moves()]
        progress.append((solver.built_seeds, solver.solver.level_done))
    # each move builds some (levels 11 and up take longer than a move's
    # share; they were never begun before), none builds it all
    assert progress == sorted(set(progress)) and progress[-1][0] < 14
    assert solver.db_seconds < 3 * (100 * BUILD_SHARE + 50) / 1000
    # the deadline each search gives the build: its share of the move
    asked: list[float | None] = []
    solver.extend = (lambda deadline=None, stop=None, upto=None:
                     asked.append(deadline) or solver.built_seeds)
    moves_left = variant.moves_left(near.state)
    for limits in (Limits(movetime=400), Limits(p1time=9_000, p2time=9_000, p1inc=100, p2inc=100),
                   Limits(ponder=True, p1time=9_000, p2time=9_000)):
        soft = (ponderhit_ms(limits, near.turn, moves_left) if limits.ponder
                else allocate(limits, near.turn, moves_left).soft_ms)
        assert soft is not None
        before = time.monotonic()
        searcher.search(near, limits, stop_event=_set_after(0.05) if limits.ponder else None)
        deadline = asked.pop()
        assert deadline is not None
        assert before <= deadline - soft * BUILD_SHARE / 1000 <= time.monotonic()
    for limits in (Limits(nodes=2_000), Limits(depth=2)):
        searcher.search(near, limits)
        assert asked.pop() is None  # no clock: every level


def test_on_a_game_clock_the_engine_builds_only_what_fits_its_share_of_the_clock():
    from bingwa.engine.searcher import BUILD_CLOCK_SHARE, Searcher
    from bingwa.engine.solvers import endgame_solver

    variant = Position("kalah").variant
    solver = endgame_solver(variant, 16)  # 0..14 seeds: about 2 s to build
    searcher = Searcher(1)
    searcher.set_kalah_endgames(solver)
    near = kalah_root(20)
    share_s = 400 * BUILD_CLOCK_SHARE / 1000  # 0.4 s on the clock: 0.1 s to build
    for _ in range(20):
        searcher.search(near, Limits(p1time=400, p2time=400))
    assert 0 <= solver.built_seeds < 14 and solver.db_seconds < 4 * share_s
    # what it built fits the share; the next level would not have
    assert solver.build_seconds_left(solver.built_seeds + 1) > share_s
    assert solver.build_seconds_left(solver.built_seeds) == 0
    assert solver.seeds_within(share_s) == solver.built_seeds
    # nothing is foreseen once every level is built
    assert solver.build_seconds_left(14) > 0
    solver.extend()
    assert solver.build_seconds_left(14) == 0


def _set_after(seconds: float) -> threading.Event:
    event = threading.Event()
    threading.Timer(seconds, event.set).start()
    return event
