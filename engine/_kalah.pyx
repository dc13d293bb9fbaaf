# cython: language_level=3
"""Compiled Kalah kernel: the rules of kalah.py on a 32-byte C struct.

Layout: pits[24] (South 0..m-1, North m..2m-1), store[2], turn, m (pits a
side), empty_capture flag. Key input, as KalahRules.key_values: the 2m
pits, the two stores, the turn.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from bingwa.engine.core cimport Kernel, mix_key
from bingwa.engine.kalah_c cimport KalahState
from bingwa.engine.net_c cimport NetWeights, net_two_rows
from bingwa.engine.weights_kalah cimport (
    EVAL_CAPTURE,
    EVAL_EXTRA_TURN,
    EVAL_ROW_SEED,
    EVAL_STORE,
    EVAL_TEMPO,
    EVAL_THREAT,
    EVAL_THREAT_EXTRA_TURN,
)


cdef int gen_moves(const void* vs, int* moves) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    cdef int n = 0, i, base = s.turn * s.m
    for i in range(base, base + s.m):
        if s.pits[i]:
            moves[n] = i
            n += 1
    return n


cdef void make_move(const void* vs, int move, void* vout) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    cdef KalahState* out = <KalahState*> vout
    memcpy(out, s, sizeof(KalahState))
    cdef int m = s.m, mover = s.turn
    cdef int own = mover * m, opp = (1 - mover) * m
    cdef int ring = 2 * m + 1  # own pits, own store, opponent pits
    cdef int seeds = out.pits[move], slot = move - own, laps, i, facing
    out.pits[move] = 0
    if seeds >= ring:
        laps = seeds // ring
        seeds -= laps * ring
        for i in range(2 * m):
            out.pits[i] += laps
        out.store[mover] += laps
    if seeds == 0:  # whole laps end on the origin itself (rule 1: not skipped)
        slot = move - own
    while seeds:
        slot += 1
        if slot == ring:
            slot = 0
        if slot < m:
            out.pits[own + slot] += 1
        elif slot == m:
            out.store[mover] += 1
        else:
            out.pits[opp + slot - m - 1] += 1
        seeds -= 1
    out.turn = 1 - mover
    if slot == m:
        out.turn = mover  # rule 2
    elif slot < m and out.pits[own + slot] == 1:
        facing = opp + m - 1 - slot
        if out.pits[facing] or s.empty_capture:  # rule 3
            out.store[mover] += out.pits[facing] + 1
            out.pits[facing] = 0
            out.pits[own + slot] = 0


cdef int game_end(const void* vs, int nmoves, int* scores) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    cdef int i, south = 0, north = 0
    for i in range(s.m):
        south += s.pits[i]
        north += s.pits[s.m + i]
    scores[0] = s.store[0]
    scores[1] = s.store[1]
    if south == 0 or north == 0:  # rule 4
        scores[0] += south
        scores[1] += north
        return 4
    return 0


cdef uint64_t key(const void* vs) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    cdef unsigned char values[27]
    cdef int n = 2 * s.m
    memcpy(values, s.pits, n)
    values[n] = s.store[0]
    values[n + 1] = s.store[1]
    values[n + 2] = s.turn
    return mix_key(values, n + 3)


cdef int side_to_move(const void* s) noexcept nogil:
    return (<const KalahState*> s).turn


cdef int captured(const void* vs) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    return s.store[0] - s.store[1]


# The evaluation is the dot product of WEIGHTS (weights_kalah.pxd, fitted by
# benchmarks/tune.py) with these named features, from the side to move.
FEATURE_NAMES = (
    "store",              # store difference: the score itself
    "row_seed",           # seeds on one's row minus the opponent's (kept when a row empties)
    "extra_turn",         # the side to move has a move ending in its store (0/1)
    "capture",            # seeds of the largest capture the side to move has (facing + 1)
    "threat_extra_turn",  # the opponent would have one, were it to move (0/1)
    "threat",             # seeds of the opponent's largest capture, were it to move
    "tempo",              # having the move: always 1
)
WEIGHTS = (EVAL_STORE, EVAL_ROW_SEED, EVAL_EXTRA_TURN, EVAL_CAPTURE,
           EVAL_THREAT_EXTRA_TURN, EVAL_THREAT, EVAL_TEMPO)


cdef inline int chances(const KalahState* s, int side, int* capture) noexcept nogil:
    """1 when ``side`` has a move ending in its store; writes the seeds of
    its largest capture (facing + 1, 0 if none) to ``capture``."""
    cdef int m = s.m, own = side * m, other = (1 - side) * m
    cdef int i, seeds, last, facing, extra = 0, best = 0
    for i in range(m):
        seeds = s.pits[own + i]
        if seeds == 0:
            continue
        if seeds == m - i:
            extra = 1
        elif seeds < m - i:
            last = i + seeds
            facing = s.pits[other + m - 1 - last]
            if s.pits[own + last] == 0 and facing and facing + 1 > best:
                best = facing + 1
    capture[0] = best
    return extra


cdef inline int row_difference(const KalahState* s, int me) noexcept nogil:
    cdef int m = s.m, i, v = 0
    for i in range(m):
        v += s.pits[me * m + i] - s.pits[(1 - me) * m + i]
    return v


cdef int evaluate(const void* vs) noexcept nogil:
    cdef const KalahState* s = <const KalahState*> vs
    cdef int me = s.turn, opp = 1 - s.turn
    cdef int capture, threat, extra, threat_extra
    extra = chances(s, me, &capture)
    threat_extra = chances(s, opp, &threat) if EVAL_THREAT or EVAL_THREAT_EXTRA_TURN else 0
    return (EVAL_STORE * (s.store[me] - s.store[opp]) + EVAL_ROW_SEED * row_difference(s, me)
            + EVAL_EXTRA_TURN * extra + EVAL_CAPTURE * capture
            + EVAL_THREAT_EXTRA_TURN * threat_extra + EVAL_THREAT * threat + EVAL_TEMPO)


# The learned evaluation (engine/net.py, docs/tuning.md): a network whose
# output is added to ``evaluate``'s (net_c.pxd), on the board it was
# trained for, NET_PITS pits a side and NET_SEEDS seeds in all (Kalah(6,4));
# the module's, shared by every Kalah kernel of the process.
cdef enum:
    NET_PITS = 6
    NET_SEEDS = 48

cdef NetWeights NET
NET.on = False
NET_BOARD = (NET_PITS, NET_SEEDS)


cdef int evaluate_either(const void* vs) noexcept nogil:
    """The kernel's evaluation: the hand-made one, plus the network's
    output when one is loaded (``set_net``) and the board is its own."""
    cdef const KalahState* s = <const KalahState*> vs
    if NET.on and s.net:
        return evaluate(vs) + net_two_rows(&NET, s.pits, s.store, s.turn)
    return evaluate(vs)


cdef tuple features(const KalahState* s):
    cdef int me = s.turn, opp = 1 - s.turn
    cdef int capture, threat, extra, threat_extra
    extra = chances(s, me, &capture)
    threat_extra = chances(s, opp, &threat)
    return (s.store[me] - s.store[opp], row_difference(s, me), extra, capture,
            threat_extra, threat, 1)


cdef class KalahKernel(Kernel):
    cdef readonly int m
    cdef readonly bint empty_capture

    def __init__(self, int pits=6, bint empty_capture=False):
        if not 1 <= pits <= 12:
            raise ValueError("Kalah takes 1..12 pits a side")
        self.m = pits
        self.empty_capture = empty_capture
        self.ops.size = sizeof(KalahState)
        self.ops.gen_moves = gen_moves
        self.ops.make_move = make_move
        self.ops.game_end = game_end
        self.ops.key = key
        self.ops.side_to_move = side_to_move
        self.ops.captured = captured
        self.ops.repetition = NULL
        self.ops.evaluate = evaluate_either
        self.net = &NET  # the module's network (core.Kernel.set_net)
        self.ops.table_depth = 2  # a leaf costs less than a table probe

    cdef int load(self, object state, void* out) except -1:
        cdef KalahState* s = <KalahState*> out
        pits, stores, turn = state
        if len(pits) != 2 * self.m:
            raise ValueError(f"a Kalah state of {self.m} pits a side needs {2 * self.m} pits")
        memset(s, 0, sizeof(KalahState))
        for i in range(2 * self.m):
            s.pits[i] = pits[i]
        s.store[0] = stores[0]
        s.store[1] = stores[1]
        s.turn = turn
        s.m = self.m
        s.empty_capture = self.empty_capture
        s.net = (self.m == NET_PITS and not self.empty_capture
                 and sum(pits) + stores[0] + stores[1] == NET_SEEDS)
        return 0

    cdef object dump(self, const void* vs):
        cdef const KalahState* s = <const KalahState*> vs
        return (tuple([s.pits[i] for i in range(2 * self.m)]),
                (s.store[0], s.store[1]), s.turn)

    feature_names = FEATURE_NAMES
    weights = WEIGHTS
    net_board = NET_BOARD  # pits a side and seeds in all where the network evaluates

    def features(self, state):
        """The evaluation's features of ``state`` (FEATURE_NAMES, in order):
        ``evaluate(state)`` is their dot product with ``weights``."""
        cdef KalahState s
        self.load(state, &s)
        return features(&s)
