"""What every page must look like at 1280x720, in normal and in projector mode (the checks of
``tests/test_browser_pages.py``, which opens each page once and switches the mode).

Layout, on each visit (:func:`check_layout`):

* no visible button, label or drop-down whose text is cut (its content wider than its box, or a
  drop-down's chosen option wider than the drop-down), no chart title or axis title outside its
  chart, no chart title overlapping its y-axis title;
* every chart whose y-axis title names a probability (``probability``, ``P(``, ``chance``)
  shows a y-range inside [0, 1] (inside [0, 100] when the title says "%");
* no solver internals in the page's words, no page error, console error, traceback or widget
  error text;
* in projector mode: no visible text a student reads (chart text, buttons, labels, headings,
  the coach's and the lessons' text) under 16 px, and every element of the page's key content
  (:data:`KEY_SELECTOR`) inside the first 1280x720 screen, at least one of them shown.

Projector fit, in projector mode (:func:`check_projector_fit`): nothing sticks out to the right
and nothing scrolls sideways, and the page's own key numbers (:data:`KEYS`, after the clicks of
:data:`CLICKS`) are inside the first screen:

* a draw/stop Play page: the coach's headline (bust chance and recommendation), the action
  buttons and the two key charts (next draw, value of the choice, side by side);
* Lost Cities: the odds headline, the action buttons and both charts;
* a lesson: its question and charts (Lesson 2 the three values, 3 the expected number of
  draws, 4 the simulation's mean, 5 both rule sets' values, 6 the key chart, 7 the opening's
  headline);
* the variant lab: the Compare A/B charts; the start page and the teacher's guide: their title.

Screenshots of every Play page and two lessons in projector mode go to
``test-artifacts/screenshots/projector_*.png``.  ``scripts/screenshots.py`` opens the pages the
same way (:func:`open_rendered`) to take the screenshots in ``docs/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

from test_browser import (
    NOTEBOOKS,
    PAGE_TIMEOUT_MS,
    AppServer,
    PageWatch,
    assert_no_errors,
    draw_stop_page,
)
from test_browser_plain_words import FORBIDDEN

WIDTH, HEIGHT = 1280, 720
PAGES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
PLAY_PAGES = [p for p in PAGES if p.startswith("Play_") and draw_stop_page(NOTEBOOKS / p)]
SHOTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
SCREENSHOT_PAGES = {*(p for p in PAGES if p.startswith("Play_")),
                    "Lesson_1_Next_Card.ipynb", "Lesson_3_Turn_As_Markov_Chain.ipynb"}
#: A page's key content in projector mode: what the page marks (``pushluck-key``: the key
#: charts a projector switch is given, a lesson's main answer), the action buttons and the
#: coach's headline of a Play table, and the title (a Markdown output's first ``h1``; a later
#: ``h1``, such as the guide's appended rule book, is a section far down a long page).
KEY_SELECTOR = (".pushluck-key, .pushluck-action, .pushluck-headline, .pl-cell-main, "
                ":is(.jp-MarkdownOutput, .jp-RenderedMarkdown) h1:first-of-type")
#: Text nobody reads from the back of the room: the chart's own tool bar and hover labels, the
#: terminal command a teacher copies (the page's "check it yourself" line), and a chart's number
#: table written for screen readers (.pl-chart-numbers: drawn 1 px wide, never seen).
NOT_READ_FROM_AFAR = (".modebar-container, .hoverlayer, .pushluck-cli, .pushluck-copy, "
                      ".pl-cli-line, .pl-chart-numbers")

# The page streamed to its end (the app's template sets this after the last cell).
RENDERED = "() => window.pushluckRendered === true && document.readyState !== 'loading'"
# Every chart shown (a figure widget's view, class pl-chart) has drawn its plot.
CHARTS_DRAWN = """() => [...document.querySelectorAll('.pl-chart')].every(
    (p) => p.getBoundingClientRect().width === 0 || p.querySelector('.main-svg'))"""
SIZES = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .map((p) => Math.round(p.getBoundingClientRect().width)).join(',') + '|' +
    document.querySelector('#rendered_cells').scrollHeight"""

LAYOUT_REPORT = r"""([keySelector, quiet]) => {
  const W = window.innerWidth, H = window.innerHeight;
  const root = document.querySelector('#rendered_cells') || document.body;
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return false;
    }
    return true;
  };
  const name = (el) => (el.innerText || el.textContent || el.value || '').trim()
      .replace(/\s+/g, ' ').slice(0, 60) || el.className.baseVal || el.className;
  const canvas = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const el of root.querySelectorAll(
      'button, .widget-label, label, .widget-label-basic, .widget-readout, select')) {
    if (!shown(el)) continue;
    if (el.tagName === 'SELECT') {
      const option = el.options[el.selectedIndex];
      if (!option) continue;
      const s = getComputedStyle(el);
      canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      if (canvas.measureText(option.text).width > room + 1) cut.push('drop-down: ' + option.text);
    } else if (el.scrollWidth > el.clientWidth + 1) {
      cut.push(`${el.tagName.toLowerCase()}: ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  const probability = [], charts = [];
  const inside = (r, box) => r.left >= box.left - 2 && r.right <= box.right + 2 &&
                             r.top >= box.top - 2 && r.bottom <= box.bottom + 2;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom &&
                            b.top < a.bottom;
  for (const plot of root.querySelectorAll('.js-plotly-plot')) {
    if (!shown(plot) || !plot._fullLayout) continue;
    const full = plot._fullLayout;
    const title = (full.title && full.title.text || '').replace(/<br>/g, ' ');
    for (const key of Object.keys(full).filter((k) => /^yaxis\d*$/.test(k))) {
      const text = ((full[key].title && full[key].title.text) || '').replace(/<br>/g, ' ');
      if (!/probabilit|(^|\W)P\(|chance/i.test(text)) continue;
      const high = text.includes('%') ? 100 : 1;
      const [low, top] = full[key].range.map(Number);
      if (Math.min(low, top) < -1e-9 || Math.max(low, top) > high + 1e-9) {
        probability.push(`${title}: ${text} shows ${low.toFixed(3)}..${top.toFixed(3)}`);
      }
    }
    const box = plot.querySelector('.main-svg').getBoundingClientRect();
    const titles = [...plot.querySelectorAll('.gtitle, .g-xtitle text, .g-ytitle text, ' +
                                             '.g-y2title text')];
    for (const t of titles) {
      if (!inside(t.getBoundingClientRect(), box)) {
        charts.push(`${title}: '${t.textContent}' is cut at the chart's edge`);
      }
    }
    const chartTitle = plot.querySelector('.gtitle');
    const yTitle = plot.querySelector('.g-ytitle text');
    if (chartTitle && yTitle && overlap(chartTitle.getBoundingClientRect(),
                                        yTitle.getBoundingClientRect())) {
      charts.push(`${title}: the y-axis title '${yTitle.textContent}' runs into the title`);
    }
  }
  const small = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || el.closest(quiet) || el.closest('style, script')) {
      continue;
    }
    if (!shown(el)) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 15.95) small.push(`${Math.round(size * 10) / 10}px: ${name(el)}`);
  }
  const keys = [...root.querySelectorAll(keySelector)].filter(shown).map((el) => {
    const r = el.getBoundingClientRect();
    return {what: name(el), outside: r.bottom > H + 1 || r.right > W + 1 || r.top < -1 ||
                                      r.left < -1};
  });
  return {cut, probability, charts, small: [...new Set(small)], keys,
          projector: !!document.querySelector('.pl-projector-on'),
          pageWidth: document.documentElement.scrollWidth};
}"""


def settle(page) -> None:
    """Wait until the charts have drawn and the page's sizes stop changing."""
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)
    previous = None
    for _ in range(24):
        sizes = page.evaluate(SIZES)
        if sizes == previous:
            break
        previous = sizes
        page.wait_for_timeout(300)
    page.wait_for_timeout(300)


def settle_at_top(page) -> None:
    """:func:`settle`, then scroll to the top of the page and let it draw there."""
    settle(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)


def open_rendered(page, app: AppServer, notebook: str, *, projector: bool) -> PageWatch:
    """Open ``notebook`` (with ``?projector`` when asked), wait for the whole page and its
    charts, scroll to the top; the watch holds the page's errors."""
    watch = PageWatch(page)
    page.set_default_timeout(120_000)  # a long page (Lesson 6) keeps a loaded machine busy
    page.goto(app.url(notebook) + ("?projector" if projector else ""), timeout=PAGE_TIMEOUT_MS)
    page.wait_for_function(RENDERED, timeout=PAGE_TIMEOUT_MS)
    # the page's widgets are shown (every page has a projector switch), and in projector mode
    # the address switched it on
    switch = ".pl-projector-on" if projector else ".pl-projector-switch"
    page.wait_for_selector(f"{switch} .pushluck-projector-toggle", state="attached",
                           timeout=PAGE_TIMEOUT_MS)
    settle_at_top(page)
    return watch


def switch_projector(page, *, on: bool) -> None:
    """Click the page's "Projector mode" switch to ``on`` (as a teacher does mid-lesson), wait
    for the page to restyle and its charts to settle, and scroll to the top."""
    now = page.locator(".pl-projector-on").count() > 0
    if now != on:
        page.locator(".pushluck-projector-toggle").first.click()
    page.wait_for_selector(".pl-projector-on", state="attached" if on else "detached",
                           timeout=PAGE_TIMEOUT_MS)
    settle_at_top(page)


def check_layout(page, watch: PageWatch, where: str, *, projector: bool) -> None:
    """The layout checks of the module docstring on the page as it is now (scrolled to the
    top, nothing clicked yet)."""
    report = page.evaluate(LAYOUT_REPORT, [KEY_SELECTOR, NOT_READ_FROM_AFAR])
    text = page.inner_text("body")
    assert_no_errors(text, watch, where)
    # no solver internals on any page, lessons, lab and guide included (the Play pages' walk,
    # class names too: test_browser_plain_words.py; here labels run together, "CardsA")
    internals = [word for word in FORBIDDEN if word in text]
    assert internals == [], f"{where}: the page shows {internals}"
    assert report["cut"] == [], f"{where}: text cut off: {report['cut'][:6]}"
    assert report["probability"] == [], f"{where}: probability axes: {report['probability']}"
    assert report["charts"] == [], f"{where}: chart titles: {report['charts'][:6]}"
    assert report["pageWidth"] <= WIDTH, f"{where}: the page is {report['pageWidth']} px wide"
    if projector:
        assert report["projector"], f"{where}: the page has no projector switch"
        assert report["small"] == [], f"{where}: text under 16 px: {report['small'][:8]}"
        assert report["keys"], f"{where}: no key content marked ({KEY_SELECTOR})"
        outside = [key["what"] for key in report["keys"] if key["outside"]]
        assert outside == [], f"{where}: key content outside the first screen: {outside[:6]}"


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

FIT_REPORT = """(keys) => {
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


def wait_for_key_content(page, notebook: str, timeout_ms: float) -> None:
    """Wait until the page holds its key content (:data:`KEYS`: enough of each selector, the
    first with its text), shown or not: the page has drawn what matters."""
    for selector, count, text in KEYS[notebook]:
        page.wait_for_function(
            "([s, n, t]) => { const e = [...document.querySelectorAll(s)]; return e.length >= n"
            " && (!t || e[0].textContent.includes(t)); }", arg=[selector, count, text],
            timeout=timeout_ms)


def check_projector_fit(page, watch: PageWatch, notebook: str) -> None:
    """In projector mode: the page's clicks (:data:`CLICKS`), then its key numbers
    (:data:`KEYS`) inside the first screen, nothing sticking out or scrolling sideways; a
    screenshot of the pages in :data:`SCREENSHOT_PAGES`."""
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
    report = page.evaluate(FIT_REPORT, KEYS[notebook])
    if notebook in SCREENSHOT_PAGES:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"projector_{Path(notebook).stem}.png"))
    where = f"{notebook} (projector mode, after its clicks)"
    assert_no_errors(page.inner_text("body"), watch, where)
    assert report["pageWidth"] <= WIDTH, (where, report)
    assert report["sticking"] == [], (where, report)
    assert report["sideways"] == [], (where, report)
    for key in report["found"]:
        assert key["count"] >= key["wanted"], (where, key)
        assert key["wantedText"] in key["text"], (where, key)
        assert key["outside"] == 0, (where, "not in the first screen", key)
