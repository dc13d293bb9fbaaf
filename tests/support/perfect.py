"""The ``perfect`` bot over a database folder as a play-out player (the
Oware database tests' claimant)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from bingwa.bots import find_bot
from bingwa.engine import Position
from bingwa.engine.limits import Limits


def perfect(folder) -> Callable[[Position], str]:
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(folder))

    def play(position: Position) -> str:
        best = bot.go(position, Limits(depth=4), lambda info: None, threading.Event()).best
        assert best is not None
        return best

    return play
