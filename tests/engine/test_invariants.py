"""Invariants on seeded random games of every variant and option, and
parity between the compiled kernels and the pure-Python reference."""

from __future__ import annotations

import random

import pytest
from support.variants import random_games

from bingwa.engine import Position, find_variant
from bingwa.engine.kernel import compiled_module, mix_key, use_compiled

SPECS = [
    *(f"oware grandslam={rule}" for rule in
      ("nocapture", "forbidden", "capture", "leave-first", "leave-last", "opponent")),
    "ayoayo",
    "kalah",
    "kalah empty-capture=true",
    "kalah pits=4 seeds=3",
    "kalah pits=3 seeds=5 empty-capture=true",
    "kalah pits=1 seeds=1",
]


@pytest.mark.parametrize("spec", SPECS)
def test_random_game_invariants(spec, kind):
    games = 6 if kind == "pure" else 25
    total = find_variant(spec).total_seeds()
    seen_keys: dict[int, object] = {}
    for pos in random_games(spec, kind, games, seed=hash(spec) & 0xFFFF, max_plies=300):
        variant, kernel, state = pos.variant, pos.variant.kernel, pos.state
        # seeds are conserved
        assert variant.seeds_on_board(state) + sum(state[1]) == total
        # legal moves are empty exactly when the game is over
        assert (pos.legal_moves() == []) == pos.is_over()
        assert (kernel.legal_moves(state) == []) == (kernel.result(state)[0] != 0)
        # the text round-trips, and equal positions have equal keys
        again = Position(variant, text=pos.text())
        assert again.state == state and again.key == pos.key
        if kind == "pure":
            assert pos.key == mix_key(kernel.key_values(state))
        if pos.key in seen_keys:
            assert seen_keys[pos.key] == state, "key collision"
        seen_keys[pos.key] = state
        outcome = pos.outcome()
        if outcome is not None:
            south, north = outcome.scores
            assert outcome.winner == (0 if south > north else 1 if north > south else None)
            assert south + north <= total
            if outcome.termination.value != "majority":
                assert south + north == total  # every seed is scored at the end
            else:
                assert max(south, north) > total // 2 or south == north == total // 2


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_and_pure_rules_agree_on_random_games(spec):
    variant = find_variant(spec)
    module = compiled_module(type(variant).kernel_module)
    if module is None:
        pytest.skip("compiled kernel not built")
    compiled = variant.make_kernel(compiled=True)
    pure = variant.make_kernel(compiled=False)
    rng = random.Random(1234)
    for _ in range(40):
        state = variant.initial_state()
        for _ply in range(400):
            legal = pure.legal_moves(state)
            assert compiled.legal_moves(state) == legal
            assert compiled.result(state) == pure.result(state)
            assert compiled.key(state) == pure.key(state)
            if not legal:
                break
            move = rng.choice(legal)
            child = pure.play(state, move)
            assert compiled.play(state, move) == child
            state = child


def both_kernels(spec: str):
    """(variant, its compiled kernel, its pure kernel); skips when not built."""
    variant = find_variant(spec)
    if compiled_module(type(variant).kernel_module) is None:
        pytest.skip("compiled kernel not built")
    return variant, variant.make_kernel(compiled=True), variant.make_kernel(compiled=False)


def random_state(variant, rng: random.Random):
    """A random valid state: the variant's seeds thrown into random pits and
    scores, either side to move."""
    m = variant.pits_per_side
    total = variant.total_seeds()
    on_board = rng.randint(1, total)
    pits = [0] * (2 * m)
    for _ in range(on_board):
        pits[rng.randrange(2 * m)] += 1
    south = rng.randint(0, total - on_board)
    return tuple(pits), (south, total - on_board - south), rng.randrange(2)


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_and_pure_rules_agree_on_random_positions(spec):
    # random boards reach what games rarely do: endless relays, starving
    # rows, grand slams, many laps
    variant, compiled, pure = both_kernels(spec)
    rng = random.Random(99)
    for _ in range(3000):
        state = random_state(variant, rng)
        legal = pure.legal_moves(state)
        assert compiled.legal_moves(state) == legal, state
        assert compiled.result(state) == pure.result(state), state
        for move in legal:
            assert compiled.play(state, move) == pure.play(state, move), (state, move)


def test_compiled_kernels_are_loaded_when_built():
    # under BINGWA_REQUIRE_EXTENSIONS=1 (CI) a missing module raises instead
    if not use_compiled():
        pytest.skip("BINGWA_PURE=1")
    for spec in ("oware", "ayoayo", "kalah"):
        variant = find_variant(spec)
        if compiled_module(type(variant).kernel_module) is not None:
            assert variant.compiled
            assert type(variant.kernel).__module__.startswith("bingwa.engine._")


@pytest.mark.parametrize("spec", ["ayoayo", "oware"])
def test_compiled_and_pure_perft_agree_on_random_positions(spec):
    # the compiled perft takes the children a kernel writes while generating
    # (Ayoayo's gen_children, feeding moves compacted) or made one by one
    variant, compiled, pure = both_kernels(spec)
    rng = random.Random(7)
    starving = 0
    for _ in range(300):
        state = random_state(variant, rng)
        pits, _, turn = state
        starving += not any(pits[6 * (1 - turn):6 * (2 - turn)])
        assert compiled.perft(state, 3) == pure.perft(state, 3), state
    assert starving > 0  # the feeding rule was exercised
