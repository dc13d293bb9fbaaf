"""How fast the protocol server answers while its bot searches: the round
trip of ``isready`` -> ``readyok`` and of ``stop`` -> ``bestmove``, measured
by the client on the engine's pipes during a ``go movetime 10000``.

    python benchmarks/protocol_latency.py [--bot alphabeta] [--rounds 5] [--pings 10]

``--bot`` takes a registered bot or ``module:Class``
(``bingwa.bots.busy:BusyBot`` is a pure-Python bot that holds the GIL).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.protocol.client import Engine


def measure(bot: str, rounds: int, pings: int, variant: str = "oware") -> tuple[list[float], list[float]]:
    """(isready round trips, stop-to-bestmove times) in seconds."""
    engine = Engine.popen([sys.executable, "-m", "bingwa", "engine", "--bot", bot,
                           "--variant", variant])
    ready: list[float] = []
    stops: list[float] = []
    try:
        engine.handshake(timeout=30)
        for _ in range(rounds):
            search = engine.go(Position(variant), Limits(movetime=10_000))
            time.sleep(0.3)  # well into the search
            for _ in range(pings):
                ready.append(engine.ping(timeout=5))
                time.sleep(0.02)
            if search.done:
                raise SystemExit(f"{bot}: bestmove before stop in a 10 s search")
            search.stop()
            search.wait(timeout=5)
            assert search.received_at is not None and search.stopped_at is not None
            stops.append(search.received_at - search.stopped_at)
    finally:
        engine.quit()
    return ready, stops


def describe(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return (f"median {statistics.median(ms):.2f} ms, p90 {ms[int(len(ms) * 0.9) - 1]:.2f} ms, "
            f"max {ms[-1]:.2f} ms over {len(ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", action="append", help="bot(s) to measure")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pings", type=int, default=10)
    args = parser.parse_args()
    for bot in args.bot or ["alphabeta", "bingwa.bots.busy:BusyBot"]:
        ready, stops = measure(bot, args.rounds, args.pings)
        print(f"{bot}: isready -> readyok: {describe(ready)}")
        print(f"{bot}: stop -> bestmove:   {describe(stops)}")


if __name__ == "__main__":
    main()
