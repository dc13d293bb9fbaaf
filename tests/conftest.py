"""Fixtures shared by the tests: every rules test runs against both the
compiled kernel and the pure-Python reference where both exist (``kind``;
support.variants.make_variant builds the variant for it)."""

from __future__ import annotations

import signal

import pytest

# A runner started in the background (`cmd &`, nohup) starts with Ctrl-C
# ignored, and every program it starts inherits that: the tests that press
# Ctrl-C on a command would then test nothing a terminal does. A handler of
# our own is reset to the default in each program started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(params=["compiled", "pure"])
def kind(request: pytest.FixtureRequest) -> str:
    return request.param
