"""Check the bench signature: the node count of ``bingwa bench`` must equal
the last ``Bench: N`` in the git history (the commit that last changed
search behaviour says what the search does now).

    python benchmarks/check_bench.py [--bingwa PATH] [--repo DIR]

Exit status 0 when they match, or when the history has no ``Bench:`` line
yet (or no history at all: an exported tree), in which case the value is
just printed; 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_LINE = re.compile(r"^\s*Bench:\s*(\d+)\s*$", re.MULTILINE)
NODES_LINE = re.compile(r"^Nodes searched:\s*(\d+)\s*$", re.MULTILINE)


def last_signature(root: Path = ROOT) -> int | None:
    """N of the newest commit message holding ``Bench: N`` (None: none)."""
    try:
        log = subprocess.run(
            ["git", "-C", str(root), "log", "--format=%B%x00"],
            capture_output=True, text=True, check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for message in log.split("\x00"):
        found = BENCH_LINE.findall(message)
        if found:
            return int(found[-1])
    return None


def bingwa_command(explicit: str | None) -> list[str]:
    if explicit:
        return [explicit]
    beside = Path(sys.executable).with_name("bingwa")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("bingwa")
    if found:
        return [found]
    return [sys.executable, "-m", "bingwa"]


def bench_nodes(command: list[str]) -> int:
    """Run the bench (outside the source tree, which must not shadow the
    installed package) and read its node count."""
    with tempfile.TemporaryDirectory() as scratch:
        out = subprocess.run(
            [*command, "bench"], capture_output=True, text=True, cwd=scratch
        )
    if out.returncode != 0:
        raise SystemExit(f"check_bench: `bingwa bench` failed:\n{out.stderr.strip()}")
    found = NODES_LINE.findall(out.stdout)
    if not found:
        raise SystemExit(f"check_bench: no 'Nodes searched' line in:\n{out.stdout}")
    return int(found[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bingwa", help="the bingwa command to run (default: the installed one)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="the git checkout (default: this one)")
    args = parser.parse_args(argv)
    nodes = bench_nodes(bingwa_command(args.bingwa))
    expected = last_signature(args.repo)
    if expected is None:
        print(f"Bench: {nodes} (no 'Bench:' line in the history yet)")
        return 0
    if nodes != expected:
        print(f"check_bench: bingwa bench gives {nodes} nodes, the last commit "
              f"signature says Bench: {expected}", file=sys.stderr)
        return 1
    print(f"Bench: {nodes} matches the history")
    return 0


if __name__ == "__main__":
    sys.exit(main())
