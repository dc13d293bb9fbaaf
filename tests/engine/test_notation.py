"""Move and position notation: round trips, and a specific error naming
what is wrong for every kind of malformed input."""

from __future__ import annotations

import pytest

from bingwa.engine import (
    IllegalMoveError,
    MoveError,
    Position,
    PositionError,
    VariantError,
    find_variant,
    variant_names,
)


def test_start_position_strings():
    assert Position("oware").text() == "4,4,4,4,4,4/4,4,4,4,4,4 0 0 s"
    assert Position("kalah pits=3 seeds=2").text() == "2,2,2/2,2,2 0 0 s"


@pytest.mark.parametrize(
    "text, message",
    [
        ("4,4,4,4,4,4/4,4,4,4,4 0 0 s", "North's row has 5 pits, not 6"),
        ("4,4,4,4,4,4,4/4,4,4,4,4,4 0 0 s", "South's row has 7 pits, not 6"),
        ("4,4,4,4,4,4/4,4,4,4,4,x 0 0 s", "not a number: 'x'"),
        ("4,4,4,4,4,-4/4,4,4,4,4,4 0 0 s", "negative: -4"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 1 0 s", "add up to 49, not 48"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 0 0 w", "side to move must be s or n, not 'w'"),
        ("4,4,4,4,4,4 4,4,4,4,4,4 0 0 s", "has 4 fields"),
        ("4,4,4,4,4,4/4,4,4,4,4,4 0 -1 s", "North's score is negative"),
        ("", "has 4 fields"),
        ("4,4,4,4,4,4/4,4,4,4,4,4/4 0 0 s", "two rows"),
    ],
)
def test_malformed_position_strings_name_the_problem(text, message):
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Position("oware", text=text)


def test_kalah_seed_total_follows_its_parameters():
    Position("kalah pits=4 seeds=3", text="3,3,3,3/3,3,3,3 0 0 s")
    with pytest.raises(PositionError, match="add up to 25, not 24"):
        Position("kalah pits=4 seeds=3", text="3,3,3,3/3,3,3,3 1 0 n")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("owre", "unknown variant 'owre'"),
        ("oware grandslam=maybe", "grandslam takes one of"),
        ("oware pits=4", "unknown option 'pits' for oware"),
        ("kalah pits=0", "pits must be in 1..12, not 0"),
        ("kalah seeds=four", "seeds takes a whole number"),
        ("kalah empty-capture=perhaps", "empty-capture takes true or false"),
        ("kalah pits", "must be written name=value"),
    ],
)
def test_unknown_variants_and_options_name_the_problem(spec, message):
    with pytest.raises(VariantError, match=message):
        find_variant(spec)


def test_variant_specs_and_aliases():
    assert find_variant("abapa").spec() == "oware"
    assert find_variant("kalah", pits=4, empty_capture="on").spec() == "kalah pits=4 empty-capture=true"
    assert find_variant("OWARE grandslam=Capture").spec() == "oware grandslam=capture"
    assert {"oware", "ayoayo", "kalah"} <= set(variant_names())


def test_move_text_round_trip_and_errors():
    pos = Position("oware")
    assert [m.text for m in pos.legal_moves()] == list("abcdef")
    pos.push("c")
    assert [m.text for m in pos.legal_moves()] == list("ABCDEF")
    with pytest.raises(MoveError, match="not a pit letter"):
        pos.parse_move("g")
    with pytest.raises(MoveError, match="not a pit letter"):
        pos.parse_move("ab")
    with pytest.raises(IllegalMoveError, match="not your pit"):
        pos.parse_move("a")


def test_empty_pit_is_named_as_such():
    pos = Position("oware", text="0,4,4,4,4,4/4,4,4,4,4,4 4 0 s")
    with pytest.raises(IllegalMoveError, match="that pit is empty"):
        pos.push("a")


def test_push_pop_play_and_copy_keep_history_apart():
    pos = Position("kalah")
    child = pos.play("c")
    assert pos.move_stack == [] and len(child.move_stack) == 1
    pos.push("c")
    assert pos == child and pos.key == child.key
    assert pos.pop().text == "c"
    assert pos == Position("kalah")
    with pytest.raises(IndexError):
        pos.pop()


def test_history_keys_list_earlier_positions():
    pos = Position("oware")
    start_key = pos.key
    pos.push("a")
    pos.push("A")
    keys = pos.history_keys()
    assert len(keys) == 2 and keys[0] == start_key and pos.key not in keys
