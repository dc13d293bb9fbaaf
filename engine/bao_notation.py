"""Bao notation: pit names, move values and text, position strings, the
board picture (../shared/rules-bao.md sections 1.2, 10 and 11, version bao-1).

Layout shared with the rules (bao.py) and the compiled kernel (_bao.pyx):

- A pit is ``16 * side + k``; ``k`` is its place on its owner's ring going
  clockwise (rule 1.5): ``k = 0..7`` is the front pit ``i = k + 1``
  (``A1..A8``), ``k = 8..15`` is the back pit ``j = 16 - k`` (``B8..B1``).
  So clockwise is ``k + 1`` and anticlockwise ``k - 1`` (mod 16), and front
  pit ``k`` faces the opponent's front pit ``7 - k`` (rule 1.3).
- A state is the tuple ``(pits, hands, turn, houses, block)``: ``pits`` the
  32 counts, ``hands`` the seeds in hand (South, North), ``turn`` 0 for
  South and 1 for North, ``houses`` (South owns his nyumba, North owns his)
  as 0/1, ``block`` the pit blocked by takasia (rule 6.4) or -1.
- A move code packs the value ``(pit, sign, safari)`` of rule 10.1:
  bits 0-3 the ring place ``k`` of the mover's pit, bit 4 set for the sign
  ``>``, bit 5 set for the safari ``+``. The mover is the side to move.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import IllegalMoveError, MoveError, PositionError

RING = 16
NYUMBA = 4  # ring place of pit 5 (rule 1.4)
TOTAL_SEEDS = 64
NO_BLOCK = -1
SIGN_RIGHT = 16  # move bit: the sign is '>'
SAFARI = 32  # move bit: '+'
SIDE_WORDS = ("South", "North")

# Position-string rows (rule 11), top to bottom, as absolute pit indices:
# North's back row b8..b1, North's front row a8..a1, South's front row
# A1..A8, South's back row B1..B8.
ROW_PITS: tuple[tuple[int, ...], ...] = (
    tuple(16 + 16 - j for j in range(8, 0, -1)),
    tuple(16 + i - 1 for i in range(8, 0, -1)),
    tuple(i - 1 for i in range(1, 9)),
    tuple(16 - j for j in range(1, 9)),
)
ROW_NAMES = ("North's back row (b8..b1)", "North's front row (a8..a1)",
             "South's front row (A1..A8)", "South's back row (B1..B8)")


# -- pits and moves --------------------------------------------------------
def pit_name(pit: int) -> str:
    """``A1``.. for an absolute pit index (0..31)."""
    side, k = divmod(pit, RING)
    if k < 8:
        return ("A", "a")[side] + str(k + 1)
    return ("B", "b")[side] + str(RING - k)


def parse_pit(text: str) -> int:
    """The absolute index of a pit name such as ``a6`` (PositionError)."""
    if len(text) != 2 or text[0] not in "ABab" or text[1] not in "12345678":
        raise PositionError(f"{text!r} is not a pit name (A1..A8, B1..B8, a1..a8, b1..b8)")
    side = 0 if text[0].isupper() else 1
    number = int(text[1])
    k = number - 1 if text[0] in "Aa" else RING - number
    return RING * side + k


def encode_move(k: int, right: bool, safari: bool = False) -> int:
    return k | (SIGN_RIGHT if right else 0) | (SAFARI if safari else 0)


def decode_move(code: int) -> tuple[int, bool, bool]:
    """(ring place, sign is '>', safari) of a move code."""
    return code & 15, bool(code & SIGN_RIGHT), bool(code & SAFARI)


def format_move(code: int, mover: int) -> str:
    """Canonical text (rule 10.2): ``A6<``, ``a5>``, ``A3>+``, ``B1<``."""
    k, right, safari = decode_move(code)
    return pit_name(RING * mover + k) + (">" if right else "<") + ("+" if safari else "")


MOVE_PATTERN = re.compile(
    r"(?P<row>[ABab])?(?P<number>[1-8])(?P<sign>[<>])?(?P<safari>\+)?(?P<mark>\*\*|\*|#)?"
)


def split_move(text: str, mover: int, namua: bool) -> tuple[int, bool | None, bool, str]:
    """Read a move text leniently (rules 10.2-10.4): the ring place, the sign
    (None when left out), the safari flag and the record mark (``*``,
    ``**``, ``#`` or ``''``). Raises MoveError, or IllegalMoveError for a
    pit of the side not to move."""
    match = MOVE_PATTERN.fullmatch(text)
    if match is None:
        raise MoveError(
            f"{text!r} is not a Bao move (a pit and a sign, for example A6<, a5> or A3>+)"
        )
    row = match["row"]
    number = int(match["number"])
    if row is None:
        if not namua:
            raise MoveError(
                f"{text}: the row letter may be left out only in a namua move (rule 10.4)"
            )
        row = "Aa"[mover]
    side = 0 if row.isupper() else 1
    if side != mover:
        raise IllegalMoveError(
            f"{text}: {row}{number} is {SIDE_WORDS[side]}'s pit and {SIDE_WORDS[mover]} is to move"
        )
    k = number - 1 if row in "Aa" else RING - number
    sign = None if match["sign"] is None else match["sign"] == ">"
    return k, sign, match["safari"] is not None, match["mark"] or ""


# -- position strings (section 11) -----------------------------------------
def _count(word: str, what: str) -> int:
    if word.startswith("-") and word[1:].isdigit():
        raise PositionError(f"{what} is negative: {word}")
    if not (word.isascii() and word.isdigit()):
        raise PositionError(f"{what} is not a number: {word!r}")
    return int(word)


def format_position(state: Any, variant_word: str) -> str:
    pits, hands, turn, houses, block = state
    rows = "/".join(",".join(str(pits[p]) for p in row) for row in ROW_PITS)
    stage = "namua" if hands[turn] else "mtaji"
    owned = ("A" if houses[0] else "") + ("a" if houses[1] else "")
    return (
        f"{variant_word} {rows} {'SN'[turn]} {hands[0]}-{hands[1]} {stage} "
        f"{owned or '-'} {pit_name(block) if block != NO_BLOCK else '-'}"
    )


def parse_position(text: str, variant_word: str) -> Any:
    """The state written ``text`` for the variant named ``variant_word``
    (``kiswahili`` or ``kujifunza``); PositionError names the first field or
    validity rule (rule 11) that fails."""
    words = text.split()
    if len(words) != 7:
        raise PositionError(
            f"a Bao position has 7 fields (variant, rows, side, hands, stage, houses, "
            f"block), got {len(words)}: {text!r}"
        )
    word, rows_text, side_text, hands_text, stage, houses_text, block_text = words
    if word not in ("kiswahili", "kujifunza"):
        raise PositionError(f"the variant field must be kiswahili or kujifunza, not {word!r}")
    if word != variant_word:
        raise PositionError(f"this is a {word} position, not a {variant_word} one")

    rows = rows_text.split("/")
    if len(rows) != 4:
        raise PositionError(f"the board must be four rows separated by '/', got {len(rows)}")
    pits = [0] * 32
    for row_text, row_pits, row_name in zip(rows, ROW_PITS, ROW_NAMES):
        counts = row_text.split(",")
        if len(counts) != 8:
            raise PositionError(f"{row_name} has {len(counts)} pits, not 8")
        for pit, count in zip(row_pits, counts):
            pits[pit] = _count(count, f"the count of {pit_name(pit)}")

    if side_text not in ("S", "N"):
        raise PositionError(f"the side to move must be S or N, not {side_text!r}")
    turn = "SN".index(side_text)

    south, dash, north = hands_text.partition("-")
    if not dash:
        raise PositionError(f"the hands must be written South-North, e.g. 22-22, not {hands_text!r}")
    hands = (_count(south, "South's hand"), _count(north, "North's hand"))

    if stage not in ("namua", "mtaji"):
        raise PositionError(f"the stage must be namua or mtaji, not {stage!r}")
    if (stage == "namua") != bool(hands[turn]):
        raise PositionError(
            f"the stage {stage} disagrees with the hands: {SIDE_WORDS[turn]} to move has "
            f"{hands[turn]} seeds in hand"
        )

    if houses_text not in ("Aa", "A", "a", "-"):
        raise PositionError(f"the houses must be Aa, A, a or -, not {houses_text!r}")
    houses = (int("A" in houses_text), int("a" in houses_text))

    block = NO_BLOCK if block_text == "-" else parse_pit(block_text)

    total = sum(pits) + sum(hands)
    if total != TOTAL_SEEDS:
        raise PositionError(f"pits and hands hold {total} seeds, not {TOTAL_SEEDS}")
    for side in (0, 1):
        if houses[side] and not pits[RING * side + NYUMBA]:
            raise PositionError(
                f"{SIDE_WORDS[side]} owns his nyumba {pit_name(RING * side + NYUMBA)} "
                f"but it is empty"
            )
    waiting = 1 - turn
    if not any(pits[RING * waiting + k] for k in range(8)):
        raise PositionError(
            f"{SIDE_WORDS[waiting]} is not to move and his front row is empty "
            f"(the game ended before it was his turn)"
        )
    if word == "kujifunza":
        if hands != (0, 0):
            raise PositionError("a kujifunza position has no seeds in hand (hands 0-0)")
        if any(houses):
            raise PositionError("a kujifunza position has no nyumba (houses -)")
        if block != NO_BLOCK:
            raise PositionError("a kujifunza position has no takasia block (block -)")
    if block != NO_BLOCK:
        if hands != (0, 0):
            raise PositionError("a takasia block needs both hands empty (hands 0-0)")
        side, k = divmod(block, RING)
        if side != turn or k >= 8:
            raise PositionError(
                f"the blocked pit {block_text} must be in the front row of "
                f"{SIDE_WORDS[turn]}, who is to move"
            )
        if pits[block] < 2:
            raise PositionError(
                f"the blocked pit {block_text} holds {pits[block]} seeds; a block needs 2 or more"
            )
    return (tuple(pits), hands, turn, houses, block)


# -- the picture -----------------------------------------------------------
def draw(state: Any, variant_word: str, last_move: int | None = None,
         last_mover: int | None = None) -> str:
    """Four rows as South sees the board, North's rows on top. The nyumba
    is shown in brackets while owned, the blocked pit with ``!``, the pit
    the last move started from with ``*``."""
    pits, hands, turn, houses, block = state
    started = None
    if last_move is not None and last_mover is not None:
        started = RING * last_mover + (last_move & 15)

    def cell(pit: int) -> str:
        side, k = divmod(pit, RING)
        text = str(pits[pit])
        if k == NYUMBA and houses[side]:
            text = f"[{text}]"
        mark = "!" if pit == block else "*" if pit == started else " "
        return f"{text:>5}{mark}"

    def labels(row: tuple[int, ...]) -> str:
        return "".join(f"{pit_name(p):>5} " for p in row)

    lines = ["   " + labels(ROW_PITS[0]).rstrip()]
    hand_of = {0: f"North hand {hands[1]}", 3: f"South hand {hands[0]}"}
    for r, row in enumerate(ROW_PITS):
        tail = f"   {hand_of[r]}" if r in hand_of else ""
        lines.append(f"{'baAB'[r]}  " + "".join(cell(p) for p in row).rstrip() + tail)
        if r == 1:
            lines.append("   " + "-" * 48)
    lines.append("   " + labels(ROW_PITS[3]).rstrip())
    stage = "namua" if hands[turn] else "mtaji"
    lines.append(f"{variant_word}, {SIDE_WORDS[turn]} to move ({stage})"
                 + (f", {pit_name(block)} blocked by takasia" if block != NO_BLOCK else ""))
    return "\n".join(lines)
