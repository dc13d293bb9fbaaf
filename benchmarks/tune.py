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
(docs/tuning.md). Needs the ``tune`` extra (NumPy, SciPy). The self-play
game, the fit and the weights files are engine/tuning.py's; this is the
command line over them.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from bingwa.engine import find_variant
from bingwa.engine.searcher import Searcher
from bingwa.engine.tuning import (
    WEIGHTS_FILES,
    fit_scale,
    fit_weights,
    mse,
    self_play_game,
    write_weights,
)

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT = 5  # every fifth game is held out of the fit


def default_data_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "bingwa-tune"


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
