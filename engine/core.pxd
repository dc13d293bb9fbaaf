# cython: language_level=3
"""The C interface every compiled variant kernel provides.

A variant's state is a fixed-size C struct of at most STATE_BYTES bytes
that the kernel alone interprets; search, perft and the Python wrappers
reach it only through the function pointers of ``Ops`` (copy-make: every
make_move writes a fresh child state, nothing is undone).
"""

from libc.stdint cimport uint64_t

cdef enum:
    STATE_BYTES = 128     # room for the largest state (Bao)
    GAIN_UNKNOWN = -32768 # move_gain cannot tell without making the move
    MAX_MOVES = 256       # more than any variant's legal moves in a position
    MAX_PLY = 256         # deepest search or perft stack

# Fills ``moves`` with the legal move codes of state ``s``; returns how many.
ctypedef int (*gen_fn)(const void* s, int* moves) noexcept nogil
# Writes into ``out`` the state after legal move ``move`` in ``s``.
ctypedef void (*make_fn)(const void* s, int move, void* out) noexcept nogil
# Termination code (0: the game goes on) of ``s``, given its number of legal
# moves; writes the final (or current) scores of South and North.
ctypedef int (*end_fn)(const void* s, int nmoves, int* scores) noexcept nogil
ctypedef uint64_t (*key_fn)(const void* s) noexcept nogil
ctypedef int (*int_fn)(const void* s) noexcept nogil
# 0 when ``move`` in ``s`` surely captures nothing (a cheap test, no move made).
ctypedef int (*move_fn)(const void* s, int move) noexcept nogil
# Seeds ``move`` captures in ``s`` (the mover's gain: ``captured`` of the
# child minus that of ``s``, from the mover's side) or GAIN_UNKNOWN; only
# kernels whose every move passes the turn provide it.
ctypedef int (*gain_fn)(const void* s, int move) noexcept nogil

ctypedef struct Ops:
    int size                # bytes of the state struct
    gen_fn gen_moves
    make_fn make_move
    end_fn game_end
    key_fn key
    int_fn side_to_move     # 0 South, 1 North
    int_fn captured         # South's score minus North's (captures, stores)
    end_fn repetition       # final scores when ``s`` repeats; NULL: no such rule
    int_fn evaluate         # static score, centi-seeds, side to move's view
    move_fn may_capture     # NULL: unknown (the search makes the move to see)
    gain_fn move_gain       # NULL: unknown (the search makes the move to see)

cdef uint64_t mix_key(const unsigned char* values, int n) noexcept nogil

cdef class Kernel:
    cdef Ops ops
    # Python state tuple -> C state at ``out`` (ops.size bytes)
    cdef int load(self, object state, void* out) except -1
    # C state -> Python state tuple
    cdef object dump(self, const void* s)
