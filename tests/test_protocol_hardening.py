"""Issue 13, the protocol part: bad or huge input, searches that only some
commands end, jobs that must stop, end of input. Each test reproduces one
defect the issue reported (docs/protocol.md says what must happen)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from bingwa.bots import find_bot
from bingwa.protocol.server import MAX_ERROR, MAX_LINE

sys.path.insert(0, str(Path(__file__).parent))
from protocol_testbots import ServerSession  # noqa: E402


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
    assert error.startswith("info string error: searchmoves: 'a0' is not a Bao move")
    assert error.endswith("; and 9997 more searchmoves refused")
    assert greedy.wait_for("bestmove").startswith("bestmove ")
    assert not [line for line in greedy.sync() if line.startswith("info string error")]


def test_stop_answers_at_once_after_a_flood_of_searchmoves(greedy):
    words = "a " * (MAX_LINE // 2 - 20)  # just under the line limit
    greedy.send("setoption name UCI_Variant value bao", "position startpos")
    greedy.sync()
    greedy.send(f"go infinite searchmoves {words}")
    time.sleep(0.05)
    start = time.monotonic()
    greedy.send("stop")
    greedy.wait_for("bestmove", timeout=30)
    assert time.monotonic() - start < 0.25  # the 50 ms, with a loaded machine's margin


def test_an_overlong_line_is_refused_without_being_read_whole(greedy):
    greedy.send("position startpos moves " + "c " * (3 * MAX_LINE), "position startpos moves c",
                "query p1turn")
    assert greedy.sync() == [
        f"info string error: line of more than {MAX_LINE} characters refused", "response false"]
    assert greedy.input.longest <= MAX_LINE + 1
