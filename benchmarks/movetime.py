"""How much of a ``go movetime N`` the engine uses: the time from the
client's ``go`` to its reading of ``bestmove``, on the engine's pipes.

    python benchmarks/movetime.py [--movetime 200 300 1000] [--rounds 7]
        [--variant oware] [--overhead 10] [--bot alphabeta]

Each round sends a new game (``ucinewgame``) and a position a few plies
from the start (a different one each round), then ``go movetime N``. The
engine should answer after N - ``Move Overhead`` ms (engine/timeman.py):
the figures say how far it is from that, median, minimum and maximum.
They are figures for docs/search.md, never a test: the machine's load moves
them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.protocol.client import Engine


def positions(variant: str, count: int, seed: int = 1) -> list[Position]:
    """``count`` positions 0..5 plies from the start of seeded random games."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        pos = Position(variant)
        for _ in range(n % 6):
            if pos.is_over():
                break
            pos.push(rng.choice(pos.legal_moves()))
        found.append(pos)
    return found


def measure(movetime: int, rounds: int, variant: str, overhead: int, bot: str) -> list[float]:
    """Answer times of ``go movetime`` in ms, one a round."""
    engine = Engine.popen([sys.executable, "-m", "bingwa", "engine", "--bot", bot,
                           "--variant", variant])
    times: list[float] = []
    try:
        engine.handshake(timeout=30)
        engine.set_option("Move Overhead", overhead)
        for pos in positions(variant, rounds):
            engine.send("ucinewgame")
            engine.ping(timeout=10)
            result = engine.play(pos, Limits(movetime=movetime), timeout=movetime / 1000 + 10)
            times.append(result.elapsed * 1000)
    finally:
        engine.quit()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=int, nargs="+", default=[200, 300, 1000])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--overhead", type=int, default=10, help="Move Overhead, ms")
    parser.add_argument("--bot", default="alphabeta")
    args = parser.parse_args()
    if args.rounds < 1 or any(m < 1 for m in args.movetime) or args.overhead < 0:
        parser.error("rounds and movetimes must be positive, the overhead not negative")
    print(f"# {args.variant}, {args.bot}, Move Overhead {args.overhead} ms, "
          f"{args.rounds} rounds a move time")
    for movetime in args.movetime:
        ms = measure(movetime, args.rounds, args.variant, args.overhead, args.bot)
        target = movetime - args.overhead
        median = statistics.median(ms)
        print(f"go movetime {movetime}: median {median:.1f} ms (min {min(ms):.1f}, "
              f"max {max(ms):.1f}); target {target} ms, median - target {median - target:+.1f} ms")


if __name__ == "__main__":
    main()
