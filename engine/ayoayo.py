"""Ayoayo: ../shared/rules.md, section Ayoayo (and seeds/001).

Rules as implemented (pure-Python reference; _ayoayo.pyx is its compiled twin):

- Board, notation, 48 seeds and first player as in Oware.
- Relay sowing (rule 1): sow as in Oware, skipping the pit the seeds in
  hand were lifted from. A last seed falling into a pit that held seeds
  lifts that pit (either row) and sowing goes on from the next pit; that
  pit becomes the skipped one. The move ends when the last seed falls into
  an empty pit.
- Capture (rule 2): ending in an empty pit of the mover's row with seeds in
  the facing pit captures the facing seeds and the capturing seed. At most
  one pit per move; nothing is captured on the opponent's row.
- Endless relay (rule 3): a move whose sowing returns to a state it was in
  (same board, same pit about to be lifted) is illegal.
- Feeding (rule 4): with the opponent's row empty the mover must leave
  seeds on it (after sowing and capture) if any move does.
- End (rule 5): more than 24 captured wins, 24-24 draws; the player to move
  without a legal move ends the game and every seed left on the board goes
  to his opponent; a repeated position ends it with each player taking the
  seeds of his own row (Position keeps the history).
"""

from __future__ import annotations

from typing import Any

from .kernel import PureKernel
from .tworow import HALF, PITS, TwoRowVariant, own_row
from .variant import register


def relay_sow(pits: list[int], origin: int) -> int | None:
    """Relay-sow from ``origin`` (rule 1). Returns the pit where the last
    seed fell, or None when the relay never ends (rule 3)."""
    seen = set()
    lifted = origin
    while True:
        situation = (tuple(pits), lifted)
        if situation in seen:
            return None
        seen.add(situation)
        seeds, pits[lifted] = pits[lifted], 0
        pit = lifted
        while seeds:
            pit = (pit + 1) % PITS
            if pit != lifted:
                pits[pit] += 1
                seeds -= 1
        if pits[pit] == 1:  # fell into an empty pit: the move ends
            return pit
        lifted = pit


class AyoayoRules(PureKernel):
    @staticmethod
    def after(state: Any, move: int) -> Any | None:
        """The state after ``move``, None for an endless relay."""
        pits_t, scores, mover = state
        pits = list(pits_t)
        last = relay_sow(pits, move)
        if last is None:
            return None
        gains = [0, 0]
        facing = PITS - 1 - last
        if last in own_row(mover) and pits[facing]:
            gains[mover] = pits[facing] + 1
            pits[facing] = pits[last] = 0
        return tuple(pits), (scores[0] + gains[0], scores[1] + gains[1]), 1 - mover

    def play(self, state: Any, move: int) -> Any:
        child = self.after(state, move)
        if child is None:
            raise ValueError("endless relay")
        return child

    def legal_moves(self, state: Any) -> list[int]:
        pits, scores, mover = state
        if scores[0] > HALF or scores[1] > HALF or scores[0] == scores[1] == HALF:
            return []
        moves = []
        feeding = []
        for pit in own_row(mover):
            if pits[pit]:
                child = self.after(state, pit)
                if child is not None:
                    moves.append(pit)
                    if any(child[0][p] for p in own_row(1 - mover)):
                        feeding.append(pit)
        if not any(pits[p] for p in own_row(1 - mover)) and feeding:
            return feeding
        return moves

    def result(self, state: Any) -> tuple[int, int, int]:
        pits, scores, mover = state
        if scores[0] > HALF or scores[1] > HALF or scores[0] == scores[1] == HALF:
            return 1, scores[0], scores[1]
        if not self.legal_moves(state):
            final = list(scores)
            final[1 - mover] += sum(pits)
            return 2, final[0], final[1]
        return 0, scores[0], scores[1]

    def key_values(self, state: Any) -> Any:
        pits, scores, turn = state
        return (*pits, *scores, turn)


@register
class Ayoayo(TwoRowVariant):
    name = "ayoayo"
    aliases = ("ayo", "ayo-ayo")
    kernel_module = "ayoayo"
    repetition_ends_game = True
    guesses_moves_left = True

    def pure_kernel(self) -> Any:
        return AyoayoRules()

    def compiled_kernel(self, module: Any) -> Any:
        from .net import load_default

        kernel = module.AyoayoKernel()
        load_default(kernel, "ayoayo")  # the learned evaluation (engine/net.py), if shipped
        return kernel

    def rule_reason(self, state: Any, code: int) -> str:
        if AyoayoRules.after(state, code) is None:
            return "its relay never ends"
        return "the opponent must be fed and this move leaves his row empty"
