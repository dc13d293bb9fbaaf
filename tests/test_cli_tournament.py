"""``bingwa tournament`` and ``bingwa sprt`` options checked before a run
starts (the runs themselves are in test_tournament_runner.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command", ["tournament", "sprt"])
@pytest.mark.parametrize("option", ["--ready-timeout", "--start-timeout"])
@pytest.mark.parametrize("value", ["0", "-1", "-0.5", "nan", "inf", "soon"])
def test_a_timeout_that_is_no_positive_number_of_seconds_gets_one_error_line(
        tmp_path, command, option, value):
    db = tmp_path / "never.sqlite"
    engines = ("--new", "random", "--base", "greedy") if command == "sprt" else ("--bot", "random",
                                                                                "--bot", "greedy")
    result = run(command, *engines, "--depth", "1", option, value, "--db", str(db))
    assert result.exit_code == (3 if command == "sprt" else 2)  # sprt: 2 is "inconclusive"
    # stdout and stderr together: one line
    assert result.output.splitlines() == [
        f"bingwa: error: {option} takes a number of seconds more than 0, not {value}"]
    assert not db.exists()  # refused before anything was opened


def test_the_timeouts_are_documented_with_their_defaults():
    result = run("tournament", "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())  # the help is wrapped
    assert ("--ready-timeout SECONDS Seconds an engine may take to answer isready with readyok"
            in text)
    assert "later is a stall. [default: 5]" in text
    assert ("--start-timeout SECONDS Seconds a starting engine may take to answer uci with uciok; "
            "later is a stall. [default: 10]") in text
