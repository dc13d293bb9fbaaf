"""A bot that burns CPU in Python, holding the GIL (the worst case for a
protocol thread), until its stop event, its move time or its depth budget
ends it: the load under which benchmarks/protocol_latency.py measures the
protocol server and the tests check its answers. Not registered in
bingwa.bots; load it as ``bingwa engine --bot bingwa.bots.busy:BusyBot``.
"""

from __future__ import annotations

import time

from bingwa.bots.base import Bot, BotOption
from bingwa.engine.limits import Info, SearchResult


class BusyBot(Bot):
    name = "busy"
    summary = "burns CPU until stopped (protocol tests)"

    def options(self) -> list[BotOption]:
        return [BotOption("Hash", "spin", 1, 1, 1024), BotOption("Burn", "check", True)]

    def go(self, position, limits, emit, stop):
        moves = self.candidate_moves(position, limits)
        if not moves:
            return SearchResult(None)
        start = time.monotonic()
        deadline = None if limits.movetime is None else start + limits.movetime / 1000
        budget = None if limits.depth is None else limits.depth * 20_000
        nodes, x, last = 0, 1, start
        while not stop.is_set():
            for _ in range(1000):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            nodes += 1000
            now = time.monotonic()
            if (deadline is not None and now >= deadline) or (budget is not None and nodes >= budget):
                break
            if now - last >= 0.1:
                last = now
                emit(Info(depth=nodes // 20_000 + 1, score_cp=x % 200 - 100, nodes=nodes,
                          time=int((now - start) * 1000), pv=[moves[x % len(moves)].text]))
        if limits.infinite or limits.ponder:
            stop.wait()
        return SearchResult(moves[x % len(moves)].text)
