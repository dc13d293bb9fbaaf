# cython: language_level=3
"""Compiled Oware kernel: the rules of oware.py on the 16-byte two-row
state of tworow_c.pxd (its ``rule`` byte holds the grand-slam rule)."""

from libc.string cimport memcpy

from bingwa.engine.core cimport GAIN_UNKNOWN, Kernel
from bingwa.engine.net_c cimport NetWeights, net_two_rows
from bingwa.engine.oware_rules cimport (
    FORBIDDEN,
    LEAVE_FIRST,
    LEAVE_LAST,
    NOCAPTURE,
    OPPONENT,
)
from bingwa.engine.weights_oware cimport (
    EVAL_CAPTURED,
    EVAL_HOME_MOVE,
    EVAL_KROO,
    EVAL_MOBILITY,
    EVAL_ROW_SEED,
    EVAL_TEMPO,
    EVAL_THREAT,
    EVAL_WEAK_PIT,
)
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

ctypedef TwoRowState OwareState

cdef unsigned char SOW[SOW_TABLE_BYTES]  # short sowings (tworow_c.fill_sow_table)
fill_sow_table(SOW)


cdef inline int sow(const OwareState* s, int move, OwareState* out) noexcept nogil:
    """Writes ``s`` with ``move`` sown (nothing captured, the turn not
    passed) to ``out``; returns the last pit sown."""
    memcpy(out, s, sizeof(OwareState))
    if s.pits[move] < PITS:
        return sow_short(<unsigned char*> out, SOW, move)
    return sow_laps(out.pits, move)


cdef inline int sow_and_capture(const OwareState* s, int move, OwareState* out) noexcept nogil:
    """Writes the state after ``move``; returns 1 if it was a grand slam."""
    cdef int last = sow(s, move, out)
    cdef int mover = s.turn
    cdef int lo = 6 - 6 * mover  # first pit of the opponent's row
    cdef int first = last, chain = 0, row = 0, i, rule
    out.turn = 1 - mover
    while first >= lo and first < lo + 6 and (out.pits[first] == 2 or out.pits[first] == 3):
        chain += out.pits[first]
        first -= 1
    if chain == 0:
        return 0
    # the chain is the pits first+1 .. last
    for i in range(lo, lo + 6):
        row += out.pits[i]
    if chain != row:
        for i in range(first + 1, last + 1):
            out.pits[i] = 0
        out.score[mover] += chain
        return 0
    rule = s.rule
    if rule == NOCAPTURE or rule == FORBIDDEN:
        return 1
    if rule == LEAVE_FIRST:
        last -= 1
    elif rule == LEAVE_LAST:
        first += 1
    elif rule == OPPONENT:
        mover = 1 - mover
    chain = 0
    for i in range(first + 1, last + 1):
        chain += out.pits[i]
        out.pits[i] = 0
    out.score[mover] += chain
    return 1


cdef int gen_moves(const void* vs, int* moves) noexcept nogil:
    cdef const OwareState* s = <const OwareState*> vs
    cdef int mover = s.turn
    cdef int own = 6 * mover, opp = 6 - 6 * mover
    cdef int n = 0, i, k
    cdef OwareState child
    cdef bint starving = (s.pits[opp] | s.pits[opp + 1] | s.pits[opp + 2]
                          | s.pits[opp + 3] | s.pits[opp + 4] | s.pits[opp + 5]) == 0
    # (branch-free: every pit is written, the count moves on only for legal ones)
    if starving:  # rule 5: feed if any move does
        for i in range(6):
            moves[n] = own + i
            n += s.pits[own + i] > 5 - i
    if n == 0:  # not starving, or no move feeds (the seed: sow in your row)
        for i in range(own, own + 6):
            moves[n] = i
            n += s.pits[i] != 0
    if s.rule == FORBIDDEN and n:
        k = 0
        for i in range(n):
            if not sow_and_capture(s, moves[i], &child):
                moves[k] = moves[i]
                k += 1
        if k:
            n = k
    return n


cdef int may_capture(const void* vs, int move) noexcept nogil:
    """0 when ``move`` surely captures nothing: a sowing of fewer than 12
    seeds passes each pit once, so it captures only when its last pit is
    on the opponent's row and held 1 or 2 seeds. Longer sowings: maybe."""
    cdef const OwareState* s = <const OwareState*> vs
    cdef int seeds = s.pits[move]
    cdef int last = move + seeds
    cdef int lo = 6 - 6 * s.turn
    if seeds >= 12:
        return 1
    if last >= PITS:
        last -= PITS
    return last >= lo and last < lo + 6 and (s.pits[last] == 1 or s.pits[last] == 2)


cdef int move_gain(const void* vs, int move) noexcept nogil:
    """The seeds ``move`` captures, without making it: exact for sowings
    of fewer than 12 seeds (each pit passed once) that are no grand slam,
    GAIN_UNKNOWN otherwise."""
    cdef const OwareState* s = <const OwareState*> vs
    cdef int seeds = s.pits[move]
    cdef int last = move + seeds
    cdef int lo = 6 - 6 * s.turn
    cdef int chain = 0, row = 0, pit, d
    if seeds >= 12:
        return GAIN_UNKNOWN
    if last >= PITS:
        last -= PITS
    if last < lo or last >= lo + 6:
        return 0
    # every pit of the opponent's row up to ``last`` gains one seed
    pit = last
    while pit >= lo and (s.pits[pit] == 1 or s.pits[pit] == 2):
        chain += s.pits[pit] + 1
        pit -= 1
    if chain == 0:
        return 0
    for pit in range(lo, lo + 6):
        d = pit - move
        if d < 0:
            d += PITS
        row += s.pits[pit] + (d <= seeds)
    if chain == row:  # a grand slam: the rule decides
        return GAIN_UNKNOWN
    return chain


cdef void make_move(const void* s, int move, void* out) noexcept nogil:
    sow_and_capture(<const OwareState*> s, move, <OwareState*> out)


cdef int game_end(const void* vs, int nmoves, int* scores) noexcept nogil:
    if decided_by_score(<const OwareState*> vs, scores):
        return 1
    if nmoves == 0:  # each player takes his own row
        own_rows_end(vs, nmoves, scores)
        return 2
    return 0


# The evaluation is the dot product of WEIGHTS (weights_oware.pxd, fitted by
# benchmarks/tune.py) with the named features below, each the side to
# move's count minus the opponent's unless told otherwise. ``features``
# computes them from Python; ``evaluate`` the same sum, fast.
FEATURE_NAMES = (
    "captured",   # captured seeds: the score itself
    "row_seed",   # seeds on one's own row (rows are kept at the end)
    "mobility",   # non-empty pits of one's own (fewer: starvation)
    "weak_pit",   # own pits holding 1 or 2 seeds (a capture target)
    "kroo",       # pits of 12+ seeds (a lap that attacks the whole row)
    "home_move",  # own pits whose sowing stays on one's row (tempo, starving play)
    "threat",     # seeds of the opponent's best capture if we passed (not a difference)
    "tempo",      # having the move: always 1
)
WEIGHTS = (EVAL_CAPTURED, EVAL_ROW_SEED, EVAL_MOBILITY, EVAL_WEAK_PIT, EVAL_KROO,
           EVAL_HOME_MOVE, EVAL_THREAT, EVAL_TEMPO)


# The per-pit terms of the i-th pit of a row (0: a, the first sown from)
# by its seed count, filled once at import.
cdef int PIT_VALUE[6][256]


cdef void fill_pit_values() noexcept:
    cdef int i, seeds
    for i in range(6):
        for seeds in range(256):
            PIT_VALUE[i][seeds] = (EVAL_ROW_SEED * seeds + EVAL_MOBILITY * (seeds > 0)
                                   + EVAL_WEAK_PIT * (seeds == 1 or seeds == 2)
                                   + EVAL_KROO * (seeds >= 12)
                                   + EVAL_HOME_MOVE * (0 < seeds <= 5 - i))


fill_pit_values()


cdef inline int row_value(const unsigned char* pits, int side) noexcept nogil:
    """The per-pit terms of ``side``'s row, from ``side``'s view."""
    cdef const unsigned char* row = pits + 6 * side
    return (PIT_VALUE[0][row[0]] + PIT_VALUE[1][row[1]] + PIT_VALUE[2][row[2]]
            + PIT_VALUE[3][row[3]] + PIT_VALUE[4][row[4]] + PIT_VALUE[5][row[5]])


cdef inline int best_capture(const unsigned char* pits, int mover) noexcept nogil:
    """Seeds the largest capture of ``mover`` would take (short sowings
    only, grand slams not told apart): the threat the side to move faces."""
    cdef int i, seeds, last, pit, taken, best = 0
    cdef int lo = 6 - 6 * mover
    for i in range(6 * mover, 6 * mover + 6):
        seeds = pits[i]
        if seeds == 0 or seeds >= 12:
            continue
        last = i + seeds
        if last >= 12:
            last -= 12
        if last < lo or last >= lo + 6:
            continue
        # the sowing enters the opponent's row at its first pit, so every
        # pit from there to ``last`` gains one seed
        taken = 0
        pit = last
        while pit >= lo and (pits[pit] == 1 or pits[pit] == 2):
            taken += pits[pit] + 1
            pit -= 1
        if taken > best:
            best = taken
    return best


cdef int evaluate(const void* vs) noexcept nogil:
    cdef const OwareState* s = <const OwareState*> vs
    cdef int me = s.turn, opp = 1 - s.turn
    return (EVAL_CAPTURED * (s.score[me] - s.score[opp])
            + row_value(s.pits, me) - row_value(s.pits, opp)
            + EVAL_THREAT * best_capture(s.pits, opp)
            + EVAL_TEMPO)


# The learned evaluation (engine/net.py, docs/tuning.md): a network
# whose output is added to ``evaluate``'s (net_c.pxd: its inputs and
# integer inference). The network is the module's, shared by every Oware
# kernel of the process.
cdef NetWeights NET
NET.on = False


cdef int evaluate_either(const void* vs) noexcept nogil:
    """The kernel's evaluation: the hand-made one, plus the network's
    output when one is loaded (``set_net``)."""
    cdef const OwareState* s = <const OwareState*> vs
    if NET.on:
        return evaluate(vs) + net_two_rows(&NET, s.pits, s.score, s.turn)
    return evaluate(vs)


cdef tuple features(const OwareState* s):
    """FEATURE_NAMES' values of ``s`` (the slow, obvious way)."""
    cdef int me = s.turn, opp = 1 - s.turn
    cdef int counts[2][5]
    cdef int side, i, seeds
    for side in range(2):
        for i in range(5):
            counts[side][i] = 0
        for i in range(6):
            seeds = s.pits[6 * side + i]
            counts[side][0] += seeds
            counts[side][1] += seeds > 0
            counts[side][2] += seeds == 1 or seeds == 2
            counts[side][3] += seeds >= 12
            counts[side][4] += 0 < seeds <= 5 - i
    return (s.score[me] - s.score[opp],
            *[counts[me][i] - counts[opp][i] for i in range(5)],
            best_capture(s.pits, opp), 1)


cdef class OwareKernel(Kernel):
    cdef readonly int grandslam

    def __init__(self, int grandslam=0):
        self.grandslam = grandslam
        self.ops.size = sizeof(OwareState)
        self.ops.gen_moves = gen_moves
        self.ops.make_move = make_move
        self.ops.game_end = game_end
        self.ops.key = tworow_key
        self.ops.side_to_move = tworow_side_to_move
        self.ops.captured = tworow_captured
        self.ops.repetition = own_rows_end
        self.ops.evaluate = evaluate_either
        self.net = &NET  # the module's network (core.Kernel.set_net)
        self.ops.may_capture = may_capture
        self.ops.move_gain = move_gain
        self.ops.table_depth = 2  # a leaf costs less than a table probe

    cdef int load(self, object state, void* out) except -1:
        return load_tworow(state, out, self.grandslam)

    cdef object dump(self, const void* vs):
        return dump_tworow(vs)

    feature_names = FEATURE_NAMES
    weights = WEIGHTS

    def features(self, state):
        """The evaluation's features of ``state`` (FEATURE_NAMES, in order):
        ``evaluate(state)`` is their dot product with ``weights``."""
        cdef OwareState s
        self.load(state, &s)
        return features(&s)
