"""What the referee plays through: a Player, one engine in one worker.

A Player starts a game, answers ``go`` for a position with a move text and
what the engine reported, and fails with one of the protocol's EngineError
types (bingwa.protocol.errors), each naming the termination it causes and
the protocol lines that led to it. ProcessPlayer (an engine process, over
bingwa.protocol.client) is what tournaments use; InProcessPlayer runs a bot
in this process, for the throughput benchmark's baseline and for quick
experiments.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits


@dataclass
class Reply:
    """What one ``go`` gave: the move as written, the last full ``info``,
    the thinking time measured by the controller (ms), and the commands
    that asked for it: the transcript of the failure when the referee
    rejects the reply (an overrun clock, an illegal move)."""

    move: str | None
    info: Info | None
    elapsed_ms: int
    transcript: list[str] = field(default_factory=list)


class Player(Protocol):
    name: str

    def new_game(self, variant: str) -> None:
        """Get ready for a new game of ``variant`` (restarting a dead engine)."""

    def go(self, position: Position, limits: Limits, deadline_ms: int | None) -> Reply:
        """The engine's move in ``position``; an EngineError when it fails."""

    def close(self) -> None:
        """Quit the engine (kill it when it does not go)."""


class InProcessPlayer:
    """A built-in bot called directly: no process, no protocol."""

    def __init__(self, name: str, bot: str, options: tuple[tuple[str, str], ...] = ()) -> None:
        from bingwa.protocol.bots import find_bot

        self.name = name
        self.bot = find_bot(bot)()
        for option, value in options:
            self.bot.set_option(option, value)
        self.stop = threading.Event()

    def new_game(self, variant: str) -> None:
        self.bot.new_game()

    def go(self, position: Position, limits: Limits, deadline_ms: int | None) -> Reply:
        reports: list[Info] = []
        start = time.perf_counter()
        result = self.bot.go(position.copy(), limits, reports.append, self.stop)
        elapsed = round((time.perf_counter() - start) * 1000)
        info = result.info or (reports[-1] if reports else None)
        return Reply(result.best, info, elapsed)

    def close(self) -> None:
        pass
