# cython: language_level=3
"""The transposition table's memory (the layout, probe and store: _tt.pxd).

From 2 MB on the table is an anonymous mapping aligned on 2 MB and advised
to live on huge pages (every probe is a random access, and TLB misses would
double its cost); the kernel zeroes its pages on first touch, so a 4 GB
table costs nothing until used, and clearing it gives the pages back
instead of writing 4 GB of zeros. Smaller tables come from the heap. The
size decides which: free and clear are told the same size. On Windows the
large tables are committed with VirtualAlloc, whose pages are zeroed on
first touch too, and cleared by writing zeros.
"""

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #define BINGWA_HUGE_PAGE ((size_t) 2 << 20)
    #ifdef _WIN32
    #include <malloc.h>
    #include <windows.h>
    static void* bingwa_table_alloc(size_t bytes) {
        void* p;
        if (bytes < BINGWA_HUGE_PAGE) {
            p = _aligned_malloc(bytes, 64);
            if (p != NULL) memset(p, 0, bytes);
            return p;
        }
        return VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    }
    static void bingwa_table_free(void* p, size_t bytes) {
        if (p == NULL) return;
        if (bytes < BINGWA_HUGE_PAGE) _aligned_free(p);
        else VirtualFree(p, 0, MEM_RELEASE);
    }
    static void bingwa_table_clear(void* p, size_t bytes) {
        memset(p, 0, bytes);
    }
    #else
    #include <sys/mman.h>
    static void* bingwa_table_alloc(size_t bytes) {
        void* p = NULL;
        if (bytes < BINGWA_HUGE_PAGE) {
            if (posix_memalign(&p, 64, bytes) != 0) return NULL;
            memset(p, 0, bytes);
            return p;
        }
        size_t span = bytes + BINGWA_HUGE_PAGE;
        char* raw = (char*) mmap(NULL, span, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == (char*) MAP_FAILED) return NULL;
        char* start = (char*) (((uintptr_t) raw + BINGWA_HUGE_PAGE - 1)
                               & ~(uintptr_t) (BINGWA_HUGE_PAGE - 1));
        if (start > raw) munmap(raw, (size_t) (start - raw));
        size_t tail = (size_t) (raw + span - start) - bytes;
        if (tail > 0) munmap(start + bytes, tail);
    #ifdef MADV_HUGEPAGE
        madvise(start, bytes, MADV_HUGEPAGE);
    #endif
        return start;
    }
    static void bingwa_table_free(void* p, size_t bytes) {
        if (p == NULL) return;
        if (bytes < BINGWA_HUGE_PAGE) free(p);
        else munmap(p, bytes);
    }
    static void bingwa_table_clear(void* p, size_t bytes) {
        /* a private anonymous mapping reads as zeros after MADV_DONTNEED */
        if (bytes < BINGWA_HUGE_PAGE || madvise(p, bytes, MADV_DONTNEED) != 0)
            memset(p, 0, bytes);
    }
    #endif
    """
    void* bingwa_table_alloc(size_t bytes) noexcept nogil
    void bingwa_table_free(void* p, size_t bytes) noexcept nogil
    void bingwa_table_clear(void* p, size_t bytes) noexcept nogil


cdef void _set_window(Table* t, size_t buckets) noexcept nogil:
    t.mask = buckets - 1
    t.grow_at = 0 if buckets >= t.n_buckets else <size_t> GROW_TURNOVER * 2 * buckets


cdef void table_grow(Table* t) noexcept nogil:
    """Double the window (it is smaller than the table). Threads may call
    this at once (search.pyx, Lazy SMP): the window never passes the table."""
    cdef size_t buckets = 2 * (t.mask + 1)
    if buckets > t.n_buckets:
        buckets = t.n_buckets
    _set_window(t, buckets)


cdef void table_new_search(Table* t) noexcept nogil:
    """The next search generation: a new age."""
    t.age = (t.age + 1) & 63


cdef size_t _buckets(int mb) noexcept nogil:
    """The most buckets, a power of two, in ``mb`` MiB."""
    cdef size_t budget = <size_t> mb * (1 << 20) // sizeof(TTBucket)
    cdef size_t n = 1
    while n * 2 <= budget:
        n *= 2
    return n


cdef int table_resize(Table* t, int hash_mb, int window_mb=WINDOW_MB) except -1:
    """Replace the table by a cleared one of at most ``hash_mb`` MiB (>= 1),
    with a window of ``window_mb`` MiB (>= 1) or the whole table."""
    if hash_mb < 1 or window_mb < 1:
        raise ValueError("the hash table needs at least 1 MB")
    cdef size_t n = _buckets(hash_mb)
    cdef TTBucket* buckets = <TTBucket*> bingwa_table_alloc(n * sizeof(TTBucket))
    if buckets == NULL:
        raise MemoryError(f"cannot allocate a {hash_mb} MB hash table")
    table_free(t)
    t.buckets = buckets
    t.n_buckets = n
    t.first_window = _buckets(window_mb)
    if t.first_window > n:
        t.first_window = n
    _set_window(t, t.first_window)
    return 0


cdef void table_free(Table* t) noexcept nogil:
    bingwa_table_free(t.buckets, t.n_buckets * sizeof(TTBucket))
    t.buckets = NULL
    t.n_buckets = 0
    t.mask = 0
    t.grow_at = 0


cdef void table_clear(Table* t) noexcept nogil:
    """Forget every entry; the generation starts again at 0, the window
    at its first size."""
    bingwa_table_clear(t.buckets, t.n_buckets * sizeof(TTBucket))
    t.age = 0
    _set_window(t, t.first_window)


cdef int table_hashfull(const Table* t) noexcept nogil:
    """Per mille of the table used by the current search: of the first
    1000 entries, scaled by the share of the table in the window."""
    cdef size_t i, window = t.mask + 1
    cdef size_t buckets = window if window < 500 else 500
    cdef int used = 0
    cdef uint8_t deep, recent
    for i in range(buckets):
        deep = t.buckets[i].deep.agebound
        recent = t.buckets[i].recent.agebound
        used += (deep & 3) != 0 and (deep >> 2) == t.age
        used += (recent & 3) != 0 and (recent >> 2) == t.age
    return <int> (<size_t> used * 1000 * window // (2 * buckets * t.n_buckets))


cdef size_t table_entries(const Table* t) noexcept nogil:
    """Entries in use (a full scan: for tests and statistics)."""
    cdef size_t i
    cdef size_t used = 0
    for i in range(t.n_buckets):
        used += (t.buckets[i].deep.agebound & 3) != 0
        used += (t.buckets[i].recent.agebound & 3) != 0
    return used
