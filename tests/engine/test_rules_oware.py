"""Oware rule scenarios (rules.md, Oware), each built from an explicit
position and run on both the compiled and the pure kernel."""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import IllegalMoveError, Position, Termination


def position(text: str, kind: str, spec: str = "oware") -> Position:
    return Position(make_variant(spec, kind), text=text)


def moves(pos: Position) -> list[str]:
    return [m.text for m in pos.legal_moves()]


def test_capture_chain_seed_example_takes_2_and_3_and_stops_at_4(kind):
    # seeds/000: the last seed makes 2, the pit behind holds 3, the next 4:
    # 2 + 3 = 5 captured and the 4 stays.
    pos = position("4,4,4,4,4,3/3,2,1,4,4,4 4 3 s", kind)
    pos.push("f")
    assert pos.text() == "4,4,4,4,4,0/4,0,0,4,4,4 9 3 n"


def test_capture_only_on_the_opponents_row(kind):
    # a's 5 seeds end in f (own row) making 2: no capture.
    pos = position("5,0,0,0,0,1/4,4,4,4,4,4 11 7 s", kind)
    pos.push("a")
    assert pos.text() == "0,1,1,1,1,2/4,4,4,4,4,4 11 7 n"


def test_capture_chain_stops_at_the_movers_own_row(kind):
    # e's 3 seeds: f, A, B -> A=2, B=2: both taken; the chain does not
    # continue into South's f.
    pos = position("4,4,4,4,3,1/1,1,4,4,4,4 5 5 s", kind)
    pos.push("e")
    assert pos.text() == "4,4,4,4,0,2/0,0,4,4,4,4 9 5 n"


GRAND_SLAM = "5,5,5,5,5,2/1,2,0,0,0,0 9 9 s"  # f makes A=2, B=3: every North seed


@pytest.mark.parametrize(
    "rule, after",
    [
        ("nocapture", "5,5,5,5,5,0/2,3,0,0,0,0 9 9 n"),
        ("capture", "5,5,5,5,5,0/0,0,0,0,0,0 14 9 n"),
        ("leave-first", "5,5,5,5,5,0/0,3,0,0,0,0 11 9 n"),
        ("leave-last", "5,5,5,5,5,0/2,0,0,0,0,0 12 9 n"),
        ("opponent", "5,5,5,5,5,0/0,0,0,0,0,0 9 14 n"),
    ],
)
def test_grand_slam_rule(kind, rule, after):
    pos = position(GRAND_SLAM, kind, f"oware grandslam={rule}")
    assert "f" in moves(pos)
    pos.push("f")
    assert pos.text() == after


def test_grand_slam_forbidden_while_another_move_exists(kind):
    pos = position(GRAND_SLAM, kind, "oware grandslam=forbidden")
    # c (5 seeds: d e f A B) is a grand slam too
    assert moves(pos) == ["a", "b", "d", "e"]
    with pytest.raises(IllegalMoveError, match="grand slam"):
        pos.push("f")


def test_grand_slam_forbidden_played_without_capture_when_every_move_is_one(kind):
    pos = position("0,0,0,0,0,2/1,2,0,0,0,0 22 21 s", kind, "oware grandslam=forbidden")
    assert moves(pos) == ["f"]
    pos.push("f")
    assert pos.text() == "0,0,0,0,0,0/2,3,0,0,0,0 22 21 n"


def test_forced_feeding_allows_only_moves_that_reach_the_opponent(kind):
    pos = position("1,0,0,0,2,0/0,0,0,0,0,0 22 23 s", kind)
    assert moves(pos) == ["e"]
    with pytest.raises(IllegalMoveError, match="must be fed"):
        pos.push("a")


def test_no_feeding_move_lets_the_mover_sow_in_his_row_then_the_game_ends(kind):
    # seeds/000 and 002: with no move able to feed, the mover sows in his
    # own row; North then has no move and each side takes its own row.
    pos = position("1,1,0,0,0,0/0,0,0,0,0,0 22 24 s", kind)
    assert moves(pos) == ["a", "b"]
    assert not pos.is_over()
    pos.push("a")
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.scores == (24, 24) and outcome.winner is None


def test_player_with_empty_row_has_no_move_and_each_side_takes_its_row(kind):
    pos = position("0,0,0,0,0,0/1,0,0,0,3,0 20 24 s", kind)
    assert moves(pos) == []
    outcome = pos.outcome()
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.scores == (20, 28) and outcome.winner == 1


def test_twelve_or_more_seeds_skip_the_origin(kind):
    pos = position("12,0,0,0,0,0/0,0,0,0,0,0 18 18 s", kind)
    pos.push("a")
    # 11 pits get one seed, the origin is skipped, the 12th seed lands in b
    assert pos.text() == "0,2,1,1,1,1/1,1,1,1,1,1 18 18 n"


def test_twenty_three_seeds_skip_the_origin_twice(kind):
    pos = position("23,0,0,0,0,0/0,0,0,0,0,1 12 12 s", kind)
    pos.push("a")
    assert pos.text() == "0,3,2,2,2,2/2,2,2,2,2,3 12 12 n"


def test_more_than_half_wins_at_once(kind):
    pos = position("4,0,0,0,0,1/1,0,0,0,0,1 23 18 s", kind)
    pos.push("f")  # A makes 2: 23 + 2 = 25
    outcome = pos.outcome()
    assert outcome.termination is Termination.MAJORITY
    assert outcome.winner == 0 and outcome.scores == (25, 18)
    assert pos.legal_moves() == []


def test_twenty_four_each_is_a_draw(kind):
    # under nocapture a capture to 24-24 would be a grand slam; use capture
    pos = position("0,0,0,0,0,1/1,0,0,0,0,0 22 24 s", kind, "oware grandslam=capture")
    pos.push("f")
    outcome = pos.outcome()
    assert outcome.termination is Termination.MAJORITY
    assert outcome.winner is None and outcome.scores == (24, 24)


def test_repetition_ends_the_game_with_each_side_taking_its_row(kind):
    line = "f A b B c C d D e E f F a".split()
    pos = position("0,1,0,0,0,1/0,0,0,0,0,0 23 23 s", kind)
    for move in line[:-1]:
        pos.push(move)
        assert not pos.is_over()
    pos.push(line[-1])
    outcome = pos.outcome()
    assert outcome.termination is Termination.REPETITION
    assert outcome.scores == (24, 24)
    pos.pop()  # taking the move back undoes the repetition
    assert not pos.is_over()
