"""The search facade: what bots, the protocol and the command line call.

    >>> from bingwa.engine import Position
    >>> from bingwa.engine.limits import Limits
    >>> searcher = Searcher(hash_mb=16)
    >>> result = searcher.search(Position("oware"), Limits(depth=8))
    >>> result.best in [m.text for m in Position("oware").legal_moves()]
    True

A Searcher owns one compiled search (search.pyx: its transposition table and
move-ordering memory) and drives it one iteration at a time: it owns the
clock (timeman.py), reports each completed iteration through ``emit``
(one Info per principal variation), and stops when the limits say so or the
``stop_event`` is set (the compiled search polls it with the GIL released in
between, so a protocol thread stays responsive).

Scores in the reports are from the side to move: ``score_cp`` is 100 x the
expected final seed margin; a proven end also sets ``score_mate`` (the
side to move wins within that many plies against any play, or loses
within -score_mate) and then ``score_cp`` is 100 x the final margin of the
line shown, not a proven margin (docs/search.md); a proven draw sets
``score_draw`` (plies to the drawn end, proofs.py) with ``score_cp`` 0. A
result read from an endgame database (``set_tablebase``, right after a
capture: docs/databases.md) has an exact margin and no known distance:
``score_cp`` is 100 x that margin, ``score_mate`` stays None, and
``tbhits`` counts the probes that decided a node.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import ExtensionMissingError
from .kernel import compiled_module
from .limits import Info, Limits, SearchResult
from .position import Position
from .proofs import DrawProver
from .timeman import TimeManager, ponderhit_ms

DEFAULT_HASH_MB = 16
MAX_HASH_MB = 65536
MAX_THREADS = 256
# Lazy SMP (docs/search.md, "Threads"): helper i (1, 2, ...) skips the
# iterations of depth d where ((d + SKIP_PHASE[k]) // SKIP_SIZE[k]) is odd,
# k = (i - 1) % 20, so that helpers run ahead of the main thread at
# staggered depths and fill the shared table with what it will need
# (Stockfish 9's blocks).
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)
# The search's knobs (search.pyx Engine) and the engine's defaults:
# ``ext_pct``, the extension budget (captures and extra turns cost no depth
# while the line is shorter than this per cent of the depth); ``lmr``,
# late move reductions (0 off, 1 or 2 plies); ``capture_cost``, the
# quarter plies an extended capture costs (0: none), and
# ``capture_cost_pv`` what it costs at a principal-variation node (-1:
# ``capture_cost``'s); ``rfp``, the margin (centi-seeds per ply) of reverse
# futility pruning (0: off). (Futility pruning, ``futility``, was removed in
# issue 28: off in every variant, its SPRTs showed no gain, docs/strength.md.)
SEARCH_KNOBS = {"ext_pct": 200, "lmr": 0, "capture_cost": 0, "rfp": 0, "capture_cost_pv": -1}
# Per variant, the knobs an SPRT chose over the defaults (docs/strength.md):
# Oware's two-ply reductions won 27.5 Elo [+8.7, +46.4] over 1000 games at
# fixed nodes (Kalah +13.9 [-8.1, +36.0], Ayoayo +0.9 [-13.7, +15.4], Bao
# -10.4 [-51.0, +29.9]: not shown, so not there). Oware's budget of 150 won
# 45 Elo [+19, +72] with the old evaluation, then lost 31 [-58, -5] with the
# tuned one; a capture costing half a ply lost 42 [-72, -12]. Reverse
# futility at 100 won 50.6 [+28.1, +73.5] in Oware (H1), 51.6 [+26.1, +77.7]
# in Kalah and 20.0 [+4.9, +35.2] in Ayoayo, at fixed nodes (Bao -25.5
# [-65.9, +14.2], Kujifunza nothing either way: off there). Oware's
# captures cost half a ply off the principal variation and nothing on it:
# +23.3 [+4.0, +42.7] over 1000 games at 20 000 nodes, +29.6 [+7.3, +52.1]
# over 600 at 100 000, and depth 15 instead of 12 in a second from the start;
# in Kalah +37.7 [+20.4, +55.3] (H1, 730 games at 20 000 nodes), in Bao
# +122.9 [+86.2, +162.5] (H1, 312 games), in Kujifunza against the base
# revision +9.7 [+4.0, +15.5] (1000 games); in Ayoayo -13.2 [-22.6, -3.8]
# (1000 games): not there.
VARIANT_KNOBS: dict[str, dict[str, int]] = {
    "oware": {"lmr": 2, "rfp": 100, "capture_cost": 2, "capture_cost_pv": 0},
    "kalah": {"rfp": 100, "capture_cost": 2, "capture_cost_pv": 0},
    "ayoayo": {"rfp": 100},
    "bao": {"capture_cost": 2, "capture_cost_pv": 0},
    "kujifunza": {"capture_cost": 2, "capture_cost_pv": 0},
}

# Kalah with ``Kalah Endgames``: the solver may spend this share of a
# move's (soft) time, or of its node limit, on the root's exact value
# before the search (docs/solving.md, "Perfect play in the engine")
ROOT_SOLVE_SHARE = 0.1
# Kalah with ``Kalah Endgames``: the solver's databases are built on the
# clock, for this share of a move's (soft) time, a level cut short going on
# at the next move (all of them at once with no clock: a node or depth
# limit, analysis),
# once the root has at most BUILD_REACH seeds more in the pits than they
# hold (a search from further away barely reaches them)
BUILD_SHARE = 0.5
BUILD_REACH = 24
# ... and on a game clock, only the levels foreseen to take at most this
# share of the time left (with BUILD_CLOCK_MOVES increments): at --tc
# 1+0.01 the build would otherwise take half of every move for the rest
# of the game and never finish
BUILD_CLOCK_SHARE = 0.25
BUILD_CLOCK_MOVES = 20
# after a root of S seeds in the pits went unsolved, the next try waits for
# a root of at most S - UNSOLVED_GAP (or a larger budget, or more
# databases): a failed try costs its share of the search, and seeds leave
# the pits slowly
UNSOLVED_GAP = 3

Emit = Callable[[Info], None]

BOUND_NAMES = {1: "upperbound", 2: "lowerbound"}


def _search_module() -> Any:
    module = compiled_module_search()
    if module is None:
        raise ExtensionMissingError(
            "the search is compiled code (bingwa.engine.search) and it is not built: "
            "run `python setup.py build_ext --inplace`"
        )
    return module


def compiled_module_search() -> Any | None:
    try:
        return importlib.import_module(f"{__package__}.search")
    except ImportError:
        return None


def search_kernel(variant: Any) -> Any:
    """The compiled kernel of ``variant`` (the search needs one even when
    the Position plays with the pure rules: both take the same states)."""
    if variant.compiled:
        return variant.kernel
    module = compiled_module(variant.kernel_module)
    if module is None:
        raise ExtensionMissingError(
            f"the search needs the compiled {variant.name} kernel "
            f"(bingwa.engine._{variant.kernel_module}), which is not built"
        )
    return variant.compiled_kernel(module)


@dataclass
class Line:
    """One ranked root move of the last completed iteration."""

    move: str
    score: int  # internal score (see search.pyx)
    info: Info
    pv: list[str] = field(default_factory=list)


def describe_score(score: int) -> tuple[int, int | None]:
    """(score_cp, score_mate) of an internal score."""
    module = _search_module()
    plies, margin = module.decode_score(score)
    if plies is None:
        return score, None
    if plies >= module.TABLEBASE_PLIES:  # an endgame database's: no distance
        return 100 * margin, None
    return 100 * margin, (plies if score > 0 else -plies)


def pv_texts(position: Position, codes: list[int]) -> list[str]:
    """The move texts of a line of move codes from ``position``."""
    variant = position.variant
    kernel = variant.kernel
    state = position.state
    texts = []
    for code in codes:
        texts.append(variant.format_move(code, state))
        state = kernel.play(state, code)
    return texts


def _helper_search(engine: Any, index: int, depth_cap: int) -> None:
    """A helper thread: iterative deepening at staggered depths until the
    main thread stops it (the compiled search runs without the GIL)."""
    for depth in range(1, depth_cap + 1):
        if helper_skips(index, depth):
            continue
        if not engine.iterate(depth, 1):
            return


def helper_skips(helper: int, depth: int) -> bool:
    """Whether helper thread ``helper`` (1, 2, ...) skips the iteration of
    ``depth``."""
    k = (helper - 1) % len(SKIP_SIZE)
    return ((depth + SKIP_PHASE[k]) // SKIP_SIZE[k]) % 2 == 1


def variant_seeds(position: Position) -> int:
    """Seeds on the board of a two-row position."""
    return int(sum(position.state[0]))


class Searcher:
    """Alpha-beta search with a transposition table of ``hash_mb`` MiB,
    on ``threads`` threads sharing it (1: one, deterministic)."""

    def __init__(self, hash_mb: int = DEFAULT_HASH_MB, threads: int = 1) -> None:
        self._module = _search_module()
        if not 1 <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash size must be in 1..{MAX_HASH_MB} MB, not {hash_mb}")
        self.engine = self._module.Engine(hash_mb)
        self.hash_mb = hash_mb
        # Lazy SMP: the helpers' engines search the main one's table
        self._helpers: list[Any] = []
        self.set_threads(threads)
        self.lines: list[Line] = []
        self.nodes = 0
        self.proof_nodes = 0  # nodes of the draw proofs (proofs.py), apart from ``nodes``
        self.tbhits = 0
        self.tablebase: Any = None  # an _owaredb.Tablebase probed in Oware (None: none)
        self.kalah_endgames: Any = None  # a solvers.KalahSolver probed in Kalah (None: none)
        # knobs set here override the variant's (experiments: benchmarks/knob_engine.py)
        self.knobs: dict[str, int] = {}
        self._kernels: dict[str, Any] = {}
        self._active: list[Any] = [self.engine]  # the engines of the last search
        # the last root the Kalah solver could not finish: (seeds, budget,
        # databases built),
        # and the seeds in the pits of the last root it was asked about
        self._unsolved: tuple[int, float, int] | None = None
        self._last_seeds: int | None = None

    # -- housekeeping --------------------------------------------------------
    def resize(self, hash_mb: int) -> None:
        """A new, empty table of ``hash_mb`` MiB."""
        if not 1 <= hash_mb <= MAX_HASH_MB:
            raise ValueError(f"hash size must be in 1..{MAX_HASH_MB} MB, not {hash_mb}")
        self.engine.resize(hash_mb)
        self.hash_mb = hash_mb

    @property
    def table_bytes(self) -> int:
        return int(self.engine.table_bytes)

    @property
    def threads(self) -> int:
        return 1 + len(self._helpers)

    def set_threads(self, threads: int) -> None:
        """Search on ``threads`` threads from the next search on: the main
        one and ``threads - 1`` helpers sharing its table (Lazy SMP)."""
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be in 1..{MAX_THREADS}, not {threads}")
        while len(self._helpers) > threads - 1:
            self._helpers.pop()
        while len(self._helpers) < threads - 1:
            helper = self._module.Engine(1)
            helper.share_table(self.engine)
            helper.set_qsearch(bool(self.engine.qsearch_enabled))
            self._helpers.append(helper)

    def new_game(self) -> None:
        """Forget the last game: table, killers, history."""
        self.engine.clear()
        self._unsolved = self._last_seeds = None
        if self.kalah_endgames is not None:
            self.kalah_endgames.solver.clear()
        for helper in self._helpers:
            helper.clear()

    def stop(self) -> None:
        """Stop the running search (safe from any thread): the main thread
        stops the helpers when it returns."""
        self.engine.stop()

    def set_qsearch(self, enabled: bool) -> None:
        for engine in [self.engine, *self._helpers]:
            engine.set_qsearch(enabled)

    def set_tablebase(self, tablebase: Any) -> None:
        """Probe ``tablebase`` (engine/tablebase.py; None: none) in the
        Oware games of its grand-slam rule."""
        self.tablebase = tablebase

    def set_kalah_endgames(self, solver: Any) -> None:
        """Probe ``solver``'s databases (an engine.solvers.KalahSolver; None:
        none) at every node of the Kalah games of its board: exact values,
        Kalah having no repetitions."""
        self.kalah_endgames = solver

    def _tablebase_for(self, position: Position) -> Any:
        """The databases that hold ``position``'s rules, or None."""
        variant = position.variant
        if variant.name == "kalah":
            solver = self.kalah_endgames
            if solver is None or not solver.plays(variant):
                return None
            return solver.solver
        tb = self.tablebase
        if tb is None or variant.name != "oware" or getattr(variant, "grandslam", None) != tb.grandslam:
            return None
        return tb

    def _kernel(self, position: Position) -> Any:
        spec = position.variant.spec()
        kernel = self._kernels.get(spec)
        if kernel is None:
            kernel = self._kernels[spec] = search_kernel(position.variant)
        return kernel

    def _start(
        self, position: Position, searchmoves: list[str] | None = None, helpers: bool = False
    ) -> int:
        """Set up the main engine (and with ``helpers`` the helpers: the
        main one first, which starts the table's new search)."""
        chosen = VARIANT_KNOBS.get(position.variant.name, {})
        codes = None
        if searchmoves:
            wanted = set(searchmoves)
            codes = [m.code for m in position.legal_moves() if m.text in wanted] or None
        tablebase = self._tablebase_for(position)
        kernel = self._kernel(position)
        history = position.history_keys()
        n_roots = 0
        for engine in [self.engine, *(self._helpers if helpers else [])]:
            for name, default in SEARCH_KNOBS.items():
                setattr(engine, name, self.knobs.get(name, chosen.get(name, default)))
            engine.set_tablebase(tablebase)
            n_roots = int(engine.start(kernel, position.state, history, codes))
        return n_roots

    def _run_helpers(self, depth_cap: int, deadline: float | None) -> list[threading.Thread]:
        """Start each helper's iterative deepening on its own thread."""
        threads = []
        for index, helper in enumerate(self._helpers, start=1):
            helper.set_limits(None, deadline, None)
            thread = threading.Thread(
                target=_helper_search, args=(helper, index, depth_cap),
                name=f"bingwa-helper-{index}", daemon=True,
            )
            thread.start()
            threads.append(thread)
        return threads

    def _total(self, name: str) -> int:
        """A counter (nodes, tbhits) summed over the threads of the search."""
        return sum(int(getattr(engine, name)) for engine in self._active)

    # -- the search ------------------------------------------------------------
    def search(
        self,
        position: Position,
        limits: Limits | None = None,
        emit: Emit | None = None,
        stop_event: threading.Event | None = None,
        *,
        multipv: int = 1,
        max_depth: int | None = None,
        max_nodes: int | None = None,
    ) -> SearchResult:
        """Search ``position`` within ``limits`` (and the caps ``max_depth``,
        ``max_nodes`` of a strength level); report each iteration through
        ``emit``. Returns the best move (None when the game is over)."""
        limits = limits or Limits()
        start = time.monotonic()
        self.lines = []
        self.nodes = 0
        self.proof_nodes = 0
        self.tbhits = 0
        if position.is_over():
            return SearchResult(None)
        timer = TimeManager(limits, position.turn, start,
                            position.variant.moves_left(position.state))
        node_cap = min((c for c in (limits.nodes, max_nodes) if c), default=None)
        self._build_endgames(position, limits, timer, start, stop_event)
        exact = None  # the root's exact value and the moves keeping it (Kalah Endgames)
        if self._solver_for_root(position, limits, multipv) is not None:
            exact = self._solve_root(position, timer, node_cap)
            if node_cap:
                node_cap = max(1, node_cap - self.nodes)
            if exact is not None and len(exact[1]) == 1:
                return self._solved(exact, self.nodes, emit, start)
        # a node limit searches on one thread: fixed-node searches stay
        # deterministic whatever ``threads`` is (docs/search.md, "Threads")
        parallel = bool(self._helpers) and node_cap is None
        n_roots = self._start(position, exact[1] if exact else limits.searchmoves, helpers=parallel)
        prover = DrawProver(self.engine, position, [m[0] for m in self.engine.root_moves()],
                            self._module.DEPTH_LIMIT)
        depth_cap = self._module.DEPTH_LIMIT
        for cap in (limits.depth, max_depth):
            if cap:
                depth_cap = min(depth_cap, max(1, cap))
        poll = stop_event.is_set if stop_event is not None else None
        self.engine.set_limits(node_cap, timer.hard_deadline, poll)
        multipv = max(1, min(multipv, n_roots))
        waits_for_stop = limits.infinite or limits.ponder
        timed = not waits_for_stop and not limits.depth and (
            timer.budget.soft_ms is not None
        )

        self._active = [self.engine]
        helpers = self._run_helpers(depth_cap, timer.hard_deadline) if parallel and n_roots > 1 else []
        self._active += self._helpers if helpers else []
        completed: list[Line] = []
        depth = 0
        try:
            for depth in range(1, depth_cap + 1):
                if stop_event is not None and stop_event.is_set():
                    break
                done = self.engine.iterate(depth, multipv)
                elapsed = time.monotonic() - start
                if not done:
                    break
                completed = self._lines(position, depth, multipv, elapsed)
                prover.prove(completed, depth)
                if emit is not None:
                    for line in completed:
                        emit(line.info)
                best = completed[0]
                timer.note_iteration(best.move, best.score)
                plies, _ = self._module.decode_score(best.score)
                if plies is None:
                    plies = best.info.score_draw
                if plies is not None and depth >= plies + 2 and not waits_for_stop:
                    break  # proven: deeper iterations cannot change it
                if timed and (n_roots == 1 or timer.should_stop()):
                    break
        finally:
            for helper in self._helpers:
                helper.stop()
            for thread in helpers:
                thread.join()
        elapsed = time.monotonic() - start
        self.nodes = self._total("nodes")
        self.proof_nodes = int(self.engine.proof_nodes)
        self.tbhits = self._total("tbhits")

        final = self._final_lines(position, completed, depth, multipv, elapsed)
        if exact is not None:
            self._mark_exact(final[0].info, exact, emit)
            if emit is not None:
                emit(final[0].info)
        self.lines = final
        if waits_for_stop and stop_event is not None:
            stop_event.wait()
        best = final[0]
        ponder = best.pv[1] if len(best.pv) > 1 else None
        return SearchResult(best.move, ponder, best.info)

    def _build_endgames(self, position: Position, limits: Limits, timer: TimeManager,
                        start: float, stop_event: threading.Event | None) -> None:
        """Build more of the Kalah solver's databases for this search
        (``BUILD_SHARE``, ``BUILD_REACH``): on a clock, for its share of
        the soft time (a level cut short goes on at the next move), and on
        a game clock only the levels foreseen to fit in its share of it
        (``BUILD_CLOCK_SHARE``); with none, every level; either until
        ``stop_event``."""
        solver = self.kalah_endgames
        if (solver is None or not solver.plays(position.variant)
                or solver.built_seeds >= solver.db_seeds
                or variant_seeds(position) > solver.db_seeds + BUILD_REACH):
            return
        stop = stop_event.is_set if stop_event is not None else None
        if limits.infinite or limits.nodes or limits.depth:
            solver.extend(stop=stop)
            return
        # a ponder search may become the move at once (ponderhit): its budget
        soft_ms = (ponderhit_ms(limits, position.turn, position.variant.moves_left(position.state))
                   if limits.ponder else timer.budget.soft_ms)
        left_ms, increment_ms = limits.clock(position.turn)
        upto = None
        if left_ms is not None:
            # on a game clock, only the levels foreseen to fit in its share
            # of the clock (a bullet game would spend it all building)
            upto = solver.seeds_within(
                (max(0, left_ms) + BUILD_CLOCK_MOVES * increment_ms) * BUILD_CLOCK_SHARE / 1000)
        solver.extend(None if soft_ms is None else start + soft_ms * BUILD_SHARE / 1000, stop,
                      upto)

    def _solver_for_root(self, position: Position, limits: Limits, multipv: int) -> Any:
        """The Kalah solver that may decide this search's root, or None:
        a move to play (not analysis: no ``infinite``, ``ponder``,
        ``depth``, ``searchmoves`` or MultiPV)."""
        solver = self.kalah_endgames
        if (solver is None or not solver.plays(position.variant) or multipv > 1
                or limits.searchmoves or limits.infinite or limits.ponder or limits.depth):
            return None
        return solver

    def _solve_root(self, position: Position, timer: TimeManager,
                    node_cap: int | None) -> tuple[int, list[str], list[str]] | None:
        """The Kalah solver's ``(value, keeping, line)`` of the root
        (solvers.KalahSolver.best_line) when it finds them within
        ``ROOT_SOLVE_SHARE`` of the budget (a node limit's nodes, else the
        soft time), or None; ``self.nodes``: the solver's nodes spent. After
        a root the solver gave up on, roots of more than its seeds less
        ``UNSOLVED_GAP`` are not tried with no larger budget and no more
        databases built (seeds in the pits only ever fall in a Kalah game:
        a root with more seeds than the last starts afresh, as a new game
        does)."""
        solver = self.kalah_endgames
        seeds = variant_seeds(position)
        if self._last_seeds is not None and seeds > self._last_seeds:
            # seeds never return to the pits: another game, without ucinewgame
            self._unsolved = None
            solver.solver.clear()
        self._last_seeds = seeds
        if node_cap:
            nodes, deadline, budget = max(1, int(node_cap * ROOT_SOLVE_SHARE)), 0.0, float(node_cap)
        elif timer.budget.soft_ms is not None:
            nodes, budget = 0, timer.budget.soft_ms
            # from now: a build of the databases (_build_endgames) may have
            # spent some of the move already
            deadline = time.monotonic() + budget * ROOT_SOLVE_SHARE / 1000
        else:
            return None
        if (self._unsolved is not None and seeds > self._unsolved[0] - UNSOLVED_GAP
                and budget <= self._unsolved[1] and solver.built_seeds <= self._unsolved[2]):
            return None
        before = solver.nodes
        found: tuple[int, list[str], list[str]] | None = solver.best_line(position, nodes, deadline)
        self.nodes = solver.nodes - before
        if found is None:
            self._unsolved = (seeds, budget, solver.built_seeds)
        return found

    def _solved(self, exact: tuple[int, list[str], list[str]], nodes: int, emit: Emit | None,
                start: float) -> SearchResult:
        """The answer when one move alone keeps the root's exact value."""
        value, _keeping, pv = exact
        module = self._module
        score = 0 if value == 0 else (1 if value > 0 else -1) * (
            module.MATE_SCORE - module.TABLEBASE_PLIES * module.SPAN + min(abs(value), module.SPAN - 1))
        elapsed = time.monotonic() - start
        info = Info(depth=len(pv), seldepth=len(pv), nodes=nodes,
                    nps=int(nodes / elapsed) if elapsed > 0 else None, time=int(elapsed * 1000),
                    pv=pv)
        self._mark_exact(info, exact, emit)
        if emit is not None:
            emit(info)
        self.lines = [Line(pv[0], score, info, pv)]
        return SearchResult(pv[0], pv[1] if len(pv) > 1 else None, info)

    def _mark_exact(self, info: Info, exact: tuple[int, list[str], list[str]],
                    emit: Emit | None) -> None:
        """``info`` (of a move that keeps it) reports the root's exact value
        (a proven distance the search found stays)."""
        value, keeping, _line = exact
        if info.score_mate is None:
            info.score_cp, info.score_draw, info.bound = 100 * value, None, None
        info.tbhits = (info.tbhits or 0) + 1
        self.tbhits += 1
        if emit is not None:
            among = "the only move keeping it" if len(keeping) == 1 else (
                f"the search chose among the {len(keeping)} moves keeping it")
            emit(Info(string=f"exact: the Kalah solver's value {value:+d}, {among}"))

    def _lines(self, position: Position, depth: int, count: int, elapsed: float) -> list[Line]:
        """The first ``count`` root moves as reports."""
        lines = []
        nodes = self._total("nodes")
        hashfull = int(self.engine.hashfull())
        tbhits = self._total("tbhits") if self._tablebase_for(position) is not None else None
        for index, (_code, score, bound, codes, _searched) in enumerate(
            self.engine.root_moves()[:count]
        ):
            pv = pv_texts(position, codes)
            cp, mate = describe_score(score)
            info = Info(
                depth=depth,
                seldepth=max(depth, int(self.engine.seldepth)),
                multipv=index + 1 if count > 1 else None,
                score_cp=cp,
                score_mate=mate,
                bound=BOUND_NAMES.get(bound),
                nodes=nodes,
                nps=int(nodes / elapsed) if elapsed > 0 else None,
                time=int(elapsed * 1000),
                hashfull=hashfull,
                tbhits=tbhits,
                pv=pv,
            )
            lines.append(Line(pv[0], score, info, pv))
        return lines

    def _final_lines(
        self, position: Position, completed: list[Line], depth: int, count: int, elapsed: float
    ) -> list[Line]:
        """The lines to answer with: the last completed iteration, or the
        interrupted one when its first move was searched through (a move
        that beat the previous best in it is then better founded)."""
        roots = self.engine.root_moves()
        if roots and roots[0][4]:  # searched in the last (maybe interrupted) iteration
            first = pv_texts(position, [roots[0][0]])[0]
            if not completed or first != completed[0].move:
                partial = self._lines(position, depth, 1, elapsed)
                return partial + [c for c in completed if c.move != first][: count - 1]
        if completed:
            nodes = self.nodes
            for line in completed:
                line.info.nodes = nodes
                if line.info.tbhits is not None:
                    line.info.tbhits = self.tbhits
                line.info.time = int(elapsed * 1000)
                line.info.nps = int(nodes / elapsed) if elapsed > 0 else None
            return completed
        # not even the first iteration finished: the first legal move
        code = roots[0][0]
        text = pv_texts(position, [code])[0]
        return [Line(text, 0, Info(depth=0, nodes=self.nodes, pv=[text]), [text])]

    # -- the baseline --------------------------------------------------------------
    def minimax(
        self, position: Position, depth: int, stop_event: threading.Event | None = None
    ) -> list[tuple[str, int]]:
        """Every legal move with its plain fixed-depth minimax value (no
        pruning, no table), best first; stable for equal values."""
        if position.is_over():
            return []
        self._start(position)
        self._active = [self.engine]
        poll = stop_event.is_set if stop_event is not None else None
        self.engine.set_limits(None, None, poll)
        values = self.engine.minimax(depth)
        self.nodes = int(self.engine.nodes)
        scored = [(pv_texts(position, [code])[0], value) for code, value in values]
        scored.sort(key=lambda item: -item[1])
        return scored
