"""End-to-end, in the real browser: the rough edges a new user hit on the
page (issue 29, section 2), each pinned where it showed. The browser, the
server and the page helpers are those of tests/support/web.py (same skips
without Chromium or Playwright, same failure under CI)."""

from __future__ import annotations

from typing import Any

import pytest
from support import web as e2e

browser = e2e.browser  # the fixtures of support.web: a browser and a server for this module
server = e2e.server

LANDSCAPE = {"width": 844, "height": 390}  # the phone turned

BOXES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
    const r = e.getBoundingClientRect();
    return {name: e.dataset.pit || e.dataset.store || e.dataset.hand || e.id,
            left: r.left, right: r.right, top: r.top, bottom: r.bottom};
})"""


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    return page.evaluate(BOXES, selector)


def assert_board_fits(page: Any, width: int) -> None:
    """Every pit, store and hand inside the screen and inside the board
    (nothing to scroll to), and the page no wider than the screen."""
    board = boxes(page, "#board")[0]
    for box in boxes(page, "#board .pit, #board .store, #board .hand"):
        assert 0 <= box["left"] and box["right"] <= width, (box, width)
        assert board["left"] <= box["left"] and box["right"] <= board["right"], (box, board)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert page.evaluate("() => { const b = document.getElementById('board');"
                         " return b.scrollWidth <= b.clientWidth; }")


def play_movable(page: Any, last: bool = True) -> None:
    """Click a movable pit (the one nearest the opponent's store, or the
    first) and take the first choice if one is asked."""
    pits = page.query_selector_all(".pit.movable")
    (pits[-1] if last else pits[0]).click()
    if page.is_visible("#choice"):
        page.click("#choice button[data-move]")


@pytest.mark.parametrize("variant, options", [
    ("oware", {}),
    ("kalah", {}),
    ("kalah", {"pits": "12"}),
    ("bao", {}),
])
def test_the_board_fits_a_phone(browser, server, variant, options):
    page = e2e.open_page(browser, server, viewport=e2e.PHONE)
    e2e.new_game(page, variant, options=options)
    assert_board_fits(page, e2e.PHONE["width"])
    page.close()


def test_a_resized_bao_board_is_laid_out_again(browser, server):
    page = e2e.open_page(browser, server)
    e2e.new_game(page, "bao")
    page.click(".pit[data-pit='A6']")  # two legal moves: the choice opens at the pit
    page.wait_for_selector("#choice:not([hidden])")
    for viewport in (e2e.PHONE, LANDSCAPE, e2e.PHONE):  # the window narrowed, the phone turned
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        assert_board_fits(page, viewport["width"])
        choice = boxes(page, "#choice")[0]
        pit = boxes(page, ".pit[data-pit='A6']")[0]
        assert 0 <= choice["left"] and choice["right"] <= viewport["width"], (choice, viewport)
        middle = (pit["left"] + pit["right"]) / 2
        assert choice["left"] <= middle <= choice["right"], (choice, pit)  # still at its pit
        assert abs(choice["top"] - pit["bottom"]) < 12 or abs(choice["bottom"] - pit["top"]) < 12
    page.click("#choice button[data-move='A6<']")
    e2e.wait_plies(page, 1)
    page.close()


def test_undo_takes_the_hint_away_and_a_hint_clears_an_old_refusal(browser, server):
    page = e2e.open_page(browser, server)
    e2e.new_game(page, "oware", north="engine:bingwa")
    ply, empty = 0, None
    while not empty and ply < 20:  # until South has an empty pit (the engine may refill it)
        play_movable(page, last=False)
        ply += 2
        e2e.wait_plies(page, ply)
        empty = page.evaluate("() => { const p = [...document.querySelectorAll('.row:last-child"
                              " .pit')].find((e) => e.dataset.seeds === '0');"
                              " return p && p.dataset.pit; }")
    assert empty, "South's row kept no empty pit for 10 moves"
    page.click(f".pit[data-pit='{empty}']")  # a refusal in the status line, then a hint
    assert e2e.status(page) == f"{empty} is empty"
    page.click("#hint")
    page.wait_for_selector(".hint-line")
    assert page.query_selector(".pit.hinted")
    assert "empty" not in e2e.status(page), e2e.status(page)
    page.click("#undo")
    page.wait_for_selector(f".ply.current[data-ply='{ply - 2}']")
    assert e2e.plies(page) == ply
    assert not page.query_selector(".pit.hinted")  # the last ply's hint, not this position's
    assert not page.query_selector(".hint-line")
    assert "(hint)" not in page.inner_text("#analysis")
    assert not page.js_errors
    page.close()


def test_the_end_of_a_kalah_game_draws_the_last_sweep(browser, server):
    page = e2e.open_page(browser, server)
    e2e.new_game(page, "kalah", options={"pits": "3", "seeds": "2"})
    for _ in range(60):
        if page.query_selector(".status.over"):
            break
        count = page.evaluate("() => window.bingwaStates")
        play_movable(page)
        page.wait_for_function(f"() => window.bingwaStates > {count}")
    text = e2e.status(page)
    assert "wins" in text or "Draw" in text, text
    south, north = (int(n) for n in text.rsplit(", ", 1)[1].split(":")[0].split("-"))
    stores = [int(page.inner_text(f".store[data-store='{key}'] .count").split()[0])
              for key in ("south", "north")]
    assert stores == [south, north], (stores, text)
    seeds = [int(p.get_attribute("data-seeds")) for p in page.query_selector_all(".pit")]
    assert seeds == [0] * 6, seeds
    scores = page.inner_text("#players")
    assert f"{south} store" in scores and f"{north} store" in scores, scores
    page.close()


@pytest.mark.parametrize("variant, options, offered", [
    ("oware", {}, True),
    ("oware", {"grandslam": "capture"}, False),  # OGN holds Abapa only
    ("kalah", {}, False),
    ("ayoayo", {}, False),
    ("bao", {}, False),
])
def test_save_ogn_is_offered_only_where_ogn_holds_the_game(browser, server, variant, options,
                                                          offered):
    page = e2e.open_page(browser, server)
    e2e.new_game(page, variant, options=options)
    assert page.is_visible("#save-ogn") is offered
    assert page.is_visible("#save")
    page.close()


def test_a_laptop_shows_the_hint_above_the_fold_once(browser, server):
    page = e2e.open_page(browser, server, viewport=e2e.LAPTOP)
    e2e.new_game(page, "oware", north="engine:bingwa")
    for ply in range(2, 22, 2):  # a long move list pushes the side panels down
        play_movable(page)
        e2e.wait_plies(page, ply)
    page.click("#hint")
    page.wait_for_selector(".hint-line")
    lines = boxes(page, ".hint-line")
    assert len(lines) >= 2 and all(b["bottom"] <= e2e.LAPTOP["height"] for b in lines), lines
    assert page.evaluate("() => scrollY") == 0
    # the hint's lines are shown once: not again as analysis lines
    hinted = page.eval_on_selector_all(".hint-line", "(els) => els.map((e) => e.dataset.move)")
    shown = page.eval_on_selector_all("#analysis .line .pv",
                                      "(els) => els.map((e) => e.textContent.split(' ')[0])")
    assert not set(hinted) & set(shown), (hinted, shown)
    assert not page.js_errors
    page.close()


def test_the_new_game_form_shows_its_selectors_whole_on_a_laptop(browser, server):
    page = e2e.open_page(browser, server, viewport=e2e.LAPTOP)
    e2e.new_game(page, "oware", north="engine:bingwa")
    panel = boxes(page, "#setup")[0]
    # each select wide enough for its text, a gap and its arrow, inside the panel
    cut = page.evaluate("""() => [...document.querySelectorAll('#newgame select')]
        .filter((s) => s.offsetParent !== null).map((s) => {
            const probe = document.createElement('span');
            probe.style.font = getComputedStyle(s).font;
            probe.style.whiteSpace = 'pre';
            probe.textContent = s.options[s.selectedIndex].text;
            document.body.appendChild(probe);
            const text = probe.getBoundingClientRect().width;
            probe.remove();
            // the arrow (about 20 px) sits at the right edge, past any padding
            const room = s.clientWidth - parseFloat(getComputedStyle(s).paddingLeft);
            return {id: s.id, text, room};
        }).filter((s) => s.text + 20 + 6 > s.room)""")
    assert not cut, cut
    for box in boxes(page, "#newgame select"):
        if box["right"] > box["left"]:
            assert box["right"] <= panel["right"], (box, panel)
    page.close()
