"""Invariants of both Bao variants on seeded random games, the mirror
symmetry of the rules, and parity between the compiled kernel and the
pure-Python reference on random games and on random positions."""

from __future__ import annotations

import random

import pytest
from support.variants import make_variant, random_games

from bingwa.engine import Position, PositionError, Termination, find_variant
from bingwa.engine.bao import (
    EMPTIES_FRONT_ROW,
    LEGAL,
    NEVER_ENDING,
    NO_SAFARI_DECISION,
    Run,
    mtaji_groups,
    namua_groups,
)
from bingwa.engine.bao_notation import NO_BLOCK, NYUMBA, format_position
from bingwa.engine.kernel import compiled_module, mix_key

SPECS = ["bao", "kujifunza"]
STATUS_CODES = {LEGAL: 0, EMPTIES_FRONT_ROW: 1, NEVER_ENDING: 2, NO_SAFARI_DECISION: 3}


def mirror(state):
    """The same position with South and North exchanged."""
    pits, hands, turn, houses, block = state
    return (
        pits[16:] + pits[:16],
        hands[::-1],
        1 - turn,
        houses[::-1],
        NO_BLOCK if block == NO_BLOCK else block ^ 16,
    )


@pytest.mark.parametrize("spec", SPECS)
def test_random_game_invariants(spec, kind):
    games = 4 if kind == "pure" else 30
    seen_keys: dict[int, object] = {}
    finished = 0
    for pos in random_games(spec, kind, games, seed=11, max_plies=400):
        variant, kernel, state = pos.variant, pos.variant.kernel, pos.state
        pits, hands, turn, houses, block = state
        # 64 seeds, none negative
        assert sum(pits) + sum(hands) == 64 and min(pits) >= 0
        assert variant.seeds_on_board(state) + sum(hands) == variant.total_seeds()
        # legal moves are empty exactly when the game is over
        assert (pos.legal_moves() == []) == pos.is_over()
        assert (kernel.legal_moves(state) == []) == (kernel.result(state)[0] != 0)
        # text round trips of the position and of every legal move
        again = Position(variant, text=pos.text())
        assert again.state == state and again.key == pos.key
        for move in pos.legal_moves():
            assert pos.parse_move(move.text) == move
        # equal positions, equal keys; different positions, different keys
        if kind == "pure":
            assert pos.key == mix_key(kernel.key_values(state))
        assert seen_keys.setdefault(pos.key, state) == state, "key collision"
        if spec == "kujifunza":  # section 8: no hand, no nyumba, no takasia
            assert hands == (0, 0) and houses == (0, 0) and block == NO_BLOCK
        if block != NO_BLOCK:
            assert block // 16 == turn and block % 16 < 8 and pits[block] >= 2
        outcome = pos.outcome()
        if outcome is not None:
            finished += 1
            front_empty = not any(pits[16 * turn : 16 * turn + 8])
            expected = Termination.FRONT_ROW_EMPTY if front_empty else Termination.NO_MOVES
            assert outcome.termination is expected
            assert outcome.winner == 1 - turn  # 7.1, 7.2: no draws
            assert outcome.scores == ((64, 0) if turn else (0, 64))
        else:
            assert pos.scores() == (sum(pits[:16]) + hands[0], sum(pits[16:]) + hands[1])
    assert finished == games  # every random game ended by the rules within 400 plies


@pytest.mark.parametrize("spec", SPECS)
def test_the_rules_are_symmetric_between_the_players(spec, kind):
    variant = make_variant(spec, kind)
    kernel = variant.kernel
    for pos in random_games(spec, kind, 2 if kind == "pure" else 10, seed=5, max_plies=400):
        state = pos.state
        moves = kernel.legal_moves(state)
        assert kernel.legal_moves(mirror(state)) == moves
        for move in moves:
            assert kernel.play(mirror(state), move) == mirror(kernel.play(state, move))
        if kind == "compiled":
            assert kernel.evaluate(mirror(state)) == kernel.evaluate(state)


def test_evaluation_counts_material_for_the_side_to_move():
    variant = find_variant("kujifunza")
    if not variant.compiled:
        pytest.skip("compiled kernel not built")
    start = variant.initial_state()
    # a symmetric board: only the initiative (the first capture) counts
    assert 0 < variant.kernel.evaluate(start) < 100
    pits = list(start[0])
    pits[8], pits[24] = 4, 0  # South takes North's b8 seeds into B8
    richer = (tuple(pits), *start[1:])
    assert variant.kernel.evaluate(richer) - variant.kernel.evaluate(start) >= 300
    assert variant.kernel.evaluate(mirror(richer)) == variant.kernel.evaluate(richer)


# -- compiled against pure ----------------------------------------------------------
def kernels(spec: str):
    variant = find_variant(spec)
    if compiled_module(type(variant).kernel_module) is None:
        pytest.skip("compiled kernel not built")
    return variant, variant.make_kernel(compiled=True), variant.make_kernel(compiled=False)


def candidates(state) -> list[int]:
    turn = state[2]
    groups = namua_groups(state) if state[1][turn] else mtaji_groups(state)
    codes = [code for group in groups for code in group]
    return codes + [code | 32 for code in codes]


def assert_same_rules(state, compiled, pure, takasia: bool) -> None:
    moves = pure.legal_moves(state)
    assert compiled.legal_moves(state) == moves
    assert compiled.result(state) == pure.result(state)
    assert compiled.key(state) == pure.key(state)
    for move in moves:
        assert compiled.play(state, move) == pure.play(state, move)
    for code in candidates(state):
        run = Run(state, code).execute()
        status, flags = compiled.execute(state, code)
        assert status == STATUS_CODES[run.status]
        if status == 0:
            assert flags == run.capture_move | 2 * run.safari_decision | 4 * run.won


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_and_pure_agree_on_random_games(spec):
    variant, compiled, pure = kernels(spec)
    rng = random.Random(2024)
    for _ in range(8):
        state = variant.initial_state()
        for _ in range(400):
            assert_same_rules(state, compiled, pure, variant.takasia)
            moves = pure.legal_moves(state)
            if not moves:
                break
            state = pure.play(state, rng.choice(moves))


def random_position(rng: random.Random, spec: str):
    """A random valid position string of ``spec`` (None when the draw is
    not a valid position): blocks, owned nyumbas in mtaji, lopsided hands."""
    kiswahili = spec == "bao"
    hands = [0, 0]
    if kiswahili and rng.random() < 0.4:
        hands = [rng.randint(0, 12), rng.randint(0, 12)]
    pits = [0] * 32
    for pit in rng.choices(range(32), k=64 - sum(hands)):
        pits[pit] += 1
    turn = rng.randint(0, 1)
    if rng.random() < 0.25:  # a lone front kichwa: rule 3.6 decides
        kichwa = 16 * turn + rng.choice((0, 7))
        for k in range(8):
            pit = 16 * turn + k
            if pit != kichwa:
                pits[pit + 8] += pits[pit]
                pits[pit] = 0
    houses = [int(kiswahili and pits[16 * s + NYUMBA] > 0 and rng.random() < 0.5) for s in (0, 1)]
    block = NO_BLOCK
    if kiswahili and hands == [0, 0] and rng.random() < 0.3:
        heavy = [16 * turn + k for k in range(8) if pits[16 * turn + k] >= 2]
        block = rng.choice(heavy) if heavy else NO_BLOCK
    if hands[turn] == 0 and hands[1 - turn] and rng.random() < 0.5:
        hands = hands[::-1]
    state = (tuple(pits), tuple(hands), turn, tuple(houses), block)
    text = format_position(state, "kiswahili" if kiswahili else "kujifunza")
    try:
        return Position(spec, text=text).state
    except PositionError:
        return None


# Never-ending moves (3.7) found by a search over sparse random boards.
NEVER_ENDING_MOVES = [
    ("42,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/3,0,1,2,1,3,1,0/2,1,0,1,2,1,0,3", ["A6<", "A6>"]),
    ("38,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/2,3,2,0,3,0,1,0/3,0,3,0,3,2,1,2", ["A3>", "B8>"]),
]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("rows, moves", NEVER_ENDING_MOVES)
def test_both_kernels_reject_the_same_never_ending_moves(spec, rows, moves):
    variant, compiled, pure = kernels(spec)
    word = "kiswahili" if spec == "bao" else "kujifunza"
    state = variant.parse_position(f"{word} {rows} S 0-0 mtaji - -")
    assert_same_rules(state, compiled, pure, variant.takasia)
    legal = [variant.format_move(m, state) for m in pure.legal_moves(state)]
    for text in moves:
        code = variant.parse_move(text, state)
        assert text not in legal
        assert Run(state, code).execute().status == NEVER_ENDING
        assert compiled.execute(state, code)[0] == STATUS_CODES[NEVER_ENDING]


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_and_pure_agree_on_random_positions(spec):
    variant, compiled, pure = kernels(spec)
    rng = random.Random(99)
    checked = 0
    while checked < 150:
        state = random_position(rng, spec)
        if state is None:
            continue
        checked += 1
        assert_same_rules(state, compiled, pure, variant.takasia)
