# cython: language_level=3
"""Compiled Bao kernel (rules version bao-1): the rules of bao.py on a
40-byte C struct, copy-make, no Python object inside a move.

Layout (bytes 0..37 are the key's input, in the order of
bao.BaoRules.key_values): pits[32] (pit ``16 * side + k``, ``k`` the place
on the owner's clockwise ring, bao_notation.py), hand[2], turn, house[2]
(0/1: the nyumba is owned), block (absolute pit blocked by takasia, or
255), then takasia (1 in Bao la Kiswahili, 0 in Bao la Kujifunza) and a pad
byte. A move code is ``k | 16 * (sign is '>') | 32 * safari``.

Every candidate move is executed in full by the generator (rules 3.6, 3.7
and the safari decision decide legality only at the end), so the sowing
loop is the hot spot: it works on a ``unsigned char*`` into the mover's
ring, steps with ``& 15`` and tests a front row for emptiness as one
64-bit word. Never-ending moves are cut by counting dropped seeds up to
CAP, exactly as the pure kernel does.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from bingwa.engine.core cimport Kernel, mix_key
from bingwa.engine.weights_bao cimport (
    BAO_ATTACK,
    BAO_FRONT_SEED,
    BAO_HAND_SEED,
    BAO_MOBILITY,
    BAO_NYUMBA,
    BAO_OWNED_NYUMBA,
    BAO_SEED,
    BAO_THREATENED,
)
from bingwa.engine.weights_kujifunza cimport (
    KUJIFUNZA_ATTACK,
    KUJIFUNZA_FRONT_SEED,
    KUJIFUNZA_HAND_SEED,
    KUJIFUNZA_MOBILITY,
    KUJIFUNZA_NYUMBA,
    KUJIFUNZA_OWNED_NYUMBA,
    KUJIFUNZA_SEED,
    KUJIFUNZA_THREATENED,
)

cdef enum:
    RING = 16
    NYUMBA = 4           # ring place of pit 5
    FUNCTIONAL = 6       # seeds that make an owned nyumba functional (5.1)
    TOTAL = 64
    CAP = 65536          # rule 3.7
    NO_BLOCK = 255
    SIGN_RIGHT = 16
    SAFARI = 32
    KEY_BYTES = 38
    # execute() results
    LEGAL = 0
    EMPTIES_FRONT_ROW = 1   # rule 3.6
    NEVER_ENDING = 2        # rule 3.7
    NO_SAFARI_DECISION = 3  # a '+' move that never reaches the decision
    # execute() flags
    F_CAPTURE = 1        # a capture move (3.5)
    F_DECISION = 2       # the safari decision arose (4.4)
    F_WON = 4            # the opponent's front row was emptied (7.1)

ctypedef struct BaoState:
    unsigned char pits[32]
    unsigned char hand[2]
    unsigned char turn
    unsigned char house[2]
    unsigned char block
    unsigned char takasia
    unsigned char pad


cdef inline bint row_empty(const unsigned char* row) noexcept nogil:
    """Eight consecutive pits hold no seed (one 64-bit load)."""
    cdef uint64_t word
    memcpy(&word, row, 8)
    return word == 0


cdef inline int first_step(int k, bint right) noexcept nogil:
    """Rule 1.6: '>' is clockwise (+1) on the front row, anticlockwise on the back."""
    if k < 8:
        return 1 if right else -1
    return -1 if right else 1


cdef inline int sow(unsigned char* ring, int k, int seeds, int step) noexcept nogil:
    """Drop ``seeds`` one by one into the pits after place ``k`` going
    ``step`` (3.1); returns the place of the last seed."""
    cdef int rounds, i
    if seeds >= RING:  # whole rounds first: every pit, ``k`` included, gets one each
        rounds = seeds >> 4
        for i in range(RING):
            ring[i] += rounds
        seeds &= 15
    while seeds:
        k = (k + step) & 15
        ring[k] += 1
        seeds -= 1
    return k


cdef int execute_move(const BaoState* s, int move, BaoState* o, int* flags) noexcept nogil:
    """Play ``move`` from ``s`` into ``o`` (rules 3-6); returns LEGAL or why
    the move is illegal, and sets ``flags``. The takasia block of the
    result is left to make_move."""
    memcpy(o, s, sizeof(BaoState))
    cdef int mover = s.turn
    cdef unsigned char* mine = o.pits + RING * mover
    cdef unsigned char* theirs = o.pits + RING * (1 - mover)
    cdef int k = move & 15
    cdef bint right = (move & SIGN_RIGHT) != 0
    cdef bint safari = (move & SAFARI) != 0
    cdef bint namua = s.hand[mover] > 0
    cdef bint both_hands_empty = s.hand[0] == 0 and s.hand[1] == 0
    cdef int block = -1 if s.block == NO_BLOCK else s.block - RING * mover
    cdef bint capture_move = False, capturing = False, won = False, tax
    cdef int dropped = 0, seeds = 0, step = 1, e = k, kichwa, chosen = -1, t, i
    o.block = NO_BLOCK
    o.turn = 1 - mover
    flags[0] = 0

    if namua:
        # 4.5: functional nyumba (before the hand seed), the only occupied front pit
        tax = k == NYUMBA and o.house[mover] and mine[NYUMBA] >= FUNCTIONAL
        if tax:
            for i in range(8):
                if i != NYUMBA and mine[i]:
                    tax = False
        o.hand[mover] -= 1
        mine[k] += 1  # 4.1
        if mine[k] > 1 and theirs[7 - k]:  # 4.2: the sign names the kichwa
            capture_move = capturing = True
            chosen = 7 if right else 0
        else:
            step = first_step(k, right)
            if tax:
                mine[k] -= 2
                seeds = 2
            else:  # 4.3
                seeds = mine[k]
                mine[k] = 0
                if k == NYUMBA:
                    o.house[mover] = 0  # 5.2
    else:
        seeds = mine[k]
        step = first_step(k, right)
        e = (k + seeds * step) & 15
        capture_move = 2 <= seeds <= 15 and e < 8 and mine[e] and theirs[7 - e]  # 6.1
        mine[k] = 0
        if k == NYUMBA:
            o.house[mover] = 0  # 5.2

    while True:
        if capturing:  # 3.3, capturing from the pit facing ``e``
            t = 7 - e
            seeds = theirs[t]
            theirs[t] = 0
            if t == NYUMBA:
                o.house[1 - mover] = 0
            if both_hands_empty:
                o.house[0] = 0  # 5.3
                o.house[1] = 0
            if e <= 1:
                kichwa = 0
            elif e >= 6:
                kichwa = 7
            elif chosen >= 0:
                kichwa = chosen
            else:
                kichwa = 0 if step == 1 else 7
            chosen = -1
            step = 1 if kichwa == 0 else -1
            won = row_empty(theirs)  # 7.1
            dropped += seeds
            if dropped > CAP:
                return NEVER_ENDING
            e = sow(mine, (kichwa - step) & 15, seeds, step)  # first seed into the kichwa
            if won:  # the move stops without evaluating this lap (3.3)
                flags[0] |= F_WON
                break
        else:  # a lap after a lift (3.1)
            dropped += seeds
            if dropped > CAP:
                return NEVER_ENDING
            if ((k + step) & 15) >= 8 and row_empty(mine):
                return EMPTIES_FRONT_ROW  # 3.6
            e = sow(mine, k, seeds, step)
        # 3.2: the end of the lap in ``e``
        if mine[e] == 1:
            break
        if capture_move and e < 8 and theirs[7 - e]:
            capturing = True
            continue
        capturing = False
        if namua and e == NYUMBA and o.house[mover] and mine[e] >= FUNCTIONAL:
            if not capture_move:
                break
            flags[0] |= F_DECISION
            if not safari:
                break
        elif e == block:
            break
        k = e  # relay (or safari): lift ``e``
        seeds = mine[e]
        mine[e] = 0
        if e == NYUMBA:
            o.house[mover] = 0  # 5.2
    if capture_move:
        flags[0] |= F_CAPTURE
    if safari and not (flags[0] & F_DECISION):
        return NO_SAFARI_DECISION
    return LEGAL


cdef inline int capture_targets(const unsigned char* pits, int side) noexcept nogil:
    """Bit ``q`` set for each front place ``q`` of the opponent that ``side``
    could take with the first capture of a mtaji capture move (6.1, 6.4)."""
    cdef const unsigned char* mine = pits + RING * side
    cdef const unsigned char* theirs = pits + RING * (1 - side)
    cdef int k, n, e, mask = 0
    for k in range(RING):
        n = mine[k]
        if 2 <= n <= 15:
            e = (k + n) & 15
            if e < 8 and mine[e] and theirs[7 - e]:
                mask |= 1 << (7 - e)
            e = (k - n) & 15
            if e < 8 and mine[e] and theirs[7 - e]:
                mask |= 1 << (7 - e)
    return mask


cdef inline int namua_targets(const unsigned char* pits, int side) noexcept nogil:
    """Bit ``q`` set for each front place ``q`` of the opponent that a hand
    seed of ``side`` could capture (4.2)."""
    cdef const unsigned char* mine = pits + RING * side
    cdef const unsigned char* theirs = pits + RING * (1 - side)
    cdef int k, mask = 0
    for k in range(8):
        if mine[k] and theirs[7 - k]:
            mask |= 1 << (7 - k)
    return mask


cdef int takasia_block(const BaoState* o, int victim) noexcept nogil:
    """Rule 6.4 on the position after a takasa, Y = ``victim`` to move."""
    cdef const unsigned char* front = o.pits + RING * victim
    cdef int targets, t, k, occupied = 0, heavy = 0
    if capture_targets(o.pits, victim):  # (i)
        return NO_BLOCK
    targets = capture_targets(o.pits, 1 - victim)  # (ii)
    if targets == 0 or (targets & (targets - 1)):
        return NO_BLOCK
    t = 0
    while not (targets >> t) & 1:
        t += 1
    for k in range(8):
        occupied += front[k] > 0
        heavy += front[k] >= 2
    if t == NYUMBA and o.house[victim] and front[t] >= FUNCTIONAL:
        return NO_BLOCK  # (a)
    if occupied == 1 or (heavy == 1 and front[t] >= 2) or front[t] == 1:
        return NO_BLOCK  # (b), (c), (d)
    return RING * victim + t


cdef inline int add_if_legal(const BaoState* s, int code, int* moves, int n) noexcept nogil:
    cdef BaoState child
    cdef int flags
    if execute_move(s, code, &child, &flags) == LEGAL:
        moves[n] = code
        n += 1
    return n


cdef inline int add_capture(const BaoState* s, int code, int* moves, int n) noexcept nogil:
    """A namua capture, and its safari twin when the decision arises."""
    cdef BaoState child
    cdef int flags
    if execute_move(s, code, &child, &flags) == LEGAL:
        moves[n] = code
        n += 1
    if flags & F_DECISION and execute_move(s, code | SAFARI, &child, &flags) == LEGAL:
        moves[n] = code | SAFARI
        n += 1
    return n


cdef int gen_namua(const BaoState* s, int* moves) noexcept nogil:
    """Section 9, namua groups. A capture value met again in a takasa group
    would execute as the same illegal capture, so it is skipped there."""
    cdef int mover = s.turn
    cdef const unsigned char* mine = s.pits + RING * mover
    cdef const unsigned char* theirs = s.pits + RING * (1 - mover)
    cdef int k, n = 0, occupied = 0
    cdef bint owned = s.house[mover] != 0
    cdef bint functional = owned and mine[NYUMBA] >= FUNCTIONAL
    for k in range(8):  # 1. captures (4.2)
        if mine[k] and theirs[7 - k]:
            if k >= 2:
                n = add_capture(s, k | SIGN_RIGHT, moves, n)
            if k <= 5:
                n = add_capture(s, k, moves, n)
    if n:
        return n
    for k in range(8):  # 2. takasa (4.3)
        if not mine[k]:
            continue
        occupied += 1
        if theirs[7 - k] or (functional and k == NYUMBA) or (not owned and mine[k] < 2):
            continue
        n = add_if_legal(s, k, moves, n)
        n = add_if_legal(s, k | SIGN_RIGHT, moves, n)
    if n:
        return n
    if functional:  # 3. the tax (4.5)
        if occupied == 1 and not theirs[7 - NYUMBA]:
            n = add_if_legal(s, NYUMBA, moves, n)
            n = add_if_legal(s, NYUMBA | SIGN_RIGHT, moves, n)
    elif not owned:  # 3. singletons (4.3)
        for k in range(8):
            if mine[k] == 1 and not theirs[7 - k]:
                n = add_if_legal(s, k, moves, n)
                n = add_if_legal(s, k | SIGN_RIGHT, moves, n)
    return n


cdef inline bint opens_capture(const unsigned char* mine, const unsigned char* theirs,
                               int k, int step) noexcept nogil:
    """A mtaji lap from ``k`` ends as in 6.1."""
    cdef int n = mine[k]
    cdef int e = (k + n * step) & 15
    return 2 <= n <= 15 and e < 8 and mine[e] != 0 and theirs[7 - e] != 0


cdef int gen_mtaji(const BaoState* s, int* moves) noexcept nogil:
    """Section 9, mtaji groups; the blocked pit starts nothing (6.4)."""
    cdef int mover = s.turn
    cdef const unsigned char* mine = s.pits + RING * mover
    cdef const unsigned char* theirs = s.pits + RING * (1 - mover)
    cdef int block = -1 if s.block == NO_BLOCK else s.block - RING * mover
    cdef int k, right, n = 0
    for k in range(RING):  # 1. captures (6.1)
        if k != block and 2 <= mine[k] <= 15:
            for right in range(2):
                if opens_capture(mine, theirs, k, first_step(k, right)):
                    n = add_if_legal(s, k | (SIGN_RIGHT * right), moves, n)
    if n:
        return n
    for k in range(8):  # 2. front-row takasa (6.2)
        if k != block and mine[k] >= 2:
            for right in range(2):
                if not opens_capture(mine, theirs, k, first_step(k, right)):
                    n = add_if_legal(s, k | (SIGN_RIGHT * right), moves, n)
    if n:
        return n
    for k in range(8, RING):  # 3. back-row takasa (6.2)
        if mine[k] >= 2:
            for right in range(2):
                if not opens_capture(mine, theirs, k, first_step(k, right)):
                    n = add_if_legal(s, k | (SIGN_RIGHT * right), moves, n)
    return n


cdef int gen_moves(const void* vs, int* moves) noexcept nogil:
    cdef const BaoState* s = <const BaoState*> vs
    if row_empty(s.pits + RING * s.turn):
        return 0  # 7.2
    if s.hand[s.turn]:
        return gen_namua(s, moves)
    return gen_mtaji(s, moves)


cdef void make_move(const void* vs, int move, void* vout) noexcept nogil:
    cdef const BaoState* s = <const BaoState*> vs
    cdef BaoState* o = <BaoState*> vout
    cdef int flags
    execute_move(s, move, o, &flags)
    # 6.4 and the end of section 9: after a takasa that started with both
    # hands empty, in Bao la Kiswahili only.
    if s.takasia and s.hand[0] == 0 and s.hand[1] == 0 and not (flags & (F_CAPTURE | F_WON)):
        o.block = takasia_block(o, o.turn)


cdef inline void held(const BaoState* s, int* scores) noexcept nogil:
    cdef int side, k, total
    for side in range(2):
        total = s.hand[side]
        for k in range(RING):
            total += s.pits[RING * side + k]
        scores[side] = total


cdef int game_end(const void* vs, int nmoves, int* scores) noexcept nogil:
    cdef const BaoState* s = <const BaoState*> vs
    cdef int code
    if row_empty(s.pits + RING * s.turn):
        code = 5  # 7.1
    elif nmoves == 0:
        code = 2  # 7.2
    else:
        held(s, scores)
        return 0
    scores[s.turn] = 0
    scores[1 - s.turn] = TOTAL
    return code


cdef uint64_t key(const void* s) noexcept nogil:
    return mix_key(<const unsigned char*> s, KEY_BYTES)


cdef int side_to_move(const void* s) noexcept nogil:
    return (<const BaoState*> s).turn


cdef int captured(const void* vs) noexcept nogil:
    """Seeds South holds (board and hand) minus North's."""
    cdef int scores[2]
    held(<const BaoState*> vs, scores)
    return scores[0] - scores[1]


cdef inline int largest(const unsigned char* front, int mask) noexcept nogil:
    cdef int q, best = 0
    for q in range(8):
        if (mask >> q) & 1 and front[q] > best:
            best = front[q]
    return best


# The evaluation is the dot product of a weight vector (weights_bao.pxd for
# Bao la Kiswahili, weights_kujifunza.pxd for Bao la Kujifunza, fitted by
# benchmarks/tune.py) with these named features, each the side to move's
# value minus the opponent's unless told otherwise (docs/notation-bao.md).
FEATURE_NAMES = (
    "seed",          # seeds held, on the board or in hand (material)
    "front_seed",    # front-row seeds: capturing power, and the row whose emptying loses
    "hand_seed",     # seeds in hand: safe from capture
    "nyumba",        # owned functional nyumba (6+ seeds) while seeds are in hand
    "owned_nyumba",  # the nyumba still owned otherwise
    "mobility",      # pits a move can start from (namua: occupied front pits; mtaji: 2+)
    "attack",        # seeds of the largest pit the side to move can take now (not a difference)
    "threatened",    # seeds of its largest pit the opponent threatens (not a difference)
)
cdef enum:
    FEATURES = 8

cdef int BAO_WEIGHTS[FEATURES]
cdef int KUJIFUNZA_WEIGHTS[FEATURES]
BAO_WEIGHTS[:] = [BAO_SEED, BAO_FRONT_SEED, BAO_HAND_SEED, BAO_NYUMBA, BAO_OWNED_NYUMBA,
                  BAO_MOBILITY, BAO_ATTACK, BAO_THREATENED]
KUJIFUNZA_WEIGHTS[:] = [KUJIFUNZA_SEED, KUJIFUNZA_FRONT_SEED, KUJIFUNZA_HAND_SEED,
                        KUJIFUNZA_NYUMBA, KUJIFUNZA_OWNED_NYUMBA, KUJIFUNZA_MOBILITY,
                        KUJIFUNZA_ATTACK, KUJIFUNZA_THREATENED]


cdef void add_side_features(const BaoState* s, int side, int sign, int* f) noexcept nogil:
    """Adds ``sign`` times ``side``'s own counts to features 0..5."""
    cdef const unsigned char* mine = s.pits + RING * side
    cdef int k, held = s.hand[side], front = 0, mobility = 0
    for k in range(RING):
        held += mine[k]
        if k < 8:
            front += mine[k]
        if s.hand[side]:
            mobility += k < 8 and mine[k] > 0
        else:
            mobility += mine[k] >= 2
    f[0] += sign * held
    f[1] += sign * front
    f[2] += sign * s.hand[side]
    if s.house[side]:
        if s.hand[side] and mine[NYUMBA] >= FUNCTIONAL:
            f[3] += sign
        else:
            f[4] += sign
    f[5] += sign * mobility


cdef inline int targets_of(const BaoState* s, int side) noexcept nogil:
    if s.hand[side]:
        return namua_targets(s.pits, side)
    return capture_targets(s.pits, side)


cdef void eval_features(const BaoState* s, int* f) noexcept nogil:
    cdef int me = s.turn, you = 1 - s.turn, i
    for i in range(FEATURES):
        f[i] = 0
    add_side_features(s, me, 1, f)
    add_side_features(s, you, -1, f)
    f[6] = largest(s.pits + RING * you, targets_of(s, me))
    f[7] = largest(s.pits + RING * me, targets_of(s, you))


cdef int evaluate(const void* vs) noexcept nogil:
    """Static score in centi-seeds from the side to move's view: the
    features dotted with the weights of the variant (takasia: Kiswahili)."""
    cdef const BaoState* s = <const BaoState*> vs
    cdef const int* w = &KUJIFUNZA_WEIGHTS[0]
    cdef int f[FEATURES]
    cdef int i, value = 0
    if s.takasia:
        w = &BAO_WEIGHTS[0]
    eval_features(s, f)
    for i in range(FEATURES):
        value += w[i] * f[i]
    return value


cdef class BaoKernel(Kernel):
    """The compiled Bao kernel; ``takasia`` is on for Bao la Kiswahili."""

    cdef readonly bint takasia

    def __init__(self, bint takasia=True):
        self.takasia = takasia
        self.ops.size = sizeof(BaoState)
        self.ops.gen_moves = gen_moves
        self.ops.make_move = make_move
        self.ops.game_end = game_end
        self.ops.key = key
        self.ops.side_to_move = side_to_move
        self.ops.captured = captured
        self.ops.repetition = NULL  # no repetition rule (7.3)
        self.ops.evaluate = evaluate

    cdef int load(self, object state, void* out) except -1:
        cdef BaoState* s = <BaoState*> out
        cdef int i
        pits, hands, turn, houses, block = state
        for i in range(32):
            s.pits[i] = pits[i]
        s.hand[0] = hands[0]
        s.hand[1] = hands[1]
        s.turn = turn
        s.house[0] = 1 if houses[0] else 0
        s.house[1] = 1 if houses[1] else 0
        s.block = NO_BLOCK if block < 0 else block
        s.takasia = self.takasia
        s.pad = 0
        return 0

    cdef object dump(self, const void* vs):
        cdef const BaoState* s = <const BaoState*> vs
        return (
            tuple([s.pits[i] for i in range(32)]),
            (s.hand[0], s.hand[1]),
            s.turn,
            (s.house[0], s.house[1]),
            -1 if s.block == NO_BLOCK else s.block,
        )

    feature_names = FEATURE_NAMES

    @property
    def weights(self):
        """The weights of this variant's features (FEATURE_NAMES, in order)."""
        if self.takasia:
            return tuple([BAO_WEIGHTS[i] for i in range(FEATURES)])
        return tuple([KUJIFUNZA_WEIGHTS[i] for i in range(FEATURES)])

    def features(self, state):
        """The evaluation's features of ``state`` (FEATURE_NAMES, in order):
        ``evaluate(state)`` is their dot product with ``weights``."""
        cdef BaoState s
        cdef int f[FEATURES]
        self.load(state, &s)
        eval_features(&s, f)
        return tuple([f[i] for i in range(FEATURES)])

    def execute(self, state, int move):
        """(status, flags) of ``move``: status 0 legal, 1 empties the
        mover's front row (3.6), 2 never ends (3.7), 3 '+' without a safari
        decision; flags 1 capture move, 2 safari decision, 4 win."""
        cdef BaoState s, child
        cdef int flags, status
        self.load(state, &s)
        status = execute_move(&s, move, &child, &flags)
        return status, flags
