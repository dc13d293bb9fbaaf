"""The ``proof`` bot: Bao la Kujifunza's proven win, played.

The start of Kujifunza is a South win in 21 plies (docs/solving.md). As
South, at each of its turns, this bot plays a move of a proven forced win:

- from its book (bots/kujifunza_book.py) in the first plies of the proof:
  South's proof move against every North reply, written by
  ``python benchmarks/kujifunza_book.py`` from the proof search;
- elsewhere, from the proof search itself (engine/_proof.pyx through
  solvers.WinFinder): iterated on the length, within ``ProofNodes`` nodes
  (and a ``go nodes N``'s N),
  a table of ``ProofHash`` MiB kept from move to move (a game's later
  positions reuse its earlier proofs), and half the move's time (of the
  time manager's soft budget: a proof that does not make it in time leaves
  the search the rest). The answer is the fastest win's first move in the
  kernel's order: the same whatever the table held. Answers, and "no win
  proven within ``ProofNodes``", are remembered per position.

Anywhere a proof does not cover (North to move, another variant, a South
position whose win the proof search does not find within its budget, or a
proof cut short by the clock or ``stop``) it is the alpha-beta bot, with
its options and the time left.

Its reports: ``info depth N score mate N nodes K pv MOVE`` (N the plies of
the proven win, K the proof nodes this move cost).
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.solvers import SolveInterrupted, WinFinder
from bingwa.engine.timeman import allocate

from .alphabeta import AlphaBetaBot
from .base import BotOption, Emit

PROOF_SIDE = 0  # South: the side the start's proof is for
MAX_PROOF_PLIES = 60  # longest win the proof search looks for
# about 1 to 3 s of proof at most; the positions past the book take tens of
# thousands (benchmarks/kujifunza_book.py prints them)
DEFAULT_PROOF_NODES = 1_000_000
DEFAULT_PROOF_HASH = 64  # MiB
PROOF_TIME_SHARE = 0.5  # of the time manager's soft budget a proof may spend


def book() -> dict[str, tuple[str, int]]:
    from .kujifunza_book import BOOK

    return BOOK


class ProofBot(AlphaBetaBot):
    name = "proof"
    summary = "Bao la Kujifunza's proven South win, played; the search elsewhere"

    def options(self) -> list[BotOption]:
        return super().options() + [
            BotOption("ProofNodes", "spin", DEFAULT_PROOF_NODES, 1, 1 << 40,
                      help="nodes a move's proof may search before the search plays"),
            BotOption("ProofHash", "spin", DEFAULT_PROOF_HASH, 1, 4096,
                      help="proof table size in MiB, kept from move to move"),
        ]

    def __init__(self) -> None:
        super().__init__()
        self._finder: WinFinder | None = None
        # position text -> (move, plies), or None: no win proven within ProofNodes
        self.proven: dict[str, tuple[str, int] | None] = {}
        self._spent = 0  # proof nodes of the last move

    def set_option(self, name: str, value: str | None) -> None:
        super().set_option(name, value)
        key = name.strip().lower()
        if key == "proofhash":
            self._finder = None
        elif key == "proofnodes":
            self.proven = {text: found for text, found in self.proven.items() if found}

    def covers(self, position: Position) -> bool:
        """Whether a proof is looked for here: Kujifunza, South to move."""
        return (position.variant.name == "kujifunza" and not position.is_over()
                and position.turn == PROOF_SIDE)

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        start = time.monotonic()
        found = self.proof_move(position, limits, stop) if self.covers(position) else None
        if found is not None and (not limits.searchmoves or found[0] in limits.searchmoves):
            move, plies = found
            info = Info(depth=plies, seldepth=plies, score_mate=plies, nodes=self._spent,
                        time=int((time.monotonic() - start) * 1000), pv=[move])
            emit(info)
            if limits.infinite or limits.ponder:
                stop.wait()  # no bestmove before ``stop`` (the protocol's rule)
            return SearchResult(move, None, info)
        return super().go(position, less_time(limits, position.turn, time.monotonic() - start),
                          emit, stop)

    def proof_move(self, position: Position, limits: Limits,
                   stop: threading.Event) -> tuple[str, int] | None:
        """(move, plies) of a proven win of the side to move, or None."""
        self._spent = 0
        text = position.text()
        entry = book().get(text)
        if entry is not None and entry[0] in {m.text for m in position.legal_moves()}:
            return entry
        if text in self.proven:
            return self.proven[text]
        if stop.is_set():
            return None
        budget = allocate(limits, position.turn, position.variant.moves_left(position.state))
        deadline = None
        if budget.soft_ms is not None and not (limits.infinite or limits.ponder):
            # half the move's time: a proof that does not make it leaves the search the rest
            deadline = time.monotonic() + PROOF_TIME_SHARE * budget.soft_ms / 1000

        def poll() -> bool:
            return stop.is_set() or (deadline is not None and time.monotonic() >= deadline)

        # a go's node limit bounds the proof too: ``nodes`` is the work a move may do
        node_limit = min(self.option("ProofNodes"), limits.nodes or self.option("ProofNodes"))
        finder = self.finder(position)
        before = finder.nodes
        try:
            found = finder.find(position, MAX_PROOF_PLIES, node_limit, poll)
        except SolveInterrupted:
            self._spent = finder.nodes - before
            if not poll() and node_limit == self.option("ProofNodes"):
                self.proven[text] = None  # out of ProofNodes: no use trying again here
            return None
        self._spent = finder.nodes - before
        self.proven[text] = None if found is None else (found.move, found.plies)
        return self.proven[text]

    def finder(self, position: Position) -> WinFinder:
        if self._finder is None or self._finder.variant != position.variant:
            self._finder = WinFinder(position.variant, self.option("ProofHash"))
        return self._finder


def less_time(limits: Limits, side: int, spent_s: float) -> Limits:
    """``limits`` with ``spent_s`` seconds already used of this move's time
    (the fixed move time and the clock of ``side``)."""
    spent = int(spent_s * 1000)
    if spent <= 0:
        return limits
    changes: dict[str, Any] = {}
    if limits.movetime is not None:
        changes["movetime"] = max(1, limits.movetime - spent)
    clock = "p1time" if side == 0 else "p2time"
    if getattr(limits, clock) is not None:
        changes[clock] = getattr(limits, clock) - spent
    return replace(limits, **changes) if changes else limits
