"""Projector mode in a real browser at 1280x720, on every notebook page.

Each page is opened with ``?projector`` in its address (the way a teacher starts a projected
page; :mod:`pushluck_teach.ui.projector`), one after another against one app started with the
README's command (``scripts/run_app.sh``).  On every page: nothing sticks out to the right and
nothing scrolls sideways; the page's key numbers are inside the first screen (no scrolling):

* a draw/stop Play page: the coach's headline (bust chance and recommendation), the action
  buttons and the two key charts (next draw, value of the choice, side by side);
* Lost Cities: the odds headline, the action buttons and both charts;
* a lesson: its main answer (Lesson 1 the bust chance, 2 the three values, 3 the expected
  number of draws, 4 the exact value after one batch, 5 both rule sets' values, 6 the first
  player's chance to win, 7 the opening's expected points) and its charts;
* the variant lab: the Compare A/B charts; the start page and the teacher's guide: their title.

A page fails on any page or console error, a traceback or a widget's error text (as
``tests/test_browser.py``).  Screenshots of every Play page and two lessons go to
``test-artifacts/screenshots/projector_*.png`` (``scripts/screenshots.py`` makes the ones in
``docs/screenshots/``; ``tests/test_browser_layout.py`` checks every page in both modes for cut
text, small type and probability axes).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import (
    NOTEBOOKS,
    PAGE_TIMEOUT_MS,
    TRACEBACK_MARKERS,
    WIDGET_ERRORS,
    AppServer,
    PageWatch,
    draw_stop_page,
)

SHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
WIDTH, HEIGHT = 1280, 720
PAGES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
PLAY_PAGES = [p for p in PAGES if p.startswith("Play_") and draw_stop_page(NOTEBOOKS / p)]
SCREENSHOT_PAGES = {*(p for p in PAGES if p.startswith("Play_")),
                    "Lesson_1_Next_Card.ipynb", "Lesson_3_Turn_As_Markov_Chain.ipynb"}

# What each page must show inside the first screen: (CSS selector, how many at least, text the
# first one must contain).  Every notebook needs an entry (a new page must say what matters).
PLAY_KEYS = [(".pl-panel .pushluck-headline", 1, "Recommended"),
             (".pushluck-table .pushluck-action", 1, ""),
             (".pl-cell-main .js-plotly-plot", 2, "")]
KEYS: dict[str, list[tuple[str, int, str]]] = {
    **{page: PLAY_KEYS for page in PLAY_PAGES},
    "00_Start_Here.ipynb": [("h1", 1, "")],
    "Teachers_Guide.ipynb": [("h1", 1, "")],
    "Play_Lost_Cities.ipynb": [(".pushluck-cardtable .pushluck-headline", 1, "Deck"),
                               (".pl-cardtable-actions .pushluck-action", 1, ""),
                               (".pl-cardtable-main .js-plotly-plot", 2, "")],
    # a lesson's check-yourself answer stays off the page until answered: its question is key
    "Lesson_1_Next_Card.ipynb": [(".pushluck-lesson .js-plotly-plot", 2, ""),
                                 (".pushluck-lesson-question .pushluck-lesson-answer", 1, "")],
    "Lesson_2_When_To_Stop.ipynb": [(".pushluck-lesson-values", 1, "optimal play"),
                                    (".pushluck-lesson .js-plotly-plot", 1, "")],
    "Lesson_3_Turn_As_Markov_Chain.ipynb": [(".pushluck-lesson-chain b", 1, ""),
                                            (".pushluck-lesson .js-plotly-plot", 2, "")],
    "Lesson_4_Exact_vs_Simulation.ipynb": [(".pushluck-lesson-sim", 1, "turns: mean"),
                                           (".pushluck-lesson .js-plotly-plot", 1, "")],
    "Lesson_5_Rule_Variants.ipynb": [(".pushluck-lesson-variant", 2, "optimal"),
                                     (".pushluck-lesson-question", 1, "B minus A")],
    "Lesson_6_Winning_The_Game.ipynb": [(".pushluck-key.js-plotly-plot", 1, "")],
    "Lesson_7_Investing_Under_Uncertainty.ipynb": [(".pushluck-headline", 1, "Open red"),
                                                   (".pl-charts .js-plotly-plot", 3, "")],
    "Lesson_8_Luck_Or_Skill.ipynb": [(".pushluck-table .pushluck-action", 1, "")],
    "Variant_Lab.ipynb": [(".pushluck-lab .js-plotly-plot", 2, "")],
}
# Pages whose key numbers need a click first (in projector mode, as a teacher would).
CLICKS = {
    "Lesson_4_Exact_vs_Simulation.ipynb": (".pushluck-lesson-add", ".pushluck-lesson-sim b"),
    "Variant_Lab.ipynb": (".pushluck-lab .lm-TabBar-tab:nth-child(2)",
                          ".pushluck-lab .js-plotly-plot"),
}

LAYOUT_REPORT = """(keys) => {
  const width = window.innerWidth, height = window.innerHeight;
  const root = document.querySelector('#rendered_cells');
  const clippedBy = (el) => {  // an ancestor inside the page that clips (scroll box, hidden)
    for (let a = el.parentElement; a && a !== root; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox !== 'visible') return a.getBoundingClientRect().right <= width + 1;
    }
    return false;
  };
  const sticking = [];
  for (const el of root.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= width + 1) continue;
    if (getComputedStyle(el).visibility === 'hidden' || clippedBy(el)) continue;
    sticking.push((el.className.baseVal ?? el.className) + ' right=' + Math.round(r.right));
  }
  const scrollers = [...document.querySelectorAll('*')].filter((el) =>
      el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(
          getComputedStyle(el).overflowX) && el.clientWidth > 0.8 * width);
  const found = keys.map(([selector, count, text]) => {
    const shown = [...document.querySelectorAll(selector)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    });
    const boxes = shown.slice(0, count).map((el) => el.getBoundingClientRect());
    return {selector, count: shown.length, wanted: count,
            text: shown.length ? shown[0].innerText.slice(0, 1000) : '',
            wantedText: text,
            outside: boxes.filter((r) => r.bottom > height + 1 || r.right > width + 1 ||
                                          r.top < 0).length};
  });
  return {pageWidth: document.documentElement.scrollWidth, sticking: sticking.slice(0, 8),
          sideways: scrollers.map((el) => el.className).slice(0, 3), found,
          projector: !!document.querySelector('.pl-projector-on')};
}"""

# The page streamed to its end (the app's template sets this after the last cell).
RENDERED = "() => window.pushluckRendered === true && document.readyState !== 'loading'"
# Every chart has drawn its plot, and no chart is still re-sizing.
CHARTS_DRAWN = """() => [...document.querySelectorAll('.js-plotly-plot')].every(
    (p) => p.getBoundingClientRect().width === 0 || p.querySelector('.main-svg'))"""


@pytest.fixture(scope="module")
def app(shared_app: AppServer) -> AppServer:
    """The worker's app server (tests/conftest.py), shared with the other browser files."""
    return shared_app


def test_every_page_has_its_key_numbers_listed():
    """The page list comes from the notebooks directory; an empty glob or a page without an
    entry fails here rather than checking nothing."""
    assert len(PAGES) >= 16, PAGES
    assert len(PLAY_PAGES) >= 5, PLAY_PAGES
    assert set(KEYS) == set(PAGES), set(KEYS) ^ set(PAGES)


def settle(page) -> None:
    """Wait until the page's layout stops moving (charts drawn, sizes steady)."""
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)
    previous = None
    for _ in range(20):
        sizes = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')]"
                              ".map((p) => Math.round(p.getBoundingClientRect().width))"
                              ".join(',') + '|' + document.querySelector('#rendered_cells')"
                              ".scrollHeight")
        if sizes == previous:
            return
        previous = sizes
        page.wait_for_timeout(250)


@pytest.mark.browser
@pytest.mark.parametrize("notebook", PAGES)
def test_page_in_projector_mode_fits_1280x720(app, browser, notebook):
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    watch = PageWatch(page)
    try:
        page.goto(app.url(notebook) + "?projector", timeout=PAGE_TIMEOUT_MS)
        first = KEYS[notebook][0][0]
        page.wait_for_selector(first, state="attached", timeout=PAGE_TIMEOUT_MS)
        # the whole page rendered (closing a page mid-render logs errors of its own)
        page.wait_for_function(RENDERED, timeout=PAGE_TIMEOUT_MS)
        # the address switched projector mode on (the page's own switch shows it)
        page.wait_for_selector(".pl-projector-on .pushluck-projector-toggle", timeout=60_000)
        if notebook in CLICKS:
            button, result = CLICKS[notebook]
            page.click(button)
            page.wait_for_selector(result, state="visible", timeout=120_000)
        for selector, count, text in KEYS[notebook]:
            page.wait_for_function(
                "([s, n, t]) => { const e = [...document.querySelectorAll(s)].filter("
                "(x) => x.getBoundingClientRect().height > 0); return e.length >= n && "
                "(!t || e[0].innerText.includes(t)); }", arg=[selector, count, text],
                timeout=120_000)
        settle(page)
        page.evaluate("window.scrollTo(0, 0)")
        report = page.evaluate(LAYOUT_REPORT, KEYS[notebook])
        if notebook in SCREENSHOT_PAGES:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"projector_{Path(notebook).stem}.png"))
        text = page.inner_text("body")
    finally:
        page.close()
    for marker in TRACEBACK_MARKERS:
        assert marker not in text, f"{notebook}: the page shows {marker!r}"
    for marker in WIDGET_ERRORS:
        assert marker not in text.lower(), f"{notebook}: a widget shows {marker!r}"
    assert watch.page_errors == [], f"{notebook}: page errors {watch.page_errors[:3]}"
    assert watch.console_errors == [], f"{notebook}: console errors {watch.console_errors[:3]}"
    assert report["pageWidth"] <= WIDTH, report
    assert report["sticking"] == [], report
    assert report["sideways"] == [], report
    assert report["projector"], report
    for key in report["found"]:
        assert key["count"] >= key["wanted"], (notebook, key)
        assert key["wantedText"] in key["text"], (notebook, key)
        assert key["outside"] == 0, (notebook, "not in the first screen", key)
