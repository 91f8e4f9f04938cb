"""The variant lab page in a real browser (issue 11): build a game through the form, play a
turn, check the page's bust chance against ``pushluck odds custom --rules``, and open a
``?rules=`` link.  Reuses the app harness of ``tests/test_browser.py`` (Voilà on a loopback
port, Debian Chromium through Playwright; a missing browser is a failure)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from pushluck_cli import run_pushluck
from test_browser import (  # the shared harness (pytest puts tests/ on the path)
    VoilaServer,
    assert_clean,
    open_page,
    stop_and_check_log,
)

from pushluck_teach.games.custom import HIT_LIST_RULES
from pushluck_teach.games.rules_format import rules_to_token

pytestmark = pytest.mark.browser
PAGE = "Variant_Lab.ipynb"

READ_CLI = """() => {
  const cli = document.querySelector('.pushluck-table .pushluck-cli');
  const bust = document.querySelector('.pushluck-table .pushluck-p-bust');
  if (!cli || !bust) return null;
  return {flags: cli.dataset.flags, rules: cli.dataset.rules || null, exact: bust.dataset.exact};
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[VoilaServer]:
    srv = VoilaServer()
    try:
        yield srv
    finally:
        stop_and_check_log(srv)


def _odds(rules: str, flags: dict[str, str], tmp_path) -> dict:
    path = tmp_path / "RULES.json"
    path.write_text(rules, encoding="utf-8")
    args = ["odds", "custom", "--rules", str(path), "--json", "--exact"]
    for key, value in flags.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    done = run_pushluck(*args)  # in this process; the file's rules change between calls
    assert done.status == 0, done.stderr
    return json.loads(done.stdout)


def _settled(page, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        now = page.evaluate(READ_CLI)
        if now is not None and now == last and now["flags"] != "{}":
            return now
        last = now
        page.wait_for_timeout(400)
    raise AssertionError(f"the table's position did not settle: {last}")


def test_build_play_and_check_against_the_cli(server, browser, tmp_path) -> None:
    page, watch = open_page(browser, server, PAGE, ".pushluck-lab-form .pushluck-lab-play")
    page.locator(".pushluck-lab-preset select").select_option(label="Pig (built)")
    page.wait_for_timeout(1000)
    name = page.locator(".pushluck-lab-name input")
    name.fill("Classroom Pig")
    name.press("Enter")
    page.wait_for_timeout(1000)
    page.locator(".pushluck-lab-play").click()
    draw = page.locator(".pushluck-table .pushluck-action-draw:not([disabled])").first
    draw.wait_for(state="visible", timeout=120_000)
    draw.click()
    shown = _settled(page)
    assert shown["rules"] and "Classroom Pig" in shown["rules"]
    odds = _odds(shown["rules"], json.loads(shown["flags"]), tmp_path)
    assert shown["exact"] == odds["p_bust_next_exact"] == "1/6"
    assert_clean(page, watch, PAGE)
    page.close()


def test_a_rules_link_opens_its_game(server, browser) -> None:
    rules = HIT_LIST_RULES.replace(name="Linked heist", remove_ranks=("A",))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server.url(PAGE) + "?rules=" + rules_to_token(rules), timeout=180_000)
    page.wait_for_selector(".pushluck-lab-link :text('Linked heist')", timeout=180_000)
    page.wait_for_selector(".pushluck-table .pushluck-action-draw", timeout=120_000)
    assert page.locator(".pushluck-lab-name input").input_value() == "Linked heist"
    page.close()
