"""How often the engine's move keeps the game's value, Kalah(6,4).

    python benchmarks/kalah_accuracy.py --positions 1000 --movetime 100

Plays the engine against itself from random 2-ply openings (``--seed``;
``--game-nodes`` a move, so the games do not depend on the machine),
draws ``--positions`` positions from those games at random (at most one
in ``--every`` plies of a game, none with more than ``--max-in-pits``
seeds in the pits: the solver's time grows fast with them), lets the
engine choose a move in each at ``--movetime`` ms, and asks the Kalah
solver (engine/solvers.py, databases of 0..``--db-seeds`` seeds) whether
the move keeps the position's value (its final margin). Prints the share
of moves that do, with its 95 % interval (Wilson) and by the seeds in the
pits, how many keep at least the result (win, draw or loss), and each
move that loses value with how much. ``--endgames MB``: the engine plays
with the ``Kalah Endgames`` option: it probes the solver's databases as
it searches and first asks the solver for the root's exact value within a
tenth of the move's time. ``--eval-file``: the evaluation the engine
chooses its moves with (the ``EvalFile`` option: ``default``, ``none`` or a
network file); the games the positions come from are played with the
default one whatever it is, so two runs differing in it judge the same
positions. A figure, not a test (docs/solving.md); Ctrl-C prints what it
has.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.net import NetFileError, eval_file_net
from bingwa.engine.searcher import Searcher, search_kernel
from bingwa.engine.solvers import KalahSolver, endgame_solver
from bingwa.tournament.stats import wilson_interval

BIN = 8  # seeds in the pits a row of the table covers


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def in_pits(position: Position) -> int:
    return sum(position.state[0])


def sample_positions(count: int, rng: random.Random, nodes: int, every: int,
                     max_in_pits: int) -> list[Position]:
    """``count`` positions of engine games (not over, at most one in
    ``every`` plies of a game, at most ``max_in_pits`` seeds in the pits),
    each with the game's history."""
    engine = Searcher()
    found: list[Position] = []
    while len(found) < count:
        game = Position("kalah")
        for _ in range(2):
            game.push(rng.choice(game.legal_moves()))
        next_pick = rng.randrange(every)
        while not game.is_over() and len(found) < count:
            if next_pick == 0 and in_pits(game) <= max_in_pits:
                found.append(game.copy())
                next_pick = rng.randrange(every, 2 * every)
            next_pick = max(0, next_pick - 1)
            best = engine.search(game, Limits(nodes=nodes)).best
            assert best is not None
            game.push(best)
    return found


def value_after(solver: KalahSolver, position: Position, move: str) -> int:
    """The mover's final margin after ``move`` with perfect play (Kalah
    keeps the turn after a move ending in the store)."""
    child = position.play(move)
    outcome = child.outcome()
    if outcome is not None:
        return outcome.margin(position.turn)
    value = solver.value(child)
    return value if child.turn == position.turn else -value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=positive, default=1000)
    parser.add_argument("--movetime", type=positive, default=100, help="ms a move")
    parser.add_argument("--game-nodes", type=positive, default=20_000,
                        help="nodes a move in the games the positions come from")
    parser.add_argument("--every", type=positive, default=6)
    parser.add_argument("--max-in-pits", type=positive, default=40)
    parser.add_argument("--db-seeds", type=int, default=16)
    parser.add_argument("--table-mb", type=positive, default=1024)
    parser.add_argument("--endgames", type=int, default=0,
                        help="MiB of the solver's databases the engine probes (option Kalah "
                             "Endgames; 0: none)")
    parser.add_argument("--eval-file", default="default",
                        help="the engine's EvalFile when it chooses its moves (default, none "
                             "or a network file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    kernel = search_kernel(Position("kalah").variant)
    try:
        chosen_net = eval_file_net(args.eval_file, "kalah")
    except NetFileError as exc:
        parser.error(str(exc))
    if not 0 <= args.db_seeds <= 24:
        parser.error(f"--db-seeds must be in 0..24: {args.db_seeds}")
    start = time.monotonic()
    rng = random.Random(args.seed)
    positions = sample_positions(args.positions, rng, args.game_nodes, args.every,
                                 args.max_in_pits)
    print(f"{len(positions)} positions from engine games, "
          f"{time.monotonic() - start:.0f} s", flush=True)
    solver = KalahSolver(Position("kalah").variant, args.db_seeds, args.table_mb)
    print(f"databases 0..{args.db_seeds} seeds: {solver.db_seconds:.0f} s", flush=True)
    kernel.set_net(chosen_net)  # the games above played with the default one
    engine = Searcher()
    if args.endgames > 0:
        engine.set_kalah_endgames(endgame_solver(Position("kalah").variant, args.endgames))
    kept: dict[int, list[bool]] = defaultdict(list)
    results_lost = 0  # moves that turn a win into a draw or loss, or a draw into a loss
    losses: list[str] = []
    try:
        for pos in positions:
            best = engine.search(pos, Limits(movetime=args.movetime)).best
            assert best is not None
            value = solver.value(pos)
            keeps = solver.keeps(pos, best, value)
            kept[in_pits(pos) // BIN * BIN].append(keeps)
            if not keeps:
                after = value_after(solver, pos, best)
                results_lost += (after > 0) - (after < 0) != (value > 0) - (value < 0)
                losses.append(f"{pos.text()}: {best} ({value:+d} -> {after:+d})")
    except KeyboardInterrupt:
        print("kalah_accuracy: interrupted; what it has:", file=sys.stderr)
    for line in losses:
        print(f"loses value: {line}")
    print("seeds in pits | positions | keep the value")
    for low in sorted(kept):
        row = kept[low]
        print(f"{low:>5}..{low + BIN - 1:<5} | {len(row):>9} | {sum(row) / len(row):.1%}")
    every = [k for row in kept.values() for k in row]
    if every:
        share = sum(every) / len(every)
        low, high = wilson_interval(share, len(every))
        print(f"kept the result (win, draw or loss): {len(every) - results_lost} of {len(every)}")
        print(f"kept the value: {sum(every)} of {len(every)} = {share:.1%} "
              f"(95 % {low:.1%}..{high:.1%}), movetime {args.movetime} ms, "
              f"endgames {args.endgames} MiB, EvalFile {args.eval_file}, "
              f"{time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
