"""Figures of the Oware endgame databases (docs/databases.md).

    python benchmarks/databases.py build --max-seeds 14 --dir DIR [-j 2]
    python benchmarks/databases.py compare --max-seeds 3 [--dir DIR]

``build`` builds every missing count into DIR and prints, per seed count,
the boards, the file's bytes, the sweeps and the seconds, with the load
average of the machine (timings on a shared machine are noisy).

``compare`` solves every position of 0..N seeds with the exhaustive,
history-aware solver of tests/tablebase_exhaustive.py (written apart from
the databases: the game started at the position, bingwa's repetition
rule) and counts, per seed count, the entries that disagree with it,
exact and cycle-dependent apart.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from bingwa.engine import tablebase

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def build(folder: Path, max_seeds: int, jobs: int) -> None:
    sweeps: dict[int, int] = {}
    started = [time.monotonic()]

    def progress(seeds: int, sweep: int | None, changed: int | None) -> None:
        if sweep is not None:
            sweeps[seeds] = sweep
            return
        now = time.monotonic()
        count = tablebase.positions(seeds)
        load = os.getloadavg()[0]
        print(f"| {seeds:2d} | {count:>11,} | {count + tablebase.HEADER_BYTES:>11,} "
              f"| {sweeps.get(seeds, 0):3d} | {now - started[0]:8.2f} | {load:5.1f} |", flush=True)
        started[0] = now

    print(f"-j {jobs}, {os.cpu_count()} cores")
    print("| seeds | boards | bytes | sweeps | seconds | load |")
    print("|------:|-------:|------:|-------:|--------:|-----:|")
    tablebase.build(folder, max_seeds, jobs=jobs, progress=progress)


def compare(folder: Path | None, max_seeds: int) -> None:
    from tablebase_exhaustive import ExhaustiveSolver, boards

    if folder is None:
        folder = Path(tempfile.mkdtemp())
        tablebase.build(folder, max_seeds)
    tb = tablebase.open_tablebase(folder, max_seeds=max_seeds)
    solver = ExhaustiveSolver(guess=lambda s: tablebase.entry(tb, s).value)
    started = time.monotonic()
    values = solver.solve(max_seeds)
    print(f"solved in {time.monotonic() - started:.1f} s, {solver.nodes:,} nodes")
    print("| seeds | boards | cycle-dependent | wrong exact | wrong cycle-dependent |")
    print("|------:|-------:|----------------:|------------:|----------------------:|")
    for seeds in range(max_seeds + 1):
        cycle = wrong_exact = wrong_cycle = count = 0
        for board in boards(seeds):
            state = (board, (0, 0), 0)
            found = tablebase.entry(tb, state)
            count += 1
            cycle += found.cycle
            if found.value != values[state]:
                if found.cycle:
                    wrong_cycle += 1
                else:
                    wrong_exact += 1
                    print(f"exact entry differs: {board} {found.value} vs {values[state]}")
        print(f"| {seeds} | {count} | {cycle} | {wrong_exact} | {wrong_cycle} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--max-seeds", type=int, required=True)
    b.add_argument("--dir", type=Path, required=True)
    b.add_argument("-j", "--jobs", type=int, default=1)
    c = sub.add_parser("compare")
    c.add_argument("--max-seeds", type=int, default=3)
    c.add_argument("--dir", type=Path)
    args = parser.parse_args()
    if args.command == "build":
        build(args.dir, args.max_seeds, args.jobs)
    else:
        compare(args.dir, args.max_seeds)


if __name__ == "__main__":
    main()
