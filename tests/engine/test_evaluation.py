"""The static evaluations are the dot product of named features with named
weights (what benchmarks/tune.py fits): checked on random positions of
every variant, so the fit and the engine agree."""

from __future__ import annotations

import functools
import random

import pytest

from bingwa.engine import Position, find_variant
from bingwa.engine.kernel import compiled_module

SPECS = ["oware", "oware grandslam=capture", "ayoayo", "kalah", "kalah pits=4 empty-capture=true",
         "bao", "kujifunza"]


def compiled_variant(spec: str):
    variant = find_variant(spec)
    if compiled_module(type(variant).kernel_module) is None:
        pytest.skip("compiled kernel not built")
    variant.kernel = variant.make_kernel(compiled=True)
    variant.compiled = True
    return variant


def random_positions(variant, games: int, seed: int):
    rng = random.Random(seed)
    for _ in range(games):
        position = Position(variant)
        while not position.is_over() and len(position.move_stack) < 200:
            yield position.state
            position.push(rng.choice(position.legal_moves()))


@functools.cache
def shipped_net(name: str):
    from bingwa.engine.net import NET_FILES, read_net

    return read_net(NET_FILES[name])


def net_output(variant, state) -> int:
    """What the learned network adds (engine/net.py: the variant's shipped
    one, loaded by default; Kalah's on Kalah(6,4) alone)."""
    kernel = variant.kernel
    if not getattr(kernel, "uses_net", False):
        return 0
    if variant.name == "kalah" and (
            (variant.pits_per_side, variant.total_seeds()) != kernel.net_board
            or variant.options["empty-capture"]):
        return 0
    from bingwa.engine.net import active_inputs

    return shipped_net(variant.name).evaluate(active_inputs(state))


@pytest.mark.parametrize("spec", SPECS)
def test_evaluation_is_the_weights_dot_the_features(spec):
    kernel = compiled_variant(spec).kernel
    names, weights = kernel.feature_names, kernel.weights
    assert len(names) == len(weights) == len(set(names))
    seen = 0
    variant = compiled_variant(spec)
    for state in random_positions(variant, 6, seed=11):
        features = kernel.features(state)
        assert len(features) == len(names)
        hand = sum(w * f for w, f in zip(weights, features))
        assert kernel.evaluate(state) == hand + net_output(variant, state)
        seen += 1
    assert seen > 100


@pytest.mark.parametrize("spec", SPECS)
def test_the_first_feature_is_the_material_at_100_a_seed(spec):
    # the unit of every score (docs/search.md): the tuner holds it
    kernel = compiled_variant(spec).kernel
    assert kernel.weights[0] == 100


def test_oware_features_of_an_explicit_board():
    variant = compiled_variant("oware")
    # South (to move): a=1 b=2 c=0 d=0 e=13 f=4; North: A=2 B=1 F=2;
    # scores 10 (South) and 12 (North)
    state = ((1, 2, 0, 0, 13, 4, 2, 1, 0, 0, 0, 2), (10, 12), 0)
    features = dict(zip(variant.kernel.feature_names, variant.kernel.features(state)))
    assert features == {
        "captured": -2,
        "row_seed": 20 - 5,
        "mobility": 4 - 3,
        "weak_pit": 2 - 3,
        "kroo": 1 - 0,
        "home_move": 2 - 2,  # a (1 <= 5), b (2 <= 4); North's A and B, not F
        "threat": 5,  # North's F sows a (1 -> 2) and b (2 -> 3): both taken
        "tempo": 1,
    }
    # seen from North, to move: the differences change sign
    flipped = dict(zip(variant.kernel.feature_names,
                       variant.kernel.features((state[0], state[1], 1))))
    assert flipped["captured"] == 2 and flipped["row_seed"] == -15
    # South's f (4 seeds) ends in North's D, empty: no threat to North
    assert flipped["threat"] == 0
