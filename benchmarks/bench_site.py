"""The static site (voici + Pyodide) beside the Voilà app, in headless Debian Chromium.

Figures (seconds unless noted):

* ``build_s``: ``scripts/build_site.sh`` into a scratch folder (wheels and Pyodide already
  cached in ``.site-build/``; the first build also downloads them);
* ``site_mb``: size of the built folder; ``first_load_mb``: bytes the first page open fetched;
* ``site_open_first_s``: a fresh browser profile opens a Play page -> table and charts visible
  (Pyodide starts, ~20 wheels install, the notebook runs, all in the browser);
* ``site_open_second_s``: the same page again in the same profile (HTTP cache warm);
* ``site_click_to_chart_ms`` / ``voila_click_to_chart_ms``: click Draw -> a chart's data changed
  (median of 5), in the browser kernel and in the Voilà app (warm kernel pool).

Run: ``.venv/bin/python benchmarks/bench_site.py [--site DIR] [--page Play_Pig]`` (``--site``
reuses a built site and skips the build figure).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_browser import (  # noqa: E402  (the Voilà benchmark's helpers)
    READY,
    TIMEOUT_MS,
    _median,
    click_to_chart,
    open_visible,
    wait_for_pools,
)
from test_browser import CHROMIUM, CHROMIUM_ARGS, VoilaServer, free_port  # noqa: E402


def folder_mb(folder: Path) -> float:
    return round(sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20, 1)


def build(output: Path) -> float:
    start = time.monotonic()
    subprocess.run(["scripts/build_site.sh", "--output", str(output)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return round(time.monotonic() - start, 1)


def kind(url: str) -> str:
    """What a fetched file is, for the first load's breakdown."""
    path = url.split("?")[0]
    for suffix, name in ((".whl", "wheels"), (".wasm", "wasm"), (".zip", "python_stdlib"),
                         (".js", "javascript"), (".json", "json")):
        if path.endswith(suffix):
            return name
    return "other"


def open_site_page(context, url: str, breakdown: dict | None = None
                   ) -> tuple[object, float, int]:
    page = context.new_page()
    fetched = [0]

    def count(response) -> None:
        length = response.headers.get("content-length")
        if length and response.status == 200:
            fetched[0] += int(length)
            if breakdown is not None:
                breakdown[kind(response.url)] = breakdown.get(kind(response.url), 0) + int(length)

    page.on("response", count)
    start = time.monotonic()
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_selector(READY, state="visible", timeout=TIMEOUT_MS)
    page.wait_for_selector(".js-plotly-plot", state="visible", timeout=TIMEOUT_MS)
    return page, round(time.monotonic() - start, 1), fetched[0]


def bench(site: Path | None, page_name: str) -> dict:
    from playwright.sync_api import sync_playwright

    figures: dict = {"page": page_name, "load_average_at_start": os.getloadavg()[0]}
    scratch = None
    if site is None:
        scratch = tempfile.TemporaryDirectory(prefix="pushluck-site-")
        site = Path(scratch.name) / "site"
        figures["build_s"] = build(site)
    figures["site_mb"] = folder_mb(site)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                               "127.0.0.1", "--directory", str(site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/voici/render/{page_name}.html"
    try:
        time.sleep(1)
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                viewport={"width": 1400, "height": 1000})
            try:
                breakdown: dict[str, int] = {}
                page, figures["site_open_first_s"], fetched = open_site_page(context, url,
                                                                             breakdown)
                figures["first_load_mb"] = round(fetched / 2**20, 1)
                figures["first_load_mb_by_kind"] = {
                    name: round(size / 2**20, 1) for name, size in sorted(breakdown.items())}
                page.close()
                page, figures["site_open_second_s"], _ = open_site_page(context, url)
                figures["site_click_to_chart_ms"] = _median(
                    click_to_chart(page, ".pushluck-action-draw", timeout_ms=60_000))
                page.close()
            finally:
                context.close()
            print(json.dumps(figures), file=sys.stderr, flush=True)  # the site's, before Voilà
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                 headless=True)
            voila = VoilaServer()
            try:
                wait_for_pools(voila)
                page, opened = open_visible(browser, voila, f"{page_name}.ipynb")
                figures["voila_open_warm_s"] = round(opened, 1)
                figures["voila_click_to_chart_ms"] = _median(
                    click_to_chart(page, ".pushluck-action-draw"))
                page.close()
            finally:
                voila.stop()
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
        if scratch is not None:
            scratch.cleanup()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description="static site vs Voilà app speed figures")
    parser.add_argument("--site", type=Path, help="a site already built (skips build_s)")
    parser.add_argument("--page", default="Play_Pig")
    args = parser.parse_args()
    print(json.dumps(bench(args.site, args.page), indent=2))


if __name__ == "__main__":
    main()
