"""An exhaustive, history-aware solver of small Oware endgames, written
apart from the databases (tests and benchmarks/databases.py compare them).

It plays bingwa's rules through the pure-Python kernel (oware.OwareRules)
on states whose scores are (0, 0), so the "more than 24" end never comes
(the databases' game), and ends a game when a position repeats, each side
taking his own row (oware.own_rows_scores), as Position does. The value
of a position is the game started there, with no history: a negamax over
every line, the path since the last capture remembered.

Two facts keep it finite and fast enough for a few seeds: a capture
lowers the seeds, so a position after one is solved once with an empty
history; and a position can only repeat inside its own strongly connected
component of the capture-free moves, so leaving it forgets the path.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from bingwa.engine.oware import OwareRules, own_rows_scores

INF = 99


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


class ExhaustiveSolver:
    """Values of every position of 0..max_seeds seeds (both sides to move),
    seed count by seed count. ``guess(state)`` may propose each value: it
    only chooses the null-window searches that confirm it (a wrong guess
    costs time, never a wrong value)."""

    def __init__(self, grandslam: int = 0, guess: Callable[[Any], int] | None = None) -> None:
        self.rules = OwareRules(grandslam)
        self.guess = guess
        self.values: dict[Any, int] = {}
        self.nodes = 0
        self._children: dict[Any, list[tuple[Any, int]]] = {}
        self._comp: dict[Any, int] = {}

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
        sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
        for seeds in range(max_seeds + 1):
            states = [(b, (0, 0), side) for b in boards(seeds) for side in (0, 1)]
            self._comp = components(
                states, lambda s: [c for c, _ in self.children(s) if c[1] == (0, 0)]
            )
            for state in states:
                self.top(state)
            self._children.clear()
        return self.values

    def top(self, state: Any) -> int:
        """The value with no history."""
        if state not in self.values:
            guess = self.guess(state) if self.guess is not None else None
            empty: frozenset[Any] = frozenset()
            if (guess is not None and self.search(state, empty, guess - 1, guess) >= guess
                    and self.search(state, empty, guess, guess + 1) <= guess):
                self.values[state] = guess
            else:
                self.values[state] = self.search(state, empty, -INF, INF)
        return self.values[state]

    def search(self, state: Any, path: frozenset[Any], alpha: int, beta: int) -> int:
        """Fail-soft negamax of ``state`` reached along ``path`` (the
        positions since the last capture that can still repeat)."""
        self.nodes += 1
        if not path and state in self.values:
            return self.values[state]
        mover = state[2]
        children = self.children(state)
        if not children:  # the mover's row is empty: each takes his own row
            scores = own_rows_scores(state)
            return scores[mover] - scores[1 - mover]
        inside = path | {state}
        best = -INF
        for child, gain in children:
            if child[1] != (0, 0):  # a capture: fewer seeds, a fresh history
                value = gain - self.values[(child[0], (0, 0), child[2])]
            elif child in inside:  # a repetition ends the game
                scores = own_rows_scores(child)
                value = scores[mover] - scores[1 - mover]
            elif self._comp[child] != self._comp[state]:
                value = -self.top(child)
            else:
                value = -self.search(child, inside, -beta, -max(alpha, best))
            if value > best:
                best = value
                if best >= beta:
                    break
        return best
