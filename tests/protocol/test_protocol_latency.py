"""The issue's bounds, through ``bingwa engine`` on real pipes: during a
10 s search (``go movetime 10000``) ``isready`` is answered within 50 ms
and ``stop`` brings the ``bestmove`` within 100 ms.

Robust on a loaded 2-core machine: each figure is a round trip the client
measures on the pipe (write time to read time, stamped by its reader
thread); the bound holds for the median of several samples, and every
single sample must stay within a loose guard (a scheduler hiccup is not a
protocol stall). benchmarks/protocol_latency.py prints the figures.
"""

from __future__ import annotations

import statistics
import sys
import time

import pytest

from bingwa.bots import bot_names
from bingwa.engine import Position
from bingwa.engine.limits import Limits
from bingwa.protocol.client import Engine

BOTS = ["bingwa.bots.busy:BusyBot"] + (["alphabeta"] if "alphabeta" in bot_names() else [])


@pytest.mark.parametrize("bot", BOTS)
def test_isready_within_50ms_and_stop_within_100ms_during_a_10s_search(bot):
    engine = Engine.popen([sys.executable, "-m", "bingwa", "engine", "--bot", bot])
    ready, stops = [], []
    try:
        engine.handshake(timeout=30)
        for _ in range(3):
            search = engine.go(Position("oware"), Limits(movetime=10_000))
            time.sleep(0.25)  # the search is under way
            for _ in range(6):
                ready.append(engine.ping(timeout=5))
                time.sleep(0.02)
            assert not search.done, "bestmove long before the 10 s were up"
            search.stop()
            result = search.wait(timeout=5)
            assert result.move is not None
            stops.append(search.received_at - search.stopped_at)
    finally:
        status = engine.quit()
    assert status == 0
    print(f"\n{bot}: isready median {statistics.median(ready) * 1000:.1f} ms "
          f"(max {max(ready) * 1000:.1f}); stop median {statistics.median(stops) * 1000:.1f} ms "
          f"(max {max(stops) * 1000:.1f})")
    assert statistics.median(ready) < 0.050
    assert statistics.median(stops) < 0.100
    assert max(ready) < 0.5 and max(stops) < 1.0
