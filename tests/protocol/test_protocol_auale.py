"""Aualé compatibility: the conversation of the Aualé GUI with its engine,
replayed line by line (tests/data/auale_conversation.txt), and the dialect's
rules one by one."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from support.testbots import (
    BusyBot,
    MateBot,
    RecordingBot,
    ServerSession,
    read_script,
    replay,
)

from bingwa.bots import find_bot
from bingwa.bots.base import Bot
from bingwa.engine.limits import Info, SearchResult
from bingwa.protocol.auale import AUALE, MAX_PV_PLIES
from bingwa.protocol.transport import ProcessTransport

TESTS = Path(__file__).resolve().parents[1]
SCRIPT = TESTS / "data" / "auale_conversation.txt"


def test_auale_conversation_replayed_in_process():
    session = ServerSession(find_bot("greedy")(), dialect="auale")
    checked = replay(read_script(SCRIPT), session.send, session.next_line)
    session.thread.join(5)
    assert not session.thread.is_alive() and session.status == 0
    assert checked == 25


def test_auale_conversation_replayed_with_bingwa_engine():
    transport = ProcessTransport(
        [sys.executable, "-m", "bingwa", "engine", "--bot", "greedy", "--dialect", "auale"])

    def receive(timeout: float) -> str | None:
        got = transport.receive(timeout)
        return None if got is None else got[1]

    replay(read_script(SCRIPT), transport.send, receive)
    assert transport.close(5) == 0


def test_auale_mode_can_be_chosen_with_the_dialect_option():
    session = ServerSession(find_bot("greedy")())
    session.send("setoption name Dialect value auale", "position startpos moves FfBe",
                 "query legalmoves", "setoption name dialect value UCI",
                 "position startpos moves f F b E", "query legalmoves")
    assert session.sync() == ["response A B C D E F", "response a b c d e f"]
    session.close()


def test_wtime_is_south_clock_in_auale_mode():
    bot = RecordingBot()
    session = ServerSession(bot, dialect="auale")
    session.send("position startpos", "go wtime 1000 btime 2000 winc 5",
                 "position startpos moves A", "go wtime 900 btime 2000")
    session.wait_for("bestmove")
    session.wait_for("bestmove")
    session.close()
    (_, first), (_, second) = bot.calls
    assert (first.p1time, first.p2time, first.p1inc) == (1000, 2000, 5)
    assert second.clock(1) == (2000, 0)  # North to move: its clock is btime


def test_proven_results_are_written_as_2500_centiseeds():
    session = ServerSession(MateBot(), dialect="auale")
    session.send("position startpos", "go depth 4")
    assert session.wait_for("info depth") == (
        "info depth 4 score cp 2500 lowerbound nodes 10 nps 1234 pv AB")
    assert session.wait_for("bestmove") == "bestmove A"
    session.close()


def test_alphabeta_reports_a_won_endgame_as_cp_2500_in_auale_mode():
    session = ServerSession(find_bot("alphabeta")(), dialect="auale")
    # South's f sows into North's a, making 2: a capture to 26 seeds (not a grand slam)
    session.send("position fen 0-0-0-0-0-1-1-1-0-0-0-0-24-21-S", "go depth 3")
    assert session.wait_for("bestmove") == "bestmove F"
    infos = [line for line in session.lines if line.startswith("info depth")]
    assert infos and all(" score cp 2500" in line for line in infos)
    session.close()


def test_bad_auale_input_gets_one_error_line():
    session = ServerSession(find_bot("greedy")(), dialect="auale")
    session.send("position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-1-S", "position startpos moves FG",
                 "position startpos moves f", "setoption name UCI_Variant value kalah",
                 "setoption name grandslam value capture", "setoption name Hash value x")
    assert session.sync() == [
        "info string error: the seeds add up to 49, not 48",
        "info string error: moves: 'G' is not an Aualé move (South A-F, North a-f, moves "
        "written as one word)",
        "info string error: move 1: f: not your pit (South to move)",
        "info string error: the Aualé dialect speaks Oware Abapa only (oware), not kalah",
        "info string error: the Aualé dialect speaks Oware Abapa only (oware), not oware "
        "grandslam=capture",
        "info string error: option Hash takes a whole number, not 'x'",
    ]
    session.close()


def test_compliance_in_auale_dialect():
    from bingwa.protocol.client import Engine
    from bingwa.protocol.compliance import run_compliance

    lines: list[str] = []
    report = run_compliance(
        make_engine=lambda: Engine.in_process(find_bot("greedy")(), dialect="auale"),
        dialect="auale", echo=lines.append)
    assert report.passed, "\n".join(lines)
    assert any(line.startswith("PASS positions of oware") for line in lines)


def test_auale_searchmoves_queries_and_d_use_auale_words():
    session = ServerSession(find_bot("greedy")(), dialect="auale")
    session.send("position startpos moves Ff", "go depth 1 searchmoves B e", "query legalmoves",
                 "d")
    assert session.wait_for("info string") == (
        "info string error: searchmoves: e: not your pit (South to move)")
    assert session.wait_for("bestmove") == "bestmove B"
    lines = session.sync()
    assert "response A B C D E" in lines
    assert "Wire: 5-5-5-5-4-0-5-5-5-5-4-0-0-0-S" in lines
    assert "Position: 5,5,5,5,4,0/5,5,5,5,4,0 0 0 s" in lines
    session.close()


# -- issue 13, item 7 --------------------------------------------------------------------
def test_ownbook_is_accepted_silently_other_aalina_options_with_a_note():
    session = ServerSession(find_bot("greedy")(), dialect="auale")
    session.send("setoption name OwnBook value true", "setoption name ownbook value false")
    assert session.sync() == []
    session.send("setoption name UseLeaves value true")
    assert session.sync() == [
        "info string option 'UseLeaves' is not supported by bingwa; ignored"]
    session.close()


def test_setoption_during_a_ponder_search_is_answered_at_once():
    session = ServerSession(BusyBot(), dialect="auale")
    session.send("position startpos moves F", "go ponder")
    time.sleep(0.1)
    session.send("setoption name UseLeaves value true", "setoption name Move Overhead value 30",
                 "setoption name OwnBook value true")
    assert session.wait_for("info string", timeout=1) == (
        "info string option 'UseLeaves' is not supported by bingwa; ignored")
    assert not [line for line in session.sync() if line.startswith("bestmove")]
    assert session.server.values["move overhead"] == 30
    session.send("stop")
    assert session.wait_for("bestmove").startswith("bestmove ")
    session.close()


def test_an_option_the_bot_searches_with_still_waits_for_the_ponder_search():
    session = ServerSession(BusyBot(), dialect="auale")
    session.send("position startpos moves F", "go ponder", "setoption name Hash value 2")
    time.sleep(0.1)
    assert session.server.bot.option("Hash") == 1
    session.send("stop")
    session.wait_for("bestmove")
    session.sync()
    assert session.server.bot.option("Hash") == 2
    session.close()


class LongLineBot(Bot):
    """Reports a principal variation of 40 plies."""

    name = "longline"

    def go(self, position, limits, emit, stop):
        emit(Info(depth=40, score_cp=10, pv=["a", "F"] * 20))
        return SearchResult("a")


def test_the_principal_variation_shown_to_auale_is_cut_to_a_readable_length():
    session = ServerSession(LongLineBot(), dialect="auale")
    session.send("position startpos", "go depth 40")
    info = session.wait_for("info depth")
    assert info.split(" pv ")[1] == "Af" * (MAX_PV_PLIES // 2)
    session.close()
    assert AUALE.moves_to_wire(["a", "F"] * 20) == ["Af" * 20]  # positions keep every move
