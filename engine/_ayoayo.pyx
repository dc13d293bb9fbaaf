# cython: language_level=3
"""Compiled Ayoayo kernel: the rules of ayoayo.py on the 16-byte two-row
state of tworow_c.pxd (its ``rule`` byte is unused, 0).
An endless relay (rule 3) is found with Brent's cycle detection on the
situation (board, pit about to be lifted): O(1) memory, and it meets every
cycle, so it decides exactly what the pure kernel's set of situations does.
"""

from libc.string cimport memcmp, memcpy

from bingwa.engine.core cimport Kernel
from bingwa.engine.net_c cimport NetWeights, net_two_rows
from bingwa.engine.tworow_c cimport (
    PITS,
    SOW_TABLE_BYTES,
    TwoRowState,
    decided_by_score,
    dump_tworow,
    fill_sow_table,
    load_tworow,
    own_rows_end,
    sow_laps,
    sow_short,
    tworow_captured,
    tworow_key,
    tworow_side_to_move,
)
from bingwa.engine.weights_ayoayo cimport (
    EVAL_CAPTURED,
    EVAL_KROO,
    EVAL_MOBILITY,
    EVAL_ROW_SEED,
    EVAL_TEMPO,
)

ctypedef TwoRowState AyoState


cdef unsigned char SOW[SOW_TABLE_BYTES]  # short sowings (tworow_c.fill_sow_table)
fill_sow_table(SOW)


cdef inline int relay_sow(unsigned char* pits, int lifted) noexcept nogil:
    """Relay-sow from ``lifted`` in the 16-byte state that starts with
    ``pits``; returns the last pit, -1 if endless."""
    cdef unsigned char saved[PITS]
    cdef int saved_lift = lifted, power = 1, lam = 1
    cdef int pit
    memcpy(saved, pits, PITS)
    while True:
        if pits[lifted] < PITS:
            pit = sow_short(pits, SOW, lifted)
        else:
            pit = sow_laps(pits, lifted)
        if pits[pit] == 1:
            return pit
        lifted = pit
        if lifted == saved_lift and memcmp(saved, pits, PITS) == 0:
            return -1
        if power == lam:
            memcpy(saved, pits, PITS)
            saved_lift = lifted
            power *= 2
            lam = 0
        lam += 1


cdef inline int after(const AyoState* s, int move, AyoState* out) noexcept nogil:
    """Writes the state after ``move``; returns 0, or -1 for an endless relay."""
    memcpy(out, s, sizeof(AyoState))
    cdef int mover = s.turn
    cdef int last = relay_sow(out.pits, move)
    cdef int facing
    if last < 0:
        return -1
    out.turn = 1 - mover
    facing = PITS - 1 - last
    if last // 6 == mover and out.pits[facing]:
        out.score[mover] += out.pits[facing] + 1
        out.pits[facing] = 0
        out.pits[last] = 0
    return 0


cdef inline bint row_empty(const unsigned char* pits, int side) noexcept nogil:
    cdef int b = 6 * side
    return (pits[b] | pits[b + 1] | pits[b + 2] | pits[b + 3] | pits[b + 4] | pits[b + 5]) == 0


cdef inline int legal_children(const AyoState* s, int* moves, AyoState* children) noexcept nogil:
    """The legal moves, each one's child state written at ``children[i]``
    (every move must be made to know whether it is legal)."""
    cdef int mover = s.turn
    cdef int n = 0, nfeed = 0, i
    cdef bint starving = row_empty(s.pits, 1 - mover)
    for i in range(6 * mover, 6 * mover + 6):
        if s.pits[i] and after(s, i, &children[n]) == 0:
            moves[n] = i
            if starving and not row_empty(children[n].pits, 1 - mover):
                moves[nfeed] = i  # rule 4: only the moves that feed, if any
                if nfeed != n:
                    children[nfeed] = children[n]
                nfeed += 1
            n += 1
    if starving and nfeed:
        return nfeed
    return n


cdef int gen_children(const void* s, int* moves, void* children) noexcept nogil:
    return legal_children(<const AyoState*> s, moves, <AyoState*> children)


cdef int gen_moves(const void* s, int* moves) noexcept nogil:
    cdef AyoState children[6]
    return legal_children(<const AyoState*> s, moves, children)


cdef void make_move(const void* s, int move, void* out) noexcept nogil:
    after(<const AyoState*> s, move, <AyoState*> out)


cdef int game_end(const void* vs, int nmoves, int* scores) noexcept nogil:
    cdef const AyoState* s = <const AyoState*> vs
    cdef int i, board = 0
    if decided_by_score(s, scores):
        return 1
    if nmoves == 0:  # rule 5: the seeds left go to the player who can move
        for i in range(PITS):
            board += s.pits[i]
        scores[1 - s.turn] += board
        return 2
    return 0


# The evaluation is the dot product of WEIGHTS (weights_ayoayo.pxd, fitted
# by benchmarks/tune.py) with these named features, each the side to move's
# count minus the opponent's unless told otherwise.
FEATURE_NAMES = (
    "captured",  # captured seeds: the score itself
    "row_seed",  # seeds on one's own row (material to relay with)
    "mobility",  # non-empty pits of one's own (relay sowing needs starting points)
    "kroo",      # pits of 12+ seeds (a sowing that laps the board)
    "tempo",     # having the move: always 1
)
WEIGHTS = (EVAL_CAPTURED, EVAL_ROW_SEED, EVAL_MOBILITY, EVAL_KROO, EVAL_TEMPO)


cdef inline int pit_value(int seeds) noexcept nogil:
    return EVAL_ROW_SEED * seeds + EVAL_MOBILITY * (seeds != 0) + EVAL_KROO * (seeds >= 12)


cdef int evaluate(const void* vs) noexcept nogil:
    cdef const AyoState* s = <const AyoState*> vs
    cdef int me = s.turn, opp = 1 - s.turn
    cdef int i, v = EVAL_CAPTURED * (s.score[me] - s.score[opp]) + EVAL_TEMPO
    for i in range(6):
        v += pit_value(s.pits[6 * me + i]) - pit_value(s.pits[6 * opp + i])
    return v


# The learned evaluation (engine/net.py, docs/tuning.md): a network whose
# output is added to ``evaluate``'s (net_c.pxd); the module's, shared by
# every Ayoayo kernel of the process.
cdef NetWeights NET
NET.on = False


cdef int evaluate_either(const void* vs) noexcept nogil:
    """The kernel's evaluation: the hand-made one, plus the network's
    output when one is loaded (``set_net``)."""
    cdef const AyoState* s = <const AyoState*> vs
    if NET.on:
        return evaluate(vs) + net_two_rows(&NET, s.pits, s.score, s.turn)
    return evaluate(vs)


cdef tuple features(const AyoState* s):
    cdef int me = s.turn, opp = 1 - s.turn
    cdef int row = 0, mobility = 0, kroo = 0, i, mine, theirs
    for i in range(6):
        mine = s.pits[6 * me + i]
        theirs = s.pits[6 * opp + i]
        row += mine - theirs
        mobility += (mine != 0) - (theirs != 0)
        kroo += (mine >= 12) - (theirs >= 12)
    return (s.score[me] - s.score[opp], row, mobility, kroo, 1)


cdef class AyoayoKernel(Kernel):
    def __init__(self):
        self.ops.size = sizeof(AyoState)
        self.ops.gen_moves = gen_moves
        self.ops.make_move = make_move
        self.ops.game_end = game_end
        self.ops.key = tworow_key
        self.ops.side_to_move = tworow_side_to_move
        self.ops.captured = tworow_captured
        self.ops.repetition = own_rows_end
        self.ops.evaluate = evaluate_either
        self.net = &NET  # the module's network (core.Kernel.set_net)
        self.ops.gen_children = gen_children

    cdef int load(self, object state, void* out) except -1:
        return load_tworow(state, out, 0)

    cdef object dump(self, const void* vs):
        return dump_tworow(vs)

    feature_names = FEATURE_NAMES
    weights = WEIGHTS

    def features(self, state):
        """The evaluation's features of ``state`` (FEATURE_NAMES, in order):
        ``evaluate(state)`` is their dot product with ``weights``."""
        cdef AyoState s
        self.load(state, &s)
        return features(&s)
