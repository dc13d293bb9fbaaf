"""The latency a room adds to a move between two browsers: from the moment
one page sends its move to the moment the other page has the new state,
through the server (the seat check, the SQLite write, the snapshot, the
JSON, both sends). Two browser contexts in headless Chromium (Debian's,
as the tests use) play random legal moves in one room, with rematches when
a game ends, until ``--moves`` moves are measured.

    python benchmarks/room_latency.py [--moves 200] [--variant oware] [--seed 1] [--db FILE]

Times are ``performance.timeOrigin + performance.now()`` in each page
(one browser, one machine clock). Also printed: the server's own part, from
a move's arrival on the socket to its last send. A figure, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import tempfile
import threading
from pathlib import Path
from typing import Any

from bingwa.web.engines import EnginePool
from bingwa.web.room_server import HALL_KEY
from bingwa.web.rooms import RoomStore
from bingwa.web.server import make_app

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LEGAL = """() => state.board.rows.flat().flatMap((cell) => (cell.moves || []).map((m) => m.text))"""
SEND = """(move) => { const t = performance.timeOrigin + performance.now();
                      send({type: 'move', move}); return t; }"""


class Server:
    def __init__(self, db: Path) -> None:
        self.app = make_app(EnginePool(), RoomStore(db))
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        from aiohttp import web

        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(self.app, shutdown_timeout=1.0)
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = runner.addresses[0][1]
        ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(runner.cleanup())

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def describe(samples: list[float]) -> str:
    ms = sorted(samples)
    p90 = ms[max(0, int(len(ms) * 0.9) - 1)]
    return (f"median {statistics.median(ms):.2f} ms, p90 {p90:.2f} ms, "
            f"max {ms[-1]:.2f} ms over {len(ms)} moves")


def measure(moves: int, variant: str, seed: int, db: Path, chromium: str) -> tuple[list[float], list[float]]:
    """(browser-to-browser, server) latencies in ms of ``moves`` moves."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        try:
            return measure_in(browser, moves, variant, seed, db)
        finally:
            browser.close()


def measure_in(browser: Any, moves: int, variant: str, seed: int,
               db: Path) -> tuple[list[float], list[float]]:
    """``measure`` in a running Playwright browser (two contexts of it)."""
    rng = random.Random(seed)
    server = Server(db)
    url = f"http://127.0.0.1:{server.port}/"
    samples: list[float] = []
    contexts = [browser.new_context(), browser.new_context()]
    try:
        host = contexts[0].new_page()
        host.goto(url)
        host.wait_for_selector("body[data-ready='1']", state="attached")
        host.select_option("#variant", variant)
        host.click("#friend")
        host.wait_for_selector("body[data-room-you]", state="attached")
        guest = contexts[1].new_page()
        guest.goto(host.input_value("#room-link"))
        guest.wait_for_selector("body[data-room-you]", state="attached")
        pages = (host, guest)
        while len(samples) < moves:
            turn, you, game, plies, over = host.evaluate(
                "() => [state.board.turn, state.room.you, state.room.game, state.line.length,"
                " !!state.outcome]")
            if over:  # a rematch, and on
                host.evaluate("() => send({type: 'offer', what: 'rematch'})")
                guest.wait_for_selector("#room-accept")
                guest.click("#room-accept")
                host.wait_for_function(f"() => state.room.game === {game + 1}")
                continue
            mover = host if you == ("south", "north")[turn] else guest
            other = guest if mover is host else host
            key = f"{game}/{plies + 1}"
            sent = mover.evaluate(SEND, rng.choice(mover.evaluate(LEGAL)))
            for page in pages:
                page.wait_for_function(f"() => window.bingwaArrivals['{key}'] !== undefined")
            samples.append(other.evaluate(f"() => window.bingwaArrivals['{key}']") - sent)
    finally:
        for context in contexts:
            context.close()
        server.stop()
    server_ms = [s * 1000 for s in server.app[HALL_KEY].latencies]
    return samples, server_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--variant", default="oware")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, default=None, help="the rooms file (default: a temporary one)")
    parser.add_argument("--chromium", default=os.environ.get("BINGWA_CHROMIUM")
                        or shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    if not Path(args.chromium).exists():
        raise SystemExit(f"room_latency: no Chromium at {args.chromium} (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "rooms.sqlite"
        samples, server_ms = measure(args.moves, args.variant, args.seed, db, args.chromium)
    print(f"{args.variant}: a move from one browser to the other: {describe(samples)}")
    print(f"{args.variant}: of which the server (arrival to last send): {describe(server_ms)}")


if __name__ == "__main__":
    main()
