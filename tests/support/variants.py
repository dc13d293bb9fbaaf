"""Variants with the compiled or the pure-Python kernel, and random games
on them, for the rules tests (with conftest's ``kind`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bingwa.engine import Position, find_variant
from bingwa.engine.kernel import compiled_module


def make_variant(spec: str, kind: str):
    """The variant ``spec`` with the compiled or pure kernel (skips when the
    compiled module is not built and extensions are not required)."""
    variant = find_variant(spec)
    if kind == "compiled":
        if compiled_module(type(variant).kernel_module) is None:
            pytest.skip("compiled kernel not built")
        variant.kernel = variant.make_kernel(compiled=True)
        variant.compiled = True
    else:
        variant.kernel = variant.make_kernel(compiled=False)
        variant.compiled = False
    return variant


def random_games(spec: str, kind: str, games: int, seed: int, *,
                 max_plies: int) -> Iterator[Position]:
    """Every Position along ``games`` seeded random games of at most
    ``max_plies`` plies."""
    rng = random.Random(seed)
    variant = make_variant(spec, kind)
    for _ in range(games):
        pos = Position(variant)
        yield pos.copy()
        while not pos.is_over() and len(pos.move_stack) < max_plies:
            pos.push(rng.choice(pos.legal_moves()))
            yield pos.copy()
