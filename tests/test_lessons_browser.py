"""The lesson pages in a real browser (Debian chromium through Playwright): every page, once
its work is done, has only charts with data, logs no console error and shows no error text;
after Show answer, the numbers a student reads on Lessons 1, 2, 3, 5, 6 and 7 (the visible text
and each chart bar's value and label, read from the Plotly figure in the page) equal an
independent source: hand counts written here, ``scripts/teaching_answers.py`` and the tests'
own references (``lessons_reference``, ``pig_by_hand``, ``lost_cities_reference``), none of
which imports the package; Lesson 6's explorer shows its advice for 0 against 0 and changes
it when the first slider moves; Lesson 4's button adds simulated turns; Lesson 6 draws with the
package's plotly bundle.  Each page is opened once.  (Typed answers are checked by the
widget tests, not here.)

The app is started with the README's command, ``scripts/run_app.sh`` (``--no-install``: the
test runs inside an installed environment).
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from urllib.parse import urlparse

import pytest
from teaching_answers_script import TA  # the lessons' answers by hand
from test_browser import (  # the shared harness (pytest puts tests/ on the path)
    NOTEBOOKS,
    TRACEBACK_MARKERS,
    WIDGET_ERRORS,
    AppServer,
    stop_and_check_log,
)

LESSONS = sorted(p.name for p in NOTEBOOKS.glob("Lesson_*.ipynb"))
PAGE_TIMEOUT_MS = 240_000
#: What shows a lesson page has rendered: its first chart, or for a lesson that draws none
#: before the student plays (Lesson 8: a Pig table with the coach off) its table's button.
READY = {"Lesson_8_Luck_Or_Skill.ipynb": ".pushluck-review-button"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    server = AppServer("--pool", "0")
    try:
        yield server.base
    finally:
        stop_and_check_log(server)


def _open(browser, url: str, requests: list[str] | None = None, ready: str = ".js-plotly-plot"):
    page = browser.new_page(viewport={"width": 1400, "height": 3000})
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    if requests is not None:
        page.on("request", lambda request: requests.append(request.url))
    page.goto(url, timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(ready, state="visible", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_function("() => document.body.classList.contains('voila-finished') || "
                           "!document.querySelector('.voila-spinner, #loading')",
                           timeout=PAGE_TIMEOUT_MS)
    page.wait_for_timeout(1500)
    return page, errors


@pytest.mark.parametrize("notebook", LESSONS)
def test_lesson_page_has_no_console_error_and_no_empty_chart(app, browser, notebook):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    requests: list[str] = []
    page, errors = _open(browser, f"{app}/voila/render/{notebook}", requests,
                         READY.get(notebook, ".js-plotly-plot"))
    # A trace has data when x, y or z has points (z may come as plotly's typed-array spec
    # {dtype, bdata}) or when it is an indicator with a value; charts a student sees count (a
    # coach that is off keeps its charts hidden and empty).
    shown = "() => [...document.querySelectorAll('.js-plotly-plot')]" \
            ".filter(p => p.getClientRects().length > 0)" \
            ".map(p => (p.data || []).some(t => [t.x, t.y, t.z].some(" \
            "v => v && (v.length > 0 || (v.bdata && v.bdata.length > 0)))" \
            " || t.value !== undefined))"
    # charts whose numbers are computed off the click path (Lesson 5's side-by-side rule
    # sets) fill in once their work is done: wait for that, then every chart must have data
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({shown})().every(Boolean)", timeout=PAGE_TIMEOUT_MS)
    drawn = page.evaluate(shown)
    assert (drawn or notebook in READY) and all(drawn), f"{notebook}: a chart is empty: {drawn}"
    check_numbers = LESSON_NUMBERS.get(notebook)
    if check_numbers is not None:
        check_numbers(page)
    if notebook == "Lesson_6_Winning_The_Game.ipynb":
        check_the_package_s_plotly_bundle(page, requests)
    text = page.inner_text("body")
    for marker in TRACEBACK_MARKERS:
        assert marker not in text, f"{notebook}: the page shows {marker!r}"
    for marker in WIDGET_ERRORS:
        assert marker not in text.lower(), f"{notebook}: a widget shows {marker!r}"
    assert errors == [], f"{notebook}: {errors[:5]}"
    page.close()


# ---- the numbers a student reads, against independent sources ----------------------------




CHARTS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(d => ({
  title: (d.layout && d.layout.title && d.layout.title.text) || '',
  traces: (d.data || []).map(t => ({name: t.name || '', x: Array.from(t.x || []),
                                    y: Array.from(t.y || []), text: t.text}))}))"""
TABLE_ROWS = """(css) => Array.from(document.querySelectorAll(css)).map(table =>
  Array.from(table.querySelectorAll('tr')).map(row =>
    Array.from(row.querySelectorAll('th, td')).map(cell => cell.innerText.trim())))"""


def show_every_answer(page) -> None:
    """Press every Show answer button (the lesson's numbers appear with the answer)."""
    buttons = page.locator(".pushluck-lesson-show")
    for index in range(buttons.count()):
        if buttons.nth(index).is_visible():
            buttons.nth(index).click()
    page.wait_for_timeout(1000)


def chart(page, title: str) -> list[dict]:
    """The traces of the chart whose title starts with ``title`` (waits for it)."""
    page.wait_for_function(f"() => ({CHARTS})().some(c => c.title.startsWith({title!r}) && "
                           "c.traces.some(t => t.y.length > 0))", timeout=PAGE_TIMEOUT_MS)
    return next(c["traces"] for c in page.evaluate(CHARTS) if c["title"].startswith(title))


def close(shown: float | None, expected: Fraction | float, tolerance: float = 1e-9) -> bool:
    return shown is not None and abs(shown - float(expected)) <= tolerance * max(
        1.0, abs(float(expected)))


def value_shown(text: str) -> Fraction:
    """A number as the page writes it: ``9.060 (= 453/50)`` is 453/50, ``21`` is 21,
    ``9/49 ≈ 0.1837`` is 9/49 (the exact part when there is one)."""
    exact = re.search(r"(-?\d+/\d+)", text)
    return Fraction(exact.group(1)) if exact else Fraction(text.split()[0])


def check_lesson_1(page) -> None:
    """Lands Uncharted after 5h 9s: no probability before the question is answered; after
    Show answer the page's chance to bust is the hand count (six bust cards of 50)."""
    assert page.locator(".pushluck-lesson-pbust").count() == 0
    show_every_answer(page)
    page.wait_for_selector(".pushluck-lesson-pbust", timeout=PAGE_TIMEOUT_MS)
    exact = page.get_attribute(".pushluck-lesson-pbust", "data-exact")
    assert exact == str(TA.lesson1()) == "3/25"


def check_the_package_s_plotly_bundle(page, requests: list[str]) -> None:
    """The page loads the package's plotly bundle (``pushluck_teach/ui/static``) once, and not
    plotly's 5 MB widget bundle: its plotly.js is the bundle's version with exactly the trace
    types the bundle's first line names (Lesson 6 draws the 3-D surface with it)."""
    from test_plotly_bundle import bundle_banner

    (major, minor, patch), traces = bundle_banner()
    drawn = page.evaluate("""() => ({
        version: globalThis.Plotly.version,
        traces: Object.keys(globalThis.Plotly.PlotSchema.get().traces).sort(),
        surfaces: Array.from(document.querySelectorAll('.js-plotly-plot'))
            .filter((el) => (el.data || []).some((trace) => trace.type === 'surface')).length})""")
    assert drawn["version"] == f"{major}.{minor}.{patch}"
    assert set(drawn["traces"]) == traces
    assert drawn["surfaces"] == 1
    bundles = [url for url in requests if url.endswith(".js") and "plotly" in url]
    assert [urlparse(url).path.rsplit("/", 2)[-2:] for url in bundles] == [
        ["pushluck-plotly", "plotly-pushluck.min.js"]], bundles


def check_lesson_4(page) -> None:
    """The button adds 1000 simulated turns: the message says so and the chart's simulated
    trace is redrawn from its synced data."""
    page.click(".pushluck-lesson-add")
    page.wait_for_function(
        "() => (document.querySelector('.pushluck-lesson-sim') || {}).innerText"
        "?.includes('After 1000 turns')", timeout=60_000)
    page.wait_for_function(
        "() => (document.querySelector('.js-plotly-plot')?.data?.[2]?.x?.length || 0) > 10",
        timeout=60_000)


def check_lesson_2(page) -> None:
    """Hit List, job 9h 6c: stop 15; one more card then stop 453/50 (counted by hand in
    teaching_answers); optimal play by the tests' own Hit List solver.  Pig's chart: from turn
    total t one more roll then holding is worth (5t + 20)/6; optimal play from 0 is
    teaching_answers' turn-optimal value."""
    show_every_answer(page)
    import lessons_reference

    optimal = lessons_reference.hit_list_turn(["9", "6"])[0]
    bars = chart(page, "High-Stakes Hit List: this position")[0]
    assert bars["x"] == ["stop now", "draw once, then stop", "optimal play"]
    for shown, expected in zip(bars["y"], (15, TA.lesson2(), optimal), strict=True):
        assert close(shown, expected), (bars["y"], expected)
    assert bars["text"][1] == "9.060 (= 453/50)" and TA.lesson2() == Fraction(453, 50)
    rows = {row[0]: row[1] for row in page.evaluate(TABLE_ROWS, ".pushluck-lesson-values")[0]}
    assert value_shown(rows["draw once, then stop"]) == TA.lesson2()
    assert value_shown(rows["stop now"]) == 15 and close(float(value_shown(rows["optimal play"])),
                                                         optimal, 1e-3)
    assert "The exact answer: 9.060 (= 453/50)" in page.inner_text("body")
    lines = {t["name"]: dict(zip(t["x"], t["y"], strict=True))
             for t in chart(page, "Stop, draw once, or play on?")}
    for total, shown in lines["draw once, then stop"].items():
        assert close(shown, Fraction(5 * int(total) + 20, 6)), (total, shown)
    assert close(lines["optimal play"]["0"], TA.pig_turn(None)[1])


def check_lesson_3(page) -> None:
    """Pig held at 20: the expected number of rolls and each result's absorption probability
    (exact and SciPy's) against teaching_answers' own walk over the turn totals."""
    show_every_answer(page)
    rolls, _ = TA.pig_turn(20)
    by_hand = TA.pig_turn_distribution(20)
    text = page.inner_text(".pushluck-lesson-chain")
    found = re.search(r"Expected draws before absorption \(N·d\): [\d.]+ \(= (\d+/\d+)\)", text)
    assert found and Fraction(found.group(1)) == rolls, text[:300]
    assert f"The exact answer: {float(rolls):.3f} (= {rolls})" in page.inner_text("body")
    table = next(t for t in page.evaluate(TABLE_ROWS, ".pushluck-lesson-chain table")
                 if t and t[0][:2] == ["result", "absorption probability (exact)"])
    shown = {int(row[0]): row[1:] for row in table[1:]}
    assert set(shown) == set(by_hand)
    for result, (exact, scipy) in shown.items():
        if "/" in exact:
            assert value_shown(exact) == by_hand[result], (result, exact)
        assert f"{float(by_hand[result]):.4f}" in exact, (result, exact)
        assert abs(float(scipy) - float(by_hand[result])) <= 1e-6, (result, scipy)


def check_lesson_5(page) -> None:
    """Lands Uncharted, haul 5 7 9 (21), 49 cards left: nine cards repeat a rank; one more
    card then banking, by hand: 16 threats and aces keep 21 (26 with buried treasure), the 24
    other numbers bank 21 + their rank.  Optimal play and B - A by teaching_answers' solver."""
    show_every_answer(page)
    standard = TA.lands_uncharted_turn([5, 9, 7], False)
    buried = TA.lands_uncharted_turn([5, 9, 7], True)
    others = 4 * (2 + 3 + 4 + 6 + 8 + 10)
    expected = {
        "A: standard rules": {"P(next draw busts)": Fraction(9, 49), "stop now": 21,
                              "draw once, then stop": Fraction(16 * 21 + 24 * 21 + others, 49),
                              "optimal play": standard, "best action": "stop"},
        "B: Buried treasure": {"P(next draw busts)": Fraction(9, 49), "stop now": 26,
                               "draw once, then stop": Fraction(16 * 26 + 24 * 21 + others, 49),
                               "optimal play": buried, "best action": "stop"},
    }
    tables = page.evaluate(TABLE_ROWS, ".pushluck-lesson-variant")
    captions = page.eval_on_selector_all(".pushluck-lesson-variant caption",
                                         "els => els.map(e => e.innerText.trim())")
    assert captions == list(expected)
    for caption, rows in zip(captions, tables, strict=True):
        shown = {row[0]: row[1] for row in rows if len(row) == 2}
        for name, value in expected[caption].items():
            assert (shown[name] == value if isinstance(value, str)
                    else value_shown(shown[name]) == value), (caption, name, shown[name])
    assert f"The exact answer: {buried - standard}" in page.inner_text("body")
    bars = {t["name"]: dict(zip(t["x"], t["y"], strict=True))
            for t in chart(page, "This turn's result under optimal play")}
    assert bars == {"A: standard rules": {"21": 1, "26": 0},
                    "B: Buried treasure": {"21": 0, "26": 1}}


@functools.cache
def odds(hand: str, deck_left: int):
    """Red's odds by ``lost_cities_reference`` (nothing played or seen), once per position."""
    import lost_cities_reference as reference

    return reference.odds(reference.colour_cards(hand, "R"), [], [], deck_left)


BET_ROW = re.compile(r"^(R[\w ]+, deck \d+)\s+(-?[\d.]+)\s+([\d.]+)\s+(-?[\d.]+)$")


def check_lesson_7(page) -> None:
    """Lost Cities: the opening bet's chart (each final score's bar) and every row of the bet
    table against ``lost_cities_reference`` (the rules' plan walked again in fractions), and
    the check-yourself answer against counting the orders of the 11 unseen cards."""
    show_every_answer(page)
    opening = odds("R4 R6 R9", 30)
    bars = chart(page, "Final red score under the plan")[0]
    shown = dict(zip(bars["x"], bars["y"], strict=True))
    assert set(shown) == {str(score) for score in opening.distribution}
    for score, chance in opening.distribution.items():
        assert close(shown[str(score)], chance), (score, shown[str(score)], chance)
    assert f"mean {float(opening.mean):.3f}, P(score > 0) = {float(opening.p_positive):.4f}" \
        in page.inner_text("body")
    rows = [BET_ROW.match(line.strip()) for line in page.inner_text("body").splitlines()]
    rows = [row for row in rows if row]
    assert len(rows) == 5, [row.group(0) for row in rows]
    for row in rows:
        hand, deck_left = row.group(1).split(", deck ")
        plan, raised = odds(hand, int(deck_left)), odds("RH " + hand, int(deck_left))
        assert [row.group(2), row.group(3), row.group(4)] == [
            f"{float(plan.mean):.3f}", f"{float(plan.p_positive):.3f}",
            f"{float(raised.mean):.3f}"], row.group(0)
    assert f"The exact answer: {TA.lost_cities_check()} ≈ 0.3636" in page.inner_text("body")


def check_lesson_6(page) -> None:
    """Pig to 100 by ``pig_by_hand`` (value iteration written from the rules): the first
    player's chance under optimal play, the explorer's advice and hold line at 0 against 0,
    "hold at 20" against optimal play in both seats (table and bar), and the check-yourself
    answer (both hold at 20) by teaching_answers' own iteration."""
    show_every_answer(page)
    import pig_by_hand

    start, hold = pig_by_hand.optimal()
    body = page.inner_text("body")
    assert f"The first player wins {100 * start[0, 0]:.4f}% of games under optimal play" in body
    first_hold = next(k for k in range(1, 100) if hold[k, 0, 0])
    advice = page.inner_text(".pushluck-lesson-advice")
    assert f"With 0 against 0: holding is best from a turn total of {first_hold}." in advice
    lines = {t["name"]: dict(zip(t["x"], t["y"], strict=True))
             for t in chart(page, "Chance to win: roll or hold?")}
    for total, shown in lines["hold"].items():  # holding hands the opponent (0, total)
        assert close(shown, 1 - start[0, total], 1e-9), (total, shown)
    rule = pig_by_hand.hold_at(20)
    moving_first = pig_by_hand.first_player_wins(rule, hold)
    moving_second = 1 - pig_by_hand.first_player_wins(hold, rule)  # Pig has no tie
    average = (moving_first + moving_second) / 2
    assert (f"hold:20: wins {moving_first:.4f} moving first, {moving_second:.4f} moving "
            f"second, {average:.4f} on average") in body
    bars = chart(page, "Chance to beat the optimal player")[0]
    shown = dict(zip(bars["y"], bars["x"], strict=True))  # a horizontal bar chart
    assert close(shown["hold:20 vs optimal"], average, 1e-9)
    assert f"The exact answer: {100 * TA.pig_match_hold(20, 20):.2f}%" in body
    # the explorer follows its first slider (your score): the advice leaves 0 against 0
    slider = page.locator(".widget-slider").first
    slider.locator(".noUi-handle, .slider-handle, [role='slider']").first.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => [...document.querySelectorAll('.pushluck-lesson-advice')]"
                           ".some(a => !a.innerText.includes('With 0 against 0'))",
                           timeout=60_000)


LESSON_NUMBERS: dict[str, Callable] = {
    "Lesson_1_Next_Card.ipynb": check_lesson_1,
    "Lesson_4_Exact_vs_Simulation.ipynb": check_lesson_4,
    "Lesson_6_Winning_The_Game.ipynb": check_lesson_6,
    "Lesson_7_Investing_Under_Uncertainty.ipynb": check_lesson_7,
    "Lesson_2_When_To_Stop.ipynb": check_lesson_2,
    "Lesson_3_Turn_As_Markov_Chain.ipynb": check_lesson_3,
    "Lesson_5_Rule_Variants.ipynb": check_lesson_5,
}
