"""Fixtures the browser test files share (the app harness itself is in ``test_browser.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium through Playwright, one per test module; missing Chromium fails."""
    from playwright.sync_api import sync_playwright
    from test_browser import launch_chromium

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()
