"""The bench (as Stockfish's ``benchmark.cpp``): a fixed list of positions
of every registered variant searched to a fixed depth with a fixed table
size on one thread, the table cleared before each position. Its node count
is the search's signature: it changes exactly when search behaviour changes
(README: "Bench: N" in commit messages). ``bingwa bench``, the protocol's
``bench`` command and benchmarks/search_speed.py all run it from here.
"""

from __future__ import annotations

import threading
import time

from .position import Position
from .variant import find_variant, variant_names

BENCH_HASH_MB = 16
BENCH_DEPTH_DEFAULT = 8
# Depth per variant: deep enough to exercise the whole search, short enough
# for CI. A variant registered later gets BENCH_DEPTH_DEFAULT.
BENCH_DEPTHS = {"oware": 9, "ayoayo": 10, "kalah": 8, "bao": 5, "kujifunza": 7}
BENCH_PLIES = (0, 9, 18, 27)  # positions: the start and after this many plies
BENCH_SEED = 2026


def bench_positions(variant, plies=BENCH_PLIES, seed: int = BENCH_SEED):
    """The start position of ``variant`` and the positions reached from it
    by a fixed pseudo-random game (an LCG picks each move), after each
    count of ``plies`` (or just before the game would end)."""
    positions = []
    pos = Position(variant)
    state = seed
    for target in plies:
        while len(pos.move_stack) < target:
            moves = pos.legal_moves()
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            child = pos.play(moves[(state >> 33) % len(moves)])
            if child.is_over():
                break
            pos = child
        positions.append(pos.copy())
    return positions


def bench_run(depth: int | None = None, hash_mb: int = BENCH_HASH_MB, variants=None, echo=None,
              stop: threading.Event | None = None):
    """Search every bench position of ``variants`` (names or Variant
    objects; default: every registered variant); returns (nodes, seconds,
    per-variant [(name, nodes, seconds)]). Setting ``stop`` ends it early
    (and its count then means nothing)."""
    # the compiled search loads when a bench runs, not when this is imported
    from .limits import Limits
    from .searcher import Searcher

    searcher = Searcher(hash_mb)
    total_nodes = 0
    total_time = 0.0
    rows: list[tuple[str, int, float]] = []
    for chosen in variants or variant_names():
        variant = find_variant(chosen) if isinstance(chosen, str) else chosen
        name = variant.name
        d = depth or BENCH_DEPTHS.get(name, BENCH_DEPTH_DEFAULT)
        nodes = 0
        elapsed = 0.0
        for i, pos in enumerate(bench_positions(variant), 1):
            if stop is not None and stop.is_set():
                return total_nodes, total_time, rows
            searcher.new_game()
            start = time.perf_counter()
            result = searcher.search(pos, Limits(depth=d), stop_event=stop)
            spent = time.perf_counter() - start
            nodes += searcher.nodes
            elapsed += spent
            if echo:
                echo(f"{name} position {i} ({pos.text()}): depth {d}, best {result.best}, "
                     f"{searcher.nodes} nodes")
        rows.append((variant.spec(), nodes, elapsed))
        total_nodes += nodes
        total_time += elapsed
    return total_nodes, total_time, rows
