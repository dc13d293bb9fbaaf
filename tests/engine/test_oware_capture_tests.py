"""The compiled Oware kernel's capture tests made without making the move:
may_capture never rules out a capture (the quiescence search skips what it
rules out) and move_gain, when it answers, is exactly the seeds captured
(the search orders the moves by it and makes only those it picks)."""

from __future__ import annotations

import random

import pytest
from support.variants import make_variant

from bingwa.engine.oware import GRAND_SLAM_RULES


def scores_after(kernel, state, move):
    return kernel.play(state, move)[1]


@pytest.mark.parametrize("rule", GRAND_SLAM_RULES)
def test_may_capture_never_rules_out_a_capture(rule):
    variant = make_variant(f"oware grandslam={rule}", "compiled")
    kernel = variant.kernel
    rng = random.Random(2026)
    checked = ruled_out = 0
    for _ in range(60):
        state = variant.initial_state()
        for _ in range(200):
            moves = kernel.legal_moves(state)
            if not moves:
                break
            for move in moves:
                maybe = kernel.may_capture(state, move)
                assert maybe is not None
                checked += 1
                if not maybe:
                    ruled_out += 1
                    assert scores_after(kernel, state, move) == state[1], (state, move)
            state = kernel.play(state, rng.choice(moves))
    assert checked > 1000 and ruled_out > checked // 4


def test_may_capture_sees_a_short_capture_and_a_long_sowing():
    kernel = make_variant("oware", "compiled").kernel
    # South's f (5) holds 1 seed, North's A (6) holds 2: f captures 3
    pits = (4, 4, 4, 4, 4, 1, 2, 4, 4, 4, 4, 4)
    state = (pits, (0, 0), 0)
    assert kernel.may_capture(state, 5) is True
    assert scores_after(kernel, state, 5) == (3, 0)
    assert kernel.may_capture(state, 0) is False
    # a sowing of 12 or more seeds laps the board: always "maybe"
    state = ((12, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 0), (0, 0), 0)
    assert kernel.may_capture(state, 0) is True


def test_kernels_without_the_tests_say_none():
    variant = make_variant("kalah", "compiled")
    state = variant.initial_state()
    move = variant.kernel.legal_moves(state)[0]
    assert variant.kernel.may_capture(state, move) is None
    assert variant.kernel.move_gain(state, move) is None


@pytest.mark.parametrize("rule", GRAND_SLAM_RULES)
def test_move_gain_is_the_seeds_the_move_captures(rule):
    variant = make_variant(f"oware grandslam={rule}", "compiled")
    kernel = variant.kernel
    rng = random.Random(7)
    told = 0
    for _ in range(60):
        state = variant.initial_state()
        for _ in range(200):
            moves = kernel.legal_moves(state)
            if not moves:
                break
            mover = state[2]
            for move in moves:
                gain = kernel.move_gain(state, move)
                if gain is not None:
                    told += 1
                    after = scores_after(kernel, state, move)
                    assert gain == after[mover] - state[1][mover], (state, move)
                    assert after[1 - mover] == state[1][1 - mover]
            state = kernel.play(state, rng.choice(moves))
    assert told > 1000


def test_move_gain_leaves_grand_slams_and_long_sowings_to_the_rules():
    kernel = make_variant("oware grandslam=capture", "compiled").kernel
    # f (5) sows 2: A and B end on 2 and 3 with the rest of North's row empty
    state = ((4, 4, 4, 4, 4, 2, 1, 2, 0, 0, 0, 0), (10, 10), 0)
    assert kernel.move_gain(state, 5) is None
    assert kernel.play(state, 5)[1] == (15, 10)
    state = ((12, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 0), (0, 0), 0)
    assert kernel.move_gain(state, 0) is None
    assert kernel.move_gain(state, 1) == 0
