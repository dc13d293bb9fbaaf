"""The external bot (protocol/external.py): another engine process played
through the protocol client, with its traffic logged and its moves
restricted on request, failures raised and recovered from."""

from __future__ import annotations

import shlex
import sys
import threading
import time

import pytest

from bingwa.bots import BotOptionError
from bingwa.engine import Position
from bingwa.engine.limits import Info, Limits
from bingwa.protocol.bots import find_bot
from bingwa.protocol.client import EngineCrash, EngineStartError
from bingwa.protocol.external import ExternalBot

PYTHON = shlex.quote(sys.executable)


def engine_command(bot: str, *extra: str) -> str:
    return " ".join([PYTHON, "-m", "bingwa", "engine", "--bot", bot, *extra])


def external(command: str, **options: str) -> ExternalBot:
    bot = find_bot("external")()
    assert isinstance(bot, ExternalBot)
    bot.set_option("Command", command)
    for name, value in options.items():
        bot.set_option(name.replace("_", " "), value)
    return bot


def go(bot, pos: Position, limits: Limits | None = None, stop: threading.Event | None = None):
    infos: list[Info] = []
    result = bot.go(pos, limits or Limits(depth=1), infos.append, stop or threading.Event())
    return result, infos


@pytest.fixture
def oware_middle() -> Position:
    pos = Position("oware")
    pos.push_all(["c", "F", "d", "A"])
    return pos


def test_plays_what_the_wrapped_engine_plays(oware_middle: Position) -> None:
    bot = external(engine_command("greedy"))
    try:
        result, infos = go(bot, oware_middle)
        direct = find_bot("greedy")().go(oware_middle, Limits(depth=1), lambda i: None,
                                         threading.Event())
        assert result.best == direct.best
        assert infos and infos[-1].pv and infos[-1].pv[0] == direct.best
    finally:
        bot.close()


def test_the_traffic_is_logged(tmp_path, oware_middle: Position) -> None:
    log = tmp_path / "traffic.log"
    bot = external(engine_command("random"), Log=str(log), Engine_Options="Seed=5")
    try:
        result, _ = go(bot, oware_middle)
    finally:
        bot.close()
    lines = [line.split(None, 1)[1] for line in log.read_text().splitlines()]
    assert lines[0] == "> uci" and "< uciok" in lines
    assert "> setoption name Seed value 5" in lines
    assert "> position startpos moves c F d A" in lines
    assert f"< bestmove {result.best}" in lines
    assert lines[-1] == "> quit"


def test_moves_restrict_the_choice() -> None:
    # greedy takes the capture with f (23 + 2 wins); restricted, it may not
    pos = Position("oware", text="3,1,0,0,0,1/1,5,5,5,3,1 23 0 s")
    bot = external(engine_command("greedy"))
    try:
        assert go(bot, pos)[0].best == "f"
        bot.set_option("Moves", "a, b, E")  # E is not South's: dropped
        assert go(bot, pos)[0].best in ("a", "b")
        assert go(bot, pos, Limits(depth=1, searchmoves=["b"]))[0].best == "b"
        bot.set_option("Moves", "C D")  # none legal: every move allowed
        assert go(bot, pos)[0].best == "f"
    finally:
        bot.close()


@pytest.mark.parametrize("spec", ["kalah pits=4", "bao", "ayoayo"])
def test_other_variants_are_selected_on_the_engine(spec: str) -> None:
    pos = Position(spec)
    pos.push(pos.legal_moves()[0])
    bot = external(engine_command("random"))
    try:
        result, _ = go(bot, pos)
        assert result.best in [m.text for m in pos.legal_moves()]
    finally:
        bot.close()


def test_multipv_is_passed_on() -> None:
    bot = external(engine_command("alphabeta"), MultiPV="3")
    try:
        _, infos = go(bot, Position("oware"), Limits(depth=3))
        assert {i.multipv for i in infos if i.multipv} == {1, 2, 3}
    finally:
        bot.close()


def test_stop_reaches_the_engine() -> None:
    bot = external(engine_command("random"))
    stop = threading.Event()
    done: list[str | None] = []
    thread = threading.Thread(
        target=lambda: done.append(go(bot, Position("oware"), Limits(infinite=True), stop)[0].best))
    try:
        thread.start()
        time.sleep(1.0)  # the engine starts meanwhile
        assert not done
        stop.set()
        thread.join(5.0)
        assert done and done[0] in list("abcdef")
    finally:
        bot.close()


def test_the_aualé_dialect() -> None:
    bot = external(engine_command("greedy", "--dialect", "auale"), Engine_Dialect="auale")
    pos = Position("oware")
    pos.push_all(["c", "F"])
    try:
        assert go(bot, pos)[0].best in [m.text for m in pos.legal_moves()]
    finally:
        bot.close()


def test_a_crash_is_raised_and_the_next_go_starts_afresh(oware_middle: Position) -> None:
    bot = external(f"{PYTHON} -c 'import sys; sys.exit(3)'")
    with pytest.raises(EngineCrash, match="the engine ended with status 3"):
        go(bot, oware_middle)
    assert bot.engine is None
    bot.set_option("Command", engine_command("greedy"))
    try:
        assert go(bot, oware_middle)[0].best is not None
    finally:
        bot.close()


def test_no_command_is_a_start_error() -> None:
    bot = find_bot("external")()
    with pytest.raises(EngineStartError, match="no Command"):
        go(bot, Position("oware"))
    bot.set_option("Command", "/no/such/engine")
    with pytest.raises(EngineStartError, match="cannot start"):
        go(bot, Position("oware"))


def test_a_finished_game_needs_no_engine() -> None:
    bot = find_bot("external")()  # no command: it must not be started
    pos = Position("oware", text="0,0,0,0,0,0/0,0,0,0,0,0 25 23 s")
    assert go(bot, pos)[0].best is None


def test_malformed_engine_options_are_refused() -> None:
    bot = find_bot("external")()
    with pytest.raises(BotOptionError, match="must be written Name=Value"):
        bot.set_option("Engine Options", "Hash=16; nonsense")


def test_served_by_bingwa_engine_and_configured_with_setoption() -> None:
    from bingwa.protocol.client import Engine

    with Engine.popen([sys.executable, "-m", "bingwa", "engine", "--bot", "external"]) as engine:
        engine.handshake()
        assert engine.has_option("Command") and engine.has_option("Moves")
        engine.set_option("Command", engine_command("greedy"))
        engine.set_option("Moves", "d e")
        result = engine.play(Position("oware"), Limits(depth=1), timeout=30)
        assert result.move is not None and result.move.text in ("d", "e")


def test_ensure_started_reports_a_bad_command_before_any_move() -> None:
    bot = external("/no/such/engine")
    with pytest.raises(EngineStartError, match="cannot start '/no/such/engine'"):
        bot.ensure_started()
    bot = external(engine_command("greedy"))
    try:
        bot.ensure_started()
        assert bot.engine is not None  # running before the first go
    finally:
        bot.close()


def test_a_command_with_an_unclosed_quote_is_refused_when_set() -> None:
    bot = find_bot("external")()
    with pytest.raises(BotOptionError, match="No closing quotation"):
        bot.set_option("Command", 'bingwa "engine')
