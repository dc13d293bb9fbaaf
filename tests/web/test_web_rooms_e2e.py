"""Rooms end to end: two (and three) real browser contexts in headless
Chromium, each with its own storage as two people's browsers have, play
through a link: an Oware game and a Bao game to the end, a watcher who
cannot move, a reload and a lost page that rejoin their seat, a draw
offer accepted and a rematch with the colours swapped, and a server
restarted mid-game from its SQLite file while the pages wait.

Skipped with the reason when Chromium or Playwright is missing, except
under CI. BINGWA_SCREENSHOTS=DIR writes the room screenshots of
docs/web.md (docs/images/web-room-*.png).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.web import CHROMIUM, FLAGS, STEP, missing

from bingwa.engine.ogn import parse_ogn
from bingwa.engine.records import parse_record
from bingwa.web.engines import EnginePool
from bingwa.web.rooms import RoomStore
from bingwa.web.server import make_app

VIEW = {"width": 1100, "height": 760}
SHOTS = os.environ.get("BINGWA_SCREENSHOTS")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class RoomServer:
    """bingwa serve's app with its rooms in ``db``, on its own thread; it
    can be stopped and started again on the same port."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = 0
        self.start()

    def start(self) -> None:
        self.app = make_app(EnginePool(), RoomStore(self.db))
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        assert ready.wait(10), "the server did not start"

    def _run(self, ready: threading.Event) -> None:
        from aiohttp import web

        asyncio.set_event_loop(self.loop)
        runner = web.AppRunner(self.app, shutdown_timeout=1.0)
        self.loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", self.port, reuse_address=True)
        self.loop.run_until_complete(site.start())
        self.port = runner.addresses[0][1]
        ready.set()
        self.loop.run_forever()
        self.loop.run_until_complete(runner.cleanup())
        self.loop.close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[RoomServer]:
    srv = RoomServer(tmp_path / "rooms.sqlite")
    yield srv
    srv.stop()


class People:
    """A browser context per person (their own local storage and pages)."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium
        self.contexts: list[Any] = []

    def page(self, url: str) -> Any:
        context = self.chromium.new_context(viewport=VIEW)
        self.contexts.append(context)
        return open_in(context, url)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture()
def people(chromium: Any) -> Iterator[People]:
    crowd = People(chromium)
    yield crowd
    crowd.close()


def open_in(context: Any, url: str) -> Any:
    page = context.new_page()
    page.set_default_timeout(STEP)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached")
    return page


def make_room(page: Any, variant: str, side: str = "south", clock: str = "",
              help_allowed: bool = False, options: dict[str, str] | None = None,
              shot: str | None = None) -> None:
    """The host's page: the new-game form's "Play a friend"."""
    page.select_option("#variant", variant)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", value)
    page.select_option("#friend-side", side)
    page.select_option("#friend-clock", clock)
    if help_allowed:
        page.check("#friend-help")
    if shot:
        shoot(page.locator("#setup"), shot)
    page.click("#friend")
    page.wait_for_selector("body[data-room-you]", state="attached")


def you(page: Any) -> str:
    return page.get_attribute("body", "data-room-you")


def plies(page: Any) -> int:
    return page.evaluate("() => document.querySelectorAll('#moves .ply').length - 1")


def wait_plies(page: Any, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#moves .ply').length - 1 >= {count}")


def status(page: Any) -> str:
    return page.inner_text("#status")


def shoot(page: Any, name: str) -> None:
    """A screenshot of a page (or of one element: a locator)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-room-{name}.png"))


def play_one(page: Any) -> str:
    """Click the last movable pit of ``page`` (and the first choice if the
    pit starts more than one move); the move's text."""
    pit = page.evaluate("""() => {
        const movable = [...document.querySelectorAll('.pit.movable')];
        return movable.length ? movable[movable.length - 1].dataset.pit : null;
    }""")
    assert pit, status(page)
    page.click(f".pit[data-pit='{pit}']")
    if page.is_visible("#choice"):
        return_move = page.get_attribute("#choice button[data-move]", "data-move")
        page.click("#choice button[data-move]")
        return return_move
    return pit


def play(seats: dict[str, Any], count: int | None = None) -> None:
    """Play on (``count`` plies, or to the end), each move by the page of
    the side to move; every page sees each move before the next."""
    pages = list(seats.values())
    done = 0
    while count is None or done < count:
        if pages[0].query_selector(".status.over"):
            break
        turn = pages[0].evaluate("() => state.board.turn")
        before = plies(pages[0])
        play_one(seats[("south", "north")[turn]])
        for page in pages:
            wait_plies(page, before + 1)
        done += 1


def test_host_and_guest_play_oware_to_the_end_and_a_watcher_cannot_move(server, people):
    host = people.page(server.url)
    make_room(host, "oware", side="south", clock="5+3", shot="form")
    assert you(host) == "south" and "seat=" in host.url
    assert host.inner_text("#room-status") == "Waiting for North to join: send the link."
    shoot(host, "waiting")
    link = host.input_value("#room-link")
    assert "seat=" not in link
    guest = people.page(link)
    assert you(guest) == "north" and "seat=" in guest.url  # the guest's own token
    host.wait_for_function("() => document.getElementById('room-status').textContent === ''")
    watcher = people.page(link)
    assert you(watcher) == "watcher"
    host.wait_for_selector("#room-seats li:text('1 watching')")
    # the clocks: South's runs (5 minutes), North's stands
    assert host.inner_text(".seat[data-seat='north'] .clock") == "5:00"
    assert host.query_selector(".seat[data-seat='south'] .clock.running")
    # a watcher's click is refused on the page; a move sent anyway, by the server
    watcher.click(".pit[data-pit='c']")
    assert status(watcher) == "Wait: South (host) is to move."
    watcher.evaluate("() => send({type: 'move', move: 'c'})")
    watcher.wait_for_function("() => document.getElementById('status').textContent"
                              ".includes('watching this room')")
    assert status(watcher) == "you are watching this room: only its two players move"
    # North cannot move for South
    guest.evaluate("() => send({type: 'move', move: 'c'})")
    guest.wait_for_function("() => document.getElementById('status').textContent"
                            ".startsWith('it is')")
    assert status(guest) == "it is South's turn: you play North"
    assert plies(host) == 0
    host.click(".pit[data-pit='c']")
    for page in (host, guest, watcher):
        wait_plies(page, 1)
    assert guest.query_selector(".board.flipped")  # North sees the board from North
    shoot(guest, "guest")
    play({"south": host, "north": guest, "watcher": watcher})
    text = status(host)
    assert ("wins" in text or "Draw" in text) and guest.query_selector(".status.over")
    assert status(watcher) == text
    shoot(watcher, "watcher")
    # the finished game downloads as a record and as OGN, move for move
    line = host.evaluate("() => state.line.map((p) => p.move)")
    guest.click("#save")
    guest.wait_for_function("() => window.bingwaLastRecord")
    record = parse_record(guest.evaluate("() => window.bingwaLastRecord"))
    assert [m.text for m in record.moves] == line and record.result != "*"
    guest.evaluate("() => { window.bingwaLastRecord = null; }")
    guest.click("#save-ogn")
    guest.wait_for_function("() => window.bingwaLastRecord")
    ogn = parse_ogn(guest.evaluate("() => window.bingwaLastRecord"))
    assert [m.text for m in ogn[0].moves] == line
    assert not host.js_errors and not guest.js_errors and not watcher.js_errors


def test_a_bao_game_to_the_end_with_a_reload_and_a_lost_page_rejoining(server, people):
    host = people.page(server.url)
    make_room(host, "bao", side="north")
    assert you(host) == "north"
    guest_context = people.chromium.new_context(viewport=VIEW)
    people.contexts.append(guest_context)
    guest = open_in(guest_context, host.input_value("#room-link"))
    guest.wait_for_selector("body[data-room-you='south']", state="attached")
    seats = {"south": guest, "north": host}
    play(seats, 6)
    # a reload rejoins the same seat, the game as it was
    guest.reload()
    guest.wait_for_selector("body[data-room-you='south']", state="attached")
    wait_plies(guest, 6)
    assert plies(guest) == 6
    # a lost page: the other player is told, and the link rejoins the seat
    url = guest.url
    guest.close()
    host.wait_for_function("() => document.getElementById('room-status').textContent"
                           " === 'Waiting for South to reconnect…'")
    shoot(host, "reconnect")
    guest = open_in(guest_context, url)
    guest.wait_for_selector("body[data-room-you='south']", state="attached")
    host.wait_for_function("() => document.getElementById('room-status').textContent === ''")
    seats["south"] = guest
    play(seats)
    assert "wins" in status(host) or "Draw" in status(host)
    assert status(guest) == status(host)
    assert not host.js_errors and not guest.js_errors


def test_a_draw_offer_is_accepted_and_the_rematch_swaps_the_colours(server, people):
    host = people.page(server.url)
    make_room(host, "kalah", options={"pits": "4", "seeds": "3"})
    assert host.is_hidden("#hint")  # engine help is off unless the host allows it
    guest = people.page(host.input_value("#room-link"))
    play({"south": host, "north": guest}, 2)
    host.click("#room-draw")
    guest.wait_for_selector("#room-accept")
    assert guest.inner_text("#room-offer p") == "South offers a draw."
    assert "You offered a draw" in host.inner_text("#room-offer")
    shoot(guest, "draw-offer")
    guest.click("#room-accept")
    for page in (host, guest):
        page.wait_for_selector(".status.over")
        assert status(page).endswith(": a draw was agreed.")
    guest.click("#room-rematch")
    host.wait_for_selector("#room-accept")
    assert "North offers a rematch" in host.inner_text("#room-offer")
    host.click("#room-accept")
    for page, side in ((host, "north"), (guest, "south")):
        page.wait_for_selector(f"body[data-room-you='{side}']", state="attached")
        page.wait_for_function("() => document.getElementById('room-title').textContent"
                               ".includes('game 2')")
    assert plies(host) == 0 and not host.query_selector(".status.over")
    play({"south": guest, "north": host}, 1)
    assert not host.js_errors and not guest.js_errors


def test_hints_are_offered_where_the_host_allowed_them(server, people):
    host = people.page(server.url)
    make_room(host, "oware", help_allowed=True)
    guest = people.page(host.input_value("#room-link"))
    assert guest.is_visible("#hint")
    host.click("#hint")
    host.wait_for_selector(".hint-line", timeout=60_000)
    assert host.query_selector(".pit.hinted")
    assert not guest.query_selector(".hint-line")  # the opponent sees none of it
    assert not host.js_errors and not guest.js_errors


def test_the_server_restarts_mid_game_and_the_game_goes_on(server, people):
    host = people.page(server.url)
    make_room(host, "oware", clock="10+5")
    guest = people.page(host.input_value("#room-link"))
    seats = {"south": host, "north": guest}
    play(seats, 4)
    line = host.evaluate("() => state.line.map((p) => p.move)")
    server.stop()
    for page in (host, guest):
        page.wait_for_function("() => document.getElementById('status').textContent"
                               ".startsWith('Connection lost')")
    server.start()  # the same port, the same file
    for page in (host, guest):
        page.wait_for_function("() => document.getElementById('conn').className === 'conn on'")
        wait_plies(page, 4)
        assert page.evaluate("() => state.line.map((p) => p.move)") == line
    assert you(host) == "south" and you(guest) == "north"
    play(seats, 3)
    assert plies(guest) == 7
    assert not host.js_errors and not guest.js_errors


def test_the_latency_benchmark_measures_every_move_across_a_rematch(chromium, tmp_path):
    """benchmarks/room_latency.py works (its figures are for docs/web.md,
    never asserted here): one sample a move, from both sides of the link."""
    import sqlite3
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "room_latency.py"
    db = tmp_path / "rooms.sqlite"
    done = subprocess.run([sys.executable, str(script), "--moves", "70", "--variant", "kalah",
                           "--seed", "3", "--db", str(db), "--chromium", CHROMIUM],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.endswith(" over 70 moves") for line in lines), lines
    games = sqlite3.connect(db).execute("SELECT COUNT(*) FROM room_games").fetchone()[0]
    moves = sqlite3.connect(db).execute("SELECT COUNT(*) FROM room_moves").fetchone()[0]
    assert games >= 2 and moves == 70  # a Kalah game is shorter than 70 plies
