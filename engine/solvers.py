"""Exact solvers behind ``bingwa solve`` (docs/solving.md).

- Kalah: the game-theoretic value of a position (the side to move's final
  margin with perfect play by both sides, the largest margin, not the
  fastest win) by endgame databases and MTD(f) (_kalahsolve.pyx).
- Bao la Kujifunza: a proof that the side to move wins, by a search that
  counts only game ends (_proof.pyx).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import Any

from .errors import BingwaError, ExtensionMissingError
from .position import Position

DB_POSITIONS = 100_000_000  # default database budget: positions (one byte each)
DB_MAX_SEEDS = 40
TABLE_MB = 256
# KalahSolver.build_seconds_left: a database position's build time until
# 16,384 positions are built and timed (this machine: about 0.16 us)
SECONDS_PER_POSITION = 2e-7


class SolverError(BingwaError):
    """The position is not one the solver takes (variant, size, game over)."""


class SolveInterrupted(BingwaError):
    """The solve was stopped before it finished: nothing is claimed."""


@dataclass
class KalahSolution:
    value: int                 # the side to move's final margin, stores included
    best_moves: list[str]      # every move that keeps that value
    nodes: int                 # search nodes above the databases
    db_seeds: int              # databases of 0..db_seeds seeds in the pits
    db_positions: int
    db_seconds: float
    seconds: float             # databases and search


def _compiled(name: str) -> Any:
    try:
        return __import__(f"bingwa.engine.{name}", fromlist=["_"])
    except ImportError as exc:
        raise ExtensionMissingError(f"the solver needs the compiled module {name}") from exc


def database_positions(pits: int, seeds: int) -> int:
    """Positions in the databases of 0..seeds seeds on 2 * pits pits."""
    return comb(seeds + 2 * pits, 2 * pits)


def default_db_seeds(pits: int, seeds_in_pits: int, budget: int = DB_POSITIONS) -> int:
    """The most seeds whose databases (all the smaller ones too) fit
    ``budget`` positions, and at most half the seeds in the pits: on small
    boards, building more costs more than the search it saves (Kalah(5,3):
    20 seeds, 30 M positions, for a search of 3,434 nodes)."""
    db = 0
    while (db + 1 <= seeds_in_pits // 2 and db + 1 <= DB_MAX_SEEDS
           and database_positions(pits, db + 1) <= budget):
        db += 1
    return db


def _kalah_pits(position: Position) -> tuple[list[int], int]:
    """The pits with the side to move's row first, and his store lead."""
    if position.variant.name != "kalah":
        raise SolverError(f"the Kalah solver does not play {position.variant.name}")
    pits, stores, turn = position.state
    m = int(position.variant.options["pits"])
    if m > 6:
        raise SolverError("the Kalah solver takes at most 6 pits a side")
    if position.is_over():
        raise SolverError("the game is over")
    own = list(pits[turn * m: turn * m + m])
    other = list(pits[(1 - turn) * m: (1 - turn) * m + m])
    if sum(own) + sum(other) > 120:
        raise SolverError("the Kalah solver takes at most 120 seeds in the pits")
    return own + other, stores[turn] - stores[1 - turn]


Progress = Callable[[str], None]


class KalahSolver:
    """The Kalah solver of one board size, its databases built once, for
    many positions of that size (``solve_kalah`` is one of them; a
    benchmark judges the engine's moves with it)."""

    def __init__(self, variant: Any, db_seeds: int, table_mb: int = TABLE_MB,
                 progress: Progress | None = None, build: bool = True) -> None:
        if variant.name != "kalah":
            raise SolverError(f"the Kalah solver does not play {variant.name}")
        if not 0 <= db_seeds <= DB_MAX_SEEDS:
            raise SolverError(f"databases go from 0 to {DB_MAX_SEEDS} seeds")
        self.module = _compiled("_kalahsolve")
        self.pits = int(variant.options["pits"])
        self.db_seeds = db_seeds
        self.solver = self.module.KalahSolver(self.pits, bool(variant.options["empty-capture"]),
                                              db_seeds, table_mb)
        self.db_seconds = 0.0
        if not build:
            return
        start = time.perf_counter()
        try:
            for seeds in range(db_seeds + 1):
                self.solver.build(seeds)
                if progress and seeds >= 10:
                    progress(f"database {seeds:>2} seeds: {self.solver.level_size(seeds):>12,} "
                             f"positions, {time.perf_counter() - start:7.1f} s")
        except self.module.SolveInterrupted as exc:
            raise SolveInterrupted("interrupted: the databases did not finish") from exc
        self.db_seconds = time.perf_counter() - start

    @property
    def built_seeds(self) -> int:
        """The databases are built for 0..built_seeds seeds in the pits (-1: none)."""
        return int(self.solver.built_seeds)

    def build_seconds_left(self, upto: int) -> float:
        """The seconds foreseen to build the databases up to ``upto``
        seeds, at the rate timed so far."""
        solver = self.solver
        left = sum(solver.level_size(s) for s in range(solver.built_seeds + 1, upto + 1))
        left -= solver.level_done if upto > solver.built_seeds else 0
        done = solver.db_positions + solver.level_done
        rate = self.db_seconds / done if done >= 16_384 else SECONDS_PER_POSITION
        return max(0, left) * rate

    def seeds_within(self, seconds: float) -> int:
        """The most seeds whose databases are foreseen to be built within
        ``seconds`` more (``built_seeds`` at least)."""
        upto = self.db_seeds
        while upto > self.built_seeds and self.build_seconds_left(upto) > seconds:
            upto -= 1
        return upto

    def extend(self, deadline: float | None = None,
               stop: Callable[[], bool] | None = None, upto: int | None = None) -> int:
        """Build the next databases, in order, up to ``upto`` seeds
        (default ``db_seeds``); with a
        ``deadline`` (time.monotonic()), until it, and until ``stop``
        returns true (both checked every few milliseconds): a level cut
        short goes on from there at the next call, nothing computed is
        lost. Returns ``built_seeds``. The play engine builds on its clock
        this way (Searcher, ``Kalah Endgames``): Ctrl-C raises
        KeyboardInterrupt, as in the search, and keeps what is computed."""
        solver = self.solver
        last = self.db_seeds if upto is None else min(upto, self.db_seeds)
        while solver.built_seeds < last and not (stop and stop()):
            start = time.perf_counter()
            try:
                done = solver.build(solver.built_seeds + 1, deadline or 0.0, stop)
            except self.module.SolveInterrupted:
                raise KeyboardInterrupt from None
            finally:
                self.db_seconds += time.perf_counter() - start
            if not done:
                break
        return self.built_seeds

    @property
    def nodes(self) -> int:
        return int(self.solver.nodes)

    def plays(self, variant: Any) -> bool:
        """Whether these databases are of ``variant``'s board."""
        return (variant.name == "kalah" and int(variant.options["pits"]) == self.pits
                and bool(variant.options["empty-capture"]) == bool(self.solver.empty_capture))

    def value(self, position: Position, guess: int = 0,
              progress: Progress | None = None) -> int:
        """The side to move's final margin with perfect play, stores included."""
        pits, lead = _kalah_pits(position)
        start = time.perf_counter()

        def step(lower: int, upper: int) -> None:
            if progress:
                progress(f"search: {lower + lead:+d} <= value <= {upper + lead:+d}, "
                         f"{self.solver.nodes:,} nodes, {time.perf_counter() - start:.1f} s")

        in_pits = sum(pits)
        try:
            return int(self.solver.value(pits, max(-in_pits, min(in_pits, guess - lead)),
                                         step)) + lead
        except self.module.SolveInterrupted as exc:
            raise SolveInterrupted("interrupted: the solve did not finish") from exc

    def best_line(self, position: Position, node_budget: int = 0, deadline: float = 0.0,
                  max_plies: int = 16, guess: int = 0,
                  ) -> tuple[int, list[str], list[str]] | None:
        """``(value, keeping, line)``: ``position``'s exact value (the side
        to move's final margin), the moves that keep it (every one the
        budget allows, at least one) and a line of moves that keep it
        (from the first of them, at most ``max_plies``, as long as the
        budget allows); or None when ``node_budget`` more nodes (0: no
        limit) or the ``deadline`` (time.monotonic(), 0: none) come before
        the value. Nothing partial is claimed. The play engine's root solve
        (Searcher, ``Kalah Endgames``): Ctrl-C raises KeyboardInterrupt, as
        it does in the search."""
        try:
            return self._best_line(position, node_budget, deadline, max_plies, guess)
        except self.module.SolveInterrupted:
            raise KeyboardInterrupt from None

    def _best_line(self, position: Position, node_budget: int, deadline: float,
                   max_plies: int, guess: int) -> tuple[int, list[str], list[str]] | None:
        pits, lead = _kalah_pits(position)
        stop_at = self.nodes + node_budget
        found = self.solver.best(pits, guess - lead, node_budget, deadline, True)
        if found is None:
            return None
        value, child = int(found[0]) + lead, position
        keeping = [self._move_text(position, pit) for pit in found[1]]
        line: list[str] = []
        full = value  # the value for the side to move at ``child``
        while found is not None and len(line) < max_plies:
            line.append(self._move_text(child, found[1][0]))
            mover, child = child.turn, child.play(line[-1])
            if child.is_over() or (node_budget and self.nodes >= stop_at):
                break
            full = full if child.turn == mover else -full  # the move keeps the value
            pits, lead = _kalah_pits(child)
            left = stop_at - self.nodes if node_budget else 0
            found = self.solver.best(pits, full - lead, left, deadline)
        return value, keeping, line

    def _move_text(self, position: Position, pit: int) -> str:
        """The move sowing pit ``pit`` of the side to move (0: his first)."""
        return str(position.variant.format_move(pit + position.turn * self.pits, position.state))

    def keeps(self, position: Position, move: str, value: int) -> bool:
        """Whether ``move`` keeps the final margin ``value`` (the position's,
        from ``value``) for the side to move."""
        pits, lead = _kalah_pits(position)
        code = position.parse_move(move).code - position.turn * self.pits
        try:
            return bool(self.solver.move_at_least(pits, code, value - lead))
        except self.module.SolveInterrupted as exc:
            raise SolveInterrupted("interrupted: the solve did not finish") from exc


def endgame_solver(variant: Any, budget_mb: int) -> KalahSolver:
    """The solver the engine plays with (``Kalah Endgames``): databases in
    three quarters of ``budget_mb`` MiB, the table of its root solves in
    the rest (at least 1 MiB). None is built yet: the search builds them
    on its clock (KalahSolver.extend)."""
    pits = int(variant.options["pits"])
    seeds = default_db_seeds(pits, variant.total_seeds(), (budget_mb << 20) * 3 // 4)
    return KalahSolver(variant, seeds, table_mb=max(1, budget_mb // 4), build=False)


def solve_kalah(position: Position, db_seeds: int | None = None, table_mb: int = TABLE_MB,
                progress: Progress | None = None, guess: int = 0) -> KalahSolution:
    """The game-theoretic value of ``position`` and its best moves.
    ``guess`` (the value expected, store lead included) is where MTD(f)
    starts: a guess near the value saves steps, and the value found is
    exact whatever the guess."""
    pits, _ = _kalah_pits(position)
    if db_seeds is None:
        db_seeds = default_db_seeds(int(position.variant.options["pits"]), sum(pits))
    start = time.perf_counter()
    solver = KalahSolver(position.variant, db_seeds, table_mb, progress)
    value = solver.value(position, guess, progress)
    best = [move.text for move in position.legal_moves() if solver.keeps(position, move.text, value)]
    return KalahSolution(value, best, solver.nodes, db_seeds, solver.solver.db_positions,
                         solver.db_seconds, time.perf_counter() - start)


@dataclass
class WinProof:
    plies: int | None          # the fastest forced win's length; None: none within max_plies
    max_plies: int
    move: str | None           # the first move of the proof
    nodes: int                 # nodes of every iteration, failed ones included
    tree_nodes: int            # the proof as a tree: one attacker move, every defence
    tree_states: int           # distinct states in it
    seconds: float


def prove_win(position: Position, max_plies: int = 40, table_mb: int = TABLE_MB,
              node_limit: int = 0, progress: Progress | None = None) -> WinProof:
    """Whether the side to move of ``position`` forces a win, and in how
    few plies: an AND/OR search iterated on the length, in which only game
    ends count (_proof.pyx)."""
    if position.is_over():
        raise SolverError("the game is over")
    if position.variant.name not in ("kujifunza", "bao", "kalah"):
        raise SolverError(f"the proof search needs rules without repetition, not "
                          f"{position.variant.name}'s")
    from .searcher import search_kernel

    module = _compiled("_proof")
    prover = module.Prover(search_kernel(position.variant), position.state, table_mb)
    start = time.perf_counter()
    try:
        for plies in range(1, max_plies + 1):
            left = node_limit - prover.nodes if node_limit else 0
            if node_limit and left <= 0:
                raise SolveInterrupted(f"out of nodes ({node_limit}) before {plies} plies")
            won = prover.win_within(plies, left)
            if progress:
                progress(f"{plies:>3} plies: {'win' if won else 'no win'}, {prover.nodes:,} nodes, "
                         f"{time.perf_counter() - start:.1f} s")
            if won:
                break
        else:
            return WinProof(None, max_plies, None, prover.nodes, 0, 0,
                            time.perf_counter() - start)
        nodes, seconds = prover.nodes, time.perf_counter() - start
        tree, states = prover.proof_size(plies)
        code = prover.proof_move(plies)
    except module.ProofAborted as exc:
        raise SolveInterrupted("stopped: out of nodes or interrupted, nothing proven") from exc
    return WinProof(plies, max_plies, position.variant.format_move(code, position.state),
                    nodes, tree, states, seconds)


@dataclass
class ProvenMove:
    move: str                  # the first move (kernel order) that wins within plies - 1
    plies: int                 # the fastest forced win's length from the position
    nodes: int                 # proof nodes this answer cost (0: known before)


class WinFinder:
    """Proven winning moves of one variant, one position after another, on
    one table of ``table_mb`` MiB kept between them: the table holds facts
    about states ("a win within w plies", "none within f"), true wherever
    they are met again, so a game's later positions reuse the proofs of its
    earlier ones (a new attacker starts from an empty table).

    Every answer is exact and the same whatever the table held: the length
    is the fastest win's (proofs iterated on 1, 2, ...), the move the first
    of the kernel's order that wins in time. Only the cost depends on what
    the table already knew."""

    def __init__(self, variant: Any, table_mb: int = 64) -> None:
        if variant.name not in ("kujifunza", "bao", "kalah"):
            raise SolverError(f"the proof search needs rules without repetition, not "
                              f"{variant.name}'s")
        from .searcher import search_kernel

        self._module = _compiled("_proof")
        self.variant = variant
        self.table_mb = table_mb
        self._prover: Any = None
        self._kernel = search_kernel(variant)

    @property
    def nodes(self) -> int:
        """Proof nodes searched so far, over every position."""
        return int(self._prover.nodes) if self._prover is not None else 0

    def find(self, position: Position, max_plies: int, node_limit: int = 0,
             poll: Callable[[], bool] | None = None) -> ProvenMove | None:
        """The proven winning move of ``position``'s side to move, or None
        when no win within ``max_plies`` exists. SolveInterrupted when the
        proof ran out of ``node_limit`` nodes (0: none) or ``poll``
        returned True: nothing is claimed then."""
        if position.is_over():
            raise SolverError("the game is over")
        if position.variant != self.variant:
            raise SolverError(f"this finder proves {self.variant.spec()}, "
                              f"not {position.variant.spec()}")
        if self._prover is None:
            self._prover = self._module.Prover(self._kernel, position.state, self.table_mb)
        prover = self._prover
        prover.set_root(position.state)
        before = prover.nodes
        try:
            for plies in range(1, max_plies + 1):
                left = node_limit - (prover.nodes - before) if node_limit else 0
                if node_limit and left <= 0:
                    raise SolveInterrupted(f"out of nodes ({node_limit}) before {plies} plies")
                if prover.win_within(plies, left, poll):
                    code = prover.proof_move(plies)
                    move = self.variant.format_move(code, position.state)
                    return ProvenMove(move, plies, int(prover.nodes - before))
        except self._module.ProofAborted as exc:
            raise SolveInterrupted("stopped: out of nodes or time, nothing proven") from exc
        return None
