"""Values shared by every variant: moves, outcomes and how games end."""

from __future__ import annotations

import enum
from dataclasses import dataclass

SOUTH = 0
NORTH = 1
SIDE_NAMES = ("south", "north")


class Termination(enum.Enum):
    """Why a game ended. The first group is decided by the rules; the second
    by the referee (tournament runner, command line), never by the rules."""

    MAJORITY = "majority"  # a player captured more than half (or both half)
    NO_MOVES = "no legal move"  # the player to move has none
    REPETITION = "repetition"  # a position occurred again
    ROW_EMPTY = "row empty"  # Kalah: a row emptied after a move
    FRONT_ROW_EMPTY = "front row empty"  # Bao: a front row emptied
    # decided by a referee
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"
    CRASH = "crash"
    STALL = "stall"
    ILLEGAL_MOVE = "illegal move"
    ADJUDICATION = "adjudication"
    MOVE_CAP = "move cap"
    ABANDONED = "abandoned"


# Termination codes returned by the rule kernels (pure and compiled).
KERNEL_TERMINATIONS = {
    1: Termination.MAJORITY,
    2: Termination.NO_MOVES,
    3: Termination.REPETITION,
    4: Termination.ROW_EMPTY,
    5: Termination.FRONT_ROW_EMPTY,
}


@dataclass(frozen=True, slots=True)
class Move:
    """A move as a value: ``code`` is the kernel's integer, ``text`` its
    canonical notation in its variant. Two moves are equal when both are."""

    code: int
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``scores`` are the final scores (South, North) after any sweep of the
    seeds left on the board; ``winner`` is SOUTH, NORTH or None for a draw.
    """

    termination: Termination
    winner: int | None
    scores: tuple[int, int]

    @classmethod
    def from_scores(cls, termination: Termination, scores: tuple[int, int]) -> Outcome:
        south, north = scores
        winner = SOUTH if south > north else NORTH if north > south else None
        return cls(termination, winner, (south, north))

    def result(self) -> str:
        """The result in record notation: ``1-0`` (South won), ``0-1``, ``1/2-1/2``."""
        return {SOUTH: "1-0", NORTH: "0-1", None: "1/2-1/2"}[self.winner]

    def margin(self, side: int) -> int:
        """Final score difference from ``side``'s point of view."""
        return self.scores[side] - self.scores[1 - side]
