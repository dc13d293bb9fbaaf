"""How moves, positions and scores are written on the wire.

bingwa's own dialect (``uci``) writes them in bingwa's notation
(docs/notation.md): a move is one word, a position is its position string,
a game with no legal move gets ``bestmove (none)``. Other dialects
(auale.py) translate; the server and the client hold one Dialect and never
look at the notation themselves. ``dialects.py`` finds a dialect by name.
"""

from __future__ import annotations

from bingwa.engine import BingwaError, Position
from bingwa.engine.limits import Info
from bingwa.engine.variant import Variant


class Dialect:
    """bingwa's own words: the identity translation."""

    name = "uci"
    none_move = "(none)"
    # the only variant the dialect can speak of, or None for all of them
    fixed_variant: str | None = None
    # options the server does not know are errors (Aualé: a note)
    unknown_options_are_errors = True
    # unknown options accepted without a word (normalised names)
    silent_options: frozenset[str] = frozenset()
    # a setoption the running search does not use is applied at once during
    # a ponder search instead of waiting for it (Aualé expects it)
    setoption_during_ponder = False

    def check_variant(self, variant: Variant) -> None:
        """Raise VariantError when the dialect cannot write ``variant``."""

    def position_from_wire(self, variant: Variant, text: str) -> Position:
        """The position written ``text`` (raises PositionError)."""
        return Position(variant, text=text)

    def position_to_wire(self, position: Position, root: bool = True) -> str:
        """The position string of ``position``'s root (or of itself)."""
        state = position.root if root else position.state
        return position.variant.format_position(state)

    def moves_from_wire(self, words: list[str] | tuple[str, ...]) -> list[str]:
        """bingwa move texts of the wire's words (raises MoveError)."""
        return list(words)

    def move_to_wire(self, text: str) -> str:
        return text

    def moves_to_wire(self, texts: list[str]) -> list[str]:
        """The words of a sequence of moves (``position ... moves``, ``pv``)."""
        return [self.move_to_wire(t) for t in texts]

    def pv_to_wire(self, texts: list[str]) -> list[str]:
        """The words of a principal variation in an ``info`` line."""
        return self.moves_to_wire(texts)

    def best_to_wire(self, text: str | None) -> str:
        return self.none_move if text is None else self.move_to_wire(text)

    def best_from_wire(self, word: str) -> str | None:
        """The bingwa move text of a ``bestmove`` word; None for no move."""
        if word in ("(none)", "0000"):
            return None
        moves = self.moves_from_wire([word])
        return moves[0] if len(moves) == 1 else word

    def score_to_wire(self, info: Info) -> tuple[str, int] | None:
        """The score words of ``info`` as (``cp``|``mate``, value), or None
        to write the Info's own."""
        return None


UCI = Dialect()


def reworded(error: BingwaError, text: str, dialect: Dialect) -> str:
    """The message of a move error, naming the move as the GUI wrote it."""
    message = str(error)
    if dialect is UCI or not message.startswith(f"{text}: "):
        return message
    try:
        wire = dialect.move_to_wire(text)
    except BingwaError:
        return message
    return f"{wire}: {message[len(text) + 2:]}"
