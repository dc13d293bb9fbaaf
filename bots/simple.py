"""Baseline bots: random and greedy play (seeded, deterministic)."""

from __future__ import annotations

import random
import threading

from bingwa.engine import Move, Position
from bingwa.engine.limits import Info, Limits, SearchResult

from .base import Bot, BotOption, Emit


class RandomBot(Bot):
    name = "random"
    summary = "a uniformly random legal move (seeded)"

    def options(self) -> list[BotOption]:
        return [BotOption("Seed", "spin", 0, 0, 2**31 - 1, help="random seed")]

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(0)

    def set_option(self, name: str, value: str | None) -> None:
        super().set_option(name, value)
        if name.strip().lower() == "seed":
            self.rng = random.Random(self.option("Seed"))

    def new_game(self) -> None:
        self.rng = random.Random(self.option("Seed"))

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        moves = self.candidate_moves(position, limits)
        if not moves:
            return SearchResult(None)
        if limits.infinite or limits.ponder:
            stop.wait()  # the protocol: no bestmove before stop in go infinite
        move = self.rng.choice(moves)
        emit(Info(depth=1, nodes=len(moves), pv=[move.text]))
        return SearchResult(move.text)


def immediate_gain(position: Position, move: Move) -> int:
    """Seeds the mover's score (or store) grows by with this move alone."""
    side = position.turn
    before = position.scores()[side] - position.scores()[1 - side]
    child = position.play(move)
    outcome = child.outcome()
    after = outcome.scores if outcome else child.scores()
    return (after[side] - after[1 - side]) - before


class GreedyBot(RandomBot):
    name = "greedy"
    summary = "the largest immediate gain, ties broken at random (seeded)"

    def go(self, position: Position, limits: Limits, emit: Emit, stop: threading.Event) -> SearchResult:
        moves = self.candidate_moves(position, limits)
        if not moves:
            return SearchResult(None)
        if limits.infinite or limits.ponder:
            stop.wait()
        gains = [immediate_gain(position, m) for m in moves]
        best = max(gains)
        move = self.rng.choice([m for m, g in zip(moves, gains) if g == best])
        emit(Info(depth=1, score_cp=100 * best, nodes=len(moves), pv=[move.text]))
        return SearchResult(move.text)
