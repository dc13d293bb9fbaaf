# cython: language_level=3
"""UCT (Monte Carlo tree search with UCB1) on the kernel interface of
engine/core.pxd: it plays every variant through ``Ops`` alone, Bao included.

One simulation:

1. Selection: from the root, step to the child with the highest
   ``wins/visits + c * sqrt(ln(parent visits) / visits)``; a child never
   visited is taken first (a random one among them). ``wins`` count for the
   player who made the child's move, so turns need not alternate (Kalah's
   extra turns, Bao): each node scores for its own mover.
2. Expansion: a node is expanded (all children at once) on its second
   visit; its first visit only decides whether it ends the game (by the
   rules, or by repetition of a position of the game or of the path above).
3. Playout: uniformly random legal moves until the game ends. A playout
   longer than MAX_PLAYOUT plies is scored as a repetition would be where
   the variant has that rule (each side takes its own row), else at the
   current scores.
4. Back-propagation: every node on the path adds a visit, a win (1), draw
   (1/2) or loss (0) for its mover, and the final seed margin for its mover
   (the bot reports the best move's mean margin as ``score cp``).

The tree lives in one growable array of nodes (children contiguous); when
it is full, simulations go on with playouts from its leaves. Random numbers
come from splitmix64 seeded by the caller, so a seed and a simulation count
give the same tree every time. ``run`` releases the GIL.

bots/mcts.py holds a pure-Python twin of exactly this algorithm (same
random numbers, same tie-breaks), used under BINGWA_PURE=1 and to test this
module.
"""

from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from bingwa.engine._clock cimport now_seconds
from bingwa.engine.core cimport MAX_MOVES, MAX_PLY, STATE_BYTES, Kernel, Ops

cdef enum:
    MAX_PLAYOUT = 2000    # plies before a playout is scored as a repetition
    MAX_DEPTH = MAX_PLY   # deepest path the tree keeps (states on the stack)
    TIME_CHECK = 16       # simulations between two looks at the clock

ctypedef struct Node:
    int first_child       # index of the first child, -1 until expanded
    int n_children
    int move              # the move that led here
    int mover             # the side that played it (0 South, 1 North)
    int terminal          # 1 when this node ends the game
    int score[2]          # final scores of a terminal node
    unsigned int visits
    double wins           # for ``mover``: 1 a win, 1/2 a draw
    double margin         # sum of final (mover - other) seed margins


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline double now() noexcept nogil:
    return now_seconds()  # time.monotonic()'s clock, on every platform


cdef class UCTSearch:
    """A search tree over one root position (see the module docstring)."""

    cdef Ops ops
    cdef Node* nodes
    cdef int n_nodes
    cdef int capacity
    cdef int max_nodes
    cdef uint64_t rng
    cdef double exploration
    cdef uint64_t* history       # keys of the game's earlier positions
    cdef int n_history
    cdef unsigned char root[STATE_BYTES]
    cdef readonly long long simulations
    cdef readonly int max_depth

    def __cinit__(self, Kernel kernel, state, history_keys, allowed,
                  unsigned long long seed, double exploration, int max_nodes):
        self.nodes = NULL
        self.history = NULL
        self.ops = kernel.ops
        kernel.load(state, self.root)
        self.rng = seed
        self.exploration = exploration
        self.max_nodes = max(max_nodes, 2)
        self.simulations = 0
        self.max_depth = 0
        self.n_history = len(history_keys)
        self.history = <uint64_t*> malloc(sizeof(uint64_t) * (self.n_history + 1))
        self.capacity = min(4096, self.max_nodes)
        self.nodes = <Node*> malloc(sizeof(Node) * self.capacity)
        if self.history == NULL or self.nodes == NULL:
            raise MemoryError()
        for i in range(self.n_history):
            self.history[i] = history_keys[i]
        cdef Node* root = &self.nodes[0]
        root.first_child = -1
        root.n_children = 0
        root.move = -1
        root.mover = 1 - self.ops.side_to_move(self.root)
        root.terminal = 0
        root.visits = 0
        root.wins = 0
        root.margin = 0
        self.n_nodes = 1
        if not self.expand(0, self.root):
            raise MemoryError()
        if allowed:
            self.restrict_root(set(allowed))
        if self.nodes[0].n_children == 0:
            raise ValueError("the root position has no legal move to search")

    def __dealloc__(self):
        free(self.nodes)
        free(self.history)

    cdef void restrict_root(self, object allowed):
        cdef Node* root = &self.nodes[0]
        cdef int k = 0, i
        for i in range(root.n_children):
            if self.nodes[root.first_child + i].move in allowed:
                self.nodes[root.first_child + k] = self.nodes[root.first_child + i]
                k += 1
        root.n_children = k

    # -- the tree --------------------------------------------------------
    cdef bint expand(self, int index, const void* s) noexcept nogil:
        """Give node ``index`` (state ``s``) its children; False when the
        pool is full."""
        cdef int moves[MAX_MOVES]
        cdef int n = self.ops.gen_moves(s, moves)
        cdef int mover = self.ops.side_to_move(s)
        cdef int i, cap, need = self.n_nodes + n
        cdef Node* grown
        cdef Node* child
        if need > self.capacity:
            if need > self.max_nodes:
                return False
            cap = self.capacity
            while cap < need:
                cap *= 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            grown = <Node*> realloc(self.nodes, sizeof(Node) * cap)
            if grown == NULL:
                return False
            self.nodes = grown
            self.capacity = cap
        self.nodes[index].first_child = self.n_nodes
        self.nodes[index].n_children = n
        for i in range(n):
            child = &self.nodes[self.n_nodes + i]
            child.first_child = -1
            child.n_children = 0
            child.move = moves[i]
            child.mover = mover
            child.terminal = 0
            child.visits = 0
            child.wins = 0
            child.margin = 0
        self.n_nodes = need
        return True

    cdef int select(self, int index) noexcept nogil:
        """The child of ``index`` to visit next (an index into nodes)."""
        cdef Node* node = &self.nodes[index]
        cdef int first = node.first_child, n = node.n_children, i, best = first
        cdef int unvisited = 0
        cdef double value, best_value = -1.0, log_n
        cdef Node* child
        for i in range(n):
            if self.nodes[first + i].visits == 0:
                unvisited += 1
        if unvisited:
            unvisited = <int> (splitmix64(&self.rng) % <uint64_t> unvisited)
            for i in range(n):
                if self.nodes[first + i].visits == 0:
                    if unvisited == 0:
                        return first + i
                    unvisited -= 1
        log_n = log(<double> node.visits)
        for i in range(n):
            child = &self.nodes[first + i]
            value = (child.wins / child.visits
                     + self.exploration * sqrt(log_n / child.visits))
            if value > best_value:
                best_value = value
                best = first + i
        return best

    cdef bint repeats(self, uint64_t key, const uint64_t* path, int depth) noexcept nogil:
        cdef int i
        for i in range(depth):
            if path[i] == key:
                return True
        for i in range(self.n_history):
            if self.history[i] == key:
                return True
        return False

    cdef void playout(self, unsigned char* s, int* scores) noexcept nogil:
        """Random moves from ``s`` (overwritten) to the end; final scores."""
        cdef int moves[MAX_MOVES]
        cdef unsigned char other[STATE_BYTES]
        cdef unsigned char* cur = s
        cdef unsigned char* nxt = other
        cdef unsigned char* tmp
        cdef int n, _ply
        for _ply in range(MAX_PLAYOUT):
            n = self.ops.gen_moves(cur, moves)
            if self.ops.game_end(cur, n, scores):
                return
            self.ops.make_move(cur, moves[splitmix64(&self.rng) % <uint64_t> n], nxt)
            tmp = cur
            cur = nxt
            nxt = tmp
        if self.ops.repetition != NULL:
            self.ops.repetition(cur, 0, scores)
        else:
            n = self.ops.gen_moves(cur, moves)
            self.ops.game_end(cur, n, scores)

    cdef void simulate(self) noexcept nogil:
        cdef unsigned char a[STATE_BYTES]
        cdef unsigned char b[STATE_BYTES]
        cdef unsigned char* cur = a
        cdef unsigned char* nxt = b
        cdef unsigned char* tmp
        cdef int path[MAX_DEPTH + 1]
        cdef uint64_t keys[MAX_DEPTH + 1]
        cdef int moves[MAX_MOVES]
        cdef int scores[2]
        cdef int depth = 0, index = 0, n, i
        cdef Node* node
        cdef double reward
        memcpy(a, self.root, STATE_BYTES)
        path[0] = 0
        keys[0] = self.ops.key(cur)
        while True:
            node = &self.nodes[index]
            if node.terminal:
                scores[0] = node.score[0]
                scores[1] = node.score[1]
                break
            if node.first_child < 0:
                if (node.visits == 0 or depth >= MAX_DEPTH - 1
                        or not self.expand(index, cur) or self.nodes[index].n_children == 0):
                    self.playout(cur, scores)
                    break
            index = self.select(index)
            node = &self.nodes[index]
            self.ops.make_move(cur, node.move, nxt)
            tmp = cur
            cur = nxt
            nxt = tmp
            depth += 1
            path[depth] = index
            keys[depth] = self.ops.key(cur)
            if node.visits == 0:
                # first visit: does this node end the game?
                if self.ops.repetition != NULL and self.repeats(keys[depth], keys, depth):
                    self.ops.repetition(cur, 0, node.score)
                    node.terminal = 1
                else:
                    n = self.ops.gen_moves(cur, moves)
                    if self.ops.game_end(cur, n, node.score):
                        node.terminal = 1
        if depth > self.max_depth:
            self.max_depth = depth
        for i in range(depth + 1):
            node = &self.nodes[path[i]]
            node.visits += 1
            if scores[node.mover] > scores[1 - node.mover]:
                reward = 1.0
            elif scores[node.mover] == scores[1 - node.mover]:
                reward = 0.5
            else:
                reward = 0.0
            node.wins += reward
            node.margin += scores[node.mover] - scores[1 - node.mover]
        self.simulations += 1

    # -- Python methods --------------------------------------------------
    def run(self, long long simulations, double seconds=0.0):
        """Run up to ``simulations`` simulations, or fewer if ``seconds``
        (> 0) pass first; returns how many ran. The GIL is released."""
        cdef long long done = 0
        cdef double deadline = 0.0
        with nogil:
            if seconds > 0:
                deadline = now() + seconds
            while done < simulations:
                self.simulate()
                done += 1
                if deadline > 0 and done % TIME_CHECK == 0 and now() >= deadline:
                    break
        return done

    @property
    def nodes_used(self):
        return self.n_nodes

    def children(self):
        """The root's children: (move, visits, wins, margin sum), in the
        kernel's move order."""
        cdef Node* root = &self.nodes[0]
        cdef Node* c
        out = []
        for i in range(root.n_children):
            c = &self.nodes[root.first_child + i]
            out.append((c.move, c.visits, c.wins, c.margin))
        return out

    def principal_variation(self, int length=32):
        """Most-visited children from the root down, as move codes (ties:
        more wins, then move order)."""
        cdef int index = 0, i, best
        cdef Node* node
        cdef Node* c
        cdef Node* b
        line = []
        while len(line) < length:
            node = &self.nodes[index]
            if node.first_child < 0 or node.n_children == 0:
                break
            best = node.first_child
            for i in range(1, node.n_children):
                c = &self.nodes[node.first_child + i]
                b = &self.nodes[best]
                if c.visits > b.visits or (c.visits == b.visits and c.wins > b.wins):
                    best = node.first_child + i
            if self.nodes[best].visits == 0:
                break
            line.append(self.nodes[best].move)
            index = best
        return line
