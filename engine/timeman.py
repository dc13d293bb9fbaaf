"""Time management: how long one search may think. The one owner of the
rules that turn limits into time: the search (searcher.py), the bots, the
protocol server's watchdog and its ``ponderhit``, and through them the
command line and the tournament runner, all ask this module.

From the limits of a ``go`` the manager sets two deadlines on the monotonic
clock:

- the *soft* one is checked between iterations: no new iteration starts
  once the time spent, scaled by how unclear the position looks, passes it;
- the *hard* one is checked inside the search (every 1024 nodes), which
  stops at once when it passes, abandoning the iteration in progress.

``go movetime N`` thinks N - ``Move Overhead`` ms (``Limits.move_overhead``,
the engine option; ``DEFAULT_MOVE_OVERHEAD_MS`` when not given): soft and
hard are both that, so iterations go on until the hard deadline ends one.

On a clock, an unclear position (the best move keeps changing between
iterations, or the score just dropped) stretches the soft budget (up to
``MAX_STRETCH`` times), never past the hard deadline. A clear one (a single
legal move, a proven result) ends early.

Clocks are clamped: a zero or negative clock, or an increment below zero,
never crashes and never thinks longer than ``MIN_THINK_MS``. The hard
deadline keeps ``CLOCK_RESERVE_MS`` of the clock (or the move overhead, if
larger) in reserve for the protocol and the process, so that 1 s + 10 ms a
move never loses on time.

On a loaded machine the referee sees more than the search's time: between
its ``go`` and its reading of ``bestmove`` the engine process waits for a
core (on a 2-core machine running ~16 busy processes: a median of 4 ms, 30
to 50 ms at the 90th percentile, and outliers of several hundred). Each
move on a clock therefore budgets ``MOVE_LAG_MS`` (or the move overhead, if
larger) for that. A fixed move time keeps back only the move overhead: a
GUI that sees lag raises ``Move Overhead``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

from .limits import Limits

DEFAULT_MOVE_OVERHEAD_MS = 10  # the Move Overhead option's default
CLOCK_RESERVE_MS = 50  # of a clock, kept back for the protocol, the GUI and the OS
MOVE_LAG_MS = 15  # a move's time on a clock that goes to the OS and the protocol
MIN_THINK_MS = 1  # even with no time left, answer with a searched move
MOVES_TO_GO = 24  # moves still to play when neither the clock nor the variant says
MIN_MOVES_TO_GO = 3  # the fewest a variant's guess (Variant.moves_left) counts on
INCREMENT_SHARE = 0.75  # of the increment spent on this move
MAX_CLOCK_SHARE = 0.5  # of the clock a hard deadline may take, at most
HARD_PER_SOFT = 4.0  # hard budget = soft budget x this (capped by the clock)
MAX_STRETCH = 2.5  # the soft budget grows at most this much when unclear
NEXT_ITERATION_SHARE = 0.6  # no new iteration after this share of the budget

#: the constants above an SPRT may set, each from ``TM_<NAME>`` in the
#: environment (``read_tunables``; benchmarks/timeman_engine.py)
TUNABLES = {"NEXT_ITERATION_SHARE": float, "HARD_PER_SOFT": float, "MAX_STRETCH": float,
            "MAX_CLOCK_SHARE": float, "INCREMENT_SHARE": float, "MOVES_TO_GO": int}


def read_tunables() -> dict[str, float]:
    """The constants of ``TUNABLES`` set in the environment (ValueError:
    its message), for the caller to set on this module."""
    chosen: dict[str, float] = {}
    for name, kind in TUNABLES.items():
        text = os.environ.get("TM_" + name)
        if text is None:
            continue
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"TM_{name}={text!r} is not a {kind.__name__}") from None
        if value <= 0:
            raise ValueError(f"TM_{name} must be positive, not {text}")
        chosen[name] = value
    return chosen


@dataclass
class Budget:
    """Milliseconds a search may think: None means no bound."""

    soft_ms: float | None
    hard_ms: float | None


def move_overhead_ms(limits: Limits) -> int:
    """The ms kept back from every deadline (``Limits.move_overhead``)."""
    if limits.move_overhead is None:
        return DEFAULT_MOVE_OVERHEAD_MS
    return max(0, limits.move_overhead)


def allocate(limits: Limits, side: int, moves_left: int | None = None) -> Budget:
    """The time budget of ``side`` (0 South, 1 North) under ``limits``;
    ``moves_left`` is the variant's guess of the moves still to play
    (Variant.moves_left), used when the clock gives no ``movestogo``."""
    if limits.infinite or limits.ponder:
        return Budget(None, None)
    overhead = move_overhead_ms(limits)
    clock, increment = limits.clock(side)
    if limits.movetime is not None:
        think = max(0, limits.movetime) - overhead
        if clock is not None:  # a clock given too: never past it
            think = min(think, max(0, clock) - overhead)
        spend = max(float(MIN_THINK_MS), float(think))
        return Budget(spend, spend)
    if clock is None:
        return Budget(None, None)
    clock = max(0, clock)
    increment = max(0, increment)
    if limits.movestogo and limits.movestogo > 0:
        moves_to_go = limits.movestogo
    elif moves_left is not None:
        moves_to_go = max(MIN_MOVES_TO_GO, moves_left)
    else:
        moves_to_go = MOVES_TO_GO
    usable = max(0.0, clock - max(CLOCK_RESERVE_MS, overhead))
    lag = max(MOVE_LAG_MS, overhead)
    soft = usable / moves_to_go + INCREMENT_SHARE * increment
    hard = min(soft * HARD_PER_SOFT, usable * MAX_CLOCK_SHARE + increment * INCREMENT_SHARE)
    if moves_to_go == 1:  # the clock is refilled after this move
        hard = min(usable * 0.9, max(hard, soft))
    hard = max(float(MIN_THINK_MS), min(hard, usable) - lag)
    soft = max(float(MIN_THINK_MS), min(soft - lag, hard))
    return Budget(soft, hard)


def watchdog_ms(limits: Limits, side: int) -> float | None:
    """The latest a search may end without losing on time (the protocol
    server stops a bot that runs past it): ``movetime`` or the clock of
    ``side``, less the move overhead; None when nothing bounds it."""
    if limits.infinite or limits.ponder:
        return None
    overhead = move_overhead_ms(limits)
    bounds = []
    if limits.movetime is not None:
        bounds.append(max(0, limits.movetime - overhead))
    left, _ = limits.clock(side)
    if left is not None:
        bounds.append(max(0, left - overhead))
    return float(min(bounds)) if bounds else None


def ponderhit_ms(limits: Limits, side: int, moves_left: int | None = None) -> float | None:
    """How long a ``go ponder`` searches on after ``ponderhit`` (its search
    was started without a deadline, so the server stops it): the soft
    budget of the same limits as a normal ``go``; None when they set no
    time (the search then ends at once unless it is infinite)."""
    return allocate(replace(limits, ponder=False), side, moves_left).soft_ms


class TimeManager:
    """Deadlines of one search, and the decision to start another iteration."""

    def __init__(self, limits: Limits, side: int, start: float | None = None,
                 moves_left: int | None = None) -> None:
        self.start = time.monotonic() if start is None else start
        self.budget = allocate(limits, side, moves_left)
        self.best_changes = 0.0
        self.last_best: str | None = None
        self.last_score: int | None = None
        self.score_drop = 0
        self.fixed = limits.movetime is not None

    @property
    def hard_deadline(self) -> float | None:
        """The hard deadline on the time.monotonic() clock (None: none)."""
        if self.budget.hard_ms is None:
            return None
        return self.start + self.budget.hard_ms / 1000

    def elapsed_ms(self) -> float:
        return (time.monotonic() - self.start) * 1000

    def note_iteration(self, best: str, score: int) -> None:
        """Record a completed iteration's best move and score."""
        self.best_changes *= 0.5
        if self.last_best is not None and best != self.last_best:
            self.best_changes += 1.0
        if self.last_score is not None:
            self.score_drop = max(0, self.last_score - score)
        self.last_best = best
        self.last_score = score

    def stretch(self) -> float:
        """How much longer than the soft budget this position deserves."""
        factor = 1.0 + 0.6 * self.best_changes
        if self.score_drop > 150:
            factor *= 1.6
        elif self.score_drop > 50:
            factor *= 1.25
        return min(MAX_STRETCH, factor)

    def should_stop(self) -> bool:
        """After an iteration: whether starting another is a waste of time."""
        soft = self.budget.soft_ms
        if soft is None:
            return False
        elapsed = self.elapsed_ms()
        if self.fixed:  # a fixed move time is used in full (the hard deadline ends it)
            return False
        budget = min(soft * self.stretch(), self.budget.hard_ms or soft)
        return elapsed >= budget * NEXT_ITERATION_SHARE
