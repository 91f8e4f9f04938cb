"""Screenshots of every page at 1280x720, in normal and projector mode, into docs/screenshots/.

    PYTHONPATH=. .venv/bin/python scripts/screenshots.py [PAGE_STEM ...]

Starts the app the way the browser tests do (``scripts/run_app.sh`` on a free port), opens each
notebook page in Debian's Chromium (``/usr/bin/chromium``, or ``$PUSHLUCK_CHROMIUM``) once
without and once with ``?projector``, waits until the page has rendered and its charts have
drawn, and saves what a 1280x720 screen shows at load: ``docs/screenshots/<page>.png`` and
``docs/screenshots/<page>-projector.png``.  Old screenshots in that folder are removed first
(all of them, or only the named pages' when page stems are given).  The waiting and the page
list are the layout checks' (``tests/page_checks.py``), so the pictures show what those
checks see.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT / "tests"))

from page_checks import HEIGHT, PAGES, WIDTH, open_rendered  # noqa: E402
from test_browser import AppServer, launch_chromium  # noqa: E402


def main(argv: list[str]) -> int:
    """Take the screenshots of the pages named in ``argv`` (stems), or of every page."""
    unknown = [stem for stem in argv if f"{stem}.ipynb" not in PAGES]
    if unknown:
        print(f"screenshots.py: no page named {', '.join(unknown)} (pages: "
              f"{', '.join(Path(p).stem for p in PAGES)})", file=sys.stderr)
        return 2
    pages = [f"{stem}.ipynb" for stem in argv] or PAGES
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        if not argv or old.stem.removesuffix("-projector") in argv:
            old.unlink()
    from playwright.sync_api import sync_playwright

    failed: list[str] = []
    app = AppServer()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for notebook in pages:
                for projector in (False, True):
                    name = Path(notebook).stem + ("-projector" if projector else "")
                    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
                    try:
                        open_rendered(page, app, notebook, projector=projector)
                        page.screenshot(path=str(SHOTS / f"{name}.png"), timeout=120_000)
                        print(f"docs/screenshots/{name}.png", flush=True)
                    except Exception as error:  # noqa: BLE001 - reported, the others still taken
                        failed.append(name)
                        print(f"screenshots.py: {name}: {str(error).splitlines()[0]}",
                              file=sys.stderr, flush=True)
                    finally:
                        page.close()
            browser.close()
    finally:
        app.stop()
    if failed:
        print(f"screenshots.py: no screenshot of {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
