# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The history-aware search of engine/oware_exhaustive.py, compiled, over a
seed count's move graph (engine/oware_exact.py builds the graph with the
pure-Python rules and runs this).

The same negamax over every line, the path since the last capture
remembered, with the same six facts (the docstring of oware_exhaustive.py
argues each): captures and moves into another component of the
capture-free moves are exact values; bounds ``lo <= value <= hi`` that
hold whatever the path prune; a bound in the table is kept with the
positions it tested for a repetition and which of them were on the path,
and reused only where the path agrees on every one; a bound that rests on
no position tightens ``lo`` or ``hi`` for good and the positions before it
narrow too (``settle``); North to move is South's board turned round.

What differs is the representation only: the path is a byte per position
(``on_path``) and the sets of tested positions are sorted arrays of
position numbers (``IntSet``), where the Python solver keeps bit sets in
big integers. The tests hold the two to the same values on every board of
the small counts.

Positions are numbered ``2 * rank + side`` (``rank`` of the board in its
count, ``side`` 0 for South to move). The search recurses along a path:
run it on a thread with a large stack (oware_exact.py does).

Past 600 lines on purpose: the sets, the graph and the search are one
``nogil`` unit whose helpers inline into the search; split into modules
they would need a .pxd of inline functions and gain nothing in reading."""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t


cdef enum:
    INF = 99
    UNKNOWN = 127
    ENTRIES = 6          # bounds kept per position, the oldest goes first
    MAX_KEPT = 1 << 14   # a bound resting on more positions is not kept
    SAME = 0             # a capture-free move inside the component
    CAPTURE = 1          # a capture: the smaller count's exact value
    OTHER = 2            # a capture-free move into another component

#: the kinds of move of a graph (oware_exact.py writes them)
MOVE_SAME = SAME
MOVE_CAPTURE = CAPTURE
MOVE_OTHER = OTHER


cdef struct IntSet:
    int32_t* a
    int32_t n
    int32_t cap


cdef struct Entry:
    int32_t* items  # 2 * position + (1 if it was on the path), by position
    int32_t n
    int16_t lower
    int16_t upper


cdef struct Slot:
    Entry e[ENTRIES]
    int32_t count


class SolveStopped(Exception):
    """``stop()`` ended the search; what it found is not kept."""


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline void set_free(IntSet* s) noexcept nogil:
    free(s.a)
    s.a = NULL
    s.n = 0
    s.cap = 0


cdef inline int set_reserve(IntSet* s, int32_t need) noexcept nogil:
    cdef int32_t cap
    cdef int32_t* grown
    if need <= s.cap:
        return 0
    cap = s.cap * 2 if s.cap else 8
    while cap < need:
        cap *= 2
    grown = <int32_t*> realloc(s.a, cap * sizeof(int32_t))
    if grown == NULL:
        return -1
    s.a = grown
    s.cap = cap
    return 0


cdef inline int32_t set_find(IntSet* s, int32_t x) noexcept nogil:
    """The place of ``x`` in the sorted array (where it would go)."""
    cdef int32_t lo = 0, hi = s.n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if s.a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline bint set_has(IntSet* s, int32_t x) noexcept nogil:
    cdef int32_t i = set_find(s, x)
    return i < s.n and s.a[i] == x


cdef inline int set_add(IntSet* s, int32_t x) noexcept nogil:
    cdef int32_t i = set_find(s, x), j
    if i < s.n and s.a[i] == x:
        return 0
    if set_reserve(s, s.n + 1) < 0:
        return -1
    j = s.n
    while j > i:
        s.a[j] = s.a[j - 1]
        j -= 1
    s.a[i] = x
    s.n += 1
    return 0


cdef inline void set_remove(IntSet* s, int32_t x) noexcept nogil:
    cdef int32_t i = set_find(s, x)
    if i < s.n and s.a[i] == x:
        while i + 1 < s.n:
            s.a[i] = s.a[i + 1]
            i += 1
        s.n -= 1


cdef int set_union(IntSet* dst, IntSet* src) noexcept nogil:
    """dst |= src."""
    cdef int32_t i = 0, j = 0, k = 0, total = dst.n + src.n
    cdef int32_t* out
    if src.n == 0:
        return 0
    if dst.n == 0:
        if set_reserve(dst, src.n) < 0:
            return -1
        memcpy(dst.a, src.a, src.n * sizeof(int32_t))
        dst.n = src.n
        return 0
    out = <int32_t*> malloc(total * sizeof(int32_t))
    if out == NULL:
        return -1
    while i < dst.n and j < src.n:
        if dst.a[i] < src.a[j]:
            out[k] = dst.a[i]
            i += 1
        elif dst.a[i] > src.a[j]:
            out[k] = src.a[j]
            j += 1
        else:
            out[k] = dst.a[i]
            i += 1
            j += 1
        k += 1
    while i < dst.n:
        out[k] = dst.a[i]
        i += 1
        k += 1
    while j < src.n:
        out[k] = src.a[j]
        j += 1
        k += 1
    free(dst.a)
    dst.a = out
    dst.n = k
    dst.cap = total
    return 0


cdef inline void set_take(IntSet* dst, IntSet* src) noexcept nogil:
    """dst = src, src emptied."""
    free(dst.a)
    dst[0] = src[0]
    src.a = NULL
    src.n = 0
    src.cap = 0


cdef class Graph:
    """A seed count's positions (both sides to move) and their moves, in
    compressed rows: the moves of position ``p`` are ``start[p] ..
    start[p + 1] - 1``, each of a kind (``MOVE_*``), a child (SAME, OTHER)
    and a value (CAPTURE: the mover's margin with the smaller count's
    exact value; SAME: the mover's margin were the child a repetition).
    ``terminal[p]``: the margin where ``p`` has no move; ``mirror[p]``:
    for North to move, South's position of the board turned round;
    ``guess[p]``: a value the search tries first (a wrong one costs time
    only); ``seeds``: the count."""

    cdef int32_t positions, seeds
    cdef int32_t* start
    cdef uint8_t* kind
    cdef int32_t* child
    cdef int8_t* value
    cdef int8_t* terminal
    cdef int32_t* mirror
    cdef int8_t* guess
    cdef int32_t* pstart   # parents, compressed rows as the moves
    cdef int32_t* parent

    def __cinit__(self, int seeds, const int32_t[:] start, const uint8_t[:] kind,
                  const int32_t[:] child, const int8_t[:] value, const int8_t[:] terminal,
                  const int32_t[:] mirror, const int8_t[:] guess):
        cdef int32_t n = terminal.shape[0], m = kind.shape[0], p, k, c
        if start.shape[0] != n + 1 or child.shape[0] != m or value.shape[0] != m \
                or mirror.shape[0] != n or guess.shape[0] != n or start[n] != m:
            raise ValueError("the arrays of a graph do not agree")
        self.positions = n
        self.seeds = seeds
        self.start = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.kind = <uint8_t*> malloc(m + 1)
        self.child = <int32_t*> malloc((m + 1) * sizeof(int32_t))
        self.value = <int8_t*> malloc(m + 1)
        self.terminal = <int8_t*> malloc(n + 1)
        self.mirror = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        self.guess = <int8_t*> malloc(n + 1)
        self.pstart = <int32_t*> calloc(n + 2, sizeof(int32_t))
        self.parent = <int32_t*> malloc((m + 1) * sizeof(int32_t))
        if (self.start == NULL or self.kind == NULL or self.child == NULL or self.value == NULL
                or self.terminal == NULL or self.mirror == NULL or self.guess == NULL
                or self.pstart == NULL or self.parent == NULL):
            raise MemoryError("no memory for the move graph")
        for p in range(n + 1):
            self.start[p] = start[p]
        for p in range(n):
            self.terminal[p] = terminal[p]
            self.mirror[p] = mirror[p]
            self.guess[p] = guess[p]
            if not 0 <= mirror[p] < n:
                raise ValueError("a mirror outside the graph")
        for k in range(m):
            self.kind[k] = kind[k]
            self.child[k] = child[k]
            self.value[k] = value[k]
            if kind[k] != CAPTURE:
                if not 0 <= child[k] < n:
                    raise ValueError("a move outside the graph")
                self.pstart[child[k] + 1] += 1
        for p in range(n):
            self.pstart[p + 1] += self.pstart[p]
        # fill the parents: pstart[c] counts up as they are placed, then back
        for p in range(n):
            for k in range(self.start[p], self.start[p + 1]):
                if self.kind[k] != CAPTURE:
                    c = self.child[k]
                    self.parent[self.pstart[c]] = p
                    self.pstart[c] += 1
        for p in range(n, 0, -1):
            self.pstart[p] = self.pstart[p - 1]
        self.pstart[0] = 0

    def __dealloc__(self):
        free(self.start)
        free(self.kind)
        free(self.child)
        free(self.value)
        free(self.terminal)
        free(self.mirror)
        free(self.guess)
        free(self.pstart)
        free(self.parent)

    @property
    def size(self) -> int:
        return self.positions


cdef class Solver:
    """The search over one Graph: its own bounds, values, table and path,
    so that two Solvers of a graph can run at once on two threads."""

    cdef Graph g            # kept alive: the pointers below are its arrays
    cdef int32_t positions, seeds
    cdef int32_t* start
    cdef uint8_t* kind
    cdef int32_t* child
    cdef int8_t* mval
    cdef int8_t* terminal
    cdef int32_t* mirror
    cdef int8_t* guess
    cdef int32_t* pstart
    cdef int32_t* parent
    cdef int8_t* lo
    cdef int8_t* hi
    cdef int8_t* values
    cdef uint8_t* open_
    cdef uint8_t* on_path
    cdef uint8_t* ordered
    cdef uint8_t* perm      # 6 a position: the moves in the order searched
    cdef int8_t* exitv      # a move into another component: its value
    cdef Slot** table
    cdef uint8_t* waiting
    cdef int32_t* work      # settle's stack: each position at most once
    cdef public long long nodes
    cdef long long limit     # nodes past which a search stops (0: none)
    cdef volatile int stop_flag
    cdef int failed         # out of memory inside the search

    def __cinit__(self, Graph graph):
        cdef int32_t n = graph.positions, m = graph.start[graph.positions], p
        self.g = graph
        self.positions, self.seeds = graph.positions, graph.seeds
        self.start, self.kind, self.child = graph.start, graph.kind, graph.child
        self.mval, self.terminal, self.mirror = graph.value, graph.terminal, graph.mirror
        self.guess, self.pstart, self.parent = graph.guess, graph.pstart, graph.parent
        self.lo = <int8_t*> malloc(n + 1)
        self.hi = <int8_t*> malloc(n + 1)
        self.values = <int8_t*> malloc(n + 1)
        self.open_ = <uint8_t*> calloc(n + 1, 1)
        self.on_path = <uint8_t*> calloc(n + 1, 1)
        self.ordered = <uint8_t*> calloc(n + 1, 1)
        self.perm = <uint8_t*> malloc(6 * (n + 1))
        self.exitv = <int8_t*> calloc(m + 1, 1)
        self.table = <Slot**> calloc(n + 1, sizeof(Slot*))
        self.waiting = <uint8_t*> calloc(n + 1, 1)
        self.work = <int32_t*> malloc((n + 1) * sizeof(int32_t))
        if (self.lo == NULL or self.hi == NULL or self.values == NULL or self.open_ == NULL
                or self.on_path == NULL or self.ordered == NULL or self.perm == NULL
                or self.exitv == NULL or self.table == NULL or self.waiting == NULL
                or self.work == NULL):
            raise MemoryError("no memory for the exact search")
        for p in range(n):
            self.values[p] = UNKNOWN
            if graph.start[p] == graph.start[p + 1]:
                self.lo[p] = self.hi[p] = graph.terminal[p]
            else:  # no margin can exceed the seeds on the board
                self.lo[p] = -graph.seeds
                self.hi[p] = graph.seeds
        with nogil:
            self.settle_all()
        for p in range(n):  # only a position the bounds leave open is ever on a path
            self.open_[p] = self.lo[p] < self.hi[p]

    def __dealloc__(self):
        cdef int32_t p, i
        if self.table != NULL:
            for p in range(self.positions):
                if self.table[p] != NULL:
                    for i in range(self.table[p].count):
                        free(self.table[p].e[i].items)
                    free(self.table[p])
        free(self.table)
        free(self.lo)
        free(self.hi)
        free(self.values)
        free(self.open_)
        free(self.on_path)
        free(self.ordered)
        free(self.perm)
        free(self.exitv)
        free(self.waiting)
        free(self.work)

    # -- bounds whatever the path ---------------------------------------

    cdef void settle_all(self) noexcept nogil:
        cdef int32_t p, top = 0
        for p in range(self.positions):
            if self.start[p] < self.start[p + 1]:
                self.waiting[p] = 1
                self.work[top] = p
                top += 1
        self.settle(top)

    cdef void settle(self, int32_t top) noexcept nogil:
        """Narrow lo and hi from the positions on the work stack (``top``
        of them) to the fixed point: each to its best move's bounds, then
        its parents again. A position waits at most once, so the stack
        never holds more than the positions."""
        cdef int32_t p, k, c
        cdef int low, high, down, up
        while top > 0:
            top -= 1
            p = self.work[top]
            self.waiting[p] = 0
            low = -INF
            high = -INF
            for k in range(self.start[p], self.start[p + 1]):
                if self.kind[k] == CAPTURE:
                    down = up = self.mval[k]
                else:
                    c = self.child[k]
                    down = -self.hi[c]
                    up = -self.lo[c]
                    if self.kind[k] == SAME:
                        down = imin(self.mval[k], down)
                        up = imax(self.mval[k], up)
                low = imax(low, down)
                high = imax(high, up)
            if low > self.lo[p] or high < self.hi[p]:
                self.lo[p] = <int8_t> imax(low, self.lo[p])
                self.hi[p] = <int8_t> imin(high, self.hi[p])
                top = self.push_parents(p, top)

    cdef int32_t push_parents(self, int32_t p, int32_t top) noexcept nogil:
        """The parents of ``p`` still open and not waiting onto the work
        stack (``top`` of them there); the new ``top``."""
        cdef int32_t k, q
        for k in range(self.pstart[p], self.pstart[p + 1]):
            q = self.parent[k]
            if not self.waiting[q] and self.lo[q] < self.hi[q]:
                self.waiting[q] = 1
                self.work[top] = q
                top += 1
        return top

    cdef void tightened(self, int32_t p) noexcept nogil:
        """``p``'s bounds narrowed for good: its parents' may too."""
        self.settle(self.push_parents(p, 0))

    # -- the search -----------------------------------------------------

    cdef int top(self, int32_t p) noexcept nogil:
        """The value with no history (MTD(f) from the guess)."""
        cdef int lower, upper, value, beta
        cdef IntSet tested
        if self.values[p] != UNKNOWN:
            return self.values[p]
        if p & 1:  # North to move: South's board turned round
            value = self.top(self.mirror[p])
            if not self.stop_flag:
                self.values[p] = <int8_t> value
            return value
        lower = self.lo[p]
        upper = self.hi[p]
        value = imin(imax(self.guess[p], lower), upper)
        while lower < upper and not self.stop_flag:
            beta = value + 1 if value == lower else value
            tested.a = NULL
            tested.n = tested.cap = 0
            value = self.search(p, beta - 1, beta, &tested)
            set_free(&tested)
            if value < beta:
                upper = value
            else:
                lower = value
        if not self.stop_flag:
            self.values[p] = <int8_t> lower
        return lower

    cdef void order(self, int32_t p) noexcept nogil:
        """The moves of ``p``, the likely best first: exact values as they
        are (above the others at a tie), the others by the guess; a stable
        order, as Python's sort."""
        cdef int32_t m0 = self.start[p], m = self.start[p + 1] - self.start[p], j, i, k
        cdef int keyv[6]
        cdef int keyk[6]
        cdef uint8_t idx[6]
        cdef int v, kk
        cdef uint8_t t
        for j in range(m):
            k = m0 + j
            if self.kind[k] == CAPTURE:
                keyv[j] = self.mval[k]
                keyk[j] = 1
            elif self.kind[k] == OTHER:
                v = -self.top(self.child[k])
                self.exitv[k] = <int8_t> v
                keyv[j] = v
                keyk[j] = 1
            else:
                keyv[j] = -self.guess[self.child[k]]
                keyk[j] = 0
            idx[j] = <uint8_t> j
        for j in range(1, m):  # insertion sort, descending, stable
            t = idx[j]
            v = keyv[t]
            kk = keyk[t]
            i = j - 1
            while i >= 0 and (keyv[idx[i]] < v or (keyv[idx[i]] == v and keyk[idx[i]] < kk)):
                idx[i + 1] = idx[i]
                i -= 1
            idx[i + 1] = t
        for j in range(m):
            self.perm[6 * p + j] = idx[j]
        if not self.stop_flag:
            self.ordered[p] = 1

    cdef void keep(self, int32_t p, IntSet* tested, int lower, int upper) noexcept nogil:
        """A bound of ``p`` in the table, with the positions it tested and
        which of them are on the path now."""
        cdef Slot* slot = self.table[p]
        cdef Entry* e
        cdef int32_t i
        cdef int32_t* items
        if tested.n > MAX_KEPT:
            return
        items = <int32_t*> malloc(tested.n * sizeof(int32_t))
        if items == NULL:
            return  # not kept: only time is lost
        for i in range(tested.n):
            items[i] = 2 * tested.a[i] + self.on_path[tested.a[i]]
        if slot == NULL:
            slot = <Slot*> calloc(1, sizeof(Slot))
            if slot == NULL:
                free(items)
                return
            self.table[p] = slot
        if slot.count == ENTRIES:
            free(slot.e[0].items)
            for i in range(ENTRIES - 1):
                slot.e[i] = slot.e[i + 1]
            slot.count -= 1
        e = &slot.e[slot.count]
        e.items = items
        e.n = tested.n
        e.lower = <int16_t> lower
        e.upper = <int16_t> upper
        slot.count += 1

    cdef int search(self, int32_t p, int alpha, int beta, IntSet* out) noexcept nogil:
        """Fail-soft negamax of ``p`` reached along the path of ``on_path``;
        ``out`` (empty) receives the positions whose presence on the path
        the result depends on."""
        cdef int lo, hi, best, weak, value, up, down, lower, upper, j, i
        cdef int32_t m0, m, k, c
        cdef Slot* slot
        cdef Entry* e
        cdef bint match, own, differ
        cdef IntSet tested, weak_tested, below
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            self.stop_flag = 1
        if self.stop_flag or self.failed:
            return 0
        lo = self.lo[p]
        hi = self.hi[p]
        if lo >= beta or lo == hi:  # whatever the path
            return lo
        if hi <= alpha:
            return hi
        slot = self.table[p]
        if slot != NULL:
            for j in range(slot.count):
                e = &slot.e[j]
                match = True
                for i in range(e.n):
                    if self.on_path[e.items[i] >> 1] != (e.items[i] & 1):
                        match = False
                        break
                if not match:
                    continue
                if e.lower == e.upper or e.lower >= beta or e.upper <= alpha:
                    if set_reserve(out, e.n) < 0:
                        self.failed = 1
                        return 0
                    for i in range(e.n):
                        out.a[i] = e.items[i] >> 1
                    out.n = e.n
                    return e.lower if (e.lower == e.upper or e.lower >= beta) else e.upper
        m0 = self.start[p]
        m = self.start[p + 1] - m0
        if m == 0:  # the mover's row is empty: each takes his own row
            return self.terminal[p]
        if not self.ordered[p]:
            self.order(p)
            if self.stop_flag:
                return 0
        own = self.open_[p]
        if own:
            self.on_path[p] = 1
        best = -INF
        weak = -INF
        tested.a = weak_tested.a = below.a = NULL
        tested.n = weak_tested.n = below.n = 0
        tested.cap = weak_tested.cap = below.cap = 0
        for j in range(m):
            k = m0 + self.perm[6 * p + j]
            if self.kind[k] != SAME:  # exact: nothing on the path matters
                value = self.mval[k] if self.kind[k] == CAPTURE else self.exitv[k]
                weak = imax(weak, value)
                if value > best:
                    best = value
                    if best >= beta:
                        set_free(&tested)
                        break
                continue
            c = self.child[k]
            if self.open_[c] and self.on_path[c]:  # a repetition ends the game
                value = self.mval[k]
                # were the child not on the path: -hi(child) .. -lo(child)
                up = imax(value, -self.lo[c])
                down = imin(value, -self.hi[c])
                if up <= alpha:
                    weak = imax(weak, up)
                else:
                    weak = imax(weak, value)
                    if set_add(&weak_tested, c) < 0:
                        self.failed = 1
                if set_add(&tested, c) < 0:
                    self.failed = 1
                if value > best:
                    best = value
                    if best >= beta:
                        set_free(&tested)
                        if down >= beta:
                            best = down
                        elif set_add(&tested, c) < 0:
                            self.failed = 1
                        break
                continue
            value = -self.search(c, -beta, -imax(alpha, best), &below)
            if self.stop_flag or self.failed:
                set_free(&below)
                break
            if own:
                set_remove(&below, p)  # robust: below less this position
            differ = self.open_[c] and not set_has(&below, c)
            # were the child on the path: the repetition
            up = imax(value, self.mval[k])
            down = imin(value, self.mval[k])
            if up <= alpha and differ:
                weak = imax(weak, up)
                if set_union(&weak_tested, &below) < 0:
                    self.failed = 1
            else:
                weak = imax(weak, value)
                if set_union(&weak_tested, &below) < 0 or (
                        differ and set_add(&weak_tested, c) < 0):
                    self.failed = 1
            if set_union(&tested, &below) < 0 or (differ and set_add(&tested, c) < 0):
                self.failed = 1
            if value > best:
                best = value
                if best >= beta:  # the lower bound rests on this move alone
                    if down >= beta and differ:
                        best = down
                    elif differ and set_add(&below, c) < 0:
                        self.failed = 1
                    set_take(&tested, &below)
                    break
            set_free(&below)
        if own:
            self.on_path[p] = 0
        if self.stop_flag or self.failed:
            set_free(&tested)
            set_free(&weak_tested)
            set_free(&below)
            return 0
        if best <= alpha:  # a fail low: the bound that rests on fewer positions
            best = weak
            set_take(&tested, &weak_tested)
        set_free(&weak_tested)
        set_free(&below)
        lower = best if best > alpha else -INF
        upper = best if best < beta else INF
        if tested.n == 0:  # a bound whatever the path: keep it for good
            if lower > self.lo[p] or upper < self.hi[p]:
                self.lo[p] = <int8_t> imax(self.lo[p], lower)
                self.hi[p] = <int8_t> imin(self.hi[p], upper)
                self.tightened(p)
            set_free(&tested)
            return best
        self.keep(p, &tested, lower, upper)
        set_take(out, &tested)
        return best

    # -- Python's side ----------------------------------------------------

    def solve(self, int32_t first, int32_t last):
        """The values with no history of South's boards of ranks ``first``
        .. ``last - 1`` (a list); SolveStopped after ``stop()``,
        MemoryError where the search ran out."""
        cdef int32_t r
        cdef int8_t* found = <int8_t*> malloc(imax(1, last - first))
        if found == NULL:
            raise MemoryError("no memory for the values")
        try:
            with nogil:
                for r in range(first, last):
                    found[r - first] = <int8_t> self.top(2 * r)
                    if self.stop_flag or self.failed:
                        break
            if self.failed:
                raise MemoryError("the exact search ran out of memory")
            if self.stop_flag:
                raise SolveStopped("stopped")
            return [found[r] for r in range(last - first)]
        finally:
            free(found)

    def stop(self):
        """End the search at once (from another thread)."""
        self.stop_flag = 1

    def know(self, const int8_t[:] values):
        """The values with no history of every board, South to move, in
        rank order (a build's exact files; North to move is the board
        turned round): a move into another component is then worth its
        value at once, unsearched."""
        cdef int32_t p
        if 2 * values.shape[0] != self.positions:
            raise ValueError("one value a board")
        for p in range(self.positions):
            self.values[p] = values[(self.mirror[p] if p & 1 else p) >> 1]

    def clear_table(self):
        """Forget every bound of the table (not ``lo`` and ``hi``)."""
        cdef int32_t p, i
        for p in range(self.positions):
            if self.table[p] != NULL:
                for i in range(self.table[p].count):
                    free(self.table[p].e[i].items)
                free(self.table[p])
                self.table[p] = NULL

    def along(self, int32_t p, history, int first, below=None, long long node_limit=0):
        """The value for the side to move at ``p`` of the game reached
        along ``history`` (the positions of this count since the last
        capture, ``p`` not among them), from ``first`` (the likely value:
        the one with no history). With ``below``: exact only where it is
        below it, else some bound at least ``below``. A position of the
        history the bounds had decided gets a place on the path of its
        own, and the table, whose bounds never tested it, is cleared.
        SolveStopped past ``node_limit`` nodes (0: none); what it found
        before stays sound."""
        cdef int lower, upper, value, beta, bar
        cdef int32_t h
        cdef IntSet tested
        cdef list path = [int(h) for h in history]
        for h in path:
            if not 0 <= h < self.positions or h == p:
                raise ValueError("a position of the history outside the count, or the root")
        for h in path:
            if not self.open_[h]:
                self.open_[h] = 1
                self.clear_table()
        for h in path:
            self.on_path[h] = 1
        self.limit = self.nodes + node_limit if node_limit > 0 else 0
        self.stop_flag = 0
        tested.a = NULL
        tested.n = tested.cap = 0
        try:
            lower = self.lo[p]
            upper = self.hi[p]
            if below is not None:
                bar = below
                if lower >= bar:
                    return lower
                if upper >= bar:  # one null window: is it below?
                    with nogil:
                        value = self.search(p, bar - 1, bar, &tested)
                    set_free(&tested)
                    self.check()
                    if value >= bar:
                        return value
                    upper = value
            value = imin(imax(first, lower), upper)
            while lower < upper:
                beta = value + 1 if value == lower else value
                with nogil:
                    value = self.search(p, beta - 1, beta, &tested)
                set_free(&tested)
                self.check()
                if value < beta:
                    upper = value
                else:
                    lower = value
            return lower
        finally:
            set_free(&tested)
            for h in path:
                self.on_path[h] = 0
            self.limit = 0
            self.stop_flag = 0

    cdef check(self):
        if self.failed:
            raise MemoryError("the exact search ran out of memory")
        if self.stop_flag:
            raise SolveStopped("the node limit")

    def bounds(self, int32_t p):
        """(lo, hi) of position ``p`` as they stand."""
        return int(self.lo[p]), int(self.hi[p])

    def value(self, int32_t p):
        """The value found for ``p`` (None: not yet)."""
        return None if self.values[p] == UNKNOWN else int(self.values[p])
