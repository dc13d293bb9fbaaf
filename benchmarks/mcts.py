"""MCTS speed (simulations a second) on every variant, and its strength
against the random and greedy bots.

    python benchmarks/mcts.py                    # speed only
    python benchmarks/mcts.py --games 10         # and games at 2000 simulations

A simulation is one selection-expansion-playout-backup cycle from the start
position (playouts to the end of the game). Games alternate colours; the
score is wins + draws / 2 for mcts.
"""

from __future__ import annotations

import argparse
import threading
import time

from bingwa.bots import find_bot
from bingwa.bots.mcts import make_search
from bingwa.engine import Position, variant_names
from bingwa.engine.limits import Limits


def speed(spec: str, simulations: int) -> tuple[float, str, int]:
    pos = Position(spec)
    search = make_search(pos, [], 1, 1.41, 1 << 22)
    start = time.perf_counter()
    search.run(simulations)
    elapsed = time.perf_counter() - start
    return simulations / elapsed, type(search).__name__, search.max_depth


def match(spec: str, opponent: str, games: int, simulations: int) -> float:
    score = 0.0
    for game in range(games):
        players = [find_bot("mcts")(), find_bot(opponent)()]
        players[0].set_option("Simulations", str(simulations))
        players[0].set_option("Seed", str(game))
        players[1].set_option("Seed", str(game))
        mcts_side = game % 2
        if mcts_side:
            players.reverse()
        pos = Position(spec)
        while not pos.is_over() and len(pos.move_stack) < 1000:
            result = players[pos.turn].go(pos, Limits(), lambda info: None, threading.Event())
            pos.push(result.best)
        outcome = pos.outcome()
        if outcome is None or outcome.winner is None:
            score += 0.5
        elif outcome.winner == mcts_side:
            score += 1.0
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulations", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--game-simulations", type=int, default=2000)
    args = parser.parse_args()
    for spec in variant_names():
        rate, kind, depth = speed(spec, args.simulations)
        print(f"{spec:10} {rate:10,.0f} simulations/s  tree depth {depth:3}  ({kind})")
    if args.games:
        for spec in variant_names():
            for opponent in ("random", "greedy"):
                score = match(spec, opponent, args.games, args.game_simulations)
                print(f"{spec:10} mcts({args.game_simulations}) vs {opponent:7} "
                      f"{score:4.1f}/{args.games}")


if __name__ == "__main__":
    main()
