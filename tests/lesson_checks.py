"""What a lesson page must show a student, read in a real browser (the lesson checks of
``tests/test_browser_pages.py``, which opens each page once).

**Answers stay hidden until tried** (:func:`review_lesson`): before any answer, nothing on the
page shows a check-yourself answer in any of its forms (visible or folded text, the answer box's
placeholder and tooltips, every Plotly chart's x, y, z, text, customdata, hovertext, hover
template, names and labels); a wrong answer is marked wrong and hides nothing new; "Show
answer" shows it (and the page's "appears once you have answered" notes go); each accepted form
of the answer is then marked right.

**The numbers a student reads** (:data:`LESSON_NUMBERS`): after Show answer, the visible text
and each chart bar's value and label on Lessons 1-7, read from the Plotly figure in the page,
equal an independent source: hand counts written here, ``scripts/teaching_answers.py`` and the
tests' own references (``lessons_reference``, ``pig_by_hand``, ``lost_cities_reference``), none
of which imports the package.  For the one answer the guide itself takes from the app (Captain
Seven's chase:25) the value ``docs/teaching.md`` states.  Lesson 6's explorer changes its advice
when its first slider moves, Lesson 4's button adds simulated turns, and Lesson 6 draws with the
package's plotly bundle.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from urllib.parse import urlparse

from teaching_answers_script import TA  # the lessons' answers by hand

PAGE_TIMEOUT_MS = 300_000


@dataclass(frozen=True)
class Question:
    """One check-yourself question: its answer, the typed forms that must be right, one that
    must be wrong, the text Show answer must show, and more forms that must stay hidden."""

    answer: Fraction | float
    probability: bool
    right: tuple[str, ...]
    wrong: str
    shown: str
    also_hidden: tuple[str, ...] = ()
    data_tolerance: float = 1e-9  # chart x/y numbers this close to the answer give it away


def _lesson_8_answers() -> tuple[float, float]:
    """Lesson 8, from Pig solved again by hand (tests/pig_by_hand.py): what holding at 20 with
    40 against 80 costs in chance to win, and hold-at-20's chance against optimal play."""
    import pig_by_hand

    start, optimal = pig_by_hand.optimal(100)
    value = pig_by_hand._turn_values(None, start, 100)
    rolling = (1 - start[80, 40]) / 6 + sum(value[20 + face, 40, 80] for face in range(2, 7)) / 6
    holding = 1 - start[80, 60]
    hold_20 = pig_by_hand.hold_at(20)
    first = pig_by_hand.first_player_wins(hold_20, optimal)
    second = 1 - pig_by_hand.first_player_wins(optimal, hold_20)
    return float(rolling - holding), (first + second) / 2


def lesson_questions() -> dict[str, tuple[Question, ...]]:
    """Every lesson's check-yourself questions, their answers from the independent sources
    (a few seconds of the tests' own solvers)."""
    pig_rolls = TA.pig_turn(20)[0]
    pig_points = TA.pig_turn(None)[1]
    buried = TA.lands_uncharted_turn([5, 9, 7], True) - TA.lands_uncharted_turn([5, 9, 7], False)
    both_hold_20 = TA.pig_match_hold(20, 20)
    held_at_20_cost, hold_20_wins = _lesson_8_answers()
    chase_25 = 0.4534  # docs/teaching.md: "chase:25 wins 45.34%" (the guide's app-only number)
    return {
        "Lesson_1_Next_Card.ipynb": (Question(
            TA.lesson1(), True, ("3/25", "6/50", "0.12", "12%", "12.0 %"), "0.13", "3/25",
            also_hidden=("6/50",)),),
        "Lesson_2_When_To_Stop.ipynb": (Question(
            TA.lesson2(), False, ("453/50", "9.06", "9.060"), "9.6", "453/50"),),
        "Lesson_3_Turn_As_Markov_Chain.ipynb": (Question(
            pig_rolls, False, (f"{pig_rolls.numerator}/{pig_rolls.denominator}", "3.747",
                               "3.75"), "3.8", f"{pig_rolls.numerator}/{pig_rolls.denominator}"),),
        "Lesson_4_Exact_vs_Simulation.ipynb": (Question(
            pig_points, False, ("8.14", "8.1418", f"{pig_points.numerator}/"
                                f"{pig_points.denominator}"), "8.3", "8.142"),),
        "Lesson_5_Rule_Variants.ipynb": (Question(
            buried, False, ("5", "5.00", "10/2"), "4", "5"),),
        "Lesson_6_Winning_The_Game.ipynb": (
            Question(both_hold_20, True, ("53.47%", "0.535", "0.5347", "53.5 %"), "53.06%",
                     "53.47%"),
            Question(chase_25, True, ("45.34%", "0.4534", "0.453"), "39.70%", "45.34%",
                     data_tolerance=5e-5),  # the guide's value is rounded to 4 places
        ),
        "Lesson_7_Investing_Under_Uncertainty.ipynb": (Question(
            TA.lost_cities_check(), True, ("4/11", "8/22", "0.364", "36.4%"), "0.36", "4/11"),),
        "Lesson_8_Luck_Or_Skill.ipynb": (
            Question(held_at_20_cost, True, ("2.93%", "0.0293", "3%"), "5%", "2.93%"),
            Question(hold_20_wins, True, ("46.01%", "0.46", "46 %"), "41%", "46.01%"),
        ),
    }


def answer_forms(question: Question) -> list[re.Pattern[str]]:
    """Every written form of the answer: the fraction, the decimal to 2-4 places (with or
    without its leading 0), the percentage to 0-2 places; an integer answer by its decimals
    only (a bare "5" is everywhere on a page of cards)."""
    value = question.answer
    forms: list[str] = list(question.also_hidden)
    exact = Fraction(value) if isinstance(value, Fraction) else None
    if exact is not None and exact.denominator > 1:
        forms.append(f"{exact.numerator}/{exact.denominator}")
    number = float(value)
    for places in (2, 3, 4):
        text = f"{number:.{places}f}"
        forms.append(text)
        if text.startswith("0."):
            forms.append(text[1:])
    patterns = [re.compile(r"(?<![\d./])" + re.escape(form).replace("/", r"\s*/\s*")
                           + r"(?![\d/])") for form in forms]
    if question.probability:
        for places in (0, 1, 2):
            patterns.append(re.compile(r"(?<![\d.])" + re.escape(f"{100 * number:.{places}f}")
                                       + r"\s*%"))
    return patterns


#: Every string and number a page holds outside scripts and styles: text nodes (folded
#: <details> too), placeholders, values and titles of inputs and elements, and each Plotly
#: chart's data (typed arrays decoded) and layout texts.
PAGE_CONTENT = r"""() => {
  const texts = [];
  const numbers = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || node.parentElement.closest('script, style')) continue;
    texts.push(node.textContent);
  }
  for (const el of document.querySelectorAll('input, textarea')) {
    texts.push(el.placeholder || '');  // what the student typed is theirs, not the page's
    if (!el.closest('.pushluck-lesson-answer')) texts.push(el.value || '');
  }
  for (const el of document.querySelectorAll('[title]')) texts.push(el.getAttribute('title'));
  const decode = (v) => {
    if (!v || !v.bdata) return v;
    const bytes = Uint8Array.from(atob(v.bdata), c => c.charCodeAt(0));
    const kinds = {f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
                   i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array};
    return Array.from(new (kinds[v.dtype] || Float64Array)(bytes.buffer));
  };
  const walk = (v, key) => {
    v = decode(v);
    if (v === null || v === undefined) return;
    if (typeof v === 'number') { numbers.push([v, key]); texts.push(String(v)); return; }
    if (typeof v === 'string') { texts.push(v); return; }
    if (Array.isArray(v) || ArrayBuffer.isView(v)) { for (const x of v) walk(x, key); return; }
  };
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    for (const trace of plot.data || []) {
      for (const key of ['x', 'y', 'z', 'text', 'customdata', 'hovertext', 'hovertemplate',
                         'texttemplate', 'name', 'labels', 'values', 'value']) {
        walk(trace[key], key);
      }
    }
    const layout = plot.layout || {};
    for (const note of layout.annotations || []) walk(note.text);
    walk(layout.title && layout.title.text);
  }
  return {texts, numbers};
}"""


def leaks(page, question: Question) -> list[str]:
    """The places on the page that show ``question``'s answer."""
    content = page.evaluate(PAGE_CONTENT)
    found = []
    for pattern in answer_forms(question):
        for text in content["texts"]:
            match = pattern.search(text or "")
            if match:
                start = max(0, match.start() - 40)
                found.append(f"{pattern.pattern!r} in …{text[start:match.end() + 40]!r}")
                break
    if isinstance(question.answer, float) or Fraction(question.answer).denominator > 1:
        target = float(question.answer)
        # a heatmap's thousands of z values are other chances: only the answer itself counts
        found += [f"chart data {key} {v}" for v, key in content["numbers"]
                  if abs(v - target) < (question.data_tolerance if key != "z" else 1e-9)]
    return found


def answer(page, box, typed: str) -> str:
    """Type ``typed`` into the question's box (Enter commits it) and return the feedback once
    it has changed."""
    feedback = box.locator(".pushluck-lesson-feedback")
    before = feedback.inner_text()
    field = box.locator(".pushluck-lesson-answer input")
    field.fill(typed)
    field.press("Enter")
    handle = feedback.element_handle()
    page.wait_for_function("([el, old]) => el.innerText !== old", arg=[handle, before],
                           timeout=60_000)
    return feedback.inner_text()


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
    """Lands Uncharted after 5h 9s: after Show answer the page's chance to bust is the hand
    count (six bust cards of 50)."""
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
    said = page.inner_text(".pushluck-lesson-sim")
    turns = int(m.group(1)) if (m := re.search(r"After (\d+) turns", said)) else 0
    page.click(".pushluck-lesson-add")
    page.wait_for_function(
        "(n) => (document.querySelector('.pushluck-lesson-sim') || {}).innerText"
        "?.includes(`After ${n} turns`)", arg=turns + 1000, timeout=60_000)
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


#: Charts a student sees (a coach that is off keeps its charts hidden and empty), each with data
#: when x, y or z has points (z may come as plotly's typed-array spec {dtype, bdata}) or when it
#: is an indicator with a value
CHARTS_WITH_DATA = ("() => [...document.querySelectorAll('.js-plotly-plot')]"
                    ".filter(p => p.getClientRects().length > 0)"
                    ".map(p => (p.data || []).some(t => [t.x, t.y, t.z].some("
                    "v => v && (v.length > 0 || (v.bdata && v.bdata.length > 0)))"
                    " || t.value !== undefined))")


def check_no_answer_shown(page, notebook: str, questions: tuple[Question, ...]) -> None:
    """Before any answer: no question's answer anywhere on the page (Lesson 1 shows no bust
    chance at all)."""
    for question in questions:
        assert leaks(page, question) == [], f"{notebook}: shown before any answer"
    if notebook == "Lesson_1_Next_Card.ipynb":
        assert page.locator(".pushluck-lesson-pbust").count() == 0


def review_lesson(page, notebook: str, questions: tuple[Question, ...]) -> None:
    """Each question answered wrong (marked wrong, nothing new shown), its answer shown, each
    accepted form then marked right; no "appears once you have answered" note left."""
    boxes = page.locator(".pushluck-lesson-question")
    assert boxes.count() == len(questions), f"{notebook}: {boxes.count()} questions"
    for index, question in enumerate(questions):
        box = boxes.nth(index)
        rule = box.locator(".pushluck-lesson-rule").inner_text()
        assert "How answers are marked" in rule and "±" in rule, rule
        wrong = answer(page, box, question.wrong)
        assert "✘" in wrong, f"{notebook}: {question.wrong!r} -> {wrong!r}"
        assert leaks(page, question) == [], f"{notebook}: shown after a wrong answer"
        box.locator(".pushluck-lesson-show").click()
        page.wait_for_function("(el) => el.innerText.includes('exact answer')",
                               arg=box.locator(".pushluck-lesson-feedback").element_handle(),
                               timeout=60_000)
        shown = box.locator(".pushluck-lesson-feedback").inner_text()
        assert question.shown in shown, f"{notebook}: Show answer gave {shown!r}"
        if Fraction(question.answer).denominator > 1:  # (an integer is checked by decimals)
            assert leaks(page, question), f"{notebook}: the leak check cannot see the answer"
        for typed in question.right:
            answer(page, box, "?")  # a different feedback between two right answers
            verdict = answer(page, box, typed)
            assert "✔" in verdict, f"{notebook}: {typed!r} -> {verdict!r}"
    page.wait_for_timeout(1000)
    notes = page.evaluate("() => [...document.querySelectorAll('.pushluck-lesson-hidden')]"
                          ".filter(n => n.offsetParent !== null).map(n => n.innerText)")
    assert notes == [], f"{notebook}: still hidden after Show answer: {notes}"


def check_lesson_numbers(page, notebook: str, requests: list[str]) -> None:
    """Once the answers are shown: every chart a student sees has data, and the lesson's
    numbers equal the independent sources (:data:`LESSON_NUMBERS`)."""
    page.wait_for_function(f"() => ({CHARTS_WITH_DATA})().every(Boolean)",
                           timeout=PAGE_TIMEOUT_MS)
    drawn = page.evaluate(CHARTS_WITH_DATA)
    assert (drawn or notebook == "Lesson_8_Luck_Or_Skill.ipynb") and all(drawn), (
        f"{notebook}: a chart is empty: {drawn}")  # (Lesson 8 draws once a game is played)
    check = LESSON_NUMBERS.get(notebook)
    if check is not None:
        check(page)
    if notebook == "Lesson_6_Winning_The_Game.ipynb":
        check_the_package_s_plotly_bundle(page, requests)
