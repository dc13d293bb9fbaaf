"""tournament/openings.py: openings files and random balanced openings,
and how a run draws them."""

from __future__ import annotations

import random

import pytest
from support.tournament import in_process, small_config

from bingwa.engine import Position
from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.openings import OpeningError, negamax_margin, random_openings, read_openings
from bingwa.tournament.runner import Tournament
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import Store
from bingwa.tournament.timecontrol import TimeControl


def test_openings_file_with_variant_prefixes(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text("# a comment\nd A\nkalah: c a\n\noware: f B  # trailing comment\n")
    assert read_openings(path, "oware") == [["d", "A"], ["f", "B"]]
    assert read_openings(path, "kalah") == [["d", "A"], ["c", "a"]]  # c: an extra turn
    # a line every variant reads must be legal in each
    path.write_text("d A\nkalah: a\nc c\n")
    with pytest.raises(OpeningError, match=":3: c"):
        read_openings(path, "oware")


def test_openings_file_of_position_strings_and_move_lists_is_read_line_by_line(tmp_path):
    from bingwa.engine import Position

    after_d = Position("oware")
    after_d.push("d")
    bao = Position("bao")
    bao.push(bao.legal_moves()[0])
    path = tmp_path / "book.txt"
    path.write_text(f"oware: {after_d.text()}\noware: d A\nbao: {bao.text()}  # a Bao position: spaces inside\n")
    assert read_openings(path, "oware") == [[f"position:{after_d.text()}"], ["d", "A"]]
    assert read_openings(path, "bao") == [[f"position:{bao.text()}"]]
    path.write_text("d A\n1,2,3 zz\n")
    with pytest.raises(OpeningError, match=r":2: neither a position \(.*\) nor moves \(.*\)"):
        read_openings(path, "oware")


def test_a_run_from_position_openings_starts_there_and_records_it(tmp_path):
    from bingwa.engine import Position
    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_records

    start = Position("oware")
    for move in ("c", "D", "e"):
        start.push(move)
    book = tmp_path / "book.txt"
    book.write_text(start.text() + "\n")
    store = Store(tmp_path / "pos.sqlite")
    config = small_config(variants=("oware",), rounds=1, openings=OpeningsConfig(file=str(book)))
    Tournament.create(store, config, factory=in_process).run()
    again = Store(tmp_path / "pos.sqlite")  # the opening survives the database
    assert again.openings(1) == {"oware": [[f"position:{start.text()}"]]}
    games = again.games()
    assert len(games) == 2 and {g.start_position for g in games} == {start.text()}
    assert all(not any(m.book for m in g.moves) for g in games)
    for record in parse_records(export_records(again)):
        assert record.tags["Position"] == start.text()


def test_random_openings_are_distinct_balanced_and_seeded():
    def evaluate(position):
        return negamax_margin(position, 2)

    first = random_openings("oware", 6, 4, random.Random(5), evaluate, margin_cp=100)
    again = random_openings("oware", 6, 4, random.Random(5), evaluate, margin_cp=100)
    assert first == again
    keys = set()
    for moves in first:
        position = Position("oware")
        position.push_all(moves)
        assert len(moves) == 4 and not position.is_over()
        assert abs(evaluate(position)) <= 100
        keys.add(position.key)
    assert len(keys) == 6


def test_a_run_draws_one_opening_a_round_and_an_sprt_one_a_pair():
    """Engines at fixed nodes play the same game from the same opening:
    a run that cycled a few openings would replay its pairs, and an SPRT
    would count each one many times."""
    from bingwa.tournament.config import MAX_OPENINGS

    def config(**kw):
        base = dict(kind="round-robin", engines=(EngineSpec.bot("random"), EngineSpec.bot("greedy")),
                    variants=("oware",), tc=TimeControl(nodes=100), rounds=200)
        base.update(kw)
        return RunConfig(**base)

    assert config().opening_count() == 200
    sprt = dict(kind="sprt", rounds=None, sprt=Sprt(0, 10))
    assert config(**sprt, max_games=600).opening_count() == 300
    assert config(**sprt, max_games=601).opening_count() == 301
    assert config(**sprt, max_games=20000).opening_count() == MAX_OPENINGS
    assert config(rounds=5000).opening_count() == MAX_OPENINGS
    assert config(openings=OpeningsConfig(count=5)).opening_count() == 5
    assert config(rounds=3, openings=OpeningsConfig(count=5)).opening_count() == 3
    store_config = config(rounds=120, openings=OpeningsConfig(plies=4, depth=1))
    drawn = Tournament.create(Store(":memory:"), store_config, factory=in_process).openings["oware"]
    assert len(drawn) == 120 and len({tuple(line) for line in drawn}) == 120


def test_random_openings_fail_when_none_is_balanced():
    with pytest.raises(OpeningError, match="balanced"):
        random_openings("oware", 2, 2, random.Random(1), lambda p: 5000)
