# cython: language_level=3
"""The C interface every compiled variant kernel provides.

A variant's state is a fixed-size C struct of at most STATE_BYTES bytes
that the kernel alone interprets; search, perft and the Python wrappers
reach it only through the function pointers of ``Ops`` (copy-make: every
make_move writes a fresh child state, nothing is undone).
"""

from libc.stdint cimport uint64_t

from bingwa.engine.net_c cimport NetWeights

cdef enum:
    STATE_BYTES = 128     # room for the largest state (Bao)
    GAIN_UNKNOWN = -32768  # move_gain cannot tell without making the move
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
# Like gen_fn, and writes the child state of the i-th legal move at
# ``children + i * size``: for kernels that must make every move to know it
# is legal (Ayoayo's relays), so that nothing is made twice.
ctypedef int (*children_fn)(const void* s, int* moves, void* children) noexcept nogil

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
    children_fn gen_children  # NULL: not provided (gen_moves, then make_move)
    # A search hint, not a rule: the search uses its table at nodes this far
    # from the horizon or more (0: the search's default, 1). 2 pays where a
    # leaf costs less than a table probe missing the cache (Oware, Kalah).
    int table_depth

cdef inline uint64_t load_le64(const unsigned char* p) noexcept nogil:
    """8 bytes as a little-endian word (compilers make it one load)."""
    return (<uint64_t> p[0] | <uint64_t> p[1] << 8 | <uint64_t> p[2] << 16
            | <uint64_t> p[3] << 24 | <uint64_t> p[4] << 32 | <uint64_t> p[5] << 40
            | <uint64_t> p[6] << 48 | <uint64_t> p[7] << 56)


cdef inline uint64_t mix_word(uint64_t h, uint64_t w) noexcept nogil:
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 29)


cdef inline uint64_t finish_key(uint64_t h) noexcept nogil:
    """The splitmix64 finaliser."""
    h ^= h >> 30
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 27
    h *= 0x94D049BB133111EBULL
    return h ^ (h >> 31)


cdef inline uint64_t mix_key(const unsigned char* values, int n) noexcept nogil:
    """64-bit key of ``n`` small values (the same as kernel.mix_key in
    Python): they are read 8 at a time as little-endian words (the last one
    zero-padded), each mixed in with a multiply and a shift (mix_word), then
    the splitmix64 finaliser. Inline: compiled into each kernel."""
    cdef uint64_t h = 0xCBF29CE484222325ULL
    cdef uint64_t w
    cdef int i = 0, j
    while i + 8 <= n:
        h = mix_word(h, load_le64(values + i))
        i += 8
    if i < n:
        w = 0
        j = n - 1
        while j >= i:
            w = (w << 8) | values[j]
            j -= 1
        h = mix_word(h, w)
    return finish_key(h)


cdef class Kernel:
    cdef Ops ops
    # the learned evaluation's weights, the kernel module's (net_c.pxd;
    # NULL: the variant's evaluation takes no network)
    cdef NetWeights* net
    # Python state tuple -> C state at ``out`` (ops.size bytes)
    cdef int load(self, object state, void* out) except -1
    # C state -> Python state tuple
    cdef object dump(self, const void* s)
