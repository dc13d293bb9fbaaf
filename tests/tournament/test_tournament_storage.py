"""tournament/storage.py: the SQLite file of runs, games and moves."""

from __future__ import annotations

import sqlite3

import pytest
from support.tournament import make_store, played

from bingwa.tournament.model import EngineSpec, PlayedMove
from bingwa.tournament.storage import StorageError, Store


def test_games_are_stored_once_with_their_moves(tmp_path):
    store, run = make_store(tmp_path)
    assert store.record_game(run, played(0))
    assert not store.record_game(run, played(0, result="0-1"))  # a second write is a no-op
    assert store.record_game(run, played(1, "b", "a"))
    assert store.done_indices(run) == {0, 1}
    (first, second) = store.games(run)
    assert first.result == "1-0" and first.moves[1] == PlayedMove("A", 1, 12, 50, None, 3, 400)
    assert first.moves[0].book
    scores = store.scores("oware")
    assert [(s.south, s.north, s.points, s.pair) for s in scores] == [("a", "b", 1.0, (run, 0)), ("b", "a", 1.0, (run, 0))]
    assert store.openings(run) == {"oware": [["c", "A"], []]}
    assert store.engines(run)[1]["options"] == [["Hash", "4"]]


def test_a_batch_is_folded_once(tmp_path):
    store, run = make_store(tmp_path)
    batch = [played(0), played(1, "b", "a"), played(2), played(3, "b", "a")]
    assert store.record_batch(run, 0, batch)
    assert not store.record_batch(run, 0, batch)  # Ray retried the task
    assert store.count_games(run) == 4


def test_games_survive_reopening_and_foreign_files_are_refused(tmp_path):
    store, run = make_store(tmp_path)
    store.record_game(run, played(0))
    store.close()
    again = Store(tmp_path / "t.sqlite")
    assert again.count_games(run) == 1
    assert again.run().id == run
    with pytest.raises(StorageError):
        again.run(99)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError):
        Store(junk)
    other = sqlite3.connect(tmp_path / "other.sqlite")
    other.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    other.execute("INSERT INTO meta VALUES ('schema', '999')")
    other.commit()
    other.close()
    with pytest.raises(StorageError, match="schema"):
        Store(tmp_path / "other.sqlite")


def test_ratings_over_all_runs_tell_apart_engines_that_share_a_name(tmp_path):
    store = Store(tmp_path / "names.sqlite")
    for command in (("bingwa", "--bot", "random"), ("bingwa", "--bot", "greedy"), ("bingwa", "--bot", "greedy")):
        run = store.create_run("round-robin", {"kind": "round-robin"},
                               [EngineSpec("x", command), EngineSpec("b", ("y",))], {"oware": [[]]}, 2)
        store.record_game(run, played(0, "x", "b"))
    # runs 2 and 3 entered the same x: one engine; run 1's x is another
    assert sorted({g.south for g in store.scores("oware")}) == ["x (run 1)", "x (run 2)"]
    assert {g.north for g in store.scores("oware")} == {"b"}
    assert {g.south for g in store.scores("oware", run_id=1)} == {"x"}  # within a run: its own names
    assert {g.planned.south for g in store.games()} == {"x (run 1)", "x (run 2)"}
