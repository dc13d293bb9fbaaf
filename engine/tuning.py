"""The evaluation fit (Texel tuning) of docs/tuning.md: the self-play
positions it learns from, the least-squares fit of the weights and the
kernels' weights files. benchmarks/tune.py is its command line (the data
cache, the printout, ``--apply``). Needs the ``tune`` extra (NumPy, SciPy).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import expit

from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher

HERE = Path(__file__).resolve().parent  # the kernels' weights files are beside this
MOVE_CAP = 400  # plies: a game still going is dropped (no result to learn from)
QS_MIN_GAIN = 2  # seeds: the gain search.pyx's quiescence calls a capture


@dataclass(frozen=True)
class WeightsFile:
    """Where a variant's weights live and how its constants are named."""

    path: Path
    prefix: str  # constant = prefix + feature name in capitals
    title: str


WEIGHTS_FILES = {
    "oware": WeightsFile(HERE / "weights_oware.pxd", "EVAL_", "Oware"),
    "ayoayo": WeightsFile(HERE / "weights_ayoayo.pxd", "EVAL_", "Ayoayo"),
    "kalah": WeightsFile(HERE / "weights_kalah.pxd", "EVAL_", "Kalah"),
    "bao": WeightsFile(HERE / "weights_bao.pxd", "BAO_", "Bao la Kiswahili"),
    "kujifunza": WeightsFile(HERE / "weights_kujifunza.pxd", "KUJIFUNZA_",
                             "Bao la Kujifunza"),
}


# -- 1. self-play -----------------------------------------------------------------
def material(kernel: Any, state: Any, side: int, turn: int) -> int:
    """The first feature (captured seeds, store or seeds held) from ``side``'s view."""
    value = kernel.features(state)[0]
    return value if turn == side else -value


def is_quiet(position: Position) -> bool:
    """No legal move gains QS_MIN_GAIN seeds or more (what the quiescence
    search calls a capture): the evaluation is not about to be overturned
    by a capture the side to move has. (A Kalah sowing that passes the
    store gains one seed: that much is quiet.)"""
    kernel = position.variant.kernel
    state = position.state
    mover = position.turn
    before = material(kernel, state, mover, mover)
    for move in position.legal_moves():
        child = kernel.play(state, move.code)
        gain = material(kernel, child, mover, position.variant.side_to_move(child)) - before
        if gain >= QS_MIN_GAIN:
            return False
    return True


# Bao has a capture at nearly every move (seeds change hands all game long):
# its quiet positions are the rare, lopsided ones at the end, too few and too
# decided to fit on. Its evaluation weighs the pending captures itself
# (attack, threatened), so every position is kept.
ALL_POSITIONS = {"bao", "kujifunza"}


def self_play_game(variant: str, searcher: Searcher, nodes: int, opening_plies: int,
                   rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]] | None:
    """One game; the features of its quiet positions after the opening
    (all of them in ALL_POSITIONS) and each one's result from its side to
    move (1, 0.5, 0 as 2, 1, 0); None when the opening ended the game or it
    ran past MOVE_CAP."""
    position = Position(variant)
    kernel = position.variant.kernel
    for _ in range(opening_plies):
        moves = position.legal_moves()
        if not moves or position.is_over():
            return None
        position.push(rng.choice(moves))
    if position.is_over():
        return None
    searcher.new_game()
    rows: list[tuple[int, ...]] = []
    sides: list[int] = []
    while not position.is_over():
        if len(position.move_stack) > MOVE_CAP:
            return None
        if variant in ALL_POSITIONS or is_quiet(position):
            rows.append(tuple(kernel.features(position.state)))
            sides.append(position.turn)
        result = searcher.search(position, Limits(nodes=nodes))
        assert result.best is not None  # the game goes on
        position.push(result.best)
    outcome = position.outcome()
    assert outcome is not None
    south = {0: 2, 1: 0, None: 1}[outcome.winner]
    return rows, [south if side == 0 else 2 - south for side in sides]


# -- 2. and 3. the fit -------------------------------------------------------------
def sigmoid(x: np.ndarray) -> np.ndarray:
    return expit(x)  # 1 / (1 + e^-x), without overflow


def mse(weights: np.ndarray, k: float, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((y - sigmoid(k * (x @ weights))) ** 2))


def fit_scale(weights: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """K minimising the squared error of the current evaluation."""
    found = minimize_scalar(lambda k: mse(weights, k, x, y), bounds=(1e-6, 0.1),
                            method="bounded")
    return float(found.x)


def fit_weights(start: np.ndarray, k: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Weights minimising the squared error, the first (material) held."""
    fixed = start[0]

    def loss_and_gradient(free: np.ndarray) -> tuple[float, np.ndarray]:
        weights = np.concatenate(([fixed], free))
        p = sigmoid(k * (x @ weights))
        error = p - y
        loss = float(np.mean(error ** 2))
        gradient = (2.0 * k / len(y)) * ((error * p * (1.0 - p)) @ x)
        return loss, gradient[1:]

    found = minimize(loss_and_gradient, start[1:].astype(float), jac=True, method="L-BFGS-B")
    return np.concatenate(([fixed], found.x))


def write_weights(variant: str, names: tuple[str, ...], weights: list[int],
                  command: str) -> Path:
    spec = WEIGHTS_FILES[variant]
    lines = [
        "# cython: language_level=3",
        f"# The {spec.title} evaluation's weights: centi-seeds per unit of each",
        "# feature of the kernel's FEATURE_NAMES, in that order (docs/search.md).",
        "# Written by benchmarks/tune.py; the fits and the SPRTs that kept them",
        "# are in docs/tuning.md.",
        f"#   {command}",
        "",
        "cdef enum:",
    ]
    lines += [f"    {spec.prefix}{name.upper()} = {value}" for name, value in zip(names, weights)]
    spec.path.write_text("\n".join(lines) + "\n")
    return spec.path
