"""A lesson review in a real browser: on every lesson page, before any answer, nothing on the
page shows a check-yourself answer in any of its forms (visible or folded text, the answer
box's placeholder and tooltips, every Plotly chart's x, y, z, text, customdata, hovertext,
hover template, names and labels); a wrong answer is marked wrong and hides nothing new;
"Show answer" shows it (and the page's "appears once you have answered" notes go); each
accepted form of the answer is then marked right.  No console error on any page.

The answers come from outside the package: hand counts and ``scripts/teaching_answers.py``
(which imports nothing of it), or, for the one answer the guide itself takes from the app
(Captain Seven's chase:25), the value docs/teaching.md states.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from teaching_answers_script import TA  # the lessons' answers by hand
from test_browser import AppServer, stop_and_check_log  # the shared harness

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
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


def _questions() -> dict[str, tuple[Question, ...]]:
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


LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("Lesson_*.ipynb"))


@pytest.fixture(scope="module")
def questions() -> dict[str, tuple[Question, ...]]:
    """Computed once, when a browser test runs (a few seconds of the independent solvers)."""
    found = _questions()
    assert sorted(found) == LESSONS, "every lesson page has its question here"
    return found


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


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    server = AppServer("--pool", "0")
    try:
        yield server.base
    finally:
        stop_and_check_log(server)


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url, timeout=PAGE_TIMEOUT_MS)
    page.wait_for_selector(".pushluck-lesson-question", state="attached",
                           timeout=PAGE_TIMEOUT_MS)
    page.wait_for_function("() => document.body.classList.contains('voila-finished') || "
                           "!document.querySelector('.voila-spinner, #loading')",
                           timeout=PAGE_TIMEOUT_MS)
    # work computed off the click path (Lesson 5's whole-turn comparison) fills in first
    page.wait_for_function("() => ![...document.querySelectorAll('.pushluck-lesson-progress')]"
                           ".some(p => p.innerText.trim())", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_timeout(1500)
    return page, errors


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


def _answer(page, box, typed: str) -> str:
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


@pytest.mark.parametrize("notebook", LESSONS)
def test_lesson_hides_its_answer_until_answered_and_marks_every_form(app, browser, questions,
                                                                     notebook):
    page, errors = _open(browser, f"{app}/voila/render/{notebook}")
    questions = questions[notebook]
    boxes = page.locator(".pushluck-lesson-question")
    assert boxes.count() == len(questions), f"{notebook}: {boxes.count()} questions"
    for question in questions:
        assert leaks(page, question) == [], f"{notebook}: shown before any answer"
    for index, question in enumerate(questions):
        box = boxes.nth(index)
        rule = box.locator(".pushluck-lesson-rule").inner_text()
        assert "How answers are marked" in rule and "±" in rule, rule
        wrong = _answer(page, box, question.wrong)
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
            _answer(page, box, "?")  # a different feedback between two right answers
            verdict = _answer(page, box, typed)
            assert "✔" in verdict, f"{notebook}: {typed!r} -> {verdict!r}"
    page.wait_for_timeout(1000)
    notes = page.evaluate("() => [...document.querySelectorAll('.pushluck-lesson-hidden')]"
                          ".filter(n => n.offsetParent !== null).map(n => n.innerText)")
    assert notes == [], f"{notebook}: still hidden after Show answer: {notes}"
    assert errors == [], f"{notebook}: {errors[:5]}"
    page.close()
