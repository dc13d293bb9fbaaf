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
    """Both rows as people see them from South: North's row right to left."""
    pits, scores, turn = state

    def cell(i: int) -> str:
        mark = "*" if i == last_move else " "
        return f"{pits[i]:>3}{mark}"

    north = [m + k for k in range(m)][::-1]
    south = list(range(m))
    top = "      " + "".join(f"  {pit_letter(i, m)} " for i in north)
    row_n = "      " + "".join(cell(i) for i in north)
    row_s = "      " + "".join(cell(i) for i in south)
    bottom = "      " + "".join(f"  {pit_letter(i, m)} " for i in south)
    mover = ("South", "North")[turn]
    return "\n".join(
        [
            top,
            f"N {scores[1]:>3} " + row_n[6:],
            f"S {scores[0]:>3} " + row_s[6:],
            bottom,
            f"{store_word}: South {scores[0]}, North {scores[1]}; {mover} to move",
        ]
    )
