"""benchmarks/check_bench.py: the bench signature against the git history
(its command line, run as CI runs it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "check_bench.py"
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def check_bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args],
                          capture_output=True, text=True, timeout=120)


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def commit(repo: Path, message: str) -> None:
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
        "--allow-empty", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q")
    return tmp_path


@pytest.fixture
def fake_bingwa(tmp_path: Path) -> str:
    script = tmp_path / "fake-bingwa"
    script.write_text(f"#!{sys.executable}\nprint('Nodes searched: 4242')\nprint('Nodes/second: 1')\n")
    script.chmod(0o755)
    return str(script)


def test_the_newest_bench_line_wins(repo, fake_bingwa):
    commit(repo, "first\n\nBench: 100")
    commit(repo, "second\n\nBench: 4242")
    commit(repo, "docs\n\nNo functional change")
    done = check_bench("--bingwa", fake_bingwa, "--repo", str(repo))
    assert done.returncode == 0 and "Bench: 4242 matches the history" in done.stdout


def test_no_bench_line_yet(repo, fake_bingwa):
    commit(repo, "start\n\nNo functional change")
    done = check_bench("--bingwa", fake_bingwa, "--repo", str(repo))
    assert done.returncode == 0 and "no 'Bench:' line in the history yet" in done.stdout


def test_outside_a_repository_there_is_no_signature(tmp_path, fake_bingwa):
    done = check_bench("--bingwa", fake_bingwa, "--repo", str(tmp_path / "nowhere"))
    assert done.returncode == 0 and "no 'Bench:' line in the history yet" in done.stdout


def test_match_mismatch_and_first_signature(repo, fake_bingwa):
    args = ["--bingwa", fake_bingwa, "--repo", str(repo)]
    commit(repo, "start")
    done = check_bench(*args)
    assert done.returncode == 0
    assert "Bench: 4242 (no 'Bench:' line" in done.stdout
    commit(repo, "search change\n\nBench: 4242")
    assert check_bench(*args).returncode == 0
    commit(repo, "another\n\nBench: 99")
    done = check_bench(*args)
    assert done.returncode == 1
    assert "says Bench: 99" in done.stderr
