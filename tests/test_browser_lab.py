"""The variant lab page in a real browser: build a game through the form, play a
turn, check the page's bust chance against ``pushluck odds custom --rules``, and open a
``?rules=`` link.  Reuses the app harness of ``tests/test_browser.py`` (Voilà on a loopback
port, Debian Chromium through Playwright; a missing browser is a failure)."""

from __future__ import annotations

import functools
import json
import time
from fractions import Fraction

import pytest
from pushluck_cli import run_pushluck
from teaching_answers_script import TA  # the lessons' answers by hand
from test_browser import (  # the shared harness (pytest puts tests/ on the path)
    VoilaServer,
    assert_clean,
    open_page,
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
def server(shared_voila: VoilaServer) -> VoilaServer:
    """The worker's plain Voilà server (tests/conftest.py), shared with other browser files."""
    return shared_voila


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


# ---- Compare A/B and a sweep, against the tests' own Pig solvers ----------------------------

LAB_CHARTS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(d => ({
  title: (d.layout && d.layout.title && d.layout.title.text) || '',
  traces: (d.data || []).map(t => ({name: t.name || '', x: Array.from(t.x || []),
                                    y: Array.from(t.y || [])}))}))"""
COMPARE_ROWS = """() => Array.from(document.querySelectorAll('table.pushluck-compare tr')).map(
  row => Array.from(row.querySelectorAll('td')).map(cell => cell.innerText.trim()))"""


def pig_turn(sides: int, target: int) -> tuple[Fraction, Fraction]:
    """One Pig turn from 0 played for its points (docs/rules.md, "Pig"): roll while rolling is
    worth strictly more than holding; a turn that reaches the target ends there.  Returns the
    turn's value and its chance to bust, in fractions (written here from the rules alone)."""

    @functools.cache
    def turn(total: int) -> tuple[Fraction, Fraction]:
        if total >= target:
            return Fraction(total), Fraction(0)
        after = [turn(total + face) for face in range(2, sides + 1)]
        rolling = sum((value for value, _ in after), Fraction(0)) / sides
        if total > 0 and rolling <= total:
            return Fraction(total), Fraction(0)
        return rolling, (1 + sum((bust for _, bust in after), Fraction(0))) / sides

    return turn(0)


def lab_chart(page, title: str) -> dict[str, dict]:
    """The traces (by name: x -> y) of the lab chart whose title starts with ``title``."""
    charts = page.evaluate(LAB_CHARTS)
    traces = next(c["traces"] for c in charts if c["title"].startswith(title))
    return {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in traces}


def test_compare_and_sweep_show_the_references_numbers(server, browser) -> None:
    """Compare A/B opens on Pig, standard rules against Piglet (a coin whose heads scores 2,
    target 4): the table's turn values, bust risks, thresholds and first-player chances and
    the result chart's bars against solvers written in the tests (``pig_by_hand``,
    ``lessons_reference``, :func:`pig_turn`).  A sweep of Pig's die from 2 to 7 sides: each
    point's turn value and bust risk on its chart against :func:`pig_turn`."""
    import lessons_reference
    import pig_by_hand

    page, watch = open_page(browser, server, PAGE, ".pushluck-lab-form .pushluck-lab-play")
    page.get_by_role("tab", name="Compare A/B").click()
    page.wait_for_function(f"() => ({COMPARE_ROWS})().length >= 6", timeout=180_000)
    rows = {row[0]: row[1:] for row in page.evaluate(COMPARE_ROWS) if row}
    standard, piglet = pig_turn(6, 100), pig_turn(2, 4)
    hold = lessons_reference.pig_optimal_hold(4, 2)
    expected = {
        "Turn value (optimal play)": (standard[0], piglet[0]),
        "Bust risk of a turn": (standard[1], piglet[1]),
        "First player's win chance": (pig_by_hand.optimal()[0][0, 0],
                                      lessons_reference.pig_seat_wins(hold, hold, 0, 4, 2)),
    }
    for name, (a, b) in expected.items():
        shown = [cell.split(" (")[0] for cell in rows[name]]
        assert shown == [f"{float(a):.4f}", f"{float(b):.4f}"], (name, rows[name], a, b)
    assert rows["Best single threshold"][0] == "20"  # (2 + 3 + 4 + 5 + 6) / 6 = 20 / 6
    result = lab_chart(page, "Result of one turn")
    by_hand = {total: chance for total, chance in
               TA.pig_turn_distribution(20).items()}
    assert result["A"].keys() == by_hand.keys()
    for total, chance in by_hand.items():
        assert abs(result["A"][total] - float(chance)) <= 1e-12, (total, result["A"])
    assert result["B"] == {0: 0.5, 2: 0.5}  # heads (2) then hold: 2 + 2 reaches 4 no better

    page.get_by_role("tab", name="Sweep").click()
    game = page.locator("select:visible").first
    game.select_option(label=next(o for o in game.locator("option").all_inner_texts()
                                  if o.strip() == "Pig"))
    page.wait_for_timeout(1000)
    option = page.locator("select:visible").nth(1)
    option.select_option(label=next(o for o in option.locator("option").all_inner_texts()
                                    if "sides" in o.lower()))
    page.wait_for_timeout(1000)
    for label, value in (("from", "2"), ("to", "7"), ("step", "1")):
        box = page.locator(".widget-text:visible", has_text=label).locator("input").first
        box.fill(value)
        box.press("Enter")
    page.get_by_role("button", name="Run").click()
    page.wait_for_function("() => /Done: 6 points/.test(document.body.innerText)",
                           timeout=180_000)
    swept = lab_chart(page, "Turn value and bust risk")
    for sides in range(2, 8):
        value, bust = pig_turn(sides, 100)
        assert abs(swept["turn value"][sides] - float(value)) <= 1e-9 * float(value), sides
        assert abs(swept["bust risk"][sides] - float(bust)) <= 1e-12, sides
    assert_clean(page, watch, "Variant_Lab_compare_and_sweep")
    page.close()


