"""What a search is asked for and what it reports: the typed values shared
by the search, the bots, the protocol server and its client.

Clocks are player-neutral (UGI): p1 is South, who moves first; UCI's
wtime/btime map to p1time/p2time. Times are in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Limits:
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None  # ms for this move
    p1time: int | None = None  # South's clock, ms (may arrive <= 0: clamp)
    p2time: int | None = None
    p1inc: int = 0
    p2inc: int = 0
    movestogo: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)
    # ms kept back from every deadline for the protocol, the GUI and the OS
    # (the engine's ``Move Overhead`` option; None: timeman's default). It
    # is the engine's setting, never sent on the wire.
    move_overhead: int | None = None

    def clock(self, side: int) -> tuple[int | None, int]:
        """(time left, increment) in ms of ``side`` (0 South, 1 North)."""
        if side == 0:
            return self.p1time, self.p1inc
        return self.p2time, self.p2inc

    def is_unbounded(self) -> bool:
        """No limit at all: only ``stop`` ends the search."""
        return self.infinite or not (
            self.depth or self.nodes or self.movetime
            or self.p1time is not None or self.p2time is not None
        )


@dataclass
class Info:
    """One progress report (protocol ``info`` line). Scores are from the
    side to move: ``score_cp`` = 100 x expected final seed margin;
    ``score_mate`` = plies to the proven end, negative when losing;
    ``score_draw`` = plies to the proven draw (``score_cp`` is then 0)."""

    depth: int | None = None
    seldepth: int | None = None
    multipv: int | None = None
    score_cp: int | None = None
    score_mate: int | None = None
    score_draw: int | None = None
    bound: str | None = None  # "lowerbound", "upperbound" or None (exact)
    nodes: int | None = None
    nps: int | None = None
    time: int | None = None  # ms
    hashfull: int | None = None  # per mille
    tbhits: int | None = None  # endgame database probes that hit (None: no databases)
    pv: list[str] = field(default_factory=list)
    string: str | None = None


@dataclass
class SearchResult:
    """What a ``go`` ends with: ``best`` is None when the game is over."""

    best: str | None
    ponder: str | None = None
    info: Info | None = None  # the last full report
