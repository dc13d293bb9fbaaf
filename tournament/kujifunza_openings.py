"""Openings of Bao la Kujifunza whose result is still open, for matches
(benchmarks/kujifunza_openings.py writes them to a file).

Random openings of Kujifunza are already decided: a depth-8 search proves
a win in most of them (docs/strength.md, "Why Kujifunza's gate cannot
tell"), so the side an opening favours wins with either engine and every
colour-reversed pair splits. ``build_openings`` plays from the start and, at
every ply, draws (seeded) among the *open* moves only: those after which
the proof search (engine/_proof.pyx, docs/solving.md) finds no forced win
within ``horizon`` plies for the side then to move. An opening is kept
when its last position is open for both sides:

- the side to move has no forced win within the horizon (its last move was
  open), and
- the side to move has an open move, so the other side has no forced win
  within the horizon either (one reply escapes every such win).

Both facts are exact within the horizon: the prover counts only the rules'
game ends. Beyond it the start itself is a first-player win (21 plies),
so "open" means open to engines that see less than the horizon. A line
with no open move before its last ply is dropped and another is drawn;
positions reached twice are kept once. The script's file has one opening
a line, the moves from the start (docs/notation-bao.md), after a comment
naming the command.
"""

from __future__ import annotations

import random
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
