"""Proven draws: which lines of a search that score 0 are drawn for sure,
and in how many plies.

To alpha-beta a drawn end and a balanced heuristic position are both 0, and
a 0 at the root proves nothing: the other moves were cut off with heuristic
values. So after an iteration, each reported line that scores exactly 0
and whose principal variation ends in a drawn end (the rules' game end with
equal scores, or a repetition the rules score as equal) is proven apart by
the compiled search (search.pyx, Step 6, ``Engine.hold_plies``): after the
line's first move, each side in turn is the *holder*, and a search in which
every position at the horizon that is not a game end counts as a failure
finds the fewest plies within which the holder can force the game to end
with its final margin >= 0, whatever the other side does. When both sides
can, the margin with best play is exactly 0: the move draws.

The line draws in N plies (``Info.score_draw``), its first move included:
N - 1 is the larger of the two sides' holding distances after it. Each side
can, on its own, make sure the game is over (at least drawn for it) within
N plies, and N is the smallest such number. This is the draw's counterpart
of a mate distance, in which the winner hurries and the loser delays; the
length of the principal variation is not used, since alpha-beta picks one
drawn line among equals and may end it at a heuristic 0.

The first line speaks for the position, so it is claimed only when, besides,
the other side holds the margin to <= 0 after every root move (no move wins).

Cost: proofs run only for lines scoring exactly 0 whose principal variation
ends in a drawn end. All the proofs of a search together, up to the
iteration to depth d, may search at most the larger of a quarter as many
nodes as the search itself (PROOF_SHARE) and PROOF_MIN_NODES per iteration
(d * PROOF_MIN_NODES): the budget grows with the search's nodes, and with
its iterations where the table makes them cheap (a small game whose whole
tree the search already holds, like Kalah(5,1), iterates to the depth limit
in a few thousand nodes, while a hold proof, which uses no table, costs
more). They obey the clock and the stop event. A proof that ran out of
budget is tried again only once the budget left is twice what it spent (so
that retries, each from scratch, cost at most about as much as the proof
that succeeds), one that failed within its budget at the next iteration.
Proven holds are facts about the position and its history: they are
remembered for the rest of the search. The proofs' nodes are counted apart
(``proof_nodes``): they neither touch the table nor change the main search
or its node count.
"""

from __future__ import annotations

from typing import Any

from .errors import BingwaError
from .position import Position

PROOF_SHARE = 4  # the proofs may search 1/PROOF_SHARE of the search's nodes
PROOF_MIN_NODES = 4096  # or this many per iteration, whichever is more


class DrawProver:
    """Draw proofs for one search of ``position`` by ``engine`` (a started
    search.Engine whose root moves are ``codes``; proofs look at most
    ``depth_limit`` plies deep)."""

    def __init__(self, engine: Any, position: Position, codes: list[int],
                 depth_limit: int) -> None:
        self.engine = engine
        self.position = position
        self.codes = codes
        self.depth_limit = depth_limit
        self._code_of = {m.text: m.code for m in position.legal_moves()}
        self._held: dict[tuple[int, bool], int] = {}
        # nodes spent by the last attempt of a hold that ran out of budget
        self._starved: dict[tuple[int, bool], int] = {}
        self._no_win = False
        self._budget = 0

    def prove(self, lines: list[Any], depth: int) -> None:
        """Set ``info.score_draw`` on the ``lines`` (searcher.Line, best
        first) of the iteration to ``depth`` that are proven draws. The
        proofs look as far as the iteration's extended lines reach."""
        allowed = max(PROOF_MIN_NODES * depth, int(self.engine.nodes) // PROOF_SHARE)
        depth = min(self.depth_limit, max(depth, depth * int(self.engine.ext_pct) // 100))
        self._budget = allowed - int(self.engine.proof_nodes)
        for rank, line in enumerate(lines):
            if line.score != 0 or line.info.bound is not None or not self._ends_drawn(line.pv):
                continue
            plies = self.draw_plies(self._code_of[line.move], depth, whole_position=rank == 0)
            if plies is not None:
                line.info.score_draw = plies
                line.info.score_cp = 0

    def draw_plies(self, code: int, depth: int, whole_position: bool = False) -> int | None:
        """Plies to the proven draw after root move ``code`` (included);
        with ``whole_position``, also proven that no root move wins. None:
        not proven within ``depth`` plies and the node budget."""
        ours = self._hold(code, True, depth)
        if ours is None:
            return None
        theirs = self._hold(code, False, depth)
        if theirs is None:
            return None
        if whole_position and not self._no_win:
            if any(self._hold(other, False, depth) is None for other in self.codes):
                return None
            self._no_win = True
        return max(ours, theirs)

    def _hold(self, code: int, root_holds: bool, depth: int) -> int | None:
        known = self._held.get((code, root_holds))
        if known is not None:
            return known
        starved = self._starved.get((code, root_holds), 0)
        if self._budget <= 0 or self._budget < 2 * starved:
            return None
        before = int(self.engine.proof_nodes)
        plies = int(self.engine.hold_plies(code, root_holds, depth, self._budget))
        spent = int(self.engine.proof_nodes) - before
        self._budget -= spent
        if plies < 0:
            if self._budget <= 0:
                self._starved[(code, root_holds)] = spent
            return None
        self._held[(code, root_holds)] = plies
        return plies

    def _ends_drawn(self, pv: list[str]) -> bool:
        """Whether the line ends in a drawn end (the cheap test that decides
        whether a proof is worth trying)."""
        position = self.position.copy()
        try:
            position.push_all(pv)
        except BingwaError:
            return False
        outcome = position.outcome()
        return outcome is not None and outcome.scores[0] == outcome.scores[1]
