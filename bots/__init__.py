"""bingwa.bots: every bot behind the protocol, found by name."""

from __future__ import annotations

import importlib

from .base import Bot, BotOption, BotOptionError

# name -> "module:Class", imported on demand (start-up stays light)
BOTS: dict[str, str] = {
    "random": "bingwa.bots.simple:RandomBot",
    "greedy": "bingwa.bots.simple:GreedyBot",
    "mcts": "bingwa.bots.mcts:MCTSBot",
    "external": "bingwa.bots.external:ExternalBot",
    "minimax": "bingwa.bots.minimax:MinimaxBot",
    "alphabeta": "bingwa.bots.alphabeta:AlphaBetaBot",
    "perfect": "bingwa.bots.perfect:PerfectBot",
    "proof": "bingwa.bots.proof:ProofBot",
}


def bot_names() -> list[str]:
    return list(BOTS)


def find_bot(name: str) -> type[Bot]:
    """The bot class registered as ``name`` (ValueError if unknown)."""
    try:
        target = BOTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)


__all__ = ["BOTS", "Bot", "BotOption", "BotOptionError", "bot_names", "find_bot"]
