# cython: language_level=3
"""C pieces shared by the Oware and Ayoayo kernels (a header: inline
functions only, compiled into each kernel).

TwoRowState, 16 bytes: pits[12] (South a-f, North A-F), score[2], turn,
rule (Oware's grand-slam rule; 0 in Ayoayo). The first 15 bytes are the
key's input, in the order of the pure kernels' key_values.
"""

from libc.stdint cimport uint64_t

from bingwa.engine.core cimport finish_key, load_le64, mix_word

cdef enum:
    PITS = 12
    HALF = 24

ctypedef struct TwoRowState:
    unsigned char pits[12]
    unsigned char score[2]
    unsigned char turn
    unsigned char rule


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
