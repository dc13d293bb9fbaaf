"""tournament/timecontrol.py: time controls, the clocks and the limits of a go."""

from __future__ import annotations

import pytest

from bingwa.tournament.timecontrol import Clock, TimeControl, TimeControlError, limits_for


def test_time_control_parsing_and_description():
    tc = TimeControl.parse_clock("40/60+0.6")
    assert (tc.moves, tc.base_ms, tc.inc_ms) == (40, 60_000, 600)
    assert TimeControl.parse_clock("1:30").base_ms == 90_000
    assert TimeControl.from_fields("10+0.1", nodes=500).describe() == "10+0.1 nodes=500"
    assert TimeControl.from_fields(st=0.25).describe() == "st=0.25"
    for bad in ("abc", "40/", "10+x"):
        with pytest.raises(TimeControlError):
            TimeControl.parse_clock(bad)
    with pytest.raises(TimeControlError):
        TimeControl(nodes=0)


def test_clock_adds_increment_and_a_new_period():
    clock = Clock(TimeControl(base_ms=1000, inc_ms=100, moves=2))
    assert clock.spend(300, 0)
    assert clock.remaining_ms == 800 and clock.moves_left == 1
    assert clock.spend(300, 0)  # the period ends: 1000 ms more
    assert clock.remaining_ms == 600 + 1000 and clock.moves_left == 2
    assert not clock.spend(2000, 50)


def test_fixed_move_time_forfeits_beyond_the_margin():
    clock = Clock(TimeControl(movetime_ms=100))
    assert clock.spend(150, 50)
    assert not clock.spend(151, 50)
    assert clock.deadline_ms(50) == 150


def test_limits_carry_both_clocks_and_the_movers_fixed_limits():
    clocks = (Clock(TimeControl(base_ms=5000, inc_ms=50)), Clock(TimeControl(base_ms=4000, inc_ms=50, nodes=99)))
    limits = limits_for(1, clocks)
    assert (limits.p1time, limits.p2time, limits.p1inc, limits.p2inc, limits.nodes) == (5000, 4000, 50, 50, 99)
    assert limits_for(0, clocks).nodes is None
