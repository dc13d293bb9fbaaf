"""tournament/schedule.py: the matchups of a run and its plan of games."""

from __future__ import annotations

from collections import Counter

import pytest

from bingwa.tournament.schedule import ScheduleError, matchups, plan


def test_round_robin_and_gauntlet_matchups():
    assert matchups("round-robin", ["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert matchups("gauntlet", ["a", "b", "c"], "b") == [("b", "a"), ("b", "c")]
    with pytest.raises(ScheduleError):
        matchups("sprt", ["a", "b", "c"])
    with pytest.raises(ScheduleError):
        matchups("round-robin", ["a", "a"])


def test_plan_plays_each_opening_twice_with_colours_swapped():
    games = list(plan([("a", "b"), ("a", "c")], ["oware", "kalah"], {"oware": 3, "kalah": 1}, 2, batch_pairs=3))
    assert len(games) == 2 * 2 * 2 * 2
    assert [g.index for g in games] == list(range(len(games)))
    for first, second in zip(games[::2], games[1::2]):
        assert first.pair == second.pair
        assert (first.south, first.north) == (second.north, second.south)
        assert (first.variant, first.opening) == (second.variant, second.opening)
    # round r uses opening r mod count, for every matchup before the next round
    assert [g.opening for g in games if g.variant == "oware"] == [0] * 4 + [1] * 4
    assert {g.batch for g in games} == {0, 1, 2}
    assert Counter(g.batch for g in games)[0] == 6


def test_open_ended_plan_goes_on():
    games = plan([("new", "base")], ["oware"], {"oware": 2}, None)
    first = [next(games) for _ in range(10)]
    assert [g.opening for g in first[::2]] == [0, 1, 0, 1, 0]
