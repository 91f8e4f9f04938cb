"""axe-core on a page after a short walk of it, as a student would use it: the walks, the audit
and the verdict, and the static site's pages.

Each page is rendered to its end, walked (a game played a few turns, a lesson's question
answered, the lab's tabs opened: :func:`walk`), and then checked by axe-core (pinned, from npm:
``tests/axe_core.py``).  A page fails on any serious or critical violation and on any
``region`` finding (content outside the page's landmarks) or ``heading-order`` finding, and on
a chart without a labelled number table (:func:`judge`).  The Voilà pages get this check in
``tests/test_browser_pages.py`` (every page, both modes, in the same visit as their layout
checks); here the static site's pages (built by ``scripts/build_site.sh``, served as
``tests/test_site.py`` serves them), some every run and the rest in the soak run.
Each page's findings are written to ``test-artifacts/axe/`` (``docs/accessibility.md``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_core import AXE_VERSION, failing, run_axe
from test_browser import (
    NOTEBOOKS,
    PAGE_TIMEOUT_MS,
    draw_stop_page,
)
from test_site import site_dir, site_url  # noqa: F401 - the static site's fixtures

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "test-artifacts" / "axe"
WIDTH, HEIGHT = 1280, 720
PAGES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
DRAW_STOP_PAGES = {p for p in PAGES if p.startswith("Play_") and draw_stop_page(NOTEBOOKS / p)}
MODES = ("normal", "projector")
RENDERED = "() => window.pushluckRendered === true && document.readyState !== 'loading'"
#: The static site's pages: the site runs the same widgets and styles as Voilà under its own
#: page template, so every run checks the start page, a draw/stop table, the card table and a
#: lesson there; the other pages (minutes each while Pyodide starts) in the scheduled soak run.
SITE_EVERY_RUN = {"00_Start_Here", "Play_Pig", "Play_Lost_Cities", "Lesson_1_Next_Card"}
#: Projector mode changes sizes and folds the page's text away, not the widgets: every run
#: checks it on the site's draw/stop table; every page in both modes in the soak run.
SITE_PROJECTOR_EVERY_RUN = {"Play_Pig"}


def page_modes(stems: list[str], every_run: set[str], projector_every_run: set[str]
               ) -> list[object]:
    """``(stem, mode)`` for every page in both modes; what is not checked every run is soak."""
    return [pytest.param(stem, mode, id=f"{stem}-{mode}", marks=() if stem in every_run and (
                mode == "normal" or stem in projector_every_run) else pytest.mark.soak)
            for stem in stems for mode in MODES]


STEMS = [Path(p).stem for p in PAGES]
SITE_PAGES = page_modes(STEMS, SITE_EVERY_RUN, SITE_PROJECTOR_EVERY_RUN)
#: Pyodide starts, installs its wheels and imports the package: minutes on a loaded machine
SITE_TIMEOUT_MS = 300_000
#: every chart is a labelled figure described by a number table (its own, or one written from
#: its data): what each chart's description holds
CHART_DESCRIPTIONS = """() => [...document.querySelectorAll('#rendered_cells .js-plotly-plot')]
  .filter((p) => p.querySelector('.main-svg'))
  .map((p) => {
    const ids = (p.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
    const described = ids.map((id) => document.getElementById(id)).filter(Boolean);
    const points = (p.data || []).reduce((n, t) => n + ['x', 'y', 'value'].filter(
        (k) => t[k] !== undefined && t[k] !== null && (typeof t[k] === 'number' ||
                                                       t[k].length || t[k].bdata)).length, 0);
    return {title: p.getAttribute('aria-label') || '', role: p.getAttribute('role') || '',
            points, pending: described.some((d) => d.querySelector('.pushluck-pending')),
            caption: described.map((d) => d.querySelector('caption')?.textContent || '')
                              .join(' '),
            cells: described.reduce((n, d) => n + d.querySelectorAll('td').length, 0)};
  })"""
WALK_MS = 60_000

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def context(browser) -> Iterator[object]:
    """The pages, Voilà's and the static site's, in one browser context of the file's Chromium
    (tests/conftest.py; a second Playwright on this thread would find the first's loop)."""
    browser_context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    try:
        yield browser_context
    finally:
        browser_context.close()


def _click_enabled(page, css: str) -> bool:
    """Click the first enabled match of ``css`` and let the page answer; False if none."""
    found = page.locator(f"{css}:not([disabled])")
    if not found.count():
        return False
    found.first.click(timeout=WALK_MS)
    page.wait_for_timeout(1500)
    return True


def walk_play(page) -> None:
    """A draw/stop table: three draws, then a stop (the bots then move)."""
    page.wait_for_selector(".pushluck-table .pushluck-action-draw", timeout=PAGE_TIMEOUT_MS)
    for _ in range(3):
        _click_enabled(page, ".pushluck-table .pushluck-action-draw")
    _click_enabled(page, ".pushluck-table .pushluck-action-stop")


def walk_lost_cities(page) -> None:
    """Lost Cities: a discard, then a draw from the deck (one whole turn)."""
    page.locator("button[class*='pushluck-action-discard-']").first.click(timeout=WALK_MS)
    deck = page.locator("button.pushluck-action-draw-deck")
    deck.wait_for(timeout=WALK_MS)
    deck.click(timeout=WALK_MS)
    page.locator("button[class*='pushluck-action-discard-']").first.wait_for(timeout=WALK_MS)


def walk_lesson(page) -> None:
    """A lesson: its first check-yourself question answered (wrong), its answer shown (a
    question projector mode folds away is left as it is)."""
    answers = page.locator(".pushluck-lesson-answer input:visible")
    if answers.count():
        answers.first.fill("0.5", timeout=WALK_MS)
        answers.first.press("Enter")
        page.wait_for_selector(".pushluck-lesson-feedback :text-matches('.')", timeout=WALK_MS)
    _click_enabled(page, ".pushluck-lesson-show:visible")
    _click_enabled(page, ".pushluck-lesson-add:visible")


def walk_lab(page) -> None:
    """The variant lab: every tab opened in turn."""
    tabs = page.locator(".pushluck-lab .lm-TabBar-tab")
    for index in range(tabs.count()):
        tabs.nth(index).click(timeout=WALK_MS)
        page.wait_for_timeout(2000)


def walk(page, notebook: str) -> None:
    if notebook in DRAW_STOP_PAGES:
        walk_play(page)
    elif notebook == "Play_Lost_Cities.ipynb":
        walk_lost_cities(page)
    elif notebook.startswith("Lesson_"):
        walk_lesson(page)
    elif notebook == "Variant_Lab.ipynb":
        walk_lab(page)


def record(name: str, violations: list[dict]) -> None:
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / f"{name}.json").write_text(json.dumps(
        {"axe": AXE_VERSION, "violations": violations}, indent=1), encoding="utf-8")


def describe(violations: list[dict]) -> str:
    return "; ".join(f"{v['id']} ({v['impact']}, {v['count']}): {v['targets'][:3]}"
                     for v in violations)


def check_charts(charts: list[dict], where: str) -> None:
    """Every chart is a labelled figure; one that shows data is described by a captioned table
    with its numbers (or, while the page still works them out, by the words saying so)."""
    for chart in charts:
        assert chart["role"] == "figure" and chart["title"], f"{where}: {chart}"
        if chart["points"] and not chart["pending"]:
            assert chart["caption"] and chart["cells"] > 0, (
                f"{where}: a chart without a number table: {chart}")


def wait_for_numbers(page) -> None:
    """Let the page finish the numbers it is working out (the coach's charts and tables)."""
    with contextlib.suppress(Exception):
        page.wait_for_function("() => !document.querySelector('.pushluck-pending')",
                               timeout=WALK_MS)


def audit(page) -> tuple[list[dict], list[dict]]:
    """After a page's walk: let its numbers finish, then axe's violations and its charts'
    descriptions."""
    wait_for_numbers(page)
    page.wait_for_timeout(1500)
    return run_axe(page), page.evaluate(CHART_DESCRIPTIONS)


def judge(report: str, where: str, violations: list[dict], charts: list[dict]) -> None:
    """Keep axe's findings under ``report`` and fail on a serious one or an undescribed chart."""
    record(report, violations)
    bad = failing(violations)
    assert bad == [], f"{where}: {describe(bad)}"
    check_charts(charts, where)


def test_every_page_is_listed():
    assert len(PAGES) >= 16, PAGES
    assert "Play_Lost_Cities.ipynb" in PAGES and "Variant_Lab.ipynb" in PAGES


@pytest.mark.slow
@pytest.mark.parametrize(("stem", "mode"), SITE_PAGES)
def test_site_page_has_no_serious_axe_violation(site_url, context, stem, mode):  # noqa: F811
    page = context.new_page()
    try:
        query = "?projector" if mode == "projector" else ""
        page.goto(f"{site_url}/voici/render/{stem}.html{query}", timeout=SITE_TIMEOUT_MS)
        page.wait_for_selector(".pushluck-projector-toggle", timeout=SITE_TIMEOUT_MS)
        if mode == "projector":
            page.wait_for_selector(".pl-projector-on", timeout=SITE_TIMEOUT_MS)
        with contextlib.suppress(Exception):
            page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120_000)
        walk(page, f"{stem}.ipynb")
        violations, charts = audit(page)
    finally:
        page.close()
    judge(f"site-{stem}-{mode}", f"site {stem} ({mode})", violations, charts)
