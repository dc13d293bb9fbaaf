"""Every bot found by name: bingwa.bots' own and the external bot
(protocol/external.py), which bingwa.bots cannot name: it drives another
engine through this package's client, and bots sit below the protocol.

The command line (``bingwa bots``, ``play -b``, ``engine --bot``), the
tournament and the web look bot names up here.
"""

from __future__ import annotations

from bingwa import bots
from bingwa.bots import Bot

EXTERNAL = "bingwa.protocol.external:ExternalBot"

# name -> "module:Class" as in bingwa.bots.BOTS; external comes after mcts,
# where ``bingwa bots`` has always listed it
_ENGINE_NAMES = list(bots.BOTS)
_AFTER = _ENGINE_NAMES.index("mcts") + 1
BOTS: dict[str, str] = {
    **{name: bots.BOTS[name] for name in _ENGINE_NAMES[:_AFTER]},
    "external": EXTERNAL,
    **{name: bots.BOTS[name] for name in _ENGINE_NAMES[_AFTER:]},
}


def bot_names() -> list[str]:
    return list(BOTS)


def find_bot(name: str) -> type[Bot]:
    """The bot class registered as ``name`` (ValueError if unknown)."""
    return bots.find_bot(name, BOTS)


__all__ = ["BOTS", "EXTERNAL", "bot_names", "find_bot"]
