"""Oware (Abapa): ../shared/rules.md, section Oware.

Rules as implemented (pure-Python reference; the compiled kernel in
_oware.pyx implements the same and is tested against this file):

- 12 pits, 4 seeds each; South (pits a-f, index 0-5) moves first.
- A move sows all seeds of one own non-empty pit counter-clockwise, one per
  pit, skipping the origin pit on every lap. No extra turns.
- Capture: the last seed on the opponent's row making 2 or 3 captures that
  pit and, going backwards, every preceding opponent pit holding 2 or 3.
- Grand slam (the chain would take every seed of the opponent's row): the
  option ``grandslam`` picks one of six rules (GRAND_SLAM_RULES).
- Feeding: when the opponent's row is empty the mover must sow into it if
  any move does. *Decision (the seed wins over rules.md):* the seed pages
  (seeds/000, seeds/002) say that when no move can feed, the mover may sow
  in his own row, so then every non-empty pit is legal. rules.md rule 5
  ends the game at once instead; the final scores are the same either way.
- End, checked after every move: more than 24 captured wins; 24-24 draws;
  the player to move without a legal move ends the game and each player
  adds the seeds of his own row; a repeated position (board, scores, side)
  ends it the same way (Position keeps the history).
"""

from __future__ import annotations

from typing import Any

from .kernel import PureKernel
from .tworow import HALF, PITS, TwoRowVariant, own_row
from .variant import OptionSpec, register

GRAND_SLAM_RULES = ("nocapture", "forbidden", "capture", "leave-first", "leave-last", "opponent")
NOCAPTURE, FORBIDDEN, CAPTURE, LEAVE_FIRST, LEAVE_LAST, OPPONENT = range(6)


def distribute_seeds(pits: list[int], origin: int) -> int:
    """Sow the seeds of ``origin`` counter-clockwise, skipping the origin on
    every lap (rule 2). Returns the pit the last seed fell into."""
    seeds, pits[origin] = pits[origin], 0
    pit = origin
    while seeds:
        pit = (pit + 1) % PITS
        if pit != origin:
            pits[pit] += 1
            seeds -= 1
    return pit


def capture_chain(pits: list[int], last: int, mover: int) -> list[int]:
    """Pits captured by rule 3: from the last pit backwards along the
    opponent's row while each holds 2 or 3 (the last pit first)."""
    chain = []
    pit = last
    while pit in own_row(1 - mover) and pits[pit] in (2, 3):
        chain.append(pit)
        pit -= 1
    return chain


def is_grand_slam(pits: list[int], chain: list[int], mover: int) -> bool:
    """The chain would take every seed on the opponent's row (rule 4)."""
    return bool(chain) and sum(pits[p] for p in chain) == sum(pits[p] for p in own_row(1 - mover))


class OwareRules(PureKernel):
    def __init__(self, grandslam: int = NOCAPTURE) -> None:
        self.grandslam = grandslam

    def sow_and_capture(self, state: Any, move: int) -> tuple[Any, bool]:
        """The state after ``move``, and whether it was a grand slam."""
        pits_t, scores, mover = state
        pits = list(pits_t)
        last = distribute_seeds(pits, move)
        chain = capture_chain(pits, last, mover)
        slam = is_grand_slam(pits, chain, mover)
        gains = [0, 0]
        if slam:
            rule = self.grandslam
            if rule == CAPTURE:
                taken = chain
            elif rule == LEAVE_FIRST:
                taken = chain[1:]
            elif rule == LEAVE_LAST:
                taken = chain[:-1]
            elif rule == OPPONENT:
                taken = chain
            else:  # nocapture, and forbidden when every move is a grand slam
                taken = []
            beneficiary = 1 - mover if rule == OPPONENT else mover
        else:
            taken, beneficiary = chain, mover
        for pit in taken:
            gains[beneficiary] += pits[pit]
            pits[pit] = 0
        new_scores = (scores[0] + gains[0], scores[1] + gains[1])
        return (tuple(pits), new_scores, 1 - mover), slam

    def play(self, state: Any, move: int) -> Any:
        return self.sow_and_capture(state, move)[0]

    @staticmethod
    def feeds(state: Any, move: int) -> bool:
        """Whether ``move`` sows at least one seed into the opponent's row."""
        pits, _, mover = state
        return pits[move] > 5 - move % 6

    def legal_moves(self, state: Any) -> list[int]:
        pits, scores, mover = state
        if scores[0] > HALF or scores[1] > HALF or scores[0] == scores[1] == HALF:
            return []
        moves = [p for p in own_row(mover) if pits[p]]
        if not any(pits[p] for p in own_row(1 - mover)):
            feeding = [m for m in moves if self.feeds(state, m)]
            if feeding:  # rule 5; with no feeding move, any move (the seed)
                moves = feeding
        if self.grandslam == FORBIDDEN:
            allowed = [m for m in moves if not self.sow_and_capture(state, m)[1]]
            if allowed:
                moves = allowed
        return moves

    def result(self, state: Any) -> tuple[int, int, int]:
        pits, scores, mover = state
        if scores[0] > HALF or scores[1] > HALF or scores[0] == scores[1] == HALF:
            return 1, scores[0], scores[1]
        if not self.legal_moves(state):
            return 2, scores[0] + sum(pits[0:6]), scores[1] + sum(pits[6:12])
        return 0, scores[0], scores[1]

    def key_values(self, state: Any) -> Any:
        pits, scores, turn = state
        return (*pits, *scores, turn)


@register
class Oware(TwoRowVariant):
    name = "oware"
    aliases = ("abapa", "awale", "owari")
    kernel_module = "oware"
    repetition_ends_game = True
    option_specs = (
        OptionSpec(
            "grandslam",
            "choice",
            "nocapture",
            choices=GRAND_SLAM_RULES,
            help="what a capture of every opponent seed does",
        ),
    )

    @property
    def grandslam(self) -> int:
        return GRAND_SLAM_RULES.index(self.options["grandslam"])

    def pure_kernel(self) -> Any:
        return OwareRules(self.grandslam)

    def compiled_kernel(self, module: Any) -> Any:
        from .net import load_default

        kernel = module.OwareKernel(self.grandslam)
        load_default(kernel)  # the learned evaluation (engine/net.py), shared by all
        return kernel

    def rule_reason(self, state: Any, code: int) -> str:
        pits, _, mover = state
        if not any(pits[p] for p in own_row(1 - mover)) and not OwareRules.feeds(state, code):
            return "the opponent must be fed and this move does not reach his row"
        if self.grandslam == FORBIDDEN:
            return "a grand slam is forbidden while another move exists"
        return "not a legal move in this position"
