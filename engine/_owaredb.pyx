# cython: language_level=3
"""Oware endgame databases by retrograde analysis: the compiled kernels
(ranking, the move generator of the board game, one sweep of the value
iteration, the probe). tablebase.py drives them; docs/databases.md gives
the value definition, the file format and the algorithm.

A database of ``n`` seeds holds one byte per board of exactly ``n`` seeds
on the 12 pits, South to move (North to move is the board turned round),
at the board's rank in the combinatorial number system (``rank_board``).
The value is the best final margin, for the side to move, of the seeds
still on the board (captured seeds do not change it), the game played
out by bingwa's Oware rules without the "more than 24" end.

The rules here are those of oware.py for South to move, written again on
a bare board (12 bytes, no scores): they must agree with the kernel, and
tests/engine/test_tablebase.py checks them against it.

(Past 600 lines: the probe, the sweeps, the finish, the ranks and the
move graph of one count all read the board kernels above (ranking,
sowing) as inline C; in another module they would be calls.)
"""

from libc.stdint cimport uint16_t, uint64_t
from libc.string cimport memcpy, memset

from bingwa.engine.oware_rules cimport (
    CAPTURE,
    FORBIDDEN,
    LEAVE_FIRST,
    LEAVE_LAST,
    OPPONENT,
)
from bingwa.engine.tworow_c cimport TwoRowState

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define BW_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define BW_PREFETCH(p) ((void) (p))
    #endif
    """
    void BW_PREFETCH(const void* p) noexcept nogil  # a hint: start loading p's cache line

cdef enum:
    PITS = 12
    BINOM_N = DB_MAX_SEEDS + PITS

cdef uint64_t BINOM[BINOM_N][PITS + 1]


cdef void fill_binomials() noexcept:
    cdef int n, k
    for n in range(BINOM_N):
        BINOM[n][0] = 1
        for k in range(1, PITS + 1):
            BINOM[n][k] = 0 if n == 0 else BINOM[n - 1][k - 1] + BINOM[n - 1][k]


fill_binomials()


def positions(int seeds):
    """Boards of exactly ``seeds`` seeds on the 12 pits: C(seeds + 11, 11)."""
    if not 0 <= seeds <= DB_MAX_SEEDS:
        raise ValueError(f"seeds must be in 0..{DB_MAX_SEEDS}")
    return BINOM[seeds + PITS - 1][PITS - 1]


# -- Ranking ------------------------------------------------------------------
#
# A board of n seeds is a line of n seeds and 11 bars (stars and bars): the
# bar after pit j sits at b_j = (seeds of pits 0..j) + j. The 11 bar places
# are a subset of 0..n+10, ranked in the colexicographic order: the rank is
# sum_j C(b_j, j + 1), from 0 (every seed in pit 11) to C(n + 11, 11) - 1.

cdef inline uint64_t rank_board(const unsigned char* pits) noexcept nogil:
    cdef uint64_t rank = 0
    cdef int j, bar = -1
    for j in range(PITS - 1):
        bar += pits[j] + 1
        rank += BINOM[bar][j + 1]
    return rank


cdef inline void bars_of_rank(uint64_t rank, int seeds, int* bars) noexcept nogil:
    cdef int j, b = seeds + PITS - 2
    for j in range(PITS - 2, -1, -1):
        while BINOM[b][j + 1] > rank:
            b -= 1
        bars[j] = b
        rank -= BINOM[b][j + 1]
        b -= 1


cdef inline void next_bars(int* bars, int seeds) noexcept nogil:
    """The bars of the next rank (colex successor)."""
    cdef int j = 0, k
    while j < PITS - 2 and bars[j] + 1 == bars[j + 1]:
        j += 1
    bars[j] += 1
    for k in range(j):
        bars[k] = k


cdef inline void board_of_bars(const int* bars, int seeds, unsigned char* pits) noexcept nogil:
    cdef int j
    pits[0] = bars[0]
    for j in range(1, PITS - 1):
        pits[j] = bars[j] - bars[j - 1] - 1
    pits[PITS - 1] = seeds + PITS - 2 - bars[PITS - 2]


def rank(pits):
    """The rank of a board (12 counts) among the boards of its seed count."""
    cdef unsigned char b[PITS]
    cdef int i
    if len(pits) != PITS:
        raise ValueError("a board has 12 pits")
    for i in range(PITS):
        b[i] = pits[i]
    return rank_board(b)


def unrank(uint64_t index, int seeds):
    """The board of rank ``index`` among the boards of ``seeds`` seeds."""
    cdef int bars[PITS - 1]
    cdef unsigned char b[PITS]
    if index >= positions(seeds):
        raise ValueError(f"rank {index} is out of range for {seeds} seeds")
    bars_of_rank(index, seeds, bars)
    board_of_bars(bars, seeds, b)
    return tuple([b[i] for i in range(PITS)])


# -- The moves of South on a bare board ------------------------------------------

cdef inline void turn_round(const unsigned char* pits, unsigned char* out) noexcept nogil:
    """The board seen by the other side (North's row first)."""
    memcpy(out, pits + 6, 6)
    memcpy(out + 6, pits, 6)


cdef inline int south_move(const unsigned char* pits, int move, int rule,
                           unsigned char* child, int* gain) noexcept nogil:
    """Plays South's ``move``: writes the board after it, seen by North
    (the side then to move), and South's gain minus North's in ``gain``.
    Returns 1 when it was a grand slam."""
    cdef unsigned char b[PITS]
    cdef int seeds = pits[move], pit = move, first, last, chain = 0, row = 0, i, slam = 0
    memcpy(b, pits, PITS)
    b[move] = 0
    while seeds:
        pit += 1
        if pit == PITS:
            pit = 0
        if pit != move:
            b[pit] += 1
            seeds -= 1
    last = pit
    first = last
    while first >= 6 and (b[first] == 2 or b[first] == 3):
        chain += b[first]
        first -= 1
    gain[0] = 0
    if chain:
        for i in range(6, PITS):
            row += b[i]
        if chain == row:  # the chain is pits first+1 .. last: a grand slam
            slam = 1
            if rule == CAPTURE or rule == OPPONENT:
                pass
            elif rule == LEAVE_FIRST:
                last -= 1
            elif rule == LEAVE_LAST:
                first += 1
            else:
                last = first  # nothing captured
        chain = 0
        for i in range(first + 1, last + 1):
            chain += b[i]
            b[i] = 0
        gain[0] = -chain if slam and rule == OPPONENT else chain
    turn_round(b, child)
    return slam


cdef inline int south_moves(const unsigned char* pits, int rule, unsigned char* children,
                            int* gains, int* played) noexcept nogil:
    """South's legal moves (rules of oware.py): the boards after them,
    seen by North, at ``children + 12 * k``, their gains and pits; returns how many
    (0: South's row is empty)."""
    cdef int n = 0, i, k, starving, slams = 0
    cdef int slam[6]
    starving = (pits[6] | pits[7] | pits[8] | pits[9] | pits[10] | pits[11]) == 0
    if starving:  # rule 5: feed if any move does
        for i in range(6):
            if pits[i] > 5 - i:
                slam[n] = south_move(pits, i, rule, children + PITS * n, gains + n)
                slams += slam[n]
                played[n] = i
                n += 1
    if n == 0:  # not starving, or no move feeds (the seed: sow in your row)
        for i in range(6):
            if pits[i]:
                slam[n] = south_move(pits, i, rule, children + PITS * n, gains + n)
                slams += slam[n]
                played[n] = i
                n += 1
    if rule == FORBIDDEN and slams and slams < n:
        k = 0
        for i in range(n):
            if not slam[i]:
                memcpy(children + PITS * k, children + PITS * i, PITS)
                gains[k] = gains[i]
                played[k] = played[i]
                k += 1
        n = k
    return n


def moves_of(pits, int rule=0):
    """[(pit, board after it seen by North, South's gain)] of South's legal
    moves (for tests: the kernel's rules on a bare board)."""
    cdef unsigned char b[PITS]
    cdef unsigned char kids[6 * PITS]
    cdef int gains[6]
    cdef int played[6]
    cdef int n, i, k
    for i in range(PITS):
        b[i] = pits[i]
    n = south_moves(b, rule, kids, gains, played)
    return [(played[k], tuple([kids[PITS * k + i] for i in range(PITS)]), gains[k])
            for k in range(n)]


# -- Values -----------------------------------------------------------------------

cdef inline int byte_value(unsigned char b) noexcept nogil:
    return (b & 0x7F) - VALUE_BIAS


def byte_of(int value, bint cycle=False):
    """The byte a file holds for a board of ``value`` (and the cycle
    mark): the inverse of what ``Tablebase.entry`` reads, for a file of
    values found another way (benchmarks/databases.py writes the
    exhaustive solver's)."""
    if not -VALUE_BIAS <= value < 0x80 - VALUE_BIAS:
        raise ValueError(f"{value} is beyond what a database byte holds")
    return (value + VALUE_BIAS) | (CYCLE_FLAG if cycle else 0)


cdef inline int board_seeds(const unsigned char* pits) noexcept nogil:
    cdef int i, n = 0
    for i in range(PITS):
        n += pits[i]
    return n


cdef inline int level_value(const TBData* d, const unsigned char* pits, int seeds) noexcept nogil:
    return byte_value(d.level[seeds][rank_board(pits)])


cdef int probe_state(const void* data, const void* state, int* kind,
                     int* upper) noexcept nogil:
    cdef const TBData* d = <const TBData*> data
    cdef const TwoRowState* s = <const TwoRowState*> state
    cdef unsigned char turned[PITS]
    cdef const unsigned char* board = s.pits
    cdef int seeds = board_seeds(s.pits), base
    cdef uint64_t r
    cdef unsigned char raw
    if seeds > d.max_seeds or s.rule != d.rule:
        return PROBE_MISS
    base = s.score[0] - s.score[1]
    if s.turn != 0:
        turn_round(s.pits, turned)
        board = turned
        base = -base
    r = rank_board(board)
    raw = d.level[seeds][r]
    if not d.is_proven:
        kind[0] = PROBE_ESTIMATE
        return byte_value(raw) + base
    if not raw & CYCLE_FLAG:
        kind[0] = PROBE_EXACT
        return byte_value(raw) + base
    kind[0] = PROBE_BOUNDS
    if d.proven[seeds] == NULL:  # bounds not loaded: only the seeds on the board bound it
        upper[0] = seeds + base
        return base - seeds
    upper[0] = byte_value(d.proven[seeds][2 * r + 1]) + base
    return byte_value(d.proven[seeds][2 * r]) + base


cdef class Tablebase:
    """The databases of 0..max_seeds seeds, read from buffers (the mapped
    files, tablebase.py); ``grandslam`` is the rule they were built for."""

    def __cinit__(self):
        cdef int i
        for i in range(DB_MAX_SEEDS + 1):
            self.c.level[i] = NULL
            self.c.proven[i] = NULL
        self.c.max_seeds = -1
        self.c.is_proven = 0
        self.searched = -1
        self.views = []

    def __init__(self, int grandslam, levels, proven=None):
        """``levels``: one buffer per seed count 0, 1, ... in order, each of
        ``positions(seeds)`` bytes; ``proven``, for a builder of the next
        count, the same counts' proven bounds (2 bytes a board)."""
        cdef const unsigned char[::1] view
        cdef int seeds
        self.grandslam = grandslam
        self.c.rule = grandslam
        for seeds, buffer in enumerate(levels):
            view = buffer
            if <uint64_t> view.shape[0] != positions(seeds):
                raise ValueError(f"the {seeds}-seed database has {view.shape[0]} bytes, "
                                 f"not {positions(seeds)}")
            self.views.append(view)
            self.c.level[seeds] = &view[0]
            self.c.max_seeds = seeds
        if proven is not None:
            if len(proven) != len(levels):
                raise ValueError(f"{len(proven)} bounds files for {len(levels)} databases")
            for seeds, buffer in enumerate(proven):
                view = buffer
                if <uint64_t> view.shape[0] != 2 * positions(seeds):
                    raise ValueError(f"the {seeds}-seed bounds have {view.shape[0]} bytes, "
                                     f"not {2 * positions(seeds)}")
                self.views.append(view)
                self.c.proven[seeds] = &view[0]

    @property
    def proven(self):
        """Built with --prove: an unflagged entry is proven exact (tablebase.py sets it)."""
        return bool(self.c.is_proven)

    @proven.setter
    def proven(self, bint value):
        self.c.is_proven = value

    def probe(self, state):
        """What the search reads for ``state`` (pits, scores, turn), an
        Oware state of this rule: (kind, lo, hi) of the final margin for the
        side to move, kind "exact", "bounds" or "estimate"; None out of range."""
        cdef TwoRowState t
        cdef int i, kind = 0, upper = 0, value
        pits, scores, turn = state
        memset(&t, 0, sizeof(t))
        for i in range(PITS):
            t.pits[i] = pits[i]
        t.score[0] = scores[0]
        t.score[1] = scores[1]
        t.turn = turn
        t.rule = self.c.rule
        value = probe_state(&self.c, &t, &kind, &upper)
        if value == PROBE_MISS:
            return None
        if kind == PROBE_BOUNDS:
            return "bounds", value, upper
        return ("exact" if kind == PROBE_EXACT else "estimate"), value, value

    @property
    def has_bounds(self):
        """Whether every loaded count has its proven bounds (a builder needs them)."""
        return all(self.c.proven[i] != NULL for i in range(self.c.max_seeds + 1))

    @property
    def max_seeds(self):
        return self.c.max_seeds

    def entry(self, pits):
        """(value, cycle-dependent) of the board ``pits``, South to move."""
        cdef unsigned char b[PITS]
        cdef int i, seeds
        for i in range(PITS):
            b[i] = pits[i]
        seeds = board_seeds(b)
        if seeds > self.c.max_seeds:
            raise ValueError(f"{seeds} seeds: the databases hold up to {self.c.max_seeds}")
        cdef unsigned char raw = self.c.level[seeds][rank_board(b)]
        return byte_value(raw), bool(raw & CYCLE_FLAG)


# -- Building one seed count ---------------------------------------------------------
#
# Each board of n seeds has a pair of bounds, lo and hi (value + VALUE_BIAS,
# side by side in one array: a child costs one cache miss), started at -n
# and +n and swept until nothing changes: lo(P) = max over the moves of the
# move's value with each child at hi (a non-capturing child stays at n
# seeds and is read in the array; a capture leads to a smaller, finished
# database), hi(P) the same with each child at lo. lo only rises, hi only
# falls, and their limit is the least fixed point from those extremes
# whatever the order of the updates, so threads may sweep in place.
# lo(P) is what the mover can force within finitely many moves, hi(P) what
# the other side cannot keep him from; lo == hi: the value is that, whatever
# a cycle of this count would give ("settled"). Else the value depends on
# the cycle (CYCLE_FLAG).
#
# A settled value takes the smaller counts' values as they are stored, the
# cycle-dependent ones too. With ``prove`` each board has a second pair, the
# *proven* one, which takes for a capture into a smaller board its proven
# bounds (the value itself for a proven entry), so it bounds the value of
# the game started at P: a capture empties the history. An entry is then
# unflagged only when its proven pair meets; the point pair (which lies
# within it) still gives the stored value. The two layouts, 4 and 8 bytes a
# board, are the same code with ``prove`` a constant.

cdef struct Visit:
    # a board whose children's ranks are known and their bounds loading
    uint64_t i
    int n
    uint64_t at[6]
    unsigned char pits[PITS]


cdef inline void prepare(const TBData* d, int seeds, int rule, const unsigned char* bounds,
                         unsigned char* fixed, unsigned char* quiet, uint64_t i,
                         const int* bars, Visit* visit, const bint prove) noexcept nogil:
    """The first half of a visit of rank ``i`` (its bars given): its board
    and the ranks of its capture-free children in ``visit``, their bounds
    starting to load (``combine`` reads them). The first visit generates
    every move and keeps what no sweep can change: in ``fixed`` the best
    of the captures (finished databases) and of having no move (with
    ``prove`` also at the proven lo and hi of the captured boards); in
    ``quiet[i]`` the pits of the moves that capture nothing; later visits
    sow only those."""
    cdef unsigned char kids[6 * PITS]
    cdef int gains[6]
    cdef int played[6]
    cdef int n, k, left, v, mask
    cdef int best[4]
    cdef unsigned char raw
    cdef const unsigned char* kid
    cdef int width = 4 if prove else 2
    cdef int slots = 3 if prove else 1
    cdef unsigned char* kept = fixed + slots * i
    cdef unsigned char* pits = visit.pits
    cdef uint64_t j
    cdef int lefts[6]
    board_of_bars(bars, seeds, pits)
    visit.i = i
    if not kept[0]:
        n = south_moves(pits, rule, kids, gains, played)
        # also the value without a move: North takes his row
        best[0] = best[2] = best[3] = -seeds
        mask = 0
        for k in range(n):  # the captures' ranks first, their entries loading meanwhile
            kid = kids + PITS * k
            lefts[k] = board_seeds(kid) if gains[k] else seeds
            if lefts[k] < seeds:
                visit.at[k] = rank_board(kid)
                BW_PREFETCH(d.level[lefts[k]] + visit.at[k])
                if prove:
                    BW_PREFETCH(d.proven[lefts[k]] + 2 * visit.at[k])
        for k in range(n):
            left = lefts[k]
            if left == seeds:
                mask |= 1 << played[k]
                continue
            j = visit.at[k]
            raw = d.level[left][j]
            v = gains[k] - byte_value(raw)
            if v > best[0]:
                best[0] = v
            if prove:
                if raw & CYCLE_FLAG:  # proven lo: from the child's proven hi
                    if gains[k] - byte_value(d.proven[left][2 * j + 1]) > best[2]:
                        best[2] = gains[k] - byte_value(d.proven[left][2 * j + 1])
                    if gains[k] - byte_value(d.proven[left][2 * j]) > best[3]:
                        best[3] = gains[k] - byte_value(d.proven[left][2 * j])
                else:
                    if v > best[2]:
                        best[2] = v
                    if v > best[3]:
                        best[3] = v
        kept[0] = best[0] + VALUE_BIAS
        if prove:
            kept[1] = best[2] + VALUE_BIAS
            kept[2] = best[3] + VALUE_BIAS
        quiet[i] = mask
    mask = quiet[i]
    n = 0
    for k in range(6):
        if mask & (1 << k):
            south_move(pits, k, rule, kids, gains)
            visit.at[n] = rank_board(kids)
            BW_PREFETCH(bounds + width * visit.at[n])
            n += 1
    visit.n = n


cdef inline int combine(unsigned char* bounds, const unsigned char* fixed, const Visit* visit,
                        const bint prove) noexcept nogil:
    """The second half of a visit (``prepare``): the board's bounds from
    its first-visit values and its children's bounds; how many moved."""
    cdef int k, changed = 0
    cdef int best[4]
    cdef const unsigned char* child
    cdef int width = 4 if prove else 2
    cdef int slots = 3 if prove else 1
    cdef unsigned char* mine = bounds + width * visit.i
    cdef const unsigned char* kept = fixed + slots * visit.i
    best[0] = best[1] = <int> kept[0] - VALUE_BIAS
    if prove:
        best[2] = <int> kept[1] - VALUE_BIAS
        best[3] = <int> kept[2] - VALUE_BIAS
    for k in range(visit.n):
        child = bounds + width * visit.at[k]
        # lo from the child's hi, hi from its lo (and the same for the proven pair)
        if -byte_value(child[1]) > best[0]:
            best[0] = -byte_value(child[1])
        if -byte_value(child[0]) > best[1]:
            best[1] = -byte_value(child[0])
        if prove:
            if -byte_value(child[3]) > best[2]:
                best[2] = -byte_value(child[3])
            if -byte_value(child[2]) > best[3]:
                best[3] = -byte_value(child[2])
    for k in range(0, width, 2):
        if best[k] + VALUE_BIAS > mine[k]:
            mine[k] = best[k] + VALUE_BIAS
            changed += 1
        if best[k + 1] + VALUE_BIAS < mine[k + 1]:
            mine[k + 1] = best[k + 1] + VALUE_BIAS
            changed += 1
    return changed


cdef enum:
    MAX_PARENTS = 6 * DB_MAX_SEEDS  # a pit and a number of seeds sown from it


cdef inline int parents_of(const unsigned char* pits, int seeds, const unsigned char* quiet,
                           uint64_t* parents, const unsigned char* bounds,
                           int width) noexcept nogil:
    """The ranks of the boards with a quiet move to ``pits`` (a board as
    the sweeps rank it: seen by the side to move after the move); returns
    how many. The move sowed its pit p (empty after it, the origin being
    skipped) with s seeds, one to each of the next pits in turn: the parent
    is the board with one seed taken back from each and s in p, for each s
    while the pits allow; the parent's first visit (its ``quiet`` mask) says
    whether that move is legal and quiet in it. Their ``bounds`` (``width``
    bytes a board) start loading (a hint)."""
    cdef unsigned char after[PITS]
    cdef unsigned char parent[PITS]
    cdef unsigned char pit[MAX_PARENTS]
    cdef int p, q, s, k, n = 0, m = 0
    turn_round(pits, after)  # the mover's row first, as he saw it
    for p in range(6):
        if after[p]:
            continue
        memcpy(parent, after, PITS)
        q = p
        for s in range(1, seeds + 1):
            q += 1
            if q == PITS:
                q = 0
            if q == p:
                q += 1
                if q == PITS:
                    q = 0
            if parent[q] == 0:
                break  # a larger s needs this seed too
            parent[q] -= 1
            parent[p] = s
            parents[m] = rank_board(parent)
            BW_PREFETCH(quiet + parents[m])
            pit[m] = p
            m += 1
    for k in range(m):  # then their masks, loaded meanwhile
        if quiet[parents[k]] & (1 << pit[k]):
            parents[n] = parents[k]
            BW_PREFETCH(bounds + width * parents[n])
            n += 1
    return n


cdef inline bint moves_parent(const unsigned char* parent, const unsigned char* before,
                              const unsigned char* now, int width) noexcept nogil:
    """Whether a child's bounds going from ``before`` to ``now`` can move
    its parent's (``parent``; 2 or 4 biased bytes each, the same layout).
    The parent's lo is the best of its moves at the children's hi: it rises
    only where the child's new hi makes this move better than it. Its hi
    is the best at the children's lo: it falls only where this move was
    (one of) the best, its old value reaching it; else another move keeps
    it. The bytes are value + VALUE_BIAS, so a move's value is 2 VALUE_BIAS
    less the child's byte."""
    cdef int k
    for k in range(0, width, 2):
        if now[k + 1] < before[k + 1] and 2 * VALUE_BIAS - now[k + 1] > parent[k]:
            return True
        if now[k] > before[k] and 2 * VALUE_BIAS - before[k] >= parent[k + 1]:
            return True
    return False


cdef inline long long settle(unsigned char* bounds, const unsigned char* fixed,
                             const unsigned char* quiet, unsigned char* dirty, int seeds,
                             const Visit* visit, const bint prove, bint marking) noexcept nogil:
    """``combine`` a prepared visit; ``marking``: where its bounds moved,
    flag the parents whose bounds this can move. How many moved."""
    cdef unsigned char before[4]
    cdef uint64_t parents[MAX_PARENTS]
    cdef uint64_t r
    cdef int moved, k, n
    cdef int width = 4 if prove else 2
    cdef const unsigned char* theirs
    cdef const unsigned char* now = bounds + width * visit.i
    memcpy(before, now, width)
    moved = combine(bounds, fixed, visit, prove)
    if moved and marking:
        n = parents_of(visit.pits, seeds, quiet, parents, bounds, width)
        for k in range(n):
            r = parents[k]
            theirs = bounds + width * r
            if (theirs[width - 2] != theirs[width - 1]
                    and moves_parent(theirs, before, now, width)):
                dirty[r] = 1
    return moved


cdef inline long long sweep_as(const TBData* d, int seeds, int rule, unsigned char* bounds,
                               unsigned char* fixed, unsigned char* quiet, unsigned char* dirty,
                               uint64_t start, uint64_t stop, const bint prove,
                               bint marking) noexcept nogil:
    # one board behind: a board's children's bounds load while the next
    # board's are ranked (the same reads and writes in the same order; a
    # flag set for the board just prepared takes it into the next pass)
    cdef int bars[PITS - 1]
    cdef Visit visits[2]
    cdef int held = -1
    cdef uint64_t i
    cdef long long changed = 0
    cdef const unsigned char* mine
    bars_of_rank(start, seeds, bars)
    for i in range(start, stop):
        if i > start:
            next_bars(bars, seeds)
        if marking:
            if not dirty[i]:
                continue  # no child moved since its last visit
            dirty[i] = 0
        # not settled (with prove: the proven pair, the point pair lying within it)
        mine = bounds + 4 * i + 2 if prove else bounds + 2 * i
        if mine[0] != mine[1]:
            prepare(d, seeds, rule, bounds, fixed, quiet, i, bars, &visits[(held + 1) & 1],
                    prove)
            if held >= 0:
                changed += settle(bounds, fixed, quiet, dirty, seeds, &visits[held], prove,
                                  marking)
            held = (held + 1) & 1
    if held >= 0:
        changed += settle(bounds, fixed, quiet, dirty, seeds, &visits[held], prove, marking)
    return changed


cdef long long sweep(const TBData* d, int seeds, int rule, unsigned char* bounds,
                     unsigned char* fixed, unsigned char* quiet, unsigned char* dirty,
                     uint64_t start, uint64_t stop, bint prove, bint marking) noexcept nogil:
    """One pass over the ranks start..stop-1, every one; or, ``marking``,
    over those flagged in ``dirty``, each unflagged as it is visited and
    the parents whose bounds its move can move flagged. Returns how many
    bounds moved."""
    if prove:
        return sweep_as(d, seeds, rule, bounds, fixed, quiet, dirty, start, stop, True, marking)
    return sweep_as(d, seeds, rule, bounds, fixed, quiet, dirty, start, stop, False, marking)


cdef void finish(int seeds, const unsigned char* bounds, unsigned char* out,
                 unsigned char* proven, uint64_t start, uint64_t stop) noexcept nogil:
    """The stored byte: the value when the bounds meet (with ``proven``,
    the proven bounds, which it receives); else, with CYCLE_FLAG, the point
    pair's value when it meets, else the value of a repetition of the
    board itself (each side takes his own row) kept within it."""
    cdef int bars[PITS - 1]
    cdef unsigned char pits[PITS]
    cdef int own, v, lo, hi
    cdef uint64_t i
    cdef const unsigned char* mine
    cdef int width = 2 if proven == NULL else 4
    bars_of_rank(start, seeds, bars)
    for i in range(start, stop):
        if i > start:
            next_bars(bars, seeds)
        mine = bounds + width * i
        lo = mine[0]
        hi = mine[1]
        if proven != NULL:
            proven[2 * i] = mine[2]
            proven[2 * i + 1] = mine[3]
            if mine[2] == mine[3]:
                out[i] = mine[2]
                continue
        elif lo == hi:
            out[i] = lo
            continue
        if lo == hi:
            out[i] = <unsigned char> (lo | CYCLE_FLAG)
            continue
        board_of_bars(bars, seeds, pits)
        own = pits[0] + pits[1] + pits[2] + pits[3] + pits[4] + pits[5]
        v = 2 * own - seeds + VALUE_BIAS
        if v < lo:
            v = lo
        if v > hi:
            v = hi
        out[i] = <unsigned char> (v | CYCLE_FLAG)


# -- Ranks: how far each proven bound is from being reached ------------------------
#
# A proven bound says what one side can force, but playing a move that keeps
# the value is not enough: a cycle of such moves may never get there, and the
# repetition then ends the game at another score (docs/databases.md, "Playing
# the claims"). Each board of a --prove build therefore gets two ranks, for
# its final proven pair (L, H), the side to move's:
#
#   rank_lo: 0 when L is reached at once (a capture or an end worth L, or L
#       is the trivial -n); else 1 + the least rank_hi over the quiet moves
#       to a board whose -H is L;
#   rank_hi: 0 when H is the trivial +n; else 1 + the largest rank_lo over
#       the quiet moves to a board whose -L is H (a move worth less than H
#       to the mover counts 0: the other side's guarantee has grown).
#
# They are swept in place from "unknown" (RANK_NONE) until no rank is given:
# a rank is given once, from ranks given before it (so not always the least
# one), and is more than each of them. The side keeping a bound by a move of
# smaller rank, and raising the target when a better bound comes, thus sees
# (bound, -rank) grow at every ply: no board of the line can come twice. A
# board gets both ranks by the pass of its least rank: by induction, the
# boards its least rank comes from have theirs one pass before.

cdef enum:
    RANK_NONE = 0xFFFF    # no rank found (or past 0xFFFE plies)


cdef struct RankVisit:
    # a board whose ranks are open, its children ranked and loading
    uint64_t i
    int n, lo, hi, rl, rh
    bint open_lo, open_hi
    uint64_t at[6]
    unsigned char pits[PITS]


cdef inline bint rank_prepare(int seeds, int rule, const unsigned char* bounds,
                              const unsigned char* fixed, const unsigned char* quiet,
                              const uint16_t* ranks, uint64_t i, const int* bars,
                              RankVisit* visit, bint marking) noexcept nogil:
    """The first half of a rank visit of ``i`` (its bars given): False if
    both its ranks are given; else the ranks it has at once and its
    capture-free children ranked in ``visit``, their bounds and ranks
    starting to load, and its board where they are sown or (``marking``)
    its parents may be sought."""
    cdef unsigned char kids[PITS]
    cdef int gains[1]
    cdef int k, n = 0, mask
    cdef int rl = ranks[2 * i], rh = ranks[2 * i + 1]
    cdef int lo = <int> bounds[4 * i + 2] - VALUE_BIAS
    cdef int hi = <int> bounds[4 * i + 3] - VALUE_BIAS
    if rl != RANK_NONE and rh != RANK_NONE:
        return False  # a rank is given once: those it was computed from never change
    mask = quiet[i]
    if rl == RANK_NONE and (lo == -seeds or <int> fixed[3 * i + 1] - VALUE_BIAS == lo):
        rl = 0
    if hi == seeds:
        rh = 0
    visit.i = i
    visit.lo = lo
    visit.hi = hi
    visit.rl = rl
    visit.rh = rh
    visit.open_lo = rl == RANK_NONE
    visit.open_hi = rh == RANK_NONE
    if mask and (visit.open_lo or visit.open_hi):
        board_of_bars(bars, seeds, visit.pits)
        for k in range(6):  # each child once for both ranks
            if mask & (1 << k):
                south_move(visit.pits, k, rule, kids, gains)
                visit.at[n] = rank_board(kids)
                BW_PREFETCH(bounds + 4 * visit.at[n])
                BW_PREFETCH(ranks + 2 * visit.at[n])
                n += 1
    elif marking:
        board_of_bars(bars, seeds, visit.pits)
    visit.n = n
    return True


cdef inline long long rank_settle(int seeds, const unsigned char* bounds,
                                  const unsigned char* quiet, uint16_t* ranks,
                                  unsigned char* dirty, const RankVisit* visit,
                                  bint marking) noexcept nogil:
    """The second half (``rank_prepare``): the ranks its children give,
    written; ``marking``: the parents they may give one flagged. How many
    ranks it gave."""
    cdef uint64_t parents[MAX_PARENTS]
    cdef uint64_t i = visit.i, j, p
    cdef int k, n, r = 0, rl = visit.rl, rh = visit.rh
    cdef const unsigned char* child
    cdef const unsigned char* mine
    cdef long long changed
    for k in range(visit.n):
        j = visit.at[k]
        child = bounds + 4 * j
        if (visit.open_lo and -(<int> child[3] - VALUE_BIAS) == visit.lo
                and ranks[2 * j + 1] + 1 < rl):
            rl = ranks[2 * j + 1] + 1
        if (visit.open_hi and -(<int> child[2] - VALUE_BIAS) == visit.hi
                and ranks[2 * j] + 1 > r):
            r = ranks[2 * j] + 1
    if visit.open_hi and r < RANK_NONE:
        rh = r
    if rl == ranks[2 * i] and rh == ranks[2 * i + 1]:
        return 0
    changed = (rl != ranks[2 * i]) + (rh != ranks[2 * i + 1])
    if marking:
        # a parent's rank_lo may come from this rank_hi where the move keeps
        # its proven lo, its rank_hi from this rank_lo where it keeps its hi
        n = parents_of(visit.pits, seeds, quiet, parents, bounds, 4)
        mine = bounds + 4 * i
        for k in range(n):
            p = parents[k]
            if ((rh != ranks[2 * i + 1] and ranks[2 * p] == RANK_NONE
                 and 2 * VALUE_BIAS - mine[3] == bounds[4 * p + 2])
                    or (rl != ranks[2 * i] and ranks[2 * p + 1] == RANK_NONE
                        and 2 * VALUE_BIAS - mine[2] == bounds[4 * p + 3])):
                dirty[p] = 1
    ranks[2 * i] = rl
    ranks[2 * i + 1] = rh
    return changed


cdef inline long long rank_sweep_as(int seeds, int rule, const unsigned char* bounds,
                                    const unsigned char* fixed, const unsigned char* quiet,
                                    uint16_t* ranks, unsigned char* dirty,
                                    uint64_t start, uint64_t stop, bint marking) noexcept nogil:
    # a full pass works one board behind, as the sweeps do (the same reads
    # and writes in the same order); a flagged one settles each board at
    # once, so that a rank is given in the same pass as by full passes
    cdef int bars[PITS - 1]
    cdef RankVisit visits[2]
    cdef int held = -1, slot
    cdef uint64_t i
    cdef long long changed = 0
    bars_of_rank(start, seeds, bars)
    for i in range(start, stop):
        if i > start:
            next_bars(bars, seeds)
        if marking:
            if not dirty[i]:
                continue  # no child was given a rank since its last visit
            dirty[i] = 0
        slot = (held + 1) & 1
        if not rank_prepare(seeds, rule, bounds, fixed, quiet, ranks, i, bars, &visits[slot],
                            marking):
            continue
        if marking:
            changed += rank_settle(seeds, bounds, quiet, ranks, dirty, &visits[slot], True)
            continue
        if held >= 0:
            changed += rank_settle(seeds, bounds, quiet, ranks, dirty, &visits[held], False)
        held = slot
    if held >= 0:
        changed += rank_settle(seeds, bounds, quiet, ranks, dirty, &visits[held], False)
    return changed

cdef class LevelBuilder:
    """Builds the database of ``seeds`` seeds from ``smaller`` (a Tablebase
    holding every smaller count, with ``prove`` their proven bounds too):
    ``sweep_range`` and ``finish_range`` release the GIL, so threads may
    run them on parts of the ranks."""

    cdef readonly int seeds
    cdef readonly int rule
    cdef readonly bint prove
    cdef Tablebase smaller
    cdef bytearray bounds_buf   # 2 bytes a board (lo, hi); 4 with prove (and the proven pair)
    cdef unsigned char* bounds
    cdef bytearray fixed_buf    # 1 byte a board, 3 with prove; the first 0 before its first visit
    cdef unsigned char* fixed
    cdef bytearray quiet_buf
    cdef unsigned char* quiet
    cdef bytearray dirty_buf    # 1 byte a board: to be visited (a child moved since its last visit)
    cdef unsigned char* dirty

    def __init__(self, int seeds, int rule, Tablebase smaller, bint prove=False):
        cdef uint64_t n = positions(seeds)
        if smaller.c.max_seeds != seeds - 1 or smaller.grandslam != rule:
            raise ValueError(f"building {seeds} seeds needs the databases of 0..{seeds - 1}")
        if prove and not smaller.has_bounds:
            raise ValueError(f"proving {seeds} seeds needs the proven bounds of 0..{seeds - 1}")
        self.seeds = seeds
        self.rule = rule
        self.prove = prove
        self.smaller = smaller
        pair = [VALUE_BIAS - seeds, VALUE_BIAS + seeds]
        self.bounds_buf = bytearray(pair * (2 if prove else 1)) * n
        self.bounds = self.bounds_buf
        self.fixed_buf = bytearray((3 if prove else 1) * n)
        self.fixed = self.fixed_buf
        self.quiet_buf = bytearray(n)
        self.quiet = self.quiet_buf
        self.dirty_buf = bytearray(b"\x01") * n
        self.dirty = self.dirty_buf

    @property
    def count(self):
        return positions(self.seeds)

    def flag_all(self):
        """Every board to be visited by the next pass (a full sweep)."""
        memset(self.dirty, 1, positions(self.seeds))

    def sweep_range(self, uint64_t start, uint64_t stop, bint marking=False):
        """One pass over ranks start..stop-1; ``marking``: over those
        flagged (``flag_all``, then those with a child that moved since
        their last visit such that their bounds may move). How many bounds
        moved."""
        cdef long long changed
        if stop <= start:
            return 0
        with nogil:
            changed = sweep(&self.smaller.c, self.seeds, self.rule, self.bounds, self.fixed,
                            self.quiet, self.dirty, start, stop, self.prove, marking)
        return changed

    def finish_range(self, bytearray out, proven, uint64_t start, uint64_t stop):
        """Writes the stored bytes of ranks start..stop-1 into ``out`` and,
        with prove, their proven bounds (2 bytes a board) into ``proven``
        (a bytearray; None without prove)."""
        cdef unsigned char* dest = out
        cdef unsigned char* bounds_out = NULL
        cdef bytearray kept
        if (proven is not None) != self.prove:
            raise ValueError("the proven bounds go with prove, and only with it")
        if proven is not None:
            kept = proven
            bounds_out = kept
        if stop <= start:
            return
        with nogil:
            finish(self.seeds, self.bounds, dest, bounds_out, start, stop)

    def rank_range(self, bytearray ranks, uint64_t start, uint64_t stop, bint marking=False):
        """One pass of the ranks (2 native uint16 a board, rank_lo and
        rank_hi, RANK_NONE at first) over ranks start..stop-1 (``marking``:
        over those flagged, as ``sweep_range``: the parents a rank given
        may give one are flagged), after the sweeps have converged; how
        many ranks it gave. Only with prove."""
        cdef long long changed
        cdef unsigned char* buf = ranks
        if not self.prove:
            raise ValueError("ranks are of the proven bounds: build with prove")
        if <uint64_t> len(ranks) != 4 * positions(self.seeds):
            raise ValueError(f"{len(ranks)} bytes of ranks for {positions(self.seeds)} boards")
        if stop <= start:
            return 0
        with nogil:
            changed = rank_sweep_as(self.seeds, self.rule, self.bounds, self.fixed, self.quiet,
                                    <uint16_t*> buf, self.dirty, start, stop, marking)
        return changed


# -- The move graph of one count (the perfect bot's exact moves) --------------------
#
# What oware_exact.exact_graph builds with the pure-Python rules for a
# build (so that the build's cross-check compares two implementations),
# built here with the kernels above for play, where it is paid on the
# clock: 8 seeds in a fraction of a second instead of seconds. Tests check
# that both give the same arrays.

def move_graph(int seeds, int rule, Tablebase values, const unsigned char[:] guesses,
               int same, int capture, int other):
    """The arrays of engine/_owareexact.pyx's Graph for ``seeds`` seeds:
    position ``2 * rank + side`` (the board South-first, ``side`` to
    move), its moves in the rules' order, each of kind ``capture`` (value:
    the mover's gain less the smaller count's value in ``values``),
    ``same`` (a capture-free move inside the position's strongly connected
    component of such moves; value: the mover's margin were the child a
    repetition) or ``other`` (value 0); ``terminal`` where the mover has no
    move; ``mirror``; the guesses (bytes of the count as a file holds
    them, clamped to the count), and the values of the count's boards in
    ``values``: (start, kind, child, value, terminal, mirror, guess,
    known) as array.array."""
    from array import array

    cdef uint64_t count = positions(seeds), r
    cdef long long n = 2 * count, p, e, m = 0, q, c, top = 0, depth = 0, order = 0, comps = 0
    cdef int bars[PITS - 1]
    cdef unsigned char b[PITS]
    cdef unsigned char view[PITS]
    cdef unsigned char after[PITS]
    cdef unsigned char kids[6 * PITS]
    cdef int gains[6]
    cdef int played[6]
    cdef int side, k, i, moves, left, g
    if seeds < 1 or seeds > values.c.max_seeds or values.c.level[seeds] == NULL:
        raise ValueError(f"{seeds} seeds: not in these databases")
    if <uint64_t> len(guesses) != count:
        raise ValueError(f"{len(guesses)} guesses for {count} boards")
    start = array("i", bytes(4 * (n + 1)))
    terminal = array("b", bytes(n))
    mirror = array("i", bytes(4 * n))
    guess = array("b", bytes(n))
    known = array("b", bytes(count))
    cdef int[:] st = start, mi = mirror
    cdef signed char[:] te = terminal, gu = guess, kn = known
    # pass 1: the moves, at most 6 a position (the arrays cut to size after)
    kind_list = array("B", bytes(6 * n))
    child_list = array("i", bytes(24 * n))
    value_list = array("b", bytes(6 * n))
    cdef unsigned char[:] kd = kind_list
    cdef int[:] ch = child_list
    cdef signed char[:] va = value_list
    bars_of_rank(0, seeds, bars)
    for r in range(count):
        if r:
            next_bars(bars, seeds)
        board_of_bars(bars, seeds, b)
        kn[r] = byte_value(values.c.level[seeds][r])
        for side in range(2):
            p = 2 * r + side
            if side:
                turn_round(b, view)
            else:
                memcpy(view, b, PITS)
            mi[p] = 2 * rank_board(view)
            g = byte_value(guesses[mi[p] // 2])
            gu[p] = seeds if g > seeds else (-seeds if g < -seeds else g)
            moves = south_moves(view, rule, kids, gains, played)
            if moves == 0:  # each side takes its own row
                left = 0
                for i in range(6):
                    left += view[i] - view[6 + i]
                te[p] = left
            for k in range(moves):
                if gains[k]:  # a capture: the smaller count's value, next mover first
                    kd[m] = capture
                    ch[m] = -1
                    va[m] = gains[k] - level_value(&values.c, kids + PITS * k,
                                                   board_seeds(kids + PITS * k))
                    m += 1
                    continue
                if side:
                    memcpy(after, kids + PITS * k, PITS)
                else:
                    turn_round(kids + PITS * k, after)
                ch[m] = 2 * rank_board(after) + 1 - side
                left = 0
                for i in range(6):
                    left += kids[PITS * k + 6 + i] - kids[PITS * k + i]
                kd[m] = same  # for now: the components decide below
                va[m] = left
                m += 1
            st[p + 1] = m
    # pass 2: the strongly connected components of the capture-free moves
    # (Tarjan's, the recursion on an explicit stack)
    index = array("q", bytes(8 * n))   # 0: not visited; else the visiting order + 1
    low = array("q", bytes(8 * n))
    comp = array("q", bytes(8 * n))    # 0: on the stack or unvisited; else the component + 1
    stack = array("q", bytes(8 * n))
    work = array("q", bytes(8 * n))    # the nodes whose edges are being walked
    edge = array("q", bytes(8 * n))    # the next edge of each of them
    cdef long long[:] ix = index, lo = low, co = comp, sk = stack, wk = work, ed = edge
    for q in range(n):
        if ix[q]:
            continue
        order += 1
        ix[q] = lo[q] = order
        sk[top] = q
        top += 1
        wk[0] = q
        ed[0] = st[q]
        depth = 1
        while depth:
            p = wk[depth - 1]
            e = ed[depth - 1]
            if e < st[p + 1]:
                ed[depth - 1] = e + 1
                if kd[e] == capture:
                    continue
                c = ch[e]
                if not ix[c]:
                    order += 1
                    ix[c] = lo[c] = order
                    sk[top] = c
                    top += 1
                    wk[depth] = c
                    ed[depth] = st[c]
                    depth += 1
                elif not co[c] and ix[c] < lo[p]:
                    lo[p] = ix[c]
                continue
            depth -= 1
            if depth and lo[p] < lo[wk[depth - 1]]:
                lo[wk[depth - 1]] = lo[p]
            if lo[p] == ix[p]:
                comps += 1
                while True:
                    top -= 1
                    c = sk[top]
                    co[c] = comps
                    if c == p:
                        break
    for p in range(n):
        for e in range(st[p], st[p + 1]):
            if kd[e] != capture and co[ch[e]] != co[p]:
                kd[e] = other
                va[e] = 0
    del kd, ch, va  # (a buffer in use cannot be resized)
    del kind_list[m:], child_list[m:], value_list[m:]
    return start, kind_list, child_list, value_list, terminal, mirror, guess, known
