"""End-to-end: headless Chromium (Debian's, driven by Playwright; nothing
downloads a browser) plays through the page of ``bingwa serve``: a full
Oware game against the engine, a Bao game with a choice prompt, undo, a
hint, replay and a reload, and every variant on the board.

Skipped with the reason when Chromium or Playwright is missing, except
under CI (``CI`` set), where that is a failure. BINGWA_SCREENSHOTS=DIR
writes the screenshots docs/web.md shows (docs/images).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from support import web
from support.web import PHONE, new_game, open_page, plies, status, wait_plies

SHOTS = os.environ.get("BINGWA_SCREENSHOTS")
browser = web.browser  # the fixtures: a browser and a server for this module
server = web.server


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}.png"))


def test_a_full_oware_game_against_the_engine(browser, server):
    page = open_page(browser, server)
    ready_ms = page.evaluate("() => window.bingwaReadyAt")
    print(f"\npage interactive {ready_ms:.0f} ms after navigation start")
    new_game(page, "oware", north="engine:bingwa")
    page.click(".pit[data-pit='A']")
    assert status(page) == "A is North's pit and South is to move"
    page.click(".pit[data-pit='c']")
    wait_plies(page, 2)
    said_empty = False
    for _ in range(200):
        # one look at the page per turn: over?, plies, an empty and a movable South pit
        seen = page.evaluate("""() => {
            const south = [...document.querySelectorAll('.row:last-child .pit')];
            const movable = south.filter((p) => p.classList.contains('movable'));
            const empty = south.find((p) => p.dataset.seeds === '0');
            return {over: !!document.querySelector('.status.over'),
                    plies: document.querySelectorAll('#moves .ply').length - 1,
                    empty: empty ? empty.dataset.pit : null,
                    movable: movable.length ? movable[movable.length - 1].dataset.pit : null};
        }""")
        if seen["over"]:
            break
        if seen["empty"] and not said_empty:
            page.click(f".pit[data-pit='{seen['empty']}']")
            assert status(page) == f"{seen['empty']} is empty"
            said_empty = True
            shoot(page, "oware-game")
        assert seen["movable"], status(page)
        page.click(f".pit[data-pit='{seen['movable']}']")  # the pit nearest the opponent
        page.wait_for_function(
            f"() => document.querySelector('.status.over') || "
            f"(document.querySelectorAll('#moves .ply').length - 1 >= {seen['plies'] + 2})")
    text = status(page)
    assert ("wins" in text or "Draw" in text) and page.query_selector(".status.over"), text
    assert said_empty
    # save the game as OGN, start something else, load it back
    played = plies(page)
    page.click("#save-ogn")
    page.wait_for_function("() => window.bingwaLastRecord")
    ogn = page.evaluate("() => window.bingwaLastRecord")
    assert '[Variant "Abapa"]' in ogn
    new_game(page, "kalah")
    page.set_input_files("#load", files=[{"name": "game.ogn", "mimeType": "text/plain",
                                          "buffer": ogn.encode()}])
    page.wait_for_function("() => document.getElementById('title').textContent === 'oware'")
    wait_plies(page, played)
    assert plies(page) == played and page.query_selector(".status.over")
    assert not page.js_errors
    page.close()


def test_a_bao_game_with_choices_undo_hint_replay_and_reload(browser, server):
    page = open_page(browser, server)
    new_game(page, "bao", north="engine:bingwa")
    page.click(".pit[data-pit='a5']")
    assert status(page) == "a5 is North's pit and South is to move"
    page.click(".pit[data-pit='A6']")
    page.wait_for_selector("#choice:not([hidden]) button[data-move='A6>']")
    shoot(page, "bao-choice")
    page.click("#choice button[data-move='A6<']")
    wait_plies(page, 2)
    for _ in range(2):
        count = plies(page)
        page.query_selector_all(".pit.movable")[0].click()
        if page.is_visible("#choice"):
            page.click("#choice button[data-move]")
        wait_plies(page, count + 2)
    assert plies(page) == 6
    shoot(page, "bao")
    page.click("#undo")
    page.wait_for_selector(".ply.current[data-ply='4']")
    assert plies(page) == 6  # the undone plies stay as redo
    page.click("#hint")
    page.wait_for_selector(".hint-line")
    hinted = page.get_attribute(".hint-line", "data-move")
    assert hinted and page.query_selector(".pit.hinted")
    page.click(".ply[data-ply='1']")
    page.wait_for_selector(".ply.current[data-ply='1']")
    assert "Ply 1 of 6" in status(page)
    page.click("#forward")
    page.wait_for_selector(".ply.current[data-ply='2']")
    page.click("#last")
    page.wait_for_selector(".ply.current[data-ply='6']")
    game_url = page.url
    assert "game=" in game_url
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.wait_for_selector(".ply.current[data-ply='6']")
    assert plies(page) == 6 and page.url == game_url
    assert page.input_value("#variant") == "bao"
    phone = open_page(browser, server, game_url, PHONE)
    phone.wait_for_selector(".ply.current[data-ply='6']")
    shoot(phone, "bao-phone")
    assert not page.js_errors and not phone.js_errors
    phone.close()
    page.close()


@pytest.mark.parametrize("variant, options, pits", [
    ("oware", {"grandslam": "capture"}, 12),
    ("ayoayo", {}, 12),
    ("kalah", {"pits": "4", "seeds": "3"}, 8),
    ("kujifunza", {}, 32),
])
def test_every_variant_plays_on_the_board(browser, server, variant, options, pits):
    page = open_page(browser, server)
    new_game(page, variant, options=options)
    assert len(page.query_selector_all(".pit")) == pits
    assert page.inner_text("#title").startswith(variant)
    first = page.query_selector_all(".pit.movable")[-1]
    first.click()
    if page.is_visible("#choice"):
        page.click("#choice button[data-move]")
    wait_plies(page, 1)
    assert page.query_selector(".pit.origin")
    shoot(page, variant)
    if variant == "kalah":
        phone = open_page(browser, server, page.url, PHONE)
        shoot(phone, "kalah-phone")
        phone.close()
    assert not page.js_errors
    page.close()


def test_a_person_playing_north_sees_the_board_from_north(browser, server):
    page = open_page(browser, server)
    new_game(page, "bao", south="engine:bingwa")
    wait_plies(page, 1)  # the engine opened as South
    assert page.query_selector(".board.flipped")
    # North's own rows are at the bottom, a1 on the left as North sees them
    assert page.get_attribute(".rows .row:last-child .pit", "data-pit") == "b1"
    assert page.get_attribute(".rows .row:first-child .pit", "data-pit") == "B8"
    shoot(page, "bao-north")
    page.click("#flip")
    assert page.get_attribute(".rows .row:last-child .pit", "data-pit") == "B1"
    assert not page.js_errors
    page.close()


def test_a_crashed_engine_is_reported_on_the_page_and_the_game_goes_on(browser, server):
    import signal

    from bingwa.web.server import GAMES_KEY

    page = open_page(browser, server)
    new_game(page, "oware", north="engine:bingwa")
    page.click(".pit[data-pit='c']")
    wait_plies(page, 2)
    game = page.evaluate("() => new URLSearchParams(location.search).get('game')")
    os.kill(server.app[GAMES_KEY][game].slots["bingwa"].pid(), signal.SIGKILL)
    page.click(".pit[data-pit='d']")
    page.wait_for_selector("#events li")
    assert "restarting it" in page.inner_text("#events")
    wait_plies(page, 4)
    assert not page.js_errors
    page.close()


def test_engine_against_engine_can_be_watched_and_paused(browser, server):
    page = open_page(browser, server)
    new_game(page, "kalah", south="engine:bingwa", north="engine:bingwa",
             options={"pits": "3", "seeds": "2"})
    page.wait_for_selector(".status.over")
    assert "wins" in status(page) or "Draw" in status(page)
    assert page.is_disabled("#pause")  # nothing left to pause
    new_game(page, "oware", south="engine:bingwa", north="engine:bingwa", think="movetime:200")
    wait_plies(page, 1)
    page.click("#pause")
    page.wait_for_selector("#pause:text('Resume')")
    paused_at = plies(page)
    page.wait_for_timeout(600)  # three moves' time: nobody moves while paused
    assert plies(page) == paused_at and "Paused" in status(page)
    page.click("#pause")
    wait_plies(page, paused_at + 1)
    assert not page.js_errors
    page.close()
