"""The browser and the server of the end-to-end tests (test_web_e2e.py,
test_web_e2e_defects.py; test_web_rooms_e2e.py takes the browser's
settings): headless Chromium (Debian's, driven by Playwright; nothing
downloads a browser), ``bingwa serve``'s app on a thread, and the page
helpers. Without Chromium or Playwright a test is skipped with the reason,
except under CI (``CI`` set), where that is a failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bingwa.web.engines import EnginePool
from bingwa.web.server import LATENCIES_KEY, make_app

CHROMIUM = os.environ.get("BINGWA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STEP = 15_000  # ms: the longest any single step of a test may wait


def missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (the end-to-end tests must run in CI)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS, headless=True, viewport=LAPTOP)
        try:
            yield context
        finally:
            context.close()


class ServerThread:
    """bingwa serve's app on a free loopback port, on its own thread."""

    def __init__(self) -> None:
        self.app = make_app(EnginePool())
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready: threading.Event) -> None:
        from aiohttp import web

        asyncio.set_event_loop(self.loop)
        self.runner = web.AppRunner(self.app, shutdown_timeout=1.0)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = self.runner.addresses[0][1]
        ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(self.runner.cleanup())

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    srv = ServerThread()
    yield srv
    srv.stop()
    latencies = srv.app[LATENCIES_KEY]
    if latencies:
        print(f"\nserver latency from bestmove to the page: median "
              f"{statistics.median(latencies) * 1000:.2f} ms, max "
              f"{max(latencies) * 1000:.2f} ms over {len(latencies)} engine moves")


def open_page(browser: Any, server: ServerThread, url: str | None = None,
              viewport: dict[str, int] = LAPTOP) -> Any:
    page = browser.new_page()
    page.set_viewport_size(viewport)
    page.set_default_timeout(STEP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    page.goto(url or server.url)
    page.wait_for_selector("body[data-ready='1']", state="attached")
    return page


def new_game(page: Any, variant: str, south: str = "human", north: str = "human",
             think: str = "depth:1", options: dict[str, str] | None = None) -> None:
    page.select_option("#variant", variant)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value) if page.get_attribute(
            f"#opt-{name}", "type") == "number" else page.select_option(f"#opt-{name}", value)
    for key, who in (("south", south), ("north", north)):
        page.select_option(f"#{key}-kind", who)
        if who != "human":
            page.select_option(f"#{key}-think", think)
    before = page.evaluate("() => window.bingwaStates")
    page.click("#start")
    # the new game's first state: no ply yet, unless an engine opened already
    fresh = "true" if south != "human" else "document.querySelectorAll('#moves .ply').length === 1"
    page.wait_for_function(
        f"() => window.bingwaStates > {before} && "
        f"document.getElementById('title').textContent.startsWith('{variant}') && {fresh}")


def plies(page: Any) -> int:
    return page.evaluate("() => document.querySelectorAll('#moves .ply').length - 1")


def wait_plies(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length - 1 >= {count}")


def status(page: Any) -> str:
    return page.inner_text("#status")
