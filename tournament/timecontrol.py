"""Time controls and the referee's clocks.

Written as fastchess and cutechess write them:

    40/60+0.6   40 of the engine's plies (one a go) in 60 s, then 60 s more for the next 40; +0.6 s a ply
    10+0.1      10 s for the game, +0.1 s a move
    1:30        90 s for the game
    st=0.2      a fixed 0.2 s per move (``movetime``)
    nodes=N     a fixed node count per move
    depth=D     a fixed depth per move

Clock, fixed time, nodes and depth combine (all are sent with ``go``). The
referee owns the clocks: an engine's time is what the client measured from
``go`` to ``bestmove``, and a move that overruns the clock (or the fixed
time) by more than the margin loses on time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from bingwa.engine.limits import Limits


class TimeControlError(ValueError):
    """A time control that cannot be read."""


def _seconds(text: str) -> float:
    """``90``, ``1.5`` or ``1:30`` (minutes:seconds) as seconds."""
    try:
        if ":" in text:
            minutes, _, seconds = text.partition(":")
            return 60 * int(minutes) + float(seconds)
        return float(text)
    except ValueError:
        raise TimeControlError(f"not a time in seconds: {text!r}") from None


def _fixed_move_time_ms(st: str | float) -> int:
    """``st`` (seconds, as the user wrote it) in milliseconds; the error
    speaks of seconds, as the option does."""
    try:
        seconds = float(st)
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        shown = f"{st:g}" if isinstance(st, float) else st
        raise TimeControlError(f"a fixed time per move (st) is a number of seconds more than 0, not {shown}")
    return max(1, round(seconds * 1000))


_CLOCK = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<base>[0-9.:]+)(?:\+(?P<inc>[0-9.]+))?$")


@dataclass(frozen=True)
class TimeControl:
    """What every ``go`` of a game gets. Times in milliseconds."""

    base_ms: int | None = None  # the clock at the start (None: no clock)
    inc_ms: int = 0
    moves: int | None = None  # moves per period (``movestogo``)
    movetime_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        for name in ("base_ms", "movetime_ms", "nodes", "depth", "moves"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise TimeControlError(f"{name} must be positive, not {value}")
        if self.inc_ms < 0:
            raise TimeControlError(f"the increment must not be negative, not {self.inc_ms}")
        if self.moves is not None and self.base_ms is None:
            raise TimeControlError("moves per period need a clock")

    @classmethod
    def parse_clock(cls, text: str) -> TimeControl:
        """``[moves/]seconds[+increment]``; ``inf`` is no clock."""
        text = text.strip()
        if text.lower() in ("", "inf", "none"):
            return cls()
        match = _CLOCK.match(text)
        if not match:
            raise TimeControlError(f"time control {text!r}: write moves/time+inc, e.g. 40/60+0.6")
        base = _seconds(match["base"])
        inc = float(match["inc"]) if match["inc"] else 0.0
        moves = int(match["moves"]) if match["moves"] else None
        return cls(base_ms=round(base * 1000), inc_ms=round(inc * 1000), moves=moves)

    @classmethod
    def from_fields(
        cls,
        tc: str | None = None,
        st: str | float | None = None,
        nodes: str | int | None = None,
        depth: str | int | None = None,
    ) -> TimeControl:
        """A time control from its parts (command-line options, engine
        fields); every part is optional."""
        base = cls.parse_clock(tc) if tc else cls()
        movetime = _fixed_move_time_ms(st) if st is not None else None
        try:
            n = int(nodes) if nodes is not None else None
            d = int(depth) if depth is not None else None
        except ValueError as exc:
            raise TimeControlError(f"time control: {exc}") from None
        return cls(base.base_ms, base.inc_ms, base.moves, movetime, n, d)

    def is_bounded(self) -> bool:
        return any(x is not None for x in (self.base_ms, self.movetime_ms, self.nodes, self.depth))

    def describe(self) -> str:
        """The record's TimeControl tag: ``40/60+0.6``, ``st=0.2``, ``nodes=500``."""
        parts = []
        if self.base_ms is not None:
            clock = _fmt(self.base_ms)
            if self.moves:
                clock = f"{self.moves}/{clock}"
            if self.inc_ms:
                clock += f"+{_fmt(self.inc_ms)}"
            parts.append(clock)
        if self.movetime_ms is not None:
            parts.append(f"st={_fmt(self.movetime_ms)}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        return " ".join(parts) or "-"

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None and v != 0}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        return cls(**data)


def _fmt(ms: int) -> str:
    return f"{ms / 1000:g}"


class Clock:
    """One side's clock in one game."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.remaining_ms = tc.base_ms
        self.moves_left = tc.moves

    def deadline_ms(self, margin_ms: int) -> int | None:
        """How long the engine may think before it loses on time."""
        limits = []
        if self.remaining_ms is not None:
            limits.append(self.remaining_ms + margin_ms)
        if self.tc.movetime_ms is not None:
            limits.append(self.tc.movetime_ms + margin_ms)
        return min(limits) if limits else None

    def spend(self, elapsed_ms: int, margin_ms: int) -> bool:
        """Charge a move; False when it overran (the flag fell)."""
        if self.tc.movetime_ms is not None and elapsed_ms > self.tc.movetime_ms + margin_ms:
            return False
        if self.remaining_ms is None:
            return True
        if elapsed_ms > self.remaining_ms + margin_ms:
            self.remaining_ms -= elapsed_ms
            return False
        self.remaining_ms += self.tc.inc_ms - elapsed_ms
        if self.moves_left is not None:
            self.moves_left -= 1
            if self.moves_left == 0:
                self.remaining_ms += self.tc.base_ms or 0
                self.moves_left = self.tc.moves
        return True


def limits_for(side: int, clocks: tuple[Clock, Clock]) -> Limits:
    """The ``go`` of ``side`` (0 South, 1 North) with both clocks."""
    mine = clocks[side].tc
    limits = Limits(
        depth=mine.depth,
        nodes=mine.nodes,
        movetime=mine.movetime_ms,
        p1time=clocks[0].remaining_ms,
        p2time=clocks[1].remaining_ms,
        p1inc=clocks[0].tc.inc_ms if clocks[0].remaining_ms is not None else 0,
        p2inc=clocks[1].tc.inc_ms if clocks[1].remaining_ms is not None else 0,
        movestogo=clocks[side].moves_left,
    )
    if mine.base_ms is None:  # this engine plays without a clock
        limits.p1time = limits.p2time = None
        limits.p1inc = limits.p2inc = 0
    return limits
