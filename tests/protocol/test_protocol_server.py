"""The protocol server, command by command, with the exact lines it writes
(docs/protocol.md). The server runs on a thread of the test process."""

from __future__ import annotations

import re
import threading
import time

import pytest
from support.testbots import (
    BrokenSink,
    BusyBot,
    FailingBot,
    IllegalBot,
    LineFeed,
    MateBot,
    NoMoveBot,
    RecordingBot,
    ServerSession,
    StubbornBot,
)

from bingwa.bots import find_bot
from bingwa.engine import Position, variant_names
from bingwa.engine.variant import OptionSpec
from bingwa.protocol.options import variant_option
from bingwa.protocol.server import EngineServer


@pytest.fixture
def greedy():
    session = ServerSession(find_bot("greedy")())
    yield session
    session.close()


def test_uci_handshake_lists_id_every_option_and_uciok(greedy):
    greedy.send("uci")
    lines = greedy.sync()
    assert lines[0] == "id name bingwa 0.1.0 (greedy)"
    assert lines[1] == "id author the bingwa developers"
    assert lines[-1] == "uciok"
    options = lines[2:-1]
    assert all(line.startswith("option name ") for line in options)
    assert options[0] == "option name UCI_Variant type combo default oware " + " ".join(
        f"var {name}" for name in variant_names())
    for line in (
        "option name grandslam type combo default nocapture var nocapture var forbidden "
        "var capture var leave-first var leave-last var opponent",
        "option name pits type spin default 6 min 1 max 12",
        "option name seeds type spin default 4 min 1 max 10",
        "option name empty-capture type check default false",
        "option name Hash type spin default 16 min 1 max 65536",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Ponder type check default false",
        "option name Dialect type combo default uci var uci var auale",
        "option name Seed type spin default 0 min 0 max 2147483647",
    ):
        assert line in options


def test_ugi_handshake_ends_with_ugiok(greedy):
    greedy.send("ugi")
    assert greedy.sync()[-1] == "ugiok"


def test_a_bot_option_with_a_standard_name_replaces_the_standard_one():
    session = ServerSession(BusyBot())
    session.send("uci")
    lines = session.sync()
    session.close()
    assert "option name Hash type spin default 1 min 1 max 1024" in lines
    assert "option name Hash type spin default 16 min 1 max 65536" not in lines
    assert "option name Burn type check default true" in lines


def test_isready_answers_readyok(greedy):
    greedy.send("isready")
    assert greedy.wait_for("") == "readyok"
    assert greedy.sync() == []


def test_every_line_is_flushed():
    sink_session = ServerSession(find_bot("random")())
    sink_session.send("uci", "position startpos", "go depth 1")
    sink_session.wait_for("bestmove")
    sink_session.close()
    assert sink_session.output.flushes >= len(sink_session.lines)


# -- position, go, bestmove -----------------------------------------------------
def test_go_searches_the_position_sent(greedy):
    greedy.send("position startpos moves a F", "go depth 2")
    assert greedy.wait_for("info") == "info depth 1 score cp 0 nodes 6 pv d"
    assert greedy.wait_for("bestmove") == "bestmove d"


def test_position_fen_then_moves(greedy):
    greedy.send("position fen 0,0,0,0,0,2/3,0,0,0,0,0 20 23 s moves f", "d")
    lines = greedy.sync()
    assert "Position: 0,0,0,0,0,0/4,1,0,0,0,0 20 23 n" in lines


def test_go_before_any_position_is_an_error_and_still_one_bestmove(greedy):
    greedy.send("go depth 1")
    assert greedy.wait_for("info") == (
        "info string error: go before any position (send position startpos|fen ...)")
    assert greedy.wait_for("bestmove") == "bestmove (none)"


def test_finished_game_gets_bestmove_none(greedy):
    greedy.send("position fen 0,0,0,0,0,0/0,0,0,0,0,0 25 23 s", "go depth 3")
    assert greedy.wait_for("bestmove") == "bestmove (none)"
    assert all("error" not in line for line in greedy.lines)


def test_bad_position_keeps_the_last_valid_one(greedy):
    greedy.send("position startpos moves c")
    greedy.send("position startpos moves c c")
    greedy.send("position fen 4,4,4/4,4,4 0 0 s")
    greedy.send("position fen")
    greedy.send("position middle")
    greedy.send("query legalmoves")
    assert greedy.sync() == [
        "info string error: move 2: c: not your pit (North to move)",
        "info string error: South's row has 3 pits, not 6",
        "info string error: position fen needs a position string",
        "info string error: position takes startpos or fen, not 'middle'",
        "response A B C D E F",
    ]


def test_auale_words_in_bingwa_dialect_get_a_hint(greedy):
    greedy.send("position startpos moves FfBe", "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S")
    assert greedy.sync() == [
        "info string error: move 1: 'FfBe' is not a pit letter (South a-f, North A-F) "
        "(Aualé notation? setoption name Dialect value auale)",
        "info string error: a position has 4 fields (pits, South score, North score, side), "
        "got 1: '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S' (Aualé notation? setoption name Dialect "
        "value auale)",
    ]


def test_ucinewgame_forgets_the_position(greedy):
    greedy.send("position startpos", "ucinewgame", "query gameover")
    assert greedy.sync() == [
        "info string error: query before any position (send position startpos|fen ...)"]


def test_ucinewgame_makes_the_same_search_again():
    session = ServerSession(find_bot("random")())
    session.send("setoption name Seed value 5")
    runs = []
    for _ in range(2):
        session.send("ucinewgame", "position startpos", "go depth 1", "go depth 1")
        runs.append((session.wait_for("bestmove"), session.wait_for("bestmove")))
    session.close()
    assert runs[0] == runs[1]


def test_go_parameters_with_errors_are_reported_and_the_go_answered_at_once(greedy):
    greedy.send("position startpos", "go wtime abc btime -50 depth 0 frobnicate")
    assert greedy.wait_for("info string") == (
        "info string error: wtime takes a whole number, not 'abc'; depth must be at least 1, "
        "not 0; unknown go parameter 'frobnicate'")
    assert greedy.wait_for("bestmove").startswith("bestmove ")


def test_searchmoves_restricts_the_choice(greedy):
    greedy.send("position startpos", "go depth 1 searchmoves b e")
    assert greedy.wait_for("bestmove") in ("bestmove b", "bestmove e")


def test_illegal_searchmoves_are_reported_and_dropped(greedy):
    greedy.send("position startpos", "go depth 1 searchmoves A c")
    assert greedy.wait_for("info string") == (
        "info string error: searchmoves: A: not your pit (South to move)")
    assert greedy.wait_for("bestmove") == "bestmove c"


def test_go_infinite_holds_bestmove_until_stop(greedy):
    greedy.send("position startpos", "go infinite")
    time.sleep(0.05)
    assert not any(line.startswith("bestmove") for line in greedy.sync())
    greedy.send("stop")
    assert greedy.wait_for("bestmove").startswith("bestmove ")
    greedy.send("stop")  # nothing to stop: no answer
    assert greedy.sync() == []


def test_go_infinite_at_a_finished_game_holds_its_bestmove_too(greedy):
    greedy.send("position fen 0,0,0,0,0,0/0,0,0,0,0,0 25 23 s", "go infinite")
    time.sleep(0.05)
    assert greedy.sync() == []
    greedy.send("stop")
    assert greedy.wait_for("bestmove") == "bestmove (none)"


def test_a_new_go_stops_an_infinite_search_first(greedy):
    greedy.send("position startpos", "go infinite", "go depth 1")
    first = greedy.wait_for("bestmove")
    second = greedy.wait_for("bestmove")
    assert first.startswith("bestmove ") and second.startswith("bestmove ")


def test_ponder_holds_until_ponderhit_then_thinks_on_its_clock():
    session = ServerSession(BusyBot())
    session.send("position startpos moves c", "go ponder wtime 3000 btime 3000")
    time.sleep(0.2)
    assert not any(line.startswith("bestmove") for line in session.sync())
    hit = time.monotonic()
    session.send("ponderhit")
    session.wait_for("bestmove", timeout=5)
    spent = time.monotonic() - hit
    session.close()
    # budget: timeman's soft budget of that clock (about 100 ms); it must
    # stop on its own, well before the clock
    assert 0.05 < spent < 1.5


def test_ponderhit_and_stop_without_search_are_ignored(greedy):
    greedy.send("ponderhit", "stop")
    assert greedy.sync() == []


def test_stop_ends_a_bounded_search_early():
    session = ServerSession(BusyBot())
    session.send("position startpos", "go movetime 10000")
    time.sleep(0.1)
    start = time.monotonic()
    session.send("stop")
    session.wait_for("bestmove")
    session.close()
    assert time.monotonic() - start < 2.0


@pytest.mark.parametrize("go, bound", [
    ("go movetime 200", 0.2),
    ("go wtime 300 btime 100000", 0.3),
    ("go wtime -50 btime 100000 winc 1000", 0.0),
])
def test_the_watchdog_stops_a_bot_that_ignores_time(go, bound):
    session = ServerSession(StubbornBot())
    session.send("setoption name Move Overhead value 0", "position startpos")
    session.sync()
    start = time.monotonic()
    session.send(go)
    session.wait_for("bestmove", timeout=10)
    spent = time.monotonic() - start
    session.close()
    assert bound <= spent + 0.01 < bound + 1.5


def test_the_bot_is_told_the_move_overhead_with_the_limits_of_each_go():
    bot = RecordingBot()
    session = ServerSession(bot)
    session.send("position startpos", "go movetime 200")
    session.wait_for("bestmove")
    session.send("setoption name Move Overhead value 37", "go movetime 200 depth 3")
    session.wait_for("bestmove")
    session.close()
    assert [(limits.movetime, limits.move_overhead) for _, limits in bot.calls] == [
        (200, 10), (200, 37)]


def test_go_movetime_on_the_engine_answers_a_legal_move_and_stop_still_ends_it():
    session = ServerSession(find_bot("alphabeta")())
    session.send("setoption name Move Overhead value 20", "position startpos moves c",
                 "go movetime 150")
    best = session.wait_for("bestmove", timeout=10).split()[1]
    assert best in [m.text for m in Position("oware").play("c").legal_moves()]
    session.send("go movetime 100000")
    time.sleep(0.1)
    session.send("stop")
    best = session.wait_for("bestmove", timeout=10).split()[1]
    session.close()
    assert best in [m.text for m in Position("oware").play("c").legal_moves()]


def test_a_queued_go_ponder_that_got_its_ponderhit_ends_by_itself():
    session = ServerSession(BusyBot())
    session.send("position startpos", "go depth 10", "go ponder wtime 300 btime 300",
                 "ponderhit")
    session.wait_for("bestmove", timeout=10)
    session.wait_for("bestmove", timeout=10)
    session.close()


def test_go_ponder_without_position_is_answered_after_ponderhit():
    session = ServerSession(find_bot("random")())
    session.send("go ponder wtime 100")
    assert session.wait_for("info") == (
        "info string error: go before any position (send position startpos|fen ...)")
    time.sleep(0.05)
    assert session.sync() == []
    session.send("ponderhit")
    assert session.wait_for("bestmove") == "bestmove (none)"
    session.close()


def test_stop_interrupts_perft_between_root_moves(greedy):
    # about a second a root move with the compiled rules or the pure ones
    depth = 12 if Position("oware").variant.compiled else 8
    greedy.send("position startpos", f"perft {depth}")
    time.sleep(0.05)
    greedy.send("stop")
    line = greedy.wait_for("info string perft", timeout=60)
    assert re.fullmatch(r"info string perft stopped after [0-5] of 6 moves", line)
    assert not any(line.startswith("Nodes searched") for line in greedy.lines)


def test_quit_during_a_search_gives_its_bestmove_and_ends():
    session = ServerSession(BusyBot())
    session.send("position startpos", "go infinite", "isready")
    session.wait_for("readyok")
    session.send("quit")
    session.thread.join(5)
    assert not session.thread.is_alive()
    assert session.status == 0
    assert [line for line in session.lines if line.startswith("bestmove")] and \
        len([line for line in session.lines if line.startswith("bestmove")]) == 1


def test_quit_right_after_go_still_answers_that_go_once():
    # quit may arrive before the worker has taken the go off its queue: the
    # go is still answered (halted at once), and nothing after it runs
    for _ in range(20):
        session = ServerSession(BusyBot())
        session.send("position startpos", "go infinite", "quit", "query p1turn")
        session.thread.join(5)
        assert not session.thread.is_alive()
        assert len([line for line in session.lines if line.startswith("bestmove")]) == 1
        assert not [line for line in session.lines if line.startswith("response")]


def test_end_of_input_answers_every_search_received():
    session = ServerSession(find_bot("random")())
    session.send("position startpos", "go depth 1", "go infinite", "go depth 1")
    lines = session.close()
    assert len([line for line in lines if line.startswith("bestmove")]) == 3


def test_commands_after_a_search_wait_for_it_in_order():
    session = ServerSession(BusyBot())
    session.send("position startpos", "go depth 5", "setoption name UCI_Variant value kalah",
                 "position startpos moves c", "query p1turn")
    session.wait_for("bestmove")
    assert session.wait_for("response") == "response true"  # Kalah: c earns another turn
    session.close()


# -- setoption ---------------------------------------------------------------------
def test_option_names_are_case_insensitive_and_may_hold_spaces(greedy):
    greedy.send("setoption name move OVERHEAD value 50", "setoption name move_overhead value 40",
                "setoption name seed value 3")
    assert greedy.sync() == []
    assert greedy.server.values["move overhead"] == 40
    assert greedy.server.bot.option("Seed") == 3


def test_bot_options_reach_the_bot_buttons_included():
    session = ServerSession(find_bot("alphabeta")())
    session.send("setoption name skill level value 3", "setoption name clear hash",
                 "setoption name Hash value 2", "setoption name MultiPV value 2")
    assert session.sync() == []
    bot = session.server.bot
    assert (bot.option("Skill Level"), bot.option("Hash"), bot.option("MultiPV")) == (3, 2, 2)
    session.send("position startpos", "go depth 2")
    session.wait_for("bestmove")
    assert any(" multipv 2 " in line for line in session.lines)
    session.close()


def test_bad_option_values_and_names_get_one_error_line_each(greedy):
    greedy.send("setoption name Hash value lots", "setoption name MultiPV value 0",
                "setoption name Ponder value maybe", "setoption name Frobnicate value 1",
                "setoption name", "setoption value 3", "setoption name UCI_Variant value chess")
    assert greedy.sync() == [
        "info string error: option Hash takes a whole number, not 'lots'",
        "info string error: option MultiPV must be in 1..256, not 0",
        "info string error: option Ponder takes true or false, not 'maybe'",
        "info string error: unknown option 'Frobnicate'",
        "info string error: setoption takes: setoption name <name> [value <value>]",
        "info string error: setoption takes: setoption name <name> [value <value>]",
        "info string error: unknown variant 'chess' (known: " + ", ".join(variant_names()) + ")",
    ]
    assert greedy.server.values["hash"] == 16


def test_variant_parameters_shared_by_variants_are_listed_once_as_their_union():
    a = OptionSpec("seeds", "int", 4, low=1, high=10)
    b = OptionSpec("seeds", "int", 2, low=2, high=16)
    assert variant_option([a, b], None).uci() == (
        "option name seeds type spin default 4 min 1 max 16")
    assert variant_option([a, b], 7).default == 7
    rule = OptionSpec("rule", "choice", "x", choices=("x", "y"))
    other = OptionSpec("rule", "choice", "z", choices=("y", "z"))
    assert variant_option([rule, other], None).vars == ("x", "y", "z")
    assert variant_option([a, rule], None).type == "string"
    assert variant_option([OptionSpec("on", "bool", False)], None).uci() == (
        "option name on type check default false")


def test_uci_variant_switches_the_variant_and_its_parameters(greedy):
    greedy.send("setoption name UCI_Variant value kalah", "setoption name pits value 4",
                "setoption name seeds value 3", "position startpos", "d")
    lines = greedy.sync()
    assert "Variant: kalah pits=4 seeds=3" in lines
    assert "Position: 3,3,3,3/3,3,3,3 0 0 s" in lines
    greedy.send("setoption name UCI_Variant value oware", "setoption name grandslam value capture",
                "setoption name UCI_Variant value kalah", "position startpos", "d")
    assert "Variant: kalah pits=4 seeds=3" in greedy.sync()


def test_uci_variant_accepts_aliases_and_a_whole_spec(greedy):
    greedy.send("setoption name UCI_Variant value Awale grandslam=forbidden", "position startpos",
                "d")
    assert "Variant: oware grandslam=forbidden" in greedy.sync()
    greedy.send("setoption name UCI_Variant value kalah colour=red")
    assert greedy.sync() == [
        "info string error: 'colour=red' is not an option of kalah "
        "(options: pits, seeds, empty-capture)"]


def test_a_bad_variant_parameter_changes_nothing(greedy):
    greedy.send("setoption name UCI_Variant value kalah", "setoption name pits value 13",
                "setoption name grandslam value sometimes", "position startpos", "d")
    lines = greedy.sync()
    assert lines[:2] == ["info string error: option pits must be in 1..12, not 13",
                         "info string error: option grandslam takes one of nocapture, forbidden, "
                         "capture, leave-first, leave-last, opponent, not 'sometimes'"]
    assert "Variant: kalah" in lines


@pytest.mark.parametrize("name", variant_names())
def test_every_variant_plays_through_the_protocol(name):
    session = ServerSession(find_bot("random")())
    session.send(f"setoption name UCI_Variant value {name}", "position startpos", "go depth 1")
    best = session.wait_for("bestmove").split()[1]
    assert best in {m.text for m in Position(name).legal_moves()}
    session.close()


# -- queries and tools --------------------------------------------------------------
def test_queries_answer_from_the_rules(greedy):
    greedy.send("position startpos moves a", "query gameover", "query p1turn", "query result",
                "query legalmoves", "query", "query colour")
    assert greedy.sync() == [
        "response false", "response false", "response none", "response A B C D E F",
        "info string error: query takes gameover, p1turn, result or legalmoves",
        "info string error: query takes gameover, p1turn, result or legalmoves",
    ]
    greedy.send("position fen 0,0,0,0,0,0/0,0,0,0,0,1 24 23 s", "query gameover", "query result",
                "query legalmoves")
    assert greedy.sync() == ["response true", "response draw", "response (none)"]
    greedy.send("position fen 0,0,0,0,0,0/0,0,0,0,0,0 23 25 s", "query result")
    assert greedy.sync() == ["response p2win"]


def test_d_draws_the_position_with_its_string_and_key(greedy):
    greedy.send("position startpos moves c", "d")
    lines = greedy.sync()
    position = Position("oware")
    position.push("c")
    assert lines[: len(position.draw().splitlines())] == position.draw().splitlines()
    assert f"Position: {position.text()}" in lines
    assert f"Key: {position.key:016X}" in lines
    assert "Legal moves: A B C D E F" in lines


def test_perft_divides_and_counts(greedy):
    greedy.send("position startpos", "perft 3")
    greedy.wait_for("Nodes searched")
    lines = greedy.sync()
    position = Position("oware")
    divide = greedy.lines[greedy.lines.index("a: " + str(position.play("a").perft(2))):]
    assert divide[6] == f"Nodes searched: {position.perft(3)}"
    assert lines[0].startswith("info string perft 3 in ")


def test_perft_with_a_bad_depth_or_no_position_is_an_error(greedy):
    greedy.send("perft", "perft -1", "perft 99", "perft 1")
    assert greedy.sync() == ["info string error: perft takes a depth in 0..64: perft <depth>"] * 3
    greedy.send("isready")
    assert greedy.wait_for("info string") == (
        "info string error: perft before any position (send position startpos|fen ...)")


def test_bench_prints_the_search_signature(greedy, monkeypatch):
    import bingwa.engine.bench

    def fake_bench_run(stop=None):  # the real one takes seconds; its numbers are its own tests'
        return 1234, 0.5, [("oware", 1000, 0.25), ("kalah", 234, 0.25)]

    monkeypatch.setattr(bingwa.engine.bench, "bench_run", fake_bench_run)
    greedy.send("bench")
    greedy.wait_for("Nodes/second")
    assert greedy.lines[-4:] == [
        "info string bench oware: 1000 nodes in 0.250 s",
        "info string bench kalah: 234 nodes in 0.250 s",
        "Nodes searched: 1234",
        "Nodes/second: 2468",
    ]
    greedy.send("bench 20")
    assert greedy.sync() == ["info string error: bench takes no argument"]


def test_comments_and_blank_lines_are_ignored(greedy):
    greedy.send("# a comment", "", "   ", "position startpos # the start", "query p1turn  #x")
    assert greedy.sync() == ["response true"]


def test_unknown_commands_get_one_helpful_line(greedy):
    greedy.send("frobnicate now", "GO")
    lines = greedy.sync()
    assert len(lines) == 2
    assert lines[0].startswith("info string error: unknown command 'frobnicate'; known: ")
    assert lines[1].startswith("info string error: unknown command 'GO' (commands are lower case)")


def test_debug_register_and_gameover_are_accepted(greedy):
    greedy.send("debug on", "debug off", "register later", "gameover win", "debug maybe")
    assert greedy.sync() == ["info string error: debug takes on or off"]


def test_overlong_line_is_refused(greedy):
    greedy.send("position startpos moves " + "a " * 600_000)
    assert greedy.sync()[0].startswith("info string error: line of ")


# -- bots that misbehave ---------------------------------------------------------------
def test_a_failing_bot_gives_an_error_line_and_a_legal_move():
    session = ServerSession(FailingBot())
    session.send("position startpos", "go depth 1")
    assert session.wait_for("info") == (
        "info string error: the failing bot failed: RuntimeError: boom")
    assert session.wait_for("bestmove") == "bestmove a"
    session.close()
    assert "Traceback" in session.errors.getvalue()
    assert not any("Traceback" in line for line in session.lines)


def test_an_illegal_bot_move_is_replaced_by_a_legal_one():
    session = ServerSession(IllegalBot())
    session.send("position startpos moves a", "go depth 1")
    assert session.wait_for("info") == (
        "info string error: the illegal bot chose 'z': 'z' is not a pit letter "
        "(South a-f, North A-F)")
    assert session.wait_for("bestmove") == "bestmove A"
    session.close()


def test_a_bot_with_no_move_while_the_game_goes_on_is_corrected():
    session = ServerSession(NoMoveBot())
    session.send("position startpos", "go depth 1 searchmoves d")
    assert session.wait_for("info") == "info string error: the nomove bot gave no move; playing d"
    assert session.wait_for("bestmove") == "bestmove d"
    session.close()


def test_info_lines_hold_integers_only():
    session = ServerSession(MateBot())
    session.send("position startpos", "go depth 1")
    assert session.wait_for("info") == (
        "info depth 4 score mate 3 lowerbound nodes 10 nps 1234 pv a b")
    assert session.wait_for("info") == "info string thinking hard"
    assert session.wait_for("bestmove") == "bestmove a"
    session.close()


def test_a_broken_output_ends_the_server_quietly():
    feed = LineFeed()
    server = EngineServer(find_bot("random")(), feed, BrokenSink())
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    feed.feed("uci", "position startpos", "go infinite")
    thread.join(5)
    assert not thread.is_alive()
