# cython: language_level=3
"""A monotonic clock in seconds for compiled code that checks its own
deadline (search.pyx): the clock of Python's time.monotonic(), in which the
facade passes the deadlines."""

cdef extern from *:
    """
    #ifdef _WIN32
    #include <windows.h>
    /* what time.monotonic() reads: GetTickCount64 up to Python 3.12,
       QueryPerformanceCounter from 3.13 */
    static double bingwa_now_seconds(void) {
    #if PY_VERSION_HEX >= 0x030D0000
        static double tick = 0.0;
        LARGE_INTEGER count;
        if (tick == 0.0) {
            LARGE_INTEGER frequency;
            QueryPerformanceFrequency(&frequency);
            tick = 1.0 / (double) frequency.QuadPart;
        }
        QueryPerformanceCounter(&count);
        return (double) count.QuadPart * tick;
    #else
        return (double) GetTickCount64() * 1e-3;
    #endif
    }
    #else
    #include <time.h>
    static double bingwa_now_seconds(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double bingwa_now_seconds() noexcept nogil


cdef inline double now_seconds() noexcept nogil:
    return bingwa_now_seconds()
