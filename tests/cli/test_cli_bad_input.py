"""Bad input at the command line is one line that says what is wrong
(issue 29, section 3): a database whose folder is missing, a database
folder that is a file, a run or an anchor that is not there, a negative
depth; and the tournament's line mode after a one-sided start."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bingwa.cli import main
from bingwa.tournament.stats import MatchElo


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(result, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bingwa: error: "), result.output
    return lines[0].removeprefix("bingwa: error: ")


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    """A database with one run of random against greedy (Kalah, 3 pits)."""
    db = tmp_path_factory.mktemp("db") / "t.sqlite"
    result = run("tournament", "-b", "random", "-b", "greedy", "--variant", "kalah", "-o", "pits=3",
                 "--depth", "1", "--rounds", "1", "--opening-plies", "0", "--progress", "none",
                 "--db", str(db))
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.parametrize("command, status", [("tournament", 2), ("sprt", 3)])
def test_a_database_in_a_missing_folder_is_refused_before_any_game(tmp_path, command, status):
    db = tmp_path / "nonexistent" / "x.sqlite"
    engines = (["-b", "random", "-b", "greedy"] if command == "tournament"
               else ["--new", "greedy", "--base", "random"])
    said = one_error_line(run(command, *engines, "--depth", "1", "--db", str(db)), status)
    assert said == f"--db {db}: no such directory {db.parent}"
    assert not db.parent.exists()


def test_a_database_folder_that_is_a_file_says_so(tmp_path):
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n")
    said = one_error_line(run("solve", "build", "oware", "--max-seeds", "2", "--dir", str(a_file)))
    assert said == f"{a_file}: cannot create the folder: it is a file, not a folder"
    inside = a_file / "databases"
    said = one_error_line(run("solve", "build", "oware", "--max-seeds", "2", "--dir", str(inside)))
    assert said == f"{inside}: cannot create the folder: {a_file} is a file, not a folder"
    assert a_file.read_text() == "root:x:0:0\n"


@pytest.mark.parametrize("command", ["ratings", "export"])
def test_a_run_that_is_not_there_is_named(database, command):
    said = one_error_line(run(command, str(database), "--run", "99"))
    assert said == f"{database}: no run 99 (run 1 only)"
    assert run(command, str(database), "--run", "1").exit_code == 0


def test_ratings_refuse_an_anchor_that_never_played(database):
    said = one_error_line(run("ratings", str(database), "--anchor", "foo"))
    assert said == "--anchor foo: no engine of that name played (engines: greedy, random)"
    anchored = run("ratings", str(database), "--anchor", "greedy", "--bootstrap", "0")
    assert anchored.exit_code == 0 and "greedy = 0" in anchored.output, anchored.output
    # the default anchor (random) is no promise: a database without it rates against the mean
    assert run("ratings", str(database), "--bootstrap", "0").exit_code == 0


def test_a_tournament_refuses_an_anchor_it_does_not_enter(tmp_path):
    db = tmp_path / "t.sqlite"
    said = one_error_line(run("tournament", "-b", "random", "-b", "greedy", "--anchor", "foo",
                              "--depth", "1", "--db", str(db)))
    assert said == "--anchor foo: no engine of that name is entered (engines: random, greedy)"
    assert not db.exists()


@pytest.mark.parametrize("wld, line", [
    ((0, 3, 0), "Elo difference: [-inf, +43] one-sided, LOS: 4.2 %, "
                "DrawRatio: 0.0 %"),
    ((3, 0, 0), "Elo difference: [-43, +inf] one-sided, LOS: 95.8 %, "
                "DrawRatio: 0.0 %"),
    ((10, 5, 3), "Elo difference: 99.1 +/- 165.5, LOS: 90.2 %, DrawRatio: 16.7 %"),  # cutechess's
])
def test_the_line_mode_elo_after_a_one_sided_start_is_the_one_sided_interval(wld, line):
    assert MatchElo.from_wld(*wld).line() == line


def test_every_draw_has_an_interval_with_a_width():
    drawn = MatchElo.from_wld(0, 0, 4)
    assert drawn.margin > 100 and "nan" not in drawn.line()


@pytest.mark.parametrize("args", [("perft", "kalah", "-3"), ("perft", "kalah", "-3", "--divide")])
def test_a_negative_depth_is_a_depth_out_of_range(args):
    said = one_error_line(run(*args))
    assert said == ("Invalid value for 'DEPTH': -3 is not in the range 0<=x<=64. "
                    "(see bingwa perft --help)")
