"""The runner with real engine processes: misbehaving fixture engines,
the strength order of the built-in bots on every variant, SPRT decisions
through ``bingwa sprt``, and a run killed with SIGKILL and resumed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bingwa.engine import Termination, variant_names
from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.referee import Rules
from bingwa.tournament.runner import Tournament
from bingwa.tournament.stats import rate
from bingwa.tournament.storage import Store
from bingwa.tournament.timecontrol import TimeControl

FIXTURE = str(Path(__file__).resolve().parents[1] / "fixtures" / "fixture_engine.py")
BINGWA = [sys.executable, "-m", "bingwa"]


def fixture(name: str, *flags: str) -> EngineSpec:
    return EngineSpec(name, (sys.executable, FIXTURE, "--name", name, *flags))


def test_misbehaving_engines_lose_as_they_fail_and_the_run_finishes(tmp_path):
    engines = (
        fixture("good"),
        fixture("crash", "--crash-after", "2"),
        replace(fixture("hang", "--hang-after", "2"), tc=TimeControl(nodes=100)),  # no clock
        fixture("noready", "--no-readyok-after", "2"),
        fixture("illegal", "--illegal-after", "2"),
        fixture("garbage", "--garbage-after", "2"),
        fixture("slow", "--slow-after", "2", "400"),
    )
    expected = {
        "crash": Termination.CRASH,
        "hang": Termination.STALL,  # silent during a search: the isready ping goes unanswered
        "noready": Termination.STALL,
        "illegal": Termination.ILLEGAL_MOVE,
        "garbage": Termination.ILLEGAL_MOVE,
        "slow": Termination.TIME_FORFEIT,
    }
    config = RunConfig(
        "gauntlet", engines, ("oware",), TimeControl(base_ms=20_000, movetime_ms=250), rounds=1,
        rules=Rules(margin_ms=100, timeout_ms=5000, ready_timeout_ms=500),
        openings=OpeningsConfig(plies=0), concurrency=2, gauntlet="good",
    )
    store = Store(tmp_path / "fixtures.sqlite")
    summary = Tournament.create(store, config).run()
    assert summary.status == "finished"
    games = store.games(summary.run_id)
    assert len(games) == 12
    for game in games:
        bad = game.planned.north if game.planned.south == "good" else game.planned.south
        assert game.loser == bad, game.detail
        assert game.termination == expected[bad].value, (bad, game.detail)
        good_side = "1-0" if game.planned.south == "good" else "0-1"
        assert game.result == good_side
        assert "go " in game.detail  # the command that triggered it is logged
        # The failure came at the engine's third move in both of its games:
        # the failed engine was killed and a fresh one started (a crashed or
        # hung process reused would fail at once).
        bad_side = 0 if game.planned.south == bad else 1
        assert sum(1 for m in game.moves if m.side == bad_side) == 2


# An engine of Oware only: no UCI_Variant option (and not bingwa's start-up time).
OWARE_ONLY = (sys.executable, "-c", "import sys\n"
              "for line in sys.stdin:\n"
              "    word = line.strip()\n"
              "    if word == 'uci': print('id name oware-only', 'uciok', sep='\\n', flush=True)\n"
              "    elif word == 'isready': print('readyok', flush=True)\n"
              "    elif word == 'quit': break\n")


def test_an_engine_that_cannot_play_the_variant_abandons_the_game(tmp_path):
    config = RunConfig("round-robin", (fixture("good"), EngineSpec("oware-only", OWARE_ONLY)), ("kalah",),
                       TimeControl(depth=1), rounds=1, openings=OpeningsConfig(plies=0), concurrency=1)
    store = Store(tmp_path / "variant.sqlite")
    summary = Tournament.create(store, config).run()
    games = store.games(summary.run_id)
    assert len(games) == 2
    for game in games:
        side = "south" if game.planned.south == "oware-only" else "north"
        assert game.termination == Termination.ABANDONED.value and game.loser == "oware-only"
        assert game.detail == (f"oware-only ({side}): abandoned: the engine offers no UCI_Variant "
                               "option: it cannot play kalah")


def bot(name: str) -> EngineSpec:
    return EngineSpec(name, (*BINGWA, "engine", "--bot", name))


def test_random_greedy_alphabeta_come_out_in_that_order_on_every_variant(tmp_path):
    from bingwa.bots import bot_names

    if "alphabeta" not in bot_names():
        pytest.skip("the alpha-beta bot is not registered")
    config = RunConfig(
        "round-robin", (bot("random"), bot("greedy"), bot("alphabeta")), tuple(variant_names()),
        TimeControl(depth=3), rounds=4, concurrency=2,
        # four distinct openings a variant: Bao's scores run large, hence the margin
        openings=OpeningsConfig(plies=4, count=4, depth=2, margin_cp=1000),
    )
    store = Store(tmp_path / "order.sqlite")
    summary = Tournament.create(store, config).run()
    assert store.count_games(summary.run_id) == 2 * 3 * 4 * len(variant_names())
    for variant in variant_names():
        (table,) = rate(store.scores(variant), "random", bootstrap=0)
        elo = {name: est.value for name, est in table.ratings.items()}
        assert elo["random"] < elo["greedy"] < elo["alphabeta"], (variant, elo)


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*BINGWA, *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("new, base, status", [("greedy", "random", 0), ("random", "greedy", 1)])
def test_sprt_accepts_h1_for_a_stronger_engine_and_h0_for_a_weaker_one(tmp_path, new, base, status):
    db = str(tmp_path / "sprt.sqlite")
    done = run_cli("sprt", "--new", new, "--base", base, "--variant", "kalah", "--elo0", "0",
                   "--elo1", "40", "--depth", "1", "--max-games", "400", "-j", "2",
                   "--opening-plies", "2", "--db", db, "--progress", "none")
    assert done.returncode == status, done.stdout + done.stderr
    assert ("H1" if status == 0 else "H0") in done.stdout
    games = sqlite3.connect(db).execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 0 < games < 400


def test_sprt_is_inconclusive_at_the_cap(tmp_path):
    db = str(tmp_path / "cap.sqlite")
    done = run_cli("sprt", "--new", "random", "--base", "greedy", "--variant", "oware",
                   "--depth", "1", "--max-games", "4", "--db", db, "--progress", "none")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "inconclusive" in done.stdout
    assert run_cli("sprt", "--new", "random", "--db", db).returncode == 3


def count_games(db: str) -> int:
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def test_a_run_killed_with_sigkill_resumes_to_exactly_the_planned_games(tmp_path):
    db = str(tmp_path / "killed.sqlite")
    args = ["tournament", "-e", f"name=slow cmd='{sys.executable} {FIXTURE} --slow-after 0 8'",
            "-e", f"name=strong cmd='{sys.executable} {FIXTURE} --strong --slow-after 0 8'",
            "-v", "oware", "-v", "kalah", "--rounds", "5", "--depth", "1", "-j", "2",
            "--opening-plies", "2", "--db", db, "--progress", "lines"]
    planned = 2 * 2 * 5
    runner = subprocess.Popen([*BINGWA, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while count_games(db) < 4 and time.monotonic() < deadline and runner.poll() is None:
            time.sleep(0.05)
        assert runner.poll() is None, "the run ended before it could be killed"
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
    finally:
        try:  # the engines see their input close and quit; make sure of it
            os.killpg(runner.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    stored = count_games(db)
    assert 4 <= stored < planned
    status = sqlite3.connect(db).execute("SELECT status FROM runs").fetchone()[0]
    assert status == "running"  # nothing had the chance to mark it
    done = run_cli("tournament", "--resume", "--db", db, "--progress", "none")
    assert done.returncode == 0, done.stderr
    con = sqlite3.connect(db)
    indices = [r[0] for r in con.execute("SELECT game_index FROM games ORDER BY game_index")]
    assert indices == list(range(planned))
    assert con.execute("SELECT status FROM runs").fetchone()[0] == "finished"
    assert f"{planned} games ({planned - stored} played now)" in done.stdout


def fixture_arg(name: str, *flags: str) -> str:
    """``-e``'s spec of the fixture engine."""
    return f"name={name} cmd='{sys.executable} {FIXTURE} {' '.join(flags)}'"


@pytest.mark.parametrize("ready_timeout, forfeited", [("0.4", True), ("6", False)])
def test_a_late_readyok_is_a_stall_under_a_short_ready_timeout_only(tmp_path, ready_timeout, forfeited):
    # From its third move on, "late" answers isready 1.2 s late: three times
    # the short timeout, a fifth of the long one. The move cap of 6 plies
    # leaves one late answer a game.
    db = str(tmp_path / "late.sqlite")
    done = run_cli("tournament", "-e", fixture_arg("late", "--slow-readyok-after", "2", "1200"),
                   "-e", fixture_arg("good"), "-v", "oware", "--rounds", "1", "--depth", "1",
                   "--opening-plies", "0", "--move-cap", "6", "-j", "1",
                   "--ready-timeout", ready_timeout, "--db", db, "--progress", "none")
    assert done.returncode == 0, done.stderr
    games = Store(db).games()
    assert len(games) == 2
    for game in games:
        if forfeited:
            assert game.termination == Termination.STALL.value and game.loser == "late", game.detail
            assert "no readyok within 0.400 s" in game.detail
            late_side = 0 if game.planned.south == "late" else 1
            assert sum(1 for m in game.moves if m.side == late_side) == 2
        else:
            assert game.termination == Termination.MOVE_CAP.value and game.loser is None, game.detail


def test_an_engine_without_uciok_is_a_stall_after_the_start_timeout(tmp_path):
    db = str(tmp_path / "mute.sqlite")
    done = run_cli("tournament", "-e", fixture_arg("mute", "--no-uciok"), "-e", fixture_arg("good"),
                   "-v", "oware", "--rounds", "1", "--depth", "1", "--opening-plies", "0", "-j", "1",
                   # long enough for a Python fixture to start on a loaded machine
                   "--start-timeout", "1.5", "--db", db, "--progress", "none")
    assert done.returncode == 0, done.stderr
    games = Store(db).games()
    assert len(games) == 2
    for game in games:
        assert game.termination == Termination.STALL.value and game.loser == "mute", game.detail
        assert "no uciok within 1.500 s\nafter: uci" in game.detail
        assert game.moves == []


def test_ratings_and_export_commands_read_the_database(tmp_path):
    db = str(tmp_path / "cmd.sqlite")
    done = run_cli("tournament", "--bot", "random", "--bot", "greedy", "-v", "kalah", "--rounds", "3",
                   "--depth", "1", "--opening-plies", "2", "--db", db, "--progress", "none",
                   "--report", str(tmp_path / "report.html"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "report.html").read_text().count("<svg") == 2
    ratings = run_cli("ratings", db, "--variant", "kalah", "--bootstrap", "50")
    assert ratings.returncode == 0, ratings.stderr
    assert "greedy" in ratings.stdout and "random = 0" in ratings.stdout
    assert "penta" in ratings.stdout
    csv = run_cli("export", db, "--format", "csv")
    assert len(csv.stdout.splitlines()) == 1 + 6
    missing = run_cli("ratings", str(tmp_path / "nope.sqlite"))
    assert missing.returncode == 2 and "no such database" in missing.stderr


def test_an_aualé_dialect_engine_plays_oware_in_bingwa_notation(tmp_path):
    auale = EngineSpec("aalina-like", (*BINGWA, "engine", "--bot", "greedy", "--dialect", "auale"),
                       protocol="auale")
    config = RunConfig("round-robin", (auale, fixture("good")), ("oware",), TimeControl(depth=1),
                       rounds=1, openings=OpeningsConfig(plies=2, count=1, depth=1), concurrency=2)
    store = Store(tmp_path / "auale.sqlite")
    summary = Tournament.create(store, config).run()
    games = store.games(summary.run_id)
    assert len(games) == 2
    for game in games:
        assert game.loser is None, game.detail  # ended by the rules
        auale_side = 0 if game.planned.south == "aalina-like" else 1
        # its moves were translated from Aualé letters: South plays a-f, North A-F
        letters = {m.move for m in game.moves if m.side == auale_side}
        assert letters <= set("abcdef" if auale_side == 0 else "ABCDEF")


def test_ctrl_c_exits_130_in_one_line_keeps_every_finished_game_and_resumes(tmp_path):
    db = str(tmp_path / "int.sqlite")
    # 4 plies: Kalah has one balanced opening of 2 (its network scores the
    # others as the wins they are) and the reuse note would be a second line
    args = ("tournament", "--bot", "random", "--bot", "greedy", "-v", "kalah", "--rounds", "6",
            "--depth", "1", "--opening-plies", "4", "-j", "2", "--db", db, "--progress", "none")
    # its own process group, signalled as a terminal's Ctrl-C signals it: engines included
    proc = subprocess.Popen([*BINGWA, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while count_games(db) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    kept = count_games(db)
    assert 2 <= kept < 12
    assert err.splitlines() == [
        f"bingwa: interrupted: {kept} games of run 1 kept; resume with --resume --run 1 --db {db}"]
    endings = {t for (t,) in sqlite3.connect(db).execute("SELECT termination FROM games")}
    assert not endings & {"crash", "stall"}, endings  # the signal is not charged to the engines
    done = run_cli("tournament", "--resume", "--db", db, "--progress", "none")
    assert done.returncode == 0, done.stderr
    assert count_games(db) == 12
