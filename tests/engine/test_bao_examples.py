"""The worked examples E1-E11 of rules-bao.md section 12 (rules version
bao-1), each as its own test, against the compiled and the pure kernel:
the position, its legal-move list and the exact resulting position."""

from __future__ import annotations

import pytest
from support.variants import make_variant

from bingwa.engine import IllegalMoveError, Position, Termination, find_variant
from bingwa.engine.bao import CAP, RULES_VERSION, Run, encode_move
from bingwa.engine.bao_notation import parse_position

KISWAHILI_START = (
    "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22-22 namua Aa -"
)
KUJIFUNZA_START = (
    "kujifunza 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0-0 mtaji - -"
)
E3 = "kiswahili 0,0,8,0,0,0,10,0/0,2,0,6,0,0,2,3/1,0,1,0,6,0,0,0/0,0,0,3,0,0,0,2 S 10-10 namua Aa -"
E4 = "kiswahili 10,0,0,12,0,0,0,0/0,0,0,6,0,3,0,2/0,0,0,0,6,0,0,0/0,4,0,0,0,0,5,0 S 8-8 namua Aa -"
E5 = "kiswahili 0,4,0,0,0,8,0,0/0,0,4,6,0,0,3,2/0,0,2,0,6,0,0,0/0,0,0,0,4,0,0,3 S 11-11 namua Aa -"
E6 = "kiswahili 0,0,0,0,0,20,0,0/0,0,0,7,3,0,0,2/0,0,2,0,6,0,0,0/16,0,0,0,0,4,0,4 S 0-0 mtaji Aa -"
E8 = "kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/0,0,0,3,0,0,0,0/3,3,3,0,21,0,0,0 S 0-0 mtaji - -"
E9 = "kiswahili 0,0,27,0,20,0,0,0/0,2,0,0,4,0,3,0/3,0,0,0,0,0,0,0/0,0,0,5,0,0,0,0 S 0-0 mtaji - -"
E10 = "kiswahili 0,0,0,28,0,0,0,20/0,0,0,0,3,0,0,0/0,2,0,0,1,0,0,0/0,0,4,0,0,0,0,0 S 3-3 namua - -"
E11 = "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,9,0,0,1/1,6,3,1,0,5,4,0/2,1,0,5,0,3,0,1 S 11-11 namua - -"
E11_LINE = (
    "A6< a6> A4> a6> A5< a3> A8>+ a8> A4> a4< A8> a7> A1< a4> A6> a4< A2< a4< A4< a4< A7> a4<"
)


def position(text: str, kind: str) -> Position:
    spec = "kujifunza" if text.startswith("kujifunza") else "bao"
    return Position(make_variant(spec, kind), text=text)


def legal(pos: Position) -> list[str]:
    return sorted(move.text for move in pos.legal_moves())


def after(pos: Position, move: str) -> str:
    return pos.play(move).text()


def test_the_module_states_rules_version_bao_1():
    assert RULES_VERSION == "bao-1"
    assert find_variant("bao").rules_version == find_variant("kujifunza").rules_version == "bao-1"


def test_e1_kiswahili_start_namua_takasa(kind):
    pos = position(KISWAHILI_START, kind)
    assert pos.text() == Position(make_variant("bao", kind)).text()
    assert legal(pos) == ["A6<", "A6>", "A7<", "A7>"]
    assert after(pos, "A7<") == (
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,1,7,3,0,0/0,0,0,0,0,0,0,0 N 21-22 namua Aa -"
    )
    assert after(pos, "A7<*") == after(pos, "A7<")  # the record decoration of a takasa


def test_e2_namua_capture_with_kichwa_choice(kind):
    pos = position(
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,1,7,3,0,0/0,0,0,0,0,0,0,0 N 21-22 namua Aa -",
        kind,
    )
    assert legal(pos) == ["a5<", "a5>"]
    assert after(pos, "a5>") == (
        "kiswahili 0,0,0,0,0,0,0,0/1,2,2,7,0,0,0,0/0,0,0,0,7,3,0,0/0,0,0,0,0,0,0,0 S 21-21 namua Aa -"
    )
    assert after(pos, "a5<") == (
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,7,0,0,0,1/0,0,0,0,7,3,0,0/0,0,0,0,0,0,0,0 S 21-21 namua Aa -"
    )


def test_e3_namua_takasa_relays_then_stops_in_the_functional_nyumba(kind):
    pos = position(E3, kind)
    assert legal(pos) == ["A1<", "A1>", "A3<", "A3>"]
    child = pos.play("A1>")
    assert child.text() == (
        "kiswahili 0,0,8,0,0,0,10,0/0,2,0,6,0,0,2,3/0,1,0,1,7,0,0,0/0,0,0,3,0,0,0,2 N 9-10 namua Aa -"
    )
    assert legal(child) == ["a5<", "a5<+", "a5>", "a7>"]


def test_e4_nyumba_tax(kind):
    pos = position(E4, kind)
    assert legal(pos) == ["A5<", "A5>"]
    assert after(pos, "A5>") == (
        "kiswahili 10,0,0,12,0,0,0,0/0,0,0,6,0,3,0,2/0,0,0,0,5,1,1,0/0,4,0,0,0,0,5,0 N 7-8 namua Aa -"
    )
    south_front = after(pos, "A5<").split()[1].split("/")[2]
    assert south_front == "0,0,1,1,5,0,0,0"


@pytest.mark.parametrize(
    "move, result",
    [
        ("A3<", "kiswahili 0,4,0,0,0,8,0,0/0,0,0,6,0,0,3,2/1,1,4,1,6,0,0,0/0,0,0,0,4,0,0,3 N 10-11 namua Aa -"),
        ("A3>", "kiswahili 0,4,0,0,0,8,0,0/0,0,0,6,0,0,3,2/0,0,3,0,7,1,1,1/0,0,0,0,4,0,0,3 N 10-11 namua Aa -"),
        ("A3>+", "kiswahili 0,4,0,0,0,8,0,0/0,0,0,6,0,0,3,2/1,1,4,1,0,1,1,1/1,1,1,0,4,0,0,3 N 10-11 namua a -"),
    ],
)
def test_e5_namua_capture_kichwa_choice_and_safari_decision(kind, move, result):
    pos = position(E5, kind)
    assert legal(pos) == ["A3<", "A3>", "A3>+"]
    assert after(pos, move) == result


def test_e6_first_mtaji_capture_ends_both_nyumbas_and_relays(kind):
    pos = position(E6, kind)
    assert legal(pos) == ["A3>", "B8>"]
    assert after(pos, "B8>") == (
        "kiswahili 0,0,0,0,0,20,0,0/0,0,0,7,0,0,0,2/0,0,2,1,8,0,2,2/16,0,0,0,0,4,0,0 N 0-0 mtaji - -"
    )
    assert after(pos, "A3>") == (
        "kiswahili 0,0,0,0,0,20,0,0/0,0,0,7,0,0,0,2/1,1,1,1,7,0,0,0/16,0,0,0,0,4,0,4 N 0-0 mtaji - -"
    )


def test_e7_kujifunza_start(kind):
    pos = position(KUJIFUNZA_START, kind)
    assert pos.text() == Position(make_variant("kujifunza", kind)).text()
    expected = "A1> A2> A3> A3< A4> A4< A5> A5< A6> A6< A7< A8< B8> B7> B2< B1<".split()
    assert legal(pos) == sorted(expected)
    assert after(pos, "A4<") == (
        "kujifunza 2,2,2,2,2,2,2,2/2,0,2,2,2,0,2,2/4,1,4,1,3,3,2,2/2,2,2,2,2,2,2,2 N 0-0 mtaji - -"
    )


def test_e8_takasia_blocks_a6_and_stops_the_lap_there(kind):
    pos = position(E8, kind)
    assert legal(pos) == ["A4<", "A4>"]
    blocked = pos.play("A4<**")  # the record mark of a blocking takasa
    assert blocked.text() == (
        "kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/1,1,1,0,0,0,0,0/3,3,3,0,21,0,0,0 N 0-0 mtaji - a6"
    )
    assert legal(blocked) == ["a2<", "a2>"]
    with pytest.raises(IllegalMoveError, match="blocked by takasia"):
        blocked.parse_move("a6<")
    child = blocked.play("a2>")
    assert child.text() == (
        "kiswahili 0,0,0,0,23,0,0,0/0,0,6,1,0,1,0,0/1,1,1,0,0,0,0,0/3,3,3,0,21,0,0,0 S 0-0 mtaji - -"
    )
    assert legal(child) == ["B1<"]


def test_e9_a_lone_front_kichwa_cannot_be_sown_towards_the_back_row(kind):
    pos = position(E9, kind)
    assert legal(pos) == ["A1>"]
    with pytest.raises(IllegalMoveError, match="rule 3.6"):
        pos.parse_move("A1<")
    assert after(pos, "A1>") == (
        "kiswahili 0,0,27,0,20,0,0,0/0,2,0,0,4,0,3,0/0,1,1,1,0,0,0,0/0,0,0,5,0,0,0,0 N 0-0 mtaji - a7"
    )


def test_e10_winning_in_the_middle_of_a_move(kind):
    pos = position(E10, kind)
    assert legal(pos) == ["A5<", "A5>"]
    child = pos.play("A5<#")
    assert child.text() == (
        "kiswahili 0,0,0,28,0,0,0,20/0,0,0,0,0,0,0,0/1,3,1,0,2,0,0,0/0,0,4,0,0,0,0,0 N 2-3 namua - -"
    )
    assert child.is_over() and child.legal_moves() == []
    outcome = child.outcome()
    assert outcome.termination is Termination.FRONT_ROW_EMPTY
    assert outcome.winner == 0 and outcome.result() == "1-0"


def test_e11_line_reaches_the_published_position(kind):
    pos = Position(make_variant("bao", kind))
    pos.push_all(E11_LINE.split())
    assert pos.text() == E11
    assert legal(pos) == sorted("A2< A2> A3> A6< A6> A7< A7>".split())


def test_e11_never_ending_move_is_illegal(kind):
    pos = Position(make_variant("bao", kind))
    pos.push_all(E11_LINE.split())
    with pytest.raises(IllegalMoveError, match="never ends"):
        pos.push("A3<")


def test_e11_never_ending_move_repeats_every_228_laps_of_816_seeds():
    """The period rules-bao.md gives (and says Mancala World gives as 218)."""

    class Traced(Run):
        def end_of_lap(self, e, direction):
            situations.append((tuple(self.pits), e, direction, tuple(self.houses), self.dropped))
            return super().end_of_lap(e, direction)

    situations: list = []
    run = Traced(parse_position(E11, "kiswahili"), encode_move(2, False)).execute()
    assert "never ends" in run.status
    assert run.dropped > CAP
    first = {s[:4]: i for i, s in reversed(list(enumerate(situations)))}
    repeat = next(i for i, s in enumerate(situations) if first[s[:4]] != i)
    start = first[situations[repeat][:4]]
    assert (start, repeat - start) == (0, 228)
    assert situations[repeat][4] - situations[start][4] == 816
