"""``bingwa regress`` (bingwa/cli_regress.py): a git revision built once into
its own environment, then ``bingwa sprt`` of this install against it, with
SPRT's exit status; a bad revision or a failed build is one line, exit 3.

The fast tests stand a cached build in for the real one (a ``bin/bingwa``
that runs this install); the real build is the slow test at the end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bingwa import cli_regress
from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, ["regress", *args])


def git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository of one commit whose setup.py cannot build."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "setup.py").write_text("raise SystemExit('this revision does not build')\n")
    git(root, "add", "setup.py")
    git(root, "commit", "-q", "-m", "broken")
    return root


def fake_build(cache: Path, commit: str) -> Path:
    """A complete cached build of ``commit`` whose engine is this install's."""
    venv = cache / commit
    script = cli_regress.engine_command(venv)
    script.parent.mkdir(parents=True)
    this = Path(sys.executable).with_name("bingwa")
    script.write_text(f"#!/bin/sh\nexec {this} \"$@\"\n")
    script.chmod(0o755)
    (venv / cli_regress.COMPLETE_MARKER).write_text(commit + "\n")
    return venv


def one_line_error(result) -> str:
    lines = result.output.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("bingwa: error: ")
    return lines[0]


def test_a_revision_that_is_not_a_commit_is_one_line_and_exit_3(repo, tmp_path):
    result = run("no-such-branch", "--repo", str(repo), "--cache-dir", str(tmp_path / "c"))
    assert result.exit_code == 3
    assert "'no-such-branch' is not a commit" in one_line_error(result)
    assert not (tmp_path / "c").exists() or not any((tmp_path / "c").iterdir())


def test_outside_a_git_repository_is_one_line_and_exit_3(tmp_path):
    result = run("HEAD", "--repo", str(tmp_path), "--cache-dir", str(tmp_path / "c"))
    assert result.exit_code == 3
    assert "is not in a git repository" in one_line_error(result)


def test_regress_chooses_the_base_itself(repo, tmp_path):
    result = run("HEAD", "--repo", str(repo), "--base", "greedy")
    assert result.exit_code == 3
    assert "regress chooses --base itself" in one_line_error(result)


def test_a_failed_build_is_one_line_exit_3_and_leaves_nothing_to_reuse(repo, tmp_path):
    cache = tmp_path / "cache"
    commit = git(repo, "rev-parse", "HEAD")
    result = run("HEAD", "--repo", str(repo), "--cache-dir", str(cache), "--nodes", "10")
    assert result.exit_code == 3
    lines = result.output.splitlines()  # the "Building ..." note, then the error
    assert lines[-1].startswith(f"bingwa: error: building {commit[:12]} failed")
    assert len([line for line in lines if line.startswith("bingwa: error")]) == 1
    log = cache / f"{commit}.log"
    assert "this revision does not build" in log.read_text()  # kept for the user
    assert not (cache / commit).exists()


def test_a_cached_build_is_reused_and_the_sprt_exit_status_passed_on(repo, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    commit = git(repo, "rev-parse", "HEAD")
    fake_build(cache, commit)

    def no_build(*args, **kwargs):
        raise AssertionError("a cached revision was built again")

    monkeypatch.setattr(cli_regress, "build_revision", no_build)
    db = tmp_path / "regress.sqlite"
    # one colour-reversed pair at 40 nodes a move cannot decide: inconclusive
    result = run("HEAD", "--repo", str(repo), "--cache-dir", str(cache), "--nodes", "40",
                 "--max-games", "2", "-j", "1", "--progress", "none", "--db", str(db))
    assert result.exit_code == 2, result.output
    assert db.exists()  # the games of the run were recorded


def test_a_weaker_engine_under_test_is_rejected_with_exit_1(repo, tmp_path):
    cache = tmp_path / "cache"
    fake_build(cache, git(repo, "rev-parse", "HEAD"))
    result = run("HEAD", "--repo", str(repo), "--cache-dir", str(cache), "--new", "random",
                 "--nodes", "200", "--elo0", "0", "--elo1", "10", "--alpha", "0.2", "--beta",
                 "0.2", "-j", "2", "--progress", "none", "--db", str(tmp_path / "r.sqlite"))
    assert result.exit_code == 1, result.output  # H0: random is no stronger than alphabeta


@pytest.mark.slow
def test_the_real_build_of_head_plays_an_sprt(tmp_path):
    """A real build (a few minutes on two cores): ``git archive`` of HEAD,
    a new environment, pip install, then a one-pair SPRT."""
    root = Path(__file__).resolve().parents[2]
    if subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    cache = tmp_path / "cache"
    commit = git(root, "rev-parse", "HEAD")
    result = run(commit, "--repo", str(root), "--cache-dir", str(cache), "--nodes", "40",
                 "--max-games", "2", "-j", "1", "--progress", "none",
                 "--db", str(tmp_path / "r.sqlite"))
    assert result.exit_code == 2, result.output
    assert (cache / commit / cli_regress.COMPLETE_MARKER).exists()
