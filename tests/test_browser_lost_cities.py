"""Lost Cities in a real browser: the app from ``scripts/run_app.sh`` on this test's port,
headless Debian Chromium via Playwright.  Opens ``Play_Lost_Cities.ipynb``, plays a card and a
draw by clicking, and checks that the odds panel's numbers are the lines ``pushluck odds``
prints for the command the page shows.  A missing Chromium is a failure, not a skip.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_browser import AppServer, PageWatch, launch_chromium, stop_and_check_log

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
TIMEOUT_MS = 180_000

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


def cli_lines(command: str) -> list[str]:
    argv = shlex.split(command)
    assert argv[:3] == ["pushluck", "odds", "lost-cities"], command
    exe = str(Path(sys.executable).with_name("pushluck"))
    done = subprocess.run([exe, *argv[1:]], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return [line.strip() for line in done.stdout.splitlines()]  # HTML drops the indent


def test_play_a_card_and_check_the_odds_panel_against_the_cli() -> None:
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    server = AppServer("--pool", "1")
    try:
        server.wait_for_log(r"Warm pool: 1 of 1 kernels ready")
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            watch = PageWatch(page)
            page.goto(server.url("Play_Lost_Cities.ipynb"), timeout=TIMEOUT_MS)
            page.wait_for_selector(".pushluck-cardtable", state="visible", timeout=TIMEOUT_MS)
            _, numbers, command = wait_for_panel(page)
            assert [line.strip() for line in numbers.splitlines()] == cli_lines(command)
            faces = page.locator('.pushluck-cardtable [data-zone="hand:0"] .pushluck-face')
            assert faces.count() == 8
            assert faces.first.get_attribute("aria-label")            # "red 4" ...
            page.locator("button[class*='pushluck-action-discard-']").first.click()
            page.locator("button.pushluck-action-draw-deck").click(timeout=TIMEOUT_MS)
            page.wait_for_function(
                "() => /draws from the deck \\(4[0-3] left\\)/.test(document.body.innerText)",
                timeout=TIMEOUT_MS)
            headline, numbers, command = wait_for_panel(page, previous_command=command)
            assert "--deck-left 42" in command, command     # our draw and the bot's
            assert [line.strip() for line in numbers.splitlines()] == cli_lines(command)
            assert headline.split(".")[0].lower() in "\n".join(cli_lines(command)).lower()
            page.screenshot(path=str(SCREENSHOTS / "lost-cities.png"), full_page=True)
            assert watch.page_errors == [], watch.page_errors[:3]
            assert watch.console_errors == [], watch.console_errors[:3]
            browser.close()
    finally:
        stop_and_check_log(server)
