"""Ayoayo and Kalah rule scenarios (rules.md), each from an explicit
position, on both the compiled and the pure kernel."""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import IllegalMoveError, Position, Termination


def position(spec: str, text: str, kind: str) -> Position:
    return Position(make_variant(spec, kind), text=text)


def moves(pos: Position) -> list[str]:
    return [m.text for m in pos.legal_moves()]


# -- Ayoayo -----------------------------------------------------------------


def test_ayoayo_relay_crosses_both_rows_until_an_empty_pit(kind):
    # e: f A B(2->3, lift) C D E(1->2, lift) F a(4->5, lift) b c d e f(1->2,
    # lift) A B(empty): ends on North's row, so nothing is captured.
    pos = position("ayoayo", "4,4,4,4,3,0/4,2,0,0,1,4 9 9 s", kind)
    pos.push("e")
    assert pos.text() == "0,5,5,5,1,0/6,1,1,1,0,5 9 9 n"


def test_ayoayo_capture_takes_the_facing_seeds_and_the_capturing_seed(kind):
    pos = position("ayoayo", "0,0,1,0,4,4/4,4,5,4,4,4 7 7 s", kind)
    pos.push("c")  # ends in empty d, facing C holds 5
    assert pos.text() == "0,0,0,0,4,4/4,4,0,4,4,4 13 7 n"


def test_ayoayo_no_capture_when_the_facing_pit_is_empty(kind):
    pos = position("ayoayo", "0,0,1,0,4,4/4,4,0,4,4,4 10 9 s", kind)
    pos.push("c")
    assert pos.text() == "0,0,0,1,4,4/4,4,0,4,4,4 10 9 n"


def test_ayoayo_endless_relay_is_illegal(kind):
    # b's relay returns to a situation it has been in (found by search)
    pos = position("ayoayo", "3,2,0,1,0,1/0,1,0,2,1,0 19 18 s", kind)
    assert "b" not in moves(pos)
    assert moves(pos) == ["a", "d", "f"]
    with pytest.raises(IllegalMoveError, match="never ends"):
        pos.push("b")


def test_ayoayo_must_feed_an_empty_row_when_a_move_can(kind):
    # a ends in own empty b with nothing facing: North stays empty
    pos = position("ayoayo", "1,0,0,0,0,2/0,0,0,0,0,0 22 23 s", kind)
    assert moves(pos) == ["f"]
    with pytest.raises(IllegalMoveError, match="must be fed"):
        pos.push("a")


def test_ayoayo_seeds_left_go_to_the_player_who_can_move(kind):
    pos = position("ayoayo", "0,0,0,0,0,0/1,2,0,0,0,3 20 22 s", kind)
    outcome = pos.outcome()
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.scores == (20, 28) and outcome.winner == 1


def test_ayoayo_more_than_half_wins(kind):
    pos = position("ayoayo", "0,0,1,0,0,1/0,0,5,0,0,1 20 20 s", kind)
    pos.push("c")  # d empty, facing C: 5 + 1
    outcome = pos.outcome()
    assert outcome.termination is Termination.MAJORITY
    assert outcome.scores == (26, 20) and outcome.winner == 0


# -- Kalah --------------------------------------------------------------------


def test_kalah_last_seed_in_own_store_gives_an_extra_turn(kind):
    pos = position("kalah", "4,4,4,4,4,4/4,4,4,4,4,4 0 0 s", kind)
    pos.push("c")  # d e f store
    assert pos.text() == "4,4,0,5,5,5/4,4,4,4,4,4 1 0 s"
    assert pos.turn == 0
    pos.push("f")  # store A B C D: North's turn
    assert pos.turn == 1


def test_kalah_capture_from_an_empty_own_pit(kind):
    pos = position("kalah", "1,0,4,4,4,4/4,4,4,4,4,4 4 3 s", kind)
    pos.push("a")  # b was empty, facing E holds 4
    assert pos.text() == "0,0,4,4,4,4/4,4,4,4,0,4 9 3 n"


@pytest.mark.parametrize(
    "spec, after",
    [
        ("kalah", "0,1,4,4,4,4/4,4,4,4,0,4 6 5 n"),
        ("kalah empty-capture=true", "0,0,4,4,4,4/4,4,4,4,0,4 7 5 n"),
    ],
)
def test_kalah_empty_capture_option(kind, spec, after):
    pos = position(spec, "1,0,4,4,4,4/4,4,4,4,0,4 6 5 s", kind)
    pos.push("a")
    assert pos.text() == after


def test_kalah_final_sweep_when_a_row_empties(kind):
    pos = position("kalah", "0,0,0,0,0,1/1,2,3,0,0,0 20 21 s", kind)
    pos.push("f")  # into the store: an extra turn, but South's row is empty
    outcome = pos.outcome()
    assert outcome.termination is Termination.ROW_EMPTY
    assert outcome.scores == (21, 27) and outcome.winner == 1
    assert pos.legal_moves() == []


def test_kalah_origin_pit_is_not_skipped(kind):
    # 13 seeds = one whole lap (6 pits + store + 6 pits): the last seed falls
    # back into the emptied origin, which captures the facing F.
    pos = position("kalah", "13,0,0,0,0,0/1,1,1,1,1,1 15 14 s", kind)
    pos.push("a")
    assert pos.text() == "0,1,1,1,1,1/2,2,2,2,2,0 19 14 n"


def test_kalah_north_sows_through_his_store_and_skips_souths(kind):
    pos = position("kalah", "4,4,4,4,4,4/0,0,0,0,0,9 8 7 n", kind)
    # store, a..f, (skip South's store), A, B: B was empty, so it captures
    # the facing e (5) with the last seed
    pos.push("F")
    assert pos.text() == "5,5,5,5,0,5/1,0,0,0,0,0 8 14 s"


def test_kalah_small_board_parameters(kind):
    pos = position("kalah pits=3 seeds=2", "2,2,2/2,2,2 0 0 s", kind)
    assert moves(pos) == ["a", "b", "c"]
    pos.push("b")  # c, store: extra turn
    assert pos.text() == "2,0,3/2,2,2 1 0 s"
