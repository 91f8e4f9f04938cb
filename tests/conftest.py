"""Fixtures the browser test files share (the app harness itself is in ``test_browser.py``).

One app server of each kind per pytest worker, for the whole session: the files run one after
another on a worker (``--dist loadfile``) and reuse them instead of each starting its own (a
warm-pool app takes tens of seconds to start on a loaded machine).  Each server's log is checked
for tracebacks and ERROR lines when the session ends.  Chromium is one per file: Playwright's
sync API keeps an event loop running on the thread while it is open, and the next file on the
worker may start its own Playwright (the static site's tests) or run ``asyncio`` code.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium through Playwright, one per test file; missing Chromium fails."""
    from playwright.sync_api import sync_playwright
    from test_browser import launch_chromium

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def shared_app() -> Iterator[object]:
    """The app as the README starts it (``scripts/run_app.sh``, its default warm pool)."""
    from test_browser import AppServer, stop_and_check_log

    server = AppServer()
    try:
        yield server
    finally:
        stop_and_check_log(server)


@pytest.fixture(scope="session")
def shared_voila() -> Iterator[object]:
    """Plain Voilà on ``notebooks/`` with the repository's config (no warm pool)."""
    from test_browser import VoilaServer, stop_and_check_log

    server = VoilaServer()
    try:
        yield server
    finally:
        stop_and_check_log(server)
