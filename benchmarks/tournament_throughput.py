"""Tournament throughput: games per minute with two workers at fixed nodes,
and the protocol's cost per move against the same bots in one process.

    python benchmarks/tournament_throughput.py [--games 40] [--nodes 2000] [--variant oware]

Three runs of the same plan (alphabeta against greedy, fixed nodes, the
same openings):

1. engine processes, two workers: games per minute;
2. engine processes, one worker;
3. the same bots called in this process, one worker.

The protocol overhead per move is (time of 2 - time of 3) / moves: process
round trips (isready, position, go, info, bestmove), parsing, and the
referee's checks on both sides. Engine start-up is left out: every
measured run first plays one warm-up game on the same workers.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.players import InProcessPlayer
from bingwa.tournament.runner import Seat, Tournament, process_players
from bingwa.tournament.storage import Store
from bingwa.tournament.timecontrol import TimeControl


def in_process(spec: EngineSpec) -> InProcessPlayer:
    return InProcessPlayer(spec.name, spec.command[-1], spec.options)


def timed_run(config: RunConfig, factory, label: str) -> tuple[float, int, int]:
    """(seconds, games, engine moves) of one run; start-up excluded."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(os.path.join(tmp, "bench.sqlite"))
        t = Tournament.create(store, config, factory=factory)
        seats = [Seat(config, t.openings, factory) for _ in range(config.concurrency)]
        warm = next(t.plan())
        for seat in seats:  # start every engine of every worker, then reuse them
            seat.play(warm)
        t.factory = _reuse(seats)
        start = time.perf_counter()
        t.run()
        elapsed = time.perf_counter() - start
        for seat in seats:
            seat.close()
        games = store.games(t.run_id)
        moves = sum(1 for g in games for m in g.moves if not m.book)
        print(f"{label:<34} {len(games):4d} games {moves:6d} moves {elapsed:7.2f} s  "
              f"{60 * len(games) / elapsed:7.1f} games/min  {1000 * elapsed / moves:6.3f} ms/move")
        return elapsed, len(games), moves


def _reuse(seats):
    """A factory that hands out the warmed-up players of the seats in turn."""
    players: dict[str, list] = {}
    for seat in seats:
        for name, player in seat.players.items():
            players.setdefault(name, []).append(player)

    def factory(spec):
        return players[spec.name].pop()

    return factory


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="games per run (pairs x 2)")
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--variant", default="oware")
    args = ap.parse_args()
    engines = (EngineSpec.bot("alphabeta"), EngineSpec.bot("greedy"))

    def config(workers: int) -> RunConfig:
        return RunConfig("round-robin", engines, (args.variant,), TimeControl(nodes=args.nodes),
                         rounds=max(1, args.games // 2), concurrency=workers, anchor="greedy",
                         openings=OpeningsConfig(plies=2, count=args.games, depth=2))

    print(f"{args.variant}, alphabeta vs greedy, nodes={args.nodes}, {os.cpu_count()} cores")
    timed_run(config(2), process_players(config(2)), "processes, 2 workers")
    t_proc, _, moves = timed_run(config(1), process_players(config(1)), "processes, 1 worker")
    t_in, _, moves_in = timed_run(config(1), in_process, "one process, 1 worker")
    if moves == moves_in:
        print(f"protocol overhead: {1000 * (t_proc - t_in) / moves:.3f} ms per move")
    else:
        print("the two runs played different games: no overhead figure")


if __name__ == "__main__":
    main()
