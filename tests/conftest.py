"""Fixtures shared by the tests: every rules test runs against both the
compiled kernel and the pure-Python reference where both exist."""

from __future__ import annotations

import signal

import pytest

from bingwa.engine import find_variant
from bingwa.engine.kernel import compiled_module

# A runner started in the background (`cmd &`, nohup) starts with Ctrl-C
# ignored, and every program it starts inherits that: the tests that press
# Ctrl-C on a command would then test nothing a terminal does. A handler of
# our own is reset to the default in each program started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
