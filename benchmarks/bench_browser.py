"""The app's speed in a real browser (headless Debian Chromium through Playwright).

Figures (seconds unless noted):

* ``open_cold_s``: page open -> table and charts visible, Voilà without a kernel pool (the kernel
  starts and runs the notebook while the page waits);
* ``open_warm_s``: the same with the warm kernel pool of ``voila.json`` (target <= 5 s);
* ``click_to_chart_ms``: click Draw / Roll -> a chart's data changed in the page (median; target
  <= 300 ms; the kernel's share, <= 150 ms, is the widget's own benchmark);
* ``lesson_click_to_chart_ms``: Lesson 4's "add 1000 simulations" -> chart redrawn;
* ``five_pages_s``: five game pages opened at once -> all five rendered;
* ``positions``: the Captain Seven page with relics, a position typed into "Set up a position"
  (the jack relic after one and after two cards) -> "Show this position" pressed -> the coach's
  numbers shown (``page_s``: the expected values and the recommendation; ``page_all_s``: the
  charts' distributions too, nothing on the page still working), beside the wall time of the
  page's own "check it yourself" command (``pushluck odds``, a new process) for the same
  position, and the ratio of the first to it (target <= 1.5).

Beside each open: the load average when it started, and the CPU seconds it cost the server with
its kernels (``server_cpu_s``) and the browser (``browser_cpu_s``, Chromium's own count): wall
times on a shared machine follow its load, CPU seconds much less.

Run: ``.venv/bin/python benchmarks/bench_browser.py [--quick | --positions] [--pool N]`` (needs
/usr/bin/chromium).  ``--quick``: only the warm Pig page (open, clicks) and the five pages;
``--positions``: only the set-up positions; ``--pool N``: the warm server's pool size (default:
voila.json's).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
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
    turn_option_on,
)

# A draw/stop table's Draw button, or the Lost Cities card table.
READY = ".pushluck-table .pushluck-action-draw, .pushluck-cardtable"
GAME_PAGES = sorted(p.name for p in NOTEBOOKS.glob("Play_*.ipynb"))
TIMEOUT_MS = 240_000


def wait_for_pools(server: VoilaServer, timeout: float = 300, times: int = 1) -> float:
    """Wait until the log says the warm kernel pool is full (``times`` times: once at start-up
    and once more after each page's kernel is replaced); return the seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        log = server.log_path.read_text(errors="replace")
        if len(re.findall(r"Warm pool: (\d+) of \1 kernels ready", log)) >= times:
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


def browser_cpu_seconds(browser) -> float:
    """CPU seconds used so far by all of Chromium's processes (its own count)."""
    session = browser.new_browser_cdp_session()
    try:
        info = session.send("SystemInfo.getProcessInfo")
    finally:
        session.detach()
    return sum(process.get("cpuTime", 0.0) for process in info["processInfo"])


def open_visible(browser, server: VoilaServer, notebook: str) -> tuple[object, float]:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    start = time.monotonic()
    page.goto(server.url(notebook), timeout=TIMEOUT_MS)
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
    page.wait_for_selector(".js-plotly-plot", state="visible", timeout=TIMEOUT_MS)
    return page, time.monotonic() - start


def measured_open(browser, server: VoilaServer, notebook: str) -> tuple[object, dict]:
    """``open_visible`` with the load average at its start and the CPU seconds it cost."""
    hz = os.sysconf("SC_CLK_TCK")
    load = os.getloadavg()[0]
    server_before = _tree_cpu_ticks(server.proc.pid)
    browser_before = browser_cpu_seconds(browser)
    page, seconds = open_visible(browser, server, notebook)
    return page, {
        "page": notebook, "open_s": round(seconds, 2), "load_average": round(load, 1),
        "server_cpu_s": round((_tree_cpu_ticks(server.proc.pid) - server_before) / hz, 2),
        "browser_cpu_s": round(browser_cpu_seconds(browser) - browser_before, 2),
    }


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


#: (label, the "Set up a position" fields) on the Captain Seven page with relics
RELIC_POSITIONS = (
    ("jack relic after 5h", {"--drawn": "5h", "--relic": "J"}),
    ("jack relic after 5h 9h", {"--drawn": "5h 9h", "--relic": "J"}),
    ("jack relic after Ah 2h", {"--drawn": "Ah 2h", "--relic": "J"}),
)
NO_PENDING = "() => !document.querySelector('.pushluck-pending')"
#: the page's hidden record of the numbers it states (``ui.analysis.numbers_hook``): its
#: expected value under optimal play, as a float
SHOWN_EV = """() => [...document.querySelectorAll('.pushluck-numbers-hook')]
  .map((h) => parseFloat(h.dataset.evOptimal)).filter((v) => !Number.isNaN(v))"""


def command_ev(command: str) -> float:
    """The expected value under optimal play that ``command`` prints (its ``--json``)."""
    done = subprocess.run(_venv_args(command) + ["--json"], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=600)
    return float(json.loads(done.stdout)["ev_optimal"])


def setup_to_numbers(page, fields: dict[str, str]) -> tuple[float, float, str]:
    """Seconds from "Show this position" to the coach's numbers (the expected value the page's
    command prints for the position) and to every number, and the page's command."""
    page.wait_for_function(NO_PENDING, timeout=TIMEOUT_MS)
    for flag, value in fields.items():
        page.locator(".widget-text").filter(has_text=flag).locator("input").first.fill(value)
    page.wait_for_timeout(500)
    command = "pushluck odds captain-seven " + " ".join(
        f"{flag} {shlex.quote(value)}" for flag, value in fields.items()) + \
        " --option relics=true"
    expected = command_ev(command)
    start = time.monotonic()
    page.get_by_role("button", name="Show this position").click()
    page.wait_for_function(
        f"(e) => ({SHOWN_EV})().some((v) => Math.abs(v - e) <= 1e-9 * Math.abs(e))",
        arg=expected, polling="raf", timeout=TIMEOUT_MS)
    coach = time.monotonic() - start
    page.wait_for_function(NO_PENDING, timeout=TIMEOUT_MS)
    shown = page.inner_text(".pushluck-cli")
    if shlex.split(shown) != shlex.split(command):
        raise SystemExit(f"the page's command {shown!r} is not {command!r}")
    return coach, time.monotonic() - start, command


def _venv_args(command: str) -> list[str]:
    args = shlex.split(command)
    args[0] = str(Path(sys.executable).with_name(args[0]))
    return args


def command_seconds(command: str) -> float:
    """Wall seconds of the page's own command line, run in a new process from the venv."""
    start = time.monotonic()
    subprocess.run(_venv_args(command), cwd=ROOT, check=True, capture_output=True, timeout=600)
    return time.monotonic() - start


def positions(browser, server: VoilaServer) -> list[dict]:
    """Each of :data:`RELIC_POSITIONS`: the page's time to its numbers, the command's."""
    page, _ = open_visible(browser, server, "Play_Captain_Seven.ipynb")
    rows = []
    try:
        turn_option_on(page, "relics")
        page.get_by_text("Set up a position", exact=True).first.click()
        for label, fields in RELIC_POSITIONS:
            page_s, page_all_s, command = setup_to_numbers(page, fields)
            command_s = command_seconds(command)
            rows.append({"position": label, "page_s": round(page_s, 2),
                         "page_all_s": round(page_all_s, 2), "command_s": round(command_s, 2),
                         "page_over_command": round(page_s / command_s, 2),
                         "command": command, "load_average": round(os.getloadavg()[0], 1)})
    finally:
        page.close()
    return rows


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def bench(*, quick: bool = False, only_positions: bool = False, pool: int | None = None
          ) -> dict:
    from playwright.sync_api import sync_playwright

    pages_opened = ["Play_Pig.ipynb"] if quick else GAME_PAGES
    figures: dict = {"pages": pages_opened, "load_average_at_start": os.getloadavg()[0]}
    pool_args = [] if pool is None else [f"--WarmKernelPool.pool_size={pool}"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
        try:
            if only_positions:
                warm = VoilaServer(*pool_args)
                try:
                    wait_for_pools(warm)
                    wait_for_quiet(warm)
                    figures["positions"] = positions(browser, warm)
                finally:
                    warm.stop()
                return figures
            if not quick:
                cold = VoilaServer("--WarmKernelPool.pool_size=0")
                try:
                    page, row = measured_open(browser, cold, "Play_Pig.ipynb")
                    figures["open_cold_s"] = row["open_s"]
                    figures["open_cold"] = row
                    clicks = click_to_chart(page, ".pushluck-action-draw")
                    figures["click_to_chart_ms_no_pool"] = _median(clicks)
                    figures["click_samples_no_pool"] = len(clicks)
                    page.close()
                finally:
                    cold.stop()

            warm = VoilaServer(*pool_args)
            try:
                wait_for_pools(warm)
                figures["pool_ready_s"] = round(wait_for_quiet(warm), 1)
                opens = []
                for notebook in pages_opened:
                    page, row = measured_open(browser, warm, notebook)
                    opens.append(row)
                    if notebook == "Play_Pig.ipynb":
                        figures["click_load_average"] = round(os.getloadavg()[0], 1)
                        clicks = click_to_chart(page, ".pushluck-action-draw")
                        figures["click_to_chart_ms"] = _median(clicks)
                        figures["click_samples"] = len(clicks)
                    page.close()
                    wait_for_quiet(warm)  # the pool refills the kernel this page took
                figures["open_warm_s"] = [row["open_s"] for row in opens]
                figures["open_warm_median_s"] = round(
                    statistics.median(row["open_s"] for row in opens), 2)
                figures["open_warm"] = opens

                if not quick:
                    page = browser.new_page(viewport={"width": 1400, "height": 1000})
                    page.goto(warm.url("Lesson_4_Exact_vs_Simulation.ipynb"),
                              timeout=TIMEOUT_MS)
                    page.wait_for_selector(".pushluck-lesson-add", timeout=TIMEOUT_MS)
                    lesson = click_to_chart(page, ".pushluck-lesson-add", clicks=3,
                                            timeout_ms=30_000)
                    figures["lesson_click_to_chart_ms"] = _median(lesson)
                    page.close()
                    figures["positions"] = positions(browser, warm)

                # the pool is full again (it refills once the pages have been quiet a while)
                hand_outs = len(pages_opened) + (0 if quick else 2)  # + Lesson 4, Captain Seven
                if pool != 0:
                    wait_for_pools(warm, times=1 + hand_outs)
                wait_for_quiet(warm)
                figures["five_pages_load_average"] = round(os.getloadavg()[0], 1)
                hz = os.sysconf("SC_CLK_TCK")
                server_before = _tree_cpu_ticks(warm.proc.pid)
                browser_before = browser_cpu_seconds(browser)
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
                figures["five_pages_server_cpu_s"] = round(
                    (_tree_cpu_ticks(warm.proc.pid) - server_before) / hz, 2)
                figures["five_pages_browser_cpu_s"] = round(
                    browser_cpu_seconds(browser) - browser_before, 2)
                for page in pages:
                    page.close()
            finally:
                warm.stop()
        finally:
            browser.close()
    figures["load_average_at_end"] = os.getloadavg()[0]
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="only the warm Pig page (open, clicks) and the five pages")
    parser.add_argument("--positions", action="store_true",
                        help="only the set-up positions: page against its command")
    parser.add_argument("--pool", type=int, default=None,
                        help="the warm server's pool size (default: voila.json's)")
    args = parser.parse_args(argv)
    figures = bench(quick=args.quick, only_positions=args.positions, pool=args.pool)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
