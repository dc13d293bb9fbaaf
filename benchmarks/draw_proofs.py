"""What proving draws costs (engine/proofs.py): drawn endgames of each
variant that can draw, searched for a fixed time; for each, when the draw
was first reported, its distance, and the proofs' share of the nodes and
of the time.

    python benchmarks/draw_proofs.py [--movetime MS]

The last Oware position is (almost surely) drawn but its repetition cycles
are too long to prove within the proofs' node budget: it shows what an
unproven 0 costs.
"""

from __future__ import annotations

import argparse
import time

from bingwa.engine import Position, proofs
from bingwa.engine.limits import Info, Limits
from bingwa.engine.searcher import Searcher

POSITIONS = [
    ("kalah pits=3 seeds=1", None),
    ("kalah", "0,0,1,1,1,1/1,1,1,0,2,1 19 19 s"),
    ("kalah", "2,0,1,0,0,2/2,1,2,0,0,0 18 20 s"),
    ("ayoayo", "0,0,0,0,1,1/2,0,1,1,1,0 22 19 n"),
    ("ayoayo", "1,0,0,1,0,1/1,0,0,1,1,0 20 22 s"),
    ("oware", "1,0,0,0,0,0/0,0,1,1,0,0 21 24 n"),
    ("oware", "0,0,0,1,0,1/0,0,0,0,0,1 22 23 s"),
    ("oware", "0,2,0,0,0,2/2,1,0,0,0,0 22 19 n"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--movetime", type=int, default=1000, help="ms per position")
    args = parser.parse_args()

    spent = [0.0]
    hold = proofs.DrawProver._hold

    def timed_hold(self, *rest):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return hold(self, *rest)
        finally:
            spent[0] += time.perf_counter() - start

    proofs.DrawProver._hold = timed_hold  # type: ignore[method-assign]
    print(f"{'position':<42} {'draw':>5} {'at depth':>8} {'after ms':>8} {'depth':>5} "
          f"{'nodes':>9} {'proof nodes':>11} {'proof ms':>8} {'total ms':>8}")
    for spec, text in POSITIONS:
        pos = Position(spec, text=text) if text else Position(spec)
        searcher = Searcher(16)
        first: list[tuple[int, int, float]] = []
        start = time.perf_counter()

        def emit(info: Info, start: float = start, first: list = first) -> None:
            if info.score_draw is not None and not first:
                first.append((info.score_draw, info.depth or 0, time.perf_counter() - start))

        spent[0] = 0.0
        result = searcher.search(pos, Limits(movetime=args.movetime), emit)
        total = time.perf_counter() - start
        info = result.info
        assert info is not None
        draw, at, after = first[0] if first else ("-", "-", float("nan"))
        label = f"{spec} {text or 'start'}"
        print(f"{label:<42} {draw:>5} {at:>8} {after * 1000:>8.1f} {info.depth:>5} "
              f"{searcher.nodes:>9} {searcher.proof_nodes:>11} {spent[0] * 1000:>8.1f} "
              f"{total * 1000:>8.1f}")


if __name__ == "__main__":
    main()
