# cython: language_level=3
"""The compiled Oware endgame databases (docs/databases.md): what the
search cimports to probe them."""

cdef enum:
    DB_MAX_SEEDS = 48
    PROBE_MISS = -32768   # the position is out of the loaded databases' range
    VALUE_BIAS = 64       # a byte holds value + VALUE_BIAS in bits 0-6
    CYCLE_FLAG = 0x80     # bit 7: the value depends on how a cycle is ended

# What a probe found (``probe_kind``): the value of the game started at the
# probed position with no history (right after a capture), or bounds on it.
cdef enum:
    PROBE_EXACT = 1       # proven exact (an unflagged entry of a --prove build)
    PROBE_BOUNDS = 2      # not proven: the proven bounds lo <= value <= hi
    PROBE_ESTIMATE = 3    # a build without --prove: the stored value, not proven

# Reads the loaded databases; ``data`` is a Tablebase's ``c``. Returns the
# final margin of the side to move (or PROBE_MISS) and writes its kind; with
# PROBE_BOUNDS the margin is the lower bound and ``upper`` the upper one.
ctypedef int (*probe_fn)(const void* data, const void* state, int* kind,
                         int* upper) noexcept nogil

# Another variant's databases hand the search their probe in a PyCapsule
# named PROBE_HOOK holding one of these (the Kalah solver's: _kalahsolve.pyx).
ctypedef struct ProbeHook:
    probe_fn probe
    const void* data

ctypedef struct TBData:
    const unsigned char* level[DB_MAX_SEEDS + 1]  # NULL: that seed count is not loaded
    # the proven bounds (lo, hi: 2 bytes a board) of each count, read by the
    # builder of larger counts; NULL when not loaded (probing needs none)
    const unsigned char* proven[DB_MAX_SEEDS + 1]
    int max_seeds        # every count 0..max_seeds is loaded (-1: none)
    int rule             # the grand-slam rule the files were built for
    int is_proven        # built with --prove: an unflagged entry is proven exact

cdef class Tablebase:
    cdef TBData c
    cdef object views    # the memoryviews of the mapped files (kept alive)
    cdef readonly int grandslam
    # the ranks of each count (tablebase.RANKS_MAGIC files), or None: read in Python
    cdef public object ranks
    # the counts 0..searched are solved over every line (tablebase.py sets it; -1: none)
    cdef public int searched

# The final margin of the side to move in an Oware TwoRowState (its
# captured seeds plus the database value of the board), or PROBE_MISS; the
# value of the game started there with no history, so the search reads it
# only right after a capture (docs/databases.md).
cdef int probe_state(const void* data, const void* state, int* kind,
                     int* upper) noexcept nogil
