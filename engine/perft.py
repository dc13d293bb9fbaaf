"""perft: the number of move sequences of exactly d plies from a position
(rules.md, Oware rule 8; a game that ends earlier contributes nothing and
repetition is ignored). The kernels count; this module times and prints."""

from __future__ import annotations

import time
from collections.abc import Callable

from .position import Position


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """perft(depth - 1) below each legal move."""
    kernel = pos.variant.kernel
    return [
        (move.text, kernel.perft(kernel.play(pos.state, move.code), depth - 1))
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
