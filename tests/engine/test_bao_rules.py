"""Named rule scenarios of rules-bao.md (bao-1) beyond the worked examples,
each from an explicit board, against the compiled and the pure kernel.
Every expected position was traced by hand from the numbered rules."""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import Position, Termination


def bao(text: str, kind: str) -> Position:
    return Position(make_variant("bao", kind), text=text)


def legal(pos: Position) -> list[str]:
    return sorted(move.text for move in pos.legal_moves())


def field(text: str, name: str) -> str:
    names = ("variant", "rows", "side", "hands", "stage", "houses", "block")
    return text.split()[names.index(name)]


# -- takasia (6.4) ---------------------------------------------------------------
# South's only move is A1> (A1< would empty his front row, 3.6); it makes B1<
# a capture opening (three seeds ending in A3, facing a6).
BLOCK_BASE = "kiswahili 0,0,0,0,27,0,0,0/0,0,3,0,0,2,0,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-0 mtaji - -"
TAKASIA = {
    "blocks the one threatened pit": (BLOCK_BASE, "a6"),
    # (a): B1 with four seeds ends in A4, facing North's nyumba a5
    "exception a: functional nyumba": (
        "kiswahili 0,0,0,0,24,0,0,0/0,0,0,6,0,0,2,0/3,0,0,0,0,0,0,0/4,0,0,0,25,0,0,0 S 0-0 mtaji a -", "-"),
    "a nyumba no longer owned is blocked": (
        "kiswahili 0,0,0,0,24,0,0,0/0,0,0,6,0,0,2,0/3,0,0,0,0,0,0,0/4,0,0,0,25,0,0,0 S 0-0 mtaji - -", "a5"),
    "exception b: the only occupied front pit": (
        "kiswahili 0,0,0,0,29,0,0,0/0,0,3,0,0,0,0,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-0 mtaji - -", "-"),
    "exception c: the only front pit with 2 or more": (
        "kiswahili 0,0,0,0,28,0,0,0/0,0,3,0,0,1,0,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-0 mtaji - -", "-"),
    "exception d: a single seed": (
        "kiswahili 0,0,0,0,27,0,0,0/0,0,1,0,0,2,2,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-0 mtaji - -", "-"),
    # (i): North's b8 (3 seeds) would end in a6, facing A3
    "condition i: the victim has a capture opening": (
        "kiswahili 3,0,0,0,24,0,0,0/0,0,3,0,0,2,0,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-0 mtaji - -", "-"),
    # (ii): B2< now also ends in A2, facing a7: two pits threatened
    "condition ii: two threatened pits": (
        "kiswahili 0,0,0,0,25,0,0,0/0,2,3,0,0,2,0,0/2,0,0,0,0,0,0,0/3,3,0,0,24,0,0,0 S 0-0 mtaji - -", "-"),
    # North still holds a seed: the takasa did not start with both hands empty
    "only after a move that starts with both hands empty": (
        "kiswahili 0,0,0,0,26,0,0,0/0,0,3,0,0,2,0,0/2,0,0,0,0,0,0,0/3,0,0,0,27,0,0,0 S 0-1 mtaji - -", "-"),
}


@pytest.mark.parametrize("name", list(TAKASIA))
def test_takasia(kind, name):
    text, block = TAKASIA[name]
    pos = bao(text, kind)
    assert legal(pos) == ["A1>"]
    assert field(pos.play("A1>").text(), "block") == block


def test_takasia_never_applies_in_kujifunza(kind):
    e8 = "kujifunza 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/0,0,0,3,0,0,0,0/3,3,3,0,21,0,0,0 S 0-0 mtaji - -"
    pos = Position(make_variant("kujifunza", kind), text=e8)
    child = pos.play("A4<")
    assert field(child.text(), "block") == "-"
    assert "a6<" in legal(child) or "a6>" in legal(child)


# -- mtaji moves (6.1, 6.2, 7.2) ---------------------------------------------------
def test_sixteen_or_more_seeds_never_start_a_capture(kind):
    # B1< (19 seeds) goes once round and ends in A3, facing a6 (2): a takasa
    text = "kiswahili 0,0,0,0,20,0,0,0/0,0,2,0,0,0,0,0/0,0,1,0,0,0,0,0/19,0,0,0,22,0,0,0 S 0-0 mtaji - -"
    pos = bao(text, kind)
    assert legal(pos) == ["B1<", "B1>", "B5<", "B5>"]
    child = pos.play("B1<")
    assert child.text() == (
        "kiswahili 0,0,0,0,20,0,0,0/0,0,2,0,0,0,0,0/5,0,3,1,5,3,0,1/4,4,0,4,1,5,1,5 N 0-0 mtaji - -"
    )


def test_single_seeds_are_never_sown_and_no_move_loses(kind):
    text = "kiswahili 0,0,0,0,50,0,0,0/0,0,0,0,12,0,0,0/1,1,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 0-0 mtaji - -"
    pos = bao(text, kind)
    assert pos.legal_moves() == []
    outcome = pos.outcome()
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.winner == 1 and outcome.scores == (0, 64)


def test_back_row_takasa_only_without_a_front_row_takasa(kind):
    text = "kiswahili 0,0,0,0,40,0,0,0/0,0,0,0,18,0,0,0/1,0,0,0,0,0,0,0/0,0,5,0,0,0,0,0 S 0-0 mtaji - -"
    pos = bao(text, kind)
    assert legal(pos) == ["B3<", "B3>"]
    assert pos.play("B3<").text() == (
        "kiswahili 0,0,0,0,40,0,0,0/0,0,0,0,18,0,0,0/2,1,1,0,0,0,0,0/1,1,0,0,0,0,0,0 N 0-0 mtaji - -"
    )
    with_front = bao(text.replace("/1,0,0,0,0,0,0,0/0,0,5,", "/2,0,0,0,0,0,0,0/0,0,4,"), kind)
    assert legal(with_front) == ["A1>"]  # A1< would empty the front row (3.6)


def test_mtaji_win_in_the_middle_of_a_move(kind):
    text = "kiswahili 0,0,0,0,30,0,0,0/0,0,0,0,2,0,0,0/0,0,2,0,1,0,0,0/0,0,0,0,29,0,0,0 S 0-0 mtaji - -"
    pos = bao(text, kind)
    assert legal(pos) == ["A3>"]
    child = pos.play("A3>")
    assert child.text() == (
        "kiswahili 0,0,0,0,30,0,0,0/0,0,0,0,0,0,0,0/1,1,0,1,2,0,0,0/0,0,0,0,29,0,0,0 N 0-0 mtaji - -"
    )
    assert child.outcome().termination is Termination.FRONT_ROW_EMPTY
    assert child.outcome().scores == (64, 0)


def test_a_mtaji_lap_ending_in_the_owned_nyumba_relays_and_ends_ownership(kind):
    text = "kiswahili 0,0,0,0,26,0,0,0/0,0,0,0,0,0,0,2/0,0,2,0,6,0,0,0/0,0,0,0,28,0,0,0 S 0-0 mtaji A -"
    pos = bao(text, kind)
    assert legal(pos) == ["A3<", "A3>", "A5<", "A5>"]
    assert pos.play("A3>").text() == (
        "kiswahili 0,0,0,0,26,0,0,0/0,0,0,0,0,0,0,2/0,3,3,0,3,4,4,0/3,3,0,3,1,4,4,1 N 0-0 mtaji - -"
    )
    assert field(pos.play("A3<").text(), "houses") == "A"


# -- namua moves (4.2-4.5, 5.2) ------------------------------------------------------
def test_owned_nyumba_under_six_allows_singletons_and_its_own_sowing(kind):
    text = "kiswahili 10,0,0,12,0,0,0,3/0,0,0,6,0,0,0,2/0,0,0,0,5,1,1,0/0,4,0,0,0,0,5,0 S 7-8 namua Aa -"
    pos = bao(text, kind)
    assert legal(pos) == ["A5<", "A5>", "A6<", "A6>", "A7<", "A7>"]
    assert pos.play("A5<").text() == (
        "kiswahili 10,0,0,12,0,0,0,3/0,0,0,6,0,0,0,2/2,0,2,0,1,2,2,1/0,1,0,2,0,2,1,1 N 6-8 namua a -"
    )
    assert field(pos.play("A6<").text(), "houses") == "Aa"


def test_without_a_nyumba_singletons_only_when_no_pit_holds_two(kind):
    two = "kiswahili 10,0,0,12,0,0,0,3/0,0,0,6,0,0,0,2/0,2,1,0,0,0,0,0/0,4,0,0,0,0,9,0 S 7-8 namua a -"
    assert legal(bao(two, kind)) == ["A2<", "A2>"]
    assert bao(two, kind).play("A2>").text() == (
        "kiswahili 10,0,0,12,0,0,0,3/0,0,0,6,0,0,0,2/0,0,2,1,1,0,0,0/0,4,0,0,0,0,9,0 N 6-8 namua a -"
    )
    ones = "kiswahili 10,0,0,12,0,0,0,3/0,0,0,6,0,0,0,2/0,1,1,0,0,0,0,0/0,4,0,0,0,0,10,0 S 7-8 namua a -"
    assert legal(bao(ones, kind)) == ["A2<", "A2>", "A3<", "A3>"]


def test_capture_comes_before_the_nyumba_stop(kind):
    # E5 with a seed in a4: A3>'s lap ends in A5 facing a4, so it captures
    # again instead of offering the safari; the nyumba keeps its status.
    text = "kiswahili 0,4,0,0,0,7,0,0/0,0,4,6,1,0,3,2/0,0,2,0,6,0,0,0/0,0,0,0,4,0,0,3 S 11-11 namua Aa -"
    pos = bao(text, kind)
    assert legal(pos) == ["A3<", "A3>", "A5<", "A5>"]
    assert pos.play("A3>").text() == (
        "kiswahili 0,4,0,0,0,7,0,0/0,0,0,6,0,0,0,0/0,0,3,1,8,0,3,4/0,0,0,0,4,0,0,3 N 10-11 namua Aa -"
    )


def test_capturing_the_opponents_nyumba_ends_his_ownership(kind):
    text = "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,1,6,2,2,0/0,0,0,0,0,0,0,0 S 21-22 namua Aa -"
    pos = bao(text, kind)
    assert legal(pos) == ["A4<", "A4>"]
    assert pos.play("A4<").text() == (
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,0,0,0,0,0/1,1,1,3,7,0,3,1/0,0,0,0,0,0,0,1 N 20-22 namua A -"
    )


def test_a_lap_of_captured_seeds_may_wrap_into_the_back_row(kind):
    text = "kiswahili 0,0,0,0,20,0,0,0/10,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 16-15 namua - -"
    pos = bao(text, kind)
    assert legal(pos) == ["A1<"]
    assert pos.parse_move("1").text == "A1<"  # a kimbi capture has one sign (10.4)
    assert pos.play("A1<").text() == (
        "kiswahili 0,0,0,0,20,0,0,0/0,0,0,0,0,0,0,2/3,1,1,1,1,1,1,1/0,0,0,0,0,0,1,1 N 15-15 namua - -"
    )


def test_the_standard_game_reaches_mtaji_after_ply_44(kind):
    """Rule 2.4: South's hand empties after ply 43, North's after ply 44
    (the line that always plays the first legal move)."""
    pos = Position(make_variant("bao", kind))
    for ply in range(1, 45):
        assert field(pos.text(), "stage") == "namua"
        pos.push(pos.legal_moves()[0])
        if ply == 43:
            assert field(pos.text(), "hands") == "0-1"
    assert not pos.is_over()
    assert (field(pos.text(), "hands"), field(pos.text(), "stage")) == ("0-0", "mtaji")
