"""Check the certificate of a proving Oware build: every bound the
databases prove (the exact entries are the boards whose two bounds meet),
checked move by move with the pure-Python rules (``bingwa solve verify``,
docs/databases.md, "The certificate").

A proving build keeps, for every board of n seeds with South to move, the
proven pair ``L <= value <= H`` of the game started there with no history
(the side to move's final margin of the n seeds, ``.bwbd``) and two ranks,
``rl`` for ``L`` and ``rh`` for ``H`` (``.bwrk``). Together they are a
certificate: a claim that can be checked one board at a time, without
trusting the sweeps, the probes or the search that made it. This module
checks it. It imports none of the code it checks (engine/_owaredb.pyx, the
search): the boards are ranked here, the moves are the pure-Python
kernel's (oware.OwareRules, the reference the compiled rules are tested
against), and the files are only read (tablebase.read_level, which checks
their headers and checksums).

The local conditions, for a board P of n seeds (South to move; a child Q
is the board after a move, turned round so that its mover is South; a
capture of c seeds gives the mover ``g`` more than the other side and
leads to a smaller count):

- P has no legal move: the game ends, worth T = own row - other row, and
  ``L <= T <= H``.
- ``L > -n`` (else it is the trivial bound: no play loses more than the
  seeds on the board): some move keeps it, either a capture with
  ``g - H(Q) >= L``, or a quiet move with ``-H(Q) > L``, or a quiet move
  with ``-H(Q) == L`` and ``rh(Q) < rl(P)``.
- ``H < n`` (else trivial): every move keeps it: a capture with
  ``g - L(Q) <= H``, a quiet move with ``-L(Q) < H``, or with
  ``-L(Q) == H`` and ``rl(Q) < rh(P)``.
- An entry marked exact has ``L == H ==`` its value; any other entry's
  value lies within ``[L, H]``.

Why the conditions prove every bound, repetitions included (the argument
the docs give in full): take the side that holds a bound and let it play,
at each of its turns, a move the condition names. Along the line, what it
is sure of (its ``L`` on its turns, ``-H`` of the board on the other
side's) never falls, and where it stays the same the rank falls at every
ply. So the pair (sure value, minus the rank) rises strictly at every
ply: no position of the line comes twice (it would come with the same
pair), no repetition can end the game, and the line reaches, within
finitely many moves, a capture or an end worth at least the bound. After
a capture the game starts afresh at a smaller count (the scores changed,
so nothing before it can repeat), whose bounds hold by induction on the
seeds. Every bound a condition leans on is itself checked, so when every
board of 0..N passes, every proven bound of those files holds against any
play: the value of the game started at the board with no history.

The counts a build solved over every line (``--exact-seeds``,
engine/oware_exact.py: every entry exact, its bounds both its value, no
rank where the search, not the sweeps, decided it) have no ranks to
check: their certificate is the exhaustive search itself, run here again
(engine/oware_exhaustive.py, the smaller counts as the files hold them,
checked before), and every entry must be the value it finds. Its moves
are ordered by the values of a build without --prove
(tablebase.plain_guess, the one piece of the build's code used here): a
guess orders the search, it never changes a value. A larger count's capture into one of them
leans on that value as on any certified bound.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Any

from .oware import GRAND_SLAM_RULES, OwareRules
from .oware_exhaustive import ExhaustiveSolver
from .tablebase import (
    RANK_NONE,
    TablebaseError,
    bounds_name,
    file_name,
    finished_levels,
    plain_guess,
    ranks_name,
    read_level,
    rule_index,
)

CYCLE_FLAG = 0x80
BIAS = 64
#: C[k][j] for every k, j the boards of 0..48 seeds need
BINOM = [[comb(k, j) for j in range(13)] for k in range(60)]
#: the most failures a report keeps in words (it counts them all)
KEPT = 20


def rank(pits: tuple[int, ...] | list[int]) -> int:
    """The index of a board (12 counts) among the boards of its seeds: n
    seeds and 11 bars, the bar after pit j at (seeds in pits 0..j) + j,
    ranked by the combinatorial number system (docs/databases.md, Index)."""
    index, bar = 0, -1
    for j in range(11):
        bar += pits[j] + 1
        index += BINOM[bar][j + 1]
    return index


def row_margin(pits: tuple[int, ...]) -> int:
    """South's row minus North's: the end of a game where South (to move)
    has no legal move."""
    return sum(pits[:6]) - sum(pits[6:])


def show(pits: tuple[int, ...]) -> str:
    """A board as the databases' commands write it (South's row / North's)."""
    return f"{','.join(map(str, pits[:6]))}/{','.join(map(str, pits[6:]))}"


class CertificateError(TablebaseError):
    """A bound of the databases that its certificate does not prove."""


def boards(seeds: int) -> Iterator[tuple[int, ...]]:
    """Every board of ``seeds`` seeds (12 counts), each once."""
    last = seeds + 10
    for bars in itertools.combinations(range(seeds + 11), 11):
        pits = [bars[0]]
        pits.extend(bars[j] - bars[j - 1] - 1 for j in range(1, 11))
        pits.append(last - bars[10])
        yield tuple(pits)


@dataclass
class CountReport:
    """What the check of one seed count found."""

    seeds: int
    boards: int = 0
    exact: int = 0          # entries marked exact, their value certified
    bounded: int = 0        # entries not marked exact, both bounds certified
    bounds_checked: int = 0  # bounds (L or H) that needed a check and passed it
    searched: int = 0       # entries of a count solved over every line, solved again
    failures: int = 0
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def fail(self, text: str) -> None:
        self.failures += 1
        if len(self.examples) < KEPT:
            self.examples.append(text)


class Certificate:
    """The files of a proving build in ``folder`` (counts 0..``max_seeds``,
    default every count with its database, bounds and ranks), read for the
    check."""

    def __init__(self, folder: str | Path, grandslam: str | int = 0,
                 max_seeds: int | None = None) -> None:
        self.folder = Path(folder).expanduser()
        self.rule = rule_index(grandslam)
        if not self.folder.is_dir():
            raise TablebaseError(f"{self.folder}: no such database folder")
        top = finished_levels(self.folder, self.rule, bounds=True, ranks=True)
        if top < 0:
            raise TablebaseError(
                f"{self.folder}: no proving build for grandslam={GRAND_SLAM_RULES[self.rule]} "
                "(a folder of `bingwa solve build --prove` holds .bwdb, .bwbd and .bwrk files)")
        if max_seeds is not None:
            if max_seeds > top:
                raise TablebaseError(f"{self.folder}: the proving build holds 0..{top} seeds, "
                                     f"not {max_seeds}")
            top = max_seeds
        self.max_seeds = top
        self.values: list[Any] = []
        self.bounds: list[Any] = []
        self.ranks: list[Any] = []
        #: the counts 0..searched were solved over every line (-1: none)
        self.searched = -1
        for n in range(top + 1):
            level = read_level(self.folder / file_name(n, self.rule), n, self.rule)
            if not level.proven:
                raise TablebaseError(f"{self.folder}: {file_name(n, self.rule)} was built "
                                     "without --prove: it has no certificate")
            if level.searched and self.searched == n - 1:
                self.searched = n
            self.values.append(level.data)
            self.bounds.append(read_level(self.folder / bounds_name(n, self.rule), n, self.rule,
                                          bounds=True).data)
            self.ranks.append(read_level(self.folder / ranks_name(n, self.rule), n, self.rule,
                                         ranks=True).data.cast("H"))
        self.rules = OwareRules(self.rule)
        self._solver: tuple[int, bool, ExhaustiveSolver] | None = None

    # -- what the files say of one board ------------------------------------------------
    def claim(self, pits: tuple[int, ...]) -> tuple[int, int, int, int]:
        """(L, H, rl, rh) of a board (South to move)."""
        n = sum(pits)
        i = rank(pits)
        bounds, ranks = self.bounds[n], self.ranks[n]
        return bounds[2 * i] - BIAS, bounds[2 * i + 1] - BIAS, ranks[2 * i], ranks[2 * i + 1]

    def stored(self, pits: tuple[int, ...]) -> int:
        """The value byte's value of a board (South to move)."""
        return (self.values[sum(pits)][rank(pits)] & 0x7F) - BIAS

    def solver(self, seeds: int, fresh: bool = False) -> ExhaustiveSolver:
        """The exhaustive solver over the stored values of the smaller
        counts (``fresh``: over its own values of them, solved first), the
        count ``seeds`` opened (kept for the count's boards). Its guesses,
        which order its moves and never change a value, are those of a
        build without --prove (tablebase.plain_guess): the stored exact
        values order it far worse (8 seeds: hours, not minutes)."""
        kept = self._solver
        # a fresh solver serves both; one over the files only a check that allows it
        if kept is None or kept[0] != seeds or fresh and not kept[1]:
            guesses = [plain_guess(n, self.rule) for n in range(seeds + 1)]

            def guess(state: Any) -> int:
                return guesses[sum(state[0])](state)

            solver = ExhaustiveSolver(self.rule, guess=guess)
            for n in range(seeds if not fresh else 0):
                for pits in boards(n):
                    value = self.stored(pits)
                    solver.values[(pits, (0, 0), 0)] = value
                    solver.values[(pits[6:] + pits[:6], (0, 0), 1)] = value
            for n in range(seeds if fresh else 0):
                solver.solve_level(n)
            solver.open_level(seeds)
            kept = self._solver = (seeds, fresh, solver)
        return kept[2]

    def check_searched(self, pits: tuple[int, ...], report: CountReport,
                       fresh: bool = False) -> None:
        """A board of a count solved over every line: exact, its bounds
        its value, and that value the exhaustive search's (``fresh``: a
        search that solves the smaller counts itself, not from the files)."""
        n = sum(pits)
        byte = self.values[n][rank(pits)]
        lo, hi, _, _ = self.claim(pits)
        value = self.stored(pits)
        report.boards += 1
        if byte & CYCLE_FLAG or not lo == hi == value:
            report.fail(f"{show(pits)}: a count solved over every line, yet {value:+d} with "
                        f"bounds [{lo:+d}, {hi:+d}]{' marked cycle-dependent' * bool(byte & CYCLE_FLAG)}")
            return
        found = self.solver(n, fresh).top((pits, (0, 0), 0))
        if found != value:
            report.fail(f"{show(pits)}: stored {value:+d}, the exhaustive search finds {found:+d}")
            return
        report.exact += 1
        report.searched += 1

    def children(self, pits: tuple[int, ...]) -> list[tuple[tuple[int, ...], int, bool, int]]:
        """(the child turned round, the mover's gain, capture, the pit) of
        every legal move of South on ``pits``; empty where South has none."""
        state = (pits, (0, 0), 0)
        out = []
        for move in self.rules.legal_moves(state):
            child, scores, _ = self.rules.play(state, move)
            out.append((child[6:] + child[:6], scores[0] - scores[1], scores != (0, 0), move))
        return out

    # -- the local conditions -------------------------------------------------------------
    def check_board(self, pits: tuple[int, ...], report: CountReport) -> None:
        """Check the conditions of the module's docstring at one board,
        counting in ``report``."""
        n = sum(pits)
        i = rank(pits)
        byte = self.values[n][i]
        bounds, ranks = self.bounds[n], self.ranks[n]
        claim = (bounds[2 * i] - BIAS, bounds[2 * i + 1] - BIAS, ranks[2 * i], ranks[2 * i + 1])
        lo, hi = claim[0], claim[1]
        report.boards += 1
        value = (byte & 0x7F) - BIAS
        exact = not byte & CYCLE_FLAG
        if not lo <= value <= hi:
            report.fail(f"{show(pits)}: value {value:+d} outside the proven [{lo:+d}, {hi:+d}]")
            return
        if exact and lo != hi:
            report.fail(f"{show(pits)}: marked exact ({value:+d}) with bounds [{lo:+d}, {hi:+d}]")
            return
        kids = self.children(pits)
        wrong = [why for why in (self.lower_fails(pits, kids, claim),
                                 self.upper_fails(pits, kids, claim)) if why is not None]
        for why in wrong:
            report.fail(f"{show(pits)}: {why}")
        if not wrong:
            report.bounds_checked += (lo > -n) + (hi < n)
            if exact:
                report.exact += 1
            else:
                report.bounded += 1

    def lower_fails(self, pits: tuple[int, ...], kids: list,
                    claim: tuple[int, int, int, int] | None = None) -> str | None:
        """Why the lower bound of ``pits`` fails its condition (None: it
        holds); ``claim``: its ``claim(pits)`` when the caller has it."""
        lo, _, rl, _ = claim or self.claim(pits)
        if not kids:
            end = row_margin(pits)
            return None if end >= lo else f"no move, the end {end:+d} is below the lower bound {lo:+d}"
        if lo == -sum(pits):
            return None
        if rl == RANK_NONE:
            return f"the lower bound {lo:+d} has no rank"
        if self.keeping_child(lo, rl, kids) is None:
            return f"no move keeps the lower bound {lo:+d} (rank {rl})"
        return None

    def keeping_child(self, lo: int, rl: int, kids: list) -> Any:
        """The first of ``kids`` whose condition keeps a (non-trivial) lower
        bound ``lo`` of rank ``rl``; None if none does."""
        for kid in kids:
            child, gain, capture, _ = kid
            _, c_hi, _, c_rh = self.claim(child)
            if c_rh == RANK_NONE and c_hi < sum(child) and sum(child) > self.searched:
                continue  # that bound is not certified: it proves nothing
            if capture:
                if gain - c_hi >= lo:
                    return kid
            elif -c_hi > lo or (-c_hi == lo and c_rh < rl):
                return kid
        return None

    def upper_fails(self, pits: tuple[int, ...], kids: list,
                    claim: tuple[int, int, int, int] | None = None) -> str | None:
        """Why the upper bound of ``pits`` fails its condition (None: it
        holds); ``claim``: its ``claim(pits)`` when the caller has it."""
        _, hi, _, rh = claim or self.claim(pits)
        if not kids:
            end = row_margin(pits)
            return None if end <= hi else f"no move, the end {end:+d} is above the upper bound {hi:+d}"
        if hi == sum(pits):
            return None
        if rh == RANK_NONE:
            return f"the upper bound {hi:+d} has no rank"
        for child, gain, capture, pit in kids:
            c_lo, _, c_rl, _ = self.claim(child)
            if c_lo > -sum(child) and c_rl == RANK_NONE and sum(child) > self.searched:
                bad = "it leans on a bound with no rank"
            elif capture:
                if gain - c_lo <= hi:
                    continue
                bad = f"it captures {gain:+d} into a board held to {c_lo:+d}"
            elif -c_lo < hi or (-c_lo == hi and c_rl < rh):
                continue
            else:
                bad = f"it goes to a board held to {c_lo:+d} (rank {c_rl})"
            return f"{'abcdef'[pit]} breaks the upper bound {hi:+d} (rank {rh}): {bad}"
        return None

    def check_position(self, pits: tuple[int, ...]) -> tuple[int, int, int]:
        """Check the part of the certificate that the two bounds of one
        board lean on: the board's conditions, those of every bound they
        use, and so on (what a full check of its counts would also check,
        for one board). Returns (L, H, the bounds checked); raises
        CertificateError at the first failure."""
        todo = [(tuple(pits), 0), (tuple(pits), 1)]
        seen = set(todo)
        while todo:
            board, which = todo.pop()
            if sum(board) <= self.searched:  # no ranks: the search again
                report = CountReport(sum(board))
                self.check_searched(board, report, fresh=True)
                if report.failures:
                    raise CertificateError(report.examples[0])
                continue
            kids = self.children(board)
            claim = self.claim(board)
            why = (self.lower_fails(board, kids, claim) if which == 0
                   else self.upper_fails(board, kids, claim))
            if why is not None:
                raise CertificateError(f"{show(board)}: {why}")
            if not kids:
                continue
            lo, hi, rl, _ = claim
            if which == 0 and lo > -sum(board):
                kept = self.keeping_child(lo, rl, kids)
                used = [] if kept is None else [kept]
            elif which == 1 and hi < sum(board):
                used = kids
            else:
                continue
            for child, _, _, _ in used:
                c_lo, c_hi, _, _ = self.claim(child)
                leans = (child, 1) if which == 0 else (child, 0)
                trivial = c_hi == sum(child) if which == 0 else c_lo == -sum(child)
                if not trivial and leans not in seen:
                    seen.add(leans)
                    todo.append(leans)
        lo, hi, _, _ = self.claim(tuple(pits))
        return lo, hi, len(seen)

    # -- whole counts ---------------------------------------------------------------------
    def check_count(self, seeds: int, share: tuple[int, int] = (0, 1)) -> CountReport:
        """Check every board of ``seeds`` seeds (with ``share`` (k, m), the
        boards whose place in ``boards`` is k modulo m)."""
        start = time.perf_counter()
        report = CountReport(seeds)
        k, m = share
        check = self.check_searched if seeds <= self.searched else self.check_board
        for index, pits in enumerate(boards(seeds)):
            if index % m == k:
                check(pits, report)
        report.seconds = time.perf_counter() - start
        return report

    def check_counts(self, jobs: int = 1,
                     done: Callable[[CountReport], None] | None = None) -> list[CountReport]:
        """Check every board of 0..max_seeds, in ``jobs`` processes; ``done``
        is called with each count's report as it is finished. Ctrl-C ends
        the workers and raises KeyboardInterrupt."""
        reports = []
        pool = None
        if jobs > 1:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_start,
                                                             initargs=(self,))
        try:
            for seeds in range(self.max_seeds + 1):
                if pool is None or seeds < 8:  # small counts: a process costs more
                    report = self.check_count(seeds)
                else:
                    start = time.perf_counter()
                    shares = [(seeds, k, jobs) for k in range(jobs)]
                    report = merge(pool.map(_worker_check, shares), seeds)
                    report.seconds = time.perf_counter() - start
                reports.append(report)
                if done is not None:
                    done(report)
        except KeyboardInterrupt:
            if pool is not None:
                pool.terminate()
                pool = None
            raise
        finally:
            if pool is not None:
                pool.close()
                pool.join()
        return reports


def merge(parts: list[CountReport], seeds: int) -> CountReport:
    """One report of the shares of a count."""
    out = CountReport(seeds)
    for part in parts:
        out.boards += part.boards
        out.exact += part.exact
        out.bounded += part.bounded
        out.bounds_checked += part.bounds_checked
        out.searched += part.searched
        out.failures += part.failures
        out.examples.extend(part.examples[:KEPT - len(out.examples)])
    return out


_WORKER: Certificate | None = None


def _worker_start(certificate: Certificate) -> None:
    import signal

    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process ends the pool
    _WORKER = certificate


def _worker_check(share: tuple[int, int, int]) -> CountReport:
    seeds, k, m = share
    assert _WORKER is not None
    return _WORKER.check_count(seeds, (k, m))
