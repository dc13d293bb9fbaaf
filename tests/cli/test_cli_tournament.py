"""``bingwa tournament`` and ``bingwa sprt`` options checked before a run
starts (the runs themselves are in test_tournament_runner.py)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bingwa.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("command", ["tournament", "sprt"])
@pytest.mark.parametrize("option", ["--ready-timeout", "--start-timeout"])
@pytest.mark.parametrize("value", ["0", "-1", "-0.5", "nan", "inf", "soon"])
def test_a_timeout_that_is_no_positive_number_of_seconds_gets_one_error_line(
        tmp_path, command, option, value):
    db = tmp_path / "never.sqlite"
    engines = ("--new", "random", "--base", "greedy") if command == "sprt" else ("--bot", "random",
                                                                                "--bot", "greedy")
    result = run(command, *engines, "--depth", "1", option, value, "--db", str(db))
    assert result.exit_code == (3 if command == "sprt" else 2)  # sprt: 2 is "inconclusive"
    # stdout and stderr together: one line
    assert result.output.splitlines() == [
        f"bingwa: error: {option} takes a number of seconds more than 0, not {value}"]
    assert not db.exists()  # refused before anything was opened


def test_the_timeouts_are_documented_with_their_defaults():
    result = run("tournament", "--help")
    assert result.exit_code == 0
    text = " ".join(result.output.split())  # the help is wrapped
    assert ("--ready-timeout SECONDS Seconds an engine may take to answer isready with readyok"
            in text)
    assert "later is a stall. [default: 5]" in text
    assert ("--start-timeout SECONDS Seconds a starting engine may take to answer uci with uciok; "
            "later is a stall. [default: 10]") in text


# -- every output path is checked before any work ----------------------------------------------
PAIR = ("--bot", "random", "--bot", "greedy", "--depth", "1", "--rounds", "1", "--opening-plies", "0",
        "--progress", "none")
SPRT_PAIR = ("--new", "random", "--base", "greedy", "--depth", "1", "--max-games", "2",
             "--opening-plies", "0", "--progress", "none")


@pytest.mark.parametrize("command, option", [
    ("tournament", "--report"), ("tournament", "--log"), ("tournament", "--pgnout"),
    ("sprt", "--report"), ("sprt", "--log"), ("sprt", "--pgnout"),
])
def test_an_unwritable_output_is_refused_before_a_game_is_played(tmp_path, command, option):
    db = tmp_path / "never.sqlite"
    engines = SPRT_PAIR if command == "sprt" else PAIR
    result = run(command, *engines, option, "/nonexistent/out.txt", "--db", str(db))
    assert result.exit_code == (3 if command == "sprt" else 2)
    assert result.output.splitlines() == [
        f"bingwa: error: {option} /nonexistent/out.txt: no such directory /nonexistent"]
    assert not db.exists()  # no game was played, nothing was stored


@pytest.fixture(scope="module")
def played_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("played") / "games.sqlite"
    result = run("tournament", *PAIR, "-v", "kalah", "--db", str(db))
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.parametrize("args", [
    ("ratings", "{db}", "--html", "{out}"),
    ("export", "{db}", "--output", "{out}"),
    ("export", "{db}", "-O", "{out}"),
])
def test_ratings_and_export_refuse_an_unwritable_output_in_one_line(played_db, tmp_path, args):
    out = tmp_path / "no-such-directory" / "out.txt"
    result = run(*(a.format(db=played_db, out=out) for a in args))
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"bingwa: error: {args[2].replace('-O', '--output')} {out}: no such directory {out.parent}"]


def test_export_writes_with_output_and_o_is_not_an_output(played_db, tmp_path):
    out = tmp_path / "games.csv"
    assert run("export", str(played_db), "--format", "csv", "-O", str(out)).exit_code == 0
    assert len(out.read_text().splitlines()) == 1 + 2
    # -o is a variant option everywhere: export has none, and says so
    assert run("export", str(played_db), "-o", str(out)).exit_code == 2


def test_a_binary_openings_file_is_one_error_line(tmp_path):
    binary = tmp_path / "openings.bin"
    binary.write_bytes(bytes(range(256)))
    db = tmp_path / "never.sqlite"
    result = run("tournament", *PAIR, "--openings", str(binary), "--db", str(db))
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"bingwa: error: {binary}: not a text file (byte 128 is not UTF-8)"]
    assert not db.exists()


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_the_ray_backend_without_ray_is_one_line_and_leaves_no_run(tmp_path, monkeypatch, command):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when it is not installed
    db = tmp_path / "never.sqlite"
    engines = SPRT_PAIR if command == "sprt" else PAIR
    result = run(command, *engines, "--backend", "ray", "--db", str(db))
    assert result.exit_code == (3 if command == "sprt" else 2)
    assert result.output.splitlines() == ["bingwa: error: the Ray backend needs Ray: pip install 'bingwa[ray]'"]
    assert not db.exists()


# -- conventions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["-1", "0", "inf", "nan"])
def test_a_fixed_move_time_that_is_no_positive_number_speaks_of_seconds(tmp_path, value):
    result = run("tournament", "--bot", "random", "--bot", "greedy", "--st", value,
                 "--db", str(tmp_path / "never.sqlite"))
    assert result.exit_code == 2
    shown = f"{float(value):g}"
    assert result.output.splitlines() == [
        f"bingwa: error: a fixed time per move (st) is a number of seconds more than 0, not {shown}"]


def test_an_option_the_engine_does_not_offer_is_found_at_the_start(tmp_path):
    db = tmp_path / "never.sqlite"
    result = run("tournament", "-e", "name=x bot=random option.NoSuchOption=3", "-b", "greedy",
                 "--depth", "1", "--db", str(db))
    assert result.exit_code == 2
    assert result.output.splitlines() == ["bingwa: error: engine x has no option NoSuchOption"]
    assert not db.exists()


def test_options_are_checked_against_what_the_engine_declares():
    import sys

    from bingwa.tournament.engines import missing_options
    from bingwa.tournament.model import EngineSpec

    spec = EngineSpec.parse("name=ab bot=alphabeta option.hash=8 option.Hsh=8")
    assert missing_options(spec) == ["Hsh"]  # names are matched as UCI matches them
    # an Aualé-dialect engine takes options it never declares, as Aalina does
    auale = EngineSpec("aalina-like", (sys.executable, "-m", "bingwa", "engine", "--dialect", "auale"),
                       protocol="auale", options=(("OwnBook", "false"),))
    assert missing_options(auale) == []


def test_b_is_a_bot_and_o_a_variant_option(tmp_path):
    db = tmp_path / "games.sqlite"
    result = run("tournament", "-b", "random", "-b", "greedy", "-v", "kalah", "-o", "pits=4",
                 "--depth", "1", "--rounds", "1", "--opening-plies", "0", "--progress", "none",
                 "--db", str(db))
    assert result.exit_code == 0, result.output
    from bingwa.tournament.storage import Store

    assert Store(db).variants() == ["kalah pits=4"]
    bad = run("tournament", "-b", "random", "-b", "greedy", "-o", "pits=x", "--depth", "1",
              "--db", str(tmp_path / "never.sqlite"))
    assert bad.exit_code == 2 and len(bad.output.splitlines()) == 1


# -- sprt: exit 3 for every error ------------------------------------------------------------------
@pytest.mark.parametrize("args, message", [
    (("--new", "random", "--base", "greedy"), "give a time control"),
    (("--new", "random", "--base", "greedy", "--depth", "1", "-v", "chess"), "unknown variant 'chess'"),
    (("--resume", "--run", "77"), "no run 77"),
    (("--new", "random", "--base", "greedy", "--depth", "1", "--alpha", "2"), "Invalid value for '--alpha'"),
    (("--new", "random", "--base", "greedy", "--depth", "x"), "Invalid value for '--depth'"),
    (("--new", "random", "--base", "random", "--depth", "1"), "--new and --base are the same engine"),
    (("--new", "greedy", "--base", "bot=greedy", "--depth", "1"), "--new and --base are the same engine"),
])
def test_every_sprt_error_exits_3(tmp_path, args, message):
    db = tmp_path / "sprt.sqlite"
    if "--resume" in args:
        from bingwa.tournament.storage import Store

        Store(db).close()
    result = run("sprt", *args, "--db", str(db))
    assert result.exit_code == 3, result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_sprt_resume_of_a_tournament_says_so_and_exits_3(played_db):
    result = run("sprt", "--resume", "--db", str(played_db))
    assert result.exit_code == 3
    assert result.output.splitlines() == [
        "bingwa: error: run 1 is a round-robin, not an SPRT: resume it with bingwa tournament --resume"]


@pytest.mark.parametrize("command", ["tournament", "sprt"])
def test_resume_with_other_settings_is_refused_and_names_them(played_db, command):
    result = run(command, "--resume", "--db", str(played_db), "--nodes", "50", "--seed", "3", "-j", "1")
    assert result.exit_code == (3 if command == "sprt" else 2)
    assert result.output.splitlines() == [
        "bingwa: error: --resume plays the run on with the settings it was started with; "
        "leave out --nodes, --seed"]


# -- cutechess and fastchess conventions ---------------------------------------------------------
def test_line_mode_prints_a_running_score_and_elo_line_after_each_game(tmp_path):
    import re

    db = tmp_path / "lines.sqlite"
    result = run("tournament", "-b", "random", "-b", "greedy", "-v", "kalah", "--rounds", "2",
                 "--depth", "1", "--opening-plies", "2", "--db", str(db))  # not a terminal: lines
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    scores = [i for i, line in enumerate(lines) if line.startswith("Score of random vs greedy: ")]
    assert len(scores) == 4
    totals = []
    for i in scores:
        match = re.fullmatch(r"Score of random vs greedy: (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)", lines[i])
        assert match, lines[i]
        wins, losses, draws, score, games = match.groups()
        assert int(wins) + int(losses) + int(draws) == int(games)
        assert float(score) == pytest.approx((int(wins) + int(draws) / 2) / int(games), abs=5e-4)
        totals.append(int(games))
        # cutechess's form, or the one-sided interval while one side has won every game
        assert re.fullmatch(r"Elo difference: (\S+ \+/- \S+|\[\S+, \S+\] one-sided), "
                            r"LOS: \d+\.\d %, DrawRatio: \d+\.\d %", lines[i + 1])
        assert "nan" not in lines[i + 1]
    assert totals == [1, 2, 3, 4]


def test_pgnout_appends_each_finished_game_record(tmp_path):
    from bingwa.engine.records import read_records
    from bingwa.tournament.storage import Store

    pgn = tmp_path / "games.pgn"
    db = tmp_path / "games.sqlite"
    for _ in range(2):  # a second run appends
        result = run("tournament", "-b", "random", "-b", "greedy", "-v", "kalah", "--rounds", "1",
                     "--depth", "1", "--opening-plies", "2", "--progress", "none", "--db", str(db),
                     "--pgnout", str(pgn))
        assert result.exit_code == 0, result.output
    records = read_records(pgn)
    games = Store(db).games()
    assert len(records) == len(games) == 4
    assert sorted(" ".join(m.text for m in r.moves) for r in records) == sorted(
        " ".join(m.move for m in g.moves) for g in games)
    assert {r.tags["TimeControl"] for r in records} == {"depth=1"}


def test_opening_depth_sets_the_search_that_balances_the_random_openings(tmp_path):
    import random

    from bingwa.engine.position import Position
    from bingwa.tournament.openings import random_openings, search_evaluator
    from bingwa.tournament.storage import Store

    db = tmp_path / "deep.sqlite"
    result = run("tournament", "-b", "random", "-b", "greedy", "-v", "kalah", "--rounds", "3",
                 "--depth", "1", "--opening-plies", "3", "--opening-depth", "2",
                 "--opening-margin", "50", "--progress", "none", "--db", str(db))
    assert result.exit_code == 0, result.output
    store = Store(db)
    run_id = store.runs()[-1].id
    assert store.run(run_id).config["openings"]["depth"] == 2
    drawn = store.openings(run_id)["kalah"]
    assert drawn == random_openings("kalah", 3, 3, random.Random("1:kalah"), search_evaluator(2), 50)
    evaluate = search_evaluator(2)
    for moves in drawn:
        position = Position("kalah")
        position.push_all(moves)
        assert abs(evaluate(position)) <= 50
