"""The protocol client: exact lines exchanged with a scripted engine, and
every failure told apart (with a scripted engine and with real processes)."""

from __future__ import annotations

import sys

import pytest

from bingwa.bots import find_bot
from bingwa.engine import Position, Termination
from bingwa.engine.limits import Limits
from bingwa.protocol.client import (
    Engine,
    EngineCrash,
    EngineIllegalMove,
    EngineStall,
    EngineStartError,
    EngineTimeout,
    EngineUnparsableMove,
    ScriptedTransport,
)

HANDSHAKE = (
    "id name Mock 1", "id author Someone",
    "option name UCI_Variant type combo default oware var oware var kalah",
    "option name pits type spin default 6 min 1 max 12",
    "option name Hash type spin default 16 min 1 max 64",
    "option name Broken type dial",
    "uciok",
)


def scripted(**kw):
    transport = ScriptedTransport()
    transport.expect("uci", *HANDSHAKE)
    engine = Engine(transport, **kw)
    engine.handshake()
    return engine, transport


def test_handshake_reads_id_and_options():
    engine, transport = scripted()
    assert engine.id == {"name": "Mock 1", "author": "Someone"}
    assert engine.has_option("uci_variant") and engine.has_option("HASH")
    assert engine.options["pits"].max == 12
    assert engine.bad_option_lines == ["option name Broken type dial"]
    transport.assert_done()


def test_play_sends_the_game_and_checks_the_move():
    engine, transport = scripted()
    position = Position("oware")
    position.push("c")
    transport.expect("position startpos moves c")
    transport.expect("go wtime 1000 btime 900 winc 10 binc 10",
                     "info depth 1 score cp 12 nodes 6 pv A b",
                     "info string error: something odd",
                     "bestmove A ponder b")
    result = engine.play(position, Limits(p1time=1000, p2time=900, p1inc=10, p2inc=10))
    transport.assert_done()
    assert result.move.text == "A" and result.ponder == "b"
    assert result.info.score_cp == 12 and result.info.pv == ["A", "b"]
    assert result.errors == ["error: something odd"]
    assert result.lines[-1] == "bestmove A ponder b"
    assert result.elapsed >= 0


def test_a_position_from_a_string_is_sent_as_fen_with_its_moves():
    engine, transport = scripted(clock_names="ugi")
    position = Position("oware", text="0,1,2,3,4,5/6,7,0,0,0,0 10 10 s")
    position.push("f")
    transport.expect("position fen 0,1,2,3,4,5/6,7,0,0,0,0 10 10 s moves f")
    transport.expect("go p1time 5 p2time 5 searchmoves A B", "bestmove A")
    assert engine.play(position, Limits(p1time=5, p2time=5, searchmoves=["A", "B"])).move.text == "A"


def test_set_variant_sends_the_variant_and_the_parameters_the_engine_has():
    engine, transport = scripted()
    transport.expect("setoption name UCI_Variant value kalah")
    transport.expect("setoption name pits value 4")
    transport.expect("ucinewgame")
    transport.expect("isready", "readyok")
    engine.set_variant("kalah pits=4 seeds=3")
    engine.new_game()
    transport.assert_done()


def test_set_variant_without_uci_variant_only_allows_oware():
    transport = ScriptedTransport()
    transport.expect("uci", "uciok")
    engine = Engine(transport)
    engine.handshake()
    engine.set_variant("oware")
    with pytest.raises(ValueError, match="no UCI_Variant"):
        engine.set_variant("kalah")


def test_ping_and_query():
    engine, transport = scripted()
    transport.expect("isready", "readyok")
    assert engine.ping() >= 0
    transport.expect("query gameover", "response false")
    assert engine.query("gameover") == "false"


def test_stall_when_uciok_never_comes():
    transport = ScriptedTransport()
    transport.expect("uci", "id name Slow")
    with pytest.raises(EngineStall, match="no uciok") as caught:
        Engine(transport).handshake(timeout=0.01)
    assert caught.value.termination is Termination.STALL
    assert caught.value.command == "uci"
    assert caught.value.transcript == ["> uci", "< id name Slow"]


def test_stall_when_readyok_never_comes():
    engine, transport = scripted()
    transport.expect("isready")
    with pytest.raises(EngineStall, match="no readyok"):
        engine.ping(timeout=0.01)


def test_a_silent_search_is_pinged_and_a_dead_one_stalls():
    engine, transport = scripted(ping_interval=0.01, ready_timeout=0.01)
    transport.expect("position startpos")
    transport.expect("go depth 9")
    transport.expect("isready", "readyok")  # alive: pinged again later
    transport.expect("isready")  # no answer: a stall
    with pytest.raises(EngineStall, match="during a search") as caught:
        engine.play(Position("oware"), Limits(depth=9))
    assert caught.value.command == "go depth 9"


def test_engines_that_answer_nothing_while_searching_are_not_pinged():
    engine, transport = scripted(ping_during_search=False)
    transport.expect("position startpos")
    transport.expect("go movetime 10")
    with pytest.raises(EngineTimeout) as caught:
        engine.play(Position("oware"), Limits(movetime=10), timeout=0.05)
    assert caught.value.termination is Termination.TIME_FORFEIT
    transport.assert_done()  # no isready was sent


def test_timeout_when_bestmove_never_comes():
    engine, transport = scripted(ping_interval=10)
    transport.expect("position startpos")
    transport.expect("go movetime 10", "info depth 1")
    with pytest.raises(EngineTimeout, match="no bestmove within"):
        engine.play(Position("oware"), Limits(movetime=10), timeout=0.05)


def test_crash_when_the_engine_ends():
    engine, transport = scripted()
    transport.expect("position startpos")
    transport.expect("go depth 1", "info depth 1", ScriptedTransport.EOF)
    with pytest.raises(EngineCrash) as caught:
        engine.play(Position("oware"), Limits(depth=1))
    assert caught.value.termination is Termination.CRASH
    assert caught.value.command == "go depth 1"
    assert "go depth 1" in caught.value.describe()


@pytest.mark.parametrize("line, error, message", [
    ("bestmove B", EngineIllegalMove, "not your pit"),
    ("bestmove z", EngineUnparsableMove, "not a pit letter"),
    ("bestmove", EngineUnparsableMove, "names no move"),
    ("bestmove (none)", EngineIllegalMove, "while the game goes on"),
    ("bestmove 0000", EngineIllegalMove, "while the game goes on"),
])
def test_bad_bestmoves_are_told_apart(line, error, message):
    engine, transport = scripted()
    transport.expect("position startpos")
    transport.expect("go depth 1", line)
    with pytest.raises(error, match=message) as caught:
        engine.play(Position("oware"), Limits(depth=1))
    assert caught.value.termination is Termination.ILLEGAL_MOVE


def test_a_move_at_a_finished_game_is_illegal_and_none_is_right():
    done = Position("oware", text="0,0,0,0,0,0/0,0,0,0,0,0 25 23 s")
    engine, transport = scripted()
    transport.expect("position fen 0,0,0,0,0,0/0,0,0,0,0,0 25 23 s")
    transport.expect("go depth 1", "bestmove (none)")
    assert engine.play(done, Limits(depth=1)).move is None
    transport.expect("position fen 0,0,0,0,0,0/0,0,0,0,0,0 25 23 s")
    transport.expect("go depth 1", "bestmove a")
    with pytest.raises(EngineIllegalMove, match="game is over"):
        engine.play(done, Limits(depth=1))


def test_a_bestmove_with_no_search_is_recorded_as_stray():
    engine, transport = scripted()
    transport.expect("isready", "bestmove a", "readyok")
    engine.ping()
    assert engine.stray == ["bestmove a"]


def test_auale_dialect_client_writes_and_reads_auale_words():
    transport = ScriptedTransport()
    transport.expect("uci", "id name Aalina", "id author Joan", "uciok")
    engine = Engine(transport, dialect="auale")
    assert not engine.ping_during_search
    engine.handshake()
    position = Position("oware")
    position.push_all(["f", "F"])
    transport.expect("position startpos moves Ff")
    transport.expect("go movetime 600 depth 4",
                     "info depth 4 score cp 2500 pv BeA", "bestmove B ponder e")
    result = engine.play(position, Limits(depth=4, movetime=600))
    assert result.move.text == "b" and result.ponder == "E"
    assert result.info.pv == ["b", "E", "a"]
    done = Position("oware", text="0,0,0,0,0,0/0,0,0,0,0,0 25 23 n")
    transport.expect("position fen 0-0-0-0-0-0-0-0-0-0-0-0-25-23-N")
    transport.expect("go depth 1", "bestmove 0000")
    assert engine.play(done, Limits(depth=1)).move is None


def test_unexpected_client_lines_fail_the_script():
    transport = ScriptedTransport()
    transport.expect("uci", "uciok")
    with pytest.raises(AssertionError, match="expected 'uci'"):
        Engine(transport).ping()


# -- real engines ------------------------------------------------------------------
def test_in_process_engine_plays_a_game_to_its_end():
    with Engine.in_process(find_bot("greedy")()) as engine:
        engine.handshake()
        engine.set_variant("kalah pits=3 seeds=2")
        engine.new_game()
        position = Position("kalah pits=3 seeds=2")
        while not position.is_over():
            result = engine.play(position, Limits(depth=1), timeout=5)
            position.push(result.move)
        assert engine.play(position, Limits(depth=1), timeout=5).move is None


def test_process_engine_play_and_quit_status():
    engine = Engine.popen([sys.executable, "-m", "bingwa", "engine", "--bot", "random"])
    engine.handshake()
    assert engine.id["name"].startswith("bingwa")
    result = engine.play(Position("oware"), Limits(depth=1), timeout=10)
    assert result.move is not None
    assert engine.quit() == 0


def test_a_command_that_cannot_start():
    with pytest.raises(EngineStartError, match="cannot start"):
        Engine.popen(["/nonexistent/engine"])


def test_a_process_that_dies_is_a_crash_with_its_status_and_error_line():
    script = "import sys; sys.stdin.readline(); print('oops', file=sys.stderr); sys.exit(3)"
    engine = Engine.popen([sys.executable, "-c", script])
    with pytest.raises(EngineCrash) as caught:
        engine.handshake(timeout=5)
    assert caught.value.returncode == 3
    assert "status 3" in str(caught.value) and "oops" in str(caught.value)


def test_a_process_that_hangs_is_a_stall_and_is_killed_on_quit():
    engine = Engine.popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with pytest.raises(EngineStall):
        engine.handshake(timeout=0.3)
    assert engine.quit(timeout=0.2) is not None
