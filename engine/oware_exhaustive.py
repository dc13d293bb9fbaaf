"""An exhaustive, history-aware solver of small Oware endgames, written
apart from the databases (tests and benchmarks/databases.py compare them).

It is an independent reference, the judge of the databases: it uses
none of the code it judges (engine/_owaredb.pyx, engine/tablebase.py,
the search), only the pure-Python rules, and must stay that way (a test,
test_tablebase_judge.py, holds it to that). The build runs it on the
small counts (oware_exact.py, ``--exact-seeds``), where it and the
sweeps' proofs must agree, and the perfect bot plays its values there.

It plays bingwa's rules through the pure-Python kernel (oware.OwareRules)
on states whose scores are (0, 0), so the "more than 24" end never comes
(the databases' game), and ends a game when a position repeats, each side
taking his own row (tworow.own_rows_scores), as Position does. The value
of a position is the game started there, with no history: a negamax over
every line, the path since the last capture remembered.

Three facts keep it finite and fast enough for several seeds: a capture
lowers the seeds, so a position after one is solved once with an empty
history; a position can only repeat inside its own strongly connected
component of the capture-free moves, so leaving it forgets the path; and
a result depends on the path only through the positions its search
tested for a repetition, so the transposition table keeps, with every
bound, that set and which of them were on the path (bit sets over the
positions of the seed count), and a later search reuses the bound only
where the new path agrees on every one of them (the graph history
interaction problem, solved exactly rather than ignored).

A fourth fact prunes it: before searching a seed count the solver works
out, by its own iteration over the count's positions, a pair of bounds
``lo <= value <= hi`` that holds **whatever the path** to the position
(``bounds``), and a search returns at once where they decide it: where
``lo == hi`` (36 % of the positions of 4 seeds, 18 % of 8), or
where one of them is outside the window.
Why the pair is sound, by induction on the positions not yet on the path:
at a position reached along any path every capture-free move is worth
either the repetition's value (its child is on the path) or minus the
child's value along a longer path, so it is worth at least
``min(repetition, -hi(child))`` and at most ``max(repetition, -lo(child))``
(only the second where the child lies in another component, where it can
never be on the path); captures are worth their exact value. Starting
from minus and plus the seeds on the board (no margin is larger) and
raising ``lo`` to the best move's lower value (lowering ``hi`` to the best
upper one) keeps both true at every step, so the pair is sound however
far the iteration goes.

A fifth fact keeps the sets of positions small (``robust``): a bound
need not rest on a position whose presence on the path cannot change
it. A move into a position on the path is worth the repetition; were the
position not there, it would be worth between ``-hi`` and ``-lo`` of it.
A move into one not on the path is worth what its search found; were
the position there, the repetition. So where a move fails low (high)
both ways, the fail low (the cutoff) takes the weaker of the two values
and leaves that position out of the set it rests on (an exact value
keeps every position). On 6 seeds this cuts the nodes fifty-fold
(15.3 M to 0.31 M).

And a bound that rests on no position at all holds whatever the path:
it tightens ``lo`` or ``hi`` for good (``tighten``), and the worklist of
``bounds`` runs again from the positions before it (``propagate``, by
``settle``), so that their pairs narrow too.

``NaiveSolver`` is the same negamax without the table and the bounds:
tests check that they agree.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from bingwa.engine.oware import OwareRules
from bingwa.engine.tworow import own_rows_scores

INF = 99


def row_margin(state: Any, mover: int) -> int:
    """The margin, for ``mover``, of the game ended here with each side
    taking his own row (a repetition, or a side with no move)."""
    scores = own_rows_scores(state)
    return scores[mover] - scores[1 - mover]


def boards(seeds: int, pits: int = 12) -> Iterator[tuple[int, ...]]:
    """Every distribution of ``seeds`` seeds over ``pits`` pits."""
    if pits == 1:
        yield (seeds,)
        return
    for first in range(seeds + 1):
        for rest in boards(seeds - first, pits - 1):
            yield (first, *rest)


def components(nodes: list[Any], successors: Callable[[Any], list[Any]]) -> dict[Any, int]:
    """Strongly connected components (Tarjan, without recursion)."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    comp: dict[Any, int] = {}
    stack: list[Any] = []
    on_stack: set[Any] = set()
    count = 0
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        comp[member] = count
                        if member == node:
                            break
                    count += 1
    return comp


class NodeLimit(Exception):
    """The search passed ``ExhaustiveSolver.node_limit`` (what it had
    finished stays exact: a value or a bound is kept only once complete)."""


class ExhaustiveSolver:
    """Values of every position of 0..max_seeds seeds (both sides to move),
    seed count by seed count. ``guess(state)`` may propose each value: it
    chooses the null-window searches that confirm it and orders the moves
    (a wrong guess costs time, never a wrong value)."""

    #: bounds kept per position (the oldest goes first)
    ENTRIES = 6

    def __init__(self, grandslam: int = 0, guess: Callable[[Any], int] | None = None,
                 progress: Callable[[int, int, int], None] | None = None) -> None:
        self.rules = OwareRules(grandslam)
        self.guess = guess
        self.progress = progress
        self.values: dict[Any, int] = {}
        self.nodes = 0
        #: raise NodeLimit once ``nodes`` passes it (None: no limit)
        self.node_limit: int | None = None
        self._children: dict[Any, list[tuple[Any, int]]] = {}
        self._comp: dict[Any, int] = {}
        self._bit: dict[Any, int] = {}
        self._table: dict[Any, list[tuple[int, int, int, int]]] = {}
        self._order: dict[Any, list[tuple[Any, int, int | None]]] = {}
        self._lo: dict[Any, int] = {}
        self._hi: dict[Any, int] = {}

    def children(self, state: Any) -> list[tuple[Any, int]]:
        """(child, the mover's gain) of every legal move."""
        known = self._children.get(state)
        if known is None:
            mover = state[2]
            known = []
            for move in self.rules.legal_moves(state):
                child = self.rules.play(state, move)
                known.append((child, child[1][mover] - child[1][1 - mover]))
            self._children[state] = known
        return known

    def solve(self, max_seeds: int) -> dict[Any, int]:
        for seeds in range(max_seeds + 1):
            self.solve_level(seeds)
        return self.values

    def level(self, seeds: int) -> list[Any]:
        """Every state of ``seeds`` seeds, both sides to move, with their
        components of the capture-free moves worked out."""
        states = [(b, (0, 0), side) for b in boards(seeds) for side in (0, 1)]
        self._comp = components(
            states, lambda s: [c for c, _ in self.children(s) if c[1] == (0, 0)]
        )
        return states

    def solve_level(self, seeds: int) -> None:
        """Every position of ``seeds`` seeds (the smaller counts solved)."""
        states = self.open_level(seeds)
        for done, state in enumerate(states):
            self.top(state)
            if self.progress is not None and done % 1000 == 999:
                self.progress(seeds, done + 1, len(states))
        self.close_level()

    def open_level(self, seeds: int) -> list[Any]:
        """Make the positions of ``seeds`` seeds ready for ``top`` (the
        smaller counts solved): their components, bounds and bits."""
        sys.setrecursionlimit(max(100000, sys.getrecursionlimit()))
        states = self.level(seeds)
        if self.bounded:
            self._lo, self._hi = self.bounds(states)
            # only a position the bounds leave open is ever on a path
            open_ = [s for s in states if self._lo[s] < self._hi[s]]
            self._bit = dict.fromkeys(states, 0)
            self._bit.update((state, 1 << i) for i, state in enumerate(open_))
        else:
            self._lo, self._hi = dict.fromkeys(states, -INF), dict.fromkeys(states, INF)
            self._bit = {state: 1 << i for i, state in enumerate(states)}
        return states

    def close_level(self) -> None:
        """Forget what only the open seed count needed."""
        self._children.clear()
        self._table.clear()
        self._order.clear()
        self._lo.clear()
        self._hi.clear()

    #: prune by bounds that hold whatever the path (the NaiveSolver does not)
    bounded = True

    def bounds(self, states: list[Any]) -> tuple[dict[Any, int], dict[Any, int]]:
        """``lo`` and ``hi`` of every position of ``states`` (one seed
        count, the smaller ones solved): bounds on its value along any
        path, from the seeds on the board inward by a worklist iteration to
        the fixed point (the module's docstring says why they hold)."""
        lo: dict[Any, int] = {}
        hi: dict[Any, int] = {}
        moves: dict[Any, list[tuple[Any, int, int | None]]] = {}
        parents: dict[Any, list[Any]] = {state: [] for state in states}
        for state in states:
            mover = state[2]
            known: list[tuple[Any, int, int | None]] = []
            for child, gain in self.children(state):
                if child[1] != (0, 0):  # exact: the smaller count is solved
                    known.append((None, gain - self.values[(child[0], (0, 0), child[2])], None))
                    continue
                repetition = None
                if self._comp[child] == self._comp[state]:
                    repetition = row_margin(child, mover)
                known.append((child, 0, repetition))
                parents[child].append(state)
            moves[state] = known
            if known:  # no margin can exceed the seeds on the board
                lo[state], hi[state] = -sum(state[0]), sum(state[0])
            else:
                lo[state] = hi[state] = row_margin(state, mover)
        self._moves, self._parents = moves, parents
        self.settle(lo, hi, [state for state in states if moves[state]])
        return lo, hi

    def settle(self, lo: dict[Any, int], hi: dict[Any, int], work: list[Any]) -> None:
        """Narrow ``lo`` and ``hi`` from the positions of ``work`` to the
        fixed point: each position to its best move's bounds, then its
        parents again (the positions of ``bounds``)."""
        moves, parents = self._moves, self._parents
        waiting = set(work)
        while work:
            state = work.pop()
            waiting.discard(state)
            low = high = -INF
            for child, exact, repetition in moves[state]:
                if child is None:
                    down = up = exact
                elif repetition is None:
                    down, up = -hi[child], -lo[child]
                else:
                    down, up = min(repetition, -hi[child]), max(repetition, -lo[child])
                low, high = max(low, down), max(high, up)
            if low > lo[state] or high < hi[state]:
                lo[state], hi[state] = max(low, lo[state]), min(high, hi[state])
                for parent in parents[state]:
                    if parent not in waiting and lo[parent] < hi[parent]:
                        waiting.add(parent)
                        work.append(parent)

    #: leave out of a bound the positions whose presence on the path cannot
    #: change it (the module's docstring; False: every position tested)
    robust = True

    #: a bound that rests on no position tightens ``lo`` or ``hi``
    tighten = True
    #: and then the bounds of the positions before it (``settle``)
    propagate = True

    #: North to move with no history is South to move on the board turned
    #: round (the tests check it against a solver that searches both)
    symmetric = True

    def top(self, state: Any) -> int:
        """The value with no history."""
        if state not in self.values and self.symmetric and state[2] == 1:
            pits = state[0]
            self.values[state] = self.top((pits[6:] + pits[:6], state[1], 0))
        if state not in self.values:
            if self.guess is None:
                self.values[state] = self.search(state, 0, -INF, INF)[0]
            else:  # MTD(f) from the guess: null windows narrow [lower, upper]
                lower, upper = self._lo[state], self._hi[state]
                value = min(max(self.guess(state), lower), upper)
                while lower < upper:
                    beta = value + 1 if value == lower else value
                    value = self.search(state, 0, beta - 1, beta)[0]
                    if value < beta:
                        upper = value
                    else:
                        lower = value
                self.values[state] = lower
        return self.values[state]

    def ordered(self, state: Any) -> list[tuple[Any, int, int | None]]:
        """(child, the mover's margin were the child a repetition, its
        value if it leaves the component) of every move, the likely best
        first: exact values of captures and of other components as they
        are, the others by the guess."""
        known = self._order.get(state)
        if known is None:
            known = []
            for child, gain in self.children(state):
                if child[1] != (0, 0):  # a capture: fewer seeds, a fresh history
                    exit_value: int | None = gain - self.values[(child[0], (0, 0), child[2])]
                elif self._comp[child] != self._comp[state]:
                    exit_value = -self.top(child)
                else:
                    exit_value = None
                repetition = row_margin(child, state[2]) if exit_value is None else 0
                known.append((child, repetition, exit_value))
            guess = self.guess

            def estimate(move: tuple[Any, int, int | None]) -> tuple[int, int]:
                if move[2] is not None:
                    return (move[2], 1)
                return (-guess(move[0]) if guess is not None else 0, 0)

            known.sort(key=estimate, reverse=True)
            self._order[state] = known
        return known

    def search(self, state: Any, path: int, alpha: int, beta: int) -> tuple[int, int]:
        """Fail-soft negamax of ``state`` reached along ``path`` (a bit set
        of the positions since the last capture), and the bit set of the
        positions whose presence on the path the result depends on."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise NodeLimit
        if not path and state in self.values:
            return self.values[state], 0
        lo, hi = self._lo[state], self._hi[state]
        if lo >= beta or lo == hi:  # whatever the path
            return lo, 0
        if hi <= alpha:
            return hi, 0
        entries = self._table.get(state)
        if entries:
            for tested, on_path, lower, upper in entries:
                if path & tested == on_path:
                    if lower == upper or lower >= beta:
                        return lower, tested
                    if upper <= alpha:
                        return upper, tested
        mover = state[2]
        moves = self.ordered(state)
        if not moves:  # the mover's row is empty: each takes his own row
            return row_margin(state, mover), 0
        own = self._bit[state]
        inside = path | own
        best = -INF
        tested = 0
        # what a fail low needs: an upper bound on each move that holds for
        # fewer positions on the path (``weak``, ``weak_tested``)
        weak = -INF
        weak_tested = 0
        for child, repetition, exit_value in moves:
            depends = 0
            if exit_value is not None:
                value = value_up = value_down = exit_value
                robust = 0
            else:
                bit = self._bit[child]
                if inside & bit:  # a repetition ends the game
                    value = repetition
                    depends = bit
                    # were the child not on the path the move would be worth
                    # -hi(child) .. -lo(child): a bound that holds either way
                    value_up = max(value, -self._lo[child])
                    value_down = min(value, -self._hi[child])
                    robust = 0
                else:
                    found, below = self.search(child, inside, -beta, -max(alpha, best))
                    value = -found
                    robust = below & ~own
                    depends = bit | robust
                    # were the child on the path the move would be worth
                    # the repetition: a bound that holds either way
                    value_up = max(value, repetition)
                    value_down = min(value, repetition)
            if not self.robust:
                value_up, value_down, robust = INF, -INF, depends
            if value_up <= alpha and robust != depends:
                weak = max(weak, value_up)
                weak_tested |= robust
            else:
                weak = max(weak, value)
                weak_tested |= depends
            tested |= depends
            if value > best:
                best = value
                if best >= beta:  # the lower bound rests on this move alone
                    if value_down >= beta and robust != depends:
                        best, tested = value_down, robust
                    else:
                        tested = depends
                    break
        if best <= alpha:  # a fail low: the bound that rests on fewer positions
            best, tested = weak, weak_tested
        lower = best if best > alpha else -INF
        upper = best if best < beta else INF
        if not tested and self.tighten:  # a bound whatever the path: keep it for good
            self._lo[state] = max(lo, lower)
            self._hi[state] = min(hi, upper)
            if self.propagate and self.bounded:
                self.settle(self._lo, self._hi, [p for p in self._parents[state]
                                                 if self._lo[p] < self._hi[p]])
            return best, 0
        entries = self._table.setdefault(state, [])
        entries.append((tested, path & tested, lower, upper))
        if len(entries) > self.ENTRIES:
            del entries[0]
        return best, tested


class NaiveSolver(ExhaustiveSolver):
    """The negamax over every line, without the table and searching both
    sides to move: slow, and there to check the others against (tests)."""

    symmetric = False
    bounded = False

    def search(self, state: Any, path: int, alpha: int, beta: int) -> tuple[int, int]:
        self.nodes += 1
        if not path and state in self.values:
            return self.values[state], 0
        mover = state[2]
        moves = self.children(state)
        if not moves:
            return row_margin(state, mover), 0
        inside = path | self._bit[state]
        best = -INF
        for child, gain in moves:
            if child[1] != (0, 0):
                value = gain - self.values[(child[0], (0, 0), child[2])]
            elif inside & self._bit[child]:
                value = row_margin(child, mover)
            elif self._comp[child] != self._comp[state]:
                value = -self.top(child)
            else:
                value = -self.search(child, inside, -beta, -max(alpha, best))[0]
            if value > best:
                best = value
                if best >= beta:
                    break
        return best, 0
