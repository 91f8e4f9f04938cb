"""The lesson pages in a real browser (Debian chromium through Playwright): every page renders
its charts with data and logs no console error; Lesson 6's explorer draws its roll-or-hold chart
before any slider moves and follows the sliders; a typed answer is checked on the page.

The app is started with the README's command, ``scripts/run_app.sh`` (``--no-install``: the
test runs inside an installed environment).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("Lesson_*.ipynb"))
PAGE_TIMEOUT_MS = 240_000

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    port = int(os.environ.get("PUSHLUCK_TEST_PORT") or _free_port())
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    log = open(ROOT / "test-artifacts" / f"lessons-voila-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen([str(ROOT / "scripts" / "run_app.sh"), "--no-install",
                             "--port", str(port), "--pool", "0"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the app exited with status {proc.returncode}")
            try:
                with urllib.request.urlopen(base + "/", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the app did not answer within 120 s") from None
                time.sleep(0.5)
        yield base
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail(f"Chromium is not installed at {CHROMIUM}", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


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
