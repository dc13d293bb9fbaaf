"""Depth reached from the start position of every variant in a fixed time.

    python benchmarks/depth.py [--seconds 1] [--hash 64]

One line per variant: nominal depth, selective depth, nodes, nodes/second,
best move and score. Nominal depths count extended plies (extra turns,
captures) as free, so they are lower than those of a search without
extensions at the same time.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from bingwa.engine import Position, variant_names
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--hash", type=int, default=64, help="table size in MiB")
    args = parser.parse_args(argv)
    print(f"{'variant':<10} {'depth':>5} {'sel':>4} {'nodes':>10} {'nodes/s':>10}  best  score")
    for name in variant_names():
        searcher = Searcher(args.hash)
        result = searcher.search(Position(name), Limits(movetime=int(args.seconds * 1000)))
        info = result.info
        print(f"{name:<10} {info.depth:>5} {info.seldepth:>4} {info.nodes:>10} {info.nps:>10}  "
              f"{result.best:<5} {info.score_cp / 100:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
