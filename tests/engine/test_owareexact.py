"""The compiled history-aware search (engine/_owareexact.pyx, run by
engine/oware_exact.py) against the pure-Python one it ports
(engine/oware_exhaustive.py): the same value of every board of the small
counts, the same nodes (the same search, only compiled), a stop that ends
it without a value, and a build through either giving the same files."""

from __future__ import annotations

import random
import threading

import pytest

from bingwa.engine import kernel, tablebase
from bingwa.engine.oware_exact import exact_graph, solve_compiled, turned
from bingwa.engine.oware_exact_player import ExactPlayer, NodeLimit
from bingwa.engine.oware_exhaustive import ExhaustiveSolver
from bingwa.engine.playout import random_endgame, walk
from bingwa.engine.tablebase import plain_guess

db = pytest.importorskip("bingwa.engine._owaredb")
exact = pytest.importorskip("bingwa.engine._owareexact")

TOP = 6  # every board of 0..6 seeds, both solvers: a few seconds


@pytest.fixture(scope="module")
def python_values() -> dict:
    """Every position's value with no history, 0..TOP seeds, by the
    pure-Python solver, ordered by the guesses a build gives (the
    sweeps-only values: with none it is far slower)."""
    solver = ExhaustiveSolver(0)
    counts = {}
    for seeds in range(TOP + 1):
        solver.guess = plain_guess(seeds)
        before = solver.nodes
        solver.open_level(seeds)
        boards = [tuple(db.unrank(r, seeds)) for r in range(int(db.positions(seeds)))]
        for board in boards:  # South to move, in rank order, as a build asks
            solver.top((board, (0, 0), 0))
        solver.close_level()
        counts[seeds] = solver.nodes - before
        for board in boards:  # North to move: the board turned round
            solver.values[(turned(board), (0, 0), 1)] = solver.values[(board, (0, 0), 0)]
    return {"values": solver.values, "nodes": counts}


def value_of(values: dict):
    return lambda board: values[(tuple(board), (0, 0), 0)]


@pytest.mark.parametrize("seeds", range(TOP + 1))
def test_the_compiled_search_finds_the_python_values_with_the_same_nodes(python_values, seeds):
    values = python_values["values"]
    graph = exact_graph(value_of(values), seeds, 0, plain_guess(seeds))
    count = int(db.positions(seeds))
    assert graph.size == 2 * count
    solver = exact.Solver(graph)
    found = solver.solve(0, count)
    for rank_, value in enumerate(found):
        board = tuple(db.unrank(rank_, seeds))
        assert value == values[(board, (0, 0), 0)], (seeds, board)
        # North to move: the same board turned round (the mirror)
        if solver.value(2 * rank_ + 1) is not None:
            assert solver.value(2 * rank_ + 1) == values[(turned(board), (0, 0), 0)]
    assert solver.nodes == python_values["nodes"][seeds]


def test_the_bounds_hold_and_the_cycles_are_searched(python_values):
    """Before any search, the bounds of every position hold its value, and
    at 6 seeds some are open (the search, not the bounds, decides)."""
    values = python_values["values"]
    graph = exact_graph(value_of(values), TOP, 0, plain_guess(TOP))
    solver = exact.Solver(graph)
    open_ = 0
    for rank_ in range(int(db.positions(TOP))):
        board = tuple(db.unrank(rank_, TOP))
        lo, hi = solver.bounds(2 * rank_)
        assert lo <= values[(board, (0, 0), 0)] <= hi
        open_ += lo < hi
    assert open_ > 1000


def test_a_stop_ends_the_search_and_keeps_no_value(python_values):
    values = python_values["values"]
    graph = exact_graph(value_of(values), TOP, 0, plain_guess(TOP))
    solver = exact.Solver(graph)
    solver.stop()
    with pytest.raises(exact.SolveStopped):
        solver.solve(0, 50)
    assert all(solver.value(2 * r) is None for r in range(50))


def test_ctrl_c_ends_the_threads_of_a_count(python_values, monkeypatch):
    """solve_compiled: a KeyboardInterrupt in the waiting thread stops the
    workers and is raised; nothing is returned."""
    values = python_values["values"]
    graph = exact_graph(value_of(values), TOP, 0, plain_guess(TOP))
    calls = []

    def interrupt(boards: int) -> None:
        calls.append(boards)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_compiled(graph, 0, int(db.positions(TOP)), jobs=2, searched=interrupt)
    assert calls
    assert threading.active_count() == 1  # the workers are gone


def test_a_build_through_either_search_writes_the_same_files(tmp_path, monkeypatch):
    tablebase.build(tmp_path / "compiled", 7, jobs=2, prove=True, exact_seeds=5)
    real = kernel.compiled_module
    asked = []

    def without(name: str):
        asked.append(name)
        return None if name == "owareexact" else real(name)

    monkeypatch.setattr("bingwa.engine.oware_exact.compiled_module", without)
    tablebase.build(tmp_path / "python", 7, jobs=2, prove=True, exact_seeds=5)
    assert asked.count("owareexact") == 6  # 0..5 seeds by the pure-Python search
    for seeds in range(8):
        for name in (tablebase.file_name(seeds, 0), tablebase.bounds_name(seeds, 0)):
            assert (tmp_path / "compiled" / name).read_bytes() == \
                (tmp_path / "python" / name).read_bytes(), name


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("searched")
    tablebase.build(path, 6, jobs=2, prove=True, exact_seeds=6)
    return tablebase.open_tablebase(path)


def test_move_values_with_a_history_are_the_python_ones(searched):
    """The perfect bot's move values along a game's own path (ExactPlayer):
    the compiled search and the pure-Python one agree, best only or all,
    on positions of 3..6 seeds after random quiet moves, and the history
    changes some of them (the test can tell). A few long histories pass
    a search's node limit: those are left out."""
    fast = ExactPlayer(searched, node_limit=50_000)
    slow = ExactPlayer(searched, node_limit=50_000)
    slow.compiled = lambda seeds: None  # type: ignore[method-assign]
    rng = random.Random(7)
    compared = differ = 0
    while compared < 30:
        game = walk(random_endgame(rng, "oware", rng.randrange(3, 7)), rng, rng.randrange(1, 12))
        if game.is_over():
            continue
        try:
            values, python = fast.move_values(game), slow.move_values(game)
        except NodeLimit:
            continue
        assert values == python, game.text()
        best = max(v.value for v in values)
        assert max(v.value for v in fast.move_values(game, best_only=True)) == best
        differ += best != tablebase.total_margin(searched, game.state)
        compared += 1
    assert fast._compiled and not slow._compiled
    assert differ > 0


def test_the_node_limit_stops_a_value_and_leaves_the_search_sound(searched):
    player = ExactPlayer(searched, node_limit=1)
    truth = ExactPlayer(searched, node_limit=50_000)
    truth.compiled = lambda seeds: None  # type: ignore[method-assign]
    rng = random.Random(3)
    stopped = 0
    for _ in range(30):
        game = walk(random_endgame(rng, "oware", 5), rng, rng.randrange(1, 8))
        if game.is_over():
            continue
        player.node_limit = 1
        try:
            player.move_values(game)
        except NodeLimit:
            stopped += 1
        player.node_limit = 50_000
        try:
            assert player.move_values(game) == truth.move_values(game), game.text()
        except NodeLimit:
            continue
    assert stopped > 0


def test_a_search_out_of_memory_is_one_line_and_keeps_the_counts_before(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from bingwa.cli import main
    from bingwa.engine import oware_exact

    real = oware_exact.solve_count

    def short(levels, seeds, rule, data, jobs=1, searched=None):
        if seeds == 4:
            raise MemoryError
        return real(levels, seeds, rule, data, jobs, searched)

    monkeypatch.setattr(tablebase, "solve_count", short)
    result = CliRunner().invoke(main, ["solve", "build", "oware", "--max-seeds", "5",
                                       "--dir", str(tmp_path)])
    assert result.exit_code != 0
    lines = [line for line in result.output.splitlines() if "error" in line]
    assert lines == ["bingwa: error: 4 seeds: out of memory in the search over every line; "
                     "the databases of 0..3 seeds are kept (a smaller --exact-seeds needs less)"]
    assert "Traceback" not in result.output
    assert tablebase.finished_levels(tmp_path, 0) == 3


@pytest.mark.parametrize("rule", range(len(tablebase.GRAND_SLAM_RULES)))
def test_the_graph_of_play_is_the_builds_graph(tmp_path, rule):
    """The perfect bot's move graph, made by the databases' compiled rules
    (oware_exact.played_graph), is the one a build makes with the
    pure-Python rules, array for array, under every grand-slam rule, and
    its boards' values are the files' entries."""
    from bingwa.engine.oware_exact import graph_arrays, played_graph

    tablebase.build(tmp_path, 6, grandslam=rule, prove=False)
    tb = tablebase.open_tablebase(tmp_path, grandslam=rule)
    module = exact
    kinds = set()
    for seeds in range(1, 7):
        guesses = tablebase.plain_guess_data(seeds, rule)
        played = db.move_graph(seeds, rule, tb, guesses, module.MOVE_SAME,
                               module.MOVE_CAPTURE, module.MOVE_OTHER)
        built = graph_arrays(lambda board: int(tb.entry(board)[0]), seeds, rule,
                             tablebase.plain_guess(seeds, rule))
        for name, one, other in zip(("start", "kind", "child", "value", "terminal", "mirror",
                                     "guess"), played, built):
            assert list(one) == list(other), (seeds, name)
        assert list(played[7]) == [tb.entry(db.unrank(r, seeds))[0]
                                   for r in range(int(db.positions(seeds)))]
        kinds |= set(played[1])
        graph, known = played_graph(tb, seeds, guesses)
        assert graph.size == 2 * int(db.positions(seeds)) and list(known) == list(played[7])
    assert kinds == {module.MOVE_SAME, module.MOVE_CAPTURE, module.MOVE_OTHER}


def test_the_graph_of_play_refuses_a_count_not_in_the_files(searched):
    with pytest.raises(ValueError, match="not in these databases"):
        db.move_graph(7, 0, searched, b"", 0, 1, 2)
    with pytest.raises(ValueError, match="guesses"):
        db.move_graph(3, 0, searched, b"\x40", 0, 1, 2)
