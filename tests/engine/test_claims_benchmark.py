"""benchmarks/claims.py, the play-outs of the exact claims at scale: its
totals do not depend on how the boards are split among processes, and
Ctrl-C prints the totals of the boards it finished (exit 130)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "claims.py"
TOTALS = re.compile(r"^boards (\d+), claims (\d+) \((\d+) wins, (\d+) draws, (\d+) plies played\), "
                    r"refuted (\d+), wins reached later than claimed (\d+), \d+ s$", re.M)


def claims(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300)


def test_the_totals_are_the_same_whatever_the_number_of_processes() -> None:
    small = ("--boards", "24", "--seeds", "4-8", "--depth", "4", "--refuter-depth", "4")
    one, two = claims(*small, "-j", "1"), claims(*small, "-j", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    totals = [TOTALS.search(run.stdout) for run in (one, two)]
    assert totals[0] and totals[1], one.stdout + two.stdout
    assert totals[0].groups() == totals[1].groups()
    assert int(totals[0][1]) == 24 and int(totals[0][2]) > 0  # every board, some claims


@pytest.mark.parametrize("presses", [1, 2])
def test_ctrl_c_prints_what_was_finished_and_exits_130(presses: int) -> None:
    """Pressed twice (or signalled by `timeout`, which signals the process
    and then its group), the clean-up still ends."""
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "--boards", "100000", "--depth", "3",
                             "--refuter-depth", "3", "-j", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)  # the pool starts and finishes some tasks of 100 boards
    for _ in range(presses):
        proc.send_signal(signal.SIGINT)
        time.sleep(0.001)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines() == ["claims: interrupted; what was finished:"]
    totals = TOTALS.search(out)
    assert totals, out
    # whole tasks only: each is every 1000th board of the 100,000
    assert 0 <= int(totals[1]) < 100000 and int(totals[1]) % 100 == 0
