"""The Oware endgame databases (engine/_owaredb.pyx, engine/tablebase.py):
ranking, the rules on a bare board, the values against an exhaustive
history-aware solver written apart (engine/oware_exhaustive.py), the files."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from bingwa.engine import tablebase
from bingwa.engine.oware import GRAND_SLAM_RULES, OwareRules
from bingwa.engine.oware_exhaustive import ExhaustiveSolver, NaiveSolver, NodeLimit, boards
from bingwa.engine.tablebase import TablebaseError
from bingwa.engine.tworow import own_rows_scores

db = pytest.importorskip("bingwa.engine._owaredb")

SMALL = 6  # seeds: every database up to here builds in well under a second


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("databases")
    tablebase.build(folder, SMALL)
    return folder


@pytest.fixture(scope="module")
def small(small_dir: Path):
    return tablebase.open_tablebase(small_dir)


@pytest.fixture(scope="module")
def proven_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("proven")
    tablebase.build(folder, SMALL, prove=True)
    return folder


@pytest.fixture(scope="module")
def proven(proven_dir: Path):
    return tablebase.open_tablebase(proven_dir)


def state_of(board: tuple[int, ...], side: int = 0):
    return (board, (0, 0), side)


# -- ranking ------------------------------------------------------------------
@pytest.mark.parametrize("seeds", range(6))
def test_rank_is_a_bijection_onto_the_combinations(seeds: int) -> None:
    count = db.positions(seeds)
    ranks = sorted(db.rank(b) for b in boards(seeds))
    assert ranks == list(range(count))
    assert all(db.rank(db.unrank(i, seeds)) == i for i in range(count))


def test_positions_are_the_stars_and_bars_counts() -> None:
    assert [db.positions(n) for n in (0, 1, 2, 24)] == [1, 12, 78, 417225900]


# -- the rules on a bare board ---------------------------------------------------------
def kernel_moves(board: tuple[int, ...], rule: int):
    rules = OwareRules(rule)
    state = state_of(board)
    out = []
    for move in rules.legal_moves(state):
        pits, scores, _ = rules.play(state, move)
        out.append((move, tuple(pits[6:]) + tuple(pits[:6]), scores[0] - scores[1]))
    return out


@pytest.mark.parametrize("rule", range(len(GRAND_SLAM_RULES)))
def test_bare_board_moves_are_the_kernels(rule: int) -> None:
    rng = random.Random(rule)
    cases = [b for n in range(5) for b in boards(n)]
    for _ in range(3000):  # larger boards, laps of 12+ seeds included
        cases.append(tuple(rng.choice((0, 0, 1, 1, 2, 3, 5, 13)) for _ in range(12)))
    for board in cases:
        assert db.moves_of(board, rule) == kernel_moves(board, rule), board


# -- values --------------------------------------------------------------------
def test_every_value_within_two_seeds_is_the_exhaustive_history_aware_one(small) -> None:
    """Every position of up to 2 seeds, South to move: exhaustive values."""
    solved = ExhaustiveSolver().solve(2)
    for board in (b for n in range(3) for b in boards(n)):
        entry = tablebase.entry(small, state_of(board))
        if entry.cycle:
            continue
        assert entry.value == solved[state_of(board)], board


def test_settled_values_agree_with_the_exhaustive_solver_on_three_seeds(small) -> None:
    """The entries not marked cycle-dependent are the value of the game
    started there with no history (docs/databases.md); the solver takes
    the database's values as guesses only (null windows confirm them)."""
    values = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value).solve(3)
    exact = 0
    for board in boards(3):
        entry = tablebase.entry(small, state_of(board))
        if not entry.cycle:
            exact += 1
            assert entry.value == values[state_of(board)], board
    assert exact == 300


def test_the_solvers_table_changes_no_value() -> None:
    """The transposition table keeps the positions each bound depends on:
    the same values as the negamax over every line, in fewer nodes."""
    naive, table = NaiveSolver(), ExhaustiveSolver()
    assert table.solve(2) == naive.solve(2)
    assert table.nodes <= naive.nodes


def test_the_solvers_bounds_hold_whatever_the_path() -> None:
    """The pruning bounds (ExhaustiveSolver.bounds) contain the value of
    every position of 2 seeds along random paths through its component,
    as the negamax over every line finds it."""
    naive = NaiveSolver()
    naive.solve(2)  # keeps the components and bits of 2 seeds
    solver = ExhaustiveSolver()
    solver.solve(1)
    states = solver.level(2)
    lo, hi = solver.bounds(states)
    assert any(lo[s] == hi[s] for s in states) and any(lo[s] < hi[s] for s in states)
    rng = random.Random(11)
    checked = 0
    for state in states:
        mates = [s for s in states if s != state and naive._comp[s] == naive._comp[state]]
        for _ in range(8):
            path = 0
            for other in rng.sample(mates, rng.randint(0, len(mates))):
                path |= naive._bit[other]
            value = naive.search(state, path, -99, 99)[0]
            assert lo[state] <= value <= hi[state], (state, path)
            checked += 1
    assert checked == 8 * len(states)


def test_the_solvers_bounds_change_no_value_on_three_seeds(small) -> None:
    bounded = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value)
    plain = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value)
    plain.bounded = False
    assert bounded.solve(3) == plain.solve(3)
    assert bounded.nodes < plain.nodes


def test_bounds_that_rest_on_fewer_positions_change_no_value_and_save_nodes(small) -> None:
    """A fail low (high) leaves out of its bound a move into a position on
    the path that fails low (high) whether or not the position is there:
    the same values on four seeds, in fewer nodes."""
    guess = lambda s: tablebase.entry(small, s).value  # noqa: E731
    robust, plain = ExhaustiveSolver(guess=guess), ExhaustiveSolver(guess=guess)
    plain.robust = False
    assert robust.solve(4) == plain.solve(4)
    assert robust.nodes * 2 < plain.nodes


def test_bounds_found_whatever_the_path_are_kept_for_good_and_save_nodes(small) -> None:
    """A search whose bound rests on no position tightens ``lo``/``hi``
    for good (``tighten``) and then its parents' (``propagate``): the
    same values on four seeds, each in fewer nodes."""
    guess = lambda s: tablebase.entry(small, s).value  # noqa: E731
    solvers = [ExhaustiveSolver(guess=guess) for _ in range(3)]
    solvers[1].propagate = False
    solvers[2].tighten = False
    values = [solver.solve(4) for solver in solvers]
    assert values[0] == values[1] == values[2]
    assert solvers[0].nodes < solvers[1].nodes < solvers[2].nodes


def test_a_bound_kept_along_one_path_is_reused_only_where_it_holds() -> None:
    """The table's bounds, made along one path, answer searches along
    other paths through the same component: every answer is the negamax
    over every line along that path (full and null windows, 3 seeds)."""
    naive, solver = NaiveSolver(), ExhaustiveSolver()
    naive.solve(2)
    solver.solve(2)
    naive.open_level(3)
    states = solver.open_level(3)
    opened = [s for s in states if solver._bit[s]]
    rng = random.Random(5)
    checked = 0
    for state in rng.sample(opened, 120):
        mates = [s for s in opened if s != state and solver._comp[s] == solver._comp[state]]
        for _ in range(3):
            on_path = rng.sample(mates, rng.randint(0, min(len(mates), 12)))
            mine = sum(solver._bit[s] for s in on_path)
            truth = naive.search(state, sum(naive._bit[s] for s in on_path), -99, 99)[0]
            assert solver.search(state, mine, -99, 99)[0] == truth, (state, on_path)
            assert solver.search(state, mine, truth - 1, truth)[0] >= truth
            assert solver.search(state, mine, truth, truth + 1)[0] <= truth
            checked += 1
    assert checked == 360


def test_a_solve_stopped_at_its_node_limit_leaves_every_later_value_exact(small) -> None:
    """A search cut off by ``node_limit`` (benchmarks/databases.py samples
    the largest seed count that way) keeps only what it finished: the
    positions solved after it, with no limit, get the values of a solver
    never stopped."""
    guess = lambda s: tablebase.entry(small, s).value  # noqa: E731
    truth = ExhaustiveSolver(guess=guess).solve(3)
    solver = ExhaustiveSolver(guess=guess)
    solver.solve(2)
    states = solver.open_level(3)
    stopped = 0
    for state in states:
        solver.node_limit = solver.nodes + 5
        try:
            solver.top(state)
        except NodeLimit:
            stopped += 1
    assert stopped > 50
    solver.node_limit = None
    for state in states:
        assert solver.top(state) == truth[state], state
    solver.close_level()


@pytest.mark.slow  # about 40 s: the negamax over every line of three seeds
def test_the_solvers_table_changes_no_value_on_three_seeds() -> None:
    naive, table = NaiveSolver(), ExhaustiveSolver()
    assert table.solve(3) == naive.solve(3)
    assert table.nodes * 2 < naive.nodes


def test_proven_files_hold_the_same_values_and_prove_a_subset(small, proven) -> None:
    assert proven.proven and not small.proven
    unproven = 0
    for board in (b for n in range(SMALL + 1) for b in boards(n)):
        settled = tablebase.entry(small, state_of(board))
        found = tablebase.entry(proven, state_of(board))
        assert found.value == settled.value, board
        assert found.cycle or not settled.cycle, board
        unproven += found.cycle and not settled.cycle
    assert unproven > 0


def test_a_settled_value_that_a_cycle_after_a_capture_decides_is_not_proven(small, proven) -> None:
    """South's one move captures 2 and leaves 2 seeds, North to move, whose
    game started there is a cycle's: the settled entry takes the database's
    cycle-dependent value of it, which is not the game's."""
    board = (0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1)
    rules = OwareRules(0)
    (move,) = rules.legal_moves(state_of(board))
    child = rules.play(state_of(board), move)
    assert child[1] == (2, 0)
    after = (child[0], (0, 0), 1)
    assert tablebase.entry(small, after).cycle
    truth = 2 - ExhaustiveSolver().solve(2)[after]
    settled = tablebase.entry(small, state_of(board))
    assert not settled.cycle and settled.value != truth
    assert settled.kind.startswith("an estimate, settled")
    found = tablebase.entry(proven, state_of(board))
    assert found.cycle and found.kind.startswith("not proven")


def test_proven_values_are_the_exhaustive_ones_on_three_seeds(proven) -> None:
    values = ExhaustiveSolver(guess=lambda s: tablebase.entry(proven, s).value).solve(3)
    exact = 0
    for board in (b for n in range(4) for b in boards(n)):
        entry = tablebase.entry(proven, state_of(board))
        if not entry.cycle:
            exact += 1
            assert entry.value == values[state_of(board)], board
            assert entry.kind == "exact, proven"
    assert exact > 300


@pytest.fixture(scope="module")
def exhaustive5(small) -> dict:
    """The value of every game started on a board of up to 5 seeds."""
    return ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value).solve(5)


def test_proven_values_are_the_exhaustive_ones_on_four_and_five_seeds(small, proven, exhaustive5) -> None:
    """Every proven entry of 4 and 5 seeds is the game's value; 1 and 5
    settled entries are not (docs/databases.md; benchmarks/databases.py
    goes on to 7 and more)."""
    values = exhaustive5
    for seeds, wrong in ((4, 1), (5, 5)):
        wrong_settled = proven_count = 0
        for board in boards(seeds):
            truth = values[state_of(board)]
            entry = tablebase.entry(proven, state_of(board))
            if not entry.cycle:
                assert entry.value == truth, board
                proven_count += 1
            settled = tablebase.entry(small, state_of(board))
            wrong_settled += not settled.cycle and settled.value != truth
        assert wrong_settled == wrong, seeds
        assert proven_count > len(list(boards(seeds))) // 2


def test_settled_entries_are_wrong_only_through_a_smaller_count(small, exhaustive5, tmp_path: Path) -> None:
    """Built over files holding the exact values of the smaller counts
    (write_values), no settled entry of 1 to 5 seeds is wrong: the 1 and 5
    wrong settled entries of 4 and 5 seeds come from a capture into a
    smaller entry that a cycle decides, not from a cycle of their own count
    (docs/databases.md)."""
    for seeds in range(6):
        tablebase.build(tmp_path, seeds)  # this count, over the exact smaller ones
        over = tablebase.open_tablebase(tmp_path)
        settled = wrong_before = 0
        for board in boards(seeds):
            truth = exhaustive5[state_of(board)]
            entry = tablebase.entry(over, state_of(board))
            if not entry.cycle:
                settled += 1
                assert entry.value == truth, board
            before = tablebase.entry(small, state_of(board))
            if not before.cycle and before.value != truth:
                wrong_before += 1
                assert entry.value == truth and not entry.cycle, board
        assert settled > len(list(boards(seeds))) // 2
        assert wrong_before == {4: 1, 5: 5}.get(seeds, 0)
        path = tablebase.write_values(tmp_path, seeds, lambda b: exhaustive5[state_of(b)])
        assert path.name == tablebase.file_name(seeds)
    exact = tablebase.open_tablebase(tmp_path)
    assert exact.max_seeds == 5
    for board in boards(4):
        assert tablebase.entry(exact, state_of(board)) == tablebase.Entry(exhaustive5[state_of(board)], False)


def test_a_value_beyond_a_database_byte_is_refused() -> None:
    assert db.byte_of(0) == db.byte_of(0, True) & 0x7F
    assert db.byte_of(-64) == 0
    for value in (-65, 64):
        with pytest.raises(ValueError, match="beyond what a database byte holds"):
            db.byte_of(value)


@pytest.mark.slow  # about 20 s: the solver without its bounds on 4 seeds
def test_the_solvers_bounds_change_no_value_on_four_seeds(small) -> None:
    bounded = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value)
    plain = ExhaustiveSolver(guess=lambda s: tablebase.entry(small, s).value)
    plain.bounded = False
    assert bounded.solve(4) == plain.solve(4)


def move_value(rules: OwareRules, small, state, move: int) -> int:
    child = rules.play(state, move)
    gain = child[1][0] - child[1][1]
    return gain - tablebase.entry(small, (child[0], (0, 0), 1)).value


@pytest.mark.parametrize("rule", [0, GRAND_SLAM_RULES.index("capture")])
def test_exact_values_are_the_best_move_by_the_kernels_rules(rule: int, tmp_path: Path) -> None:
    """At every entry not marked cycle-dependent, the value is the best of
    its moves' values (the kernel plays them); empty rows give the seeds
    to the other side."""
    tablebase.build(tmp_path, 5, GRAND_SLAM_RULES[rule])
    tb = tablebase.open_tablebase(tmp_path, GRAND_SLAM_RULES[rule])
    rules = OwareRules(rule)
    checked = 0
    for board in (b for n in range(6) for b in boards(n)):
        state = state_of(board)
        entry = tablebase.entry(tb, state)
        moves = rules.legal_moves(state)
        if not moves:
            scores = own_rows_scores(state)
            assert entry.value == scores[0] - scores[1]
            continue
        if entry.cycle:
            continue
        assert entry.value == max(move_value(rules, tb, state, m) for m in moves), board
        checked += 1
    assert checked > 4000


def test_north_to_move_reads_the_board_turned_round(small) -> None:
    board = (0, 0, 0, 0, 1, 2, 0, 1, 0, 0, 0, 0)
    turned = board[6:] + board[:6]
    assert tablebase.entry(small, (turned, (0, 0), 1)) == tablebase.entry(small, state_of(board))
    assert tablebase.total_margin(small, (board, (20, 25 - 3), 0)) == (
        20 - 22 + tablebase.entry(small, state_of(board)).value)


# -- files ----------------------------------------------------------------------------
def test_build_resumes_and_keeps_the_finished_counts(tmp_path: Path) -> None:
    assert tablebase.build(tmp_path, 3) == [0, 1, 2, 3]
    kept = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    (tmp_path / tablebase.file_name(4)).with_suffix(".part").write_bytes(b"half")
    seen = []
    tablebase.build(tmp_path, 5, progress=lambda n, sweep, changed: seen.append(n))
    assert set(seen) == {4, 5}
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir() if p.name in kept} == kept
    assert tablebase.finished_levels(tmp_path) == 5
    assert not list(tmp_path.glob("*.part"))


def test_threads_build_the_same_bytes(tmp_path: Path, small_dir: Path, proven_dir: Path) -> None:
    tablebase.build(tmp_path / "settled", SMALL, jobs=2)
    tablebase.build(tmp_path / "proven", SMALL, jobs=2, prove=True)
    for n in range(SMALL + 1):
        for name in (tablebase.file_name(n), tablebase.bounds_name(n)):
            for kind, folder in (("settled", small_dir), ("proven", proven_dir)):
                if (folder / name).exists():
                    assert (tmp_path / kind / name).read_bytes() == (folder / name).read_bytes()
    assert not (tmp_path / "settled" / tablebase.bounds_name(0)).exists()


@pytest.mark.parametrize("rule", GRAND_SLAM_RULES)
def test_the_flagged_passes_reach_the_same_fixed_point(tmp_path: Path, monkeypatch,
                                                       rule: str) -> None:
    """Passes over the boards whose child moved (their parents found by
    un-sowing) give the files of full sweeps byte for byte: values, proven
    bounds and ranks, every grand-slam rule; with threads on small blocks
    the values and bounds too, where the full pass after the last flagged
    one must catch what a race may leave down. (The ranks depend on the
    order threads give them in, flagged or not: any order gives valid
    ones, tests/engine/test_tablebase_ranks.py.)"""
    def files(folder: Path) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in folder.iterdir()}

    monkeypatch.setattr(tablebase, "DENSE", 1 << 40)  # every pass a full sweep
    tablebase.build(tmp_path / "full", 8, rule, prove=True)
    monkeypatch.setattr(tablebase, "DENSE", 1)  # flagged passes from the second on
    passes: dict[int, list[int]] = {}
    tablebase.build(tmp_path / "flagged", 8, rule, prove=True,
                    progress=lambda n, sweep, changed: sweep and passes.setdefault(n, []).append(changed))
    monkeypatch.setattr(tablebase, "BLOCK", 997)
    tablebase.build(tmp_path / "threads", 8, rule, jobs=2, prove=True)
    full = files(tmp_path / "full")
    assert len(full) == 27
    assert files(tmp_path / "flagged") == full
    threads = files(tmp_path / "threads")
    assert {n: b for n, b in threads.items() if not n.endswith(".bwrk")} == {
        n: b for n, b in full.items() if not n.endswith(".bwrk")}
    # one thread: the flags miss nothing, so the full pass that checks the
    # last flagged one finds nothing either (0 seeds: one pass, nothing to do)
    assert passes[0] == [0]
    for n in range(1, 9):
        assert passes[n][-2:] == [0, 0] and 0 not in passes[n][:-2], n


def test_a_proven_build_resumes_where_a_bounds_file_is_missing(tmp_path: Path,
                                                                proven_dir: Path) -> None:
    tablebase.build(tmp_path, 4, prove=True)
    (tmp_path / tablebase.bounds_name(3)).unlink()
    seen = []
    tablebase.build(tmp_path, 5, progress=lambda n, sweep, changed: seen.append(n))
    assert set(seen) == {3, 4, 5}
    for n in range(6):
        for name in (tablebase.file_name(n), tablebase.bounds_name(n)):
            assert (tmp_path / name).read_bytes() == (proven_dir / name).read_bytes()


def test_a_folder_is_built_one_way(tmp_path: Path) -> None:
    tablebase.build(tmp_path / "settled", 2)
    with pytest.raises(TablebaseError, match="built without --prove"):
        tablebase.build(tmp_path / "settled", 3, prove=True)
    tablebase.build(tmp_path / "proven", 2, prove=True)
    with pytest.raises(TablebaseError, match="built with --prove"):
        tablebase.build(tmp_path / "proven", 3, prove=False)
    tablebase.build(tmp_path / "proven", 3)  # unsaid: as the folder was built
    assert tablebase.open_tablebase(tmp_path / "proven").proven


def copy_databases(source: Path, target: Path, top: int) -> None:
    for n in range(top + 1):
        name = tablebase.file_name(n)
        (target / name).write_bytes((source / name).read_bytes())


def test_a_corrupt_file_is_refused(tmp_path: Path, small_dir: Path) -> None:
    copy_databases(small_dir, tmp_path, 4)
    path = tmp_path / tablebase.file_name(4)
    data = bytearray(path.read_bytes())
    data[tablebase.HEADER_BYTES + 10] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(TablebaseError, match="checksum mismatch"):
        tablebase.open_tablebase(tmp_path)
    path.write_bytes(bytes(data[:-1]))
    with pytest.raises(TablebaseError, match="truncated"):
        tablebase.open_tablebase(tmp_path)


def test_a_corrupt_bounds_file_stops_a_build(tmp_path: Path) -> None:
    tablebase.build(tmp_path, 3, prove=True)
    path = tmp_path / tablebase.bounds_name(3)
    data = bytearray(path.read_bytes())
    data[tablebase.HEADER_BYTES + 5] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(TablebaseError, match="checksum mismatch"):
        tablebase.build(tmp_path, 4)
    path.write_bytes(tablebase.file_name(3).encode() * 8)
    with pytest.raises(TablebaseError, match="not a bingwa bounds file"):
        tablebase.build(tmp_path, 4)
    path.write_bytes(b"junk")
    with pytest.raises(TablebaseError, match="not a bingwa bounds file .too short"):
        tablebase.build(tmp_path, 4)


def test_a_file_of_other_rules_or_seeds_is_refused(tmp_path: Path, small_dir: Path) -> None:
    copy_databases(small_dir, tmp_path, 3)
    os.replace(tmp_path / tablebase.file_name(3), tmp_path / tablebase.file_name(3, 2))
    (tmp_path / tablebase.file_name(0, 2)).write_bytes((small_dir / tablebase.file_name(0)).read_bytes())
    with pytest.raises(TablebaseError, match="expected grandslam=capture"):
        tablebase.open_tablebase(tmp_path, "capture")
    (tmp_path / tablebase.file_name(4)).write_bytes(b"not a database, certainly not")
    copy_databases(small_dir, tmp_path, 3)
    with pytest.raises(TablebaseError, match="not a bingwa database"):
        tablebase.open_tablebase(tmp_path)


def test_missing_folders_and_out_of_range_positions_are_clear_errors(small, tmp_path: Path) -> None:
    with pytest.raises(TablebaseError, match="no such database folder"):
        tablebase.open_tablebase(tmp_path / "nowhere")
    with pytest.raises(TablebaseError, match="no Oware databases"):
        tablebase.open_tablebase(tmp_path)
    with pytest.raises(TablebaseError, match="hold up to 6"):
        tablebase.entry(small, ((4,) * 12, (0, 0), 0))
    with pytest.raises(TablebaseError, match="unknown grand-slam rule"):
        tablebase.open_tablebase(tmp_path, "sometimes")
