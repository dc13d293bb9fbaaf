"""An exhaustive AND/OR search on bingwa.engine.Position, written apart
from the proof search (engine/_proof.pyx, solvers.prove_win) that the
tests check against it."""

from __future__ import annotations

from bingwa.engine import Position


def wins_within(pos: Position, attacker: int, plies: int) -> bool:
    """Whether ``attacker`` can force a game end he wins within ``plies``."""
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.winner == attacker
    if plies == 0:
        return False
    results = (wins_within(pos.play(move), attacker, plies - 1) for move in pos.legal_moves())
    return any(results) if pos.turn == attacker else all(results)
