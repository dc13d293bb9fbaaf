# cython: language_level=3
"""Python methods shared by every compiled kernel, written once on top of
the ``Ops`` function pointers (core.pxd): legal moves, play, result, key,
perft. Each variant module subclasses Kernel, fills ``ops`` and implements
load/dump between the Python state tuple and its C struct."""

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Free, PyMem_Malloc

from bingwa.engine.net_c cimport (
    NET_BUCKETS,
    NET_HIDDEN,
    NET_INPUTS,
    NET_ONE,
    NET_OUT_SCALE,
    NET_SCORE_BUCKETS,
    net_load,
)


class PerftStopped(Exception):
    """A perft whose ``poll`` asked it to stop (its count is incomplete)."""


cdef enum:
    # interior nodes between two polls: a few milliseconds of counting in
    # every variant, so that Ctrl-C and ``stop`` are felt within 0.5 s
    PERFT_POLL_NODES = 1 << 12


ctypedef struct PerftRun:
    void* owner           # the PerftPoll (a Python object) that polls
    int countdown         # interior nodes left before the next poll
    int stopped


cdef class PerftPoll:
    """What a compiled perft checks every PERFT_POLL_NODES interior nodes,
    with the GIL taken back for a moment: pending signals (Ctrl-C raises
    KeyboardInterrupt, in the main thread) and ``poll()``, true to stop."""

    cdef object poll
    cdef object error

    def __init__(self, poll):
        self.poll = poll
        self.error = None

    cdef int check(self) noexcept:
        try:
            PyErr_CheckSignals()
            if self.poll is not None and self.poll():
                return 1
        except BaseException as exc:
            self.error = exc
            return 1
        return 0


cdef int perft_poll(PerftRun* run) noexcept with gil:
    run.countdown = PERFT_POLL_NODES
    if (<PerftPoll> run.owner).check():
        run.stopped = 1
    return run.stopped


cdef unsigned long long perft_c(Ops* ops, const void* s, int depth,
                                unsigned char* stack, PerftRun* run) noexcept nogil:
    """Move sequences of exactly ``depth`` plies; bulk-counted at the last
    ply. ``stack`` holds MAX_MOVES state slots per remaining ply (a kernel
    with gen_children writes all the children at once). Once ``run`` is
    stopped, every node returns at once (the count is then meaningless)."""
    cdef int moves[MAX_MOVES]
    cdef int scores[2]
    cdef int n, i
    cdef unsigned long long total = 0
    cdef unsigned char* next_ply = stack + MAX_MOVES * STATE_BYTES
    if run.stopped:
        return 0
    if ops.gen_children != NULL:
        n = ops.gen_children(s, moves, stack)
    else:
        n = ops.gen_moves(s, moves)
    if ops.game_end(s, n, scores):
        return 0
    if depth == 1:
        return n
    run.countdown -= 1
    if run.countdown <= 0 and perft_poll(run):
        return 0
    for i in range(n):
        if ops.gen_children != NULL:
            total += perft_c(ops, stack + i * ops.size, depth - 1, next_ply, run)
        else:
            ops.make_move(s, moves[i], stack)
            total += perft_c(ops, stack, depth - 1, next_ply, run)
    return total


cdef class Kernel:
    """A compiled rule kernel (subclassed once per variant)."""

    net_dims = (NET_BUCKETS, NET_SCORE_BUCKETS, NET_INPUTS, NET_HIDDEN, NET_ONE, NET_OUT_SCALE)

    def set_net(self, net):
        """Evaluate with ``net`` (engine/net.Net, its shape ``net_dims``)
        added to the hand evaluation, or with the hand evaluation alone
        (None). The network is the kernel module's: every kernel of the
        variant in the process uses it in the searches started after this
        call. ValueError where the variant's evaluation takes none, or the
        shape is another (the network loaded stays)."""
        if self.net == NULL:
            if net is None:
                return
            raise ValueError("this variant's evaluation takes no network")
        net_load(self.net, net)

    @property
    def uses_net(self):
        """True while a network adds to the evaluation (``set_net``)."""
        return self.net != NULL and self.net.on

    cdef int load(self, object state, void* out) except -1:
        raise NotImplementedError

    cdef object dump(self, const void* s):
        raise NotImplementedError

    def legal_moves(self, state):
        cdef unsigned char buf[STATE_BYTES]
        cdef int moves[MAX_MOVES]
        cdef int scores[2]
        self.load(state, buf)
        cdef int n = self.ops.gen_moves(buf, moves)
        if self.ops.game_end(buf, n, scores):
            return []
        return [moves[i] for i in range(n)]

    def play(self, state, int move):
        cdef unsigned char buf[STATE_BYTES]
        cdef unsigned char out[STATE_BYTES]
        self.load(state, buf)
        self.ops.make_move(buf, move, out)
        return self.dump(out)

    def result(self, state):
        cdef unsigned char buf[STATE_BYTES]
        cdef int moves[MAX_MOVES]
        cdef int scores[2]
        self.load(state, buf)
        cdef int n = self.ops.gen_moves(buf, moves)
        cdef int code = self.ops.game_end(buf, n, scores)
        return code, scores[0], scores[1]

    def key(self, state):
        cdef unsigned char buf[STATE_BYTES]
        self.load(state, buf)
        return self.ops.key(buf)

    def evaluate(self, state):
        cdef unsigned char buf[STATE_BYTES]
        self.load(state, buf)
        return self.ops.evaluate(buf)

    def may_capture(self, state, int move):
        """False when ``move`` surely captures nothing, True when it may;
        None when the kernel has no such test."""
        cdef unsigned char buf[STATE_BYTES]
        if self.ops.may_capture == NULL:
            return None
        self.load(state, buf)
        return bool(self.ops.may_capture(buf, move))

    def move_gain(self, state, int move):
        """Seeds ``move`` captures, told without making it; None when the
        kernel cannot tell (or has no such test)."""
        cdef unsigned char buf[STATE_BYTES]
        cdef int gain
        if self.ops.move_gain == NULL:
            return None
        self.load(state, buf)
        gain = self.ops.move_gain(buf, move)
        return None if gain == GAIN_UNKNOWN else gain

    def perft(self, state, int depth, poll=None):
        """Move sequences of exactly ``depth`` plies (GIL released). Every
        few milliseconds it checks for signals (KeyboardInterrupt stops it)
        and calls ``poll()``, when given: true raises PerftStopped."""
        cdef unsigned char buf[STATE_BYTES]
        cdef unsigned long long total
        cdef PerftRun run
        if depth < 0 or depth >= MAX_PLY:
            raise ValueError(f"perft depth must be in 0..{MAX_PLY - 1}")
        if depth == 0:
            return 1
        self.load(state, buf)
        cdef PerftPoll checker = PerftPoll(poll)
        run.owner = <void*> checker
        run.countdown = PERFT_POLL_NODES
        run.stopped = 0
        cdef unsigned char* stack = <unsigned char*> PyMem_Malloc(
            MAX_MOVES * STATE_BYTES * (depth + 1))
        if stack == NULL:
            raise MemoryError()
        try:
            with nogil:
                total = perft_c(&self.ops, buf, depth, stack, &run)
        finally:
            PyMem_Free(stack)
        if checker.error is not None:
            raise checker.error
        if run.stopped:
            raise PerftStopped(f"perft {depth} stopped")
        return total
