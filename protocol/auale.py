"""The Aualé dialect: how Aualé, the Oware GUI, talks to its engine Aalina.

Aualé drives an engine over UCI with its own words for Oware Abapa (what
bingwa calls ``oware`` with the default grand-slam rule, ``nocapture``):

- a position is a diagram of 15 fields joined by ``-``: South's six pits
  left to right (as South sees them), North's six pits (as North sees
  them, so counter-clockwise order continues), South's captured seeds,
  North's, and the side to move ``S`` or ``N``; the seeds add up to 48.
  The start is ``4-4-4-4-4-4-4-4-4-4-4-4-0-0-S``. Aualé sends
  ``position startpos`` or ``position fen <diagram>``, starting from the
  last capture, followed by the moves since;
- a move is the letter of the pit it empties: South ``A``..``F``, North
  ``a``..``f`` (bingwa's case, swapped); the moves of a game are one word
  (``moves FfBe``), and so is a principal variation (``pv FfBe``);
- ``wtime``/``winc`` are South's clock (as in bingwa: white = p1 = South);
- a finished game gets ``bestmove 0000``;
- a proven result is reported as ``score cp 2500`` (or ``-2500``): Aualé
  does not read ``score mate``;
- options the engine does not have (Aalina's ``UseLeaves``,
  ``EngineTurn`` ...) are accepted without effect, with a note; ``OwnBook``,
  which Aualé sends, silently. One that the running search does not use
  is applied at once during a ``go ponder`` (Aualé does not wait for it);
- a principal variation is cut to its first MAX_PV_PLIES moves: Aualé
  shows it as one word on its board.

Aualé itself sends ``uci``, ``ucinewgame``, ``isready``, ``position``,
``go depth D movetime T``, ``go ponder``, ``stop`` and ``quit``, and waits
for ``bestmove`` without pinging during a search.
"""

from __future__ import annotations

from bingwa.engine import Position
from bingwa.engine.errors import MoveError, PositionError, VariantError
from bingwa.engine.limits import Info
from bingwa.engine.variant import Variant

from .dialect import Dialect

PROVEN_CP = 2500
MAX_PV_PLIES = 10  # letters of a principal variation Aualé shows
SOUTH_LETTERS = "ABCDEF"
NORTH_LETTERS = "abcdef"
SEEDS = 48
START_DIAGRAM = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"


def letter_to_text(letter: str) -> str:
    """bingwa's move text of an Aualé pit letter (MoveError if none)."""
    if len(letter) == 1 and (letter in SOUTH_LETTERS or letter in NORTH_LETTERS):
        return letter.swapcase()
    raise MoveError(
        f"{letter!r} is not an Aualé move (South A-F, North a-f, moves written as one word)"
    )


def text_to_letter(text: str) -> str:
    """The Aualé letter of bingwa's move text (a-f South, A-F North)."""
    if len(text) == 1 and (text in SOUTH_LETTERS or text in NORTH_LETTERS):
        return text.swapcase()
    raise MoveError(f"{text!r} has no Aualé letter")


def parse_diagram(text: str) -> str:
    """bingwa's position string of an Aualé diagram (PositionError naming
    what is wrong)."""
    fields = text.strip().split("-")
    if len(fields) != 15:
        raise PositionError(
            f"an Aualé position has 15 fields joined by '-' (12 pits, 2 scores, S or N), "
            f"got {len(fields)}: {text!r}"
        )
    counts = []
    for n, field in enumerate(fields[:14]):
        if not field.isascii() or not field.isdigit():
            what = f"pit {n + 1}" if n < 12 else ("South's score", "North's score")[n - 12]
            raise PositionError(f"{what} is not a number: {field!r}")
        counts.append(int(field))
    side = fields[14]
    if side not in ("S", "N"):
        raise PositionError(f"the side to move must be S or N, not {side!r}")
    if sum(counts) != SEEDS:
        raise PositionError(f"the seeds add up to {sum(counts)}, not {SEEDS}")
    south = ",".join(map(str, counts[:6]))
    north = ",".join(map(str, counts[6:12]))
    return f"{south}/{north} {counts[12]} {counts[13]} {side.lower()}"


def format_diagram(state: tuple) -> str:
    """The Aualé diagram of an Oware state ``(pits, scores, turn)``."""
    pits, scores, turn = state
    return "-".join([*map(str, pits), str(scores[0]), str(scores[1]), "SN"[turn]])


class AualeDialect(Dialect):
    name = "auale"
    none_move = "0000"
    fixed_variant = "oware"
    unknown_options_are_errors = False
    silent_options = frozenset({"ownbook"})
    setoption_during_ponder = True

    def check_variant(self, variant: Variant) -> None:
        if variant.name != "oware" or variant.options.get("grandslam") != "nocapture":
            raise VariantError(
                f"the Aualé dialect speaks Oware Abapa only (oware), not {variant.spec()}"
            )

    def position_from_wire(self, variant: Variant, text: str) -> Position:
        self.check_variant(variant)
        return Position(variant, text=parse_diagram(text))

    def position_to_wire(self, position: Position, root: bool = True) -> str:
        return format_diagram(position.root if root else position.state)

    def moves_from_wire(self, words: list[str] | tuple[str, ...]) -> list[str]:
        return [letter_to_text(letter) for word in words for letter in word]

    def move_to_wire(self, text: str) -> str:
        return text_to_letter(text)

    def moves_to_wire(self, texts: list[str]) -> list[str]:
        return ["".join(text_to_letter(t) for t in texts)] if texts else []

    def pv_to_wire(self, texts: list[str]) -> list[str]:
        return self.moves_to_wire(texts[:MAX_PV_PLIES])

    def score_to_wire(self, info: Info) -> tuple[str, int] | None:
        if info.score_mate is None:  # a proven draw is plain cp 0 too: no extension words
            return ("cp", 0) if info.score_draw is not None else None
        return ("cp", PROVEN_CP if int(info.score_mate) > 0 else -PROVEN_CP)


AUALE = AualeDialect()
