"""Train the learned evaluation from scratch (docs/tuning.md, "A learned evaluation").

    python benchmarks/train.py --variant oware --games 2000 --nodes 100000 --seed 1 \\
        [-j 2] [--tablebase DIR] [--apply]
    python benchmarks/train.py --variant kalah --games 2000 --nodes 100000 --seed 1 \\
        [-j 2] [--endgames 16] [--apply]

1. **Self-play** (``engine/learning.self_play``): ``--games`` games of the
   engine against itself at ``--nodes`` nodes a move, from
   ``--opening-plies`` seeded random moves, a random move instead with
   probability ``--deviate``. Each position the search scores in
   centi-seeds is a sample labelled by that score (with ``--tablebase``
   the search probes the Oware databases, so positions they hold are
   labelled by them; in Kalah(6,4) the search probes the Kalah solver's
   databases, ``--endgames`` MiB as the engine's ``Kalah Endgames``, and
   a root the solver decides is labelled by its exact value). ``-j`` processes play the games; each game is
   seeded by (``--seed``, its number), so the data does not depend on -j.
   The samples go to ``--data`` (a cache directory, never the repository)
   and are reused while the arguments and the engine are the same.
2. **Fit** (``engine/learning.fit``): the network's output is added to the
   hand evaluation; its weights minimise the squared error of
   sigmoid(evaluation / SCALE) against sigmoid(label / SCALE) (Adam,
   minibatches, seeded). Every fifth game is held out; the error on it is
   printed for the hand evaluation alone and with the network.
3. **Integers**: the weights are rounded to the kernel's integers and the
   held-out error printed again with the integer network.

``--apply`` writes the network to the file the engine loads
(``engine/net_<variant>.txt``), ``--out FILE`` elsewhere; gate it with
``bingwa sprt`` before keeping it (``option.EvalFile=FILE`` plays a
network file, ``option.EvalFile=none`` the hand evaluation alone).
Ctrl-C stops it with one line, keeping the games played in the cache.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOLDOUT = 5  # every fifth game is held out of the fit


def default_data_dir() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "bingwa-train"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="oware", choices=["oware", "kalah", "ayoayo"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--deviate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--tablebase", type=Path, default=None,
                        help="Oware: the databases' folder the searches probe")
    parser.add_argument("--endgames", type=int, default=16,
                        help="Kalah: MiB of the solver's databases the searches probe (0: none)")
    parser.add_argument("--data", type=Path, default=default_data_dir())
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--apply", action="store_true")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the network here (default with --apply: the engine's file)")
    args = parser.parse_args(argv)
    for name in ("games", "nodes", "jobs", "epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.endgames < 0:
        parser.error("--endgames must be 0 or more")
    if args.variant != "oware" and args.tablebase is not None:
        parser.error("--tablebase is Oware's (Kalah's searches probe --endgames)")
    if args.opening_plies < 0 or not 0 <= args.deviate <= 1:
        parser.error("--opening-plies must be 0 or more and --deviate within 0..1")
    return args


_TABLEBASE = None
_ENDGAMES = None


def _init_worker(variant: str, folder: Path | None, endgames_mb: int) -> None:
    global _TABLEBASE, _ENDGAMES
    if folder is not None:
        from bingwa.engine.tablebase import open_tablebase
        _TABLEBASE = open_tablebase(folder)
    if variant == "kalah" and endgames_mb:
        from bingwa.engine import find_variant
        from bingwa.engine.solvers import endgame_solver
        _ENDGAMES = endgame_solver(find_variant(variant), endgames_mb)


def _play(job: tuple[str, int, int, int, int, float]) -> list:
    from bingwa.engine.learning import self_play
    variant, game, seed, nodes, plies, deviate = job
    return self_play(variant, game, seed, nodes, plies, deviate, tablebase=_TABLEBASE,
                     endgames=_ENDGAMES)


def cache_file(args: argparse.Namespace) -> Path:
    from bingwa.engine import find_variant
    kernel = find_variant(args.variant).kernel
    key = repr((args.variant, args.games, args.nodes, args.opening_plies, args.deviate,
                args.seed, str(args.tablebase), tuple(kernel.weights))
               + ((args.endgames,) if args.variant == "kalah" else ()))
    return args.data / f"{args.variant}-{hashlib.sha256(key.encode()).hexdigest()[:16]}.npz"


def generate(args: argparse.Namespace):
    import numpy as np
    path = cache_file(args)
    if path.exists():
        data = np.load(path)
        print(f"self-play: {len(data['label'])} samples from the cache {path}")
        return data["inputs"], data["hand"], data["label"], data["game"], data["quiet"]
    jobs = [(args.variant, g, args.seed, args.nodes, args.opening_plies, args.deviate)
            for g in range(args.games)]
    start = time.monotonic()
    samples = []
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs, initializer=_init_worker,
                  initargs=(args.variant, args.tablebase, args.endgames)) as pool:
        for done, game in enumerate(pool.imap(_play, jobs, chunksize=4), 1):
            samples.extend(game)
            if done % 100 == 0 or done == len(jobs):
                print(f"self-play: {done}/{len(jobs)} games, {len(samples)} samples, "
                      f"{time.monotonic() - start:.0f} s", flush=True)
    inputs = np.array([s.inputs for s in samples], dtype=np.int16)
    hand = np.array([s.hand for s in samples], dtype=np.int32)
    label = np.array([s.label for s in samples], dtype=np.int32)
    game = np.array([s.game for s in samples], dtype=np.int32)
    quiet = np.array([s.quiet for s in samples], dtype=bool)
    args.data.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, inputs=inputs, hand=hand, label=label, game=game, quiet=quiet)
    print(f"self-play: {len(label)} samples kept in {path}")
    return inputs, hand, label, game, quiet


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401  (engine/tuning.py's, which tells quiet positions)
    except ImportError:
        print("train: needs NumPy and SciPy (pip install -e '.[tune]')", file=sys.stderr)
        return 2
    from bingwa.engine.learning import fit, held_out_error, quantize
    from bingwa.engine.net import NET_FILES, write_net
    try:
        inputs, hand, label, game, quiet = generate(args)
        inputs, hand, label, game = inputs[quiet], hand[quiet], label[quiet], game[quiet]
        test = game % HOLDOUT == 0
        net_float = fit(inputs[~test], hand[~test], label[~test], epochs=args.epochs,
                        seed=args.seed, log=print)
        net = quantize(net_float)
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    for name, model in (("hand evaluation", None), ("with the network", net_float),
                        ("with the integer network", net)):
        error = held_out_error(model, inputs[test], hand[test], label[test])
        print(f"held-out error ({test.sum()} samples), {name}: {error:.6f}")
    out = args.out or (NET_FILES[args.variant] if args.apply else None)
    if out is not None:
        command = "python benchmarks/train.py " + " ".join(argv if argv is not None
                                                            else sys.argv[1:])
        write_net(out, net, command)
        print(f"network written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
