"""Exceptions raised by the rules layer.

Every error names what is wrong in its message, so that a boundary (the
protocol, the command line) can print ``str(error)`` as its one line.
"""


class BingwaError(Exception):
    """Base class of every error bingwa raises on purpose."""


class VariantError(BingwaError, ValueError):
    """An unknown variant name, option name or option value."""


class PositionError(BingwaError, ValueError):
    """A position string that cannot describe a valid position."""


class MoveError(BingwaError, ValueError):
    """A move text that does not name a move of this variant at all."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(MoveError):
    """A short form (Bao's pit without its sign) that fits several legal
    moves: ``moves`` are their canonical texts."""

    def __init__(self, message: str, moves: list[str]) -> None:
        super().__init__(message)
        self.moves = moves


class ExtensionMissingError(BingwaError, ImportError):
    """A compiled module is missing while BINGWA_REQUIRE_EXTENSIONS=1."""
