"""Lesson widgets: the check-yourself answers come from the solver; bad input never raises."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui import lessons as L

# The lessons name no game: these are the games and positions their notebooks pass.
CHAIN_EXAMPLES = {"pig": ("", 20), "hit-list": ("5h 9s", None), "captain-seven": ("Kh Tc 5d", None)}


@pytest.mark.parametrize(("text", "ok"), [
    ("3/25", True), ("6/50", True), ("0.12", True), ("12%", True), ("0.120", True),
    ("0.1", False), ("1/8", False), ("0.13", False), ("abc", False), ("1/0", False), ("", False),
])
def test_check_answer(text, ok):
    assert L.check_answer(text, Fraction(3, 25))[0] is ok


def test_lesson_1_answer_is_the_counted_bust_probability():
    lesson = L.NextCardLesson(game="lands-uncharted", drawn="5h 9s")
    # Three 5s and three 9s are left among 50 cards.
    assert lesson.question.answer == Fraction(6, 50)
    lesson.question.text.value = "3/25"
    assert lesson.question.check()
    lesson.draw_random()
    lesson.draw_random()
    assert "error" not in lesson.message.value.lower()


def test_lesson_2_answer_is_draw_once_value():
    lesson = L.WhenToStopLesson(game="hit-list", drawn="9h 6c")
    pos = L.lesson_position("hit-list", "9h 6c")
    assert lesson.question.answer == pos.solver.analyse(pos.state).ev_draw_once


def test_lesson_3_pig_hold_at_20():
    lesson = L.MarkovChainLesson(game="pig", threshold=20, examples=CHAIN_EXAMPLES)
    assert lesson.question.answer == Fraction(9440899, 2519424)
    lesson.game.value = "hit-list"
    assert "transient" in lesson.message.value


def test_lesson_4_seeded_and_exact():
    first, second = L.SimulationLesson(game="pig", seed=7), L.SimulationLesson(game="pig", seed=7)
    first.add()
    second.add()
    assert first.samples == second.samples and len(first.samples) == 1000
    pos = L.lesson_position("pig")
    assert first.question.answer == TurnSolver(pos.model, exact=True).value()
    first.seed.value = "x1"
    first.add()
    assert "bad seed" in first.message.value


def test_lesson_5_buried_treasure_adds_five_at_21():
    lesson = L.RuleVariantsLesson(game="lands-uncharted", drawn="5h 9s 7c", left="standard",
                                  right="buried-treasure")
    assert lesson.question.answer == 5


def test_bad_positions_leave_a_message():
    lesson = L.NextCardLesson(game="lands-uncharted", drawn="5h 9s")
    lesson.set_drawn("5h 5h")
    assert "5h" in lesson.message.value
    lesson.set_drawn("Zz")
    assert "Zz" in lesson.message.value
    chain = L.MarkovChainLesson(game="pig", threshold=20, examples=CHAIN_EXAMPLES)
    chain.drawn.value = "1"
    chain.refresh()
    assert "1" in chain.message.value
