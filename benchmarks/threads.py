"""Threads (Lazy SMP): nodes a second and time to depth, one thread against more.

    python benchmarks/threads.py [--threads 2] [--ms 2000]
                                 [--depth oware=15 --depth kalah=14] [--hash 16]

On the bench positions of each variant (engine/bench.py: the start and
after 9, 18 and 27 plies), each searched from a new table:

- nodes a second in a search of ``--ms`` milliseconds (every thread's
  nodes over the wall time), with 1 and with ``--threads`` threads, and
  the depth the main thread completed;
- the wall time to complete the depth of ``--depth`` (time to depth), and
  its speed-up.

Per position, then the medians. A figure, not a test: run it on a quiet
machine (two processes of one thread each give the machine's own ceiling).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bingwa.engine.bench import bench_positions
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher

DEFAULT_DEPTHS = {"oware": 15, "kalah": 14}


def timed(position, threads: int, hash_mb: int, limits: Limits) -> tuple[float, int, int]:
    """(wall seconds, nodes of every thread, main thread's depth)."""
    searcher = Searcher(hash_mb, threads=threads)
    start = time.monotonic()
    result = searcher.search(position, limits)
    return time.monotonic() - start, searcher.nodes, result.info.depth or 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ms", type=int, default=2000, help="milliseconds a search for nps")
    parser.add_argument("--depth", action="append", default=[], metavar="VARIANT=DEPTH",
                        help="time to this depth (default oware=15, kalah=14)")
    parser.add_argument("--hash", type=int, default=16)
    args = parser.parse_args()
    try:
        depths = dict((v, int(d)) for v, d in (x.split("=") for x in args.depth)) \
            or DEFAULT_DEPTHS
    except ValueError:
        parser.error("--depth takes VARIANT=DEPTH, e.g. oware=15")
    many = args.threads
    nps_ratio, ttd_ratio = [], []
    print(f"{'position':12} {'nps 1':>11} {f'nps {many}':>11} {'x':>5}  "
          f"{'depth':>7}  {'ttd 1':>7} {f'ttd {many}':>7} {'x':>5}")
    for name, depth in depths.items():
        for index, position in enumerate(bench_positions(name)):
            one = timed(position, 1, args.hash, Limits(movetime=args.ms))
            more = timed(position, many, args.hash, Limits(movetime=args.ms))
            n1, n2 = one[1] / one[0], more[1] / more[0]
            t1 = timed(position, 1, args.hash, Limits(depth=depth))[0]
            t2 = timed(position, many, args.hash, Limits(depth=depth))[0]
            nps_ratio.append(n2 / n1)
            ttd_ratio.append(t1 / t2)
            print(f"{name + ' ' + str(index):12} {n1:11,.0f} {n2:11,.0f} {n2 / n1:5.2f}  "
                  f"{one[2]:>3}/{more[2]:<3}  {t1:7.3f} {t2:7.3f} {t1 / t2:5.2f}", flush=True)
    print(f"median nps ratio {statistics.median(nps_ratio):.2f}, "
          f"median time-to-depth speed-up {statistics.median(ttd_ratio):.2f} "
          f"(geometric mean {statistics.geometric_mean(ttd_ratio):.2f})")


if __name__ == "__main__":
    main()
