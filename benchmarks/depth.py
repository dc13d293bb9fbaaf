"""Time to depth and effective branching factor, per variant, on fixed positions.

    python benchmarks/depth.py [--nodes 8000000 | --seconds 1] [--hash 16]
                               [--variant oware ...] [--record]

The positions of each variant: the start, and the positions after 20 and 40
plies of a recorded self-play game (``benchmarks/depth_games.txt``, one line
per variant: its name, then the moves), or after a third and two thirds of
it when the game is shorter than 50 plies. ``--record`` plays those games again
(alpha-beta at a fixed node count a move, so the same build records the same
games) and rewrites the file; the measurements never depend on the build
that runs them otherwise.

Each position is searched from a cleared table, by default to a fixed node
count (``--nodes``, about one second of a quiet machine: the depth reached is
then the same on every run, whatever the load); ``--seconds`` gives a wall
clock limit instead. Per position it prints the nominal depth reached, the
selective depth, the CPU seconds to reach each of the last depths, the
effective branching factor (EBF: the growth of the nodes per iteration over
the last four completed iterations, (n(d) / n(d-4)) ** (1/4) where n(d) is
the nodes of iteration d alone), and, where the
search counts them, the share of the nodes searched by quiescence (past the
horizon) and by the extensions (main-search nodes a line reaches only
because some moves on it cost no depth).

To compare two builds, run this same script with each one's Python (the
script imports the ``bingwa`` of the interpreter that runs it), e.g.
``/work/venvs/base/bin/python benchmarks/depth.py``; ``--python`` does that
for you and prints both tables.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

GAMES_FILE = Path(__file__).with_name("depth_games.txt")
PLIES = (0, 20, 40)
RECORD_NODES = 20000  # per move of the recorded games
OPENING_PLIES = 4  # random plies opening a recorded game
RECORD_PLIES = 60  # plies a recorded game should last
RECORD_SEEDS = 12  # seeds tried at most
DEFAULT_NODES = 8_000_000
EBF_SPAN = 4  # iterations the EBF is measured over


@dataclass
class Measure:
    """One search of one position."""

    plies: int
    depth: int = 0
    seldepth: int = 0
    nodes: int = 0
    cpu: float = 0.0
    # per completed depth: (cumulative nodes, CPU seconds since the start)
    iterations: dict[int, tuple[int, float]] = field(default_factory=dict)
    qnodes: int | None = None
    ext_nodes: int | None = None

    def ebf(self) -> float | None:
        d = self.depth
        low = d - EBF_SPAN
        if low not in self.iterations or d not in self.iterations:
            return None
        n_low = self.iterations[low][0] - self.iterations.get(low - 1, (0, 0.0))[0]
        n_high = self.iterations[d][0] - self.iterations[d - 1][0]
        if n_low <= 0 or n_high <= 0:
            return None
        return float((n_high / n_low) ** (1 / EBF_SPAN))

    def time_to(self, depth: int) -> float | None:
        entry = self.iterations.get(depth)
        return entry[1] if entry else None


def read_games(path: Path = GAMES_FILE) -> dict[str, list[str]]:
    games: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        words = line.split("#")[0].split()
        if words:
            games[words[0]] = words[1:]
    return games


def self_play(name: str, seed: int, plies: int) -> list[str]:
    """A game of ``plies`` plies at most: OPENING_PLIES random moves (an LCG
    seeded with ``seed``), then alpha-beta at RECORD_NODES a move."""
    from bingwa.engine import Position
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    searcher = Searcher(16)
    pos = Position(name)
    state = seed
    moves: list[str] = []
    while len(moves) < plies and not pos.is_over():
        if len(moves) < OPENING_PLIES:
            legal = pos.legal_moves()
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            move = legal[(state >> 33) % len(legal)].text
        else:
            best = searcher.search(pos, Limits(nodes=RECORD_NODES)).best
            assert best is not None
            move = best
        moves.append(move)
        pos.push(move)
    return moves


def record_games(variants: list[str], path: Path = GAMES_FILE) -> None:
    """Record a game of every variant: the first seed whose self-play game
    is still going after RECORD_PLIES plies (so that the position after 40
    plies is a middlegame, not a solved ending), else the longest of the
    RECORD_SEEDS tried; write at most RECORD_PLIES plies of it."""
    kept = {line.split()[0]: line for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")} if path.exists() else {}
    recorded = {}
    for name in variants:
        best: tuple[list[str], int] = ([], 0)
        for seed in range(1, RECORD_SEEDS + 1):
            moves = self_play(name, seed, RECORD_PLIES)
            if len(moves) > len(best[0]):
                best = (moves, seed)
            if len(moves) >= RECORD_PLIES:
                break
        moves, seed = best
        recorded[name] = " ".join([name, *moves]) + f"  # seed {seed}"
        print(f"recorded {name} (seed {seed}, {len(moves)} plies)", flush=True)
    lines = [f"# {OPENING_PLIES} random plies (seed given), then self-play at "
             f"{RECORD_NODES} nodes a move (benchmarks/depth.py --record)"]
    for name in sorted(kept.keys() | recorded.keys()):
        lines.append(recorded.get(name) or kept[name])
    path.write_text("\n".join(lines) + "\n")


def positions(name: str, moves: list[str]) -> list[tuple[int, object]]:
    """(plies, position) at each of PLIES along the recorded game. Where
    the game is too short for them (Ayoayo, Kalah and Kujifunza games end
    early) the positions are at a third and two thirds of the game."""
    from bingwa.engine import Position

    targets = list(PLIES)
    if len(moves) < max(PLIES) + 10:
        targets = [0, len(moves) // 3, 2 * len(moves) // 3]
    out = []
    for plies in targets:
        pos = Position(name)
        pos.push_all(moves[:plies])
        out.append((plies, pos))
    return out


def measure(pos, plies: int, hash_mb: int, nodes: int | None, seconds: float | None) -> Measure:
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    searcher = Searcher(hash_mb)
    out = Measure(plies)
    start = time.thread_time()  # the search runs on this thread

    def note(info) -> None:
        if info.multipv in (None, 1):
            out.iterations[info.depth] = (info.nodes, time.thread_time() - start)

    limits = Limits(movetime=int(seconds * 1000)) if seconds else Limits(nodes=nodes)
    result = searcher.search(pos, limits, emit=note)
    out.cpu = time.thread_time() - start
    info = result.info
    out.depth = max(out.iterations, default=0)
    out.seldepth = info.seldepth or 0 if info else 0
    out.nodes = searcher.nodes
    engine = searcher.engine
    if hasattr(engine, "qnodes"):  # builds before these counters lack them
        out.qnodes = int(engine.qnodes)
        out.ext_nodes = int(engine.ext_nodes)
    return out


def share(part: int | None, whole: int) -> str:
    return "   n/a" if part is None or whole == 0 else f"{100 * part / whole:5.1f}%"


def run(args: argparse.Namespace) -> int:
    from bingwa.engine import variant_names

    variants = args.variant or variant_names()
    if args.record:
        record_games(variants)
    games = read_games()
    budget = f"{args.seconds} s wall" if args.seconds else f"{args.nodes} nodes"
    print(f"# {budget} a position, {args.hash} MiB table")
    print(f"{'variant':<10} {'plies':>5} {'depth':>5} {'sel':>4} {'nodes':>10} {'cpu s':>6} "
          f"{'knps':>6} {'EBF':>5} {'qs':>6} {'ext':>6}  CPU s to depth d-3 .. d")
    for name in variants:
        if name not in games:
            print(f"{name:<10} no recorded game in {GAMES_FILE.name} (run with --record)")
            continue
        for plies, pos in positions(name, games[name]):
            m = measure(pos, plies, args.hash, args.nodes, args.seconds)
            ebf = m.ebf()
            steps = "  ".join(
                f"{d}:{m.time_to(d):.2f}" for d in range(m.depth - 3, m.depth + 1)
                if m.time_to(d) is not None
            )
            knps = m.nodes / m.cpu / 1000 if m.cpu > 0 else 0.0
            print(f"{name:<10} {plies:>5} {m.depth:>5} {m.seldepth:>4} {m.nodes:>10} "
                  f"{m.cpu:>6.2f} {knps:>6.0f} {ebf if ebf else float('nan'):>5.2f} "
                  f"{share(m.qnodes, m.nodes)} {share(m.ext_nodes, m.nodes)}  {steps}",
                  flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, default=DEFAULT_NODES, help="nodes a position")
    limit.add_argument("--seconds", type=float, default=None, help="wall seconds a position")
    parser.add_argument("--hash", type=int, default=16, help="table size in MiB")
    parser.add_argument("--variant", action="append", help="only these variants")
    parser.add_argument("--record", action="store_true", help="record the games again first")
    parser.add_argument("--python", action="append", default=[],
                        help="also run with this interpreter (another build), e.g. a venv's python")
    args = parser.parse_args(argv)
    code = run(args)
    for python in args.python:
        rest = [a for a in (argv if argv is not None else sys.argv[1:])]
        rest = [a for i, a in enumerate(rest)
                if a != "--python" and (i == 0 or rest[i - 1] != "--python")
                and not a.startswith("--python=") and a != "--record"]
        print(f"\n# {python}", flush=True)
        code |= subprocess.run([python, __file__, *rest], check=False).returncode
    return code


if __name__ == "__main__":
    sys.exit(main())
