"""The protocol's words: go, info, option, setoption and position lines,
and the Aualé dialect's translations."""

from __future__ import annotations

import pytest

from bingwa.engine import MoveError, Position, PositionError, VariantError, find_variant
from bingwa.engine.limits import Info, Limits
from bingwa.protocol.auale import AUALE, format_diagram, parse_diagram
from bingwa.protocol.dialect import UCI
from bingwa.protocol.dialects import find_dialect
from bingwa.protocol.wire import (
    MAX_DEPTH,
    MAX_TIME_MS,
    CommandError,
    InfoFormatError,
    format_go,
    format_info,
    normalise_name,
    parse_go,
    parse_info,
    parse_option,
    parse_position,
    parse_setoption,
    strip_comment,
)


# -- go ------------------------------------------------------------------------
def test_go_reads_uci_and_ugi_clock_names_as_the_same_clocks():
    uci, _ = parse_go("wtime 1000 btime 2000 winc 10 binc 20 movestogo 5".split())
    ugi, _ = parse_go("p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5".split())
    assert uci == ugi == Limits(p1time=1000, p2time=2000, p1inc=10, p2inc=20, movestogo=5)


def test_go_clamps_negative_clocks_to_zero_and_huge_values():
    limits, problems = parse_go(["wtime", "-300", "btime", "0", "movetime", "-1", "depth",
                                 "99999999", "nodes", "10" + "0" * 30])
    assert problems == []
    assert (limits.p1time, limits.p2time, limits.movetime) == (0, 0, 0)
    assert limits.depth == MAX_DEPTH and limits.nodes == 2**62
    limits, _ = parse_go(["wtime", "9" * 30])
    assert limits.p1time == MAX_TIME_MS


def test_go_flags_and_searchmoves_up_to_the_next_keyword():
    limits, problems = parse_go("searchmoves a b c infinite".split())
    assert problems == [] and limits.searchmoves == ["a", "b", "c"] and limits.infinite
    limits, _ = parse_go("ponder wtime 5".split())
    assert limits.ponder and limits.p1time == 5


def test_go_reports_each_bad_parameter_and_keeps_the_rest():
    limits, problems = parse_go("depth x wtime btime 100 nodes 0 mate 3 searchmoves".split())
    assert limits.p2time == 100 and limits.depth is None and limits.nodes is None
    assert problems == [
        "depth takes a whole number, not 'x'",
        "wtime needs a number",
        "nodes must be at least 1, not 0",
        "unknown go parameter 'mate'",
        "unknown go parameter '3'",
        "searchmoves names no move",
    ]


def test_format_go_writes_both_clock_styles_and_reads_back():
    limits = Limits(p1time=1000, p2time=900, p1inc=10, movestogo=3, depth=4, searchmoves=["a"])
    assert format_go(limits) == "go wtime 1000 btime 900 winc 10 movestogo 3 depth 4 searchmoves a"
    assert format_go(limits, "ugi").startswith("go p1time 1000 p2time 900 p1inc 10 ")
    assert parse_go(format_go(limits).split()[1:]) == (limits, [])
    assert format_go(Limits(infinite=True)) == "go infinite"
    assert format_go(Limits(ponder=True, movetime=5)) == "go ponder movetime 5"


# -- info ----------------------------------------------------------------------
def test_info_is_written_with_integers_only_and_string_last():
    info = Info(depth=5, seldepth=9.0, multipv=2, score_cp=-37.8, bound="upperbound",
                nodes=12345, nps=1e6, time=12, hashfull=3, pv=["a", "F"], string="x  y")
    assert format_info(info) == (
        "info depth 5 seldepth 9 multipv 2 score cp -37 upperbound nodes 12345 nps 1000000 "
        "time 12 hashfull 3 pv a F string x y")
    assert format_info(Info(score_mate=-4, score_cp=-2400)) == "info score mate -4"
    assert format_info(Info(depth="deep", nodes=None)) == "info"


def test_info_reads_back_what_it_writes():
    line = "info depth 5 seldepth 9 multipv 2 score mate -3 lowerbound nodes 7 nps 8 time 9 " \
           "hashfull 10 pv a F b string some words here"
    info = parse_info(line, strict=True)
    assert info == Info(depth=5, seldepth=9, multipv=2, score_mate=-3, bound="lowerbound",
                        nodes=7, nps=8, time=9, hashfull=10, pv=["a", "F", "b"],
                        string="some words here")
    assert format_info(info) == line


def test_info_reader_accepts_other_uci_words():
    info = parse_info("info currmove a currmovenumber 1 tbhits 0 depth 3 currline 1 a b",
                      strict=True)
    assert info.depth == 3


@pytest.mark.parametrize("line", [
    "info depth 2.5",
    "info score cp",
    "info score 12",
    "info nodes -3",
    "info frobs 3",
    "info pv",
    "inf depth 1",
])
def test_strict_info_reading_names_the_problem(line):
    with pytest.raises(InfoFormatError):
        parse_info(line, strict=True)


def test_lenient_info_reading_skips_bad_fields():
    info = parse_info("info depth x nodes 5 score cp 1.5 time 7")
    assert info.depth is None and info.nodes == 5 and info.time == 7


# -- option, setoption, position ----------------------------------------------------
def test_option_lines_parse_with_spaces_in_names():
    option = parse_option("option name Move Overhead type spin default 10 min 0 max 5000")
    assert (option.name, option.type, option.default, option.min, option.max) == (
        "Move Overhead", "spin", 10, 0, 5000)
    combo = parse_option("option name Style type combo default Solid Play var Solid Play var Wild")
    assert combo.default == "Solid Play" and combo.vars == ("Solid Play", "Wild")
    assert parse_option("option name Clear Hash type button").type == "button"
    assert parse_option("option name Book type string default <empty>").default == ""
    assert parse_option("option name Ponder type check default false").default is False


@pytest.mark.parametrize("line", [
    "option type spin default 1 min 0 max 2",
    "option name X type dial",
    "option name X type spin default a min 0 max 2",
    "option name X type spin default 1 max 2",
    "option name X type check default maybe",
    "option name X type combo default a",
    "option X name Y type button",
])
def test_bad_option_lines_are_refused(line):
    with pytest.raises(CommandError):
        parse_option(line)


def test_setoption_names_and_values_may_hold_spaces():
    request = parse_setoption("setoption name Move  Overhead value 30")
    assert (request.name, request.value) == ("Move Overhead", "30")
    assert parse_setoption("setoption name Clear Hash").value is None
    assert parse_setoption("setoption name Book value My Book.bin").value == "My Book.bin"
    for bad in ("setoption", "setoption name", "setoption value 3", "setoption name value 3"):
        with pytest.raises(CommandError):
            parse_setoption(bad)


def test_option_names_compare_loosely():
    assert normalise_name("Move_Overhead") == normalise_name("move   overhead") == "move overhead"
    assert normalise_name("UCI_Variant") == normalise_name("uci-variant")


def test_position_lines():
    assert parse_position("position startpos".split()).text is None
    command = parse_position("position fen 1,2 3 4 s moves a B".split())
    assert command.text == "1,2 3 4 s" and command.moves == ("a", "B")
    assert parse_position("position startpos moves".split()).moves == ()
    for bad in ("position", "position startpos now", "position fen", "position fen moves a",
                "position moves a", "position 4,4"):
        with pytest.raises(CommandError):
            parse_position(bad.split())


def test_comments():
    assert strip_comment("# all of it") == ""
    assert strip_comment("go depth 3 # why") == "go depth 3"
    assert strip_comment("go depth 3\t# why") == "go depth 3"
    assert strip_comment("setoption name Book value a#b") == "setoption name Book value a#b"


# -- dialects ------------------------------------------------------------------
def test_dialects_are_found_by_name():
    assert find_dialect("UCI") is UCI and find_dialect("ugi") is UCI
    assert find_dialect("Aualé") is AUALE and find_dialect("aalina") is AUALE
    with pytest.raises(VariantError):
        find_dialect("xboard")


def test_auale_diagram_reads_as_bingwa_position():
    assert parse_diagram("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S") == "4,4,4,4,4,4/4,4,4,4,4,4 0 0 s"
    assert parse_diagram("0-1-2-3-4-5-6-7-0-0-0-0-10-10-N") == "0,1,2,3,4,5/6,7,0,0,0,0 10 10 n"
    position = Position("oware", text="0,1,2,3,4,5/6,7,0,0,0,0 10 10 n")
    assert format_diagram(position.state) == "0-1-2-3-4-5-6-7-0-0-0-0-10-10-N"


@pytest.mark.parametrize("diagram, message", [
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-S", "15 fields"),
    ("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", "pit 12 is not a number"),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-y-S", "North's score is not a number"),
    ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-s", "S or N"),
    ("4-4-4-4-4-4-4-4-4-4-4-4-1-0-S", "add up to 49, not 48"),
])
def test_bad_auale_diagrams_say_what_is_wrong(diagram, message):
    with pytest.raises(PositionError, match=message):
        parse_diagram(diagram)


def test_auale_moves_swap_case_and_come_as_one_word():
    assert AUALE.moves_from_wire(["FfBe"]) == ["f", "F", "b", "E"]
    assert AUALE.moves_from_wire(["F", "f"]) == ["f", "F"]
    assert AUALE.moves_to_wire(["f", "F", "b", "E"]) == ["FfBe"]
    assert AUALE.moves_to_wire([]) == []
    assert AUALE.best_from_wire("0000") is None and AUALE.best_to_wire(None) == "0000"
    with pytest.raises(MoveError):
        AUALE.moves_from_wire(["Fg"])
    with pytest.raises(MoveError):
        AUALE.move_to_wire("G")


def test_auale_reports_proven_results_as_2500_centiseeds():
    assert AUALE.score_to_wire(Info(score_mate=7, score_cp=1200)) == ("cp", 2500)
    assert AUALE.score_to_wire(Info(score_mate=-2)) == ("cp", -2500)
    assert AUALE.score_to_wire(Info(score_cp=30)) is None


def test_auale_speaks_oware_abapa_only():
    AUALE.check_variant(find_variant("oware"))
    for spec in ("oware grandslam=capture", "kalah"):
        with pytest.raises(VariantError):
            AUALE.check_variant(find_variant(spec))
