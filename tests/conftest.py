"""Fixtures shared by the tests: every rules test runs against both the
compiled kernel and the pure-Python reference where both exist."""

from __future__ import annotations

import pytest

from bingwa.engine import find_variant
from bingwa.engine.kernel import compiled_module


@pytest.fixture(params=["compiled", "pure"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


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
