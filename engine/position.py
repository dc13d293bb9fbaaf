"""The one position interface every part of bingwa plays through.

A Position is a variant, a state and the game history that led to it (the
history decides repetition endings). It is mutable like python-chess's
Board: ``push``/``pop`` for GUIs (undo, replay), ``play`` for a new copy.
Turns never alternate by assumption: ``turn`` is read from the state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .errors import IllegalMoveError, MoveError
from .game import SIDE_NAMES, Move, Outcome, Termination
from .variant import Variant, find_variant


class Position:
    def __init__(
        self,
        variant: Variant | str = "oware",
        state: Any = None,
        *,
        text: str | None = None,
    ) -> None:
        self.variant = find_variant(variant) if isinstance(variant, str) else variant
        if text is not None:
            state = self.variant.parse_position(text)
        self.state = self.variant.initial_state() if state is None else state
        self.root = self.state
        self.move_stack: list[Move] = []
        self._states: list[Any] = [self.state]
        self._seen: Counter[Any] = Counter([self.state])
        self._legal: list[Move] | None = None

    @classmethod
    def from_text(cls, variant: Variant | str, text: str) -> Position:
        """The position written ``text`` (raises PositionError)."""
        return cls(variant, text=text)

    # -- the state -------------------------------------------------------
    @property
    def turn(self) -> int:
        """SOUTH (0) or NORTH (1): the side to move."""
        return self.variant.side_to_move(self.state)

    @property
    def turn_name(self) -> str:
        return SIDE_NAMES[self.turn]

    @property
    def key(self) -> int:
        """64-bit key: equal positions have equal keys."""
        return self.variant.kernel.key(self.state)

    def text(self) -> str:
        """The position string (docs/notation.md); round-trips through from_text."""
        return self.variant.format_position(self.state)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Position({self.variant.spec()!r}, text={self.text()!r})"

    def draw(self) -> str:
        last = self.move_stack[-1].code if self.move_stack else None
        return self.variant.draw(self.state, last)

    def history_keys(self) -> list[int]:
        """Keys of the positions of this game before the current one, oldest
        first (what a search needs to see repetitions)."""
        kernel = self.variant.kernel
        return [kernel.key(s) for s in self._states[:-1]]

    def history(self) -> list[Any]:
        """The states of this game before the current one, oldest first."""
        return self._states[:-1]

    # -- moves -----------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            if self.is_over():
                self._legal = []
            else:
                fmt = self.variant.format_move
                self._legal = [
                    Move(code, fmt(code, self.state))
                    for code in self.variant.kernel.legal_moves(self.state)
                ]
        return list(self._legal)

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``: MoveError when it is not a move
        of this variant at all, IllegalMoveError when the rules forbid it."""
        text = text.strip()
        if self.is_over():
            raise IllegalMoveError(f"{text}: the game is over")
        code = self.variant.parse_move(text, self.state)
        for move in self.legal_moves():
            if move.code == code:
                return move
        reason = self.variant.illegal_reason(self.state, code)
        raise IllegalMoveError(f"{text}: {reason}")

    def _as_move(self, move: Move | str) -> Move:
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, Move):
            if move not in self.legal_moves():
                raise IllegalMoveError(f"{move.text}: not a legal move in this position")
            return move
        raise MoveError(f"not a move: {move!r}")

    def push(self, move: Move | str) -> Move:
        """Play a legal move in place; returns it as a Move."""
        move = self._as_move(move)
        self.state = self.variant.kernel.play(self.state, move.code)
        self.move_stack.append(move)
        self._states.append(self.state)
        self._seen[self.state] += 1
        self._legal = None
        return move

    def push_all(self, moves: Iterable[Move | str]) -> None:
        for move in moves:
            self.push(move)

    def pop(self) -> Move:
        """Take back the last move (IndexError when there is none)."""
        move = self.move_stack.pop()
        last = self._states.pop()
        self._seen[last] -= 1
        if not self._seen[last]:
            del self._seen[last]
        self.state = self._states[-1]
        self._legal = None
        return move

    def play(self, move: Move | str) -> Position:
        """A copy with ``move`` played; this position is unchanged."""
        child = self.copy()
        child.push(move)
        return child

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.variant = self.variant
        other.state = self.state
        other.root = self.root
        other.move_stack = list(self.move_stack)
        other._states = list(self._states)
        other._seen = Counter(self._seen)
        other._legal = self._legal
        return other

    # -- the end ---------------------------------------------------------
    def is_repetition(self) -> bool:
        return self.variant.repetition_ends_game and self._seen[self.state] > 1

    def is_over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        code, south, north = self.variant.kernel.result(self.state)
        if code:
            return Outcome.from_scores(self.variant.termination_of(code), (south, north))
        if self.is_repetition():
            scores = self.variant.repetition_scores(self.state)
            return Outcome.from_scores(Termination.REPETITION, scores)
        return None

    def scores(self) -> tuple[int, int]:
        """Current scores (captured seeds, or stores), South then North."""
        _, south, north = self.variant.kernel.result(self.state)
        return south, north

    def perft(self, depth: int) -> int:
        return self.variant.kernel.perft(self.state, depth)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.variant == other.variant
            and self.state == other.state
        )

    def __hash__(self) -> int:
        return hash((self.variant.spec(), self.state))
