"""Limits, time management, stopping, the bots on the search, and the
``bench`` and ``analyse`` commands."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bingwa.bots import find_bot
from bingwa.cli import main
from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits
from bingwa.engine.searcher import Searcher
from bingwa.engine.timeman import (
    CLOCK_RESERVE_MS,
    DEFAULT_MOVE_OVERHEAD_MS,
    MIN_MOVES_TO_GO,
    MOVE_LAG_MS,
    MOVES_TO_GO,
    TimeManager,
    allocate,
    ponderhit_ms,
    watchdog_ms,
)

pytest.importorskip("bingwa.engine.search")


# -- time management ---------------------------------------------------------------
@pytest.mark.parametrize("clock", [0, -500, 5, 20])
def test_zero_or_negative_clock_is_clamped_to_a_short_think(clock):
    budget = allocate(Limits(p1time=clock, p2time=60000, p1inc=-10), side=0)
    assert 0 < budget.soft_ms <= budget.hard_ms <= 1


def test_budget_keeps_the_move_overhead_in_reserve():
    for clock in (100, 1000, 10_000, 300_000):
        for inc in (0, 10, 1000):
            budget = allocate(Limits(p1time=clock, p1inc=inc), side=0)
            assert budget.hard_ms <= max(1, clock - CLOCK_RESERVE_MS)
            assert budget.soft_ms <= budget.hard_ms


@pytest.mark.parametrize("movetime, overhead, think", [
    (200, None, 190), (300, None, 290), (1000, None, 990), (1000, 0, 1000), (1000, 100, 900),
    (20, 10, 10), (5, 10, 1), (0, 0, 1)])
def test_a_fixed_move_time_is_spent_whole_but_the_move_overhead(movetime, overhead, think):
    """``go movetime N`` thinks N - Move Overhead (default 10 ms), soft and
    hard alike: iterations go on until the hard deadline ends one; at
    least MIN_THINK_MS."""
    budget = allocate(Limits(movetime=movetime, move_overhead=overhead), 0)
    assert budget.hard_ms == budget.soft_ms == pytest.approx(think)
    if overhead is None:
        assert movetime - think in (DEFAULT_MOVE_OVERHEAD_MS, movetime - 1)


def test_a_fixed_move_time_never_runs_past_the_clock_given_with_it():
    assert allocate(Limits(movetime=300, p1time=200, p2time=5000), 0).hard_ms == 190
    assert allocate(Limits(movetime=300, p1time=200, p2time=5000), 1).hard_ms == 290


def test_a_larger_move_overhead_makes_a_clock_safer_the_default_leaves_it_as_it_was():
    clock = Limits(p1time=5000, p1inc=50)
    default = allocate(clock, 0)
    assert allocate(Limits(p1time=5000, p1inc=50, move_overhead=0), 0) == default
    assert allocate(Limits(p1time=5000, p1inc=50, move_overhead=DEFAULT_MOVE_OVERHEAD_MS), 0) \
        == default
    slow = allocate(Limits(p1time=5000, p1inc=50, move_overhead=200), 0)
    assert slow.soft_ms < default.soft_ms and slow.hard_ms < default.hard_ms
    # the overhead, when larger, replaces the per-move lag and the clock's reserve
    assert slow.hard_ms <= (5000 - 200) * 0.5 + 0.75 * 50 - 200


def test_the_watchdog_and_ponderhit_budgets():
    limits = Limits(p1time=1000, p2time=50, p1inc=100, move_overhead=10)
    assert watchdog_ms(limits, 0) == 990
    assert watchdog_ms(Limits(p1time=1000, p2time=50, move_overhead=100), 1) == 0
    assert watchdog_ms(Limits(movetime=300, p1time=200, move_overhead=0), 0) == 200
    assert watchdog_ms(Limits(movetime=300), 0) == 300 - DEFAULT_MOVE_OVERHEAD_MS
    assert watchdog_ms(Limits(infinite=True, movetime=5), 0) is None
    assert watchdog_ms(Limits(depth=5), 0) is None
    # after ponderhit: the soft budget the same limits give a normal go
    pondering = Limits(p1time=1000, p2time=50, p1inc=100, move_overhead=10, ponder=True)
    assert ponderhit_ms(pondering, 0) == allocate(limits, 0).soft_ms
    assert ponderhit_ms(Limits(movetime=80, ponder=True, move_overhead=10), 0) == 70
    assert ponderhit_ms(Limits(ponder=True), 0) is None


def test_every_move_on_a_clock_budgets_the_lag_of_a_loaded_machine():
    """Each move is charged its search and MOVE_LAG_MS more: spending the
    soft budget every move (or the hard one), a 5 s + 50 ms game of 150
    moves keeps its clock above the reserve."""
    for spend in ("soft_ms", "hard_ms"):
        clock = 5000.0
        for _ in range(150):
            budget = allocate(Limits(p1time=int(clock), p1inc=50), side=0)
            assert getattr(budget, spend) + MOVE_LAG_MS <= max(1, clock - CLOCK_RESERVE_MS) + 1
            clock += 50 - getattr(budget, spend) - MOVE_LAG_MS
            assert clock > CLOCK_RESERVE_MS / 2, spend


def test_clock_of_the_side_to_move_is_used():
    budget = allocate(Limits(p1time=100, p2time=100_000), side=1)
    assert budget.soft_ms > 1000 / 24


def test_movetime_infinite_and_depth_budgets():
    assert allocate(Limits(movetime=500), 0).hard_ms == 500 - DEFAULT_MOVE_OVERHEAD_MS
    assert allocate(Limits(infinite=True, p1time=10), 0).hard_ms is None
    assert allocate(Limits(depth=5), 0).soft_ms is None


def test_moves_to_go_spreads_the_clock():
    few = allocate(Limits(p1time=10_000, movestogo=2), 0)
    many = allocate(Limits(p1time=10_000, movestogo=40), 0)
    assert few.soft_ms > many.soft_ms


def test_a_variants_guess_of_the_moves_left_spreads_the_clock():
    clock = Limits(p1time=10_000, p1inc=50)
    assert allocate(clock, 0, moves_left=10).soft_ms > allocate(clock, 0).soft_ms
    assert allocate(clock, 0, moves_left=MOVES_TO_GO) == allocate(clock, 0)
    assert allocate(clock, 0, moves_left=0) == allocate(clock, 0, moves_left=MIN_MOVES_TO_GO)
    # the clock's own movestogo wins over the guess
    told = Limits(p1time=10_000, p1inc=50, movestogo=40)
    assert allocate(told, 0, moves_left=5) == allocate(told, 0)
    # a guess that stays short while the game goes on never empties the clock
    for spend in ("soft_ms", "hard_ms"):
        left = 5000.0
        for _ in range(150):
            budget = allocate(Limits(p1time=int(left), p1inc=50), 0, moves_left=MIN_MOVES_TO_GO)
            left += 50 - getattr(budget, spend) - MOVE_LAG_MS
            assert left > CLOCK_RESERVE_MS / 2, spend


@pytest.mark.parametrize("variant, start", [("kalah", 15), ("ayoayo", 15), ("oware", None),
                                            ("bao", None), ("kujifunza", None)])
def test_kalah_and_ayoayo_guess_fewer_moves_left_as_the_seeds_leave(variant, start):
    import random

    rng = random.Random(3)
    pos = Position(variant)
    guesses = [pos.variant.moves_left(pos.state)]
    while not pos.is_over():
        pos.push(rng.choice(pos.legal_moves()))
        guesses.append(pos.variant.moves_left(pos.state))
    assert guesses[0] == start
    if start is None:
        assert set(guesses) == {None}
    else:
        assert guesses == sorted(guesses, reverse=True)  # seeds never come back
        assert guesses[-1] < start


def test_the_search_budgets_its_time_with_the_variants_guess(monkeypatch):
    from bingwa.engine import timeman

    seen = []
    plain = timeman.allocate

    def spy(limits, side, moves_left=None):
        seen.append(moves_left)
        return plain(limits, side, moves_left)

    monkeypatch.setattr(timeman, "allocate", spy)
    for variant in ("kalah", "oware"):
        pos = Position(variant)
        best = Searcher(4).search(pos, Limits(p1time=300, p2time=300)).best
        assert best in [m.text for m in pos.legal_moves()]
    assert seen == [15, None]


class RecordingEngine:
    """The compiled search behind a Searcher, recording its set_limits."""

    def __init__(self, engine) -> None:
        object.__setattr__(self, "_engine", engine)
        object.__setattr__(self, "calls", [])

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def __setattr__(self, name, value):
        setattr(self._engine, name, value)

    def set_limits(self, nodes=None, deadline=None, poll=None):
        self.calls.append((nodes, deadline))
        self._engine.set_limits(nodes, deadline, poll)


@pytest.mark.parametrize("movetime, overhead", [(200, None), (300, 0), (1000, 40)])
def test_the_search_is_told_the_hard_deadline_of_its_move_time(movetime, overhead):
    """The compiled search's deadline is the go's start plus movetime less
    the move overhead (it abandons the iteration in progress there)."""
    searcher = Searcher(1)
    searcher.engine = RecordingEngine(searcher.engine)
    limits = Limits(movetime=movetime, move_overhead=overhead, depth=2)
    think = (movetime - (DEFAULT_MOVE_OVERHEAD_MS if overhead is None else overhead)) / 1000
    before = time.monotonic()
    result = searcher.search(Position("oware"), limits)
    after = time.monotonic()
    [(nodes, deadline)] = searcher.engine.calls
    assert nodes is None and before + think <= deadline <= after + think
    assert result.best in list("abcdef")
    # no deadline without a time limit
    searcher.search(Position("oware"), Limits(depth=2))
    assert searcher.engine.calls[-1] == (None, None)


def test_a_fixed_move_time_starts_iterations_until_the_hard_deadline():
    """Never stopped between iterations by the soft budget: however long
    it has run, only the hard deadline (inside the search) ends it."""
    fixed = TimeManager(Limits(movetime=100), 0, start=time.monotonic() - 3600)
    assert fixed.should_stop() is False
    clock = TimeManager(Limits(p1time=1000), 0, start=time.monotonic() - 3600)
    assert clock.should_stop() is True


def test_unclear_positions_get_more_time():
    calm = TimeManager(Limits(p1time=10_000), 0)
    for _ in range(6):
        calm.note_iteration("a", 100)
    shaky = TimeManager(Limits(p1time=10_000), 0)
    for move, score in [("a", 100), ("b", 20), ("c", -150), ("a", -300)]:
        shaky.note_iteration(move, score)
    assert shaky.stretch() > calm.stretch() == 1.0


def test_one_second_plus_ten_ms_never_loses_on_time():
    """A whole game at 1 s + 10 ms a move, each side's clock charged with
    the wall time its searches really took."""
    bots = [Searcher(4), Searcher(4)]
    clocks = [1000.0, 1000.0]
    pos = Position("oware")
    while not pos.is_over() and len(pos.move_stack) < 200:
        side = pos.turn
        limits = Limits(p1time=int(clocks[0]), p2time=int(clocks[1]), p1inc=10, p2inc=10)
        start = time.monotonic()
        result = bots[side].search(pos, limits)
        clocks[side] -= (time.monotonic() - start) * 1000
        assert clocks[side] > 0, f"{'south north'.split()[side]} lost on time"
        clocks[side] += 10
        pos.push(result.best)


# -- stopping --------------------------------------------------------------------------
def test_stop_gives_a_best_move_quickly_and_the_gil_stays_free():
    searcher = Searcher(16)
    stop = threading.Event()
    out = {}

    def run():
        out["result"] = searcher.search(Position("oware"), Limits(infinite=True), None, stop)
        out["done"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    # the main thread keeps running Python while the search thinks
    ticks = 0
    until = time.monotonic() + 0.3
    while time.monotonic() < until:
        time.sleep(0.001)
        ticks += 1
    assert ticks > 30
    asked = time.monotonic()
    stop.set()
    thread.join(2)
    assert not thread.is_alive()
    assert out["done"] - asked < 0.1 + 0.15  # the 100 ms bound, with a margin for loaded CI
    assert out["result"].best in list("abcdef")


def test_stop_before_the_first_iteration_still_answers_a_legal_move():
    stop = threading.Event()
    stop.set()
    result = Searcher(1).search(Position("kalah"), Limits(movetime=1000), None, stop)
    assert result.best in list("abcdef")


def test_infinite_search_waits_for_stop_even_when_solved():
    stop = threading.Event()
    pos = Position("oware", text="1,0,0,0,0,1/2,0,0,0,0,1 23 20 s")
    threading.Timer(0.2, stop.set).start()
    start = time.monotonic()
    result = Searcher(1).search(pos, Limits(infinite=True), None, stop)
    assert time.monotonic() - start >= 0.19
    assert result.best == "f"


def test_node_limit_is_respected():
    searcher = Searcher(1)
    searcher.search(Position("oware"), Limits(nodes=5000))
    assert searcher.nodes <= 5000


def test_movetime_is_respected():
    start = time.monotonic()
    Searcher(4).search(Position("oware"), Limits(movetime=150))
    assert time.monotonic() - start < 0.15 + 0.2


def test_progress_reports_each_iteration():
    infos: list[Info] = []
    Searcher(2).search(Position("ayoayo"), Limits(depth=6), infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5, 6]
    assert all(i.pv and i.nodes and i.seldepth >= i.depth for i in infos)
    assert [i.nodes for i in infos] == sorted(i.nodes for i in infos)


# -- the bots -------------------------------------------------------------------------------
def test_alphabeta_bot_options_and_skill_levels():
    bot = find_bot("alphabeta")()
    bot.set_option("Hash", "2")
    assert bot.searcher.table_bytes <= 2 << 20
    bot.set_option("Skill Level", "0")
    infos: list[Info] = []
    result = bot.go(Position("oware"), Limits(depth=10), infos.append, threading.Event())
    assert infos[-1].depth == 1
    assert result.best in list("abcdef")
    bot.set_option("Skill Level", "20")
    bot.set_option("MultiPV", "3")
    infos.clear()
    bot.go(Position("oware"), Limits(depth=3), infos.append, threading.Event())
    assert [i.multipv for i in infos if i.depth == 3] == [1, 2, 3]


def test_minimax_bot_matches_brute_force():
    """Plain minimax values, recomputed here with the kernel's evaluation."""
    pos = Position("oware").play("d")
    kernel = Searcher(1)._kernel(pos)

    def value(p: Position, depth: int) -> int:
        if p.is_over():
            outcome = p.outcome()
            from bingwa.engine import search

            margin = outcome.margin(p.turn)
            ply = len(p.move_stack) - len(pos.move_stack)
            v = search.MATE_SCORE - ply * search.SPAN + abs(margin) if margin else 0
            return v if margin >= 0 else -v
        if depth == 0:
            return kernel.evaluate(p.state)
        best = None
        for m in p.legal_moves():
            c = p.play(m)
            v = value(c, depth - 1)
            v = v if c.turn == p.turn else -v
            best = v if best is None else max(best, v)
        return best

    expected = {}
    for m in pos.legal_moves():
        c = pos.play(m)
        expected[m.text] = -value(c, 2)
    got = dict(Searcher(1).minimax(pos, 3))
    assert got == expected
    bot = find_bot("minimax")()
    result = bot.go(pos, Limits(depth=3), lambda info: None, threading.Event())
    assert expected[result.best] == max(expected.values())


# -- the commands ----------------------------------------------------------------------------
def test_bench_prints_the_signature_lines():
    out = CliRunner().invoke(main, ["bench", "--variant", "kalah", "--depth", "5"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    nodes = [line for line in lines if line.startswith("Nodes searched: ")]
    assert len(nodes) == 1 and int(nodes[0].split(": ")[1]) > 0
    assert any(line.startswith("Nodes/second: ") for line in lines)


def test_bench_rejects_an_unknown_variant():
    out = CliRunner().invoke(main, ["bench", "--variant", "chess"])
    assert out.exit_code == 2
    assert "unknown variant 'chess'" in out.output


def test_analyse_ranks_moves_with_lines():
    out = CliRunner().invoke(
        main, ["analyse", "oware", "--position", "1,0,0,0,0,1/2,0,0,0,0,1 23 20 s",
               "--depth", "4", "--multipv", "2"]
    )
    assert out.exit_code == 0, out.output
    assert "bestmove f" in out.output
    assert "win in 1 (line ends +6)" in out.output
    ranked = out.output.split("Ranked moves")[1].splitlines()[1:]
    assert [row.split()[1] for row in ranked] == ["f", "a"]


def test_analyse_reports_bad_input_in_one_line():
    runner = CliRunner()
    out = runner.invoke(main, ["analyse", "oware", "--moves", "a z"])
    assert out.exit_code == 2 and "move 2" in out.output
    out = runner.invoke(main, ["analyse", "oware", "--depth", "3", "--time", "1"])
    assert out.exit_code == 2 and "not both" in out.output


# -- benchmarks/timeman_engine.py (the SPRTs' engine for the time manager) ----------
TIMEMAN_ENGINE = Path(__file__).resolve().parents[2] / "benchmarks" / "timeman_engine.py"


def test_timeman_engine_reads_the_constants_from_the_environment(monkeypatch):
    from bingwa.engine import timeman

    for name in timeman.TUNABLES:
        monkeypatch.delenv("TM_" + name, raising=False)
    monkeypatch.setenv("TM_NEXT_ITERATION_SHARE", "0.45")
    monkeypatch.setenv("TM_MOVES_TO_GO", "30")
    assert timeman.read_tunables() == {"NEXT_ITERATION_SHARE": 0.45, "MOVES_TO_GO": 30}
    assert set(timeman.TUNABLES) <= set(vars(timeman))  # each one is a constant there


@pytest.mark.parametrize("value", ["abc", "0", "-1"])
def test_timeman_engine_refuses_a_bad_constant_in_one_line(value):
    if not TIMEMAN_ENGINE.exists():
        pytest.skip("benchmarks/ is not here")
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("TM_")}
    env["TM_HARD_PER_SOFT"] = value
    done = subprocess.run([sys.executable, str(TIMEMAN_ENGINE)], input="uci\nquit\n", env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().startswith("timeman_engine: TM_HARD_PER_SOFT")
    assert len(done.stderr.strip().splitlines()) == 1
