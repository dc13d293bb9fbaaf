"""The single-board judge (engine/oware_judge.py) against the exhaustive,
history-aware solver, and benchmarks/databases.py judge."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from bingwa.engine import tablebase
from bingwa.engine.oware_exhaustive import ExhaustiveSolver, boards
from bingwa.engine.oware_judge import BoardJudge

pytest.importorskip("bingwa.engine._owaredb")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "databases.py"
TWO_SEEDS_CHASING = (0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("databases")
    tablebase.build(folder, 6, prove=True)
    return folder


@pytest.fixture(scope="module")
def small(small_dir: Path):
    return tablebase.open_tablebase(small_dir)


@pytest.fixture(scope="module")
def exhaustive(small) -> ExhaustiveSolver:
    """Every position of 0..5 seeds solved, 6 seeds opened for samples."""
    solver = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value)
    solver.solve(5)
    solver.open_level(6)
    return solver


def truth(solver: ExhaustiveSolver, board: tuple[int, ...], side: int) -> int:
    return solver.top((board, (0, 0), side))


def sample(seeds: int, count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    rng = random.Random(seed)
    return [(board, rng.randint(0, 1)) for board in rng.sample(list(boards(seeds)), count)]


def test_every_board_of_two_to_four_seeds_is_the_exhaustive_value(small, exhaustive) -> None:
    judge = BoardJudge(guess=lambda s: tablebase.entry(small, s).value)
    judged = 0
    for seeds in range(2, 5):
        for board in boards(seeds):
            for side in (0, 1):
                found = judge.judge(board, side)
                assert found.value == truth(exhaustive, board, side), (board, side, found)
                judged += 1
    assert judged == 2 * (78 + 364 + 1365)


def test_a_sample_of_five_and_six_seeds_is_the_exhaustive_value(small, exhaustive) -> None:
    """Each board by a judge of its own, so nothing is carried over."""
    for seeds, count in ((5, 30), (6, 4)):
        for board, side in sample(seeds, count, seeds):
            judge = BoardJudge(guess=lambda s: tablebase.entry(small, s).value)
            found = judge.judge(board, side)
            assert found.value == truth(exhaustive, board, side), (board, side, found)


def test_two_seeds_chasing_each_other_are_worth_nothing(small) -> None:
    """The two seeds can never capture: the game ends by repetition with one
    seed on each row. The databases store +2 there (cycle-dependent)."""
    stored = tablebase.entry(small, (TWO_SEEDS_CHASING, (0, 0), 0))
    assert (stored.value, stored.cycle) == (2, True)
    assert BoardJudge(guess=lambda s: tablebase.entry(small, s).value).judge(
        TWO_SEEDS_CHASING).value == 0
    assert BoardJudge().judge(TWO_SEEDS_CHASING).value == 0


@pytest.mark.parametrize("wrong", [
    lambda value, seeds: -value,  # the opposite of every database value
    lambda value, seeds: seeds,  # the best there could be, everywhere
    lambda value, seeds: value + 4,
])
def test_wrong_guesses_cost_nodes_never_a_wrong_value(small, exhaustive, wrong) -> None:
    """The database values only order the moves and pick the first
    threshold: guesses far from them change no judgement."""
    right = BoardJudge(guess=lambda s: tablebase.entry(small, s).value)
    bad = BoardJudge(guess=lambda s: wrong(tablebase.entry(small, s).value, sum(s[0])))
    cases = [(b, side) for b in boards(3) for side in (0, 1)] + sample(4, 60, 7) + sample(5, 15, 8)
    for board, side in cases:
        value = truth(exhaustive, board, side)
        assert bad.judge(board, side).value == value, (board, side)
        assert right.judge(board, side).value == value, (board, side)
    assert bad.nodes > right.nodes


def test_a_first_threshold_far_off_changes_no_value(small, exhaustive) -> None:
    for board, side in sample(5, 8, 9):
        value = truth(exhaustive, board, side)
        for first in (-5, 5, value + 2, value - 2):
            assert BoardJudge().judge(board, side, first=first).value == value


def test_the_bounds_worked_out_first_change_no_value_and_save_nodes(small, exhaustive) -> None:
    """Point 5: the pair of every reached position, before any proof."""
    guess = lambda s: tablebase.entry(small, s).value  # noqa: E731
    cases = sample(4, 80, 3) + sample(5, 10, 4)
    with_pairs, without = BoardJudge(guess=guess), BoardJudge(guess=guess)
    without.prepared = False
    for board, side in cases:
        value = truth(exhaustive, board, side)
        assert with_pairs.judge(board, side).value == value
        assert without.judge(board, side).value == value
    assert with_pairs.nodes < without.nodes


def test_a_judgement_stopped_at_its_cap_proves_only_true_bounds(small, exhaustive) -> None:
    """A cap stops a judgement with the bounds proven so far, which hold;
    the same judge, uncapped, then finds the exact value."""
    judge = BoardJudge()
    stopped = 0
    for board, side in sample(5, 30, 5):
        value = truth(exhaustive, board, side)
        found = judge.judge(board, side, node_cap=3)
        assert found.lower <= value <= found.upper, (board, side, found)
        stopped += found.value is None
        assert judge.judge(board, side).value == value
    assert stopped > 5


def judge_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "judge", *args],
                          capture_output=True, text=True, timeout=300)


def test_the_judge_command_prints_each_value(small_dir: Path, tmp_path: Path) -> None:
    result = judge_command("0,1,0,0,0,1/0,0,0,0,0,0", "0,0,0,0,0,1/1,1,0,0,0,1",
                           "--dir", str(small_dir))
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| 0,")]
    assert rows[0].split("|")[4].strip() == "+0"
    assert "+2 (not proven" in rows[0]
    assert rows[1].split("|")[4].strip() == "+2"  # docs/databases.md: the first wrong settled entry
    disputed = tmp_path / "disputed.txt"
    disputed.write_text("# seeds board other bingwa\n2 0,1,0,0,0,1/0,0,0,0,0,0 0 2\n")
    result = judge_command("--disputed", str(disputed))
    assert result.returncode == 0, result.stderr
    assert "| +0 | +2 | other |" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["1,2,3/4,5,6"], "South's row must be 6 counts"),
    (["0,0,0,0,0,1"], "two rows of 6 pits"),
    (["0,0,0,0,0,1/0,0,x,0,0,0"], "North's row must be 6 counts"),
    (["0,0,0,0,0,1/0,0,0,0,0,0", "--node-cap", "0"], "a whole number above 0"),
    ([], "give boards or --disputed FILE"),
])
def test_the_judge_command_refuses_bad_input_in_one_line(args, message) -> None:
    result = judge_command(*args)
    assert result.returncode == 2
    assert message in result.stderr.splitlines()[-1]
    assert "Traceback" not in result.stderr


def test_a_bad_disputed_file_is_one_line(tmp_path: Path) -> None:
    disputed = tmp_path / "disputed.txt"
    disputed.write_text("3 0,1,0,0,0,1/0,0,0,0,0,0 0 2\n")
    result = judge_command("--disputed", str(disputed))
    assert result.returncode == 2
    assert result.stderr.strip().endswith(":1: the board holds 2 seeds, not 3")
    result = judge_command("--disputed", str(tmp_path / "missing.txt"))
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_the_judges_import_none_of_the_code_they_judge():
    """engine/oware_exhaustive.py and engine/oware_judge.py are the
    independent reference: the databases and the search stay out of them."""
    import ast

    import bingwa.engine.oware_exhaustive as exhaustive
    import bingwa.engine.oware_judge as judge

    allowed = {"bingwa.engine.oware", "bingwa.engine.tworow", "bingwa.engine.oware_exhaustive"}
    for module in (exhaustive, judge):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.module}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        bingwa = {name for name in imported if name.startswith("bingwa")}
        assert bingwa <= allowed, (module.__name__, bingwa - allowed)
