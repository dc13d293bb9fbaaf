"""The web front-end without a browser or an engine: message validation,
the board view (what the page may click and why not), the game session
(undo, redo, replay, records)."""

from __future__ import annotations

import json

import pytest

from bingwa.engine import Position
from bingwa.engine.ogn import parse_ogn
from bingwa.engine.records import parse_record
from bingwa.web.board import board_view, outcome_view
from bingwa.web.messages import MAX_MESSAGE, MessageError, Player, parse_message
from bingwa.web.session import GameSession

HUMANS = (Player(), Player())
ENGINE = Player("engine", "bingwa", None, "depth", 1)


def cells(view):
    return {cell["name"]: cell for row in view["rows"] for cell in row}


# -- messages -----------------------------------------------------------------
@pytest.mark.parametrize("raw, reason", [
    ("not json", "one JSON object"),
    ("[1, 2]", "one JSON object"),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"move": "c"}', "unknown message type"),
    ('{"type": "move"}', "'move' is missing"),
    ('{"type": "move", "move": 3}', "move: move must be text"),
    ('{"type": "move", "move": "c", "also": 1}', "unknown field 'also'"),
    ('{"type": "goto", "ply": "3"}', "whole number"),
    ('{"type": "goto", "ply": true}', "whole number"),
    ('{"type": "new", "variant": "oware", "south": {"kind": "robot"}, "north": {"kind": "human"}}',
     "kind must be human or engine"),
    ('{"type": "new", "variant": "oware", "south": {"kind": "engine", "skill": 99},'
     ' "north": {"kind": "human"}}', "skill must be a whole number in 0..20"),
    ('{"type": "players", "south": {"kind": "engine", "think": "depth", "amount": 0},'
     ' "north": {"kind": "human"}}', "amount for depth"),
    ('{"type": "players", "south": [], "north": {"kind": "human"}}', "must be an object"),
])
def test_malformed_messages_are_one_clear_error(raw, reason):
    with pytest.raises(MessageError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        parse_message(raw)


def test_oversized_messages_are_refused_before_parsing():
    raw = json.dumps({"type": "load", "text": "x" * MAX_MESSAGE})
    with pytest.raises(MessageError, match="too long"):
        parse_message(raw)
    with pytest.raises(MessageError, match="too long"):
        parse_message(json.dumps({"type": "move", "move": "c" * 500}))


def test_good_messages_give_typed_fields():
    kind, fields = parse_message('{"type": "new", "variant": "kalah pits=4", '
                                 '"south": {"kind": "human"}, "north": {"kind": "engine", '
                                 '"engine": "bingwa", "skill": 5, "think": "depth", "amount": 3}}')
    assert kind == "new" and fields["variant"] == "kalah pits=4"
    assert fields["south"] == Player()
    assert fields["north"] == Player("engine", "bingwa", 5, "depth", 3)
    assert parse_message('{"type": "join", "game": null}') == ("join", {})


# -- the board view ---------------------------------------------------------------
def test_oware_pits_say_why_they_cannot_move():
    pos = Position("oware", text="0,0,0,0,0,4/1,0,0,0,0,0 20 23 s")
    view = cells(board_view(pos))
    assert view["a"]["why"] == "a is empty"
    assert view["A"]["why"] == "A is North's pit and South is to move"
    assert [m["text"] for m in view["f"]["moves"]] == ["f"]


def test_a_pit_that_cannot_feed_says_so():
    pos = Position("oware", text="1,0,0,0,0,1/0,0,0,0,0,0 23 23 s")
    view = cells(board_view(pos))
    assert view["a"]["why"] == "a cannot move: the opponent must be fed and this move does not reach his row"
    assert [m["text"] for m in view["f"]["moves"]] == ["f"]


def test_last_move_marks_origin_sowing_and_captures():
    pos = Position("oware", text="0,0,0,0,0,2/1,1,0,1,0,0 20 23 s")
    before = pos.copy()
    move = pos.push("f")
    view = board_view(pos, before, move)
    assert view["last"] == {"text": "f", "side": 0, "captured": 4}
    marked = cells(view)
    assert marked["f"]["origin"] and marked["A"]["captured"] and marked["B"]["captured"]
    assert not marked["C"].get("captured")


def test_kalah_view_has_stores_and_its_size():
    view = board_view(Position("kalah pits=4 seeds=3"))
    assert view["family"] == "tworow" and len(view["rows"][0]) == 4
    assert view["store_word"] == "store" and view["stores"] == [0, 0]


def test_bao_view_marks_nyumba_kichwa_hands_and_direction_choices():
    view = board_view(Position("bao"))
    marked = cells(view)
    assert view["hands"] == [22, 22]
    assert {"nyumba", "owned", "front"} <= set(marked["A5"]["marks"])
    assert "kichwa" in marked["A1"]["marks"] and "kimbi" in marked["a2"]["marks"]
    moves = marked["A6"]["moves"]
    assert [m["text"] for m in moves] == ["A6<", "A6>"]
    assert [m["arrow"] for m in moves] == ["\u2190", "\u2192"]
    assert "rule 4.3" in marked["A5"]["why"]
    north = board_view(Position("bao").play("A6<"))
    # a namua capture's sign names the kichwa; North's a8 is on the screen's left
    choices = {m["text"]: m for m in cells(north)["a6"]["moves"]}
    assert choices["a6>"] == {"text": "a6>", "arrow": "\u2190", "label": "capture into kichwa a8"}
    assert choices["a6<"] == {"text": "a6<", "arrow": "\u2192", "label": "capture into kichwa a1"}


def test_bao_takasia_block_is_marked():
    pos = Position("bao", text="kiswahili 0,0,0,0,23,0,0,0/0,0,5,0,1,0,2,0/"
                   "1,1,1,0,0,0,0,0/3,3,3,0,21,0,0,0 N 0-0 mtaji - a6")
    marked = cells(board_view(pos))
    assert "blocked" in marked["a6"]["marks"]
    assert "takasia" in marked["a6"]["why"]


def test_bao_capture_choices_name_the_kichwa_and_the_safari():
    """Play random Bao games until a pit offers a namua capture choice."""
    import random

    rng = random.Random(7)
    seen_kichwa = seen_safari = False
    for _ in range(40):
        pos = Position("bao")
        for _ in range(30):
            if pos.is_over():
                break
            for cell in cells(board_view(pos)).values():
                labels = [m["label"] for m in cell.get("moves", [])]
                seen_kichwa |= any("kichwa" in label for label in labels)
                seen_safari |= any("safari" in label for label in labels)
            pos.push(rng.choice(pos.legal_moves()))
        if seen_kichwa and seen_safari:
            break
    assert seen_kichwa and seen_safari


def test_outcome_says_who_won_the_scores_and_why():
    out = outcome_view(Position("oware", text="0,0,0,0,0,1/0,0,0,0,0,0 22 25 s"))
    assert out is not None and out["winner"] == 1 and out["result"] == "0-1"
    assert out["text"] == "North wins, 22-25: more than half the seeds were captured"
    out = outcome_view(Position("oware", text="0,0,0,0,0,0/0,0,0,0,0,1 23 24 s"))
    assert out["text"] == "North wins, 23-25: South has no legal move"
    bao = Position("kujifunza", text="kujifunza 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/"
                   "4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4 N 0-0 mtaji - -")
    assert outcome_view(bao)["text"] == "South wins, 64-0: North's inner row is empty"
    assert outcome_view(Position("oware")) is None


@pytest.mark.parametrize("variant, text, stores", [
    # Kalah: a row emptied, each side stores its own row (rule 4)
    ("kalah pits=3 seeds=2", "0,0,0/2,0,3 4 3 n", [4, 8]),
    # Oware: South cannot be fed, North takes the seed left
    ("oware", "0,0,0,0,0,0/0,0,0,0,0,1 23 24 s", [23, 25]),
])
def test_the_end_draws_the_last_sweep_into_the_stores(variant, text, stores):
    pos = Position(variant, text=text)
    view = board_view(pos)
    assert view["over"] and view["stores"] == stores == outcome_view(pos)["scores"]
    assert all(cell["seeds"] == 0 for cell in cells(view).values())
    swept = sorted(name for name, cell in cells(view).items() if cell.get("swept"))
    assert swept == (["A", "C"] if variant.startswith("kalah") else ["F"])
    assert view["swept"] == [stores[0] - pos.state[1][0], stores[1] - pos.state[1][1]]


def test_an_end_by_majority_is_drawn_as_it_stands():
    pos = Position("oware", text="0,0,0,0,0,1/0,0,0,0,0,0 22 25 s")
    view = board_view(pos)
    assert view["stores"] == [22, 25] and "swept" not in view
    assert cells(view)["f"]["seeds"] == 1


# -- the session ----------------------------------------------------------------
def test_undo_redo_and_play_on_from_any_ply():
    s = GameSession("oware", HUMANS)
    for move in "c F d A".split():
        s.play(move)
    s.undo()
    s.undo()
    assert s.cursor == 2 and s.line == ["c", "F", "d", "A"]
    s.redo()
    assert s.pos == Position("oware").play("c").play("F").play("d")
    s.goto(1)
    s.play("E")  # a new move drops the rest of the line
    assert s.line == ["c", "E"] and s.cursor == 2
    with pytest.raises(MessageError, match="ply must be in 0..2"):
        s.goto(3)


def test_undo_against_an_engine_goes_back_to_the_human_turn():
    s = GameSession("oware", (Player(), ENGINE))
    s.play("c")
    s.play("F")  # what the engine played
    s.undo()
    assert s.cursor == 0 and s.pos.turn == 0
    assert not s.engine_should_move()  # the undone moves wait as redo
    s.play("d")
    assert s.engine_should_move()
    north = GameSession("oware", (ENGINE, Player()))
    north.play("c")  # the engine opened
    with pytest.raises(MessageError, match="the engine's move opened the game"):
        north.undo()
    assert north.cursor == 1


def test_illegal_move_changes_nothing():
    from bingwa.engine import BingwaError

    s = GameSession("oware", HUMANS)
    version = s.version
    with pytest.raises(BingwaError, match="not your pit"):
        s.play("A")
    assert s.line == [] and s.version == version


def test_save_and_load_round_trip_record_and_ogn():
    s = GameSession("oware", HUMANS)
    for move in "c F d A b".split():
        s.play(move)
    s.goto(3)  # the undone plies are saved too
    text, name = s.save("record")
    assert name.endswith(".bgn")
    assert [m.text for m in parse_record(text).moves] == "c F d A b".split()
    ogn, name = s.save("ogn")
    assert name.endswith(".ogn") and [m.text for m in parse_ogn(ogn)[0].moves] == s.line
    other = GameSession("kalah", HUMANS)
    other.load(ogn)
    assert other.pos.variant.name == "oware" and other.line == s.line and other.cursor == 5
    other.load(text)
    assert other.line == s.line


def test_load_refuses_a_bad_record_and_keeps_the_game():
    s = GameSession("oware", HUMANS)
    s.play("c")
    with pytest.raises(MessageError, match="load: .*line"):
        s.load('[Variant "oware"]\n\n1. c c *\n')
    assert s.line == ["c"]
    with pytest.raises(MessageError, match="OGN holds Oware"):
        GameSession("kalah", HUMANS).save("ogn")


def test_snapshot_is_json_and_restores_the_view():
    s = GameSession("bao", HUMANS)
    s.play("A6<")
    snap = json.loads(json.dumps(s.snapshot()))
    assert snap["variant"] == "bao" and snap["cursor"] == 1
    assert snap["line"] == [{"ply": 1, "move": "A6<", "side": 0, "note": ""}]
    assert snap["board"]["last"]["text"] == "A6<" and snap["board"]["turn"] == 1


def test_the_move_list_reads_each_side_from_the_position():
    s = GameSession("kalah", HUMANS)
    s.play("c")  # ends in South's store: South moves again
    s.play("f")
    s.goto(1)
    s.play("d")
    assert [p["side"] for p in s.snapshot()["line"]] == [0, 0]
    s.load(s.save()[0])
    assert [p["side"] for p in s.snapshot()["line"]] == [0, 0]


@pytest.mark.parametrize("variant, start, formats", [
    ("oware", None, ["record", "ogn"]),
    ("oware grandslam=capture", None, ["record"]),  # OGN holds Abapa only
    ("oware", "0,0,0,0,0,1/0,0,0,0,0,2 20 25 s", ["record"]),  # set up: not an OGN game
    ("kalah", None, ["record"]),
    ("bao", None, ["record"]),
])
def test_the_snapshot_offers_ogn_only_where_ogn_holds_the_game(variant, start, formats):
    session = GameSession()
    session.reset(variant, start)
    assert session.snapshot()["formats"] == formats
    if "ogn" not in formats:
        with pytest.raises(MessageError, match="OGN"):
            session.save("ogn")
    else:
        assert '[Variant "Abapa"]' in session.save("ogn")[0]
