"""How many moves a side still thinks about, by the seeds on the board.

    python benchmarks/moves_left.py RUN.sqlite [--variant kalah]

Replays every game of a tournament or SPRT record (bingwa's SQLite file)
and, for each engine move that is neither a book move nor already a
proven result, counts the moves that side made from there until its
search first reported a proven score (after which a move takes
milliseconds) or the game ended. It prints the median, the 75th and the
90th percentile of that count for every four seeds on the board, with
what ``Variant.moves_left`` guesses there: the numbers the time manager's
guess for Kalah and Ayoayo was fitted to (docs/strength.md, Time
management).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys

from bingwa.tournament.moves_left import BIN, thinking_moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="a tournament or SPRT record (SQLite)")
    parser.add_argument("--variant", default="kalah")
    args = parser.parse_args()
    try:
        counts, guesses = thinking_moves(args.db, args.variant)
    except sqlite3.Error as exc:
        print(f"{args.db}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    if not counts:
        print(f"{args.db}: no {args.variant} game", file=sys.stderr)
        return 1
    print("| seeds | moves | median | 75th | 90th | guess |")
    print("|---|---|---|---|---|---|")
    for low in sorted(counts):
        values = sorted(counts[low])
        n = len(values)
        guess = "-".join(str(g) for g in sorted(guesses[low], key=lambda g: (g is None, g)))
        print(f"| {low}-{low + BIN - 1} | {n} | {values[n // 2]} | {values[3 * n // 4]} "
              f"| {values[9 * n // 10]} | {guess} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
