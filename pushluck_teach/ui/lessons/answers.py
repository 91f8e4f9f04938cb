"""Check-yourself questions: a typed answer (``3/25``, ``0.12``, ``12%``) against an exact one.

A fraction must be equal exactly; a decimal or a percentage must agree to the digits typed (at
least two significant ones).  Bad input leaves a one-line message, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from html import escape

import ipywidgets as widgets

from pushluck_teach.ui.figures import value_text
from pushluck_teach.ui.theme import OKABE_ITO

Number = Fraction | float | int


def parse_answer(text: str) -> tuple[Fraction, Fraction]:
    """``(value, tolerance)`` of a typed answer: ``3/25`` (exact, tolerance 0), ``0.12`` or
    ``12%`` (half a unit in the last digit typed).  Raises ValueError with a one-line message."""
    raw = text.strip().replace(" ", "").replace(",", ".")
    if not raw:
        raise ValueError("type an answer first, e.g. 3/25 or 0.12")
    percent = raw.endswith("%")
    body = raw[:-1] if percent else raw
    if "/" in body:
        num, _, den = body.partition("/")
        try:
            value = Fraction(int(num), int(den))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{text.strip()!r} is not a fraction like 3/25") from None
        return (value / 100 if percent else value), Fraction(0)
    try:
        dec = Decimal(body)
    except InvalidOperation:
        raise ValueError(f"{text.strip()!r} is not a number: type 3/25, 0.12 or 12%") from None
    if not dec.is_finite():
        raise ValueError(f"{text.strip()!r} is not a number")
    exponent = dec.as_tuple().exponent
    assert isinstance(exponent, int)
    value = Fraction(dec)
    tolerance = Fraction(1, 2) * Fraction(10) ** exponent if exponent < 0 else Fraction(0)
    if percent:
        value, tolerance = value / 100, tolerance / 100
    return value, tolerance


def check_answer(text: str, answer: Number) -> tuple[bool, str]:
    """Whether ``text`` is the exact ``answer`` (or agrees with it to the digits typed)."""
    try:
        value, tolerance = parse_answer(text)
    except ValueError as exc:
        return False, str(exc)
    exact = Fraction(answer)
    if tolerance == 0:
        if value == exact:
            return True, f"Right: exactly {value_text(exact)}."
        return False, "Not quite. Count again (a fraction must be exactly equal)."
    if abs(value - exact) <= tolerance:
        if 2 * tolerance > abs(exact) / 10:
            return False, "Give at least two significant digits (or the exact fraction)."
        return True, f"Right: the exact value is {value_text(exact)}."
    return False, "Not quite: try again, or type the exact fraction."


#: What the question says when it has no answer (the turn is over, or the position is bad).
NO_ANSWER = "There is no answer for this position (the turn is over)."


class CheckAnswer(widgets.VBox):
    """A question, a text box, a Check button and a Show-answer button.  ``set_answer`` changes
    the question's exact answer (it follows the position on screen).

    ``answer_text`` writes the answer when it is shown (default: :func:`value_text`);
    ``explanation`` is HTML shown with it (the working, or what the answer means).
    """

    def __init__(self, question: str, answer: Number | None = None, *,
                 placeholder: str = "e.g. 3/25 or 0.12",
                 answer_text: Callable[[Number], str] | None = None,
                 explanation: str = "") -> None:
        self.answer: Number | None = answer
        self.no_answer = NO_ANSWER
        self.answer_text = answer_text or (lambda value: value_text(Fraction(value)))
        self.explanation = explanation
        self.question = widgets.HTML(f"<b>Check yourself.</b> {question}")
        self.text = widgets.Text(continuous_update=False, placeholder=placeholder,
                                 description="Your answer:",
                                 style={"description_width": "initial"})
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           tooltip="Check your answer against the exact solver")
        self.show_button = widgets.Button(description="Show answer")
        self.feedback = widgets.HTML("")
        self.check_button.add_class("pushluck-lesson-check")
        self.feedback.add_class("pushluck-lesson-feedback")
        self.check_button.on_click(lambda _: self.check())
        self.show_button.on_click(lambda _: self.reveal())
        self.text.observe(lambda _: self.text.value.strip() and self.check(), "value")
        super().__init__([self.question,
                          widgets.HBox([self.text, self.check_button, self.show_button]),
                          self.feedback])
        self.add_class("pushluck-lesson-question")

    def set_answer(self, answer: Number | None, question: str | None = None, *,
                   no_answer: str = NO_ANSWER) -> None:
        """Follow the position on screen; ``no_answer`` is what Check and Show answer say
        while ``answer`` is None."""
        self.answer = answer
        self.no_answer = no_answer
        if question is not None:
            self.question.value = f"<b>Check yourself.</b> {question}"
        self.feedback.value = ""

    def check(self) -> bool:
        if self.answer is None:
            self.feedback.value = escape(self.no_answer)
            return False
        ok, message = check_answer(self.text.value, self.answer)
        mark = "✔" if ok else "✘"
        colour = OKABE_ITO["bluish_green"] if ok else OKABE_ITO["vermillion"]
        self.feedback.value = (f'<span style="color:{colour};font-weight:700">{mark}</span> '
                               f"{escape(message)}")
        return ok

    def reveal(self) -> None:
        if self.answer is None:
            self.feedback.value = escape(self.no_answer)
            return
        shown = self.answer_text(self.answer)
        self.feedback.value = f"The exact answer: <b>{escape(shown)}</b>" + (
            f"<div>{self.explanation}</div>" if self.explanation else "")


