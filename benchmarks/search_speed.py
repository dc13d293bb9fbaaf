"""Search speed on the bench positions, measured in CPU time.

    python benchmarks/search_speed.py [--rounds 5] [--variant oware ...]
                                      [--tt-min-depth N] [--hash 16]

``bingwa bench`` reports wall-clock nodes per second, which a busy machine
(a shared 2-core box) drags down. This script runs the same searches (the
bench's positions, depths and table size, the table cleared before each)
and divides by the CPU time of the searching thread, best of ``--rounds``,
so that two builds or two settings can be compared on a loaded machine.
It prints, per variant, the nodes, the seconds of CPU to search them all
(the time to the bench depths) and nodes per CPU second.

``--tt-min-depth`` overrides the kernel's ``Ops.table_depth`` (see
docs/search.md) to measure that setting.
"""

from __future__ import annotations

import argparse
import sys
import time


def measure(name: str, rounds: int, hash_mb: int, tt_min_depth: int) -> tuple[int, float]:
    """(nodes, best CPU seconds) of the bench searches of variant ``name``."""
    from bingwa.engine import find_variant
    from bingwa.engine.bench import BENCH_DEPTH_DEFAULT, BENCH_DEPTHS, bench_positions
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    variant = find_variant(name)
    depth = BENCH_DEPTHS.get(name, BENCH_DEPTH_DEFAULT)
    positions = bench_positions(variant)
    searcher = Searcher(hash_mb)
    searcher.engine.tt_min_depth = tt_min_depth
    best = float("inf")
    nodes = 0
    for _ in range(rounds):
        nodes = 0
        cpu = 0.0
        for pos in positions:
            searcher.new_game()
            start = time.thread_time()
            searcher.search(pos, Limits(depth=depth))
            cpu += time.thread_time() - start
            nodes += searcher.nodes
        best = min(best, cpu)
    return nodes, best


def main(argv: list[str] | None = None) -> int:
    from bingwa.engine import variant_names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs per variant (best kept)")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--hash", dest="hash_mb", type=int, default=16, help="table MB")
    parser.add_argument("--tt-min-depth", type=int, default=0,
                        help="override the kernels' table_depth (0: keep them)")
    args = parser.parse_args(argv)
    print(f"{'variant':<10} {'nodes':>10} {'cpu s':>7} {'nodes/cpu s':>12}")
    for name in args.variant or variant_names():
        nodes, cpu = measure(name, args.rounds, args.hash_mb, args.tt_min_depth)
        print(f"{name:<10} {nodes:>10} {cpu:>7.3f} {nodes / cpu:>12,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
