# cython: language_level=3
"""Proof search: can the side to move at the root force a win within d plies?

An AND/OR search over any compiled kernel (core.pxd's ``Ops``), iterated
on d = 1, 2, ...: the first d that succeeds is the exact distance of the
fastest forced win. Only the rules' game ends count: a position whose game
is over is a win when the attacker (the root's side to move) ends with the
higher score; a position d plies from the root that is not a game end is a
failure. Nothing heuristic decides a result:

- no evaluation and no pruning that could hide a refutation: at a node of
  the attacker one proven child proves it (OR), at a node of the defender
  every child must be proven (AND); the kernel's evaluation only orders the
  moves, which changes the cost, never the answer;
- the table stores only facts about a position: "a win within w plies" and
  "no win within f plies", keyed by the whole state (compared byte for
  byte, not by a hash), so a transposition reuses a proof or a refutation
  only where it holds. Facts about a position do not depend on the path to
  it only when the rules have no repetition ending (Bao, rule 7.3); the
  search refuses kernels with one;
- turns are never assumed to alternate: a node is an OR node when the side
  to move is the attacker.

Bao's never-ending moves are not legal moves in bingwa's kernels (rule 3.7,
cut at 65,536 dropped seeds), so the search sees only the moves the rules
allow.
"""

from cpython.exc cimport PyErr_CheckSignals, PyErr_Clear
from libc.stdint cimport int16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy, memset

from bingwa.engine.core cimport MAX_MOVES, STATE_BYTES, Kernel, Ops

cdef enum:
    MAX_DEPTH = 120
    NO_WIN = 0x7FFF       # win_within when no win is known


class ProofAborted(Exception):
    """The proof ran out of nodes or was stopped (Ctrl-C): nothing proven."""


# A table entry: facts about one state (its bytes follow the header).
ctypedef struct Header:
    uint64_t key
    int16_t win_within     # a win is proven within this many plies (NO_WIN: none)
    int16_t no_win_within  # no win within this many plies is proven (-1: nothing)
    int16_t used           # 1: the entry holds a state
    int16_t pad


cdef class Prover:
    """Proofs for the side to move of a state of ``kernel``; a table of
    ``table_mb`` MiB of proven facts."""

    cdef Ops ops
    cdef int size
    cdef int stride               # bytes of one table entry
    cdef unsigned char* table
    cdef uint64_t mask
    cdef unsigned char* children  # (MAX_DEPTH + 1) * MAX_MOVES states
    cdef int* moves               # (MAX_DEPTH + 1) * MAX_MOVES
    cdef unsigned char root[STATE_BYTES]
    cdef int attacker
    cdef Kernel kernel
    cdef readonly unsigned long long nodes
    cdef unsigned long long node_limit
    cdef int aborted
    cdef object poll              # a callable: True stops the proof (None: none)
    cdef uint64_t entries

    def __cinit__(self, Kernel kernel, state, int table_mb=256):
        self.ops = kernel.ops
        if self.ops.repetition != NULL:
            raise ValueError("the proof search needs rules without a repetition ending")
        self.size = self.ops.size
        self.stride = (sizeof(Header) + self.size + 7) // 8 * 8
        cdef uint64_t entries = 1
        while entries * 2 * self.stride <= (<uint64_t> table_mb) << 20:
            entries *= 2
        self.table = <unsigned char*> calloc(entries, self.stride)
        self.children = <unsigned char*> malloc(<size_t> (MAX_DEPTH + 1) * MAX_MOVES * self.size)
        self.moves = <int*> malloc((MAX_DEPTH + 1) * MAX_MOVES * sizeof(int))
        if self.table == NULL or self.children == NULL or self.moves == NULL:
            raise MemoryError("no memory for the proof search")
        self.mask = entries - 1
        self.entries = entries
        self.poll = None
        kernel.load(state, self.root)
        self.attacker = self.ops.side_to_move(self.root)
        self.kernel = kernel

    def set_root(self, state):
        """Prove from ``state`` next, keeping the table's facts when its
        side to move is the same attacker (they are facts about states, for
        that attacker); another attacker starts from an empty table."""
        cdef int attacker
        self.kernel.load(state, self.root)
        attacker = self.ops.side_to_move(self.root)
        if attacker != self.attacker:
            memset(self.table, 0, <size_t> self.entries * self.stride)
            self.attacker = attacker

    @property
    def attacker_side(self):
        """The side (0 South, 1 North) whose wins the table proves."""
        return self.attacker

    def __dealloc__(self):
        free(self.table)
        free(self.children)
        free(self.moves)

    cdef Header* probe(self, const unsigned char* s, uint64_t key, bint make) noexcept:
        """The entry of state ``s`` (NULL: none); with ``make``, one is
        claimed for it (the bucket's other entry is kept when it has proven
        deeper facts)."""
        cdef uint64_t first = (key & self.mask) & ~(<uint64_t> 1)
        cdef unsigned char* bucket = self.table + first * self.stride
        cdef unsigned char* other = bucket + self.stride
        cdef Header* a = <Header*> bucket
        cdef Header* b = <Header*> other
        cdef Header* e
        if a.used and a.key == key and memcmp(bucket + sizeof(Header), s, self.size) == 0:
            return a
        if b.used and b.key == key and memcmp(other + sizeof(Header), s, self.size) == 0:
            return b
        if not make:
            return NULL
        e = b if a.used and a.no_win_within > b.no_win_within else a
        e.key = key
        e.win_within = NO_WIN
        e.no_win_within = -1
        e.used = 1
        memcpy(<unsigned char*> e + sizeof(Header), s, self.size)
        return e

    cdef int generate(self, const unsigned char* s, int ply) noexcept:
        cdef int* moves = self.moves + ply * MAX_MOVES
        cdef unsigned char* kids = self.children + <size_t> ply * MAX_MOVES * self.size
        cdef int n, i
        if self.ops.gen_children != NULL:
            return self.ops.gen_children(s, moves, kids)
        n = self.ops.gen_moves(s, moves)
        for i in range(n):
            self.ops.make_move(s, moves[i], kids + <size_t> i * self.size)
        return n

    cdef int wins(self, const unsigned char* s, int ply, int depth) noexcept:
        """1 when the attacker can force a game end he wins within
        ``depth`` plies of ``s``, else 0 (also when aborted)."""
        cdef int scores[2]
        cdef int order[MAX_MOVES]
        cdef int rank[MAX_MOVES]
        cdef int n, i, j, k, result, attacking, v
        cdef uint64_t key
        cdef Header* e
        cdef unsigned char* kids
        cdef unsigned char* child
        self.nodes += 1
        if (self.nodes & 0x3FFF) == 0:
            if PyErr_CheckSignals() < 0:
                PyErr_Clear()  # raised as ProofAborted once the search unwinds
                self.aborted = 1
            elif self.poll is not None and self.polled():
                self.aborted = 1
        if self.node_limit and self.nodes >= self.node_limit:
            self.aborted = 1
        if self.aborted:
            return 0
        # Step 1. A game end decides; a horizon that is not one fails
        n = self.generate(s, ply)
        if self.ops.game_end(s, n, scores):
            return scores[self.attacker] > scores[1 - self.attacker]
        if depth <= 0 or ply >= MAX_DEPTH:
            return 0
        # Step 2. Facts already proven about this state
        key = self.ops.key(s)
        e = self.probe(s, key, 0)
        if e != NULL:
            if e.win_within <= depth:
                return 1
            if e.no_win_within >= depth:
                return 0
        # Step 3. Order the moves (cost only): the attacker tries what looks
        # best for him first, the defender what looks best for the defender
        attacking = self.ops.side_to_move(s) == self.attacker
        kids = self.children + <size_t> ply * MAX_MOVES * self.size
        for i in range(n):
            child = kids + <size_t> i * self.size
            v = self.ops.evaluate(child) if self.ops.evaluate != NULL else 0
            if self.ops.side_to_move(child) != self.ops.side_to_move(s):
                v = -v
            rank[i] = v
            order[i] = i
        for i in range(1, n):
            j = i
            while j > 0 and rank[order[j - 1]] < rank[order[j]]:
                order[j - 1], order[j] = order[j], order[j - 1]
                j -= 1
        # Step 4. OR at the attacker's nodes, AND at the defender's
        result = 0 if attacking else 1
        for k in range(n):
            child = kids + <size_t> order[k] * self.size
            if self.wins(child, ply + 1, depth - 1):
                if attacking:
                    result = 1
                    break
            elif not attacking:
                result = 0
                break
        if self.aborted:
            return 0
        # Step 5. Keep the fact
        e = self.probe(s, key, 1)
        if result:
            if depth < e.win_within:
                e.win_within = depth
        elif depth > e.no_win_within:
            e.no_win_within = depth
        return result

    cdef int polled(self) noexcept:
        """The poll's answer; an exception in it stops the proof too."""
        try:
            return 1 if self.poll() else 0
        except BaseException:
            return 1

    def win_within(self, int depth, unsigned long long node_limit=0, poll=None):
        """Whether the root's side to move forces a win within ``depth``
        plies; raises ProofAborted when out of nodes, interrupted, or when
        ``poll`` (a callable, asked every 16,384 nodes) returns True."""
        if not 0 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be in 0..{MAX_DEPTH}")
        self.node_limit = self.nodes + node_limit if node_limit else 0
        self.aborted = 0
        self.poll = poll
        cdef int result
        try:
            result = self.wins(self.root, 0, depth)
        finally:
            self.poll = None
        if self.aborted:
            self.aborted = 0
            raise ProofAborted()
        return bool(result)

    def proof_move(self, int depth):
        """The code of the first root move (kernel order) after which the
        attacker wins within ``depth - 1`` plies (the proof's move)."""
        cdef int n = self.generate(self.root, 0), i
        self.node_limit = 0
        for i in range(n):
            if self.wins(self.children + <size_t> i * self.size, 1, depth - 1):
                return self.moves[i]
        raise ValueError(f"no win within {depth} plies")

    def proof_size(self, int depth, dict seen=None):
        """The proof of a win within ``depth`` plies (already proven) as a
        tree: (nodes of the tree, distinct states in it). At the attacker's
        nodes the tree keeps the first move that wins in time, at the
        defender's every move."""
        if seen is None:
            seen = {}
        cdef unsigned long long before = self.nodes
        self.node_limit = 0
        tree = self.walk(self.root, 0, depth, seen)
        self.nodes = before  # the walk's re-proofs are not the proof's cost
        return tree, len({key for key, _ in seen})

    cdef object walk(self, const unsigned char* s, int ply, int depth, dict seen):
        cdef int scores[2]
        cdef int n, i
        cdef unsigned char* kids
        cdef unsigned char* child
        cdef unsigned char here[STATE_BYTES]
        key = (self.ops.key(s), depth)
        known = seen.get(key)
        if known is not None:
            return known
        memcpy(here, s, self.size)
        n = self.generate(here, ply)
        if self.ops.game_end(here, n, scores):
            seen[key] = 1
            return 1
        total = 1
        kids = self.children + <size_t> ply * MAX_MOVES * self.size
        attacking = self.ops.side_to_move(here) == self.attacker
        for i in range(n):
            child = kids + <size_t> i * self.size
            if attacking:
                if self.wins(child, ply + 1, depth - 1):
                    total += self.walk(child, ply + 1, depth - 1, seen)
                    break
            else:
                total += self.walk(child, ply + 1, depth - 1, seen)
        seen[key] = total
        return total
