"""The game review in a real browser: play a few turns of Pig against the optimal bot, open the
review, and compare every number it shows with ``pushluck review --json`` run on the record the
page's Download link saves; then open the game's ``?game=`` link on a fresh page and step back
through it.  One Voilà server for the file, each page visited once; any console error, or
traceback text on a page, fails the test."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from test_browser import VoilaServer  # the shared harness

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
PAGE_TIMEOUT_MS = 300_000
ARTIFACTS = ROOT / "test-artifacts"

#: the review's visible tables: each row's cells, and the chart's points
READ_REVIEW = """() => {
  const cells = (tr) => [...tr.querySelectorAll('td')].map(td => td.innerText.trim());
  const decisions = [...document.querySelectorAll('tr.pushluck-review-decision')].map(cells);
  const seats = [...document.querySelectorAll('tr.pushluck-review-seat')].map(cells);
  const plot = document.querySelector('.pushluck-review .js-plotly-plot');
  const decode = (v) => {
    if (!v || !v.bdata) return v ? Array.from(v) : [];
    const bytes = Uint8Array.from(atob(v.bdata), c => c.charCodeAt(0));
    const kinds = {f8: Float64Array, i4: Int32Array, i1: Int8Array, u1: Uint8Array,
                   i2: Int16Array, u2: Uint16Array, u4: Uint32Array, f4: Float32Array};
    return Array.from(new (kinds[v.dtype] || Float64Array)(bytes.buffer));
  };
  const line = plot && plot.data ? plot.data[0] : null;
  return {decisions, seats, chart_y: line ? decode(line.y) : []};
}"""


def points(value: float) -> str:
    return f"{value:.2f}"


def signed_points(value: float) -> str:
    return f"{value:+.2f}"


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def signed_percent(value: float) -> str:
    return f"{100 * value:+.1f}%"


@pytest.fixture(scope="module")
def server(shared_voila: VoilaServer) -> VoilaServer:
    """The worker's shared server (tests/conftest.py), as other browser files use it."""
    return shared_voila


def open_page(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".pushluck-table .pushluck-review-button", timeout=PAGE_TIMEOUT_MS)
    return page, errors


def click_action(page, action: str) -> None:
    """Click ``action`` (or Roll when the turn starts over) once the bots have moved: found
    and clicked in one step in the page, so a button that is disabled between finding and
    clicking it (the bot's turn starting) is never waited for."""
    before = page.locator(".pushluck-record-size").inner_text()
    page.wait_for_function("""(action) => {
        const enabled = (name) => document.querySelector(
            `.pushluck-table .pushluck-action-${name}:not([disabled])`);
        const button = enabled(action) || enabled('draw');
        if (!button) return false;
        button.click();
        return true;
    }""", arg=action, timeout=PAGE_TIMEOUT_MS)
    page.wait_for_function("(before) => { const s = document.querySelector("
                           "'.pushluck-record-size'); return s && s.innerText !== before; }",
                           arg=before, timeout=PAGE_TIMEOUT_MS)


def no_traceback(page, where: str) -> None:
    text = page.inner_text("body")
    assert "Traceback" not in text and "Error(" not in text, f"{where}: {text[-800:]}"


def test_review_of_a_played_game_matches_the_command(server, browser, tmp_path) -> None:
    page, errors = open_page(browser, server.url("Play_Pig.ipynb"))
    for _ in range(3):  # three turns: roll, roll, bank (the bot answers each)
        for action in ("draw", "draw", "stop"):
            click_action(page, action)
    page.wait_for_selector(".pushluck-table .pushluck-action:not([disabled])",
                           timeout=PAGE_TIMEOUT_MS)
    page.locator(".pushluck-review-button").click()
    page.wait_for_selector("tr.pushluck-review-decision", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_timeout(1500)
    shown = page.evaluate(READ_REVIEW)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".pushluck-review").screenshot(path=str(ARTIFACTS / "review-pig.png"))
    page.locator(".pushluck-review-scroll").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "review-pig-rows.png"))

    href = page.locator("a.pushluck-record-download").get_attribute("href")
    assert href and href.startswith("data:application/json;base64,")
    record_file = tmp_path / "game.json"
    record_file.write_bytes(base64.b64decode(href.partition(",")[2]))
    recorded = json.loads(record_file.read_text(encoding="utf-8"))
    assert len(shown["decisions"]) == len(recorded["moves"]), "a row for every move"
    result = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", "review",
                             str(record_file), "--json"], capture_output=True, text=True,
                            timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    review = json.loads(result.stdout)

    assert len(shown["decisions"]) == len(review["decisions"]) >= 9
    for row, decision in zip(shown["decisions"], review["decisions"], strict=True):
        assert row[0] == str(decision["move"] + 1)
        assert row[6] == points(decision["cost"]), (row, decision)
        assert row[7] == decision["win_best_label"], (row, decision)
        assert row[8] == percent(decision["win_cost"]), (row, decision)
        assert ("costly" in row[9]) == decision["costly"]
    assert len(shown["seats"]) == len(review["seats"]) == 2
    for row, seat in zip(shown["seats"], review["seats"], strict=True):
        assert row[1:7] == [str(seat["decisions"]), str(seat["costly"]), points(seat["result"]),
                            points(seat["expected"]), points(seat["skill"]),
                            signed_points(seat["luck"])], (row, seat)
        assert row[7] == percent(seat["win_start"])
        assert row[9:12] == [percent(seat["win_skill"]), percent(seat["win_gifts"]),
                             signed_percent(seat["win_luck"])], (row, seat)
    assert shown["chart_y"] == pytest.approx([p["chance"] for p in review["win_series"]],
                                             abs=1e-9)
    # the optimal bot plays every turn for the most points: it gives none away
    assert all(row[6] == "0.00" for row in shown["decisions"] if "bot" in row[1])
    no_traceback(page, "Play_Pig review")
    assert errors == [], errors[:5]

    token = page.locator(".pushluck-record-link").get_attribute("data-token")
    moves = len(recorded["moves"])
    page.close()
    linked, link_errors = open_page(browser, server.url("Play_Pig.ipynb") + "?game="
                                    + quote(token))
    linked.wait_for_selector(".pushluck-replay-count", timeout=PAGE_TIMEOUT_MS)
    assert f"move {moves} of {moves}" in linked.inner_text(".pushluck-replay-count")
    linked.locator(".pushluck-replay-back").click()
    linked.wait_for_function(f"() => document.querySelector('.pushluck-replay-count')"
                             f".innerText.includes('move {moves - 1} of')",
                             timeout=PAGE_TIMEOUT_MS)
    assert linked.locator(".pushluck-table .pushluck-action:not([disabled])").count() == 0
    linked.screenshot(path=str(ARTIFACTS / "replay-pig.png"))
    linked.locator(".pushluck-record-paste input").fill("?game=damaged")
    linked.locator(".pushluck-record-load").click()
    linked.wait_for_selector(".pushluck-record-message .pushluck-message-error",
                             timeout=60_000)
    message = linked.inner_text(".pushluck-record-message")
    assert "damaged" in message and "\n" not in message.strip()
    no_traceback(linked, "Play_Pig ?game=")
    assert link_errors == [], link_errors[:5]
