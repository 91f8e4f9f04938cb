"""Lost Cities in a real browser: the app from ``scripts/run_app.sh`` on this test's port,
headless Debian Chromium via Playwright.  Opens ``Play_Lost_Cities.ipynb``, plays a card and a
draw by clicking, and checks that the odds panel's numbers are the lines ``pushluck odds``
prints for the command the page shows; that no button's text is cut (an element whose content
is wider than its box) and the draw buttons differ; that the log shows the newest move first;
that the opponent menu starts a game against the bot chosen; and that in projector mode at
1280x720, from the first turn to the last few, the hand, the expeditions, the piles, the buttons
and the two charts are on screen without scrolling, with no text of the table under 16 px.
A missing Chromium is a failure, not a skip.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path

import pytest
from pushluck_cli import pushluck_once
from test_browser import AppServer, PageWatch, stop_and_check_log

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
TIMEOUT_MS = 180_000
PROJECTOR_VIEWPORT = {"width": 1280, "height": 720}
#: turns played in projector mode: the deck from 44 to 4 cards, the expeditions at their longest
LATE_GAME_TURNS = 20

pytestmark = pytest.mark.browser


def panel_state(page) -> tuple[str, str, str]:
    """(headline, the numbers' lines, the command) as the page shows them, read in one go (so
    the three belong to the same moment of the page)."""
    return tuple(page.evaluate("""() => {
        const text = (sel) => document.querySelector('.pushluck-cardtable ' + sel).innerText;
        return [text('.pushluck-headline'), text('.pushluck-numbers'),
                text('code.pushluck-cli')];
    }"""))


def wait_for_panel(page, previous_command: str | None = None) -> tuple[str, str, str]:
    """The panel once it has settled on a new position: the same reading twice in a row, no
    "computing" and no bot moving."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    last = None
    while time.monotonic() < deadline:
        try:
            state = panel_state(page)
        except Exception:  # noqa: BLE001 - the panel is not drawn yet
            time.sleep(0.5)
            continue
        headline, numbers, command = state
        settled = "Computing" not in headline and "is playing" not in headline  # a bot moving
        if numbers and settled and command != previous_command and state == last:
            return state
        last = state
        time.sleep(0.5)
    raise AssertionError("the odds panel did not update")


def wait_for_headline(page) -> str:
    """The panel's headline once the odds are drawn (projector mode folds the numbers)."""
    page.wait_for_function(
        """() => { const h = document.querySelector('.pushluck-cardtable .pushluck-headline');
                   return h && /turns left/.test(h.innerText); }""", timeout=TIMEOUT_MS)
    return page.locator(".pushluck-cardtable .pushluck-headline").inner_text()


def cli_lines(command: str) -> list[str]:
    argv = shlex.split(command)
    assert argv[:3] == ["pushluck", "odds", "lost-cities"], command
    done = pushluck_once(*argv[1:])  # in this process, once per command line
    assert done.status == 0, done.stderr
    return [line.strip() for line in done.stdout.splitlines()]  # HTML drops the indent


def cut_texts(page) -> list[str]:
    """The visible buttons and menus of the table whose text is wider than their box."""
    return page.evaluate("""() => [...document.querySelectorAll(
            '.pushluck-cardtable button, .pushluck-cardtable select')]
        .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth)
        .map((e) => e.innerText || e.value)""")


def small_texts(page, least_px: float = 16) -> list[str]:
    """Visible text of the table (HTML, not the charts' own type nor the screen readers'
    1-pixel chart tables) set under ``least_px``."""
    return page.evaluate("""(least) => {
        const found = [];
        for (const e of document.querySelectorAll('.pushluck-cardtable *')) {
            if (e instanceof SVGElement || e.offsetParent === null) continue;
            if (e.closest('.pl-chart-numbers')) continue;  // screen readers' table: 1 px, unseen
            const own = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim())
                .map((n) => n.textContent.trim()).join(' ');
            const size = parseFloat(getComputedStyle(e).fontSize);
            if (own && size < least) found.push(`${size}px: ${own.slice(0, 50)}`);
        }
        return found;
    }""", least_px)


def outside_viewport(page, selectors: list[str]) -> list[str]:
    """Which of ``selectors`` (each must match at least one element) reach outside the
    viewport: not wholly on screen without scrolling."""
    return page.evaluate("""(selectors) => {
        const bad = [];
        const [w, h] = [window.innerWidth, window.innerHeight];
        for (const sel of selectors) {
            const all = [...document.querySelectorAll(sel)];
            if (!all.length) { bad.push(sel + ': missing'); continue; }
            for (const e of all) {
                const r = e.getBoundingClientRect();
                if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) {
                    bad.push(`${sel}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
                }
            }
        }
        return bad;
    }""", selectors)


def draw_labels(page) -> list[str]:
    return page.locator("button[class*='pushluck-action-draw-']").all_inner_texts()


@pytest.fixture(scope="module")
def app():
    server = AppServer("--pool", "1")
    try:
        server.wait_for_log(r"Warm pool: 1 of 1 kernels ready")
        yield server
    finally:
        stop_and_check_log(server)


def test_play_a_card_and_check_the_odds_panel_against_the_cli(app, browser) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    watch = PageWatch(page)
    page.goto(app.url("Play_Lost_Cities.ipynb"), timeout=TIMEOUT_MS)
    page.wait_for_selector(".pushluck-cardtable", state="visible", timeout=TIMEOUT_MS)
    _, numbers, command = wait_for_panel(page)
    assert [line.strip() for line in numbers.splitlines()] == cli_lines(command)
    faces = page.locator('.pushluck-cardtable [data-zone="hand:0"] .pushluck-face')
    assert faces.count() == 8
    assert faces.first.get_attribute("aria-label")            # "red 4" ...
    assert cut_texts(page) == []
    page.locator("button[class*='pushluck-action-discard-']").first.click()
    page.locator("button.pushluck-action-draw-deck").wait_for(timeout=TIMEOUT_MS)
    labels = draw_labels(page)
    assert "Draw from the deck" in labels and len(set(labels)) == len(labels)
    assert cut_texts(page) == [], "a button's text is cut at the draw step"
    page.screenshot(path=str(SCREENSHOTS / "lost-cities-draw-step.png"))
    page.locator("button.pushluck-action-draw-deck").click(timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => /draws from the deck \\(4[0-3] left\\)/.test(document.body.innerText)",
        timeout=TIMEOUT_MS)
    headline, numbers, command = wait_for_panel(page, previous_command=command)
    assert "--deck-left 42" in command, command     # our draw and the bot's
    assert [line.strip() for line in numbers.splitlines()] == cli_lines(command)
    assert headline.split(".")[0].lower() in "\n".join(cli_lines(command)).lower()
    newest = page.locator(".pushluck-cardtable .pushluck-log .pl-log-newest")
    assert newest.inner_text() == "Player 2 draws from the deck (42 left)."
    box = page.locator(".pushluck-cardtable .pushluck-log").bounding_box()
    line = newest.bounding_box()
    assert box["y"] <= line["y"] and line["y"] + line["height"] <= box["y"] + box["height"]
    page.screenshot(path=str(SCREENSHOTS / "lost-cities.png"), full_page=True)
    assert watch.page_errors == [], watch.page_errors[:3]
    assert watch.console_errors == [], watch.console_errors[:3]
    page.close()


def test_projector_mode_fits_1280x720_and_the_opponent_menu(app, browser) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=PROJECTOR_VIEWPORT)
    watch = PageWatch(page)
    page.goto(app.url("Play_Lost_Cities.ipynb") + "?projector", timeout=TIMEOUT_MS)
    page.wait_for_selector(".pl-projector-table", state="visible", timeout=TIMEOUT_MS)
    wait_for_headline(page)
    # the opponent menu: a game against the search bot, at once (no move made yet)
    menu = page.locator(".pushluck-cardtable .pl-opponent-menu select")
    page.wait_for_function("() => document.querySelectorAll("
                           "'.pushluck-cardtable .pl-opponent-menu option').length >= 4",
                           timeout=TIMEOUT_MS)
    offered = menu.locator("option").all_inner_texts()
    assert [text.split()[0] for text in offered[:3]] == ["simple", "odds", "search"]
    assert "classmate" in offered[3]
    menu.select_option(index=2)
    page.wait_for_function(
        "() => /Player 2 \\(search bot\\)/.test(document.querySelector("
        "'.pushluck-cardtable .pushluck-status-box').innerText)", timeout=TIMEOUT_MS)
    wait_for_headline(page)
    key_parts = ['.pushluck-cardtable [data-zone="hand:0"]',
                 '.pushluck-cardtable [data-zone^="expedition:0:"]',
                 '.pushluck-cardtable [data-zone^="expedition:1:"]',
                 '.pushluck-cardtable [data-zone^="discard:"]',
                 ".pushluck-cardtable .pl-chart, .pushluck-cardtable .pl-charts > *",
                 ".pushluck-cardtable .pl-cardtable-actions button"]
    for step in range(LATE_GAME_TURNS):         # to the late game: long expeditions
        assert outside_viewport(page, key_parts) == [], f"turn {step + 1}"
        assert cut_texts(page) == [] and small_texts(page) == []
        plays = page.locator("button[class*='pushluck-action-play-']")
        if plays.count():                       # play whatever can be played: the board grows
            plays.first.click()
        else:
            page.locator("button[class*='pushluck-action-discard-']").last.click()
        page.locator("button.pushluck-action-draw-deck").wait_for(timeout=TIMEOUT_MS)
        assert outside_viewport(page, key_parts) == [], f"draw step {step + 1}"
        assert cut_texts(page) == [] and small_texts(page) == []
        if step == 0:
            page.screenshot(path=str(SCREENSHOTS / "lost-cities-projector-draw-step.png"))
        page.locator("button.pushluck-action-draw-deck").click()
        page.locator("button.pushluck-action-draw-deck").wait_for(state="detached",
                                                                   timeout=TIMEOUT_MS)
        page.locator("button[class*='pushluck-action-discard-']").first.wait_for(
            timeout=TIMEOUT_MS)                 # the bot has moved: our turn again
        wait_for_headline(page)
    assert outside_viewport(page, key_parts) == []
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    page.screenshot(path=str(SCREENSHOTS / "lost-cities-projector.png"))
    assert watch.page_errors == [], watch.page_errors[:3]
    assert watch.console_errors == [], watch.console_errors[:3]
    page.close()
