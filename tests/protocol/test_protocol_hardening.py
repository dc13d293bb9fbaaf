"""Issue 13, the protocol part: bad or huge input, searches that only some
commands end, jobs that must stop, end of input. Each test reproduces one
defect the issue reported (docs/protocol.md says what must happen)."""

from __future__ import annotations

import signal
import statistics
import subprocess
import sys
import time

import pytest
from support.testbots import BusyBot, ServerSession, StubbornBot
from support.variants import make_variant

from bingwa.bots import bot_names, find_bot
from bingwa.engine import Position
from bingwa.engine.perft import PerftStopped
from bingwa.engine.perft import count as perft_count
from bingwa.protocol.jobs import MAX_SEARCHMOVES
from bingwa.protocol.server import MAX_ERROR, MAX_LINE


@pytest.fixture
def greedy():
    session = ServerSession(find_bot("greedy")())
    yield session
    session.close()


def bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("bestmove")]


# -- item 1: unbounded error echo -------------------------------------------------
def test_an_error_line_quotes_a_bounded_length(greedy):
    greedy.send("setoption name UCI_Variant value bao", "position startpos",
                "go depth 1 searchmoves " + " ".join(f"a{n}" for n in range(10_000)))
    error = greedy.wait_for("info string error")
    assert len(error) <= len("info string ") + MAX_ERROR
    assert error.startswith(f"info string error: searchmoves names 10000 different words; "
                            f"the first {MAX_SEARCHMOVES} are read; searchmoves: 'a0' is not")
    assert error.endswith(f"; and {MAX_SEARCHMOVES - 3} more searchmoves refused")
    assert greedy.wait_for("bestmove").startswith("bestmove ")
    assert not [line for line in greedy.sync() if line.startswith("info string error")]


def test_refused_searchmoves_are_reported_even_when_stop_follows_at_once(greedy):
    greedy.send("setoption name UCI_Variant value bao", "position startpos",
                "go depth 1 searchmoves " + "a " * 40_000, "stop")
    assert greedy.wait_for("info string error").startswith(
        "info string error: searchmoves: 'a' is not a Bao move")
    assert greedy.wait_for("bestmove").startswith("bestmove ")


def test_stop_answers_at_once_after_a_flood_of_searchmoves(greedy):
    words = "a " * (MAX_LINE // 2 - 20)  # just under the line limit
    greedy.send("setoption name UCI_Variant value bao", "position startpos")
    greedy.sync()
    delays = []
    for _ in range(3):
        greedy.send(f"go infinite searchmoves {words}")
        time.sleep(0.05)
        start = time.monotonic()
        greedy.send("stop")
        greedy.wait_for("bestmove", timeout=30)
        delays.append(time.monotonic() - start)
    # the issue's 50 ms, with a loaded machine's margin (it took 4-8 s)
    assert statistics.median(delays) < 0.25 and max(delays) < 1.0


def test_an_overlong_line_is_refused_without_being_read_whole(greedy):
    greedy.send("position startpos moves " + "c " * (3 * MAX_LINE), "position startpos moves c",
                "query p1turn")
    assert greedy.sync() == [
        f"info string error: line of more than {MAX_LINE} characters refused", "response false"]
    assert greedy.input.longest <= MAX_LINE + 1


# -- item 2: a go with only the opponent's clock -----------------------------------
def test_a_go_with_only_the_opponents_clock_is_ended_by_a_new_go():
    session = ServerSession(BusyBot())  # reads depth and movetime only
    session.send("position startpos moves a", "go wtime 5")
    time.sleep(0.1)
    session.send("go depth 1")
    session.wait_for("bestmove", timeout=5)
    session.wait_for("bestmove", timeout=5)
    session.close(timeout=5)


def test_a_go_with_only_the_opponents_clock_waiting_behind_a_search_is_ended_by_a_new_go():
    session = ServerSession(BusyBot())
    # when the new go arrives, the waiting one has no side to move yet
    session.send("position startpos moves a", "go depth 2", "go wtime 5", "go depth 1")
    for _ in range(3):
        session.wait_for("bestmove", timeout=5)
    session.close(timeout=5)


def test_the_issues_opponents_clock_command_ends_at_the_end_of_its_input():
    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "engine"], input="position startpos moves a\ngo wtime 5\n",
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert len(bestmoves(done.stdout.splitlines())) == 1
    assert done.stderr == ""


# -- item 4: end of input during a long search ---------------------------------------
@pytest.mark.parametrize("go", ["go depth 60", f"go nodes {10**12}", "go movetime 100000"])
def test_end_of_input_during_a_long_search_answers_and_ends(go):
    session = ServerSession(StubbornBot())
    session.send("position startpos", go, "go depth 5")
    time.sleep(0.05)
    lines = session.close(timeout=5)
    assert len(bestmoves(lines)) == 2
    assert session.status == 0


# -- item 6: a malformed go ------------------------------------------------------------
@pytest.mark.parametrize("go", ["go depth abc", "go infinite depth abc", "go ponder nodes -3",
                                "go frobnicate", "go wtime"])
def test_a_malformed_go_gets_its_error_and_a_prompt_bestmove(go):
    session = ServerSession(BusyBot())
    session.send("position startpos", go)
    assert session.wait_for("info string").startswith("info string error: ")
    assert session.wait_for("bestmove", timeout=2).startswith("bestmove ")
    session.close(timeout=5)


# -- item 3: perft and bench stop ------------------------------------------------------
@pytest.mark.parametrize("spec", ["oware", "bao"])
def test_a_perft_count_stops_when_its_poll_says_so(spec, kind):
    variant = make_variant(spec, kind)
    position = Position(variant)
    polls = []

    def poll() -> bool:
        polls.append(1)
        return len(polls) >= 3

    with pytest.raises(PerftStopped):
        perft_count(variant.kernel, position.state, 30, poll)
    assert len(polls) == 3
    assert perft_count(variant.kernel, position.state, 3, lambda: False) == position.perft(3)


def test_stop_ends_a_deep_perft_and_the_go_behind_it(greedy):
    greedy.send("position startpos", "perft 30", "go depth 1")
    time.sleep(0.2)
    greedy.send("stop")
    assert greedy.wait_for("info string perft", timeout=3) == (
        "info string perft stopped after 0 of 6 moves")
    assert greedy.wait_for("bestmove", timeout=3).startswith("bestmove ")


def test_stop_ends_a_bench(greedy):
    greedy.send("bench")
    time.sleep(0.3)
    greedy.send("stop")
    assert greedy.wait_for("info string bench", timeout=3).startswith(
        "info string bench stopped after ")
    assert not [line for line in greedy.sync() if line.startswith("Nodes searched")]


def test_perft_on_the_command_line_answers_ctrl_c_within_half_a_second():
    process = subprocess.Popen([sys.executable, "-m", "bingwa", "perft", "oware", "30"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # started and counting
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=10)
    finally:
        process.kill()
    assert time.monotonic() - sent < 0.5 + 1.0  # the issue's 0.5 s, with a loaded machine's margin
    assert process.returncode == 130
    assert err == "bingwa: interrupted\n"


def test_stop_ends_a_perft_that_has_not_started_yet():
    session = ServerSession(BusyBot())
    session.send("position startpos", "go depth 20", "perft 30", "go depth 1", "stop")
    assert session.wait_for("info string perft", timeout=3) == (
        "info string perft stopped after 0 of 6 moves")
    assert len(bestmoves(session.close(timeout=5))) == 1  # the first went before the perft line


# -- item 5: a big Hash does not block the reader -------------------------------------
@pytest.mark.skipif("alphabeta" not in bot_names(), reason="the compiled search is not built")
def test_isready_answers_at_once_after_a_4_gb_hash():
    session = ServerSession(find_bot("alphabeta")())
    start = time.monotonic()
    session.send("setoption name Hash value 4096", "ucinewgame", "setoption name Clear Hash")
    assert session.sync(timeout=10) == []
    assert time.monotonic() - start < 3.0  # zeroing 4 GB took 7 s; now no time at all
    session.send("setoption name Hash value 1", "position startpos", "go depth 4")
    assert session.wait_for("bestmove").startswith("bestmove ")
    session.close(timeout=5)
