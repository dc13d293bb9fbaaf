"""Figures for docs/solving.md: the exact solvers on their goal positions.

    python benchmarks/solve.py kalah [--max-pits 5] [--max-seeds 5] [--empty-capture]
    python benchmarks/solve.py kujifunza [--compare-seconds 20]

``kalah`` solves the start of every Kalah(m, n) up to the limits (default
databases) and prints value, best moves, databases, nodes and time per
board. ``kujifunza`` proves the start, then runs the ordinary search on the
start for a fixed time and prints its claim beside the proof's. Timings on
a shared machine are noisy: the load average is printed with each table.
"""

from __future__ import annotations

import argparse
import os
import time

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher
from bingwa.engine.solvers import prove_win, solve_kalah


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def kalah_table(max_pits: int, max_seeds: int, empty_capture: bool) -> None:
    rule = " empty-capture=true" if empty_capture else ""
    print(f"Kalah{rule}, load average {load()}")
    print(f"{'board':<10} {'value':>5} {'best':<8} {'db seeds':>8} {'nodes':>12} {'time s':>8}")
    for pits in range(1, max_pits + 1):
        for seeds in range(1, max_seeds + 1):
            pos = Position(f"kalah pits={pits} seeds={seeds}{rule}")
            found = solve_kalah(pos)
            print(f"({pits},{seeds}){'':<5} {found.value:>+5d} {' '.join(found.best_moves):<8} "
                  f"{found.db_seeds:>8} {found.nodes:>12} {found.seconds:>8.1f}", flush=True)
    print(f"load average {load()}")


def search_claim(pos: Position, seconds: float) -> str:
    searcher = Searcher(256)
    searcher.search(pos, Limits(movetime=int(seconds * 1000)))
    info = searcher.lines[0].info
    if info.score_mate is not None:
        return f"mate {info.score_mate} ({searcher.lines[0].move}, depth {info.depth})"
    return f"cp {info.score_cp} ({searcher.lines[0].move}, depth {info.depth})"


def kujifunza(compare_seconds: float) -> None:
    pos = Position("kujifunza")
    print(f"Bao la Kujifunza, load average {load()}")
    start = time.perf_counter()
    proof = prove_win(pos, progress=print)
    print(f"proof: win in {proof.plies} plies, move {proof.move}, {proof.nodes} nodes, "
          f"tree {proof.tree_nodes} nodes / {proof.tree_states} states, {proof.seconds:.1f} s "
          f"(with the tree walk {time.perf_counter() - start:.1f} s)")
    print(f"search ({compare_seconds:.0f} s): {search_claim(pos, compare_seconds)}")
    print(f"load average {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["kalah", "kujifunza"])
    parser.add_argument("--max-pits", type=int, default=5)
    parser.add_argument("--max-seeds", type=int, default=5)
    parser.add_argument("--empty-capture", action="store_true")
    parser.add_argument("--compare-seconds", type=float, default=20.0)
    args = parser.parse_args()
    if args.what == "kalah":
        kalah_table(args.max_pits, args.max_seeds, args.empty_capture)
    else:
        kujifunza(args.compare_seconds)


if __name__ == "__main__":
    main()
