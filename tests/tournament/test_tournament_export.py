"""tournament/export.py: the games out as records, CSV and JSON."""

from __future__ import annotations

import json

from support.tournament import in_process, make_store, played, small_config

from bingwa.tournament.model import PlayedMove
from bingwa.tournament.runner import Tournament
from bingwa.tournament.storage import Store


def test_export_round_trips_through_records_csv_and_json(tmp_path):
    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_csv, export_json, export_records

    store = Store(tmp_path / "x.sqlite")
    summary = Tournament.create(store, small_config(rounds=1), factory=in_process).run()
    games = store.games(summary.run_id)
    records = parse_records(export_records(store))
    assert len(records) == len(games) == 4
    for record, game in zip(records, games):
        assert [m.text for m in record.moves] == [m.move for m in game.moves]
        assert record.result == game.result
        assert record.tags["South"] == game.planned.south
        assert record.termination.value == game.termination
    lines = export_csv(store).splitlines()
    assert lines[0].startswith("run,game,pair,variant") and len(lines) == 5
    data = json.loads(export_json(store))
    assert len(data["games"]) == 4 and data["games"][0]["moves"][0]["book"] is True


def test_exported_times_are_iso_8601_and_move_times_never_negative(tmp_path):
    import csv
    import datetime
    import io

    from bingwa.engine.records import parse_records
    from bingwa.tournament.export import export_csv, export_json, export_records

    store, run = make_store(tmp_path)
    game = played(0)
    game.started, game.finished = 1764583277.25, 1764583280.5
    game.start_position = ""
    game.moves = [PlayedMove("a", 0, time_ms=-2, score_cp=10, depth=1), PlayedMove("A", 1, time_ms=-1)]
    store.record_game(run, game)
    row = next(csv.DictReader(io.StringIO(export_csv(store))))
    data = json.loads(export_json(store))["games"][0]
    assert row["started"] == data["started"] == "2025-12-01T10:01:17.250Z"
    assert row["finished"] == data["finished"] == "2025-12-01T10:01:20.500Z"
    assert datetime.datetime.fromisoformat(row["finished"]).timestamp() == game.finished
    text = export_records(store)
    assert "{+0.10/1 0.000s}" in text and "{0.000s}" in text and "-0." not in text
    assert len(parse_records(text)) == 1
