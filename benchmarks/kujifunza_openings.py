"""Openings of Bao la Kujifunza whose result is still open, for matches.

    python benchmarks/kujifunza_openings.py --count 300 --plies 8 --horizon 13 \\
        --seed 1 --output kujifunza-open.txt
    bingwa sprt -v kujifunza --openings kujifunza-open.txt ...

Random openings of Kujifunza are already decided: a depth-8 search proves
a win in most of them (docs/strength.md, "Why Kujifunza's gate cannot
tell"), so the side an opening favours wins with either engine and every
colour-reversed pair splits. This script plays from the start and, at
every ply, draws (seeded) among the *open* moves only: those after which
the proof search (engine/_proof.pyx, docs/solving.md) finds no forced win
within ``--horizon`` plies for the side then to move. An opening is kept
when its last position is open for both sides:

- the side to move has no forced win within the horizon (its last move was
  open), and
- the side to move has an open move, so the other side has no forced win
  within the horizon either (one reply escapes every such win).

Both facts are exact within the horizon: the prover counts only the rules'
game ends. Beyond it the start itself is a first-player win (21 plies),
so "open" means open to engines that see less than the horizon. A line
with no open move before its last ply is dropped and another is drawn;
positions reached twice are kept once. The output has one opening a line,
the moves from the start (docs/notation-bao.md), after a comment naming
the command.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from bingwa.engine import Move, Position
from bingwa.engine.solvers import SolveInterrupted, prove_win

VARIANT = "kujifunza"
TABLE_MB = 16        # the proofs of a 13-ply horizon stay far below a million nodes
NODE_LIMIT = 1_000_000  # a proof that needs more is taken as "not open" (unknown)


@dataclass
class Stats:
    proofs: int = 0
    nodes: int = 0
    dead_ends: int = 0
    repeats: int = 0


def no_win_within(position: Position, horizon: int, stats: Stats) -> bool:
    """True when the prover shows that the side to move of ``position``
    cannot force a win within ``horizon`` plies; False when it can, or when
    the proof ran out of nodes (nothing shown)."""
    stats.proofs += 1
    try:
        proof = prove_win(position, max_plies=horizon, table_mb=TABLE_MB, node_limit=NODE_LIMIT)
    except SolveInterrupted:
        stats.nodes += NODE_LIMIT
        return False
    stats.nodes += proof.nodes
    return proof.plies is None


def is_open_move(position: Position, move: Move, horizon: int, stats: Stats) -> bool:
    """Whether the other side, to move after ``move``, has no forced win
    within ``horizon`` plies. A move that ends the game or keeps the turn
    (never in Kujifunza, where a move is a whole turn) is not open."""
    child = position.play(move)
    if child.is_over() or child.turn == position.turn:
        return False
    return no_win_within(child, horizon, stats)


def open_move(position: Position, rng: random.Random, horizon: int, stats: Stats) -> Move | None:
    """A move drawn uniformly among the open moves of ``position`` (None:
    there is none). The moves are tried in a random order and the first
    open one is taken, which is the same draw as a choice among all the
    open moves, for a third of the proofs."""
    moves = position.legal_moves()
    rng.shuffle(moves)
    return next((m for m in moves if is_open_move(position, m, horizon, stats)), None)


def draw_opening(rng: random.Random, plies: int, horizon: int, stats: Stats) -> Position | None:
    """One line of ``plies`` open moves from the start whose last position
    has an open move too (open for both sides), or None at a dead end."""
    position = Position(VARIANT)
    for _ in range(plies):
        move = open_move(position, rng, horizon, stats)
        if move is None:
            return None
        position.push(move)
    if open_move(position, rng, horizon, stats) is None:
        return None
    return position


def build_openings(count: int, plies: int, horizon: int, rng: random.Random,
                   stats: Stats, max_draws: int | None = None,
                   progress: Callable[[str], None] | None = None) -> list[Position]:
    """``count`` distinct open positions after ``plies`` plies (fewer when
    ``max_draws`` lines run out first); ``progress`` hears of every
    hundredth."""
    found: dict[str, Position] = {}
    draws = 0
    while len(found) < count and (max_draws is None or draws < max_draws):
        draws += 1
        position = draw_opening(rng, plies, horizon, stats)
        if position is None:
            stats.dead_ends += 1
        elif position.text() in found:
            stats.repeats += 1
        else:
            found[position.text()] = position
            if progress and len(found) % 100 == 0:
                progress(f"{len(found)} openings, {draws} lines drawn, {stats.proofs} proofs, "
                         f"{stats.nodes:,} prover nodes")
    return list(found.values())


def positive(text: str) -> int:
    """An argparse type: a whole number above 0 (one error line otherwise)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=positive, default=300, help="openings to write")
    parser.add_argument("--plies", type=positive, default=8, help="plies of each opening")
    parser.add_argument("--horizon", type=positive, default=13,
                        help="no forced win within this many plies for either side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-draws", type=positive, default=None,
                        help="give up after drawing this many lines (default: 20 x count)")
    parser.add_argument("--output", "-o", default="-", help="file to write (default: stdout)")
    args = parser.parse_args(argv)
    if args.horizon > 40:
        parser.error("--horizon: at most 40 plies")

    stats = Stats()
    start = time.perf_counter()
    try:
        openings = build_openings(args.count, args.plies, args.horizon, random.Random(args.seed),
                                  stats, args.max_draws or 20 * args.count,
                                  lambda line: print(line, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        print("kujifunza_openings: interrupted, nothing written", file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    if len(openings) < args.count:
        print(f"kujifunza_openings: only {len(openings)} of {args.count} openings found "
              f"({stats.dead_ends} dead ends, {stats.repeats} repeats)", file=sys.stderr)
        return 1
    lines = [f"# python benchmarks/kujifunza_openings.py --count {args.count} --plies {args.plies} "
             f"--horizon {args.horizon} --seed {args.seed}",
             f"# {len(openings)} openings, neither side forces a win within {args.horizon} plies"]
    lines += [" ".join(m.text for m in position.move_stack) for position in openings]
    text = "\n".join(lines) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as exc:
            print(f"kujifunza_openings: {args.output}: {exc.strerror}", file=sys.stderr)
            return 1
    print(f"{len(openings)} openings, {stats.proofs} proofs, {stats.nodes:,} prover nodes, "
          f"{stats.dead_ends} dead ends, {stats.repeats} repeats, {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
