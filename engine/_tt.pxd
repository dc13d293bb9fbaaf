# cython: language_level=3
"""The transposition table of the search (search.pyx), as Stockfish's tt.cpp:
a C array of buckets, allocated, cleared and measured by _tt.pyx; probe,
store and prefetch are inline here, so that the search's calls stay plain
C.

A bucket is 32 bytes, two 16-byte entries: ``deep`` keeps the deepest
result (replaced by one at least as deep, by the same position, or when it
is from an older search) and ``recent`` takes everything else. Entry:

  bits    field
  0-63    check      the full 64-bit position key XOR bits 64-127 (a probe
                     compares all of it)
  64-95   score      int32, proven distances counted from this node
  96-111  move       index + 1 of the best move in the kernel's generation
                     order (0: none); checked against the move count
  112-119 depth      remaining depth of the search that stored it
  120-121 bound      BOUND_UPPER, BOUND_LOWER or BOUND_EXACT (0: empty)
  122-127 age        the search generation (6 bits)

The table holds floor(MB * 2^20 / 32) rounded down to a power of two
buckets: it never grows past the size asked for. Of those, a window of
``mask + 1`` buckets is in use: 16 MiB (or the whole table when smaller)
after a resize or a clear, doubled up to the whole table whenever one
search has written over its own entries with other positions
GROW_TURNOVER times as often as the window has entries (so a large
``Hash`` costs nothing while searches are short: every probe is a cache
miss, and entries spread over 256 MiB miss the caches and the TLB far
more often than 16 MiB; docs/search.md, "Hash"). A doubling keeps the
entries whose key has a 0 at the new bit where they were; the others are
lost (each probe compares the whole key, so nothing is misread).

Threads share one table without locks (search.pyx, Lazy SMP), as Hyatt's
lockless hashing does: an entry is two 8-byte words, the second (score,
move, depth, bound, age) is also XORed into the first, and a probe copies
both and checks that they still agree with the key. An entry torn by two
threads writing it at once fails that check and reads as a miss, so a
probe never returns a score stored for another position.

A proven score found after a quiet move is stored under the position's key
mixed with ``stretch_key`` of the positions on the path since the last
capture (search.pyx, Step 3.7: the graph-history interaction).
"""

from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define bingwa_prefetch(p) __builtin_prefetch(p)
    #elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    #include <xmmintrin.h>
    #define bingwa_prefetch(p) _mm_prefetch((const char*) (p), _MM_HINT_T0)
    #else
    #define bingwa_prefetch(p) ((void) (p))
    #endif
    #include <string.h>
    /* the second word of an entry (score, move, depth, agebound) as one load */
    static inline uint64_t bingwa_tt_data(const void* entry) {
        uint64_t d;
        memcpy(&d, (const char*) entry + 8, 8);
        return d;
    }
    """
    void bingwa_prefetch(const void* p) noexcept nogil
    uint64_t bingwa_tt_data(const void* entry) noexcept nogil

cdef enum:
    BOUND_NONE = 0
    BOUND_UPPER = 1
    BOUND_LOWER = 2
    BOUND_EXACT = 3

ctypedef struct TTEntry:
    uint64_t key        # the position's key XOR the second word (bingwa_tt_data)
    int32_t score
    uint16_t move
    uint8_t depth
    uint8_t agebound

ctypedef struct TTBucket:
    TTEntry deep
    TTEntry recent

ctypedef struct Table:
    TTBucket* buckets   # NULL until table_resize
    uint64_t mask       # buckets in the window - 1
    size_t n_buckets    # buckets allocated
    uint8_t age         # the current search generation, 0..63
    size_t grow_at      # evictions of one search that double the window (0: it is the whole table)
    size_t first_window  # buckets in the window after a resize or a clear

cdef enum:
    WINDOW_MB = 16  # the window after a resize or a clear, unless asked otherwise
    GROW_TURNOVER = 16  # the window doubles when one search evicted this many times its entries

# _tt.pyx: outside the search's loops
cdef int table_resize(Table* t, int hash_mb, int window_mb=*) except -1
cdef void table_free(Table* t) noexcept nogil
cdef void table_clear(Table* t) noexcept nogil
cdef int table_hashfull(const Table* t) noexcept nogil
cdef size_t table_entries(const Table* t) noexcept nogil
cdef void table_new_search(Table* t) noexcept nogil
cdef void table_grow(Table* t) noexcept nogil


cdef inline void table_prefetch(const Table* t, uint64_t key) noexcept nogil:
    """Start fetching ``key``'s bucket from memory (a probe or store follows)."""
    bingwa_prefetch(&t.buckets[key & t.mask])


cdef inline bint entry_holds(const TTEntry* e, uint64_t key) noexcept nogil:
    """Whether ``e`` is in use and was stored whole for ``key``."""
    return (e.agebound & 3) != 0 and (e.key ^ bingwa_tt_data(e)) == key


cdef inline TTEntry* table_probe(Table* t, uint64_t key, TTEntry* out) noexcept nogil:
    """``key``'s entry copied into ``out`` (returned), or NULL: none. The
    copy is checked, not the table, which another thread may be writing."""
    cdef TTBucket* b = &t.buckets[key & t.mask]
    out[0] = b.deep
    if entry_holds(out, key):
        return out
    out[0] = b.recent
    if entry_holds(out, key):
        return out
    return NULL


cdef inline void table_store(Table* t, size_t* evicted, uint64_t key, int score, int bound,
                             int depth, int move_index) noexcept nogil:
    """Keep a result; ``move_index`` < 0 keeps the entry's best move.
    ``evicted`` counts this search's own results written over: each
    thread keeps its own count (a shared one would be a cache line every
    store fights for)."""
    cdef TTBucket* b = &t.buckets[key & t.mask]
    cdef TTEntry* e
    cdef TTEntry new
    cdef bint same
    if (entry_holds(&b.deep, key) or (b.deep.agebound & 3) == 0 or depth >= b.deep.depth
            or (b.deep.agebound >> 2) != t.age):
        e = &b.deep
    else:
        e = &b.recent
    same = entry_holds(e, key)
    if not same and (e.agebound & 3) and (e.agebound >> 2) == t.age:
        evicted[0] += 1  # this search's own result lost: the window is full
        if evicted[0] == t.grow_at:
            table_grow(t)
    if move_index < 0 and same:
        move_index = <int> e.move - 1  # keep the old best move
    new.score = score
    new.move = <uint16_t> (move_index + 1)
    new.depth = <uint8_t> depth
    new.agebound = <uint8_t> ((t.age << 2) | bound)
    new.key = key ^ bingwa_tt_data(&new)
    e[0] = new


cdef inline uint64_t stretch_key(uint64_t stretch) noexcept nogil:
    """What a set of positions (the XOR of their keys) adds to a key."""
    return (stretch ^ (stretch >> 29)) * <uint64_t> 0xBF58476D1CE4E5B9ULL
