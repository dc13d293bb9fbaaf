"""``bingwa bots``, ``bingwa play`` and ``bingwa replay`` driven through
stdin (click's CliRunner): scripted games, every error message, records
saved and read back."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from bingwa.cli import main
from bingwa.engine import Position
from bingwa.engine.ogn import read_ogn
from bingwa.engine.records import GameRecord, read_record
from bingwa.protocol.bots import bot_names, find_bot


def run(args: list[str], lines: list[str] | None = None):
    stdin = "".join(f"{line}\n" for line in lines or [])
    return CliRunner().invoke(main, args, input=stdin)


def play(variant: str, lines: list[str], *extra: str):
    return run(["play", variant, "--bot", "random", *extra], lines)


# -- bots -------------------------------------------------------------------
def test_bots_lists_every_bot_on_one_line() -> None:
    result = run(["bots"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == bot_names()
    for line, name in zip(lines, bot_names(), strict=True):
        assert find_bot(name).summary in line


# -- play: moves and messages -------------------------------------------------
def test_a_move_is_played_and_the_bot_answers() -> None:
    result = play("oware", ["c", "quit"], "-B", "Seed=1")
    assert result.exit_code == 0
    assert "you play South, bingwa (random) plays North" in result.output
    assert "Last move: c by you\n" in result.output
    assert "South   0    4    4  [ 0]   5    5    5" in result.output  # c emptied, in brackets
    assert re.search(r"bingwa \(random\) plays [A-F]\n", result.output)
    assert "Last move: " in result.output.split("bingwa (random) plays")[1]
    assert result.output.rstrip().endswith("bye")


def test_not_your_pit() -> None:
    result = play("oware", ["A", "quit"])
    assert "illegal move: A: not your pit (South to move)" in result.output


def test_empty_pit() -> None:
    result = play("oware", ["a", "quit"], "--position", "0,4,4,4,4,4/4,4,4,4,4,8 0 0 s")
    assert "illegal move: a: that pit is empty" in result.output


def test_the_opponent_must_be_fed() -> None:
    result = play("oware", ["a", "quit"], "--position", "1,0,0,0,0,5/0,0,0,0,0,0 20 22 s")
    assert ("illegal move: a: the opponent must be fed and this move does not reach his row"
            in result.output)


def test_unknown_command() -> None:
    result = play("oware", ["jump", "quit"])
    assert ("unknown command 'jump' and not a move: 'jump' is not a pit letter "
            "(South a-f, North A-F). Type help for the commands.") in result.output


def test_help_lists_the_commands() -> None:
    result = play("oware", ["help", "quit"])
    for command in ("hint [N]", "undo", "save FILE", "resign", "quit", "moves"):
        assert command in result.output


def test_moves_lists_the_legal_moves() -> None:
    result = play("oware", ["moves", "quit"], "--position", "1,0,0,0,0,5/0,0,0,0,0,0 20 22 s")
    assert "legal moves: f\n" in result.output


def test_save_needs_a_file_name() -> None:
    assert "save needs one file name: save FILE" in play("oware", ["save", "quit"]).output


def test_save_reports_a_bad_path(tmp_path) -> None:
    result = play("oware", [f"save {tmp_path}/missing/dir/game.bgn", "quit"])
    assert f"cannot save to {tmp_path}/missing/dir/game.bgn: No such file or directory" in (
        result.output
    )


def test_undo_with_nothing_to_undo() -> None:
    assert "nothing to undo: you have not moved yet" in play("oware", ["undo", "quit"]).output


def test_undo_takes_back_the_move_and_the_reply(tmp_path) -> None:
    path = tmp_path / "undo.bgn"
    result = play("oware", ["c", "undo", "d", f"save {path}", "quit"], "-B", "Seed=2")
    assert result.exit_code == 0
    moves = [m.text for m in read_record(path).moves]
    assert moves[0] == "d" and len(moves) == 2


def test_undo_after_extra_turns_goes_back_to_your_turn(tmp_path) -> None:
    # Kalah: c ends in South's store, so South moves twice before North
    path = tmp_path / "kalah.bgn"
    result = play("kalah", ["c", "b", "undo", f"save {path}", "quit"], "-B", "Seed=4")
    assert result.exit_code == 0
    assert [m.text for m in read_record(path).moves] == ["c"]


def test_end_of_input_quits() -> None:
    result = play("oware", ["c"])
    assert result.exit_code == 0 and result.output.rstrip().endswith("bye")


def test_play_as_north_lets_the_bot_open() -> None:
    result = play("oware", ["quit"], "--side", "north", "-B", "Seed=3")
    assert "you play North, bingwa (random) plays South" in result.output
    assert re.search(r"bingwa \(random\) plays [a-f]\n", result.output)
    assert "north> " in result.output


def test_resign_ends_the_game_and_the_record_says_so(tmp_path) -> None:
    path = tmp_path / "resigned.bgn"
    result = play("oware", ["c", "resign", "c", f"save {path}", "quit"])
    assert "Game over: North wins by resignation" in result.output
    assert "the game is over: 'c' cannot be played (undo, save FILE or quit)" in result.output
    record = read_record(path)
    assert record.result == "0-1" and record.tags["Termination"] == "resignation"
    assert record.tags["South"] == "human" and record.tags["North"] == "bingwa random"


def test_a_whole_game_to_the_end_is_recorded(tmp_path) -> None:
    # a tiny Kalah: every legal move, in order, until the game ends
    path = tmp_path / "whole.bgn"
    lines = [*(["a", "b"] * 10), f"save {path}", "quit"]
    result = play("kalah pits=2 seeds=1", lines, "-B", "Seed=5")
    assert "Game over: " in result.output
    record = read_record(path)
    final = record.position()
    assert final.is_over()
    assert record.result == final.outcome().result()
    assert record.tags["Variant"] == "kalah pits=2 seeds=1"


def test_save_as_ogn(tmp_path) -> None:
    path = tmp_path / "game.ogn"
    result = play("oware", ["c", f"save {path}", "quit"], "-B", "Seed=6")
    assert f"saved 2 moves to {path}" in result.output
    (record,) = read_ogn(path)
    assert [m.text for m in record.moves][0] == "c"
    assert path.read_text().splitlines()[-1].startswith("1. C ")


def test_save_as_ogn_refuses_other_variants(tmp_path) -> None:
    result = play("kalah", [f"save {tmp_path}/k.ogn", "quit"])
    assert "cannot save as OGN: OGN holds Oware Abapa games only, not 'kalah'" in result.output


def test_hint_ranks_the_moves_with_scores() -> None:
    result = play("oware", ["hint 3", "hint x", "quit"], "--hint-time", "0.05")
    ranked = re.findall(r"^\s+(\d)\. ([a-f])\s+([+-]\d+\.\d\d|[+-]M\d+)\s+depth \d+",
                        result.output, re.M)
    assert [r[0] for r in ranked] == ["1", "2", "3"]
    assert len({r[1] for r in ranked}) == 3
    assert "hint takes a number of moves, not 'x'" in result.output


def test_hint_after_the_end() -> None:
    result = play("oware", ["resign", "hint", "quit"])
    assert "the game is over: no hint" in result.output


def test_bao_moves_in_their_notation(tmp_path) -> None:
    path = tmp_path / "bao.bgn"
    result = play("bao", ["A1<", "A9<", "B1<", "A7<", f"save {path}", "quit"], "-B", "Seed=1")
    assert "illegal move: A1<: A1 is empty" in result.output
    assert ("unknown command 'A9<' and not a move: 'A9<' is not a Bao move (a pit and a sign, "
            "for example A6<, a5> or A3>+)") in result.output
    assert "illegal move: B1<: a namua move starts in the front row (rule 4.1)" in result.output
    assert "Last move: A7< by you" in result.output
    assert read_record(path).moves[0].text == "A7<"


def test_a_bao_pit_without_its_sign_says_why_it_cannot_move_or_which_moves_it_starts() -> None:
    # the page says why in the rules' words (web/board.py): so does the terminal
    result = play("bao", ["A5", "A6", "A1", "quit"])
    assert ("illegal move: A5: the functional nyumba starts a takasa only when it is the only "
            "occupied front pit (rule 4.3)\n") in result.output
    assert ("ambiguous move: A6: 2 legal moves start there, A6< and A6>: the sign says which "
            "(rule 10.4)\n") in result.output
    assert "illegal move: A1: A1 is empty\n" in result.output
    assert "unknown command" not in result.output
    assert result.output.count("Last move: ") == 0  # nothing was played


def test_the_board_is_drawn_with_letters_scores_and_turn() -> None:
    output = play("oware", ["board", "quit"]).output
    assert "a    b    c    d    e    f" in output and "F    E    D    C    B    A" in output
    assert "North   0    4    4    4    4    4    4" in output
    assert "Captured: South 0, North 0; South to move" in output


def test_unknown_bot_and_bad_bot_option_are_one_line_errors() -> None:
    result = run(["play", "oware", "--bot", "nobody"])
    assert result.exit_code == 2 and "unknown bot 'nobody'" in result.output
    result = run(["play", "oware", "--bot", "random", "-B", "Seed=abc"])
    assert result.exit_code == 2 and "option Seed takes a whole number" in result.output
    result = run(["play", "oware", "--bot", "random", "-B", "Seed"])
    assert result.exit_code == 2 and "must be written NAME=VALUE" in result.output


def test_bad_position_is_a_one_line_error() -> None:
    result = run(["play", "oware", "--position", "1,2,3"])
    assert result.exit_code == 2 and "bingwa: error:" in result.output


# -- replay ---------------------------------------------------------------
@pytest.fixture
def game_file(tmp_path):
    pos = Position("oware")
    pos.push_all(["c", "F", "d", "A", "b"])
    path = tmp_path / "game.bgn"
    path.write_text(GameRecord.from_position(pos, south="S", north="N", date="2024.05.01").dumps())
    return path


def test_replay_steps_forward_and_back(game_file) -> None:
    result = run(["replay", str(game_file)], ["", "n 2", "b", "last", "first", "4", "goto 99",
                                              "quit"])
    assert result.exit_code == 0
    shown = re.findall(r"^ply (\d+): (South|North) played (\w)", result.output, re.M)
    assert shown == [("1", "South", "c"), ("3", "South", "d"), ("2", "North", "F"),
                     ("5", "South", "b"), ("4", "North", "A"), ("5", "South", "b")]
    assert result.output.count("the start of the game") == 2
    assert "End of the record: *" in result.output


def test_replay_lists_moves_and_tags(game_file) -> None:
    result = run(["replay", str(game_file)], ["moves", "tags", "quit"])
    assert "1.S c  2.N F  3.S d  4.N A  5.S b" in result.output
    assert "South: S" in result.output and "Variant: oware" in result.output


def test_replay_messages_for_bad_commands(game_file) -> None:
    result = run(["replay", str(game_file)], ["fly", "n x", "goto", "analyse -1", "quit"])
    assert "unknown command 'fly'. Type help for the commands." in result.output
    assert "expected a number of plies, not 'x'" in result.output
    assert "goto needs a ply number: goto N" in result.output
    assert "analyse takes a time in seconds, not '-1'" in result.output


def test_replay_asks_the_engine(game_file) -> None:
    result = run(["replay", str(game_file), "--lines", "2", "--ply", "3"],
                 ["analyse 0.05", "quit"])
    assert "[3/5]> " in result.output
    ranked = re.findall(r"^\s+(\d)\. ([A-F]) ", result.output, re.M)
    assert [r[0] for r in ranked] == ["1", "2"]


def test_replay_with_another_bot(game_file) -> None:
    result = run(["replay", str(game_file), "--bot", "mcts", "-B", "Simulations=200"],
                 ["a 0.05", "quit"])
    assert re.search(r"^\s+1\. [a-f] ", result.output, re.M)


def test_replay_reports_an_illegal_move_with_its_line(tmp_path) -> None:
    path = tmp_path / "bad.bgn"
    path.write_text('[Variant "oware"]\n\n1. c A\n2. c B *\n')
    result = run(["replay", str(path)], ["quit"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"bingwa: error: {path}: line 4: ply 3 (south to move): c: that pit is empty"
    )


def test_replay_errors(tmp_path) -> None:
    assert "cannot read" in run(["replay", str(tmp_path / "none.bgn")]).output
    empty = tmp_path / "empty.bgn"
    empty.write_text("\n")
    assert "no game in the file" in run(["replay", str(empty)]).output


def test_replay_picks_a_game_of_several(tmp_path, game_file) -> None:
    both = tmp_path / "both.bgn"
    both.write_text(game_file.read_text() + "\n" + game_file.read_text())
    assert run(["replay", str(both), "--game", "2"], ["quit"]).exit_code == 0
    result = run(["replay", str(both), "--game", "3"], ["quit"])
    assert result.exit_code == 2 and "has 2 games, not 3" in result.output


def test_replay_reads_ogn(tmp_path) -> None:
    path = tmp_path / "aualé.ogn"
    path.write_text('[South "Ama"]\n[North "Kofi"]\n[Result "*"]\n\n1. C f 2. D *\n')
    result = run(["replay", str(path)], ["last", "quit"])
    assert "Ama (South) - Kofi (North)" in result.output
    assert "ply 3: South played d" in result.output


def test_play_through_a_real_pipe() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bingwa", "play", "oware", "--bot", "greedy"],
        input="c\nA\nquit\n", capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "bingwa (greedy) plays" in done.stdout
    assert "illegal move: A: not your pit (South to move)" in done.stdout


CRASHING_ENGINE = """\
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name Crash\\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        sys.exit(3)
"""


def test_a_failing_bot_loses_the_game_and_the_session_goes_on(tmp_path) -> None:
    import shlex
    import sys

    engine = tmp_path / "crash.py"
    engine.write_text(CRASHING_ENGINE)
    path = tmp_path / "crash.bgn"
    command = f"Command={shlex.quote(sys.executable)} {shlex.quote(str(engine))}"
    result = run(["play", "oware", "--bot", "external", "-B", command, "--side", "north"],
                 [f"save {path}", "quit"])
    assert result.exit_code == 0, result.output
    assert "bingwa (external) failed: EngineCrash" in result.output
    assert "Game over: North wins by crash" in result.output
    record = read_record(path)
    assert record.result == "0-1" and record.tags["Termination"] == "crash"


def test_an_external_bot_with_a_bad_command_fails_at_start() -> None:
    for setting, message in [
        ((), "bot external: the external bot has no Command option set"),
        (("-B", "Command=/no/such/engine"), "bot external: cannot start '/no/such/engine'"),
        (("-B", 'Command="unclosed'), "option Command: No closing quotation"),
    ]:
        result = run(["play", "oware", "--bot", "external", *setting], ["c", "quit"])
        assert result.exit_code == 2, setting
        assert message in result.output
        assert "you play" not in result.output  # no game was started


def test_dash_b_names_the_bot_and_dash_capital_b_sets_its_options() -> None:
    result = play("oware", ["quit"])  # the helper passes --bot random
    short = run(["play", "oware", "-b", "random", "-B", "Seed=1"], ["quit"])
    assert short.exit_code == 0 and "bingwa (random) plays North" in short.output
    assert result.output.splitlines()[0] == short.output.splitlines()[0]


def test_the_bot_is_seen_thinking_before_it_plays() -> None:
    result = play("oware", ["quit"], "--side", "north", "--time", "0.05")
    lines = result.output.splitlines()
    thinking = lines.index("bingwa (random) is thinking (0.05 s)...")
    assert lines[thinking + 1].startswith("bingwa (random) plays ")


def test_playing_north_turns_the_board() -> None:
    output = play("oware", ["c", "quit"], "-B", "Seed=3").output
    south_view = output.split("\n\n")[1].splitlines()
    assert south_view[0].split() == list("FEDCBA") and south_view[1].startswith("North")
    output = play("oware", ["quit"], "--side", "north", "-B", "Seed=3").output
    north_view = output.split("\n\n")[1].splitlines()
    assert north_view[:4] == [
        "             f    e    d    c    b    a",
        "South   0    4    4    4    4    4    4",
        "North   0    4    4    4    4    4    4",
        "             A    B    C    D    E    F",
    ]


def test_the_turned_board_of_a_two_row_game_after_a_move() -> None:
    from bingwa.cli_play import turned_picture

    pos = Position("oware")
    pos.push("c")  # South's c: d, e, f and North's A get a seed
    assert turned_picture(pos.draw()).splitlines() == [
        "             f    e    d    c    b    a",
        "South   0    5    5    5  [ 0]   4    4",
        "North   0    5    4    4    4    4    4",
        "             A    B    C    D    E    F",
        "Captured: South 0, North 0; North to move; last move c",
    ]


def test_the_turned_board_of_bao_puts_north_s_rows_at_the_bottom() -> None:
    from bingwa.cli_play import turned_picture

    picture = Position("bao").draw()
    turned = turned_picture(picture).splitlines()
    original = picture.splitlines()
    assert turned[0].split() == [f"B{i}" for i in range(8, 0, -1)]
    assert turned[1].split()[0] == "B" and turned[1].endswith("South hand 22")
    assert turned[5].split()[0] == "b" and turned[5].endswith("North hand 22")
    assert turned[6].split() == [f"b{i}" for i in range(1, 9)]
    assert turned[3] == original[3] and turned[-1] == original[-1]
    # South's front row, now second from the top, read from A8 to A1
    assert turned[2].split()[1:] == list(reversed(original[4].split()[1:]))
    assert turned_picture(turned_picture(picture)) == picture
