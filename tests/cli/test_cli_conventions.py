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

SHORT_MEANINGS = {"-v": "--variant", "-o": "--option", "-b": "--bot", "-B": "--bot-option",
                  "-p": "--position", "-j": "--jobs"}


def every_command(group: click.Group = main, prefix: str = ""):
    """Every command, those of groups (``solve build``) too."""
    for name, command in group.commands.items():
        yield prefix + name, command
        if isinstance(command, click.Group):
            yield from every_command(command, f"{prefix}{name} ")


def options_of_every_command():
    for name, command in every_command():
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


def test_one_spelling_for_the_variant_the_position_and_the_threads() -> None:
    """-v/--variant, -p/--position, -j/--jobs in every command (README's
    conventions); the old positional spellings survive only as arguments
    the help calls deprecated."""
    for name, command in every_command():
        options = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
        arguments = [p.name for p in command.params if isinstance(p, click.Argument)]
        assert "variant" not in arguments and "position" not in arguments, (name, arguments)
        if {"old_variant", "words"} & set(arguments):
            assert {"-v", "--variant"} <= options, name
            assert "Deprecated (still read until bingwa 0.2)" in (command.epilog or ""), name
        for long in ("--concurrency", "--threads"):
            if long in options:
                assert "--jobs" in options, (name, options)  # an old spelling, as an alias


OLD_AND_NEW = [
    (["perft", "kalah", "3"], ["perft", "-v", "kalah", "3"]),
    (["perft", "kalah", "2", "--divide"], ["perft", "--variant", "kalah", "2", "--divide"]),
    (["analyse", "kalah", "-d", "3"], ["analyse", "-v", "kalah", "-d", "3"]),
]


@pytest.mark.parametrize("old, new", OLD_AND_NEW, ids=lambda args: " ".join(args))
def test_the_old_positional_variant_is_still_read(old, new) -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    before, after = runner.invoke(main, old), runner.invoke(main, new)
    assert before.exit_code == 0 == after.exit_code, (before.output, after.output)
    drop_times = lambda text: [line for line in text.splitlines()  # noqa: E731
                               if not line.startswith(("time:", "info "))]
    assert drop_times(before.output) == drop_times(after.output)
    default = runner.invoke(main, [word for word in old if word != "kalah"])  # oware
    assert default.exit_code == 0 and drop_times(default.output) != drop_times(before.output)


def test_play_reads_the_variant_both_ways_and_refuses_it_twice() -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    for args in (["play", "kalah"], ["play", "-v", "kalah"]):
        result = runner.invoke(main, [*args, "--bot", "random"], input="quit\n")
        assert result.exit_code == 0 and result.output.startswith("kalah: you play South"), result.output
    twice = runner.invoke(main, ["play", "kalah", "-v", "bao"], input="quit\n")
    assert twice.exit_code == 2
    assert twice.output == ("bingwa: error: the variant is given twice, as 'kalah' and as -v bao: "
                            "give -v NAME only (see bingwa play --help)\n")
    assert runner.invoke(main, ["play", "a", "b"]).output.startswith("bingwa: error: too many arguments: a b")
    assert "Deprecated (still read until bingwa 0.2)" in runner.invoke(main, ["play", "--help"]).output


def test_solve_reads_the_variant_and_the_position_both_ways(tmp_path) -> None:
    from click.testing import CliRunner

    runner = CliRunner()
    folder = str(tmp_path)
    new = runner.invoke(main, ["solve", "build", "--max-seeds", "3", "--jobs", "2", "--dir", folder])
    old = runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "3", "-j", "1", "--dir", folder])
    assert new.exit_code == 0 == old.exit_code, (new.output, old.output)
    position = "0,0,0,1,1,0/0,1,0,0,0,0 23 22 s"
    answers = [runner.invoke(main, ["solve", "query", *args, "--dir", folder]) for args in (
        ["-p", position], ["-v", "oware", "-p", position], ["oware", position], [position],
        ["oware", "-p", position])]
    assert all(a.exit_code == 0 for a in answers), [a.output for a in answers]
    assert len({a.output for a in answers}) == 1 and answers[0].output.startswith("value ")
    missing = runner.invoke(main, ["solve", "query", "--dir", folder])
    assert missing.exit_code == 2 and "give the position: -p TEXT" in missing.output


def test_the_tournament_reads_jobs_and_its_old_spelling_concurrency(tmp_path) -> None:
    from click.testing import CliRunner

    from bingwa.tournament.storage import Store

    for spelling in ("--jobs", "--concurrency", "-j"):
        db = tmp_path / f"{spelling.strip('-')}.sqlite"
        result = CliRunner().invoke(main, ["tournament", "-b", "random", "-b", "greedy", "-v", "kalah",
                                           "-o", "pits=3", "--depth", "1", "--rounds", "1",
                                           "--opening-plies", "0", spelling, "2", "--progress", "none",
                                           "--db", str(db)])
        assert result.exit_code == 0, result.output
        assert Store(db).run().config["concurrency"] == 2


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
