"""The app's speed in a real browser (headless Debian Chromium through Playwright).

Figures (seconds unless noted):

* ``open_cold_s``: page open -> table and charts visible, Voilà without a kernel pool (the kernel
  starts and runs the notebook while the page waits);
* ``open_warm_s``: the same with the warm kernel pool of ``voila.json`` (target <= 5 s);
* ``click_to_chart_ms``: click Draw / Roll -> a chart's data changed in the page (median; target
  <= 300 ms; the kernel's share, <= 150 ms, is the widget's own benchmark);
* ``lesson_click_to_chart_ms``: Lesson 4's "add 1000 simulations" -> chart redrawn;
* ``five_pages_s``: five game pages opened at once -> all five rendered.

Run: ``.venv/bin/python benchmarks/bench_browser.py`` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_browser import (  # noqa: E402  (shares the server/browser helpers of the test)
    CHART_DATA,
    CHROMIUM,
    CHROMIUM_ARGS,
    NOTEBOOKS,
    VoilaServer,
)

READY = ".pushluck-table .pushluck-action-draw"
GAME_PAGES = sorted(p.name for p in NOTEBOOKS.glob("Play_*.ipynb"))
TIMEOUT_MS = 240_000


def wait_for_pools(server: VoilaServer, timeout: float = 300) -> float:
    """Wait until the log says the warm kernel pool is full; return the seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        log = server.log_path.read_text(errors="replace")
        if re.search(r"Warm pool: (\d+) of \1 kernels ready", log):
            return time.monotonic() - start
        time.sleep(1)
    return float("nan")


def _tree_cpu_ticks(pid: int) -> int:
    """CPU ticks used by ``pid`` and its children (kernels), from /proc."""
    total = 0
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
        stack.extend(children.get(current, []))
    return total


def wait_for_quiet(server: VoilaServer, timeout: float = 240, window: float = 3.0) -> float:
    """Wait until Voilà and its kernels use under 10% of a core (the pool has finished running
    the notebooks); return the seconds waited."""
    start = time.monotonic()
    hz = os.sysconf("SC_CLK_TCK")
    while time.monotonic() - start < timeout:
        before = _tree_cpu_ticks(server.proc.pid)
        time.sleep(window)
        if (_tree_cpu_ticks(server.proc.pid) - before) / hz < 0.1 * window:
            return time.monotonic() - start
    return float("nan")


def open_visible(browser, server: VoilaServer, notebook: str) -> tuple[object, float]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    start = time.monotonic()
    page.goto(server.url(notebook), timeout=TIMEOUT_MS)
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
    page.wait_for_selector(".js-plotly-plot", state="visible", timeout=TIMEOUT_MS)
    return page, time.monotonic() - start


def click_to_chart(page, button: str, clicks: int = 5, timeout_ms: int = 10_000) -> list[float]:
    """Milliseconds from a click to the first change of any chart's data in the page."""
    times = []
    for _ in range(clicks):
        target = page.locator(f"{button}:not([disabled])").first
        target.wait_for(state="visible", timeout=60_000)
        before = page.evaluate(CHART_DATA)
        start = time.monotonic()
        target.click()
        try:
            page.wait_for_function(f"(b) => JSON.stringify(({CHART_DATA})()) !== "
                                   "JSON.stringify(b)", arg=before, polling="raf",
                                   timeout=timeout_ms)
        except Exception:  # noqa: BLE001 - a chart that never changes is reported as missing
            continue
        times.append(1000 * (time.monotonic() - start))
        page.wait_for_timeout(300)
    return times


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def bench() -> dict:
    from playwright.sync_api import sync_playwright

    figures: dict = {"pages": GAME_PAGES, "load_average_at_start": os.getloadavg()[0]}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
        try:
            cold = VoilaServer("--WarmKernelPool.pool_size=0")
            try:
                page, seconds = open_visible(browser, cold, "Play_Pig.ipynb")
                figures["open_cold_s"] = round(seconds, 2)
                clicks = click_to_chart(page, ".pushluck-action-draw")
                figures["click_to_chart_ms_no_pool"] = _median(clicks)
                figures["click_samples_no_pool"] = len(clicks)
                page.close()
            finally:
                cold.stop()

            warm = VoilaServer()
            try:
                wait_for_pools(warm)
                figures["pool_ready_s"] = round(wait_for_quiet(warm), 1)
                opens = []
                for notebook in GAME_PAGES:
                    page, seconds = open_visible(browser, warm, notebook)
                    opens.append(seconds)
                    if notebook == "Play_Pig.ipynb":
                        clicks = click_to_chart(page, ".pushluck-action-draw")
                        figures["click_to_chart_ms"] = _median(clicks)
                        figures["click_samples"] = len(clicks)
                    page.close()
                    wait_for_quiet(warm)  # the pool refills the kernel this page took
                figures["open_warm_s"] = [round(s, 2) for s in opens]
                figures["open_warm_median_s"] = round(statistics.median(opens), 2)

                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(warm.url("Lesson_4_Exact_vs_Simulation.ipynb"), timeout=TIMEOUT_MS)
                page.wait_for_selector(".pushluck-lesson-add", timeout=TIMEOUT_MS)
                lesson = click_to_chart(page, ".pushluck-lesson-add", clicks=3, timeout_ms=30_000)
                figures["lesson_click_to_chart_ms"] = _median(lesson)
                page.close()

                wait_for_quiet(warm)
                pages = [browser.new_page(viewport={"width": 1200, "height": 900})
                         for _ in GAME_PAGES[:5]]
                start = time.monotonic()
                for page, notebook in zip(pages, GAME_PAGES[:5], strict=True):
                    page.goto(warm.url(notebook), wait_until="commit", timeout=TIMEOUT_MS)
                rendered = 0
                for page in pages:
                    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
                    page.wait_for_selector(".js-plotly-plot", state="visible", timeout=TIMEOUT_MS)
                    rendered += 1
                figures["five_pages_s"] = round(time.monotonic() - start, 2)
                figures["five_pages_rendered"] = rendered
                for page in pages:
                    page.close()
            finally:
                warm.stop()
        finally:
            browser.close()
    figures["load_average_at_end"] = os.getloadavg()[0]
    return figures


def main() -> None:
    figures = bench()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
