"""perft speed of every two-row variant's compiled kernel (leaves/second).

    python benchmarks/perft.py            # the issue's reference runs
    python benchmarks/perft.py --repeat 5 # best of five

Leaves per second = perft(d) / wall time; bulk counting at the last ply.
"""

from __future__ import annotations

import argparse
import time

from bingwa.engine import Position

RUNS = [("oware", 11), ("ayoayo", 9), ("kalah", 10)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for spec, depth in RUNS:
        pos = Position(spec)
        best = float("inf")
        count = 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            count = pos.perft(depth)
            best = min(best, time.perf_counter() - start)
        kind = "compiled" if pos.variant.compiled else "pure"
        print(f"{spec:8} perft({depth}) = {count:>12,}  {best:7.3f} s  "
              f"{count / best / 1e6:7.1f} M leaves/s ({kind})")


if __name__ == "__main__":
    main()
