"""``bingwa regress``: don't let a weaker engine land.

    bingwa regress BASE_REV [--repo DIR] [--cache-dir DIR] [--new CMD] [sprt options]

Builds git revision BASE_REV of the repository into a virtual environment
of its own (cached by commit hash: a revision is built once), then runs
``bingwa sprt --new <this install's engine> --base <that build's engine>``
with the other options as given, and exits with SPRT's exit status: 0 H1
accepted, 1 H0 accepted, 2 inconclusive at --max-games, 3 an error (a bad
revision or a failed build included, with one line saying which).

The engine under test is the ``bingwa`` this command runs from: in a
checkout, ``pip install -e .`` (or ``pip install .`` in CI) makes that the
working tree. The base is built from ``git archive`` of the revision with
``pip install --no-build-isolation`` (non-editable; pip 22.3 or later, run
as ``pip --python``) where the new environment sees Cython and setuptools
through ``--system-site-packages``, else with pip's isolated build, which
fetches them. The cache lives in ``--cache-dir``, else
``$BINGWA_REGRESS_CACHE``, else ``$XDG_CACHE_HOME/bingwa/regress`` (default
``~/.cache/bingwa/regress``): one directory per commit, used only once it
holds a complete build (a ``complete`` marker written last); the build's
log is kept next to it.
"""

from __future__ import annotations

import fcntl
import io
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import click

ERROR_EXIT = 3  # bingwa sprt's exit status for an error
COMPLETE_MARKER = "complete"


class RegressError(Exception):
    """A revision that cannot be resolved or built: one line for the user."""


def regress_fail(message: str) -> NoReturn:
    click.echo(f"bingwa: error: {message}", err=True)
    sys.exit(ERROR_EXIT)


def default_cache_dir() -> Path:
    explicit = os.environ.get("BINGWA_REGRESS_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bingwa" / "regress"


def resolve_revision(repo: Path, revision: str) -> str:
    """The full commit hash of ``revision`` in the git repository ``repo``."""
    if revision.startswith("-"):
        raise RegressError(f"{revision!r} is not a git revision")
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
            capture_output=True, text=True, check=False,
        )
    except OSError as exc:
        raise RegressError(f"cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0 or not done.stdout.strip():
        inside = subprocess.run(["git", "-C", str(repo), "rev-parse", "--git-dir"],
                                capture_output=True, check=False).returncode == 0
        if not inside:
            raise RegressError(f"{repo} is not in a git repository")
        raise RegressError(f"{revision!r} is not a commit of the repository at {repo}")
    return done.stdout.strip()


def engine_command(venv: Path) -> Path:
    """The ``bingwa`` console script of a build (never ``python -m``, which
    would import whatever ``bingwa`` the current directory holds)."""
    return venv / ("Scripts" if os.name == "nt" else "bin") / "bingwa"


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / "python"


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``: two runs never build one commit at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def export_tree(repo: Path, commit: str, dest: Path) -> None:
    """The files of ``commit`` (``git archive``) written under ``dest``."""
    done = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", commit],
                          capture_output=True, check=False)
    if done.returncode != 0:
        detail = done.stderr.decode(errors="replace").strip().splitlines()
        raise RegressError(f"git archive {commit[:12]} failed: {detail[-1] if detail else '?'}")
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            archive.extractall(dest, filter="data")
        else:
            archive.extractall(dest)  # noqa: S202 - our own repository's archive


def build_tools_visible() -> bool:
    """Whether a new ``--system-site-packages`` environment sees Cython and
    setuptools: they must be in the base interpreter's site-packages (a
    virtual environment's own packages are not seen through it)."""
    base = getattr(sys, "_base_executable", sys.executable)
    probe = subprocess.run([base, "-c", "import Cython, setuptools"], capture_output=True,
                           check=False)
    return probe.returncode == 0


def build_revision(repo: Path, commit: str, venv: Path, log: Path) -> None:
    """Build ``commit`` of ``repo`` into a new virtual environment ``venv``
    (pip install, non-editable, compiled extensions required); the output
    of every step goes to ``log``."""
    with tempfile.TemporaryDirectory(prefix=f"bingwa-{commit[:12]}-") as tmp:
        source = Path(tmp) / "src"
        source.mkdir()
        export_tree(repo, commit, source)
        # the build needs Cython and setuptools; where the new environment
        # cannot see them, pip fetches them into an isolated build
        isolation = ["--no-build-isolation"] if build_tools_visible() else []
        steps = [
            # no pip of its own (seconds saved): this one installs into it
            [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)],
            [sys.executable, "-m", "pip", "--python", str(venv_python(venv)), "install",
             *isolation, "--disable-pip-version-check", "--no-input", str(source)],
            # run from the temporary directory: nothing there shadows the install
            [str(venv_python(venv)), "-c", "import bingwa.engine.search, bingwa.engine._oware"],
        ]
        env = dict(os.environ, BINGWA_REQUIRE_EXTENSIONS="1")
        env.setdefault("BINGWA_BUILD_JOBS", str(min(2, os.cpu_count() or 1)))
        env.pop("PYTHONPATH", None)
        with open(log, "w") as out:
            for step in steps:
                out.write(f"$ {' '.join(step)}\n")
                out.flush()
                done = subprocess.run(step, stdout=out, stderr=subprocess.STDOUT, cwd=tmp,
                                      env=env, check=False)
                if done.returncode != 0:
                    raise RegressError(
                        f"building {commit[:12]} failed at `{' '.join(step[:3])} ...` "
                        f"(exit {done.returncode}); its log: {log}"
                    )


def cached_build(repo: Path, commit: str, cache: Path, rebuild: bool = False,
                 echo=click.echo) -> Path:
    """The virtual environment holding a build of ``commit``: built unless
    the cache has a complete one (or ``rebuild``)."""
    venv = cache / commit
    with locked(cache / f"{commit}.lock"):
        if (venv / COMPLETE_MARKER).exists() and engine_command(venv).exists() and not rebuild:
            return venv
        if venv.exists():
            shutil.rmtree(venv)
        log = cache / f"{commit}.log"
        echo(f"Building {commit[:12]} into {venv} (log: {log}) ...", err=True)
        try:
            build_revision(repo, commit, venv, log)
        except BaseException:
            shutil.rmtree(venv, ignore_errors=True)  # never leave a half build to reuse
            raise
        (venv / COMPLETE_MARKER).write_text(commit + "\n")
    return venv


def this_bingwa() -> Path:
    """The ``bingwa`` command of the install running this one."""
    script = Path(sys.executable).with_name("bingwa")
    if script.exists():
        return script
    found = shutil.which("bingwa")
    if found is None:
        regress_fail("cannot find this install's `bingwa` command")
    return Path(found)


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": True})
@click.argument("base_rev")
@click.option("--repo", "repo_dir", type=click.Path(file_okay=False), default=".",
              show_default=True, help="The git repository BASE_REV belongs to.")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Where builds are kept, one per commit (default: ~/.cache/bingwa/regress).")
@click.option("--rebuild", is_flag=True, help="Build BASE_REV again even when cached.")
@click.option("--new", "new_cmd", default=None,
              help="The engine under test (default: this install's `bingwa engine`).")
@click.argument("sprt_args", nargs=-1, type=click.UNPROCESSED)
def regress(base_rev, repo_dir, cache_dir, rebuild, new_cmd, sprt_args) -> None:
    """Run `bingwa sprt` of this install against git revision BASE_REV,
    built (once, cached by commit) into its own virtual environment.
    Options after BASE_REV that are not regress's go to `bingwa sprt`
    (e.g. --nodes 20000 --elo0 -5 --elo1 0 --max-games 2000). Exit
    status: SPRT's (0 H1, 1 H0, 2 inconclusive, 3 an error)."""
    for word in sprt_args:
        if word.split("=")[0] in ("--base", "--resume", "--run"):
            regress_fail(f"regress chooses {word.split('=')[0]} itself: leave it out")
    try:
        repo = Path(repo_dir).resolve()
        commit = resolve_revision(repo, base_rev)
        cache = Path(cache_dir) if cache_dir else default_cache_dir()
        venv = cached_build(repo, commit, cache.resolve(), rebuild)
    except RegressError as exc:
        regress_fail(str(exc))
    except OSError as exc:
        regress_fail(f"cannot build {base_rev}: {exc}")
    except KeyboardInterrupt:
        regress_fail("interrupted while building; nothing was cached")
    bingwa = this_bingwa()
    base_cmd = f"{shlex.quote(str(engine_command(venv)))} engine"
    new = new_cmd or f"{shlex.quote(str(bingwa))} engine"
    click.echo(f"SPRT: {new} against {base_rev} ({commit[:12]}): {base_cmd}", err=True)
    try:
        done = subprocess.run([str(bingwa), "sprt", "--new", new, "--base", base_cmd, *sprt_args],
                              check=False)
    except KeyboardInterrupt:
        sys.exit(ERROR_EXIT)
    sys.exit(done.returncode if done.returncode in (0, 1, 2) else ERROR_EXIT)
