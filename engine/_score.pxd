# cython: language_level=3
"""The search's scores (centi-seeds, from the side to move), inline for
search.pyx:

- heuristic values are 100 x the expected final seed margin, |v| < PROVEN_MIN;
- a proven end ``d`` plies from the root with final margin ``m`` (game end
  or repetition) is ``WIN_BASE - d * MARGIN_SPAN + |m|`` for the winner and
  its negation for the loser, so a faster win and a slower loss are
  preferred, then a larger margin. In the table the distance is stored
  from the node, not from the root (``to_table``, ``from_table``);
- a drawn end is 0, like a balanced heuristic value: the search does not
  tell them apart (a 0 at the root proves nothing, since the other moves
  were cut off with heuristic values). A draw is proven apart (search.pyx,
  Step 6);
- an endgame database's result is a proven end TB_PLIES plies past the
  probed node: its margin is exact, its distance unknown (beyond every end
  the search sees, so that a seen end is preferred).
"""

from bingwa.engine.core cimport MAX_PLY

cdef enum:
    SCORE_INF = 1000000000
    WIN_BASE = 500000000
    MARGIN_SPAN = 512          # |final margin| < MARGIN_SPAN in every variant
    PROVEN_MIN = WIN_BASE - 4 * MAX_PLY * MARGIN_SPAN
    EVAL_LIMIT = 100000000     # static evaluations are clamped to this
    TB_PLIES = 2 * MAX_PLY


cdef inline int min_int(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int final_score(const int* scores, int side, int ply) noexcept nogil:
    """The proven value of a finished game for ``side``, ``ply`` plies from the root."""
    cdef int margin = scores[side] - scores[1 - side]
    if margin > 0:
        return WIN_BASE - ply * MARGIN_SPAN + min_int(margin, MARGIN_SPAN - 1)
    if margin < 0:
        return -(WIN_BASE - ply * MARGIN_SPAN + min_int(-margin, MARGIN_SPAN - 1))
    return 0


cdef inline int tablebase_score(int margin, int ply) noexcept nogil:
    """A database's final margin for the side to move, ``ply`` plies from
    the root, as a proven score (see TB_PLIES)."""
    cdef int distance = ply + TB_PLIES
    if margin > 0:
        return WIN_BASE - distance * MARGIN_SPAN + min_int(margin, MARGIN_SPAN - 1)
    if margin < 0:
        return -(WIN_BASE - distance * MARGIN_SPAN + min_int(-margin, MARGIN_SPAN - 1))
    return 0


cdef inline int to_table(int score, int ply) noexcept nogil:
    """A score ``ply`` plies from the root as the table keeps it: proven
    distances from the node."""
    if score >= PROVEN_MIN:
        return score + ply * MARGIN_SPAN
    if score <= -PROVEN_MIN:
        return score - ply * MARGIN_SPAN
    return score


cdef inline int from_table(int score, int ply) noexcept nogil:
    """The table's score back as one ``ply`` plies from the root."""
    if score >= PROVEN_MIN:
        return score - ply * MARGIN_SPAN
    if score <= -PROVEN_MIN:
        return score + ply * MARGIN_SPAN
    return score
