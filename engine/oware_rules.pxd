# The grand-slam rules of Oware as numbered by the variant's `grandslam`
# option, shared by the kernel (_oware.pyx) and the endgame databases
# (_owaredb.pyx).

cdef enum:
    NOCAPTURE = 0
    FORBIDDEN = 1
    CAPTURE = 2
    LEAVE_FIRST = 3
    LEAVE_LAST = 4
    OPPONENT = 5
