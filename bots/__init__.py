"""bingwa.bots: the bots that play with the engine alone, found by name.

The external bot (another engine behind the protocol's client) sits above,
in protocol/external.py; bingwa.protocol.bots finds every bot, this one's
and that one, by name (``bingwa play -b``, ``bingwa engine --bot``,
tournaments).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from .base import Bot, BotOption, BotOptionError

# name -> "module:Class", imported on demand (start-up stays light)
BOTS: dict[str, str] = {
    "random": "bingwa.bots.simple:RandomBot",
    "greedy": "bingwa.bots.simple:GreedyBot",
    "mcts": "bingwa.bots.mcts:MCTSBot",
    "minimax": "bingwa.bots.minimax:MinimaxBot",
    "alphabeta": "bingwa.bots.alphabeta:AlphaBetaBot",
    "perfect": "bingwa.bots.perfect:PerfectBot",
    "proof": "bingwa.bots.proof:ProofBot",
}


def bot_names() -> list[str]:
    return list(BOTS)


def find_bot(name: str, registry: Mapping[str, str] = BOTS) -> type[Bot]:
    """The bot class registered as ``name`` in ``registry`` (ValueError if
    unknown)."""
    try:
        target = registry[name.lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(registry)})") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


__all__ = ["BOTS", "Bot", "BotOption", "BotOptionError", "bot_names", "find_bot"]
