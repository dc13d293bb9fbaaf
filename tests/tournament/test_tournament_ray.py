"""The Ray backend on a local Ray instance (skipped without Ray): batches
of colour-reversed pairs as tasks, folded once each, cancelled when the
SPRT decides."""

from __future__ import annotations

import sys

import pytest

from bingwa.tournament.config import OpeningsConfig, RunConfig
from bingwa.tournament.model import EngineSpec
from bingwa.tournament.runner import Tournament
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import Store
from bingwa.tournament.timecontrol import TimeControl

ray = pytest.importorskip("ray")


def bot(name: str, as_name: str) -> EngineSpec:
    return EngineSpec(as_name, (sys.executable, "-m", "bingwa", "engine", "--bot", name))


def test_sprt_on_ray_folds_whole_batches_and_stops_when_decided(tmp_path):
    config = RunConfig(
        "sprt", (bot("greedy", "new"), bot("random", "base")), ("kalah",), TimeControl(depth=1),
        rounds=None, sprt=Sprt(0, 40), max_games=400, concurrency=2, batch_pairs=2,
        openings=OpeningsConfig(plies=2, count=8, depth=1), anchor="base",
    )
    store = Store(tmp_path / "ray.sqlite")
    t = Tournament.create(store, config)
    summary = t.run(backend="ray")
    assert summary.decision == "H1"
    batches = store.db.execute("SELECT batch, games FROM batches ORDER BY batch").fetchall()
    games = store.games(summary.run_id, moves=False)
    # every folded batch is whole (2 pairs), counted once, and nothing else was stored
    assert all(row["games"] == 4 for row in batches)
    assert len(games) == 4 * len(batches) == summary.standings.done
    assert {g.planned.batch for g in games} == {row["batch"] for row in batches}
    assert len(games) < 400  # the outstanding batches were cancelled
    assert not ray.is_initialized()  # the local Ray it started is shut down
