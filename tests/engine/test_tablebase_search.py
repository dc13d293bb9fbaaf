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


def quiet_and_capturing(rng: random.Random, seeds: int) -> tuple[Position, Position]:
    """A position in range where no move and no reply captures (so that a
    search of depth 1, its quiescence included, meets no capture), and one
    with a capture among its moves."""
    quiet = capturing = None
    while quiet is None or capturing is None:
        pos = random_endgame(rng, seeds, rng.randrange(2))
        if pos.is_over():
            continue
        gains = [pos.play(m).state[1] != pos.state[1] for m in pos.legal_moves()]
        replies = [child.play(r).state[1] != child.state[1]
                   for child in (pos.play(m) for m in pos.legal_moves()) if not child.is_over()
                   for r in child.legal_moves()]
        if not any(gains) and not any(replies) and quiet is None:
            quiet = pos
        goes_on = [pos.play(m).state[1] != pos.state[1] and not pos.play(m).is_over()
                   for m in pos.legal_moves()]
        if any(goes_on) and capturing is None:
            capturing = pos
    return quiet, capturing


def test_the_search_reads_the_databases_only_right_after_a_capture(tb) -> None:
    """A database holds the game started with no history, which is the game
    only right after a capture: after a quiet move the path since the
    capture decides what repeats, and the search does not probe there."""
    rng = random.Random(12)
    for _ in range(10):
        quiet, capturing = quiet_and_capturing(rng, 7)
        searcher = Searcher()
        searcher.set_tablebase(tb)
        searcher.search(quiet, Limits(depth=1))
        assert searcher.tbhits == 0, quiet.text()
        searcher.search(capturing, Limits(depth=1))
        assert searcher.tbhits >= 1, capturing.text()


def test_a_probe_says_what_it_read(tb, tmp_path: Path) -> None:
    """Without --prove an entry is an estimate; with it an unflagged entry
    is exact and a flagged one gives its proven bounds."""
    pos = Position("oware", ((0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0), (20, 26), 0))
    kind, lo, hi = tb.probe(pos.state)
    assert kind == "estimate" and lo == hi == -6 + tablebase.entry(tb, pos.state).value
    tablebase.build(tmp_path, 4, prove=True)
    proven = tablebase.open_tablebase(tmp_path)
    kinds = set()
    for board in [(0, 1, 0, 0, 0, 1) + (0,) * 6, (0, 0, 0, 0, 1, 1) + (0, 1) + (0,) * 4,
                  (2, 0, 0, 0, 0, 0) + (0,) * 5 + (1,)]:
        kind, lo, hi = proven.probe((board, (0, 0), 0))
        entry = tablebase.entry(proven, (board, (0, 0), 0))
        kinds.add(kind)
        if kind == "exact":
            assert not entry.cycle and lo == hi == entry.value
        else:
            assert kind == "bounds" and entry.cycle and lo <= entry.value <= hi and lo < hi
    assert kinds == {"exact", "bounds"}
    assert proven.probe(((4,) * 12, (0, 0), 0)) is None


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


@pytest.fixture(scope="module")
def proven_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("proven")
    tablebase.build(path, 6, prove=True)
    return path


def test_perfect_bot_plays_a_database_move_only_where_every_value_is_exact(
        proven_folder: Path) -> None:
    """Where every move ends the game or captures into a proven entry the
    bot plays the best database value; where the position's own entry is
    proven exact, the move that keeps it by the ranks (test_tablebase_ranks);
    elsewhere (a quiet move's value would depend on the history) it
    searches."""
    tb = tablebase.open_tablebase(proven_folder)
    bot = perfect_bot(proven_folder)
    rng = random.Random(5)
    exact = kept = searched = 0
    for pos in playable(rng, 6, 80):
        values = tablebase.move_values(tb, pos)
        seen: list[Info] = []
        result = bot.go(pos, Limits(depth=4), seen.append, threading.Event())
        keeping = tablebase.keeping_move(tb, pos)
        if all(tablebase.exact_move_value(tb, pos, v) for v in values):
            exact += 1
            by_move = {v.move: v.value for v in values}
            assert by_move[result.best] == max(by_move.values())
            assert seen[-1].depth == 1
        elif tb.probe(pos.state)[0] == "exact" and keeping is not None:
            kept += 1
            assert result.best == keeping.move
            assert seen[-1].depth == 1
        else:
            searched += 1
            assert seen[-1].depth >= 2  # the search iterated
    assert exact >= 3 and kept >= 20 and searched >= 3


def test_the_perfect_bot_holds_what_the_databases_claim(proven_folder: Path) -> None:
    """Play-outs (engine/playout.py): from boards with no history whose
    entry is proven exact, the perfect bot playing the side the databases
    say wins (a side drawn at random for a draw) gets that result against
    the engine deviating at random."""
    from bingwa.engine.playout import Claim, deviating, play_out, random_endgame, search_player

    tb = tablebase.open_tablebase(proven_folder)
    bot = perfect_bot(proven_folder)

    def perfect(position: Position) -> str:
        best = bot.go(position, Limits(depth=8), lambda info: None, threading.Event()).best
        assert best is not None
        return best

    rng = random.Random(26)
    played = 0
    while played < 25:
        pos = random_endgame(rng, "oware", rng.randint(3, 6))
        if tablebase.entry(tb, pos.state).cycle:
            continue
        margin = tablebase.total_margin(tb, pos.state)
        winner = None if margin == 0 else (pos.turn if margin > 0 else 1 - pos.turn)
        claim = Claim(winner, 10_000)
        game = play_out(pos, claim, perfect,
                        deviating(search_player(Searcher(), Limits(depth=8)), rng, 0.2), rng)
        assert game.refuted is None, (pos.text(), game)
        played += 1


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
    result = runner.invoke(main, ["solve", "build", "oware", "--max-seeds", "4", "--no-prove",
                                  "--dir", str(tmp_path), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert " 4 seeds: 1365 boards" in result.output
    assert not (tmp_path / tablebase.bounds_name(4)).exists()
    result = runner.invoke(main, ["solve", "query", "oware", "0,0,0,0,1,1/0,1,0,0,0,0 23 22 s",
                                  "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pos = Position("oware", text="0,0,0,0,1,1/0,1,0,0,0,0 23 22 s")
    tb = tablebase.open_tablebase(tmp_path)
    total = tablebase.total_margin(tb, pos.state)
    assert result.output.startswith(f"value {total:+d} for south")
    best = max(v.value for v in tablebase.move_values(tb, pos))
    assert "best moves: " in result.output and f" {best:+d}" in result.output
    assert "an estimate, settled but not proven" in result.output.splitlines()[0]


def test_a_new_folder_builds_proven_databases_by_default(tmp_path: Path) -> None:
    """What a user gets by default is what the search can trust."""
    result = CliRunner().invoke(main, ["solve", "build", "oware", "--max-seeds", "3",
                                       "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "of proven bounds" in result.output
    assert tablebase.open_tablebase(tmp_path).proven
    # and its small counts solved over every line: the two-seed chase is worth 0
    result = CliRunner().invoke(main, ["solve", "query", "oware", "0,1,0,0,0,1/0,0,0,0,0,0 23 23 s",
                                       "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "(board +0, exact, every line searched (repetitions included))" in result.output
    # without them a cycle leaves the entry open, and the query says so
    other = tmp_path / "sweeps-only"
    result = CliRunner().invoke(main, ["solve", "build", "oware", "--max-seeds", "3",
                                       "--exact-seeds", "-1", "--dir", str(other)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["solve", "query", "oware", "0,1,0,0,0,1/0,0,0,0,0,0 23 23 s",
                                       "--dir", str(other)])
    assert "not proven: a cycle decides it; the proven bounds hold" in result.output


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
    assert "exact, every line searched" in first  # 4 seeds: within --exact-seeds 7
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
