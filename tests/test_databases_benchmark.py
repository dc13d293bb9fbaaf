"""benchmarks/databases.py compare: the database against the exhaustive,
history-aware solver, count by count (docs/databases.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "databases.py"


def compare(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "compare", *args],
                          capture_output=True, text=True, timeout=300)


def rows(output: str) -> dict[int, list[str]]:
    """Each count's row, without its seconds and nodes."""
    found = {}
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].isdigit():
            found[int(cells[0])] = cells[1:-2]
    return found


def test_compare_in_two_processes_counts_what_one_process_counts() -> None:
    alone, shared = compare("--max-seeds", "4"), compare("--max-seeds", "4", "-j", "2")
    assert alone.returncode == 0, alone.stderr
    assert shared.returncode == 0, shared.stderr
    counted = rows(alone.stdout)
    assert sorted(counted) == [0, 1, 2, 3, 4]
    assert counted[4][0] == "1,365"  # every board of 4 seeds, South to move
    assert counted[4][3:6] == ["0", "1", "21"]  # wrong: proven, settled, cycle-dependent
    assert rows(shared.stdout) == counted
    assert "Traceback" not in alone.stderr + shared.stderr


def test_compare_refuses_a_bad_number_of_processes_in_one_line() -> None:
    result = compare("--max-seeds", "2", "-j", "0")
    assert result.returncode == 2
    assert "a whole number above 0, not '0'" in result.stderr
    assert "Traceback" not in result.stderr
