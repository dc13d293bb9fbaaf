# cython: language_level=3
"""C pieces shared by the Oware and Ayoayo kernels (a header: inline
functions only, compiled into each kernel).

TwoRowState, 16 bytes: pits[12] (South a-f, North A-F), score[2], turn,
rule (Oware's grand-slam rule; 0 in Ayoayo). The first 15 bytes are the
key's input, in the order of the pure kernels' key_values.
"""

from libc.stdint cimport uint64_t

from libc.string cimport memcpy, memset

from bingwa.engine.core cimport finish_key, load_le64, mix_word

cdef enum:
    PITS = 12
    HALF = 24

ctypedef struct TwoRowState:
    unsigned char pits[12]
    unsigned char score[2]
    unsigned char turn
    unsigned char rule


cdef enum:
    SOW_TABLE_BYTES = PITS * PITS * 16


cdef inline void fill_sow_table(unsigned char* table) noexcept:
    """table[(origin * 12 + seeds) * 16 ...]: the 16 bytes a sowing of
    ``seeds`` < 12 from ``origin`` adds to a TwoRowState (one seed in each
    of the next ``seeds`` pits, nothing to the scores, turn or rule). Each
    kernel fills its own table (SOW_TABLE_BYTES) once, at import."""
    cdef int origin, seeds, k
    memset(table, 0, SOW_TABLE_BYTES)
    for origin in range(PITS):
        for seeds in range(PITS):
            for k in range(1, seeds + 1):
                table[(origin * PITS + seeds) * 16 + (origin + k) % PITS] = 1


cdef inline int sow_short(unsigned char* state, const unsigned char* table,
                          int origin) noexcept nogil:
    """Sow the fewer than 12 seeds of pit ``origin`` of the 16-byte
    ``state`` (each pit passed at most once): two 64-bit additions, as no
    byte can overflow (a pit never holds more than the 48 seeds). Returns
    the last pit sown."""
    cdef int seeds = state[origin]
    cdef const unsigned char* add = table + (origin * PITS + seeds) * 16
    cdef uint64_t lo, hi, add_lo, add_hi
    memcpy(&lo, state, 8)
    memcpy(&hi, state + 8, 8)
    memcpy(&add_lo, add, 8)
    memcpy(&add_hi, add + 8, 8)
    lo += add_lo
    hi += add_hi
    memcpy(state, &lo, 8)
    memcpy(state + 8, &hi, 8)
    state[origin] = 0
    origin += seeds
    return origin - PITS if origin >= PITS else origin


cdef inline int sow_laps(unsigned char* pits, int origin) noexcept nogil:
    """Sow pit ``origin`` (any number of seeds), skipping it on every lap;
    returns the last pit sown."""
    cdef int seeds = pits[origin]
    cdef int pit = origin, laps, i
    pits[origin] = 0
    laps = seeds // (PITS - 1)
    seeds -= laps * (PITS - 1)
    for i in range(PITS):
        pits[i] += laps
    pits[origin] -= laps
    if seeds == 0:
        return origin - 1 if origin else PITS - 1
    while seeds:
        pit += 1
        if pit == PITS:
            pit = 0
        pits[pit] += 1
        seeds -= 1
    return pit


cdef inline int decided_by_score(const TwoRowState* s, int* scores) noexcept nogil:
    """Writes the scores; 1 when they end the game: more than half the
    seeds captured, or half each."""
    scores[0] = s.score[0]
    scores[1] = s.score[1]
    return s.score[0] > HALF or s.score[1] > HALF or (s.score[0] == HALF and s.score[1] == HALF)


cdef inline int own_rows_end(const void* vs, int nmoves, int* scores) noexcept nogil:
    """Each player adds the seeds of his own row (Oware's end without a
    move, and both games' repetition ending); returns the repetition code."""
    cdef const TwoRowState* s = <const TwoRowState*> vs
    cdef int i
    scores[0] = s.score[0]
    scores[1] = s.score[1]
    for i in range(6):
        scores[0] += s.pits[i]
        scores[1] += s.pits[6 + i]
    return 3


cdef inline uint64_t tworow_key(const void* s) noexcept nogil:
    """mix_key of the first 15 bytes, the second word read whole (the
    16th byte, ``rule``, masked off)."""
    cdef const unsigned char* p = <const unsigned char*> s
    return finish_key(mix_word(mix_word(0xCBF29CE484222325ULL, load_le64(p)),
                               load_le64(p + 8) & 0x00FFFFFFFFFFFFFFULL))


cdef inline int tworow_side_to_move(const void* s) noexcept nogil:
    return (<const TwoRowState*> s).turn


cdef inline int tworow_captured(const void* vs) noexcept nogil:
    cdef const TwoRowState* s = <const TwoRowState*> vs
    return s.score[0] - s.score[1]


cdef inline int load_tworow(object state, void* out, int rule) except -1:
    """Python state ``(pits, scores, turn)`` -> TwoRowState."""
    cdef TwoRowState* s = <TwoRowState*> out
    cdef int i
    pits, scores, turn = state
    for i in range(PITS):
        s.pits[i] = pits[i]
    s.score[0] = scores[0]
    s.score[1] = scores[1]
    s.turn = turn
    s.rule = rule
    return 0


cdef inline object dump_tworow(const void* vs):
    cdef const TwoRowState* s = <const TwoRowState*> vs
    return (tuple([s.pits[i] for i in range(PITS)]), (s.score[0], s.score[1]), s.turn)
