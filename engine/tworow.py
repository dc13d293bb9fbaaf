"""The two-row family (Oware, Ayoayo, Kalah): the board, its notation and
the variant class they share (``TwoRowVariant``).

Pits: index 0..m-1 are South's ``a``.. (left to right as South sees them),
m..2m-1 are North's ``A``.. (left to right as North sees them). A move is
the letter of the pit it empties. A state is ``(pits, scores, turn)``:
``pits`` a tuple of 2m counts, ``scores`` the captured seeds (Kalah: the
stores) of (South, North), ``turn`` 0 for South, 1 for North.

Position string (docs/notation.md)::

    4,4,4,4,4,4/4,4,4,4,4,4 0 0 s
    South a..f / North A..F, South's score, North's score, side to move.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .errors import MoveError, PositionError
from .variant import Variant

SIDE_LETTERS = {"s": 0, "n": 1}

# the board of Oware and Ayoayo: 12 pits; more than HALF of its 48 seeds wins
PITS = 12
HALF = 24


def own_row(side: int) -> range:
    """The pits of ``side`` (0 South, 1 North) on a board of 6 pits a side."""
    return range(6 * side, 6 * side + 6)


def pit_letter(index: int, m: int) -> str:
    return chr(ord("a") + index) if index < m else chr(ord("A") + index - m)


def parse_pit_letter(text: str, m: int) -> int:
    if len(text) != 1 or not text.isalpha() or not text.isascii():
        raise MoveError(f"{text!r} is not a pit letter (South a-{pit_letter(m - 1, m)}, "
                        f"North A-{pit_letter(2 * m - 1, m)})")
    offset = ord(text.lower()) - ord("a")
    if offset >= m:
        raise MoveError(f"{text!r} is not a pit letter (South a-{pit_letter(m - 1, m)}, "
                        f"North A-{pit_letter(2 * m - 1, m)})")
    return offset if text.islower() else offset + m


def format_state(state: Any, m: int) -> str:
    pits, scores, turn = state
    south = ",".join(str(n) for n in pits[:m])
    north = ",".join(str(n) for n in pits[m:])
    return f"{south}/{north} {scores[0]} {scores[1]} {'sn'[turn]}"


def _count(word: str, what: str) -> int:
    if not word.isdigit() or not word.isascii():
        if word.startswith("-") and word[1:].isdigit():
            raise PositionError(f"{what} is negative: {word}")
        raise PositionError(f"{what} is not a number: {word!r}")
    return int(word)


def parse_state(text: str, m: int, total: int | None) -> Any:
    """Parse a position string for a board of ``m`` pits a side whose seeds
    (board plus scores) add up to ``total`` (None: any total)."""
    words = text.split()
    if len(words) != 4:
        raise PositionError(
            f"a position has 4 fields (pits, South score, North score, side), "
            f"got {len(words)}: {text!r}"
        )
    rows = words[0].split("/")
    if len(rows) != 2:
        raise PositionError(f"the pits must be two rows separated by '/': {words[0]!r}")
    pits: list[int] = []
    for row, name in zip(rows, ("South", "North")):
        counts = row.split(",")
        if len(counts) != m:
            raise PositionError(f"{name}'s row has {len(counts)} pits, not {m}")
        pits += [_count(c, f"a pit count of {name}'s row") for c in counts]
    scores = (_count(words[1], "South's score"), _count(words[2], "North's score"))
    side = words[3].lower()
    if side not in SIDE_LETTERS:
        raise PositionError(f"side to move must be s or n, not {words[3]!r}")
    found = sum(pits) + sum(scores)
    if total is not None and found != total:
        raise PositionError(f"the seeds add up to {found}, not {total}")
    return (tuple(pits), scores, SIDE_LETTERS[side])


def draw_board(state: Any, m: int, last_move: int | None, store_word: str) -> str:
    """Both rows as people see them from South: North's row right to left
    on top, each row's score on its left, the pit the last move emptied in
    brackets, then the scores and the side to move in words::

                     F    E    D    C    B    A
        North   0    4    4    4    4    4    5
        South   0    4    4  [ 0]   5    5    5
                     a    b    c    d    e    f
        Captured: South 0, North 0; North to move; last move c
    """
    pits, scores, turn = state
    width = max(2, len(str(max(pits))))

    def cell(i: int) -> str:
        return f" [{pits[i]:>{width}}]" if i == last_move else f"  {pits[i]:>{width}} "

    def labels(row: list[int]) -> str:
        return " " * 10 + "".join(" " * (width + 1) + pit_letter(i, m) + " " for i in row)

    north = list(range(2 * m - 1, m - 1, -1))
    south = list(range(m))
    summary = f"{store_word}: South {scores[0]}, North {scores[1]}; {('South', 'North')[turn]} to move"
    if last_move is not None:
        summary += f"; last move {pit_letter(last_move, m)}"
    return "\n".join(
        [
            labels(north).rstrip(),
            f"North {scores[1]:>3} " + "".join(cell(i) for i in north).rstrip(),
            f"South {scores[0]:>3} " + "".join(cell(i) for i in south).rstrip(),
            labels(south).rstrip(),
            summary,
        ]
    )


def own_rows_scores(state: Any) -> tuple[int, int]:
    """Each player adds the seeds of his own row (repetition; no move)."""
    pits, scores, _ = state
    m = len(pits) // 2
    return scores[0] + sum(pits[:m]), scores[1] + sum(pits[m:])


class TwoRowVariant(Variant):
    """Notation and facts shared by Oware, Ayoayo and Kalah."""

    store_word = "Captured"

    @property
    def pits_per_side(self) -> int:
        return 6

    def initial_state(self) -> Any:
        m = self.pits_per_side
        return ((self.seeds_per_pit(),) * (2 * m), (0, 0), 0)

    def seeds_per_pit(self) -> int:
        return 4

    def total_seeds(self) -> int:
        return 2 * self.pits_per_side * self.seeds_per_pit()

    def side_to_move(self, state: Any) -> int:
        return state[2]

    def seeds_on_board(self, state: Any) -> int:
        return sum(state[0])

    #: whether moves_left guesses from the seeds on the board (Kalah and
    #: Ayoayo, measured; Oware's games are long and vary too much)
    guesses_moves_left: ClassVar[bool] = False

    def moves_left(self, state: Any) -> int | None:
        """A quarter of the seeds on the board, plus 3: about the 75th
        percentile, at every seed count, of the moves a side still made
        before its search proved the game's result (after which a move
        takes milliseconds), in 400 games each of Kalah(6,4) and Ayoayo at
        --tc 5+0.05 (docs/strength.md, Time management)."""
        if not self.guesses_moves_left:
            return None
        return self.seeds_on_board(state) // 4 + 3

    def repetition_scores(self, state: Any) -> tuple[int, int]:
        return own_rows_scores(state)

    def parse_position(self, text: str) -> Any:
        return parse_state(text, self.pits_per_side, self.total_seeds())

    def format_position(self, state: Any) -> str:
        return format_state(state, self.pits_per_side)

    def parse_move(self, text: str, state: Any) -> int:
        return parse_pit_letter(text, self.pits_per_side)

    def format_move(self, code: int, state: Any) -> str:
        return pit_letter(code, self.pits_per_side)

    def draw(self, state: Any, last_move: int | None = None) -> str:
        return draw_board(state, self.pits_per_side, last_move, self.store_word)

    def illegal_reason(self, state: Any, code: int) -> str:
        pits, _, mover = state
        m = self.pits_per_side
        if code // m != mover:
            return f"not your pit ({('South', 'North')[mover]} to move)"
        if not pits[code]:
            return "that pit is empty"
        return self.rule_reason(state, code)

    def rule_reason(self, state: Any, code: int) -> str:
        return "not a legal move in this position"
