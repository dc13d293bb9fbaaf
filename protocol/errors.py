"""The failures of an engine, as the client tells them apart.

Each names the command that triggered it and the last lines exchanged,
and maps to the way a referee ends the game (``termination``). The
tournament's referee raises and reports these same types: one hierarchy
for every engine failure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from bingwa.engine import Termination


class EngineError(Exception):
    """Base of the failures of an engine. ``command`` is the last command
    sent, ``transcript`` the last lines exchanged (``> sent``, ``< read``)."""

    termination: ClassVar[Termination] = Termination.CRASH

    def __init__(self, message: str, *, command: str | None = None,
                 transcript: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.command = command
        self.transcript = list(transcript)

    def describe(self) -> str:
        """The message, the command that triggered it and the last lines."""
        parts = [str(self)]
        if self.command:
            parts.append(f"after: {self.command}")
        if self.transcript:
            parts.append("last lines:\n  " + "\n  ".join(self.transcript[-12:]))
        return "\n".join(parts)


class EngineStartError(EngineError):
    """The engine command cannot be started."""


class EngineCrash(EngineError):
    """The engine process is gone."""

    def __init__(self, message: str, *, returncode: int | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.returncode = returncode


class EngineStall(EngineError):
    """No ``uciok`` or ``readyok`` in time: the engine hangs."""

    termination = Termination.STALL


class EngineTimeout(EngineError):
    """No ``bestmove`` in time: a loss on time."""

    termination = Termination.TIME_FORFEIT


class EngineMoveError(EngineError):
    """The engine's ``bestmove`` cannot be played."""

    termination = Termination.ILLEGAL_MOVE


class EngineIllegalMove(EngineMoveError):
    """A move of the variant that the rules forbid here (or no move while
    the game goes on, or a move after its end)."""


class EngineUnparsableMove(EngineMoveError):
    """A ``bestmove`` that names no move of the variant at all."""


class EngineVariantError(EngineError):
    """The engine cannot play the variant asked for: it offers no
    ``UCI_Variant`` option, or its dialect cannot write the variant.
    Engine.set_variant says so with a ValueError; a referee raises this
    for it, and the game is abandoned rather than lost over the board."""

    termination = Termination.ABANDONED
