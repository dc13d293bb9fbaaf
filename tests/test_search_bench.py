"""benchmarks/check_bench.py: the bench signature against the git history."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def load_check_bench():
    spec = importlib.util.spec_from_file_location("check_bench", ROOT / "benchmarks" / "check_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_the_newest_bench_line_wins(repo):
    check = load_check_bench()
    commit(repo, "first\n\nBench: 100")
    commit(repo, "second\n\nBench: 4242")
    commit(repo, "docs\n\nNo functional change")
    assert check.last_signature(repo) == 4242


def test_no_bench_line_yet(repo):
    check = load_check_bench()
    commit(repo, "start\n\nNo functional change")
    assert check.last_signature(repo) is None


def test_outside_a_repository_there_is_no_signature(tmp_path):
    assert load_check_bench().last_signature(tmp_path / "nowhere") is None


def test_match_mismatch_and_first_signature(repo, fake_bingwa, capsys):
    check = load_check_bench()
    args = ["--bingwa", fake_bingwa, "--repo", str(repo)]
    commit(repo, "start")
    assert check.main(args) == 0
    assert "Bench: 4242 (no 'Bench:' line" in capsys.readouterr().out
    commit(repo, "search change\n\nBench: 4242")
    assert check.main(args) == 0
    commit(repo, "another\n\nBench: 99")
    assert check.main(args) == 1
    assert "says Bench: 99" in capsys.readouterr().err
