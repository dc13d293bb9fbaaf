"""The command line speaks one language: the same short option means the
same thing in every command (-v a variant, -o a variant option, -b a bot,
-B a bot option), and Ctrl-C ends any command with exit status 130 and one
line, ``analyse`` printing the best line it had found."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import IO

import click
import pytest

from bingwa.cli import main

SHORT_MEANINGS = {"-v": "--variant", "-o": "--option", "-b": "--bot", "-B": "--bot-option"}


def options_of_every_command():
    for name, command in main.commands.items():
        for param in command.params:
            if isinstance(param, click.Option):
                yield name, param


@pytest.mark.parametrize("short", sorted(SHORT_MEANINGS))
def test_a_short_option_means_one_thing_in_every_command(short: str) -> None:
    for name, option in options_of_every_command():
        if short in option.opts:
            assert SHORT_MEANINGS[short] in option.opts, (name, option.opts)


def test_every_variant_option_has_its_short_form() -> None:
    for name, option in options_of_every_command():
        for long, short in (("--variant", "-v"), ("--bot-option", "-B"), ("--option", "-o")):
            if long in option.opts:
                assert short in option.opts, (name, option.opts)


def test_bench_takes_variant_options() -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    plain = runner.invoke(main, ["bench", "-v", "kalah", "--depth", "3"])
    small = runner.invoke(main, ["bench", "-v", "kalah", "-o", "pits=4", "--depth", "3"])
    assert plain.exit_code == 0 and small.exit_code == 0, small.output
    assert small.output.startswith("kalah pits=4 ")
    assert plain.output.splitlines()[-2] != small.output.splitlines()[-2]  # Nodes searched
    bad = runner.invoke(main, ["bench", "-v", "oware", "-o", "pits=4"])
    assert bad.exit_code == 2 and "unknown option 'pits' for oware" in bad.output


# -- Ctrl-C ---------------------------------------------------------------------
def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bingwa", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def read_until(stream: IO[str], text: str) -> str:
    seen = ""
    while text not in seen:
        line = stream.readline()
        assert line, f"the output ended before {text!r}: {seen}"
        seen += line
    return seen


def interrupt(proc: subprocess.Popen) -> tuple[str, str, float]:
    """SIGINT now; (rest of stdout, stderr, seconds until the exit)."""
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return out, err, time.monotonic() - sent


@pytest.mark.parametrize("args, started", [
    (("analyse", "bao", "--depth", "60"), "info depth 3 "),
    (("bench", "--verbose", "-v", "kalah", "-v", "bao", "--depth", "9"), "kalah position 1 "),
    (("demo", "-v", "ayoayo", "-v", "bao", "--games", "2", "--search-depth", "8"), "ayoayo: perft"),
    (("play", "oware", "--side", "north", "--time", "600"), "is thinking"),
    (("replay", "RECORD"), "Type help for the commands."),
])
def test_ctrl_c_exits_130_with_one_line(args, started, tmp_path) -> None:
    record = tmp_path / "game.bgn"
    record.write_text('[Variant "oware"]\n[Result "*"]\n\n1. c F *\n')
    proc = start(*[str(record) if a == "RECORD" else a for a in args])
    read_until(proc.stdout, started)
    out, err, seconds = interrupt(proc)
    assert proc.returncode == 130, (out, err)
    assert err == "bingwa: interrupted\n"
    assert seconds < 10
    assert "Traceback" not in out


def test_ctrl_c_ends_the_engine_with_one_line() -> None:
    proc = start("engine")
    proc.stdin.write("uci\n")
    proc.stdin.flush()
    read_until(proc.stdout, "uciok")
    out, err, seconds = interrupt(proc)
    assert proc.returncode == 130 and err == "bingwa: interrupted\n", (out, err)
    assert seconds < 10


def test_an_interrupted_analysis_prints_its_best_line() -> None:
    proc = start("analyse", "oware", "--depth", "60", "--multipv", "2")
    read_until(proc.stdout, "info depth 6 ")
    out, err, _ = interrupt(proc)
    assert proc.returncode == 130 and err == "bingwa: interrupted\n"
    lines = out.splitlines()
    best = next(i for i, line in enumerate(lines) if line.startswith("bestmove "))
    assert lines[best + 1].startswith("Ranked moves (south to move, depth ")
    assert lines[best + 2].split()[0] == "1." and lines[best + 3].split()[0] == "2."
