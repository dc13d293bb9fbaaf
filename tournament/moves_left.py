"""The moves a side still thinks about, read from a tournament or SPRT
record (storage.py's SQLite file): the figures ``Variant.moves_left``, the
time manager's guess for Kalah and Ayoayo, was fitted to
(benchmarks/moves_left.py prints them; docs/strength.md, Time management).

For each engine move that is neither a book move nor already a proven
result, it counts the moves that side made from there until its search
first reported a proven score (after which a move takes milliseconds) or
the game ended, by the seeds on the board.
"""

from __future__ import annotations

import sqlite3
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
