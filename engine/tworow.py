"""Notation shared by the two-row games (Oware, Ayoayo, Kalah).

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

from typing import Any

from .errors import MoveError, PositionError

SIDE_LETTERS = {"s": 0, "n": 1}


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
