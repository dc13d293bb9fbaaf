"""The search probing the Oware endgame databases, the ``perfect`` bot,
and the ``solve`` commands."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from bingwa.bots import find_bot
from bingwa.bots.base import BotOptionError
from bingwa.cli import main
from bingwa.engine import Position, tablebase
from bingwa.engine.limits import Info, Limits
from bingwa.engine.searcher import Searcher
from bingwa.protocol.wire import format_info, parse_info

pytest.importorskip("bingwa.engine._owaredb")
pytest.importorskip("bingwa.engine.search")

TOP = 8  # seeds


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("databases")
    tablebase.build(path, TOP)
    return path


@pytest.fixture(scope="module")
def tb(folder: Path):
    return tablebase.open_tablebase(folder)


def random_endgame(rng: random.Random, seeds: int, side: int) -> Position:
    """A position of ``seeds`` seeds on the board, the rest captured
    about evenly, none of it decided."""
    pits = [0] * 12
    for _ in range(seeds):
        pits[rng.randrange(12)] += 1
    south = (48 - seeds) // 2 - rng.randrange(2)
    return Position("oware", (tuple(pits), (south, 48 - seeds - south), side))


def playable(rng: random.Random, seeds: int, count: int) -> list[Position]:
    out = []
    while len(out) < count:
        pos = random_endgame(rng, seeds, rng.randrange(2))
        if not pos.is_over():
            out.append(pos)
    return out


def test_no_database_changes_no_node_count() -> None:
    pos = Position("oware")
    for move in "c F d A".split():
        pos.push(move)
    plain = Searcher()
    plain.search(pos, Limits(depth=7))
    unset = Searcher()
    unset.set_tablebase(None)
    unset.search(pos, Limits(depth=7))
    assert unset.nodes == plain.nodes
    assert unset.lines[0].info.tbhits is None


def test_other_rules_are_never_probed(tb) -> None:
    pos = Position("oware grandslam=capture", text="0,0,0,1,2,0/1,0,0,1,0,0 22 21 s")
    searcher = Searcher()
    searcher.set_tablebase(tb)
    searcher.search(pos, Limits(depth=6))
    assert searcher.tbhits == 0


def test_search_within_range_plays_the_database_value(tb) -> None:
    """At a root within the databases every child is probed: the score is
    the best move value by the databases, exactly, with both sides to move."""
    rng = random.Random(12)
    for pos in playable(rng, 7, 40):
        searcher = Searcher()
        searcher.set_tablebase(tb)
        result = searcher.search(pos, Limits(depth=10))
        values = tablebase.move_values(tb, pos)
        best = max(v.value for v in values)
        assert result.info.score_cp == 100 * best
        # a database value has no distance; an end of the game at once has one
        assert result.info.score_mate in (None, 1, -1)
        assert result.best in [v.move for v in values if v.value == best]
        assert result.info.tbhits == searcher.tbhits > 0


def test_search_above_range_counts_tbhits_and_reports_them(tb) -> None:
    pos = Position("oware", text="0,0,0,1,2,3/1,0,0,2,0,4 16 19 s")
    searcher = Searcher()
    searcher.set_tablebase(tb)
    seen: list[Info] = []
    searcher.search(pos, Limits(depth=8), emit=seen.append)
    assert seen[-1].tbhits == searcher.tbhits > 0
    line = format_info(seen[-1])
    assert f" tbhits {searcher.tbhits} " in line
    assert parse_info(line).tbhits == searcher.tbhits


def perfect_bot(folder: Path):
    bot = find_bot("perfect")()
    bot.set_option("TablebasePath", str(folder))
    return bot


def test_perfect_bot_never_gives_up_a_win_the_databases_show(folder: Path, tb) -> None:
    rng = random.Random(5)
    bot = perfect_bot(folder)
    wins = 0
    for pos in playable(rng, 8, 60):
        values = {v.move: v.value for v in tablebase.move_values(tb, pos)}
        result = bot.go(pos, Limits(depth=4), lambda info: None, threading.Event())
        assert values[result.best] == max(values.values())
        wins += max(values.values()) > 0
    assert wins > 10


def test_perfect_bot_waits_for_stop_in_an_infinite_search(folder: Path) -> None:
    bot = perfect_bot(folder)
    pos = Position("oware", text="0,0,0,1,2,0/1,0,0,1,0,0 22 21 s")
    stop = threading.Event()
    done: list[str | None] = []
    worker = threading.Thread(
        target=lambda: done.append(bot.go(pos, Limits(infinite=True), lambda i: None, stop).best))
    worker.start()
    worker.join(0.2)
    assert not done
    stop.set()
    worker.join(5)
    assert done and done[0] in [m.text for m in pos.legal_moves()]


def test_perfect_bot_searches_above_the_range(folder: Path) -> None:
    bot = perfect_bot(folder)
    seen: list[Info] = []
    pos = Position("oware", text="0,0,0,1,2,3/1,0,0,2,0,4 16 19 s")
    result = bot.go(pos, Limits(depth=5), seen.append, threading.Event())
    assert result.best in [m.text for m in pos.legal_moves()]
    assert seen[-1].depth == 5 and seen[-1].tbhits


def test_a_bad_tablebase_path_is_one_clear_error(tmp_path: Path) -> None:
    bot = find_bot("alphabeta")()
    with pytest.raises(BotOptionError, match="no such database folder"):
        bot.set_option("TablebasePath", str(tmp_path / "nowhere"))
    with pytest.raises(BotOptionError, match="no Oware databases"):
        bot.set_option("TablebasePath", str(tmp_path))
    assert bot.tablebase_dir() is None


# -- the command line -------------------------------------------------------------------
def test_solve_build_and_query(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "4",
                                  "--dir", str(tmp_path), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert " 4 seeds: 1365 boards" in result.output
    result = runner.invoke(main, ["solve", "query", "oware", "0,0,0,0,1,1/0,1,0,0,0,0 23 22 s",
                                  "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pos = Position("oware", text="0,0,0,0,1,1/0,1,0,0,0,0 23 22 s")
    tb = tablebase.open_tablebase(tmp_path)
    total = tablebase.total_margin(tb, pos.state)
    assert result.output.startswith(f"value {total:+d} for south")
    best = max(v.value for v in tablebase.move_values(tb, pos))
    assert "best moves: " in result.output and f" {best:+d}" in result.output
    assert "settled" in result.output.splitlines()[0]


def test_solve_build_prove_and_query(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "4", "--prove",
                                  "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert " 4 seeds: 1365 boards, 1429 bytes (and 2794 of proven bounds)" in result.output
    assert (tmp_path / tablebase.bounds_name(4)).stat().st_size == 2794
    result = runner.invoke(main, ["solve", "query", "oware", "0,0,0,0,1,1/0,1,0,0,0,0 23 22 s",
                                  "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert "exact, proven" in first or "not proven" in first
    result = runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "5", "--no-prove",
                                  "--dir", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"bingwa: error: {tmp_path} holds databases built with "
                                     "--prove; build the others in another folder")


def test_a_build_into_a_file_is_one_line_and_no_progress_bar(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    result = CliRunner().invoke(main, ["solve", "build", "oware", "--max-seeds", "2",
                                       "--dir", str(tmp_path / "a-file")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bingwa: error: ")
    assert "cannot create the folder" in lines[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "query", "oware", "4,4,4,4,4,4/4,4,4,4,4,4 0 0 s"], "hold up to 2"),
        (["solve", "query", "oware", "nonsense"], "a position has 4 fields"),
        (["solve", "build", "kalah", "--max-seeds", "2"], "oware only"),
        (["solve", "build", "oware", "--max-seeds", "49"], "--max-seeds must be in 0..48"),
        (["solve", "build", "oware", "--max-seeds", "2", "-o", "grandslam=sometimes"],
         "sometimes"),
    ],
)
def test_solve_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "2",
                                "--dir", str(tmp_path)]).exit_code == 0
    result = runner.invoke(main, [*args, "--dir", str(tmp_path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bingwa: error: ") and message in lines[0]


def test_analyse_probes_the_databases_and_prints_tbhits(folder: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["analyse", "oware", "-p", "0,0,0,1,2,3/1,0,0,2,0,4 16 19 s", "-d", "6"]
    result = runner.invoke(main, [*args, "--tablebase", str(folder)])
    assert result.exit_code == 0, result.output
    assert " tbhits " in result.output
    assert " tbhits " not in runner.invoke(main, args).output
    result = runner.invoke(main, [*args, "--tablebase", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert result.output.strip().endswith("no such database folder")


def test_query_without_databases_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["solve", "query", "oware", "0,0,0,0,1,1/0,1,0,0,0,0 23 22 s",
                                       "--dir", str(tmp_path / "none")])
    assert result.exit_code == 2
    assert result.output.strip() == f"bingwa: error: {tmp_path / 'none'}: no such database folder"
