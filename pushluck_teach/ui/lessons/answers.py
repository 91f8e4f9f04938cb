"""Check-yourself questions: one grading rule for every lesson, and a question that knows
whether its answer has been revealed.

The rule (:class:`GradingRule`, stated in words under every answer box):

* a **fraction** must be exactly equal to the answer when the answer is a fraction the student
  can count (equal fractions count: ``6/50`` and ``3/25`` are one answer);
* a **decimal** or a **percentage** (``0.53``, ``53%``, ``53.47%``: both shapes are understood)
  counts within a stated tolerance: ±0.2 percentage points for a probability, ±0.01 for
  an expected value (points or draws);
* where the answer is not a countable fraction (a whole-game chance), a fraction counts within
  the same tolerance as a decimal.

A question is **revealed** (:attr:`CheckAnswer.revealed`) once it has been answered right or
"Show answer" pressed; a new answer (the position changed) hides it again.  Each lesson hides
every element that carries the answer until then.  Bad input leaves a one-line message, never a
traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from html import escape
from typing import Literal

import ipywidgets as widgets
import traitlets

from pushluck_teach.ui.figures import probability_text, value_text
from pushluck_teach.ui.theme import TEXT_ERROR_COLOUR, TEXT_OK_COLOUR

Number = Fraction | float | int
AnswerForm = Literal["fraction", "decimal", "percent"]


@dataclass(frozen=True)
class ParsedAnswer:
    """A typed answer's exact value and the shape it was typed in."""

    value: Fraction
    form: AnswerForm


def parse_answer(text: str) -> ParsedAnswer:
    """The exact value of ``3/25``, ``0.12``, ``.12``, ``12%`` or ``12.5 %`` (a decimal comma is
    read as a point).  Raises ValueError with a one-line message."""
    raw = text.strip().replace(" ", "").replace(",", ".")
    if not raw:
        raise ValueError("Type an answer first: a fraction, a decimal or a percentage.")
    percent = raw.endswith("%")
    body = raw[:-1] if percent else raw
    shown = text.strip()
    if "/" in body:
        num, _, den = body.partition("/")
        try:
            value = Fraction(int(num), int(den))
        except ValueError:
            raise ValueError(f"{shown!r} is not a fraction: type whole numbers on both sides "
                             "of the /.") from None
        except ZeroDivisionError:
            raise ValueError(f"{shown!r} divides by zero.") from None
        return ParsedAnswer(value / 100 if percent else value,
                            "percent" if percent else "fraction")
    try:
        dec = Decimal(body)
    except InvalidOperation:
        raise ValueError(f"{shown!r} is not a number: type a fraction, a decimal or a "
                         "percentage.") from None
    if not dec.is_finite():
        raise ValueError(f"{shown!r} is not a number.")
    value = Fraction(dec)
    return ParsedAnswer(value / 100 if percent else value, "percent" if percent else "decimal")


@dataclass(frozen=True)
class GradingRule:
    """How a typed answer is marked: ``tolerance`` (absolute) for decimals and percentages;
    ``exact_fractions``: a typed fraction must equal the answer exactly (else it gets the
    tolerance too); ``probability``: the answer is a chance (percentages understood)."""

    probability: bool
    tolerance: Fraction
    exact_fractions: bool

    def describe(self) -> str:
        """The rule in words, shown under the answer box."""
        if self.probability:
            near = "within ±0.2 percentage points of the answer"
            shapes = "a decimal or a percentage"
        else:
            near = "within ±0.01 of the answer"
            shapes = "a decimal"
        if self.exact_fractions:
            return (f"How answers are marked: a fraction must be exactly equal to the answer "
                    f"(it need not be reduced); {shapes} counts when it is {near}.")
        return (f"How answers are marked: {shapes} or a fraction counts when it is {near}"
                + (" (0.xx and xx% are both understood)." if self.probability else "."))

    def placeholder(self, answer: Number | None) -> str:
        """The answer box's hint: the shapes of answer it understands, with an example far from
        ``answer`` (never the answer itself)."""
        example = _far_example(answer, self.probability)
        if self.probability:
            return f"a fraction like {example}, a decimal or a %"
        return f"a fraction like {example}, or a decimal"

    def grade(self, text: str, answer: Number) -> tuple[bool, str]:
        """``(right, message)`` for ``text`` against ``answer``."""
        try:
            typed = parse_answer(text)
        except ValueError as exc:
            return False, str(exc)
        exact = Fraction(answer)
        if not self.probability and typed.form == "percent":
            return False, "This answer is a number (points or draws), not a percentage."
        if self.probability and typed.form != "percent" and typed.value > 1:
            return False, ("A probability is at most 1: type it as a decimal (0.xx) or a "
                           "percentage (xx%).")
        if typed.form == "fraction" and self.exact_fractions:
            if typed.value == exact:
                return True, "Right: exactly equal."
            if abs(typed.value - exact) <= self.tolerance:
                return False, "Close, but a fraction must be exactly equal: count again."
            return False, "Not quite: count again, or press Show answer."
        if abs(typed.value - exact) <= self.tolerance:
            return True, "Right."
        if abs(typed.value - exact) <= 5 * self.tolerance:
            return False, ("Close, but not within the tolerance stated under the box: give one "
                           "more digit.")
        return False, "Not quite: try again, or press Show answer."


#: A probability the student can count (Lessons 1 and 7): fractions exact, ±0.2 points.
COUNTED_PROBABILITY = GradingRule(probability=True, tolerance=Fraction(1, 500),
                                  exact_fractions=True)
#: A chance that is not a small fraction (Lesson 6's whole-game chances): ±0.2 points.
CHANCE = GradingRule(probability=True, tolerance=Fraction(1, 500), exact_fractions=False)
#: An expected number (points, draws): fractions exact, decimals within ±0.01.
EXPECTED_VALUE = GradingRule(probability=False, tolerance=Fraction(1, 100),
                             exact_fractions=True)

_PROBABILITY_EXAMPLES = (Fraction(2, 7), Fraction(5, 9), Fraction(1, 6))
_VALUE_EXAMPLES = (Fraction(22, 7), Fraction(41, 4), Fraction(3, 8))


def _far_example(answer: Number | None, probability: bool) -> str:
    """A fraction of a different size from ``answer`` (at least 0.1 or 1 away)."""
    examples = _PROBABILITY_EXAMPLES if probability else _VALUE_EXAMPLES
    gap = Fraction(1, 10) if probability else Fraction(1)
    for example in examples:
        if answer is None or abs(example - Fraction(answer)) >= gap:
            return f"{example.numerator}/{example.denominator}"
    return "p/q"


def check_answer(text: str, answer: Number, rule: GradingRule = COUNTED_PROBABILITY
                 ) -> tuple[bool, str]:
    """Whether ``text`` is right for ``answer`` under ``rule``, and what to tell the student."""
    return rule.grade(text, answer)


#: What the question says when it has no answer (the turn is over, or the position is bad).
NO_ANSWER = "There is no answer for this position (the turn is over)."


class CheckAnswer(widgets.VBox):
    """A question, a text box, a Check button, a Show-answer button and the grading rule in
    words.  ``set_answer`` changes the exact answer (it follows the position on screen).

    ``revealed`` turns true on a right answer or Show answer and false when the answer changes:
    a lesson observes it to show the elements that carry the answer.  ``answer_text`` writes
    the answer when it is shown (default: :func:`probability_text` for a probability,
    :func:`value_text` otherwise); ``explanation`` is HTML shown
    with it (the working, or what the answer means).
    """

    revealed = traitlets.Bool(False)

    def __init__(self, question: str, answer: Number | None = None, *,
                 rule: GradingRule = COUNTED_PROBABILITY,
                 answer_text: Callable[[Number], str] | None = None,
                 explanation: str = "") -> None:
        self.answer: Number | None = answer
        self.rule = rule
        self.no_answer = NO_ANSWER
        self.answer_text = answer_text or (
            (lambda value: probability_text(Fraction(value))) if rule.probability
            else (lambda value: value_text(Fraction(value))))
        self.explanation = explanation
        self.question = widgets.HTML(f"<b>Check yourself.</b> {question}")
        self.text = widgets.Text(continuous_update=False, placeholder=rule.placeholder(answer),
                                 description="Your answer:",
                                 style={"description_width": "initial"},
                                 layout=widgets.Layout(width="360px"))
        self.text.add_class("pushluck-lesson-answer")
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           tooltip="Check your answer against the exact solver")
        self.show_button = widgets.Button(description="Show answer")
        self.show_button.add_class("pushluck-lesson-show")
        self.feedback = widgets.HTML("")
        self.rule_line = widgets.HTML(f'<div class="pushluck-lesson-rule" '
                                      f'style="font-size:0.9em;color:#444">'
                                      f"{escape(rule.describe())}</div>")
        self.check_button.add_class("pushluck-lesson-check")
        self.feedback.add_class("pushluck-lesson-feedback")
        self.check_button.on_click(lambda _: self.check())
        self.show_button.on_click(lambda _: self.reveal())
        self.text.observe(lambda _: self.text.value.strip() and self.check(), "value")
        super().__init__([self.question,
                          widgets.HBox([self.text, self.check_button, self.show_button]),
                          self.rule_line, self.feedback])
        self.add_class("pushluck-lesson-question")

    def set_answer(self, answer: Number | None, question: str | None = None, *,
                   no_answer: str = NO_ANSWER) -> None:
        """Follow the position on screen; ``no_answer`` is what Check and Show answer say
        while ``answer`` is None.  A different answer hides the old one again."""
        changed = answer is None or self.answer is None or Fraction(answer) != Fraction(
            self.answer)
        self.answer = answer
        self.no_answer = no_answer
        if question is not None:
            self.question.value = f"<b>Check yourself.</b> {question}"
        if changed:
            self.feedback.value = ""
            self.text.value = ""
            self.text.placeholder = self.rule.placeholder(answer)
            self.revealed = False

    def check(self) -> bool:
        if self.answer is None:
            self.feedback.value = escape(self.no_answer)
            return False
        ok, message = self.rule.grade(self.text.value, self.answer)
        mark = "✔" if ok else "✘"
        colour = TEXT_OK_COLOUR if ok else TEXT_ERROR_COLOUR
        shown = f" The exact answer: <b>{escape(self.answer_text(self.answer))}</b>." if ok else ""
        self.feedback.value = (f'<span style="color:{colour};font-weight:700">{mark}</span> '
                               f"{escape(message)}{shown}"
                               + (f"<div>{self.explanation}</div>" if ok and self.explanation
                                  else ""))
        if ok:
            self.revealed = True
        return ok

    def reveal(self) -> None:
        if self.answer is None:
            self.feedback.value = escape(self.no_answer)
            return
        shown = self.answer_text(self.answer)
        self.feedback.value = f"The exact answer: <b>{escape(shown)}</b>" + (
            f"<div>{self.explanation}</div>" if self.explanation else "")
        self.revealed = True


def hidden_note(what: str) -> widgets.HTML:
    """The line a lesson shows where an element carrying the answer is hidden."""
    note = widgets.HTML(f'<p class="pushluck-lesson-hidden"><i>{escape(what)}</i></p>')
    return note
