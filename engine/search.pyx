# cython: language_level=3
"""The one alpha-beta search of bingwa, for every variant.

It reaches a variant only through the ``Ops`` function pointers of its
compiled kernel (core.pxd): no copy of the search per variant. The search is
a negamax with principal variation search (PVS), driven one iteration at a
time by the Python facade (searcher.py), which owns the clock and reports
progress between iterations. Within an iteration the GIL is released; the
stop flag, the node limit and the hard deadline are checked at every node
(the clock every 1024 nodes) and a Python ``poll`` (the protocol's stop
event) every 2 ms.

Invariant: ``search(s, ply, depth, alpha, beta)`` returns the value of ``s``
for the side to move in ``s``, exact when strictly inside (alpha, beta), an
upper bound when <= alpha, a lower bound when >= beta. Turns are never
assumed to alternate: a child's value is negated (and the window flipped)
only when the child's side to move differs from the parent's (Kalah's extra
turns, Bao's multi-step turns).

Moves that keep the turn or capture cost no depth (within ``ext_pct`` per
cent of the iteration's depth: 200; ``capture_cost`` can make a capture cost a
fraction of a ply instead, and ``capture_cost_pv`` another at
principal-variation nodes); captures are searched past the horizon
(quiescence).
docs/search.md describes the whole search.

Scores (centi-seeds, from the side to move) are encoded in _score.pxd;
the transposition table is _tt.pxd and _tt.pyx, the clock _clock.pxd. A
drawn end scores 0 like a balanced heuristic value, so a draw is proven
apart, between iterations (Step 6, ``hold_plies``, driven by proofs.py): for
each side, a search in which every horizon position that is not a game end
counts as a failure finds the fewest plies within which that side can force
the game to end with its margin >= 0. Both sides can: the margin is exactly
0, a draw, whose distance is the larger of the two. Those searches neither
read scores from the table nor write any, and count their nodes apart.

Why this file is past 600 lines: what is left is the one ``Engine`` class
(its state, the iterations, the root, the main search, quiescence, plain
minimax and the draw proofs), whose methods share the per-ply stacks and
call each other in the hot path. Cython cannot spread a class over files,
and moving methods into other compiled modules would turn their direct
calls into calls through function pointers; the concerns that stand alone
(the table, the scores, the clock) are in their own files.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from bingwa.engine._clock cimport now_seconds
from bingwa.engine._owaredb cimport (
    PROBE_BOUNDS,
    PROBE_EXACT,
    PROBE_MISS,
    ProbeHook,
    Tablebase,
    probe_fn,
    probe_state,
)
from bingwa.engine._score cimport (
    EVAL_LIMIT,
    MARGIN_SPAN,
    PROVEN_MIN,
    SCORE_INF,
    TB_PLIES,
    WIN_BASE,
    final_score,
    from_table,
    tablebase_score,
    to_table,
)
from bingwa.engine._tt cimport (
    WINDOW_MB,
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_NONE,
    BOUND_UPPER,
    Table,
    TTBucket,
    TTEntry,
    stretch_key,
    table_clear,
    table_entries,
    table_free,
    table_hashfull,
    table_new_search,
    table_prefetch,
    table_probe,
    table_resize,
    table_store,
)
from bingwa.engine.core cimport GAIN_UNKNOWN, MAX_MOVES, MAX_PLY, STATE_BYTES, Kernel, Ops

cdef extern from *:
    """
    /* The stop flag is written by another thread: never cached in a register. */
    typedef volatile int bingwa_flag;
    """
    ctypedef int bingwa_flag

cdef enum:
    HISTORY_SIZE = 4096        # move codes are hashed into the history table
    HISTORY_MAX = 1 << 14
    FILTER_SIZE = 1 << 12      # repetition pre-filter (8 KB: stays in L1), by key >> 52
    FILTER_SHIFT = 52

    QS_MIN_GAIN = 2            # a move gaining this many seeds is a capture
    QS_MAX_PLIES = 12          # capture sequences searched past the horizon

    ORDER_TT = 1 << 30
    ORDER_GAIN = 1 << 16       # per seed gained
    ORDER_EXTRA_TURN = 1 << 15
    ORDER_KILLER = 1 << 14

    LMR_MIN_DEPTH = 3          # late move reductions from this depth
    LMR_MIN_SEARCHED = 3       # ... for the moves after this many
    LMR2_MIN_DEPTH = 6         # lmr 2: two plies from this depth ...
    LMR2_MIN_SEARCHED = 4      # ... for the moves after this many
    RFP_MAX_DEPTH = 3          # reverse futility (rfp) up to this depth
    PRUNE_MARGIN_MAX = 100000  # largest rfp margin per ply

    TT_MIN_DEPTH = 1           # table from this far above the horizon (or Ops.table_depth)
    CHECK_EVERY = 1024         # nodes between clock reads
    USED = -2147483647         # an order slot already searched
    MAX_DEPTH = MAX_PLY - QS_MAX_PLIES - 4

    HOLD_SCORE = MAX_PLY + 1   # draw proofs: an end p plies from the root is HOLD_SCORE - p

MATE_SCORE = WIN_BASE
PROVEN_SCORE = PROVEN_MIN
SPAN = MARGIN_SPAN
INFINITE = SCORE_INF
DEPTH_LIMIT = MAX_DEPTH
TABLEBASE_PLIES = TB_PLIES

ctypedef struct RootMove:
    int code
    int index        # in the kernel's generation order
    int score        # this iteration's score (-SCORE_INF: not searched)
    int prev_score   # the last completed iteration's
    int bound
    int pv_len
    int* pv          # MAX_PLY move codes, the first is ``code``


cdef inline int pick_next(int* order, int n, int* rank) noexcept nogil:
    """The move picker of the main search and of quiescence: the index of
    the highest of ``order[0:n]`` (the first of equals), whose value goes to
    ``rank``; it is marked USED so that the next call picks the next best."""
    cdef int i, pick = 0
    for i in range(1, n):
        if order[i] > order[pick]:
            pick = i
    rank[0] = order[pick]
    order[pick] = USED
    return pick


def decode_score(int score):
    """(plies to the end or None, margin in seeds or None): a proven score
    gives both, a heuristic one neither."""
    cdef int value = score if score >= 0 else -score
    cdef int plies, margin
    if value < PROVEN_MIN:
        return None, None
    plies = (WIN_BASE - value + MARGIN_SPAN - 1) // MARGIN_SPAN
    margin = value - WIN_BASE + plies * MARGIN_SPAN
    return plies, (margin if score > 0 else -margin)


cdef class Engine:
    """Search state of one player: the table, ordering memory and the
    per-ply stacks. Not thread-safe: one search at a time."""

    cdef Ops ops
    cdef int size
    cdef int check_repetition
    cdef Table tt                     # the transposition table (_tt.pxd) ...
    cdef Table* table                 # ... in use: &tt, or a shared one's (share_table)
    cdef object table_owner           # the Engine whose table this one uses (None: its own)
    cdef size_t evicted_count         # this search's own entries it wrote over (table_store)
    # per-ply stacks
    cdef unsigned char* root_state
    cdef unsigned char* children      # (MAX_PLY + 1) * MAX_MOVES * size
    cdef int* moves                   # (MAX_PLY + 1) * MAX_MOVES
    cdef int* order                   # (MAX_PLY + 1) * MAX_MOVES
    cdef uint64_t* keys               # (MAX_PLY + 1) * MAX_MOVES: the children's keys
    cdef unsigned char* ready         # (MAX_PLY + 1) * MAX_MOVES: child already made
    cdef int* pv                      # (MAX_PLY + 1) * (MAX_PLY + 1)
    cdef int pv_len[MAX_PLY + 1]
    cdef int killers[MAX_PLY + 1][2]
    cdef int history[2][HISTORY_SIZE]
    # repetition: the game's keys, the path's keys and a counting filter
    cdef uint64_t* game_keys
    cdef int n_game_keys
    cdef uint64_t path[MAX_PLY + 1]
    cdef uint16_t* filter
    # root
    cdef RootMove* roots
    cdef int n_roots
    cdef int root_side
    # draw proofs (Step 6): their own node count and budget
    cdef readonly unsigned long long proof_nodes
    cdef unsigned long long proof_limit
    cdef int proof_aborted
    # limits and statistics
    cdef readonly unsigned long long nodes
    # statistics only (benchmarks/depth.py): nodes of the quiescence search,
    # and main-search nodes a line reaches only through extensions
    cdef readonly unsigned long long qnodes
    cdef readonly unsigned long long ext_nodes
    cdef int iteration_depth
    cdef readonly int seldepth
    cdef unsigned long long node_limit
    cdef double deadline
    cdef double last_poll
    cdef object poll
    cdef int has_poll
    cdef object pending               # an exception raised by ``poll``
    cdef bingwa_flag stopped
    cdef readonly int qsearch_enabled
    cdef int extension_ply            # extensions stop at this ply
    cdef public int capture_extension
    cdef int cost_q                   # quarter plies a capture costs (capture_cost)
    cdef int cost_pv_q                # ... at principal-variation nodes (-1: cost_q)
    cdef int capture_q[2]             # this search's cost off / on the PV (pv is 0 or 1)
    cdef unsigned char frac[MAX_PLY + 1]  # each ply's carried quarter plies (capture_cost)
    cdef public int ext_pct
    cdef int lmr_plies                # late move reductions (lmr)
    cdef int rfp_margin               # reverse futility pruning (rfp), per ply
    cdef public int tt_min_depth      # > 0: overrides the kernel's table_depth (experiments)
    cdef int table_depth              # in force for this search
    # endgame databases (NULL: none; no node count changes without them)
    cdef probe_fn tb_probe
    cdef const void* tb_data
    cdef object tablebase             # keeps the databases alive while probed
    cdef readonly unsigned long long tbhits
    # the graph-history interaction (Step 3.7): each ply's captured
    # difference (a change is a capture: nothing before it can repeat)
    cdef int cap_at[MAX_PLY + 1]
    # the positions on the path since the last capture, before each ply's
    # node (XOR of their keys; the root's: the game's): what repeats below
    # a node after a quiet move depends on that set alone
    cdef uint64_t stretch[MAX_PLY + 1]

    def __cinit__(self, int hash_mb=16):
        self.moves = <int*> calloc((MAX_PLY + 1) * MAX_MOVES, sizeof(int))
        self.order = <int*> calloc((MAX_PLY + 1) * MAX_MOVES, sizeof(int))
        self.keys = <uint64_t*> calloc((MAX_PLY + 1) * MAX_MOVES, sizeof(uint64_t))
        self.ready = <unsigned char*> calloc((MAX_PLY + 1) * MAX_MOVES, 1)
        self.pv = <int*> calloc((MAX_PLY + 1) * (MAX_PLY + 1), sizeof(int))
        self.filter = <uint16_t*> calloc(FILTER_SIZE, sizeof(uint16_t))
        self.roots = <RootMove*> calloc(MAX_MOVES, sizeof(RootMove))
        self.root_state = <unsigned char*> calloc(STATE_BYTES, 1)
        if (self.moves == NULL or self.order == NULL or self.keys == NULL
                or self.ready == NULL or self.pv == NULL or self.filter == NULL
                or self.roots == NULL or self.root_state == NULL):
            raise MemoryError()
        for i in range(MAX_MOVES):
            self.roots[i].pv = <int*> calloc(MAX_PLY, sizeof(int))
            if self.roots[i].pv == NULL:
                raise MemoryError()
        self.children = NULL
        self.size = 0
        self.game_keys = NULL
        self.qsearch_enabled = 1
        self.capture_extension = 1
        self.cost_q = 0
        self.cost_pv_q = -1
        self.ext_pct = 200
        self.lmr_plies = 0
        self.rfp_margin = 0
        self.tt_min_depth = 0
        self.table_depth = TT_MIN_DEPTH
        self.tb_probe = NULL
        self.tb_data = NULL
        self.tablebase = None
        self.table = &self.tt
        self.table_owner = None
        self.resize(hash_mb)
        self.clear()

    def __dealloc__(self):
        free(self.moves)
        free(self.order)
        free(self.keys)
        free(self.ready)
        free(self.pv)
        free(self.filter)
        if self.roots != NULL:
            for i in range(MAX_MOVES):
                free(self.roots[i].pv)
        free(self.roots)
        free(self.root_state)
        free(self.children)
        free(self.game_keys)
        table_free(&self.tt)

    # -- the table ------------------------------------------------------
    def resize(self, int hash_mb, int window_mb=WINDOW_MB):
        """Allocate a cleared table of at most ``hash_mb`` MiB (>= 1), of
        which the first ``window_mb`` MiB are in use until searches fill
        them (docs/search.md, "Hash")."""
        if self.table_owner is not None:
            raise ValueError("this engine searches another's table (share_table)")
        table_resize(&self.tt, hash_mb, window_mb)

    @property
    def table_bytes(self):
        """Bytes the transposition table occupies."""
        return self.table.n_buckets * sizeof(TTBucket)

    @property
    def window_bytes(self):
        """Bytes of the table in use: 16 MiB (or all of it) after a resize
        or a clear, doubled as searches fill it (docs/search.md, "Hash")."""
        return (self.table.mask + 1) * sizeof(TTBucket) if self.table.buckets != NULL else 0

    @property
    def evicted(self):
        """Entries of the last search it wrote over with other positions."""
        return self.evicted_count

    @property
    def entry_bytes(self):
        return sizeof(TTEntry)

    def clear(self):
        """Forget everything (a new game): table (unless it is another
        engine's: its owner clears it), killers, history."""
        if self.table_owner is None:
            table_clear(&self.tt)
        memset(self.killers, 0, sizeof(self.killers))
        memset(self.history, 0, sizeof(self.history))
        for i in range(MAX_PLY + 1):
            self.killers[i][0] = -1
            self.killers[i][1] = -1

    def hashfull(self):
        """Per mille of the table used by the current search (a sample of
        the first 1000 entries, scaled by the share in use)."""
        return table_hashfull(self.table)

    def table_entries(self):
        """Entries in use (a full scan: for tests and statistics)."""
        return table_entries(self.table)

    def share_table(self, Engine owner):
        """Search ``owner``'s table from now on (Lazy SMP: a helper thread's
        engine, searcher.py); its own is freed. The owner stays alive as
        long as this engine, and alone resizes, clears and ages it."""
        if owner is self or owner.table_owner is not None:
            raise ValueError("share the table of an engine that owns its own")
        table_free(&self.tt)
        self.table_owner = owner
        self.table = &owner.tt

    # -- limits -----------------------------------------------------------
    def stop(self):
        """Ask the running search to stop (any thread)."""
        self.stopped = 1

    @property
    def was_stopped(self):
        return bool(self.stopped)

    cdef void check_clock(self) noexcept nogil:
        cdef double t = now_seconds()
        cdef int stop_now = 0
        if self.deadline > 0 and t >= self.deadline:
            self.stopped = 1
            return
        if self.has_poll and t - self.last_poll >= 0.002:
            self.last_poll = t
            with gil:
                try:
                    stop_now = bool(self.poll())
                except BaseException as exc:  # re-raised once the search unwinds
                    self.pending = exc
                    stop_now = 1
            if stop_now:
                self.stopped = 1

    # -- the position -------------------------------------------------------
    def start(self, Kernel kernel, state, history_keys=(), root_codes=None):
        """Set up a search of ``state``: the game's earlier keys (oldest
        first) decide repetitions, ``root_codes`` restricts the root moves.
        Returns the number of root moves (0: the game is over)."""
        cdef int n, i, k, code
        cdef int scores[2]
        cdef size_t need
        self.ops = kernel.ops
        if self.ops.evaluate == NULL:
            raise ValueError("this kernel has no evaluation")
        if self.ops.size != self.size:
            free(self.children)
            need = <size_t> (MAX_PLY + 1) * MAX_MOVES * self.ops.size
            self.children = <unsigned char*> malloc(need)
            if self.children == NULL:
                self.size = 0
                raise MemoryError()
            self.size = self.ops.size
        memset(self.root_state, 0, STATE_BYTES)
        kernel.load(state, self.root_state)
        self.check_repetition = self.ops.repetition != NULL
        self.table_depth = self.tt_min_depth or self.ops.table_depth or TT_MIN_DEPTH
        # the game's keys and the counting filter
        memset(self.filter, 0, FILTER_SIZE * sizeof(uint16_t))
        keys = list(history_keys) if self.check_repetition else []
        free(self.game_keys)
        self.game_keys = <uint64_t*> malloc((len(keys) + 1) * sizeof(uint64_t))
        if self.game_keys == NULL:
            raise MemoryError()
        self.n_game_keys = len(keys)
        for i in range(self.n_game_keys):
            self.game_keys[i] = keys[i]
            self.filter[self.game_keys[i] >> FILTER_SHIFT] += 1
        # root moves, in generation order
        n = self.ops.gen_moves(self.root_state, self.moves)
        if self.ops.game_end(self.root_state, n, scores):
            n = 0
        wanted = None if root_codes is None else set(root_codes)
        k = 0
        for i in range(n):
            code = self.moves[i]
            if wanted is not None and code not in wanted:
                continue
            self.roots[k].code = code
            self.roots[k].index = i
            self.roots[k].score = -SCORE_INF
            self.roots[k].prev_score = -SCORE_INF
            self.roots[k].bound = BOUND_NONE
            self.roots[k].pv[0] = code
            self.roots[k].pv_len = 1
            k += 1
        self.n_roots = k
        self.root_side = self.ops.side_to_move(self.root_state)
        if self.table_owner is None:  # a helper searches in its owner's generation
            table_new_search(&self.tt)
        self.nodes = 0
        self.evicted_count = 0
        self.tbhits = 0
        self.qnodes = 0
        self.ext_nodes = 0
        self.proof_nodes = 0
        self.seldepth = 0
        self.stopped = 0
        self.node_limit = 0
        self.deadline = 0
        self.poll = None
        self.has_poll = 0
        # history decays between searches
        for i in range(HISTORY_SIZE):
            self.history[0][i] //= 2
            self.history[1][i] //= 2
        return k

    def set_limits(self, nodes=None, deadline=None, poll=None):
        """Node limit, hard deadline (time.monotonic() seconds) and a
        callable returning True when the search must stop."""
        self.node_limit = nodes or 0
        self.deadline = deadline or 0.0
        self.poll = poll
        self.has_poll = poll is not None
        self.last_poll = now_seconds()

    def set_tablebase(self, tablebase):
        """Probe ``tablebase`` at every node below the root where it holds
        the game: an _owaredb.Tablebase (Oware, right after a capture), or
        anything with a ``probe_hook()`` capsule (the Kalah solver's
        databases: every node). None: none. The caller sets it only for
        the rules it was built for (the probes also check them)."""
        cdef Tablebase tb
        cdef ProbeHook* hook
        if tablebase is None:
            self.tb_probe = NULL
            self.tb_data = NULL
            self.tablebase = None
            return
        if isinstance(tablebase, Tablebase):
            tb = tablebase
            self.tablebase = tb
            self.tb_data = &tb.c
            self.tb_probe = probe_state
            return
        capsule = tablebase.probe_hook()
        hook = <ProbeHook*> PyCapsule_GetPointer(capsule, b"bingwa.engine.ProbeHook")
        self.tablebase = tablebase  # keeps the databases the hook points into alive
        self.tb_data = hook.data
        self.tb_probe = hook.probe

    cdef inline int probe_tablebase(self, const unsigned char* s, int ply, int alpha,
                                    int beta) noexcept nogil:
        """What the databases say of ``s``, a position right after a capture
        (the databases hold the game started with no history, which is the
        game there), or PROBE_MISS: a proven entry as a proven score, proven
        bounds only where they decide the window (a cut-off, never a score),
        the value of a build without --prove as a heuristic estimate."""
        cdef int kind = 0, upper = 0, lower, high
        cdef int margin = self.tb_probe(self.tb_data, s, &kind, &upper)
        if margin == PROBE_MISS:
            return PROBE_MISS
        if kind == PROBE_EXACT:
            self.tbhits += 1
            return tablebase_score(margin, ply)
        if kind == PROBE_BOUNDS:
            lower = tablebase_score(margin, ply)
            high = tablebase_score(upper, ply)
            if lower >= beta:
                self.tbhits += 1
                return lower
            if high <= alpha:
                self.tbhits += 1
                return high
            return PROBE_MISS
        self.tbhits += 1
        return 100 * margin

    @property
    def capture_cost(self):
        """Quarter plies an extended capture costs, 0 (free: the default)
        to 4 (a whole ply: no capture extension); the fraction is carried
        down the line (experiments: docs/strength.md)."""
        return self.cost_q

    @capture_cost.setter
    def capture_cost(self, int quarters):
        if not 0 <= quarters <= 4:
            raise ValueError("capture_cost must be 0..4 quarter plies")
        self.cost_q = quarters

    @property
    def capture_cost_pv(self):
        """Quarter plies an extended capture costs at a principal-variation
        node, 0..4, or -1 (the default): ``capture_cost``."""
        return self.cost_pv_q

    @capture_cost_pv.setter
    def capture_cost_pv(self, int quarters):
        if not -1 <= quarters <= 4:
            raise ValueError("capture_cost_pv must be -1 (capture_cost) or 0..4 quarter plies")
        self.cost_pv_q = quarters

    @property
    def lmr(self):
        """Late move reductions: 0 (off, the default), 1 (a late quiet
        move is searched a ply shallower first) or 2 (two plies for the
        latest ones, deep enough)."""
        return self.lmr_plies

    @lmr.setter
    def lmr(self, int plies):
        if not 0 <= plies <= 2:
            raise ValueError("lmr must be 0..2 plies")
        self.lmr_plies = plies

    @property
    def rfp(self):
        """Reverse futility pruning: 0 (off, the default) or a margin in
        centi-seeds per ply. Away from the principal variation and at most
        RFP_MAX_DEPTH plies above the horizon, a node whose static value
        beats beta by that margin times the depth returns it unsearched."""
        return self.rfp_margin

    @rfp.setter
    def rfp(self, int margin):
        if not 0 <= margin <= PRUNE_MARGIN_MAX:
            raise ValueError(f"rfp must be 0..{PRUNE_MARGIN_MAX} centi-seeds")
        self.rfp_margin = margin

    def set_qsearch(self, bint enabled):
        """Search capture sequences past the horizon (on by default)."""
        self.qsearch_enabled = enabled

    # -- Step 1. Iterations (called by the facade) ---------------------------
    def iterate(self, int depth, int multipv=1):
        """One iteration of iterative deepening to ``depth`` with aspiration
        windows, for the ``multipv`` best root moves. Returns True when it
        completed (False: stopped; the root moves keep partial results)."""
        cdef int pv_idx, i, delta, alpha, beta, value, prev
        if self.n_roots == 0:
            return True
        if depth < 1 or depth > MAX_DEPTH:
            raise ValueError(f"depth must be in 1..{MAX_DEPTH}")
        multipv = max(1, min(multipv, self.n_roots))
        self.extension_ply = depth * self.ext_pct // 100
        self.capture_q[0] = self.cost_q
        self.capture_q[1] = self.cost_pv_q if self.cost_pv_q >= 0 else self.cost_q
        self.iteration_depth = depth
        for i in range(self.n_roots):
            self.roots[i].prev_score = self.roots[i].score if self.roots[i].score > -SCORE_INF \
                else self.roots[i].prev_score
            self.roots[i].score = -SCORE_INF
            self.roots[i].bound = BOUND_NONE
        with nogil:
            for pv_idx in range(multipv):
                prev = self.roots[pv_idx].prev_score
                delta = 60
                if depth >= 4 and -PROVEN_MIN < prev < PROVEN_MIN:
                    alpha = prev - delta
                    beta = prev + delta
                else:
                    alpha = -SCORE_INF
                    beta = SCORE_INF
                while True:
                    value = self.root_search(pv_idx, depth, alpha, beta)
                    self.sort_roots(pv_idx, self.n_roots)
                    if self.stopped:
                        break
                    if value <= alpha and alpha > -SCORE_INF:
                        beta = (alpha + beta) // 2
                        alpha = value - delta if value - delta > -PROVEN_MIN else -SCORE_INF
                    elif value >= beta and beta < SCORE_INF:
                        beta = value + delta if value + delta < PROVEN_MIN else SCORE_INF
                    else:
                        break
                    delta += delta // 2 + delta
                    if delta > 20000:
                        alpha = -SCORE_INF
                        beta = SCORE_INF
                self.sort_roots(0, pv_idx + 1)
                if self.stopped:
                    break
        self.raise_pending()
        return not self.stopped

    cdef raise_pending(self):
        if self.pending is not None:
            exc, self.pending = self.pending, None
            raise exc

    cdef void sort_roots(self, int lo, int hi) noexcept nogil:
        """Stable insertion sort of roots[lo:hi] by score, best first."""
        cdef int i, j
        cdef RootMove tmp
        for i in range(lo + 1, hi):
            tmp = self.roots[i]
            j = i - 1
            while j >= lo and self.roots[j].score < tmp.score:
                self.roots[j + 1] = self.roots[j]
                j -= 1
            self.roots[j + 1] = tmp

    def root_moves(self):
        """[(code, score, bound, pv codes, searched this iteration)], in
        the current order (best first after a completed iteration)."""
        cdef RootMove* rm
        out = []
        for i in range(self.n_roots):
            rm = &self.roots[i]
            searched = rm.score > -SCORE_INF
            score = rm.score if searched else rm.prev_score
            out.append((rm.code, score, rm.bound, [rm.pv[j] for j in range(rm.pv_len)], searched))
        return out

    # -- Step 2. The root -----------------------------------------------------
    cdef int root_search(self, int pv_idx, int depth, int alpha, int beta) noexcept nogil:
        cdef int i, j, value, same, best = -SCORE_INF
        cdef int alpha0 = alpha
        cdef uint64_t key
        cdef unsigned char* child = self.children
        cdef RootMove* rm
        cdef int* line
        self.path[0] = self.ops.key(self.root_state)
        self.filter[self.path[0] >> FILTER_SHIFT] += 1
        self.frac[1] = 0
        self.pv_len[0] = 0
        self.cap_at[0] = self.ops.captured(self.root_state)
        self.stretch[0] = 0
        for j in range(self.n_game_keys):
            self.stretch[0] ^= self.game_keys[j]
        for i in range(pv_idx, self.n_roots):
            rm = &self.roots[i]
            self.ops.make_move(self.root_state, rm.code, child)
            same = self.ops.side_to_move(child) == self.root_side
            key = self.child_key(child, depth - 1)
            if i == pv_idx:
                value = self.child_value(child, key, same, 1, depth - 1, alpha, beta, 1)
            else:
                value = self.child_value(child, key, same, 1, depth - 1, alpha, alpha + 1, 0)
                if value > alpha and value < beta and not self.stopped:
                    value = self.child_value(child, key, same, 1, depth - 1, alpha, beta, 1)
            if self.stopped:
                break
            if i == pv_idx or value > alpha:
                rm.score = value
                rm.bound = BOUND_UPPER if value <= alpha0 else (
                    BOUND_LOWER if value >= beta else BOUND_EXACT)
                rm.pv[0] = rm.code
                line = self.pv + (MAX_PLY + 1)
                rm.pv_len = 1
                for j in range(1, self.pv_len[1]):
                    if rm.pv_len >= MAX_PLY:
                        break
                    rm.pv[rm.pv_len] = line[j]
                    rm.pv_len += 1
            else:
                rm.score = -SCORE_INF
            if value > best:
                best = value
            if value > alpha:
                alpha = value
                if value >= beta:
                    break
        self.filter[self.path[0] >> FILTER_SHIFT] -= 1
        return best

    cdef inline int child_value(self, const unsigned char* child, uint64_t key, int same,
                                int ply, int depth, int alpha, int beta, int pv) noexcept nogil:
        """The child's value from the parent's side: negated only when the
        side to move changes."""
        if same:
            return self.search(child, key, ply, depth, alpha, beta, pv)
        return -self.search(child, key, ply, depth, -beta, -alpha, pv)

    cdef inline uint64_t child_key(self, const unsigned char* child, int depth) noexcept nogil:
        """The key a node searched to ``depth`` needs: at the horizon it
        serves only repetitions, so it is skipped (0) without them."""
        if depth > 0 or self.check_repetition:
            return self.ops.key(child)
        return 0

    cdef inline int repeated(self, uint64_t key, int ply) noexcept nogil:
        """Whether ``key`` occurred before in the game or on the path."""
        cdef int i
        if self.filter[key >> FILTER_SHIFT] == 0:
            return 0
        for i in range(ply - 1, -1, -1):
            if self.path[i] == key:
                return 1
        for i in range(self.n_game_keys - 1, -1, -1):
            if self.game_keys[i] == key:
                return 1
        return 0

    # -- Step 3. The main search ----------------------------------------------
    cdef int search(self, const unsigned char* s, uint64_t key, int ply, int depth, int alpha,
                    int beta, int pv) noexcept nogil:
        """``key`` is ``s``'s key, computed by the parent (child_key) so that
        it can fetch the table's bucket early."""
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef int* order = self.order + ply * MAX_MOVES
        cdef unsigned char* kids = self.children + <size_t> ply * MAX_MOVES * self.size
        cdef int scores[2]
        cdef int n, i, k, pick, side, value, best, best_index, tt_index, bound
        cdef int alpha0 = alpha, same, gain, base, sign, code, h, searched, o, made, new_depth
        cdef int reduction, cost
        cdef uint64_t* keys = self.keys + ply * MAX_MOVES
        cdef unsigned char* ready = self.ready + ply * MAX_MOVES
        cdef int keyed, lazy, born, fresh
        cdef TTEntry* entry
        cdef TTEntry found            # the probed entry, copied (_tt.pxd: threads)
        cdef unsigned char* child
        cdef int* line
        cdef int* sub

        # Step 3.1. Limits
        self.nodes += 1
        if self.node_limit and self.nodes >= self.node_limit:
            self.stopped = 1
        if (self.nodes & (CHECK_EVERY - 1)) == 0:
            self.check_clock()
        if self.stopped:
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
        if ply + depth > self.iteration_depth:
            self.ext_nodes += 1
        self.pv_len[ply] = ply

        # Step 3.2. The end of the game, by the rules or by repetition (the
        # table's bucket is fetched from memory meanwhile)
        if depth >= self.table_depth:
            table_prefetch(self.table, key)
        # born: the kernel wrote every child while generating (gen_children)
        born = self.ops.gen_children != NULL
        if born:
            n = self.ops.gen_children(s, moves, kids)
        else:
            n = self.ops.gen_moves(s, moves)
        side = self.ops.side_to_move(s)
        if self.ops.game_end(s, n, scores):
            return final_score(scores, side, ply)
        if self.check_repetition and self.repeated(key, ply):
            self.ops.repetition(s, n, scores)
            return final_score(scores, side, ply)
        # Step 3.2.1. An endgame database, right after a capture: it holds the
        # game started with no history, and a capture leaves nothing that can
        # repeat (after a quiet move the path decides: docs/databases.md)
        # (without repetitions every node is as good as right after a capture)
        fresh = 1
        if self.check_repetition:
            self.cap_at[ply] = self.ops.captured(s)
            fresh = self.cap_at[ply] != self.cap_at[ply - 1]
            self.stretch[ply] = 0 if fresh else self.stretch[ply - 1] ^ self.path[ply - 1]
        if self.tb_probe != NULL:  # Oware: after a capture; Kalah (no repetitions): always
            if fresh:
                value = self.probe_tablebase(s, ply, alpha, beta)
                if value != PROBE_MISS:
                    return value

        # Step 3.3. The horizon
        if depth <= 0:
            return self.qsearch_moves(s, n, side, ply, alpha, beta, 0, born)
        if ply >= MAX_PLY - 1:
            return self.static_value(s)

        # Step 3.4. Transposition table lookup
        tt_index = -1
        entry = table_probe(self.table, key, &found) if depth >= self.table_depth else NULL
        if entry != NULL:
            tt_index = <int> entry.move - 1
            if tt_index >= n:
                tt_index = -1
            if not pv and entry.depth >= depth:
                value = from_table(entry.score, ply)
                bound = entry.agebound & 3
                # a proven score under the position's own key was stored right
                # after a capture (Step 3.7): it holds only there
                if (bound == BOUND_EXACT or (bound == BOUND_LOWER and value >= beta)
                        or (bound == BOUND_UPPER and value <= alpha)) and (
                            fresh or -PROVEN_MIN < value < PROVEN_MIN):
                    return value
        # after a quiet move, a proven score is kept under the key of the
        # position and the positions on the path since the capture
        if not fresh and not pv and depth >= self.table_depth:
            entry = table_probe(self.table, key ^ stretch_key(self.stretch[ply]), &found)
            if entry != NULL and entry.depth >= depth:
                value = from_table(entry.score, ply)
                bound = entry.agebound & 3
                if (bound == BOUND_EXACT or (bound == BOUND_LOWER and value >= beta)
                        or (bound == BOUND_UPPER and value <= alpha)):
                    return value

        # Step 3.4.1. Reverse futility: near the horizon, off the principal
        # variation, a static value far above beta is taken as the node's
        # (rfp; never where a proven score is at stake)
        if (self.rfp_margin and depth <= RFP_MAX_DEPTH and not pv
                and -PROVEN_MIN < alpha and beta < PROVEN_MIN):
            value = self.static_value(s)
            if value - self.rfp_margin * depth >= beta:
                return value

        # Step 3.5. The table move is searched before the other children are
        # made; they are then ordered by capture gain (and extra turns),
        # killers and history.
        self.path[ply] = key
        self.filter[key >> FILTER_SHIFT] += 1
        best = -SCORE_INF
        best_index = -1
        searched = 0
        made = 0
        # the children's keys are computed as they are made when they will
        # probe the table: their buckets are fetched while the others are made
        keyed = depth - 1 >= self.table_depth
        # elsewhere, a kernel that tells a move's gain without making it
        # lets the children be made only when picked (most never are)
        lazy = not keyed and not born and self.ops.move_gain != NULL
        base = self.ops.captured(s)
        sign = 1 if side == 0 else -1
        # Step 3.6. Principal variation search over the children
        for k in range(n):
            if k == 0 and tt_index >= 0:
                pick = tt_index
                if not born:
                    self.ops.make_move(s, moves[pick], kids + pick * self.size)
                o = ORDER_TT
            else:
                if not made:
                    made = 1
                    for i in range(n):
                        if i == tt_index:
                            order[i] = USED
                            continue
                        child = kids + i * self.size
                        code = moves[i]
                        gain = self.ops.move_gain(s, code) if lazy else GAIN_UNKNOWN
                        ready[i] = gain == GAIN_UNKNOWN
                        if ready[i]:
                            if not born:
                                self.ops.make_move(s, code, child)
                            if keyed:
                                keys[i] = self.ops.key(child)
                                table_prefetch(self.table, keys[i])
                            gain = (self.ops.captured(child) - base) * sign
                        h = gain * ORDER_GAIN + self.history[side][code & (HISTORY_SIZE - 1)]
                        if ready[i] and self.ops.side_to_move(child) == side:
                            h += ORDER_EXTRA_TURN
                        if gain <= 0 and (code == self.killers[ply][0]
                                          or code == self.killers[ply][1]):
                            h += ORDER_KILLER
                        order[i] = h
                pick = pick_next(order, n, &o)
                if not ready[pick]:
                    self.ops.make_move(s, moves[pick], kids + pick * self.size)
            child = kids + pick * self.size
            same = self.ops.side_to_move(child) == side
            # Step 3.6.1. Extension: a move that keeps the turn (Kalah's extra
            # turn) or captures costs no depth, while the line is shorter than
            # ext_pct per cent of the nominal depth (docs/strength.md)
            # (a capture costs capture_cost quarter plies, the fraction
            # carried down the line)
            new_depth = depth - 1
            self.frac[ply + 1] = self.frac[ply]
            if ply < self.extension_ply:
                if same:
                    new_depth = depth
                elif self.capture_extension and (o >= 2 * ORDER_GAIN or (
                        o == ORDER_TT and (self.ops.captured(child) - base) * sign >= QS_MIN_GAIN)):
                    cost = self.frac[ply] + self.capture_q[pv]
                    new_depth = depth - (cost >> 2)
                    self.frac[ply + 1] = cost & 3
            if not keyed or o == ORDER_TT:
                keys[pick] = self.child_key(child, new_depth)
            if searched == 0:
                value = self.child_value(child, keys[pick], same, ply + 1, new_depth, alpha, beta,
                                         pv)
            else:
                # Step 3.6.2. Late move reductions: a late quiet move (no
                # capture, no extra turn, neither the table move nor a
                # killer) is first searched a ply shallower (lmr 2: two for
                # the latest moves, deep enough), and again at full depth
                # only when it beats alpha
                reduction = 0
                if (self.lmr_plies and searched >= LMR_MIN_SEARCHED and depth >= LMR_MIN_DEPTH
                        and new_depth == depth - 1 and o < ORDER_KILLER and not same):
                    reduction = 1
                    if (self.lmr_plies >= 2 and searched >= LMR2_MIN_SEARCHED
                            and depth >= LMR2_MIN_DEPTH):
                        reduction = 2
                if reduction:
                    value = self.child_value(child, keys[pick], same, ply + 1,
                                             new_depth - reduction, alpha, alpha + 1, 0)
                    if value > alpha and not self.stopped:
                        value = self.child_value(child, keys[pick], same, ply + 1, new_depth,
                                                 alpha, alpha + 1, 0)
                else:
                    value = self.child_value(child, keys[pick], same, ply + 1, new_depth, alpha,
                                             alpha + 1, 0)
                if pv and value > alpha and value < beta and not self.stopped:
                    value = self.child_value(child, keys[pick], same, ply + 1, new_depth, alpha,
                                             beta, 1)
            searched += 1
            if self.stopped:
                self.filter[key >> FILTER_SHIFT] -= 1
                return 0
            if value > best:
                best = value
                best_index = pick
                if value > alpha:
                    alpha = value
                    if pv:
                        line = self.pv + ply * (MAX_PLY + 1)
                        sub = self.pv + (ply + 1) * (MAX_PLY + 1)
                        line[ply] = moves[pick]
                        for i in range(ply + 1, self.pv_len[ply + 1]):
                            line[i] = sub[i]
                        self.pv_len[ply] = self.pv_len[ply + 1] if self.pv_len[ply + 1] > ply + 1 \
                            else ply + 1
                    if value >= beta:
                        code = moves[pick]
                        if o < ORDER_GAIN:  # a quiet move (not the table move either)
                            if self.killers[ply][0] != code:
                                self.killers[ply][1] = self.killers[ply][0]
                                self.killers[ply][0] = code
                            h = self.history[side][code & (HISTORY_SIZE - 1)] + depth * depth
                            if h >= HISTORY_MAX:
                                self.age_history()
                                h = h // 2
                            self.history[side][code & (HISTORY_SIZE - 1)] = h
                        break
        self.filter[key >> FILTER_SHIFT] -= 1

        # Step 3.7. Remember the result (the best move by its index in the
        # kernel's generation order; none after a fail-low). A heuristic
        # score claims nothing and is kept under the position's key. A proven
        # one must hold on every path that reads it (the graph-history
        # interaction): right after a capture nothing before the node can
        # repeat, so it goes under the position's key too; after a quiet
        # move what repeats below depends on the positions on the path since
        # the capture, so it goes under a key of the position and that set.
        bound = BOUND_UPPER if best <= alpha0 else (BOUND_LOWER if best >= beta else BOUND_EXACT)
        if depth >= self.table_depth:
            if -PROVEN_MIN < best < PROVEN_MIN or fresh:
                table_store(self.table, &self.evicted_count, key, to_table(best, ply), bound,
                            depth, best_index if bound != BOUND_UPPER else -1)
            else:
                table_store(self.table, &self.evicted_count, key ^ stretch_key(self.stretch[ply]),
                            to_table(best, ply), bound, depth,
                            best_index if bound != BOUND_UPPER else -1)
        return best

    cdef void age_history(self) noexcept nogil:
        cdef int i
        for i in range(HISTORY_SIZE):
            self.history[0][i] //= 2
            self.history[1][i] //= 2

    cdef inline int static_value(self, const unsigned char* s) noexcept nogil:
        cdef int v = self.ops.evaluate(s)
        if v > EVAL_LIMIT:
            return EVAL_LIMIT
        if v < -EVAL_LIMIT:
            return -EVAL_LIMIT
        return v

    # -- Step 4. Capture sequences past the horizon -----------------------------
    cdef int qsearch(self, const unsigned char* s, int ply, int alpha, int beta,
                     int qply) noexcept nogil:
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef int scores[2]
        cdef int n, side, born, value
        self.nodes += 1
        self.qnodes += 1
        if self.node_limit and self.nodes >= self.node_limit:
            self.stopped = 1
        if (self.nodes & (CHECK_EVERY - 1)) == 0:
            self.check_clock()
        if self.stopped:
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
        self.pv_len[ply] = ply
        born = self.ops.gen_children != NULL
        if born:
            n = self.ops.gen_children(s, moves,
                                      self.children + <size_t> ply * MAX_MOVES * self.size)
        else:
            n = self.ops.gen_moves(s, moves)
        side = self.ops.side_to_move(s)
        if self.ops.game_end(s, n, scores):
            return final_score(scores, side, ply)
        # (a capture led here: the databases' game, no history, is the game)
        if self.tb_probe != NULL:
            value = self.probe_tablebase(s, ply, alpha, beta)
            if value != PROBE_MISS:
                return value
        # a capture changes the scores, which are part of the position, so
        # nothing reached from here repeats an earlier position
        return self.qsearch_moves(s, n, side, ply, alpha, beta, qply, born)

    cdef int qsearch_moves(self, const unsigned char* s, int n, int side, int ply,
                           int alpha, int beta, int qply, int born) noexcept nogil:
        """Stand pat on the static value, or try the captures (moves gaining
        QS_MIN_GAIN seeds or more), largest gain first. ``moves[ply]`` holds
        the ``n`` legal moves of ``s`` (and the ply's child slots their
        children when ``born``)."""
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef int* order = self.order + ply * MAX_MOVES
        cdef unsigned char* kids = self.children + <size_t> ply * MAX_MOVES * self.size
        cdef unsigned char* ready = self.ready + ply * MAX_MOVES
        cdef int best, value, i, pick, m, base, sign, gain, same, code
        cdef unsigned char* child
        cdef int* line
        cdef int* sub
        best = self.static_value(s)
        if best >= beta or not self.qsearch_enabled or qply >= QS_MAX_PLIES or ply >= MAX_PLY - 1:
            return best
        if best > alpha:
            alpha = best
        base = self.ops.captured(s)
        sign = 1 if side == 0 else -1
        m = 0
        for i in range(n):
            code = moves[i]
            if self.ops.may_capture != NULL and not self.ops.may_capture(s, code):
                continue
            # a capture told without making it is made only when picked
            gain = self.ops.move_gain(s, code) if self.ops.move_gain != NULL else GAIN_UNKNOWN
            ready[m] = gain == GAIN_UNKNOWN
            if ready[m]:
                child = kids + m * self.size
                if born:
                    if m != i:
                        memcpy(child, kids + i * self.size, self.size)
                else:
                    self.ops.make_move(s, code, child)
                gain = (self.ops.captured(child) - base) * sign
            if gain >= QS_MIN_GAIN:
                order[m] = gain
                moves[m] = moves[i]
                m += 1
        for _ in range(m):
            pick = pick_next(order, m, &gain)
            child = kids + pick * self.size
            if not ready[pick]:
                self.ops.make_move(s, moves[pick], child)
            same = self.ops.side_to_move(child) == side
            if same:
                value = self.qsearch(child, ply + 1, alpha, beta, qply + 1)
            else:
                value = -self.qsearch(child, ply + 1, -beta, -alpha, qply + 1)
            if self.stopped:
                return 0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    line = self.pv + ply * (MAX_PLY + 1)
                    sub = self.pv + (ply + 1) * (MAX_PLY + 1)
                    line[ply] = moves[pick]
                    for i in range(ply + 1, self.pv_len[ply + 1]):
                        line[i] = sub[i]
                    self.pv_len[ply] = self.pv_len[ply + 1] if self.pv_len[ply + 1] > ply + 1 \
                        else ply + 1
                    if value >= beta:
                        break
        return best

    # -- Plain minimax (the baseline bot) ---------------------------------------
    def minimax(self, int depth):
        """[(code, value)] of every root move by plain fixed-depth minimax:
        no pruning, no table, no ordering, the static evaluation at the
        horizon; the rules' endings (repetition included) are exact."""
        cdef int i, value, same
        cdef unsigned char* child = self.children
        if depth < 1 or depth > MAX_DEPTH:
            raise ValueError(f"depth must be in 1..{MAX_DEPTH}")
        out = []
        for i in range(self.n_roots):
            with nogil:
                self.path[0] = self.ops.key(self.root_state)
                self.filter[self.path[0] >> FILTER_SHIFT] += 1
                self.ops.make_move(self.root_state, self.roots[i].code, child)
                same = self.ops.side_to_move(child) == self.root_side
                value = self.minimax_value(child, 1, depth - 1)
                if not same:
                    value = -value
                self.filter[self.path[0] >> FILTER_SHIFT] -= 1
            self.raise_pending()
            if self.stopped:
                break
            out.append((self.roots[i].code, value))
        return out

    cdef int minimax_value(self, const unsigned char* s, int ply, int depth) noexcept nogil:
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef unsigned char* child = self.children + <size_t> ply * MAX_MOVES * self.size
        cdef int scores[2]
        cdef int n, i, side, value, best
        cdef uint64_t key
        self.nodes += 1
        if self.node_limit and self.nodes >= self.node_limit:
            self.stopped = 1
        if (self.nodes & (CHECK_EVERY - 1)) == 0:
            self.check_clock()
        if self.stopped:
            return 0
        n = self.ops.gen_moves(s, moves)
        side = self.ops.side_to_move(s)
        if self.ops.game_end(s, n, scores):
            return final_score(scores, side, ply)
        key = self.ops.key(s)
        if self.check_repetition and self.repeated(key, ply):
            self.ops.repetition(s, n, scores)
            return final_score(scores, side, ply)
        if depth <= 0 or ply >= MAX_PLY - 1:
            return self.static_value(s)
        self.path[ply] = key
        self.filter[key >> FILTER_SHIFT] += 1
        best = -SCORE_INF
        for i in range(n):
            self.ops.make_move(s, moves[i], child)
            value = self.minimax_value(child, ply + 1, depth - 1)
            if self.ops.side_to_move(child) != side:
                value = -value
            if value > best:
                best = value
        self.filter[key >> FILTER_SHIFT] -= 1
        return best

    # -- Step 6. Proving draws ----------------------------------------------------
    #
    # A heuristic 0 and a drawn end look alike to alpha-beta, and a 0 at the
    # root proves nothing (the other moves were cut with heuristic values).
    # So a draw is proven apart, by two searches in which every position at
    # the horizon that is not a game end counts as a failure: one for each
    # side, as the "holder", asking in how few plies it can force the game
    # to end with its final margin >= 0 whatever the other side does. Both
    # succeed only when the margin is exactly 0 with best play: a draw. They
    # neither read scores from the table nor write to it (the table move is
    # read to order the moves), and count their nodes apart (``proof_nodes``):
    # the main search is left exactly as it was.

    def hold_plies(self, int code, bint root_holds, int depth, unsigned long long budget):
        """Plies (root move ``code`` included) within which the holder (the
        side to move at the root when ``root_holds``, else the other one)
        can force the game to end, with its final margin >= 0, after root
        move ``code``, against any defence: the fewest such, within
        ``depth`` plies; -1 when there is none within ``depth``, or the
        proof ran out of its ``budget`` of nodes or was stopped. Repetitions
        follow the rules, with the game's history; nothing is stored."""
        cdef int i, index = -1, holder, value
        cdef unsigned char* child = self.children
        for i in range(self.n_roots):
            if self.roots[i].code == code:
                index = i
        if index < 0:
            raise ValueError(f"{code} is not a root move of this search")
        if depth < 1 or depth > MAX_DEPTH:
            raise ValueError(f"depth must be in 1..{MAX_DEPTH}")
        holder = self.root_side if root_holds else 1 - self.root_side
        with nogil:
            self.proof_limit = self.proof_nodes + budget
            self.proof_aborted = 0
            self.path[0] = self.ops.key(self.root_state)
            self.filter[self.path[0] >> FILTER_SHIFT] += 1
            self.ops.make_move(self.root_state, code, child)
            value = self.hold(child, self.ops.key(child), 1, depth - 1, holder, 0, HOLD_SCORE)
            self.filter[self.path[0] >> FILTER_SHIFT] -= 1
        self.raise_pending()
        if self.proof_aborted or self.stopped or value <= 0:
            return -1
        return HOLD_SCORE - value

    cdef int hold(self, const unsigned char* s, uint64_t key, int ply, int depth, int holder,
                  int alpha, int beta) noexcept nogil:
        """Minimax value of ``s`` for ``holder``: HOLD_SCORE - p when the
        holder can force the game to end at ply p (from the root) with its
        final margin >= 0, the smallest such p (the holder hurries, the other
        side delays); 0 when it cannot within ``depth`` plies. Alpha-beta
        with explicit max (the holder to move) and min nodes: no negation,
        so extra turns need nothing special. Exact inside (alpha, beta)."""
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef unsigned char* child = self.children + <size_t> ply * MAX_MOVES * self.size
        cdef int scores[2]
        cdef int n, k, i, value, best, tt_index, holds
        cdef TTEntry* entry
        cdef TTEntry found
        self.proof_nodes += 1
        if self.proof_nodes >= self.proof_limit:
            self.proof_aborted = 1
        if (self.proof_nodes & (CHECK_EVERY - 1)) == 0:
            self.check_clock()
        if self.stopped or self.proof_aborted:
            return 0
        n = self.ops.gen_moves(s, moves)
        if self.ops.game_end(s, n, scores):
            return HOLD_SCORE - ply if scores[holder] >= scores[1 - holder] else 0
        if self.check_repetition and self.repeated(key, ply):
            self.ops.repetition(s, n, scores)
            return HOLD_SCORE - ply if scores[holder] >= scores[1 - holder] else 0
        if depth <= 0 or ply >= MAX_PLY - 1:
            return 0
        # an end found below is at ply + 1 or later
        if alpha >= HOLD_SCORE - (ply + 1):
            return alpha
        holds = self.ops.side_to_move(s) == holder
        # the main search's best move first (read only)
        tt_index = -1
        entry = table_probe(self.table, key, &found)
        if entry != NULL and 0 < entry.move <= n:
            tt_index = <int> entry.move - 1
        self.path[ply] = key
        self.filter[key >> FILTER_SHIFT] += 1
        best = 0 if holds else HOLD_SCORE
        for k in range(-1, n):
            if k < 0:
                if tt_index < 0:
                    continue
                i = tt_index
            elif k == tt_index:
                continue
            else:
                i = k
            self.ops.make_move(s, moves[i], child)
            value = self.hold(child, self.ops.key(child), ply + 1, depth - 1, holder, alpha, beta)
            if self.stopped or self.proof_aborted:
                break
            if holds:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        self.filter[key >> FILTER_SHIFT] -= 1
        if self.stopped or self.proof_aborted:
            return 0
        return best
