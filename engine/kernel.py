"""The rule kernel: the few functions on a state that every variant provides,
and the switch between compiled and pure-Python kernels.

A *state* is an immutable, hashable tuple whose shape each variant defines.
A kernel maps states to states; it never validates a move (the Position
does) and it holds the variant's options (grand-slam rule, pit count...).

The compiled kernels (``bingwa.engine._*``) and the pure ones implement the
same methods and are tested against each other. ``BINGWA_PURE=1`` selects
the pure kernels; ``BINGWA_REQUIRE_EXTENSIONS=1`` makes a missing compiled
module an error instead of a silent fallback.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from .errors import ExtensionMissingError

MASK64 = (1 << 64) - 1
KEY_SEED = 0xCBF29CE484222325
KEY_MUL = 0x9E3779B97F4A7C15


def mix_key(values: Any) -> int:
    """64-bit key of a sequence of small integers (bytes): read 8 at a time
    as little-endian words (the last one zero-padded), each mixed in with a
    multiply and a shift, then the splitmix64 finaliser. The compiled
    kernels compute the same (core.pxd)."""
    data = bytes(v & 0xFF for v in values)
    h = KEY_SEED
    for i in range(0, len(data), 8):
        h = ((h ^ int.from_bytes(data[i:i + 8], "little")) * KEY_MUL) & MASK64
        h ^= h >> 29
    h ^= h >> 30
    h = (h * 0xBF58476D1CE4E5B9) & MASK64
    h ^= h >> 27
    h = (h * 0x94D049BB133111EB) & MASK64
    h ^= h >> 31
    return h


class PureKernel:
    """Base of the pure-Python kernels: perft and key on top of the rules."""

    def legal_moves(self, state: Any) -> list[int]:
        raise NotImplementedError

    def play(self, state: Any, move: int) -> Any:
        raise NotImplementedError

    def result(self, state: Any) -> tuple[int, int, int]:
        """(termination code, final South score, final North score); code 0
        while the game goes on (the scores are then the current ones)."""
        raise NotImplementedError

    def key_values(self, state: Any) -> Any:
        raise NotImplementedError

    def key(self, state: Any) -> int:
        return mix_key(self.key_values(state))

    def perft(self, state: Any, depth: int) -> int:
        """Move sequences of exactly ``depth`` plies (rules.md, Oware rule 8)."""
        if depth == 0:
            return 1
        if self.result(state)[0]:
            return 0
        moves = self.legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.play(state, m), depth - 1) for m in moves)


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")


def use_compiled() -> bool:
    return not env_flag("BINGWA_PURE")


def compiled_module(name: str) -> Any | None:
    """The compiled module ``bingwa.engine._<name>``, or None where it is not
    built (an error under BINGWA_REQUIRE_EXTENSIONS=1)."""
    try:
        return importlib.import_module(f"bingwa.engine._{name}")
    except ImportError as exc:
        if env_flag("BINGWA_REQUIRE_EXTENSIONS"):
            raise ExtensionMissingError(
                f"compiled module bingwa.engine._{name} is missing: {exc}"
            ) from exc
        return None
