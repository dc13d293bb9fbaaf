"""Judge one Oware board by a proof search over what it reaches, written
apart from the databases (benchmarks/databases.py judge; tests in
test_tablebase_judge.py).

Like the exhaustive solver it builds on (engine/oware_exhaustive.py), it
is an independent reference: it imports none of the code it judges
(engine/_owaredb.pyx, engine/tablebase.py, the search), only the
pure-Python rules; the databases reach it only as the caller's ``guess``.
It is not used in play.

The game is the exhaustive solver's (engine/oware_exhaustive.py): bingwa's
rules played by the pure-Python kernel (oware.OwareRules) on states whose
scores are (0, 0), so the "more than 24" end never comes; a position
(board and side to move) that repeats since the last capture ends the
game, each side taking his own row; the value of a board is the final
margin of the seeds on it for the side to move, the game started there
with no history. The exhaustive solver solves every board of a count;
this judges a single board, visiting only what its search needs.

``BoardJudge.prove(state, t)`` answers "can the side to move force a
final margin of at least ``t`` from ``state``, reached along the path
``self._path`` (the positions since the last capture)?", and returns with
the answer the set of positions whose presence on the path it rests on.
It is the game's own definition, a move at a time:

- no legal move: the margin of each side taking his own row;
- a capture of ``g`` seeds: worth ``g - value(child)``, the child's game
  started afresh (a capture empties the history), so the move reaches
  ``t`` exactly when the child's side cannot force ``g - t + 1``: the same
  proof, asked of the child with an empty path;
- a move into a position on the path: the repetition ends the game, worth
  the two rows' margin;
- any other move: worth minus the child's value along the path with this
  position added, so it reaches ``t`` exactly when the child's side cannot
  force ``1 - t`` there.

A path is simple (a repetition ends the game before a position comes
twice) and a capture lowers the seeds, so the recursion is finite; by
induction on it every answer is the game's. What it keeps is kept only
where it holds, so every answer stays the game's:

1. A value has the parity of the seeds on the board (the two sides share
   them all at the end), and lies within minus and plus those seeds.
2. An answer rests only on the positions its search tested for being on
   the path (``tested``), and only on whether each was there: it is kept
   with that set and the part of it on the path, and reused where the
   new path agrees on every one of them (the graph-history interaction,
   handled exactly; the exhaustive solver's third fact). A capture's
   child is asked with an empty path, so nothing above it rests on what
   its search tested.
3. A test need not be kept where its outcome cannot change the answer
   (its fifth fact): a move into a position on the path is worth the
   repetition, and would be worth between ``-hi`` and ``-lo`` of that
   position were it not there; a move into one off the path is worth what
   its search found, and would be worth the repetition were it on it.
   Where both ways give the same answer the move does not rest on that
   position.
4. An answer that rests on no position holds whatever the path: it
   narrows, for good, the pair ``lo <= value <= hi`` kept for the
   position along any path (its sixth fact, without the worklist), which
   points 1 and 3 and every later search then read. An answer found with
   an empty path narrows the pair of the game started there (``_free``),
   which every capture into that position reads.
5. Before the first proof the pair of every position the board reaches
   (captures included, the smaller counts first) is worked out as the
   exhaustive solver's fourth fact does over a whole count: a worklist
   from minus and plus the seeds inward, a capture-free move into the
   same strongly connected component worth at least ``min(repetition,
   -hi(child))`` and at most ``max(repetition, -lo(child))`` (into
   another, where the child can never be on the path, ``-hi`` .. ``-lo``),
   a capture by the pair of the game started at its child. Each step keeps
   both bounds true along any path (by induction on the positions not yet
   on it), so the pair is sound however far the worklist goes; point 4's
   answers run it again from the positions before the one they narrow.

The databases come in only through ``guess``: the first threshold tried
at the root and the order of the moves (a wrong guess costs time, never
a wrong answer; the tests give wrong guesses). A judgement is the value
by null-window proofs from the guess (MTD(f)): ``>= t`` proven raises the
lower bound, ``< t`` proven lowers the upper one, until they meet; with a
node cap (``NodeLimit``) it stops with the bounds proven so far.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bingwa.engine.oware import OwareRules
from bingwa.engine.oware_exhaustive import INF, NodeLimit, components, row_margin

EMPTY: frozenset = frozenset()


def fresh(state: Any) -> Any:
    """The state after a capture, the game started afresh there: scores
    (0, 0) and, by the board's symmetry, South to move (the board turned
    round when North is)."""
    pits, _, side = state
    if side == 1:
        pits = tuple(pits[6:]) + tuple(pits[:6])
    return (tuple(pits), (0, 0), 0)


def at_or_above(t: int, seeds: int) -> int:
    """The least value of ``seeds`` seeds' parity that is >= t."""
    return t if (t - seeds) % 2 == 0 else t + 1


def at_or_below(t: int, seeds: int) -> int:
    """The greatest value of ``seeds`` seeds' parity that is <= t."""
    return t if (t - seeds) % 2 == 0 else t - 1


@dataclass(frozen=True)
class Judgement:
    """What a judgement proved of one board: ``lower <= value <= upper``
    (``value`` when they meet), with the nodes and seconds it took."""

    board: tuple[int, ...]
    side: int
    lower: int
    upper: int
    nodes: int
    seconds: float
    proofs: int

    @property
    def value(self) -> int | None:
        return self.lower if self.lower == self.upper else None


class BoardJudge:
    """The value of single boards by proof searches (the module's
    docstring). ``guess(state)`` may propose the value of any state with
    scores (0, 0) (the databases'): it orders the moves and picks the root's
    first threshold, nothing else."""

    #: answers kept per position along paths (the oldest goes first)
    ENTRIES = 4
    #: answers resting on more positions than this are not kept (memory)
    MAX_TESTED = 400

    def __init__(self, grandslam: int = 0, guess: Callable[[Any], int] | None = None) -> None:
        self.rules = OwareRules(grandslam)
        self.guess = guess
        self.nodes = 0
        #: raise NodeLimit once ``nodes`` passes it (None: no limit)
        self.node_limit: int | None = None
        self._path: set[Any] = set()
        self._moves: dict[Any, list[tuple[Any, int, int, bool]]] = {}
        self._bounds: dict[Any, list[int]] = {}
        self._free: dict[Any, list[int]] = {}
        self._table: dict[Any, list[tuple[frozenset, frozenset, int, int]]] = {}
        self._ready: set[Any] = set()
        self._comp: dict[Any, int] = {}
        self._parents: dict[Any, list[Any]] = {}
        sys.setrecursionlimit(max(1_000_000, sys.getrecursionlimit()))

    # -- the game -------------------------------------------------------------------
    def moves(self, state: Any) -> list[tuple[Any, int, int, bool]]:
        """(child, the mover's gain, the mover's margin were the child a
        repetition, capture) of every legal move, the likely best first by
        the guess; a capture's child is the fresh state (``fresh``)."""
        known = self._moves.get(state)
        if known is None:
            mover = state[2]
            known = []
            for move in self.rules.legal_moves(state):
                child = self.rules.play(state, move)
                gain = child[1][mover] - child[1][1 - mover]
                if child[1] != (0, 0):
                    known.append((fresh(child), gain, 0, True))
                else:
                    known.append((child, 0, row_margin(child, mover), False))
            guess = self.guess
            if guess is not None:
                known.sort(key=lambda m: m[1] - guess(m[0]) if m[3] else -guess(m[0]),
                           reverse=True)
            self._moves[state] = known
        return known

    def bounds(self, state: Any) -> list[int]:
        """``[lo, hi]``: the value of ``state`` along any path lies within
        (the seeds on the board, narrowed by answers that rest on no
        position)."""
        known = self._bounds.get(state)
        if known is None:
            if self.moves(state):
                seeds = sum(state[0])
                known = [-seeds, seeds]
            else:  # the mover's row is empty: each takes his own row
                known = [row_margin(state, state[2])] * 2
            self._bounds[state] = known
        return known

    def free_bounds(self, state: Any) -> tuple[int, int]:
        """Bounds on the value of the game started at ``state``."""
        lo, hi = self.bounds(state)
        free = self._free.get(state)
        if free is not None:
            lo, hi = max(lo, free[0]), min(hi, free[1])
        return lo, hi

    # -- bounds whatever the path, over what a board reaches ---------------------------------
    #: work out the pair of every position a judged board reaches first (point 5)
    prepared = True

    def prepare(self, state: Any) -> int:
        """Narrow ``lo`` and ``hi`` of every position ``state`` reaches
        (point 5 of the module's docstring), the smaller seed counts first;
        returns how many positions were new."""
        new: list[Any] = []
        stack = [state]
        while stack:
            node = stack.pop()
            if node in self._ready:
                continue
            self._ready.add(node)
            new.append(node)
            stack.extend(child for child, _, _, _ in self.moves(node))
        by_seeds: dict[int, list[Any]] = {}
        for node in new:
            by_seeds.setdefault(sum(node[0]), []).append(node)
        fresh_nodes = set(new)
        for seeds in sorted(by_seeds):
            nodes = by_seeds[seeds]
            found = components(nodes, lambda n: [c for c, _, _, capture in self.moves(n)
                                                 if not capture and c in fresh_nodes])
            base = len(self._comp)
            self._comp.update((node, base + comp) for node, comp in found.items())
            for node in nodes:
                for child, _, _, _ in self.moves(node):
                    self._parents.setdefault(child, []).append(node)
            self.settle(nodes)
        return len(new)

    def settle(self, work: list[Any]) -> None:
        """Narrow the pairs from the positions of ``work`` to the fixed
        point: each position to its best move's bounds (a capture-free
        move into the same component at least ``min(repetition,
        -hi(child))`` and at most ``max(repetition, -lo(child))``; into
        another, ``-hi`` .. ``-lo``; a capture by the fresh child's pair),
        then its parents again."""
        waiting = set(work)
        work = list(work)
        while work:
            state = work.pop()
            waiting.discard(state)
            known = self.bounds(state)
            if known[0] == known[1]:
                continue
            comp = self._comp.get(state)
            low = high = -INF
            for child, gain, repetition, capture in self.moves(state):
                if capture:
                    clo, chi = self.free_bounds(child)
                    down, up = gain - chi, gain - clo
                else:
                    clo, chi = self.bounds(child)
                    down, up = -chi, -clo
                    if comp is None or self._comp.get(child) == comp:
                        down, up = min(repetition, down), max(repetition, up)
                low, high = max(low, down), max(high, up)
            if low > known[0] or high < known[1]:
                known[0], known[1] = max(low, known[0]), min(high, known[1])
                for parent in self._parents.get(state, ()):
                    if parent not in waiting:
                        waiting.add(parent)
                        work.append(parent)

    # -- the proof ------------------------------------------------------------------
    def prove(self, state: Any, t: int) -> tuple[bool, frozenset]:
        """Whether the side to move can force a final margin >= ``t`` from
        ``state`` reached along ``self._path``, and the positions whose
        presence on the path that answer rests on."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise NodeLimit
        # Step 1. Bounds that hold whatever the path, then the game started here
        lo, hi = self.bounds(state)
        if t <= lo:
            return True, EMPTY
        if t > hi:
            return False, EMPTY
        path = self._path
        if not path:
            lo, hi = self.free_bounds(state)
            if t <= lo:
                return True, EMPTY
            if t > hi:
                return False, EMPTY
        # Step 2. Answers kept along other paths that agree with this one
        entries = self._table.get(state)
        if entries:
            for kept, on_path, lower, upper in entries:
                if kept.intersection(path) == on_path:
                    if t <= lower:
                        return True, kept
                    if t > upper:
                        return False, kept
        # Step 3. The moves that the bounds decide without a search
        moves = self.moves(state)
        tested: set[Any] = set()
        pending = []
        answer: tuple[bool, frozenset] | None = None
        for move in moves:
            child, gain, repetition, capture = move
            if capture:
                clo, chi = self.free_bounds(child)
                if gain - chi >= t:
                    answer = True, EMPTY
                    break
                if gain - clo < t:
                    continue
            else:
                clo, chi = self.bounds(child)
                here = child in path
                # the move's answer were the child on the path (the repetition)
                # and off it (minus the child's bounds)
                on_good, on_bad = repetition >= t, repetition < t
                off_good, off_bad = -chi >= t, -clo < t
                if on_good if here else off_good:
                    answer = True, (EMPTY if on_good and off_good else frozenset((child,)))
                    break
                if on_bad if here else off_bad:
                    if not (on_bad and off_bad):
                        tested.add(child)
                    continue
            pending.append(move)
        # Step 4. Search the others, this position on the path
        if answer is None:
            answer = self.search(state, t, pending, tested)
        return self.keep(state, t, *answer)

    def search(self, state: Any, t: int, moves: list[tuple[Any, int, int, bool]],
               tested: set[Any]) -> tuple[bool, frozenset]:
        """Step 4 of ``prove``: the first of ``moves`` that reaches ``t``
        (its children searched), else a fail resting on ``tested`` and
        what every move rested on."""
        path = self._path
        path.add(state)
        try:
            for child, gain, repetition, capture in moves:
                if capture:  # the child's game starts afresh
                    self._path = set()
                    try:
                        held, _ = self.prove(child, gain - t + 1)
                    finally:
                        self._path = path
                    if not held:
                        return True, EMPTY
                    continue
                held, below = self.prove(child, 1 - t)
                rests = below - {state} if state in below else below
                # were the child on the path the move would be worth the repetition
                if (not held) != (repetition >= t):
                    rests = rests | {child}
                if not held:
                    return True, frozenset(rests)
                tested.update(rests)
            return False, frozenset(tested)
        finally:
            path.discard(state)

    def keep(self, state: Any, t: int, held: bool, rests: frozenset) -> tuple[bool, frozenset]:
        """Keep an answer where it holds (the module's points 2 and 4)."""
        seeds = sum(state[0])
        lower, upper = (at_or_above(t, seeds), INF) if held else (-INF, at_or_below(t - 1, seeds))
        path = self._path
        if not rests:
            known = self.bounds(state)
            if lower > known[0] or upper < known[1]:
                known[0], known[1] = max(known[0], lower), min(known[1], upper)
                if state in self._ready:  # and the positions before it (point 4)
                    self.settle(self._parents.get(state, []))
            return held, rests
        if not path:
            free = self._free.setdefault(state, [-INF, INF])
            if lower > free[0] or upper < free[1]:
                free[0], free[1] = max(free[0], lower), min(free[1], upper)
                if state in self._ready:
                    self.settle(self._parents.get(state, []))
        if len(rests) <= self.MAX_TESTED:
            on_path = rests.intersection(path)
            entries = self._table.setdefault(state, [])
            for entry in entries:
                if entry[0] == rests and entry[1] == on_path:
                    entries.remove(entry)
                    lower, upper = max(lower, entry[2]), min(upper, entry[3])
                    break
            entries.append((rests, on_path, lower, upper))
            if len(entries) > self.ENTRIES:
                del entries[0]
        return held, rests

    # -- a board ----------------------------------------------------------------------
    def judge(self, board: tuple[int, ...], side: int = 0, node_cap: int | None = None,
              first: int | None = None) -> Judgement:
        """The value of ``board`` (``side`` to move, no history) by
        null-window proofs from ``first`` (default: the guess), within
        ``node_cap`` nodes: the bounds proven when the cap stops it."""
        state = (tuple(board), (0, 0), side)
        seeds = sum(board)
        started, nodes = time.monotonic(), self.nodes
        if self.prepared:
            self.prepare(state)
        self.node_limit = None if node_cap is None else self.nodes + node_cap
        lower, upper = self.free_bounds(state)
        if first is None:
            first = self.guess(state) if self.guess is not None else 0
        t = first
        proofs = 0
        try:
            while lower < upper:
                t = at_or_above(min(max(t, lower + 1), upper), seeds)
                proofs += 1
                self._path = set()
                if self.prove(state, t)[0]:
                    lower, t = t, t + 2
                else:
                    upper, t = t - 2, t - 2
        except NodeLimit:
            pass
        finally:
            self.node_limit = None
            self._path = set()
        return Judgement(tuple(board), side, lower, upper, self.nodes - nodes,
                         time.monotonic() - started, proofs)
