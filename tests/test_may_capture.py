"""The compiled Oware kernel's cheap capture test (the quiescence search
skips the moves it rules out without making them) never rules out a move
that captures."""

from __future__ import annotations

import random

import pytest

from bingwa.engine.oware import GRAND_SLAM_RULES

from conftest import make_variant


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


def test_kernels_without_the_test_say_none():
    variant = make_variant("kalah", "compiled")
    state = variant.initial_state()
    assert variant.kernel.may_capture(state, variant.kernel.legal_moves(state)[0]) is None
