"""Bad input at the command line is one line that says what is wrong
(issue 29, section 3): a database whose folder is missing, a database
folder that is a file, a run or an anchor that is not there, a negative
depth; and the tournament's line mode after a one-sided start."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(result, status: int = 2) -> str:
    assert result.exit_code == status, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bingwa: error: "), result.output
    return lines[0].removeprefix("bingwa: error: ")


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
