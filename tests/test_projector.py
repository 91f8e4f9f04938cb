"""Projector mode in a real browser at 1280x720: every Play page, after one click on
"Projector mode", has nothing sticking out to the right, no horizontal scrolling, and its key
numbers (the headline with the bust chance and the recommendation, the action buttons and the
two main charts) inside the first screen.  Screenshots go to ``docs/screenshots/``.

The app is started with the README's command (``scripts/run_app.sh``) on a private port."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_app_kernels import CHROMIUM, CHROMIUM_ARGS, ROOT, App
from test_browser import draw_stop_page

NOTEBOOKS = ROOT / "notebooks"
SHOTS = ROOT / "docs" / "screenshots"
# the draw/stop tables' projector mode (Lost Cities' card table has none yet: see docs/app.md)
PLAY_PAGES = sorted(p.name for p in NOTEBOOKS.glob("Play_*.ipynb") if draw_stop_page(p))
WIDTH, HEIGHT = 1280, 720
PORT = 8895

LAYOUT_REPORT = """() => {
  const width = window.innerWidth, height = window.innerHeight;
  const table = document.querySelector('.pushluck-table');
  const sticking = [];
  for (const el of table.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    if (r.right > width + 1) sticking.push((el.className.baseVal ?? el.className) + ' right=' +
                                          Math.round(r.right));
  }
  const bottom = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.height > 0 ? r.bottom + window.scrollY : null;
  };
  const cells = [...document.querySelectorAll('.pl-cell-main')].map(
      (c) => c.getBoundingClientRect()).filter((r) => r.height > 0);
  return {
    width, height,
    pageWidth: document.documentElement.scrollWidth,
    sticking: sticking.slice(0, 10),
    headline: bottom('.pl-panel .pushluck-headline'),
    headlineText: document.querySelector('.pl-panel .pushluck-headline')?.innerText ?? '',
    buttons: bottom('.pushluck-table .pushluck-action'),
    charts: cells.map((r) => r.bottom + window.scrollY),
    chartsRight: cells.map((r) => r.right),
  };
}"""


@pytest.fixture(scope="module")
def app():
    with App(PORT, "--pool", "2") as running:
        running.wait_for_pool(2)
        yield running


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
        yield chromium
        chromium.close()


@pytest.mark.browser
@pytest.mark.parametrize("notebook", PLAY_PAGES)
def test_play_page_in_projector_mode_fits_1280x720(app, browser, notebook):
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app.url(notebook), timeout=180_000)
    page.wait_for_selector(".pushluck-table .pushluck-action", state="visible",
                           timeout=180_000)
    page.click(".pushluck-projector-toggle")
    page.wait_for_selector(".pushluck-projector .pl-panel.pl-projector", timeout=30_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pl-cell-main .js-plotly-plot')]"
        ".every((p) => p.getBoundingClientRect().width <= 400)", timeout=30_000)
    page.wait_for_timeout(500)
    page.evaluate("window.scrollTo(0, 0)")
    report = page.evaluate(LAYOUT_REPORT)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"projector_{notebook.removesuffix('.ipynb')}.png"))
    assert not errors, errors
    assert report["pageWidth"] <= WIDTH, report
    assert not report["sticking"], report
    assert report["headline"] is not None and report["headline"] <= HEIGHT, report
    assert "Recommended" in report["headlineText"], report
    assert report["buttons"] is not None and report["buttons"] <= HEIGHT, report
    assert len(report["charts"]) == 2, report
    assert all(bottom <= HEIGHT for bottom in report["charts"]), report
    assert all(right <= WIDTH for right in report["chartsRight"]), report
    page.close()
