"""The ``minimax`` bot: plain fixed-depth minimax, a baseline.

Every line is searched to the same depth with no pruning, no table and no
move ordering; the leaves get the variant's static evaluation, and the
rules' endings (repetition included) their exact final margin. The move
with the highest value is played, the first in generation order on a tie.
It thinks to ``Depth`` plies (or the ``depth`` of ``go``), whatever the
clock says, and stops early only on ``stop``.
"""

from __future__ import annotations

import threading

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits, SearchResult
from bingwa.engine.searcher import Searcher, describe_score

from .base import Bot, BotOption, Emit

MAX_MINIMAX_DEPTH = 16


class MinimaxBot(Bot):
    name = "minimax"
    summary = "plain fixed-depth minimax with the static evaluation (a baseline)"

    def options(self) -> list[BotOption]:
        return [BotOption("Depth", "spin", 4, 1, MAX_MINIMAX_DEPTH, help="plies searched")]

    def __init__(self) -> None:
        super().__init__()
        self.searcher = Searcher(hash_mb=1)  # the table is never used

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        depth = min(limits.depth or self.option("Depth"), MAX_MINIMAX_DEPTH)
        allowed = {m.text for m in self.candidate_moves(position, limits)}
        scored = [(m, v) for m, v in self.searcher.minimax(position, depth, stop) if m in allowed]
        if not scored:
            if position.is_over():
                return SearchResult(None)
            scored = [(self.candidate_moves(position, limits)[0].text, 0)]
        if limits.infinite or limits.ponder:
            stop.wait()
        move, value = scored[0]
        cp, mate = describe_score(value)
        info = Info(depth=depth, score_cp=cp, score_mate=mate, nodes=self.searcher.nodes, pv=[move])
        emit(info)
        return SearchResult(move, None, info)
