"""``Kalah Endgames`` builds the solver's databases on the engine's clock
(engine/solvers.py KalahSolver.extend, engine/searcher.py
_build_endgames): a level at a time, only what is foreseen to fit in its
share of a move, once the root is within reach of them; every level at
once with no clock, so that a fixed-node search stays deterministic."""

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


def test_extend_builds_in_order_what_the_deadline_allows():
    from bingwa.engine.solvers import EXTEND_FREE, KalahSolver

    variant = Position("kalah").variant
    lazy = KalahSolver(variant, 10, table_mb=1, build=False)
    assert lazy.built_seeds == -1
    with pytest.raises(ValueError):
        lazy.solver.db_lookup([0] * 11 + [1])  # nothing built: nothing to read
    # a deadline already past: only the levels too small to foresee
    free = max(s for s in range(11) if lazy.solver.level_size(s) < EXTEND_FREE)
    assert lazy.extend(time.monotonic() - 1) == free < 10
    # a level foreseen to take longer than the time left waits
    lazy.seconds_per_position = 3600.0
    assert lazy.extend(time.monotonic() + 60) == free
    assert lazy.extend(stop=lambda: True) == free  # stopped: no level more
    assert lazy.extend() == 10  # no deadline: every level
    whole = KalahSolver(variant, 10, table_mb=1)
    rng = random.Random(1)
    for _ in range(300):
        pits = [0] * 12
        for _ in range(rng.randrange(11)):
            pits[rng.randrange(12)] += 1
        assert lazy.solver.db_lookup(pits) == whole.solver.db_lookup(pits)



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
    assert lazy.built_seeds == 13  # the level stopped is not half kept
    assert lazy.extend() == 14  # and building again finishes it
    whole = KalahSolver(variant, 14, table_mb=1)
    rng = random.Random(2)
    for _ in range(200):
        pits = [0] * 12
        for _ in range(14):
            pits[rng.randrange(12)] += 1
        assert lazy.solver.db_lookup(pits) == whole.solver.db_lookup(pits)

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


def test_on_a_clock_the_engine_builds_only_what_fits_its_share_of_the_move():
    from bingwa.engine.searcher import BUILD_SHARE, Searcher
    from bingwa.engine.solvers import endgame_solver
    from bingwa.engine.timeman import allocate, ponderhit_ms

    variant = Position("kalah").variant
    solver = endgame_solver(variant, 1)
    searcher = Searcher(1)
    searcher.set_kalah_endgames(solver)
    free = solver.extend(time.monotonic() - 1)  # the levels too small to foresee
    solver.seconds_per_position = 3600.0  # every other level foreseen to take an hour
    near = kalah_root(20)
    result = searcher.search(near, Limits(movetime=100))
    assert result.best in [m.text for m in near.legal_moves()]
    assert solver.built_seeds == free < 10
    # the deadline each search gives the build: its share of the move
    asked: list[float | None] = []
    solver.extend = lambda deadline=None, stop=None: asked.append(deadline) or solver.built_seeds
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


def _set_after(seconds: float) -> threading.Event:
    event = threading.Event()
    threading.Timer(seconds, event.set).start()
    return event
