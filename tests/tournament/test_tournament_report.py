"""tournament/report.py: a run's HTML report."""

from __future__ import annotations

import shlex

from support.tournament import in_process, small_config

from bingwa.tournament.model import EngineSpec
from bingwa.tournament.runner import Tournament
from bingwa.tournament.sprt import Sprt
from bingwa.tournament.storage import Store


def test_html_report_is_self_contained(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "r.sqlite")
    Tournament.create(store, small_config(rounds=4), factory=in_process).run()
    page = build_report(store, bootstrap=50)
    assert page.count("<svg") == 2 * 2 + 0  # error bars and history, per variant
    assert "Crosstable" in page and "greedy" in page and "first-player advantage" in page.lower()
    without_svg_namespace = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in without_svg_namespace and "<script" not in page


def test_html_report_names_the_time_control_commands_and_date_in_the_terminals_variant_order(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "r.sqlite")
    summary = Tournament.create(store, small_config(variants=("oware", "kalah"), rounds=1),
                                factory=in_process).run()
    page = build_report(store, summary.run_id, bootstrap=10)
    assert page.index("<h2>oware</h2>") < page.index("<h2>kalah</h2>")  # as run, not alphabetical
    assert "time control <code>depth=1</code>" in page
    assert f"Started {store.run(summary.run_id).created}" in page
    assert "<code>" + shlex.join(EngineSpec.bot("greedy").command) + "</code>" in page


def test_sprt_report_shows_the_llr_bounds_decision_and_engine_names(tmp_path):
    from bingwa.tournament.report import build_report

    store = Store(tmp_path / "s.sqlite")
    test = Sprt(0, 50)
    config = small_config(kind="sprt", engines=(EngineSpec.bot("greedy"), EngineSpec.bot("random")),
                          variants=("kalah",), rounds=None, sprt=test, max_games=400, anchor="random")
    summary = Tournament.create(store, config, factory=in_process).run()
    assert summary.decision == "H1"
    page = build_report(store, summary.run_id, bootstrap=10)
    assert "SPRT (run 1): greedy against random" in page
    assert "H1 accepted: greedy is stronger than random by 50 rather than 0" in page
    assert f"<td>{summary.standings.llr():+.2f}</td>" in page
    assert f"[{test.lower:+.2f}, {test.upper:+.2f}]" in page
    assert "new" not in page.replace("<th>new</th>", "")
