"""Fit a variant's evaluation weights on positions from self-play (Texel tuning).

    python benchmarks/tune.py --variant oware --games 2000 --seed 1 [--apply]

One command regenerates the data and the fit:

1. **Self-play.** ``--games`` games of the engine against itself at
   ``--nodes`` nodes a move (the compiled search, as built now), each from
   ``--opening-plies`` seeded random moves. Every quiet position after the
   opening (no legal move gains 2 seeds or more: no capture waiting to
   be made; Bao: every position, see ALL_POSITIONS) is kept with its features (the kernel's ``features(state)``) and
   the game's result from the side to move (1 win, 1/2 draw, 0 loss). The
   data goes to ``--data`` (a cache directory, never the repository) and
   is reused while the variant, engine weights and options are the same.
2. **Scale.** K of p = 1 / (1 + exp(-K x eval)) is fitted first, on the
   current weights (least squares of results, as Texel does).
3. **Weights.** With K fixed and the first feature's weight held (the
   material term, 100 per seed: the unit of every score), the others are
   fitted by least squares of the results (L-BFGS, SciPy). Every fifth game
   is held out; the error on it is printed before and after.

It prints the weights in the kernel's units (centi-seeds per unit of each
feature) and, with ``--apply``, writes them to the kernel's weights file
(``engine/weights_<variant>.pxd``); rebuild (``python setup.py build_ext
--inplace``) and gate with ``bingwa sprt`` before keeping them
(docs/tuning.md). Needs the ``tune`` extra (NumPy, SciPy).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import expit

from bingwa.engine import Position, find_variant
from bingwa.engine.limits import Limits
from bingwa.engine.searcher import Searcher

ROOT = Path(__file__).resolve().parent.parent
MOVE_CAP = 400  # plies: a game still going is dropped (no result to learn from)
HOLDOUT = 5  # every fifth game is held out of the fit
QS_MIN_GAIN = 2  # seeds: the gain search.pyx's quiescence calls a capture


@dataclass(frozen=True)
class WeightsFile:
    """Where a variant's weights live and how its constants are named."""

    path: Path
    prefix: str  # constant = prefix + feature name in capitals
    title: str


WEIGHTS_FILES = {
    "oware": WeightsFile(ROOT / "engine" / "weights_oware.pxd", "EVAL_", "Oware"),
    "ayoayo": WeightsFile(ROOT / "engine" / "weights_ayoayo.pxd", "EVAL_", "Ayoayo"),
    "kalah": WeightsFile(ROOT / "engine" / "weights_kalah.pxd", "EVAL_", "Kalah"),
    "bao": WeightsFile(ROOT / "engine" / "weights_bao.pxd", "BAO_", "Bao la Kiswahili"),
    "kujifunza": WeightsFile(ROOT / "engine" / "weights_kujifunza.pxd", "KUJIFUNZA_",
                             "Bao la Kujifunza"),
}


def default_data_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "bingwa-tune"


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


def generate(variant: str, games: int, seed: int, nodes: int, opening_plies: int,
             path: Path) -> None:
    rng = random.Random(seed)
    searcher = Searcher(hash_mb=4)
    features: list[tuple[int, ...]] = []
    results: list[int] = []
    game_of: list[int] = []
    started = time.monotonic()
    played = 0
    for game in range(games):
        record = self_play_game(variant, searcher, nodes, opening_plies, rng)
        if record is not None:
            played += 1
            features.extend(record[0])
            results.extend(record[1])
            game_of.extend([game] * len(record[1]))
        if (game + 1) % 100 == 0 or game + 1 == games:
            print(f"  {game + 1}/{games} games, {len(results)} positions, "
                  f"{time.monotonic() - started:.0f} s", file=sys.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, features=np.array(features, dtype=np.int32),
                        results=np.array(results, dtype=np.int8) / 2.0,
                        games=np.array(game_of, dtype=np.int32))
    print(f"{played} games kept of {games}, {len(results)} positions kept -> {path}")


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="oware", choices=sorted(WEIGHTS_FILES))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=2000, help="nodes a move in self-play")
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--data", type=Path, default=None,
                        help="cache directory of the self-play data (default: "
                             "~/.cache/bingwa-tune)")
    parser.add_argument("--apply", action="store_true",
                        help="write the fitted weights to the kernel's weights file")
    args = parser.parse_args(argv)
    if args.games < HOLDOUT or args.nodes < 1 or args.opening_plies < 0:
        parser.error(f"--games must be at least {HOLDOUT}, --nodes at least 1")

    kernel = find_variant(args.variant).kernel
    if not hasattr(kernel, "features"):
        parser.error(f"the compiled {args.variant} kernel is not built (it has the features)")
    names = tuple(kernel.feature_names)
    current = np.array(kernel.weights, dtype=float)
    # the data depends on the engine that played it: its weights are in the name
    tag = hashlib.sha1(repr((names, tuple(kernel.weights))).encode()).hexdigest()[:10]
    data_dir = args.data or default_data_dir()
    path = data_dir / (f"{args.variant}-g{args.games}-s{args.seed}-n{args.nodes}"
                       f"-o{args.opening_plies}-{tag}.npz")
    if path.exists():
        print(f"reusing {path}")
    else:
        generate(args.variant, args.games, args.seed, args.nodes, args.opening_plies, path)
    data = np.load(path)
    x = data["features"].astype(float)
    y = data["results"]
    held_out = data["games"] % HOLDOUT == 0
    train_x, train_y = x[~held_out], y[~held_out]
    if len(train_y) < 10 * len(names):
        print(f"bingwa tune: error: {len(train_y)} positions are too few to fit "
              f"{len(names)} weights: play more games", file=sys.stderr)
        return 1

    k = fit_scale(current, train_x, train_y)
    fitted = fit_weights(current, k, train_x, train_y)
    rounded = [int(round(w)) for w in fitted]
    tuned = np.array(rounded, dtype=float)
    print(f"{args.variant}: {len(y)} positions ({int(held_out.sum())} held out), "
          f"K = {k * 100:.4f} per seed")
    print(f"{'feature':<16} {'current':>8} {'fitted':>8}")
    for name, old, new in zip(names, kernel.weights, rounded):
        print(f"{name:<16} {old:>8} {new:>8}")
    for label, subset_x, subset_y in (("train", train_x, train_y),
                                      ("held out", x[held_out], y[held_out])):
        print(f"mean squared error, {label}: {mse(current, k, subset_x, subset_y):.6f} "
              f"-> {mse(tuned, k, subset_x, subset_y):.6f}")
    if args.apply:
        command = (f"python benchmarks/tune.py --variant {args.variant} --games {args.games} "
                   f"--seed {args.seed} --nodes {args.nodes} "
                   f"--opening-plies {args.opening_plies}")
        written = write_weights(args.variant, names, rounded, command)
        print(f"wrote {written.relative_to(ROOT)}: rebuild with "
              "`python setup.py build_ext --inplace`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
