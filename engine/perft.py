"""perft: the number of move sequences of exactly d plies from a position
(rules.md, Oware rule 8; a game that ends earlier contributes nothing and
repetition is ignored). The kernels count; this module times and prints."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .position import Position

try:
    from .core import Kernel as CompiledKernel
    from .core import PerftStopped
except ImportError:  # a build without compiled rules
    CompiledKernel = None

    class PerftStopped(Exception):  # type: ignore[no-redef]
        """A perft whose ``poll`` asked it to stop (its count is incomplete)."""


# pure Python: subtrees this shallow are counted between two polls
PURE_POLL_DEPTH = 2


def count(kernel: Any, state: Any, depth: int, poll: Callable[[], bool] | None = None) -> int:
    """perft(depth) of ``state`` with either kind of kernel, polling
    ``poll()`` every few milliseconds: true raises PerftStopped (a long
    count stays stoppable from another thread)."""
    if CompiledKernel is not None and isinstance(kernel, CompiledKernel):
        return kernel.perft(state, depth, poll)
    if poll is None or depth <= PURE_POLL_DEPTH:
        return kernel.perft(state, depth)
    if poll():
        raise PerftStopped(f"perft {depth} stopped")
    if kernel.result(state)[0]:
        return 0  # the game is over: no sequence goes on
    return sum(count(kernel, kernel.play(state, m), depth - 1, poll)
               for m in kernel.legal_moves(state))


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """perft(depth - 1) below each legal move."""
    kernel = pos.variant.kernel
    return [
        (move.text, count(kernel, kernel.play(pos.state, move.code), depth - 1))
        for move in pos.legal_moves()
    ]


def run_perft(pos: Position, depth: int, split: bool, echo: Callable[[str], None]) -> int:
    start = time.perf_counter()
    if split and depth > 0:
        rows = divide(pos, depth)
        for text, count in rows:
            echo(f"{text}: {count}")
        total = sum(count for _, count in rows)
    else:
        total = pos.perft(depth) if not (depth and pos.is_over()) else 0
    elapsed = time.perf_counter() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    kind = "compiled" if pos.variant.compiled else "pure Python"
    echo(f"perft({depth}) = {total}")
    echo(f"time: {elapsed:.3f} s, {rate:,.0f} leaves/s ({kind} rules, {pos.variant.spec()})")
    return total
