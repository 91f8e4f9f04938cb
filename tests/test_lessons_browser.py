"""The lesson pages in a real browser (Debian chromium through Playwright): every page, once
its work is done, has only charts with data and logs no console error; Lesson 6's explorer
shows its advice for 0 against 0 and changes it when the first slider moves.  (Typed answers
are checked by the widget tests, not here.)

The app is started with the README's command, ``scripts/run_app.sh`` (``--no-install``: the
test runs inside an installed environment).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from test_browser import (  # the shared harness (pytest puts tests/ on the path)
    NOTEBOOKS,
    AppServer,
    stop_and_check_log,
)

LESSONS = sorted(p.name for p in NOTEBOOKS.glob("Lesson_*.ipynb"))
PAGE_TIMEOUT_MS = 240_000

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    server = AppServer("--pool", "0")
    try:
        yield server.base
    finally:
        stop_and_check_log(server)


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1400, "height": 3000})
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".js-plotly-plot", state="visible", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_function("() => document.body.classList.contains('voila-finished') || "
                           "!document.querySelector('.voila-spinner, #loading')",
                           timeout=PAGE_TIMEOUT_MS)
    page.wait_for_timeout(1500)
    return page, errors


@pytest.mark.parametrize("notebook", LESSONS)
def test_lesson_page_has_no_console_error_and_no_empty_chart(app, browser, notebook):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page, errors = _open(browser, f"{app}/voila/render/{notebook}")
    # A trace has data when x, y or z has points (z may come as plotly's typed-array spec
    # {dtype, bdata}) or when it is an indicator with a value.
    shown = "() => [...document.querySelectorAll('.js-plotly-plot')]" \
            ".map(p => (p.data || []).some(t => [t.x, t.y, t.z].some(" \
            "v => v && (v.length > 0 || (v.bdata && v.bdata.length > 0)))" \
            " || t.value !== undefined))"
    # charts whose numbers are computed off the click path (Lesson 5's side-by-side rule
    # sets) fill in once their work is done: wait for that, then every chart must have data
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({shown})().every(Boolean)", timeout=PAGE_TIMEOUT_MS)
    drawn = page.evaluate(shown)
    assert drawn and all(drawn), f"{notebook}: a chart is empty: {drawn}"
    assert errors == [], f"{notebook}: {errors[:5]}"
    page.close()


def test_lesson_6_explorer_follows_its_sliders(app, browser):
    page, errors = _open(browser, f"{app}/voila/render/Lesson_6_Winning_The_Game.ipynb")
    advice = page.locator(".pushluck-lesson-advice")
    advice.wait_for(state="visible", timeout=60_000)
    assert "With 0 against 0" in advice.inner_text()
    slider = page.locator(".widget-slider").first
    slider.locator(".noUi-handle, .slider-handle, [role='slider']").first.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => [...document.querySelectorAll('.pushluck-lesson-advice')]"
                           ".some(a => !a.innerText.includes('With 0 against 0'))",
                           timeout=60_000)
    assert errors == [], errors[:5]
    page.close()
