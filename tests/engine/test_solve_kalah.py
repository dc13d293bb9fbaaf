"""The Kalah solver (engine/_kalahsolve.pyx, engine/solvers.py) against an
exhaustive minimax written here on bingwa.engine.Position: the value is the
side to move's final margin with perfect play (the largest margin, not the
fastest win), and the best moves are every move keeping it."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from itertools import product

import pytest
from click.testing import CliRunner

from bingwa.cli import main
from bingwa.engine import Position
from bingwa.engine.solvers import SolverError, default_db_seeds, solve_kalah

kalahsolve = pytest.importorskip("bingwa.engine._kalahsolve")


@cache
def perfect_margin(spec: str, text: str) -> int:
    """Final margin (stores included) for the side to move, both sides
    playing for the largest margin; Kalah has no repetition, so a position
    is its text."""
    pos = Position(spec, text=text)
    outcome = pos.outcome()
    if outcome is not None:
        return outcome.margin(pos.turn)
    values = []
    for move in pos.legal_moves():
        child = pos.play(move)
        value = perfect_margin(spec, child.text())
        values.append(value if child.turn == pos.turn else -value)  # extra turn: no negation
    return max(values)


def move_values(pos: Position) -> dict[str, int]:
    spec = pos.variant.spec()
    got = {}
    for move in pos.legal_moves():
        child = pos.play(move)
        value = perfect_margin(spec, child.text())
        got[move.text] = value if child.turn == pos.turn else -value
    return got


BOARDS = [(2, 2), (2, 3), (3, 1), (3, 2), (4, 1)]


@pytest.mark.parametrize("empty_capture", [False, True])
@pytest.mark.parametrize("pits, seeds", BOARDS)
def test_the_start_value_and_best_moves_are_the_exhaustive_ones(pits, seeds, empty_capture):
    spec = f"kalah pits={pits} seeds={seeds} empty-capture={str(empty_capture).lower()}"
    pos = Position(spec)
    values = move_values(pos)
    want = max(values.values())
    for db_seeds in (0, 4, None):  # search alone, search over databases, the default
        found = solve_kalah(pos, db_seeds=db_seeds, table_mb=1)
        assert found.value == want == perfect_margin(spec, pos.text())
        assert sorted(found.best_moves) == sorted(m for m, v in values.items() if v == want)


@pytest.mark.parametrize("guess", [-30, -4, 3, 30])
def test_the_value_is_the_same_whatever_mtdf_starts_from(guess):
    """The guess only orders the proof: far below, near and far above the
    value (clamped to the seeds in play) give the exhaustive value."""
    for spec in ("kalah pits=3 seeds=3", "kalah pits=4 seeds=2 empty-capture=true"):
        pos = Position(spec)
        values = move_values(pos)
        want = max(values.values())
        found = solve_kalah(pos, db_seeds=3, table_mb=1, guess=guess)
        assert found.value == want
        assert sorted(found.best_moves) == sorted(m for m, v in values.items() if v == want)


def random_positions(spec: str, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        pos = Position(spec)
        for _ in range(rng.randrange(1, 12)):
            if pos.is_over():
                break
            pos.push(rng.choice(pos.legal_moves()))
        if not pos.is_over():
            found.append(pos)
    return found


@pytest.mark.parametrize("spec", ["kalah pits=3 seeds=2", "kalah pits=3 seeds=3 empty-capture=true"])
def test_positions_with_stores_either_side_to_move(spec):
    """Stores count in the value; North to move is solved from its side."""
    sides = set()
    for pos in random_positions(spec, 25, seed=12):
        sides.add(pos.turn)
        found = solve_kalah(pos, db_seeds=3, table_mb=1)
        assert found.value == perfect_margin(spec, pos.text()), pos.text()
        values = move_values(pos)
        assert sorted(found.best_moves) == sorted(m for m, v in values.items() if v == found.value)
    assert sides == {0, 1}


@pytest.mark.parametrize("empty_capture", [False, True])
def test_every_database_entry_is_the_exhaustive_value(empty_capture):
    """The 6-seed database of Kalah(3, *): every pit distribution, South to
    move with empty stores (the pits' own margin)."""
    solver = kalahsolve.KalahSolver(3, empty_capture, 6, 1)
    for seeds in range(7):
        solver.build(seeds)
    spec = f"kalah pits=3 seeds=1 empty-capture={str(empty_capture).lower()}"
    checked = 0
    for pits in product(range(7), repeat=6):
        if sum(pits) != 6:
            continue
        # a spec with seeds=1 holds 6 seeds: put the rest in the stores, evenly
        text = f"{','.join(map(str, pits[:3]))}/{','.join(map(str, pits[3:]))} 0 0 s"
        pos = Position(spec, text=text)
        want = pos.outcome().margin(0) if pos.is_over() else perfect_margin(spec, text)
        assert solver.db_lookup(list(pits)) == want, text
        checked += 1
    assert checked == solver.level_size(6) == 462


def test_a_proven_win_is_solved_with_its_value_not_the_fastest_wins_margin():
    """Kalah(5,2): the search proves a win whose line ends 10 seeds ahead
    (the loser delays, the winner hurries); with perfect play the margin is 2."""
    found = solve_kalah(Position("kalah pits=5 seeds=2"))
    assert found.value == 2
    assert found.best_moves == ["d"]


def test_the_default_databases_fit_the_budget():
    assert default_db_seeds(6, 48) == 18
    assert default_db_seeds(6, 48, budget=10**6) == 10
    assert default_db_seeds(3, 6) == 3  # half the seeds in the pits


def test_solve_kalah_prints_the_value_and_the_best_moves():
    result = CliRunner().invoke(main, ["solve", "kalah", "-o", "pits=3", "-o", "seeds=2", "-q"])
    assert result.exit_code == 0, result.output
    want = perfect_margin("kalah pits=3 seeds=2", Position("kalah pits=3 seeds=2").text())
    assert f"value: {want:+d} for south (win)" in result.output
    assert "best moves: " in result.output and "nodes: " in result.output


@pytest.mark.parametrize("args, message", [
    (["-o", "pits=7"], "at most 6 pits a side"),
    (["-o", "pits=3", "-o", "seeds=1", "-p", "0,0,0/1,1,1 3 0 s"], "the game is over"),
    (["-o", "pits=3", "-m", "z"], "move 1"),
])
def test_bad_input_is_one_error_line(args, message):
    result = CliRunner().invoke(main, ["solve", "kalah", "-q", *args])
    assert result.exit_code == 2
    assert result.output.startswith("bingwa: error: ") and message in result.output
    assert "Traceback" not in result.output


def test_the_solver_refuses_other_variants():
    with pytest.raises(SolverError):
        solve_kalah(Position("oware"))


def test_analyse_solve_reports_the_game_theoretic_margin_beside_the_fastest_win():
    """The search ranks proven wins by distance first and prints the margin
    of the fastest win's line; --solve adds the value with perfect play."""
    result = CliRunner().invoke(main, ["analyse", "kalah", "-o", "pits=5", "-o", "seeds=2",
                                       "--depth", "30", "--solve"])
    assert result.exit_code == 0, result.output
    assert "  1. d        win in 20 (line ends +10)" in result.output
    assert "Solved: +2 for south with perfect play" in result.output
    assert "best moves d," in result.output


def test_analyse_solve_refuses_other_variants_before_searching():
    result = CliRunner().invoke(main, ["analyse", "oware", "--solve"])
    assert result.exit_code == 2
    assert result.output.startswith("bingwa: error: --solve takes Kalah positions")


def test_the_kalah_solver_judges_many_positions_with_one_build():
    from bingwa.engine.solvers import KalahSolver

    variant = Position("kalah pits=3 seeds=2").variant
    solver = KalahSolver(variant, 4, table_mb=1)
    rng = random.Random(3)
    for _ in range(20):
        pos = Position(variant)
        for _ in range(rng.randrange(4)):
            if not pos.is_over():
                pos.push(rng.choice(pos.legal_moves()))
        if pos.is_over():
            continue
        alone = solve_kalah(pos, db_seeds=2)
        assert solver.value(pos) == alone.value
        assert [m.text for m in pos.legal_moves()
                if solver.keeps(pos, m.text, alone.value)] == alone.best_moves


def test_the_accuracy_benchmark_runs_small():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "kalah_accuracy.py"
    out = subprocess.run([sys.executable, str(script), "--positions", "3", "--movetime", "20",
                          "--db-seeds", "6", "--max-in-pits", "10", "--game-nodes", "2000"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "kept the value:" in out.stdout and " of 3 = " in out.stdout
    assert "EvalFile default" in out.stdout


def test_the_accuracy_benchmark_takes_the_engines_evaluation(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "kalah_accuracy.py"
    small = ["--positions", "3", "--movetime", "20", "--db-seeds", "6", "--max-in-pits", "10",
             "--game-nodes", "2000"]
    out = subprocess.run([sys.executable, str(script), *small, "--eval-file", "none"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert " of 3 = " in out.stdout and "EvalFile none" in out.stdout
    bad = subprocess.run([sys.executable, str(script), *small, "--eval-file",
                          str(tmp_path / "missing.txt")], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "cannot read the network" in bad.stderr
    assert "Traceback" not in bad.stderr and bad.stdout == ""


def test_the_search_reads_the_solver_databases_exactly():
    """With the databases of 0..10 seeds in the pits, every position of at
    most 10 seeds there gets its exact value at the root, from one ply of
    search, and a move that keeps it (docs/solving.md, Kalah in play)."""
    from bingwa.bots import find_bot
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher
    from bingwa.engine.solvers import KalahSolver

    pytest.importorskip("bingwa.engine.search")
    variant = Position("kalah").variant
    solver = KalahSolver(variant, 10, table_mb=16)
    searcher = Searcher(4)
    searcher.set_kalah_endgames(solver)
    rng = random.Random(11)
    checked = 0
    while checked < 30:
        pos = Position(variant)
        while not pos.is_over() and sum(pos.state[0]) > 10:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.is_over():
            continue
        value = solver.value(pos)
        best = searcher.search(pos, Limits(depth=1)).best
        info = searcher.lines[0].info
        if info.score_mate is not None:  # the game ends within the search's sight
            assert (info.score_mate > 0) == (value > 0), pos.text()
        elif info.score_draw is not None:
            assert value == 0, pos.text()
        else:
            assert info.tbhits and info.score_cp == 100 * value, pos.text()
        assert solver.keeps(pos, best, value), pos.text()
        checked += 1
    bot = find_bot("alphabeta")()
    default = bot.kalah_endgames(Position(variant))  # 16 MiB: 0..14 seeds, built on the clock
    assert default.db_seeds == 14 and default.built_seeds == -1
    bot.set_option("Kalah Endgames", "0")
    assert bot.kalah_endgames(Position(variant)) is None  # 0 MiB: none
    bot.set_option("Kalah Endgames", "1")
    # 0..10 seeds: C(22, 12) = 646,646 positions fit 1 MiB, 0..11 (1,352,078) do not
    assert bot.kalah_endgames(Position(variant)).db_seeds == 10
    assert bot.kalah_endgames(Position("oware")) is None


def test_best_line_is_exact_and_stops_at_its_budget():
    """``best_line``: the exhaustive minimax's value, and a line every move
    of which keeps it; a budget that runs out claims nothing, and the same
    node budget stops at the same node."""
    import time

    from bingwa.engine.solvers import KalahSolver

    variant = Position("kalah pits=3 seeds=3").variant
    solver = KalahSolver(variant, 4, table_mb=1)
    rng = random.Random(7)
    for _ in range(25):
        pos = Position(variant)
        for _ in range(rng.randrange(6)):
            if not pos.is_over():
                pos.push(rng.choice(pos.legal_moves()))
        if pos.is_over():
            continue
        value, keeping, line = solver.best_line(pos)
        assert value == perfect_margin(variant.spec(), pos.text())
        assert sorted(keeping) == sorted(m for m, v in move_values(pos).items() if v == value)
        assert line[0] == keeping[0]
        full = value
        for move in line:
            assert move_values(pos)[move] == full, (pos.text(), line)
            mover, pos = pos.turn, pos.play(move)
            if pos.is_over():
                break
            full = full if pos.turn == mover else -full
        assert line
    big = KalahSolver(Position("kalah").variant, 0, table_mb=1)
    start = Position("kalah")
    spent = []
    for _ in range(2):
        before = big.nodes
        assert big.best_line(start, node_budget=5000) is None
        spent.append(big.nodes - before)
    assert spent == [5000, 5000]
    assert big.best_line(start, deadline=time.monotonic() - 1) is None


def test_the_engine_plays_the_solvers_move_when_the_solver_finishes():
    """With ``Kalah Endgames``, a move's search first asks the solver for
    the root's exact value within a tenth of its budget: a solved root with
    one move keeping the value is answered with it, one with several is
    searched among them alone, both with the exact score; an unsolved one
    is searched as before, within the nodes left."""
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher
    from bingwa.engine.solvers import KalahSolver

    pytest.importorskip("bingwa.engine.search")
    variant = Position("kalah").variant
    solver = KalahSolver(variant, 8, table_mb=4)
    judge = KalahSolver(variant, 8, table_mb=4)
    searcher = Searcher(4)
    searcher.set_kalah_endgames(solver)
    rng = random.Random(5)
    ways: set[str] = set()
    for _ in range(16):
        pos = Position(variant)
        while not pos.is_over() and sum(pos.state[0]) > 18:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.is_over():
            continue
        notes: list[str] = []
        result = searcher.search(pos, Limits(nodes=2_000_000),
                                 lambda info, notes=notes: notes.append(info.string or ""))
        value = judge.value(pos)
        assert judge.keeps(pos, result.best, value), pos.text()
        info = result.info
        assert info.tbhits and info.pv[0] == result.best
        if info.score_mate is not None:  # a proven distance the search found
            assert (info.score_mate > 0) == (value > 0)
        else:
            assert info.score_cp == 100 * value and info.bound is None
        said = [note for note in notes if note.startswith("exact: the Kalah solver's value")]
        assert len(said) == 1
        ways.add("one" if "the only move" in said[0] else "several")
    assert ways == {"one", "several"}
    searcher.new_game()
    result = searcher.search(Position(variant), Limits(nodes=20_000))
    assert result.info.tbhits != 1 or result.info.score_cp != 0  # searched, not solved
    assert result.info.depth >= 1 and searcher.nodes <= 20_000
    first = searcher.nodes
    searcher.new_game()
    assert searcher.search(Position(variant), Limits(nodes=20_000)).best == result.best
    assert searcher.nodes == first  # deterministic at a node limit


def _root_solve_tried(solver: object) -> Callable[[Position], bool]:
    """Whether a move's search (20,000 nodes, the same searcher each
    time) asks ``solver`` for the root's value."""
    from bingwa.engine.limits import Limits
    from bingwa.engine.searcher import Searcher

    searcher = Searcher(1)
    searcher.set_kalah_endgames(solver)

    def tried(pos: Position) -> bool:
        before = solver.nodes  # type: ignore[attr-defined]
        searcher.search(pos, Limits(nodes=20_000))
        return bool(solver.nodes > before)  # type: ignore[attr-defined]

    return tried


def test_a_failed_root_solve_waits_for_fewer_seeds_until_another_game():
    """After the solver gives up on a root, roots of nearly as many seeds
    in the pits are searched without trying it (a failed try costs the
    search its nodes); a root of fewer seeds is tried, and so is one of
    more (seeds never return to the pits: another game)."""
    from bingwa.engine.searcher import UNSOLVED_GAP
    from bingwa.engine.solvers import KalahSolver

    pytest.importorskip("bingwa.engine.search")
    variant = Position("kalah").variant
    solver = KalahSolver(variant, 6, table_mb=1)
    tried = _root_solve_tried(solver)

    start = Position(variant)  # 48 seeds in the pits: not solved in 2,000 nodes
    assert tried(start)
    rng = random.Random(2)
    game = start.copy()
    while sum(game.state[0]) > 48 - UNSOLVED_GAP + 1:
        game.push(rng.choice(game.legal_moves()))
    assert sum(game.state[0]) > 48 - UNSOLVED_GAP and not tried(game)
    while sum(game.state[0]) > 48 - UNSOLVED_GAP:
        game.push(rng.choice(game.legal_moves()))
    assert tried(game)
    assert tried(start)  # more seeds than the last root: another game


def test_a_failed_root_solve_is_tried_again_once_more_databases_are_built():
    """The wait after a failed try is for the databases it had: once the
    clock has built more of them, a root of nearly as many seeds is tried
    again (the build goes on a move at a time)."""
    from bingwa.engine.searcher import BUILD_REACH, UNSOLVED_GAP
    from bingwa.engine.solvers import KalahSolver

    pytest.importorskip("bingwa.engine.search")
    variant = Position("kalah").variant
    solver = KalahSolver(variant, 8, table_mb=1, build=False)
    assert solver.extend(stop=lambda: solver.built_seeds >= 6) == 6
    tried = _root_solve_tried(solver)

    start = Position(variant)
    assert 48 > 8 + BUILD_REACH  # so far from the databases, the search builds none
    assert tried(start) and solver.built_seeds == 6
    game = start.copy()
    rng = random.Random(2)
    while sum(game.state[0]) > 48 - UNSOLVED_GAP + 1:
        game.push(rng.choice(game.legal_moves()))
    assert not tried(game)
    assert solver.extend(stop=lambda: solver.built_seeds >= 7) == 7
    assert tried(game)
