"""Play-outs that try to refute the search's exact claims.

A proven score claims a result: the side to move wins (loses) within
``|score_mate|`` plies against any play, or, for a proven draw, neither
side can force a win. The claim is put to the test by playing the game
out: the claimed winner (for a draw, a side drawn at random) is played by
the *claimant*, the engine as it analysed, and the other side by a
*refuter* that tries hard to beat the claim (the engine with other
settings, searching deeper, deviating at random). A claim is refuted when
the game ends with another result; a claimed win that the engine's own
later moves take longer to reach is counted apart (``PlayOut.slow``).
tests/engine/test_playout.py runs a few in CI and benchmarks/claims.py thousands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .game import Termination
from .limits import Limits
from .position import Position
from .searcher import Searcher

# picks a move for the side to move (the game is not over)
Player = Callable[[Position], str]

# the refuter searches with other settings than the engine's (docs/search.md)
REFUTER_KNOBS = {"rfp": 0, "lmr": 0, "capture_cost": 0, "capture_cost_pv": -1}


@dataclass(frozen=True)
class Claim:
    """What a proven root score says: ``winner`` 0 (South) or 1 (North)
    wins within ``plies`` plies whatever the other side plays; ``winner``
    None: a proven draw (in ``plies``), neither side can force a win."""

    winner: int | None
    plies: int

    def describe(self) -> str:
        if self.winner is None:
            return f"draw in {self.plies}"
        return f"{('South', 'North')[self.winner]} wins within {self.plies} plies"


def claim_of(searcher: Searcher, position: Position, limits: Limits) -> Claim | None:
    """The claim of ``searcher``'s search of ``position`` (None: heuristic)."""
    searcher.search(position, limits)
    if not searcher.lines:
        return None
    info = searcher.lines[0].info
    if info.score_draw is not None:
        return Claim(None, info.score_draw)
    if info.score_mate is None:
        return None
    turn = position.turn
    return Claim(turn if info.score_mate > 0 else 1 - turn, abs(info.score_mate))


def search_player(searcher: Searcher, limits: Limits) -> Player:
    """The engine as a player: its best move within ``limits``."""

    def play(position: Position) -> str:
        best = searcher.search(position, limits).best
        assert best is not None
        return best

    return play


def refuter(limits: Limits, rng: random.Random, rate: float, tablebase: Any = None) -> Player:
    """The engine with REFUTER_KNOBS within ``limits`` (reading
    ``tablebase`` if given), playing a random legal move with probability
    ``rate``."""
    searcher = Searcher()
    searcher.knobs = dict(REFUTER_KNOBS)
    searcher.set_tablebase(tablebase)
    return deviating(search_player(searcher, limits), rng, rate)


def deviating(player: Player, rng: random.Random, rate: float) -> Player:
    """``player``, but a random legal move with probability ``rate``."""

    def play(position: Position) -> str:
        if rng.random() < rate:
            return rng.choice(position.legal_moves()).text
        return player(position)

    return play


def repeater(player: Player) -> Player:
    """``player``, but ending the game whenever a move can (a repetition
    above all: the way to beat play that keeps a value without coming
    nearer to it), with the best such end for itself."""

    def play(position: Position) -> str:
        mover = position.turn
        ends = [(position.play(m).outcome(), m.text) for m in position.legal_moves()]
        scored = [(o.margin(mover), text) for o, text in ends if o is not None]
        return max(scored)[1] if scored else player(position)

    return play


def margin_reached(outcome: Any, side: int, claim: int) -> bool:
    """Whether a game that ended in ``outcome`` gave ``side`` at least the
    final margin ``claim`` (an Oware database's value). A "more than 24"
    end stops the game the databases play on, which keeps the result but
    not the margin: there only the result is claimed."""
    margin = outcome.margin(side)
    if outcome.termination == Termination.MAJORITY:
        return margin > 0 if claim > 0 else margin >= 0 if claim == 0 else True
    return margin >= claim


@dataclass(frozen=True)
class PlayOut:
    """One game played out against a claim: ``refuted`` says how the claim
    failed (None: it held). ``slow``: a claimed win that the claimant took
    longer than claimed to reach (the claim holds, the engine's later
    searches found a longer proof: a figure, not a refutation)."""

    claim: Claim
    moves: list[str]
    result: Any  # the final Outcome
    refuted: str | None

    @property
    def slow(self) -> bool:
        return self.claim.winner is not None and len(self.moves) > self.claim.plies


def play_out(position: Position, claim: Claim, claimant: Player, refuter: Player,
             rng: random.Random, max_plies: int = 2000) -> PlayOut:
    """Plays ``position`` out, the claimant on the claimed winner's side
    (a draw: on a side drawn by ``rng``), the refuter on the other."""
    side = claim.winner if claim.winner is not None else rng.randrange(2)
    game = position.copy()
    moves: list[str] = []
    while not game.is_over() and len(moves) < max_plies:
        mover = claimant if game.turn == side else refuter
        move = mover(game)
        game.push(move)
        moves.append(move)
    result = game.outcome()
    if result is None:
        return PlayOut(claim, moves, None, f"no end within {max_plies} plies")
    margin = result.margin(side)
    if claim.winner is None:
        refuted = None if margin >= 0 else f"the claimant lost a proven draw ({margin:+d})"
    elif margin <= 0:
        refuted = f"the claimed winner did not win ({margin:+d})"
    else:
        refuted = None
    return PlayOut(claim, moves, result, refuted)


def random_endgame(rng: random.Random, variant: str, seeds: int) -> Position:
    """An Oware position of ``seeds`` seeds on the board, the others
    captured about evenly, side to move drawn, no history; not over."""
    while True:
        pits = [0] * 12
        for _ in range(seeds):
            pits[rng.randrange(12)] += 1
        captured = 48 - seeds
        south = captured // 2 + rng.randrange(-2, 3)
        north = captured - south
        if south > 24 or north > 24:
            continue
        pos = Position(variant, (tuple(pits), (south, north), rng.randrange(2)))
        if not pos.is_over():
            return pos


def walk(position: Position, rng: random.Random, plies: int) -> Position:
    """``position`` after up to ``plies`` random moves that capture nothing
    and do not end the game: a history since the last capture that decides
    what can repeat."""
    game = position.copy()
    for _ in range(plies):
        quiet = []
        for move in game.legal_moves():
            child = game.play(move)
            if child.state[1] == game.state[1] and not child.is_over():
                quiet.append(move)
        if not quiet:
            break
        game.push(rng.choice(quiet))
    return game
