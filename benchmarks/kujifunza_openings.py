"""Openings of Bao la Kujifunza whose result is still open, for matches.

    python benchmarks/kujifunza_openings.py --count 300 --plies 8 --horizon 13 \\
        --seed 1 --output kujifunza-open.txt
    bingwa sprt -v kujifunza --openings kujifunza-open.txt ...

The openings are those of tournament/kujifunza_openings.py (its docstring
says which are kept): the positions are drawn there, this writes them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bingwa.tournament.kujifunza_openings import Stats, build_openings


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
