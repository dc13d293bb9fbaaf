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
from collections import defaultdict

from bingwa.engine import Position

BIN = 4  # seeds a row of the table covers


def thinking_moves(db: str, variant: str) -> tuple[dict[int, list[int]], dict[int, set]]:
    """Seeds on the board (a multiple of BIN) -> the counts of moves still
    thought about, and the guesses of Variant.moves_left there."""
    counts: dict[int, list[int]] = defaultdict(list)
    guesses: dict[int, set] = defaultdict(set)
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    games = [row[0] for row in con.execute("SELECT id FROM games WHERE variant = ?", (variant,))]
    for game in games:
        moves = con.execute("SELECT side, move, book, score_mate FROM moves WHERE game_id = ? "
                            "ORDER BY ply", (game,)).fetchall()
        position = Position(variant)
        seeds = []
        for _side, move, _book, _mate in moves:
            seeds.append(position.variant.seeds_on_board(position.state))
            guesses[seeds[-1] // BIN * BIN].add(position.variant.moves_left(position.state))
            position.push(move)
        for i, (side, _move, book, mate) in enumerate(moves):
            if book or mate is not None:
                continue
            left = 0
            for later_side, _later, _book, later_mate in moves[i:]:
                if later_side != side:
                    continue
                if later_mate is not None:
                    break
                left += 1
            counts[seeds[i] // BIN * BIN].append(left)
    return counts, guesses


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
