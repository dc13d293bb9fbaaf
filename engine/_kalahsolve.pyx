# cython: language_level=3
"""Kalah solved: the exact final margin with perfect play (kalah.py's rules).

The value of a Kalah position for the side to move is its store lead plus
the best final margin of the seeds still in the pits: stores only grow, so
what is already stored cannot change the best play for the rest. The solver
therefore works on the pits alone, the side to move's row first:

- a position is ``p[0..2m-1]``: the mover's pits in sowing order, then the
  opponent's (the layout of the kernel with South to move); passing the turn
  swaps the halves. ``V(p)`` is the mover's best final margin of the seeds in
  ``p``: a move storing ``g`` seeds is worth ``g + V(child)`` when it keeps
  the turn (rule 2) and ``g - V(swapped child)`` when it passes it; a move
  emptying a row ends the game, worth ``g + own row - other row`` (rule 4).
- no cycles: a move either stores seeds (the pits hold fewer) or ends on
  the mover's own row without passing his store, so every seed it sows moves
  toward his store (the seeds' distances to their stores only shrink).
  Positions of ``S`` seeds thus depend only on positions of ``S`` seeds
  closer to their stores and on positions of fewer seeds.
- endgame databases: ``V`` of every position of ``S <= db_seeds`` seeds,
  one signed byte each, indexed by the rank of the pit distribution in
  lexicographic order (the combinatorial number system over compositions),
  built bottom-up by ``S``; within one ``S``, a memoised recursion resolves
  the same-``S`` children first (they are closer to their stores).
- above them, an exact alpha-beta (fail-soft negamax on margins, no depth,
  no evaluation: a leaf is a game end or a database value) with a table of
  proven bounds keyed by the exact pits, driven by MTD(f). The turn is
  negated only when it passes (extra turns keep it).
"""

from cpython.exc cimport PyErr_CheckSignals, PyErr_Clear
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from bingwa.engine._clock cimport now_seconds
from bingwa.engine._owaredb cimport PROBE_EXACT, PROBE_MISS, ProbeHook
from bingwa.engine.kalah_c cimport KalahState

cdef enum:
    MAX_SIDE = 6          # pits a side: the table's key holds 2 * 6 pits
    MAX_SEEDS = 120       # margins fit a signed byte
    UNKNOWN = -128        # a database entry not computed yet
    INF = 1000


class SolveInterrupted(Exception):
    """The solve was stopped (Ctrl-C): nothing it found is exact."""


# One table entry: the exact pits (the key), proven bounds on V, the best move.
ctypedef struct Entry:
    uint8_t pits[12]
    int8_t lower
    int8_t upper
    uint8_t move
    uint8_t seeds     # replacement: a position with more seeds cost more


ctypedef struct Child:
    uint8_t pits[12]
    int gain          # seeds the move stores (sown or captured)
    int extra         # 1: the mover moves again
    int ended         # 1: a row is empty, the game is over
    int rest          # ended: the final margin of the pits (own row - other)
    int move          # the pit sown


cdef inline uint64_t pits_hash(const uint8_t* p) noexcept nogil:
    cdef uint64_t h = 0xCBF29CE484222325ULL, w = 0
    cdef int i
    for i in range(8):
        w |= (<uint64_t> p[i]) << (8 * i)
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL
    h ^= h >> 29
    w = (<uint64_t> p[8]) | (<uint64_t> p[9]) << 8 | (<uint64_t> p[10]) << 16 \
        | (<uint64_t> p[11]) << 24
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL
    h ^= h >> 32
    h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 31)


# What the search's probe reads (kalah_probe): the databases built so far.
ctypedef struct KalahView:
    int m
    int k
    int db_seeds
    int built            # databases ready for 0..built seeds in the pits
    int empty_capture
    const uint64_t* offsets
    int8_t** levels


cdef int kalah_probe(const void* data, const void* state, int* kind,
                     int* upper) noexcept nogil:
    """The final margin of the side to move in a KalahState (its store lead
    plus the database value of the pits: exact, no history in Kalah) or
    PROBE_MISS: another board, or more seeds in the pits than built."""
    cdef const KalahView* v = <const KalahView*> data
    cdef const KalahState* s = <const KalahState*> state
    cdef uint8_t p[12]
    cdef int i, seeds = 0, left, m = v.m, t = s.turn, value
    cdef int stride_r = (v.k + 1) * (v.db_seeds + 1)
    cdef uint64_t r = 0
    if s.m != m or s.empty_capture != v.empty_capture or v.built < 0:
        return PROBE_MISS
    for i in range(m):
        p[i] = s.pits[t * m + i]
        p[m + i] = s.pits[(1 - t) * m + i]
        seeds += p[i] + p[m + i]
        if seeds > v.built:
            return PROBE_MISS
    left = seeds
    for i in range(v.k - 1):
        r += v.offsets[left * stride_r + (v.k - i) * (v.db_seeds + 1) + p[i]]
        left -= p[i]
    value = v.levels[seeds][r]
    if value == UNKNOWN:
        return PROBE_MISS
    kind[0] = PROBE_EXACT
    upper[0] = s.store[t] - s.store[1 - t] + value
    return upper[0]


cdef class KalahSolver:
    """Exact values of Kalah(pits, *) positions; databases of every
    position with at most ``db_seeds`` seeds in the pits, a table of
    ``table_mb`` MiB above them."""

    cdef readonly int m
    cdef readonly bint empty_capture
    cdef readonly int db_seeds
    cdef readonly int built_seeds           # databases ready for 0..built_seeds
    cdef readonly unsigned long long nodes  # search nodes (database builds apart)
    cdef readonly unsigned long long db_positions
    cdef int k                              # 2m
    cdef uint64_t* offsets                  # [r][k][v]: ranks below pit value v
    cdef uint64_t* counts                   # [r][k]: distributions of r seeds in k pits
    cdef int8_t** levels                    # levels[S]: the database of S seeds
    cdef readonly unsigned long long level_done  # level built_seeds + 1: ranks computed
    cdef uint8_t next_pits[12]              # ... and the distribution of the next rank
    cdef Entry* table
    cdef uint64_t mask
    cdef int interrupted                    # 1: Ctrl-C; 2: the budget of ``best`` ran out
    cdef unsigned long long stop_nodes      # ``best``: stop at this node count (0: never)
    cdef double deadline                    # ``best``: stop at this time.monotonic() (0: never)
    cdef KalahView view
    cdef ProbeHook hook

    def __cinit__(self, int pits, bint empty_capture=False, int db_seeds=0, int table_mb=64):
        if not 1 <= pits <= MAX_SIDE:
            raise ValueError(f"the solver takes 1..{MAX_SIDE} pits a side")
        if not 0 <= db_seeds <= 40:
            raise ValueError("databases go up to 40 seeds")
        self.m = pits
        self.k = 2 * pits
        self.empty_capture = empty_capture
        self.db_seeds = db_seeds
        self.built_seeds = -1
        cdef int r, kk, v
        cdef int stride_k = self.k + 1, stride_r = (self.k + 1) * (db_seeds + 1)
        self.counts = <uint64_t*> calloc((db_seeds + 1) * stride_k, sizeof(uint64_t))
        self.offsets = <uint64_t*> calloc((db_seeds + 1) * stride_r, sizeof(uint64_t))
        self.levels = <int8_t**> calloc(db_seeds + 1, sizeof(int8_t*))
        cdef uint64_t entries = 1
        while entries * 2 * sizeof(Entry) <= (<uint64_t> table_mb) << 20:
            entries *= 2
        self.table = <Entry*> calloc(entries, sizeof(Entry))
        if not (self.counts and self.offsets and self.levels and self.table):
            raise MemoryError("no memory for the solver")
        self.mask = entries - 1
        self.view.m = self.m
        self.view.k = self.k
        self.view.db_seeds = db_seeds
        self.view.built = -1
        self.view.empty_capture = empty_capture
        self.view.offsets = self.offsets
        self.view.levels = self.levels
        self.hook.probe = kalah_probe
        self.hook.data = &self.view
        # counts[r][kk] = C(r + kk - 1, kk - 1); offsets[r][kk][v] = sum_{j<v} counts[r-j][kk-1]
        for r in range(db_seeds + 1):
            self.counts[r * stride_k] = 1 if r == 0 else 0
            for kk in range(1, self.k + 1):
                self.counts[r * stride_k + kk] = self.counts[r * stride_k + kk - 1] + (
                    self.counts[(r - 1) * stride_k + kk] if r else 0)
        for r in range(db_seeds + 1):
            for kk in range(1, self.k + 1):
                for v in range(1, r + 1):
                    self.offsets[r * stride_r + kk * (db_seeds + 1) + v] = (
                        self.offsets[r * stride_r + kk * (db_seeds + 1) + v - 1]
                        + self.counts[(r - v + 1) * stride_k + kk - 1])

    def __dealloc__(self):
        cdef int s
        if self.levels:
            for s in range(self.db_seeds + 1):
                free(self.levels[s])
        free(self.levels)
        free(self.counts)
        free(self.offsets)
        free(self.table)

    def clear(self):
        """Empty the table (the databases stay)."""
        memset(self.table, 0, (self.mask + 1) * sizeof(Entry))

    def level_size(self, int seeds):
        """Positions in the database of ``seeds`` seeds."""
        if not 0 <= seeds <= self.db_seeds:
            raise ValueError("no such database")
        return self.counts[seeds * (self.k + 1) + self.k]

    # -- the rules on normalised pits ---------------------------------------
    cdef void sow(self, const uint8_t* p, int move, Child* c) noexcept:
        """``c``: the position after the mover sows pit ``move`` (kalah.py)."""
        cdef int m = self.m, ring = 2 * m + 1
        cdef int seeds = p[move], slot = move, laps, i, facing, own = 0, other = 0
        memcpy(c.pits, p, 12)
        c.move = move
        c.pits[move] = 0
        c.gain = 0
        if seeds >= ring:
            laps = seeds // ring
            seeds -= laps * ring
            for i in range(2 * m):
                c.pits[i] += laps
            c.gain += laps
        while seeds:
            slot += 1
            if slot == ring:
                slot = 0
            if slot < m:
                c.pits[slot] += 1
            elif slot == m:
                c.gain += 1
            else:
                c.pits[slot - 1] += 1
            seeds -= 1
        c.extra = slot == m  # rule 2
        if slot < m and c.pits[slot] == 1:
            facing = 2 * m - 1 - slot
            if c.pits[facing] or self.empty_capture:  # rule 3
                c.gain += c.pits[facing] + 1
                c.pits[facing] = 0
                c.pits[slot] = 0
        for i in range(m):
            own += c.pits[i]
            other += c.pits[m + i]
        c.ended = own == 0 or other == 0  # rule 4
        c.rest = own - other
        if not c.extra and not c.ended:
            for i in range(m):  # the opponent moves: his row first
                c.pits[i], c.pits[m + i] = c.pits[m + i], c.pits[i]

    cdef uint64_t rank(self, const uint8_t* p, int seeds) noexcept:
        cdef uint64_t r = 0
        cdef int i, left = seeds, stride_r = (self.k + 1) * (self.db_seeds + 1)
        for i in range(self.k - 1):
            r += self.offsets[left * stride_r + (self.k - i) * (self.db_seeds + 1) + p[i]]
            left -= p[i]
        return r

    # -- the databases --------------------------------------------------------
    cdef int db_value(self, const uint8_t* p, int seeds, uint64_t index) noexcept:
        """V of ``p`` (``seeds`` seeds, rank ``index``), computed and kept
        when not known yet (its same-seed children first)."""
        cdef int8_t* level = self.levels[seeds]
        cdef int v = level[index], best = -INF, i, own = 0, other = 0
        cdef Child c
        if v != UNKNOWN:
            return v
        for i in range(self.m):
            own += p[i]
            other += p[self.m + i]
        if own == 0 or other == 0:
            best = own - other
        else:
            for i in range(self.m):
                if not p[i]:
                    continue
                self.sow(p, i, &c)
                if c.ended:
                    v = c.gain + c.rest
                elif c.extra:
                    v = c.gain + self.db_value(c.pits, seeds - c.gain,
                                               self.rank(c.pits, seeds - c.gain))
                else:
                    v = c.gain - self.db_value(c.pits, seeds - c.gain,
                                               self.rank(c.pits, seeds - c.gain))
                if v > best:
                    best = v
        level[index] = <int8_t> best
        return best

    def build(self, int seeds, double deadline=0.0, stop=None):
        """Build the database of ``seeds`` seeds (those below must be
        built). True once it is complete; False when the ``deadline``
        (time.monotonic() seconds, 0: none) comes first or ``stop()``
        returns true. What is computed stays (``level_done`` ranks): the
        next call for the level goes on from there, and so does one after
        Ctrl-C (SolveInterrupted). The level is probed only once complete.
        Time, ``stop`` and signals are checked every 16,384 positions (a
        few milliseconds)."""
        if seeds != self.built_seeds + 1 or seeds > self.db_seeds:
            raise ValueError(f"build the databases in order, up to {self.db_seeds}")
        cdef uint64_t n = self.counts[seeds * (self.k + 1) + self.k], index
        cdef int8_t* level = self.levels[seeds]
        cdef uint8_t* p = self.next_pits
        cdef int i, j, right
        if level == NULL:
            level = <int8_t*> malloc(n)
            if level == NULL:
                raise MemoryError(f"no memory for the {seeds}-seed database")
            memset(level, UNKNOWN & 0xFF, n)
            self.levels[seeds] = level
            memset(p, 0, 12)
            p[self.k - 1] = seeds
            self.level_done = 0
        index = self.level_done
        while index < n:
            self.db_value(p, seeds, index)
            index += 1
            if index == n:
                break
            # the next distribution in lexicographic order (the rank order;
            # there is one: index < n)
            right = p[self.k - 1]
            i = self.k - 2
            while i >= 0 and right == 0:
                right += p[i]
                i -= 1
            # pits i+1.. hold ``right`` seeds; move one of them into pit i
            right = 0
            for j in range(i + 1, self.k):
                right += p[j]
                p[j] = 0
            p[i] += 1
            p[self.k - 1] = right - 1
            if index & 0x3FFF == 0:
                self.level_done = index  # ``p`` is its distribution
                try:
                    PyErr_CheckSignals()
                except KeyboardInterrupt:
                    raise SolveInterrupted() from None
                if (deadline > 0.0 and now_seconds() >= deadline) or (
                        stop is not None and stop()):
                    return False
        self.level_done = 0  # of the next level
        self.built_seeds = seeds
        self.db_positions += n
        self.view.built = seeds
        return True

    def probe_hook(self):
        """The search's probe of these databases (search.pyx set_tablebase):
        a capsule named "bingwa.engine.ProbeHook"; keep this solver alive
        while it is used."""
        return PyCapsule_New(&self.hook, b"bingwa.engine.ProbeHook", NULL)

    # -- the search above the databases -------------------------------------
    cdef int search(self, const uint8_t* p, int seeds, int alpha, int beta) noexcept:
        """V of ``p`` (``seeds`` seeds), fail-soft: exact inside (alpha,
        beta), an upper bound when <= alpha, a lower bound when >= beta."""
        cdef int i, n = 0, v, best = -INF, best_move = 0, alpha0 = alpha, tried
        cdef int order[6]
        cdef int prio[6]
        cdef int known[6]       # 1: the child's value is exact without a search
        cdef int exact[6]
        cdef Child children[6]
        cdef Child* c
        cdef Entry* e
        cdef Entry* slot
        cdef uint64_t h
        if seeds <= self.built_seeds:
            return self.db_value(p, seeds, self.rank(p, seeds))
        self.nodes += 1
        if self.nodes & 0xFFFFF == 0 and PyErr_CheckSignals() < 0:
            PyErr_Clear()  # raised as SolveInterrupted once the search unwinds
            self.interrupted = 1
        if not self.interrupted and (
                (self.stop_nodes and self.nodes >= self.stop_nodes)
                or (self.deadline > 0.0 and self.nodes & 0xFFF == 0
                    and now_seconds() >= self.deadline)):
            self.interrupted = 2
        if self.interrupted:
            return 0
        # Step 1. The table: proven bounds on V
        h = pits_hash(p)
        e = &self.table[(h & self.mask) & ~(<uint64_t> 1)]
        slot = NULL
        if memcmp(e.pits, p, 12) == 0 and e.seeds:
            slot = e
        elif memcmp(e[1].pits, p, 12) == 0 and e[1].seeds:
            slot = &e[1]
        if slot != NULL:
            if slot.lower >= beta:
                return slot.lower
            if slot.upper <= alpha:
                return slot.upper
            if slot.lower == slot.upper:
                return slot.lower
            if slot.lower > alpha:
                alpha = slot.lower
            if slot.upper < beta:
                beta = slot.upper
            alpha0 = alpha
        # Step 2. Moves, ordered: children valued exactly at no cost (a game
        # end, a database entry) first, best first, as they may cut at once;
        # then the table's move, extra turns, the largest gains
        for i in range(self.m):
            if not p[i]:
                continue
            c = &children[n]
            self.sow(p, i, c)
            known[n] = 1
            if c.ended:
                exact[n] = c.gain + c.rest
            elif seeds - c.gain <= self.built_seeds:
                v = self.db_value(c.pits, seeds - c.gain, self.rank(c.pits, seeds - c.gain))
                exact[n] = c.gain + v if c.extra else c.gain - v
            else:
                known[n] = 0
            if known[n]:
                prio[n] = 100000 + exact[n]
            else:
                prio[n] = c.gain * 4 + (64 if c.extra else 0)
                if slot != NULL and slot.move == i:
                    prio[n] = 10000
            order[n] = n
            n += 1
        # insertion sort of the children's indices by priority, best first
        for i in range(1, n):
            v = i
            while v > 0 and prio[order[v - 1]] < prio[order[v]]:
                order[v - 1], order[v] = order[v], order[v - 1]
                v -= 1
        # Step 3. Negamax on margins: negate only when the turn passes
        for tried in range(n):
            c = &children[order[tried]]
            if known[order[tried]]:
                v = exact[order[tried]]
            elif c.extra:
                v = c.gain + self.search(c.pits, seeds - c.gain, alpha - c.gain, beta - c.gain)
            else:
                v = c.gain - self.search(c.pits, seeds - c.gain, c.gain - beta, c.gain - alpha)
            if self.interrupted:
                return 0
            if v > best:
                best = v
                best_move = c.move
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        # Step 4. Store the proven bound (keep the costlier of two positions)
        if slot == NULL:
            slot = e if e.seeds <= e[1].seeds else &e[1]
            memcpy(slot.pits, p, 12)
            slot.seeds = seeds
            slot.lower = -seeds
            slot.upper = seeds
        if best <= alpha0:
            if best < slot.upper:
                slot.upper = best
        elif best >= beta:
            if best > slot.lower:
                slot.lower = best
        else:
            slot.lower = slot.upper = best
        slot.move = best_move
        return best

    cdef int row_margin(self, const uint8_t* p) noexcept:
        """own row - other row when a row is empty (the game is over), else INF."""
        cdef int i, own = 0, other = 0
        for i in range(self.m):
            own += p[i]
            other += p[self.m + i]
        return own - other if own == 0 or other == 0 else INF

    cdef int load(self, object pits, uint8_t* p) except -1:
        cdef int i, total = 0
        if len(pits) != self.k:
            raise ValueError(f"a position of {self.m} pits a side needs {self.k} pits")
        memset(p, 0, 12)
        for i in range(self.k):
            if not 0 <= pits[i] <= MAX_SEEDS:
                raise ValueError("a pit holds 0..120 seeds")
            p[i] = pits[i]
            total += pits[i]
        if total > MAX_SEEDS:
            raise ValueError(f"the solver takes at most {MAX_SEEDS} seeds in the pits")
        return total

    cdef int mtd(self, const uint8_t* p, int seeds, int guess, object progress) except *:
        """V of ``p`` by MTD(f) from ``guess`` (not over; check ``interrupted``)."""
        cdef int lower = -seeds, upper = seeds, g = guess, beta
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self.search(p, seeds, beta - 1, beta)
            if self.interrupted:
                return 0
            if g < beta:
                upper = g
            else:
                lower = g
            if progress is not None:
                progress(lower, upper)
        return g

    cdef int move_value_at_least(self, const uint8_t* p, int seeds, int move, int target) noexcept:
        """Whether sowing pit ``move`` of ``p`` is worth at least ``target``
        (one null-window search; check ``interrupted``)."""
        cdef Child c
        cdef int v
        self.sow(p, move, &c)
        if c.ended:
            v = c.gain + c.rest
        elif c.extra:
            v = c.gain + self.search(c.pits, seeds - c.gain, target - 1 - c.gain, target - c.gain)
        else:
            v = c.gain - self.search(c.pits, seeds - c.gain, c.gain - target, c.gain - target + 1)
        return v >= target

    cdef int raise_interrupted(self) except -1:
        self.interrupted = 0
        raise SolveInterrupted()

    def value(self, pits, int guess=0, progress=None):
        """V of ``pits`` (the mover's row first) by MTD(f) from ``guess``;
        ``progress(lower, upper)`` is called after each step."""
        cdef uint8_t p[12]
        cdef int seeds = self.load(pits, p), g
        if self.row_margin(p) != INF:
            return self.row_margin(p)
        g = self.mtd(p, seeds, guess, progress)
        if self.interrupted:
            self.raise_interrupted()
        return g

    def best(self, pits, int guess=0, unsigned long long node_budget=0, double deadline=0.0,
             bint every=False):
        """``(V, moves)`` of ``pits`` (mover first, not over): the value and
        a move that keeps it (the table's move tried first), with ``every``
        each move that does (as many as the budget allows, at least one),
        or None when ``node_budget`` more nodes (0: no limit) or the
        ``deadline`` (time.monotonic() seconds, 0: none) come before the
        value and one move. Ctrl-C raises SolveInterrupted. What a stopped
        solve proved stays in the table."""
        cdef uint8_t p[12]
        cdef int seeds = self.load(pits, p), v = 0, i, first = -1, stopped
        cdef uint64_t h
        cdef Entry* e
        moves = []
        if self.row_margin(p) != INF:
            raise ValueError("the game is over")
        self.stop_nodes = self.nodes + node_budget if node_budget else 0
        self.deadline = deadline
        try:
            v = self.mtd(p, seeds, max(-seeds, min(seeds, guess)), None)
            if not self.interrupted:
                h = pits_hash(p)
                e = &self.table[(h & self.mask) & ~(<uint64_t> 1)]
                if memcmp(e.pits, p, 12) == 0 and e.seeds:
                    first = e.move
                elif memcmp(e[1].pits, p, 12) == 0 and e[1].seeds:
                    first = e[1].move
                if (0 <= first < self.m and p[first]
                        and self.move_value_at_least(p, seeds, first, v)
                        and not self.interrupted):
                    moves.append(first)
                for i in range(self.m):
                    if self.interrupted or (moves and not every):
                        break
                    if i != first and p[i] and self.move_value_at_least(p, seeds, i, v):
                        if not self.interrupted:
                            moves.append(i)
        finally:
            self.stop_nodes = 0
            self.deadline = 0.0
        stopped = self.interrupted
        if stopped == 1:
            self.raise_interrupted()
        self.interrupted = 0
        if not moves:
            return None
        return v, moves

    def move_at_least(self, pits, int move, int target):
        """Whether sowing pit ``move`` of ``pits`` (mover first) is worth at
        least ``target`` to the mover (one null-window search)."""
        cdef uint8_t p[12]
        cdef int seeds = self.load(pits, p), keeps
        if not 0 <= move < self.m or not p[move] or self.row_margin(p) != INF:
            raise ValueError("no such move")
        keeps = self.move_value_at_least(p, seeds, move, target)
        if self.interrupted:
            self.raise_interrupted()
        return bool(keeps)

    def db_lookup(self, pits):
        """V of ``pits`` from the databases (they must cover its seeds)."""
        cdef uint8_t p[12]
        cdef int seeds = self.load(pits, p)
        if seeds > self.built_seeds:
            raise ValueError(f"the databases hold up to {self.built_seeds} seeds")
        return self.db_value(p, seeds, self.rank(p, seeds))
