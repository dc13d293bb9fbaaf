"""Bao notation (rules-bao.md sections 10 and 11): position strings with a
specific error for every validity rule, move values and their text, the
lenient record reading, and the board picture."""

from __future__ import annotations

import pytest

from bingwa.engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    MoveError,
    Position,
    PositionError,
    find_variant,
)
from bingwa.engine.bao_notation import ROW_PITS, decode_move, encode_move, parse_pit, pit_name

START = "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22-22 namua Aa -"
KUJIFUNZA = "kujifunza 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0-0 mtaji - -"
BLOCKED = "kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/1,1,1,0,0,0,0,0/3,3,3,0,21,0,0,0 N 0-0 mtaji - a6"
E3_AFTER = "kiswahili 0,0,8,0,0,0,10,0/0,2,0,6,0,0,2,3/0,1,0,1,7,0,0,0/0,0,0,3,0,0,0,2 N 9-10 namua Aa -"
E5 = "kiswahili 0,4,0,0,0,8,0,0/0,0,4,6,0,0,3,2/0,0,2,0,6,0,0,0/0,0,0,0,4,0,0,3 S 11-11 namua Aa -"
E8 = "kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/0,0,0,3,0,0,0,0/3,3,3,0,21,0,0,0 S 0-0 mtaji - -"
MTAJI = "kiswahili 0,0,0,0,0,20,0,0/0,0,0,7,3,0,0,2/0,0,2,0,6,0,0,0/16,0,0,0,0,4,0,4 S 0-0 mtaji Aa -"


def bao(text: str) -> Position:
    return Position("bao", text=text)


# -- pits and move values ----------------------------------------------------
def test_pit_names_follow_the_owners_left_and_the_ring():
    assert [pit_name(p) for p in ROW_PITS[2]] == [f"A{i}" for i in range(1, 9)]
    assert [pit_name(p) for p in ROW_PITS[3]] == [f"B{j}" for j in range(1, 9)]
    assert [pit_name(p) for p in ROW_PITS[1]] == [f"a{i}" for i in range(8, 0, -1)]
    assert [pit_name(p) for p in ROW_PITS[0]] == [f"b{j}" for j in range(8, 0, -1)]
    assert all(parse_pit(pit_name(p)) == p for p in range(32))


def test_a_move_value_packs_pit_sign_and_safari():
    for k in range(16):
        for right in (False, True):
            for safari in (False, True):
                assert decode_move(encode_move(k, right, safari)) == (k, right, safari)


def test_canonical_text_of_moves():
    pos = bao(E5)
    assert sorted(m.text for m in pos.legal_moves()) == ["A3<", "A3>", "A3>+"]
    assert bao(E3_AFTER).parse_move("a5<+").text == "a5<+"
    assert bao(MTAJI).parse_move("B8>").text == "B8>"


# -- lenient reading (10.3, 10.4) --------------------------------------------
def test_row_letter_may_be_left_out_in_a_namua_move():
    pos = Position("bao")
    assert pos.parse_move("7<").text == "A7<"
    north = bao(E3_AFTER)
    assert north.parse_move("5>").text == "a5>"


def test_row_letter_is_required_in_a_mtaji_move():
    with pytest.raises(MoveError, match="only in a namua move"):
        bao(MTAJI).parse_move("3>")


def test_sign_may_be_left_out_when_one_legal_move_fits():
    pos = bao(E3_AFTER)
    assert pos.parse_move("a7").text == "a7>"  # a kimbi capture has one kichwa
    assert pos.parse_move("a5+").text == "a5<+"
    with pytest.raises(AmbiguousMoveError, match="2 legal moves start there, a5> and a5<") as many:
        pos.parse_move("a5")
    assert many.value.moves == ["a5>", "a5<"] and isinstance(many.value, MoveError)
    # a pit that starts no legal move: why, in the rules' words (as the web page says it)
    with pytest.raises(IllegalMoveError, match="^a6: a6 is empty$"):
        pos.parse_move("a6")
    with pytest.raises(IllegalMoveError, match="^A5: the functional nyumba starts a takasa only "
                       r"when it is the only occupied front pit \(rule 4.3\)$"):
        Position("bao").parse_move("A5")


def test_record_marks_are_accepted_and_checked():
    assert Position("bao").parse_move("A7<*").text == "A7<"
    assert bao(E8).parse_move("A4<**").text == "A4<"
    with pytest.raises(IllegalMoveError, match="blocks no pit"):
        bao(E8).parse_move("A4>**")
    with pytest.raises(IllegalMoveError, match="recorded as a takasa but the move captures"):
        bao(E5).parse_move("A3<*")
    with pytest.raises(IllegalMoveError, match="recorded as a winning move"):
        Position("bao").parse_move("A7<#")


def test_a_pit_of_the_side_not_to_move_is_refused():
    with pytest.raises(IllegalMoveError, match="a5 is North's pit and South is to move"):
        Position("bao").parse_move("a5>")


@pytest.mark.parametrize("text", ["", "A9<", "C1<", "A5<<", "A5>-", "A", "<", "A5<***", "A 5<"])
def test_malformed_move_texts(text):
    with pytest.raises(MoveError, match="not a Bao move|only in a namua move"):
        Position("bao").parse_move(text)


def test_illegal_moves_say_why():
    start = Position("bao")
    cases = [
        (start, "B1<", "front row"),
        (start, "A1<", "empty"),
        (start, "A5<", "functional nyumba"),
        (bao(E5), "A3<+", "safari"),
        (bao(E5), "A5<", "capture is compulsory"),
        (bao(E3_AFTER), "a7<", "takes the kichwa on its own side"),
        (bao(BLOCKED), "a6>", "blocked by takasia"),
        (bao(BLOCKED), "a4>", "single seed"),
        (bao(BLOCKED), "b4<", "front row"),
    ]
    for pos, text, reason in cases:
        with pytest.raises(IllegalMoveError, match=reason):
            pos.parse_move(text)


# -- position strings (11) ---------------------------------------------------
@pytest.mark.parametrize("spec, text", [("bao", START), ("kujifunza", KUJIFUNZA), ("bao", BLOCKED),
                                        ("bao", E3_AFTER), ("bao", MTAJI)])
def test_position_strings_round_trip(spec, text):
    pos = Position(spec, text=text)
    assert pos.text() == text
    assert Position(spec, text=pos.text()).state == pos.state


def test_the_start_positions_are_the_documented_strings():
    assert Position("bao").text() == START
    assert Position("kiswahili").text() == START
    assert Position("bao-la-kiswahili").text() == START
    assert Position("kujifunza").text() == KUJIFUNZA
    assert Position("bao-la-kujifunza").text() == KUJIFUNZA


def test_the_position_fields_are_read_into_the_state():
    pits, hands, turn, houses, block = bao(BLOCKED).state
    assert (hands, turn, houses) == ((0, 0), 1, (0, 0))
    assert pit_name(block) == "a6" and pits[block] == 5
    pits, hands, turn, houses, block = bao(E3_AFTER).state
    assert (hands, turn, houses, block) == ((9, 10), 1, (1, 1), -1)
    assert pits[parse_pit("A5")] == 7 and pits[parse_pit("b2")] == 10


def replace(text: str, field: int, value: str) -> str:
    words = text.split()
    words[field] = value
    return " ".join(words)


def set_pit(text: str, pit: str, count: int) -> str:
    words = text.split()
    rows = [row.split(",") for row in words[1].split("/")]
    index = parse_pit(pit)
    for r, row_pits in enumerate(ROW_PITS):
        if index in row_pits:
            rows[r][row_pits.index(index)] = str(count)
    words[1] = "/".join(",".join(row) for row in rows)
    return " ".join(words)


INVALID = [
    # syntax of each field
    ("bao", START.rsplit(" ", 1)[0], "7 fields"),
    ("bao", replace(START, 0, "zanzibar"), "kiswahili or kujifunza"),
    ("bao", replace(START, 1, "0,0/0,0"), "four rows"),
    ("bao", replace(START, 1, START.split()[1] + ",0"), "has 9 pits, not 8"),
    ("bao", set_pit(START, "A1", "x"), "A1 is not a number"),
    ("bao", replace(START, 2, "W"), "S or N"),
    ("bao", replace(START, 3, "22"), "South-North"),
    ("bao", replace(START, 4, "opening"), "namua or mtaji"),
    ("bao", replace(START, 5, "AB"), "Aa, A, a or -"),
    ("bao", replace(BLOCKED, 6, "z9"), "not a pit name"),
    # the validity rules of section 11
    ("bao", set_pit(START, "A1", -1), "A1 is negative"),
    ("bao", set_pit(START, "A1", 1), "65 seeds, not 64"),
    ("bao", replace(START, 3, "22-21"), "63 seeds, not 64"),
    ("bao", replace(START, 4, "mtaji"), "disagrees with the hands"),
    ("bao", replace(MTAJI, 4, "namua"), "disagrees with the hands"),
    ("bao", set_pit(set_pit(MTAJI, "A5", 0), "A3", 8), "owns his nyumba A5 but it is empty"),
    ("bao", set_pit(set_pit(MTAJI, "a5", 0), "a4", 10), "owns his nyumba a5 but it is empty"),
    ("bao", "kiswahili 0,0,0,0,0,20,0,14/0,0,0,0,0,0,0,0/0,0,2,0,6,0,0,0/16,0,0,0,0,4,0,2 S 0-0 mtaji A -",
     "North is not to move and his front row is empty"),
    ("kujifunza", "kujifunza 1,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 1-0 namua - -",
     "no seeds in hand"),
    ("kujifunza", replace(KUJIFUNZA, 5, "Aa"), "no nyumba"),
    ("kujifunza", replace(KUJIFUNZA, 6, "A1"), "no takasia block"),
    ("bao", replace(replace(BLOCKED, 2, "S"), 6, "A1"), "holds 1 seeds; a block needs 2 or more"),
    ("bao", replace(BLOCKED, 6, "A1"), "front row of North"),
    ("bao", replace(BLOCKED, 6, "b4"), "front row of North"),
    ("bao", replace(BLOCKED, 6, "a4"), "holds 1 seeds"),
    ("bao", replace(E3_AFTER, 6, "a5"), "needs both hands empty"),
    ("bao", KUJIFUNZA, "this is a kujifunza position, not a kiswahili one"),
    ("kujifunza", START, "this is a kiswahili position, not a kujifunza one"),
]


@pytest.mark.parametrize("spec, text, message", INVALID, ids=[m for _, _, m in INVALID])
def test_invalid_positions_are_refused_with_a_specific_error(spec, text, message):
    with pytest.raises(PositionError, match=message):
        Position(spec, text=text)


def test_the_player_to_move_may_have_an_empty_front_row():
    lost = "kiswahili 0,0,0,28,0,0,0,20/0,0,0,0,0,0,0,0/1,3,1,0,2,0,0,0/0,0,4,0,0,0,0,0 N 2-3 namua - -"
    assert bao(lost).is_over()


# -- the picture ---------------------------------------------------------------
def test_draw_shows_four_rows_hands_nyumba_and_block():
    picture = bao(BLOCKED).draw()
    lines = picture.splitlines()
    assert lines[0].split() == [f"b{j}" for j in range(8, 0, -1)]
    assert lines[-2].split() == [f"B{j}" for j in range(1, 9)]
    assert "5!" in picture and "a6 blocked by takasia" in picture
    start = Position("bao").draw()
    assert "[6]" in start and "South hand 22" in start and "North hand 22" in start
    assert "South to move (namua)" in start


def test_variant_lookup_by_every_alias():
    for name in ("bao", "kiswahili", "bao-la-kiswahili", "BAO"):
        assert find_variant(name).name == "bao"
    for name in ("kujifunza", "bao-la-kujifunza"):
        assert find_variant(name).name == "kujifunza"
