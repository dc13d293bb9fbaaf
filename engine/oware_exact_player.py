"""Exact move values with the game's own history, within the Oware
counts a build solved over every line (``--exact-seeds``,
engine/oware_exact.py; docs/databases.md, "Every line searched"): what
the ``perfect`` bot plays there and ``solve query -m`` prints."""

from __future__ import annotations

from array import array
from typing import Any

from .oware_exact import (
    _db,
    compiled_search,
    exact_graph,
    on_deep_stack,
    played_graph,
    solver_over,
)
from .oware_exhaustive import ExhaustiveSolver, NodeLimit
from .tablebase import (
    MoveValue,
    board_of,
    entry,
    plain_guess,
    plain_guess_data,
    plain_guesses_made,
)


class ExactPlayer:
    """Exact move values within the counts a build solved in full
    (``tablebase.searched``), with the game's own history: a move that
    captures is worth the smaller count's value, one that repeats a
    position since the last capture the repetition's margin, any other
    the value of the game after it along that path (the solver's search,
    the path given). Each count's solver is opened once and kept: the
    compiled ones of every count (about 30 MB for 1..8 seeds together; a
    process that plays many games, or boards of many counts, opens each
    once), the pure-Python one of the present count only."""

    def __init__(self, tablebase: Any, node_limit: int = 2_000_000) -> None:
        self.tablebase = tablebase
        self.node_limit = node_limit
        self._solvers: dict[int, ExhaustiveSolver] = {}
        self._compiled: dict[int, Any] = {}

    def compiled(self, seeds: int) -> Any | None:
        """The compiled search of ``seeds`` seeds (engine/_owareexact.pyx)
        over the files' exact values, opened once and kept; None where it
        is not built (the pure-Python solver plays then)."""
        module = compiled_search()
        if module is None:
            return None
        solver = self._compiled.get(seeds)
        if solver is None:
            rule = self.tablebase.grandslam
            db = _db()
            if isinstance(self.tablebase, db.Tablebase):  # the compiled rules: fast
                graph, values = played_graph(self.tablebase, seeds, plain_guess_data(seeds, rule))
            else:

                def value_of(board: tuple[int, ...]) -> int:
                    return int(self.tablebase.entry(board)[0])

                graph = exact_graph(value_of, seeds, rule, plain_guess(seeds, rule))
                values = array("b", (value_of(tuple(db.unrank(r, seeds)))
                                     for r in range(int(db.positions(seeds)))))
            solver = module.Solver(graph)
            solver.know(values)
            self._compiled[seeds] = solver
        return solver

    def stop(self) -> None:
        """End the search in progress at once (from another thread): it
        raises NodeLimit, and what it found before stays sound."""
        for solver in self._compiled.values():
            solver.stop()
        for python in self._solvers.values():
            python.node_limit = -1

    def opening_ms(self, seeds: int) -> float:
        """A foresight in ms of what opening the search of ``seeds`` seeds
        costs (0 once open): the guesses of the counts up to it (a
        sweeps-only build, ``plain_guess_data``, about 4 us a board where
        not yet made) and the move graph with its solver (about 1 us a
        position). Measured at 8 seeds on the loaded 2-core machine: 0.43
        to 0.54 s for the guesses of 0..8, 0.07 to 0.11 s for the graph,
        0.04 to 0.06 s for the solver. The pure-Python solver's graph is far
        slower (about 50 us a position)."""
        if seeds in self._compiled or seeds in self._solvers:
            return 0.0
        db = _db()
        made = plain_guesses_made(self.tablebase.grandslam)
        boards = sum(int(db.positions(n)) for n in range(made, seeds + 1))
        per_position = 0.001 if compiled_search() is not None else 0.05
        return 0.004 * boards + per_position * 2 * int(db.positions(seeds))

    def covers(self, state: Any) -> bool:
        return sum(state[0]) <= getattr(self.tablebase, "searched", -1)

    def solver(self, seeds: int) -> ExhaustiveSolver:
        solver = self._solvers.get(seeds)
        if solver is None:
            self._solvers.clear()  # one count at a time: the seeds only fall
            # ordered by the sweeps' guesses, not the exact values (plain_guess)
            solver = solver_over(lambda board: int(self.tablebase.entry(board)[0]), seeds,
                                 self.tablebase.grandslam,
                                 plain_guess(seeds, self.tablebase.grandslam), known=True)
            self._solvers[seeds] = solver
        return solver

    def guess(self, state: Any) -> int:
        """The value with no history: the likely one along a path too (the
        solver's move order and first null window)."""
        return int(self.tablebase.entry(board_of(state))[0])

    def path_bits(self, solver: ExhaustiveSolver, states: list[Any]) -> int:
        """The solver's bit set of ``states``. The solver gives bits only to
        the positions its bounds leave open (no search passes the others);
        a game's history may hold the others too, and a line that comes
        back to one ends there, so each gets a bit of its own, and the
        table, whose entries never tested those, is cleared."""
        path = 0
        for state in states:
            bit = solver._bit.get(state)
            if bit is None:
                continue  # another count: it cannot come again
            if not bit:
                bit = 1 << (max(solver._bit.values()).bit_length())
                solver._bit[state] = bit
                solver._table.clear()
            path |= bit
        return path

    def value_after(self, child: Any, history: list[Any], below: int | None = None) -> int:
        """The value for the side to move at ``child`` (a quiet move's
        child, scores zeroed) of the game reached along ``history`` (the
        positions since the last capture, ``child`` not among them). With
        ``below``: exact only where it is below it, else some bound at
        least ``below``. NodeLimit past ``node_limit`` nodes."""
        seeds = sum(child[0])
        fast = self.compiled(seeds)
        if fast is not None:
            db = _db()

            def index(state: Any) -> int:
                return 2 * int(db.rank(tuple(state[0]))) + state[2]

            places = [index(state) for state in history if sum(state[0]) == seeds]
            try:  # on a deep stack, Ctrl-C stopping it (on_deep_stack)
                return int(on_deep_stack(
                    lambda: fast.along(index(child), places, self.guess(child), below,
                                       self.node_limit), fast.stop))
            except compiled_search().SolveStopped:
                raise NodeLimit from None
        solver = self.solver(seeds)
        path = self.path_bits(solver, history)
        solver.node_limit = solver.nodes + self.node_limit
        try:
            lower, upper = solver._lo[child], solver._hi[child]
            if below is not None:
                if lower >= below:
                    return lower
                if upper >= below:  # one null window: is it below?
                    found = solver.search(child, path, below - 1, below)[0]
                    if found >= below:
                        return found
                    upper = found
            # MTD(f) from the game's value with no history (the likely one)
            value = min(max(self.guess(child), lower), upper)
            while lower < upper:
                beta = value + 1 if value == lower else value
                value = solver.search(child, path, beta - 1, beta)[0]
                if value < beta:
                    upper = value
                else:
                    lower = value
            return lower
        finally:
            solver.node_limit = None

    def move_values(self, position: Any, best_only: bool = False,
                    allowed: set[str] | None = None) -> list[Any]:
        """The legal moves of ``position`` (those of ``allowed``) with the
        final margin each leads to for the mover with perfect play after
        it, the game's history counted (tablebase.MoveValue). With
        ``best_only`` only a best move is sure to be there (a quiet move
        shown no better than the best so far by one null window is left
        out). NodeLimit where the solver's budget runs out."""
        state = position.state
        mover = state[2]
        history = [(tuple(state[0]), (0, 0), mover)]
        for before in reversed(position.history()):
            if before[1] != state[1]:
                break  # a capture came between: nothing before it can repeat
            history.append((tuple(before[0]), (0, 0), before[2]))
        base = state[1][mover] - state[1][1 - mover]
        out = []
        quiet = []
        for move in position.legal_moves():
            if allowed is not None and move.text not in allowed:
                continue
            child = position.play(move)
            scores = child.state[1]
            capture = scores != state[1]
            outcome = child.outcome()
            if outcome is not None:
                out.append(MoveValue(move.text, outcome.margin(mover), capture, True))
            elif capture:
                value = scores[mover] - scores[1 - mover] - entry(self.tablebase, child.state).value
                out.append(MoveValue(move.text, value, True, False))
            else:
                after = (tuple(child.state[0]), (0, 0), 1 - mover)
                quiet.append((self.guess(after), move.text, after))
        for _, text, after in sorted(quiet):  # the likely best first
            best = max((v.value for v in out), default=None)
            if best_only and best is not None:
                found = self.value_after(after, history, below=base - best)
                if found >= base - best:
                    continue  # no better than the best so far
            else:
                found = self.value_after(after, history)
            out.append(MoveValue(text, base - found, False, False))
        return out


__all__ = ["ExactPlayer", "NodeLimit"]
