"""OGN, Aualé's match files (engine/ogn.py): export and import round trips,
the letter mapping, lenient reading, and the errors."""

from __future__ import annotations

import random

import pytest

from bingwa.engine import Position
from bingwa.engine.ogn import OGNError, dumps_ogn, parse_ogn, read_ogn, write_ogn
from bingwa.engine.records import Annotation, GameRecord, RecordError


def random_oware(seed: int) -> tuple[Position, list]:
    rng = random.Random(seed)
    pos = Position("oware")
    notes: list[Annotation | None] = []
    while not pos.is_over() and len(pos.move_stack) < 300:
        pos.push(rng.choice(pos.legal_moves()))
        notes.append(Annotation(score_cp=rng.randint(-900, 900), depth=5, time_ms=40)
                     if rng.random() < 0.2 else None)
    return pos, notes


@pytest.mark.parametrize("seed", range(6))
def test_random_games_round_trip_through_ogn(seed: int) -> None:
    pos, notes = random_oware(seed)
    record = GameRecord.from_position(pos, south="Aalina", north="bingwa", date="2024.05.01",
                                      annotations=notes, tags={"Event": "test", "Round": "3"})
    text = dumps_ogn(record)
    (back,) = parse_ogn(text)
    assert back.position() == pos
    assert [m.text for m in back.moves] == [m.text for m in record.moves]
    for name in ("Event", "Date", "Round", "South", "North", "Result"):
        assert back.tags[name] == record.tags[name]
    assert [m.annotation for m in back.moves] == [m.annotation for m in record.moves]
    assert dumps_ogn(back) == text


def test_ogn_layout_swaps_the_letter_case() -> None:
    pos = Position("oware")
    pos.push_all(["c", "F", "a"])
    record = GameRecord.from_position(pos, south="me", north="you", date="2024.05.01")
    assert dumps_ogn(record) == (
        '[Event "?"]\n[Site "?"]\n[Date "2024.05.01"]\n[Round "?"]\n'
        '[South "me"]\n[North "you"]\n[Result "*"]\n[Variant "Abapa"]\n'
        "\n1. C f 2. A *\n"
    )


def test_reading_a_hand_written_match() -> None:
    text = """[Event "Club night"]
[South "Ama"]
[North "Kofi"]
[Result "*"]
[Variant "Oware Abapa"]
[Description "a short game"]
[Annotator "unknown tag, kept"]

1. C {book} f (1... a 2. B) 2. A
b *
"""
    (record,) = parse_ogn(text)
    assert [m.text for m in record.moves] == ["c", "F", "a", "B"]
    assert record.moves[0].annotation == Annotation(text="book")
    assert record.tags["Annotator"] == "unknown tag, kept"
    assert record.tags["Description"] == "a short game"
    assert record.variant.spec() == "oware"


def test_two_matches_in_one_file(tmp_path) -> None:
    games = [GameRecord.from_position(random_oware(s)[0], date="2024.05.01") for s in (1, 2)]
    path = tmp_path / "two.ogn"
    path.write_text("\n".join(dumps_ogn(g) for g in games))
    assert [g.position() for g in read_ogn(path)] == [g.position() for g in games]


def test_write_ogn(tmp_path) -> None:
    record = GameRecord.from_position(random_oware(3)[0], date="2024.05.01")
    write_ogn(tmp_path / "one.ogn", record)
    assert read_ogn(tmp_path / "one.ogn")[0].position() == record.position()


def test_an_illegal_ogn_move_is_reported_with_its_line() -> None:
    with pytest.raises(RecordError) as info:
        parse_ogn('[Result "*"]\n\n1. C a\n2. C *\n')
    assert info.value.line == 4 and "empty" in info.value.reason


def test_a_letter_outside_the_board_is_reported() -> None:
    with pytest.raises(RecordError) as info:
        parse_ogn('[Result "*"]\n\n1. G *\n')
    assert info.value.line == 3 and "not an OGN move" in info.value.reason


def test_another_variant_is_refused_on_import() -> None:
    with pytest.raises(RecordError, match="Oware Abapa games, not 'Kalah'"):
        parse_ogn('[Variant "Kalah"]\n\n*\n')


def test_export_refuses_what_ogn_cannot_hold() -> None:
    with pytest.raises(OGNError, match="Oware Abapa games only"):
        dumps_ogn(GameRecord.from_position(Position("oware grandslam=capture")))
    with pytest.raises(OGNError, match="set up"):
        dumps_ogn(GameRecord.from_position(Position("oware", text="5,3,4,4,4,4/4,4,4,4,4,4 0 0 s")))
