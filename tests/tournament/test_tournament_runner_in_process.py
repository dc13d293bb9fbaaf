"""tournament/runner.py with players in this process: a run, its resume,
an SPRT that stops, a batch folded twice (with engine processes:
test_tournament_runner.py)."""

from __future__ import annotations

from support.tournament import in_process, small_config

from bingwa.tournament.model import EngineSpec
from bingwa.tournament.runner import Tournament
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import Store


def test_a_run_plays_its_plan_and_resume_adds_nothing(tmp_path):
    store = Store(tmp_path / "run.sqlite")
    t = Tournament.create(store, small_config(), factory=in_process)
    summary = t.run()
    assert summary.status == "finished" and summary.played == 12
    assert store.done_indices(summary.run_id) == set(range(12))
    again = Tournament.resume(store, summary.run_id, factory=in_process).run()
    assert again.played == 0 and store.count_games() == 12


def test_sprt_run_stops_once_decided(tmp_path):
    store = Store(tmp_path / "sprt.sqlite")
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy", "new"), EngineSpec.bot("random", "base")),
                          variants=("kalah",), rounds=None, sprt=Sprt(0, 50), max_games=400, anchor="base")
    summary = Tournament.create(store, config, factory=in_process).run()
    assert summary.decision == "H1"
    assert summary.standings.llr() >= Sprt(0, 50).upper
    assert store.count_games() < 400
    # the stored games are exactly those the decision was made on: the
    # bound was crossed by the last game folded in, not before
    from bingwa.tournament.stats import matchup

    scores = store.scores("kalah")
    llrs = [Sprt(0, 50).llr(matchup(scores[:n], "new", "base").penta) for n in range(1, len(scores) + 1)]
    assert llrs[-1] >= Sprt(0, 50).upper > max(llrs[:-1])


def test_a_batch_folded_twice_counts_once(tmp_path):
    # what the Ray driver does with a task that Ray ran twice
    from bingwa.tournament.runner import Seat

    store = Store(tmp_path / "fold.sqlite")
    t = Tournament.create(store, small_config(batch_pairs=2), factory=in_process)
    seat = Seat(t.config, t.openings, in_process)
    batch = [seat.play(g) for g in t.pending() if g.batch == 0]
    assert len(batch) == 4
    t.fold_batch(0, batch)
    t.fold_batch(0, batch)
    assert t.standings.done == 4 == store.count_games()
    assert sorted(g.planned.index for g in store.games()) == [0, 1, 2, 3]
