"""tournament/kujifunza_openings.py (and benchmarks/kujifunza_openings.py,
its command line): openings of Bao la Kujifunza that no side can win by
force within the horizon, checked against an exhaustive AND/OR search on
bingwa.engine.Position (support.proofs, not the prover the module
relies on)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from support.proofs import wins_within

from bingwa.engine import Position

pytest.importorskip("bingwa.engine._proof")

from bingwa.tournament.kujifunza_openings import (  # noqa: E402
    Stats,
    build_openings,
    is_open_move,
)

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "kujifunza_openings.py"
HORIZON = 3


def script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300)


def test_no_side_forces_a_win_within_the_horizon_after_any_opening():
    stats = Stats()
    openings = build_openings(6, 4, HORIZON, random.Random(3), stats)
    assert len(openings) == 6
    assert len({pos.text() for pos in openings}) == 6
    for pos in openings:
        assert len(pos.move_stack) == 4 and not pos.is_over()
        for side in (0, 1):
            assert not wins_within(pos, side, HORIZON), (side, pos.text())


def test_every_move_of_an_opening_was_open_when_played():
    for pos in build_openings(3, 4, HORIZON, random.Random(4), Stats()):
        line = Position("kujifunza")
        for move in pos.move_stack:
            line.push(move.text)
            assert not wins_within(line, line.turn, HORIZON), line.text()


def test_a_move_handing_over_a_forced_win_is_not_open():
    start = Position("kujifunza")
    # the prover's "open" is the exhaustive search's "no win within the horizon"
    seen = set()
    for move in start.legal_moves():
        child = start.play(move)
        expected = not wins_within(child, child.turn, HORIZON)
        assert is_open_move(start, move, HORIZON, Stats()) == expected, move.text
        seen.add(expected)
    assert seen == {True, False}  # B8> and B1< hand North a win in 3 plies


def test_the_same_seed_writes_the_same_file(tmp_path):
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    for out in (first, second):
        done = script("--count", "3", "--plies", "3", "--horizon", "3", "--seed", "7",
                      "--output", str(out))
        assert done.returncode == 0, done.stderr
    assert first.read_text() == second.read_text()
    lines = [ln for ln in first.read_text().splitlines() if not ln.startswith("#")]
    assert len(lines) == 3
    for line in lines:  # moves from the start, as --openings reads them
        pos = Position("kujifunza")
        pos.push_all(line.split())
        assert len(pos.move_stack) == 3


@pytest.mark.parametrize("argv, message", [
    (["--count", "0"], "a whole number above 0"),
    (["--horizon", "x"], "a whole number above 0"),
    (["--horizon", "41"], "at most 40 plies"),
])
def test_bad_arguments_are_one_error_line(argv, message):
    done = script(*argv)
    assert done.returncode != 0
    assert message in done.stderr and "Traceback" not in done.stderr


def test_too_few_openings_is_one_line_and_a_failure(tmp_path):
    out = tmp_path / "none.txt"
    # one draw cannot give two openings
    done = script("--count", "2", "--plies", "1", "--horizon", "1", "--max-draws", "1",
                  "--output", str(out))
    assert done.returncode == 1
    assert "of 2 openings found" in done.stderr and len(done.stderr.splitlines()) == 1
    assert not out.exists()
