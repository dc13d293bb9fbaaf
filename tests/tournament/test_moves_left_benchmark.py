"""tournament/moves_left.py (benchmarks/moves_left.py prints it): the
moves a side still thinks about, from a run's record (the figures Kalah's
and Ayoayo's time guess was fitted to)."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner

from bingwa.cli import main
from bingwa.tournament.moves_left import thinking_moves


def test_each_move_counts_the_moves_its_side_makes_until_a_proven_score(tmp_path):
    db = tmp_path / "run.sqlite"
    result = CliRunner().invoke(main, ["tournament", "-b", "random", "-b", "greedy", "-v", "kalah",
                                       "--rounds", "1", "--depth", "1", "--opening-plies", "2",
                                       "--progress", "none", "--db", str(db)])
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(db)
    games = [g for (g,) in con.execute("SELECT id FROM games ORDER BY id")]
    sides = {g: [side for (side,) in con.execute(
        "SELECT side FROM moves WHERE game_id = ? AND book = 0 ORDER BY ply", (g,))] for g in games}
    # no bot here reports a proven score: a move counts its side's moves to the end
    expected = []
    for g in games:
        for side in (0, 1):
            expected += range(1, sides[g].count(side) + 1)
    counts, guesses = thinking_moves(str(db), "kalah")
    assert sorted(n for values in counts.values() for n in values) == sorted(expected)
    assert guesses[44] == {14}  # Kalah's guess: a quarter of the seeds plus 3
    # South's third move of the first game reports a proven score: South's
    # earlier moves count up to it, and it no longer counts at all
    first = games[0]
    south = [ply for (ply,) in con.execute(
        "SELECT ply FROM moves WHERE game_id = ? AND book = 0 AND side = 0 ORDER BY ply", (first,))]
    con.execute("UPDATE moves SET score_mate = 5 WHERE game_id = ? AND ply = ?", (first, south[2]))
    con.commit()
    n = len(south)
    expected.remove(n)
    expected.remove(n - 1)
    expected.remove(n - 2)
    expected += [2, 1]
    counts, _ = thinking_moves(str(db), "kalah")
    assert sorted(n for values in counts.values() for n in values) == sorted(expected)
