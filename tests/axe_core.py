"""axe-core for the browser tests, and the short walk of a page a student makes before it.

``npm pack axe-core@AXE_VERSION`` (as ``scripts/build_site.sh`` fetches Pyodide) writes the
package's tarball into ``.axe-core/``; its ``axe.min.js`` is what the tests inject into a page.
A missing npm is a failure with one clear line, never a skip.

Before the check a page is walked as a student would use it (:func:`walk`: a game played a few
turns, a lesson's question answered, the lab's tabs opened); then :func:`audit` lets its numbers
finish and runs axe, and :func:`judge` fails a page on any serious or critical violation, any
``region`` finding (content outside the page's landmarks) or ``heading-order`` finding, and any
chart that is not a labelled figure with a captioned number table.  Each page's findings are
written to ``test-artifacts/axe/``.  The Voilà pages are checked in
``tests/test_browser_pages.py``, the static site's in ``tests/test_site.py``.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest
from test_browser import NOTEBOOKS, PAGE_TIMEOUT_MS, draw_stop_page

AXE_VERSION = "4.14.1"
CACHE = Path(__file__).resolve().parents[1] / ".axe-core"
#: rules whose findings fail a page whatever their impact: content outside landmarks, a
#: heading level skipped (a screen reader's outline of the page)
ALWAYS_FAIL = frozenset({"region", "heading-order"})
FAILING_IMPACTS = frozenset({"serious", "critical"})

#: axe.run on the whole document; each violation as {id, impact, count, targets}
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    targets: v.nodes.slice(0, 6).map((n) => n.target.join(' ') + ' | ' +
      (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}));
}"""


def axe_source() -> str:
    """The text of axe-core's ``axe.min.js`` at :data:`AXE_VERSION` (fetched on first use)."""
    script = CACHE / f"axe-core-{AXE_VERSION}" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("npm is needed to fetch axe-core for the accessibility test "
                        "(apt-get install npm; .ci/run installs it)", pytrace=False)
        CACHE.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination",
                               str(CACHE)], capture_output=True, text=True, timeout=300)
        tarball = CACHE / f"axe-core-{AXE_VERSION}.tgz"
        if done.returncode != 0 or not tarball.exists():
            pytest.fail(f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-500:]}",
                        pytrace=False)
        with tarfile.open(tarball) as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None, f"{tarball} has no package/axe.min.js"
            script.parent.mkdir(parents=True, exist_ok=True)
            script.write_bytes(member.read())
    return script.read_text(encoding="utf-8")


def run_axe(page) -> list[dict]:
    """Every axe-core violation on ``page`` now (axe is injected if the page has none)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(RUN_AXE)


def failing(violations: list[dict]) -> list[dict]:
    """The violations that fail a page: serious or critical, and every finding of
    :data:`ALWAYS_FAIL`."""
    return [v for v in violations if v["impact"] in FAILING_IMPACTS or v["id"] in ALWAYS_FAIL]


ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "test-artifacts" / "axe"
PAGES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
DRAW_STOP_PAGES = {p for p in PAGES if p.startswith("Play_") and draw_stop_page(NOTEBOOKS / p)}
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
