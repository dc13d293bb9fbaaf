"""Game records (engine/records.py, docs/records.md): round trips on every
variant, annotations, and every way a record is rejected (with its line,
never replayed past the error)."""

from __future__ import annotations

import random

import pytest

from bingwa.engine import Position, Termination, find_variant, variant_names
from bingwa.engine.records import (
    Annotation,
    GameRecord,
    RecordError,
    parse_record,
    parse_records,
    read_records,
    write_record,
    write_records,
)

# every registered variant, plus option-carrying specs
SPECS = [*variant_names(), "oware grandslam=capture", "kalah pits=4 seeds=3 empty-capture=true"]


def random_game(spec: str, seed: int, max_plies: int = 400) -> tuple[Position, list]:
    rng = random.Random(seed)
    pos = Position(find_variant(spec))
    notes: list[Annotation | None] = []
    while not pos.is_over() and len(pos.move_stack) < max_plies:
        pos.push(rng.choice(pos.legal_moves()))
        roll = rng.random()
        if roll < 0.2:
            notes.append(Annotation(score_cp=rng.randint(-2400, 2400), depth=rng.randint(1, 30),
                                    time_ms=rng.randint(0, 99999)))
        elif roll < 0.25:
            notes.append(Annotation(score_mate=rng.choice([-1, 1]) * rng.randint(1, 40), depth=9,
                                    text="a proven end"))
        elif roll < 0.3:
            notes.append(Annotation(text="free {text} here"))
        else:
            notes.append(None)
    return pos, notes


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_round_trip_through_text(spec: str, seed: int) -> None:
    pos, notes = random_game(spec, seed)
    record = GameRecord.from_position(pos, south="alice", north="bob", date="2024.01.02",
                                      annotations=notes, time_control="60+1")
    text = record.dumps()
    back = parse_record(text)
    assert back.dumps() == text
    assert back.position() == pos
    assert [m.text for m in back.moves] == [m.text for m in pos.move_stack]
    assert back.variant == pos.variant
    assert back.tags["South"] == "alice" and back.tags["TimeControl"] == "60+1"
    outcome = pos.outcome()
    assert back.result == (outcome.result() if outcome else "*")
    for move, note in zip(back.moves, notes, strict=True):
        if note is None:
            assert move.annotation is None
        else:
            assert move.annotation is not None
            assert move.annotation.score_cp == note.score_cp
            assert move.annotation.score_mate == note.score_mate
            assert move.annotation.time_ms == note.time_ms
            assert move.annotation.text == note.text.replace("{", "(").replace("}", ")")


@pytest.mark.parametrize("spec", SPECS)
def test_a_game_from_a_set_up_position_keeps_its_position_tag(spec: str) -> None:
    pos, _ = random_game(spec, 7, max_plies=6)
    middle = Position(pos.variant, text=pos.text())
    rng = random.Random(3)
    for _ in range(4):
        if middle.is_over():
            break
        middle.push(rng.choice(middle.legal_moves()))
    record = GameRecord.from_position(middle, date="2024.01.02")
    assert record.tags["Position"] == pos.text()
    back = parse_record(record.dumps())
    assert back.start == pos.text()
    assert back.position() == middle


def test_record_layout_pins_tag_order_and_round_numbers() -> None:
    pos = Position("kalah")
    for move in "c a D".split():  # c ends in South's store: South moves again
        pos.push(move)
    record = GameRecord.from_position(
        pos, south="human", north="bingwa mcts", date="2024.05.01",
        annotations=[None, Annotation(score_cp=125, depth=8, time_ms=340)],
    )
    assert record.dumps() == (
        '[Date "2024.05.01"]\n'
        '[South "human"]\n'
        '[North "bingwa mcts"]\n'
        '[Result "*"]\n'
        '[Variant "kalah"]\n'
        "\n"
        "1. c a {+1.25/8 0.340s} D *\n"
    )


def test_a_game_north_opens_is_numbered_with_dots() -> None:
    pos = Position("oware", text="4,4,4,4,4,4/4,4,4,4,4,4 0 0 n")
    pos.push_all(["A", "a", "B"])
    text = GameRecord.from_position(pos, date="2024.05.01").dumps()
    assert text.endswith("1... A 2. a B *\n")
    assert parse_record(text).position() == pos


def test_referee_results_are_kept() -> None:
    pos = Position("oware")
    pos.push_all(["c", "F"])
    record = GameRecord.from_position(pos, result="0-1", termination=Termination.RESIGNATION,
                                      date="2024.05.01")
    back = parse_record(record.dumps())
    assert back.result == "0-1"
    assert back.termination is Termination.RESIGNATION


def test_tag_values_escape_quotes_and_backslashes() -> None:
    pos = Position("oware")
    record = GameRecord.from_position(pos, south='the "best" \\ player', date="2024.05.01")
    assert parse_record(record.dumps()).tags["South"] == 'the "best" \\ player'


def test_reader_accepts_hand_written_forms() -> None:
    text = """
[Variant "oware"]
[Result "*"]
{a game written by hand}
1.c F 2. d ; a line comment
A {+0.5/3} {second thought}
%escaped line
3...b *
"""
    record = parse_record(text)
    assert [m.text for m in record.moves] == ["c", "F", "d", "A", "b"]
    assert record.comment == "a game written by hand"
    note = record.moves[3].annotation
    assert note is not None and note.score_cp == 50 and note.depth == 3
    assert note.text == "second thought"


def test_several_games_in_one_file(tmp_path) -> None:
    games = []
    for seed in range(3):
        pos, _ = random_game("ayoayo", seed)
        games.append(GameRecord.from_position(pos, date="2024.05.01", tags={"Round": str(seed)}))
    path = tmp_path / "games.bgn"
    write_records(path, games[:2])
    write_records(path, games[2:], append=True)
    back = read_records(path)
    assert [g.tags["Round"] for g in back] == ["0", "1", "2"]
    assert [g.dumps() for g in back] == [g.dumps() for g in games]


def test_write_record_then_read(tmp_path) -> None:
    pos, _ = random_game("kalah", 4)
    record = GameRecord.from_position(pos, date="2024.05.01")
    write_record(tmp_path / "one.bgn", record)
    assert parse_records((tmp_path / "one.bgn").read_text())[0].position() == pos


# -- rejected records: the line and the reason -----------------------------
def rejected(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        parse_records(text)
    return info.value


def test_an_illegal_move_is_reported_with_its_line_and_reason() -> None:
    text = '[Variant "oware"]\n\n1. c F\n2. d a\n3. e B *\n'
    error = rejected(text)
    assert error.line == 4
    assert "ply 4 (north to move)" in error.reason
    assert "not your pit" in error.reason


def test_an_illegal_move_stops_the_replay(monkeypatch) -> None:
    pushed: list[str] = []
    original = Position.push

    def spy(self, move):
        result = original(self, move)
        pushed.append(result.text)
        return result

    monkeypatch.setattr(Position, "push", spy)
    rejected('[Variant "oware"]\n\n1. c F 2. C d 3. e B *\n')
    assert pushed == ["c", "F"]  # nothing after the illegal C


def test_an_unknown_move_text_is_reported() -> None:
    error = rejected('[Variant "oware"]\n\n1. c\nzz *\n')
    assert error.line == 4 and "ply 2" in error.reason and "not a pit letter" in error.reason


def test_an_empty_pit_is_reported() -> None:
    error = rejected('[Variant "oware"]\n\n1. c A 2. c *\n')
    assert error.line == 3 and "empty" in error.reason


def test_a_move_after_the_end_is_reported() -> None:
    pos = Position("kalah pits=1 seeds=1")
    pos.push("a")
    assert pos.is_over()
    error = rejected('[Variant "kalah pits=1 seeds=1"]\n\n1. a A *\n')
    assert error.line == 3 and "the game is over" in error.reason


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[Result "*"]\n\n1. c *\n', 1, "no Variant tag"),
        ('[Variant "chess"]\n\n*\n', 1, "unknown variant"),
        ('[Variant "oware grandslam=maybe"]\n', 1, "grandslam"),
        ('[Variant "oware"]\n[Position "4,4/4 0 0 s"]\n', 2, "bad Position tag"),
        ('[Variant "oware"]\n[Result "2-0"]\n', 2, "Result must be one of"),
        ('[Variant "oware"]\n[Variant "kalah"]\n', 2, "given twice"),
        ('[Variant "oware"]\n[South unquoted]\n', 2, "malformed tag"),
        ('[Variant "oware"]\n\n1. c {never closed\nF *\n', 3, "never closed"),
        ('[Variant "oware"]\n\n1. c (1... F) *\n', 3, "variations"),
        ('[Variant "oware"]\n[Result "1-0"]\n\n1. c F 0-1\n', 4, "Result tag says 1-0"),
        ('[Variant "oware"]\n\n1. c } F *\n', 3, "unexpected"),
        ('[Variant "oware"]\n\n1. c [x "y"] *\n', 3, "own line"),
    ],
)
def test_malformed_records_are_rejected_with_line_and_reason(text: str, line: int, words: str) -> None:
    error = rejected(text)
    assert error.line == line
    assert words in error.reason
    assert str(error).startswith(f"line {line}: ")


def test_a_result_contradicting_the_rules_is_rejected() -> None:
    pos, _ = random_game("oware", 2)
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner is not None
    text = GameRecord.from_position(pos, date="2024.05.01").dumps()
    wrong = "1-0" if outcome.result() == "0-1" else "0-1"
    bad = text.replace(f'[Result "{outcome.result()}"]', f'[Result "{wrong}"]')
    bad = bad.rstrip("\n")[: -len(outcome.result())] + wrong + "\n"
    error = rejected(bad)
    assert f"the moves end the game {outcome.result()}" in error.reason


def test_parse_record_wants_exactly_one_game() -> None:
    with pytest.raises(RecordError, match="expected one game, found 0"):
        parse_record("   \n")


def test_annotation_text_forms() -> None:
    assert Annotation.parse("+M7/20 1.5s").score_mate == 7
    assert Annotation.parse("-M3/4").score_mate == -3
    note = Annotation.parse("-0.25/6 0.010s book")
    assert (note.score_cp, note.depth, note.time_ms, note.text) == (-25, 6, 10, "book")
    assert Annotation.parse("just words").text == "just words"
    assert Annotation(score_mate=-3, depth=4).format() == "-M3/4"


def test_bao_records_accept_decorations_and_lenient_forms() -> None:
    # rules-bao.md 10.3-10.4: "*" marks a takasa; the row letter may be left
    # out in a namua move; the record keeps the canonical text
    record = parse_record('[Variant "bao"]\n\n1. 7<* a5>\n2. A6< *\n')
    assert [m.text for m in record.moves][:1] == ["A7<"]
    assert record.moves[2].text == "A6<"
    assert parse_record(record.dumps()).position() == record.position()


def test_a_false_bao_decoration_is_rejected() -> None:
    error = rejected('[Variant "bao"]\n\n1. A7<#\n')  # "#" claims a win
    assert error.line == 3 and "winning move" in error.reason


def test_the_example_of_docs_records_md_reads_and_writes_back() -> None:
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    example = re.search(r"```\n(\[Event.*?)```", doc, re.S)
    assert example is not None
    record = parse_record(example[1])
    assert [m.text for m in record.moves] == ["a", "c", "D", "a", "B"]
    assert record.termination is Termination.RESIGNATION
    assert record.dumps() == example[1]
