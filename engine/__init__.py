"""bingwa.engine: the rules of every variant, notation, hashing and perft.

    >>> from bingwa.engine import Position
    >>> pos = Position("oware")
    >>> pos.push("c")
    Move(code=2, text='c')
"""

from .errors import (
    AmbiguousMoveError,
    BingwaError,
    ExtensionMissingError,
    IllegalMoveError,
    MoveError,
    PositionError,
    VariantError,
)
from .game import NORTH, SIDE_NAMES, SOUTH, Move, Outcome, Termination
from .position import Position
from .variant import Variant, find_variant, register, variant_names

# Importing the variant modules registers them.
from . import oware, ayoayo, kalah, bao  # noqa: E402,F401  isort: skip

__all__ = [
    "AmbiguousMoveError",
    "BingwaError",
    "ExtensionMissingError",
    "IllegalMoveError",
    "Move",
    "MoveError",
    "NORTH",
    "Outcome",
    "Position",
    "PositionError",
    "SIDE_NAMES",
    "SOUTH",
    "Termination",
    "Variant",
    "VariantError",
    "find_variant",
    "register",
    "variant_names",
]
