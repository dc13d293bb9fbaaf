"""The ``mcts`` bot: UCT with random playouts (bots/_mcts.pyx, on the
kernel interface of every variant) and its pure-Python twin.

Budget of one ``go``, first that applies:

- ``nodes N``: N simulations;
- ``movetime`` or the clocks: the time manager's soft budget
  (engine/timeman.py: a ``movetime`` less the move overhead, a share of
  the clock);
- ``infinite`` / ``ponder``: until ``stop``;
- otherwise (``depth`` alone, or nothing): the ``MoveTime`` option when it is
  set, else the ``Simulations`` option. MCTS has no depth; ``depth`` does not
  change the budget.

The random numbers of one search are seeded by the ``Seed`` option mixed with
the position's key, so the same seed, position and simulation count give the
same move (and the same tree) every time, compiled or pure.

Reports: ``depth`` is the deepest path of the tree, ``nodes`` the
simulations, ``score cp`` 100 x the mean final seed margin of the chosen
move's playouts (side to move's view), ``pv`` the most-visited line.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace
from typing import Any

from bingwa.engine import Position
from bingwa.engine.kernel import compiled_module, use_compiled
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.timeman import allocate

from .base import Bot, BotOption, Emit

MASK64 = (1 << 64) - 1
MAX_PLAYOUT = 2000  # as in _mcts.pyx
MAX_DEPTH = 256  # MAX_PLY of engine/core.pxd
REPORT_EVERY = 0.25  # seconds between two progress reports
BATCH = 2048  # simulations between two looks at ``stop``


def splitmix64(state: list[int]) -> int:
    """The next number of the generator whose state is ``state[0]``."""
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & MASK64
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class PureUCTSearch:
    """The algorithm of _mcts.UCTSearch on a pure-Python kernel: the same
    random numbers and tie-breaks, so both build the same tree."""

    def __init__(self, variant: Any, kernel: Any, state: Any, history_keys: list[int],
                 allowed: list[int], seed: int, exploration: float, max_nodes: int) -> None:
        self.kernel = kernel
        self.variant = variant
        self.root = state
        self.rng = [seed & MASK64]
        self.exploration = exploration
        self.max_nodes = max(max_nodes, 2)
        self.history = set(history_keys)
        self.repetition = variant.repetition_ends_game
        self.simulations = 0
        self.max_depth = 0
        # parallel arrays, one entry a node
        self.first_child = [-1]
        self.n_children = [0]
        self.move = [-1]
        self.mover = [1 - variant.side_to_move(state)]
        self.terminal = [False]
        self.score: list[tuple[int, int]] = [(0, 0)]
        self.visits = [0]
        self.wins = [0.0]
        self.margin = [0.0]
        self.expand(0, state)
        if allowed:
            wanted = set(allowed)
            first = self.first_child[0]
            kept = [i for i in range(first, first + self.n_children[0]) if self.move[i] in wanted]
            for k, i in enumerate(kept):
                self.move[first + k] = self.move[i]
            self.n_children[0] = len(kept)
        if not self.n_children[0]:
            raise ValueError("the root position has no legal move to search")

    @property
    def nodes_used(self) -> int:
        return len(self.move)

    def expand(self, index: int, state: Any) -> bool:
        moves = self.kernel.legal_moves(state)
        if len(self.move) + len(moves) > self.max_nodes:
            return False
        mover = self.variant.side_to_move(state)
        self.first_child[index] = len(self.move)
        self.n_children[index] = len(moves)
        for move in moves:
            self.first_child.append(-1)
            self.n_children.append(0)
            self.move.append(move)
            self.mover.append(mover)
            self.terminal.append(False)
            self.score.append((0, 0))
            self.visits.append(0)
            self.wins.append(0.0)
            self.margin.append(0.0)
        return True

    def select(self, index: int) -> int:
        first, n = self.first_child[index], self.n_children[index]
        children = range(first, first + n)
        unvisited = [i for i in children if not self.visits[i]]
        if unvisited:
            return unvisited[splitmix64(self.rng) % len(unvisited)]
        log_n = math.log(self.visits[index])
        best, best_value = first, -1.0
        for i in children:
            value = self.wins[i] / self.visits[i] + self.exploration * math.sqrt(
                log_n / self.visits[i]
            )
            if value > best_value:
                best, best_value = i, value
        return best

    def playout(self, state: Any) -> tuple[int, int]:
        kernel = self.kernel
        for _ in range(MAX_PLAYOUT):
            code, south, north = kernel.result(state)
            if code:
                return south, north
            moves = kernel.legal_moves(state)
            state = kernel.play(state, moves[splitmix64(self.rng) % len(moves)])
        if self.repetition:
            return self.variant.repetition_scores(state)
        _, south, north = kernel.result(state)
        return south, north

    def simulate(self) -> None:
        kernel = self.kernel
        state = self.root
        index, depth = 0, 0
        path = [0]
        keys = [kernel.key(state)]
        while True:
            if self.terminal[index]:
                scores = self.score[index]
                break
            if self.first_child[index] < 0 and (
                not self.visits[index]
                or depth >= MAX_DEPTH - 1
                or not self.expand(index, state)
                or not self.n_children[index]
            ):
                scores = self.playout(state)
                break
            index = self.select(index)
            state = kernel.play(state, self.move[index])
            depth += 1
            path.append(index)
            key = kernel.key(state)
            if not self.visits[index]:
                if self.repetition and (key in keys or key in self.history):
                    self.terminal[index] = True
                    self.score[index] = self.variant.repetition_scores(state)
                else:
                    code, south, north = kernel.result(state)
                    if code:
                        self.terminal[index] = True
                        self.score[index] = (south, north)
            keys.append(key)
        self.max_depth = max(self.max_depth, depth)
        for i in path:
            side = self.mover[i]
            mine, theirs = scores[side], scores[1 - side]
            self.visits[i] += 1
            self.wins[i] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            self.margin[i] += mine - theirs
        self.simulations += 1

    def run(self, simulations: int, seconds: float = 0.0) -> int:
        deadline = time.monotonic() + seconds if seconds > 0 else 0.0
        done = 0
        while done < simulations:
            self.simulate()
            done += 1
            if deadline and done % 16 == 0 and time.monotonic() >= deadline:
                break
        return done

    def children(self) -> list[tuple[int, int, float, float]]:
        first = self.first_child[0]
        return [
            (self.move[i], self.visits[i], self.wins[i], self.margin[i])
            for i in range(first, first + self.n_children[0])
        ]

    def principal_variation(self, length: int = 32) -> list[int]:
        line: list[int] = []
        index = 0
        while len(line) < length and self.first_child[index] >= 0 and self.n_children[index]:
            first = self.first_child[index]
            best = first
            for i in range(first + 1, first + self.n_children[index]):
                if self.visits[i] > self.visits[best] or (
                    self.visits[i] == self.visits[best] and self.wins[i] > self.wins[best]
                ):
                    best = i
            if not self.visits[best]:
                break
            line.append(self.move[best])
            index = best
        return line


def make_search(position: Position, allowed: list[int], seed: int, exploration: float,
                max_nodes: int, compiled: bool | None = None) -> Any:
    """A UCT search of ``position``: compiled where the kernel and _mcts are
    built (and BINGWA_PURE is off), else the pure twin."""
    variant = position.variant
    if compiled is None:
        compiled = use_compiled()
    if compiled:
        mcts = compiled_module_mcts()
        module = compiled_module(variant.kernel_module)
        if mcts is not None and module is not None:
            kernel = variant.compiled_kernel(module)
            return mcts.UCTSearch(kernel, position.state, position.history_keys(), allowed,
                                  seed, exploration, max_nodes)
    kernel = variant.pure_kernel()
    return PureUCTSearch(variant, kernel, position.state, position.history_keys(), allowed,
                         seed, exploration, max_nodes)


def compiled_module_mcts() -> Any:
    try:
        from . import _mcts  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _mcts


class MCTSBot(Bot):
    name = "mcts"
    summary = "UCT Monte Carlo tree search with random playouts (compiled, seeded)"

    def options(self) -> list[BotOption]:
        return [
            BotOption("Simulations", "spin", 20000, 1, 100_000_000,
                      help="simulations a move when no time is given"),
            BotOption("MoveTime", "spin", 0, 0, 3_600_000,
                      help="ms a move when no limit is given (0: use Simulations)"),
            BotOption("Exploration", "spin", 141, 0, 10_000,
                      help="UCB exploration constant, in hundredths (141 = 1.41)"),
            BotOption("MaxNodes", "spin", 1 << 21, 1000, 1 << 26,
                      help="tree size cap (nodes); playouts go on from the leaves"),
            BotOption("Move Overhead", "spin", 10, 0, 5000, help="ms kept back for I/O"),
            BotOption("Seed", "spin", 0, 0, 2**31 - 1, help="random seed"),
        ]

    def budget(self, position: Position, limits: Limits) -> tuple[int | None, float | None]:
        """(simulations, seconds); None for no limit of that kind. Time
        comes from the time manager (engine/timeman.py: its soft budget,
        which is all of a ``movetime`` less the move overhead)."""
        if limits.infinite or limits.ponder:
            return None, None
        if limits.nodes:
            return limits.nodes, None
        if limits.move_overhead is None:  # not set by a protocol server: our option
            limits = replace(limits, move_overhead=self.option("Move Overhead"))
        budget = allocate(limits, position.turn, position.variant.moves_left(position.state))
        if budget.soft_ms is not None:
            return None, budget.soft_ms / 1000
        if self.option("MoveTime"):
            return None, self.option("MoveTime") / 1000
        return self.option("Simulations"), None

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        moves = self.candidate_moves(position, limits)
        if not moves:
            return SearchResult(None)
        unbounded = limits.infinite or limits.ponder
        if len(moves) == 1 and not unbounded:
            emit(Info(depth=1, nodes=0, pv=[moves[0].text]))
            return SearchResult(moves[0].text)
        allowed = [m.code for m in moves] if limits.searchmoves else []
        seed = (self.option("Seed") * 0x9E3779B97F4A7C15 ^ position.key) & MASK64
        search = make_search(position, allowed, seed, self.option("Exploration") / 100,
                             self.option("MaxNodes"))
        simulations, seconds = self.budget(position, limits)
        start = time.monotonic()
        deadline = start + seconds if seconds is not None else None
        last_report = start
        while not stop.is_set():
            batch = BATCH
            if simulations is not None:
                batch = min(batch, simulations - search.simulations)
                if batch <= 0:
                    break
            slice_s = 0.05
            if deadline is not None:
                slice_s = min(slice_s, deadline - time.monotonic())
                if slice_s <= 0:
                    break
            search.run(batch, slice_s)
            now = time.monotonic()
            if now - last_report >= REPORT_EVERY:
                emit(self.report(position, search, now - start))
                last_report = now
        if unbounded:
            stop.wait()  # the protocol: no bestmove before stop
        info = self.report(position, search, time.monotonic() - start)
        emit(info)
        return SearchResult(info.pv[0], info.pv[1] if len(info.pv) > 1 else None, info)

    def report(self, position: Position, search: Any, elapsed: float) -> Info:
        # the most-visited move (more wins, then move order, breaks ties),
        # which is where principal_variation starts too
        best = max(search.children(), key=lambda c: (c[1], c[2]))
        pv = pv_texts(position, search.principal_variation() or [best[0]])
        score = round(100 * best[3] / best[1]) if best[1] else 0
        ms = int(elapsed * 1000)
        nodes = search.simulations
        return Info(depth=max(search.max_depth, 1), score_cp=score, nodes=nodes,
                    nps=int(nodes / elapsed) if elapsed > 0 else 0, time=ms, pv=pv)


def pv_texts(position: Position, codes: list[int]) -> list[str]:
    """Move codes played from ``position`` as move texts (stops at the first
    code that is not legal, which cannot happen in a tree of legal moves)."""
    pos = position.copy()
    texts = []
    for code in codes:
        found = next((m for m in pos.legal_moves() if m.code == code), None)
        if found is None:
            break
        pos.push(found)
        texts.append(found.text)
    return texts


__all__ = ["MCTSBot", "PureUCTSearch", "make_search"]
