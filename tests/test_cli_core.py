"""The command line's core commands: perft, variants, demo, and one clear
error line for bad input."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_perft_prints_count_time_and_rate():
    result = run("perft", "oware", "5")
    assert result.exit_code == 0
    assert "perft(5) = 5219" in result.output
    assert "leaves/s" in result.output


def test_perft_divide_sums_to_the_total():
    result = run("perft", "kalah", "4", "--divide")
    lines = result.output.splitlines()
    parts = [line.split(": ") for line in lines if len(line) > 1 and line[1] == ":"]
    assert [p[0] for p in parts] == list("abcdef")
    assert sum(int(p[1]) for p in parts) == 942
    assert "perft(4) = 942" in result.output


def test_perft_from_a_position_with_moves_and_options():
    result = run("perft", "oware", "1", "--position", "0,0,0,0,0,2/1,2,0,0,0,0 22 21 s",
                 "-o", "grandslam=forbidden")
    assert "perft(1) = 1" in result.output
    result = run("perft", "kalah pits=3 seeds=2", "2", "--moves", "b")
    assert result.exit_code == 0 and "perft(2) =" in result.output


def test_bad_input_gets_one_error_line_and_a_nonzero_exit():
    for args, message in [
        (("perft", "owre", "3"), "unknown variant 'owre'"),
        (("perft", "oware", "3", "-p", "4,4/4,4 0 0 s"), "South's row has 2 pits, not 6"),
        (("perft", "oware", "3", "-m", "a a"), "move 2: a: not your pit"),
        (("perft", "oware", "3", "-o", "grandslam=perhaps"), "grandslam takes one of"),
    ]:
        proc = subprocess.run(
            [sys.executable, "-m", "bingwa", *args], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2, args
        assert proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and message in lines[0], proc.stderr
        assert "Traceback" not in proc.stderr


def test_variants_lists_every_variant_with_options():
    result = run("variants")
    assert "oware" in result.output and "grandslam=nocapture|forbidden" in result.output
    assert "kalah" in result.output and "pits=1..12" in result.output


def test_demo_plays_games_on_every_variant():
    result = run("demo", "--games", "2", "--depth", "4")
    assert result.exit_code == 0, result.output
    assert "oware: perft(4) = 1014" in result.output
    assert result.output.count("game 2:") >= 3
    assert "alphabeta vs greedy" in result.output and "wins: alphabeta" in result.output
