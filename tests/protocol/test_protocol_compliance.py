"""``bingwa compliance`` passes every built-in bot, in process and through
the command line, and catches a broken engine."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.testbots import RecordingBot

from bingwa.protocol.bots import bot_names, find_bot
from bingwa.protocol.client import Engine
from bingwa.protocol.compliance import run_compliance

TESTS = Path(__file__).resolve().parents[1]


def quick_bot(name: str):
    """The bot at a setting that keeps the checks fast (with the pure
    Python rules too): MCTS has no depth, so ``go depth 1`` runs its
    default number of playouts."""
    bot = find_bot(name)()
    if any(option.name == "Simulations" for option in bot.options()):
        bot.set_option("Simulations", "200")
    return bot


@pytest.mark.parametrize("name", bot_names())
def test_every_builtin_bot_passes_compliance(name):
    lines: list[str] = []
    report = run_compliance(make_engine=lambda: Engine.in_process(quick_bot(name)),
                            echo=lines.append)
    assert report.passed, "\n".join(lines)
    names = [check.name for check in report.checks]
    for wanted in ("handshake", "options", "positions of oware", "clock forms", "info lines",
                   "one bestmove per go", "isready during a search", "stop", "quit"):
        assert wanted in names


def test_compliance_command_passes_bingwa_engine():
    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "compliance", "--variant", "oware", "--",
         sys.executable, "-m", "bingwa", "engine", "--bot", "random"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == f"{len(lines) - 1} of {len(lines) - 1} checks passed"
    assert all(line.startswith("PASS ") for line in lines[:-1])


def test_compliance_command_fails_a_broken_engine():
    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "compliance", "--timeout", "1", "--",
         sys.executable, str(TESTS / "support" / "fake_engine.py")],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 1
    failed = {line.split(":")[0] for line in done.stdout.splitlines() if line.startswith("FAIL")}
    assert {"FAIL options", "FAIL positions of oware", "FAIL clock forms", "FAIL queries",
            "FAIL isready during a search", "FAIL info lines"} <= failed
    assert "PASS handshake" in done.stdout and "PASS isready" in done.stdout


# -- issue 13, item 12: a non-engine fails fast, once, with no vacuous pass ---------------
def run_command(*words: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bingwa", "compliance", *words],
                          capture_output=True, text=True, timeout=120)
    return done, time.monotonic() - start


def test_compliance_against_cat_fails_fast_with_one_failure():
    cat = shutil.which("cat")
    if cat is None:
        pytest.skip("no cat on this system")
    done, elapsed = run_command("--", cat)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert [line for line in lines if line.startswith(("PASS", "FAIL"))] == [
        "FAIL handshake: EngineStartError: the engine wrote back the 'uci' it was sent: "
        "it echoes its input, it is no engine (after: uci)"]
    assert lines[-1] == "0 of 1 checks passed (the others need a handshake)"
    assert elapsed < 10  # it took 3 minutes


def test_compliance_against_a_silent_program_fails_its_handshake_alone():
    done, elapsed = run_command("--timeout", "1", "--", sys.executable, "-c",
                                "import time; time.sleep(30)")
    assert done.returncode == 1
    assert [line.split(":")[0] for line in done.stdout.splitlines()
            if line.startswith(("PASS", "FAIL"))] == ["FAIL handshake"]
    assert elapsed < 10


def test_an_engine_that_writes_no_info_line_has_its_info_check_skipped_not_passed():
    lines: list[str] = []
    report = run_compliance(make_engine=lambda: Engine.in_process(RecordingBot()),
                            variants=["oware"], echo=lines.append)
    assert "SKIP info lines: no info line with search figures (depth, score, pv) in any " \
        "search: nothing to check" in lines
    assert lines[-1].endswith(" checks passed, 1 skipped")
    info = next(check for check in report.checks if check.name == "info lines")
    assert info.skipped and info.verdict == "SKIP"
