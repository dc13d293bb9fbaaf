"""benchmarks/databases.py compare: the database against the exhaustive,
history-aware solver, count by count (docs/databases.md)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "databases.py"


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
    # what `bingwa solve build` gives: up to 8 seeds every entry exact, none wrong
    assert all(counted[n][7:9] == [counted[n][0], "0"] for n in range(5))
    assert rows(shared.stdout) == counted
    assert "Traceback" not in alone.stderr + shared.stderr


def test_compare_refuses_bad_arguments_in_one_line(tmp_path: Path) -> None:
    result = compare("--max-seeds", "2", "-j", "0")
    assert result.returncode == 2
    assert "a whole number above 0, not '0'" in result.stderr
    assert "Traceback" not in result.stderr
    result = compare("--max-seeds", "2", "--sample", "5", "--keep", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1].endswith(
        "--keep keeps a count solved in full: not with --sample")
    assert not any(tmp_path.iterdir())


def test_compare_keeps_the_values_it_solved_and_goes_on_from_them(tmp_path: Path) -> None:
    first = compare("--max-seeds", "4", "--keep", str(tmp_path))
    assert first.returncode == 0, first.stderr
    kept = tmp_path / "compare-4.txt"
    lines = kept.read_text().splitlines()
    assert len(lines) == 1365  # every board of 4 seeds, with its value
    assert "0,0,0,0,0,0,0,0,0,0,0,4 -4" in lines  # South has no move: North keeps 4
    # a run killed while writing leaves a line cut short: it is solved again
    kept.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:-1])
    again = compare("--max-seeds", "4", "--keep", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert "1,364 boards kept" in again.stderr and "1 to solve" in again.stderr
    assert rows(again.stdout) == rows(first.stdout)
    assert sorted(kept.read_text().splitlines()) == sorted(lines)


def test_compare_stopped_by_sigterm_says_so_and_ends_its_workers(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), "compare", "--max-seeds", "7", "-j", "2",
         "--keep", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("| seeds")  # the workers are started
    workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True,
                             text=True).stdout.split()
    assert workers
    process.terminate()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert err.strip().splitlines()[-1] == "interrupted"
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_build_builds_what_a_user_gets_by_default(tmp_path: Path) -> None:
    """``build`` times what ``bingwa solve build`` builds: a new folder
    proving, the small counts searched over every line; ``--no-prove`` the
    settled estimates; a folder built the other way refused in one line."""
    from bingwa.engine import tablebase

    def build(folder: Path, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(SCRIPT), "build", "--max-seeds", "5",
                               "--dir", str(folder), *extra],
                              capture_output=True, text=True, timeout=300)

    default = build(tmp_path / "default")
    assert default.returncode == 0, default.stderr
    assert "proving, 0..5 searched over every line" in default.stdout
    counts = rows(default.stdout)
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert counts[5][0] == "4,368"
    level = tablebase.read_level(tmp_path / "default" / tablebase.file_name(5), 5, 0)
    assert level.proven and level.exact_seeds == tablebase.DEFAULT_EXACT_SEEDS
    # the bytes of the count's three files: values, proven bounds, ranks
    assert counts[5][1] == f"{sum(p.stat().st_size for p in (tmp_path / 'default').glob('*-05.*')):,}"

    settled = build(tmp_path / "settled", "--no-prove")
    assert settled.returncode == 0, settled.stderr
    assert "settled (--no-prove)" in settled.stdout
    assert not list((tmp_path / "settled").glob("*.bwbd"))

    refused = build(tmp_path / "settled")  # built without --prove: goes on so
    assert refused.returncode == 0, refused.stderr
    wrong = build(tmp_path / "default", "--no-prove")
    assert wrong.returncode != 0 and wrong.stdout.count("\n") <= 1
    assert wrong.stderr.count("\n") == 1 and "--prove" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    for bad in (("--max-seeds", "-1"), ("-j", "0")):  # refused before any line is printed
        refused = build(tmp_path / "bad", *bad)
        assert refused.returncode != 0 and not refused.stdout
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
