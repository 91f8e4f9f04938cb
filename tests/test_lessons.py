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


def test_lesson_2_values_across_pig_turn_totals_by_hand():
    from pushluck_teach.ui.lessons.when_to_stop import stop_table_by_total

    rows = dict(stop_table_by_total("pig", totals=range(0, 31)))
    # A turn total of 1 cannot happen (a 1 ends the turn); every other total to 30 can.
    assert sorted(rows) == [0, *range(2, 31)]
    for t, facts in rows.items():
        # One roll from t: 1/6 loses t, faces 2-6 add 20 in all: 5t/6 + 20/6.
        assert facts.ev_draw_once == Fraction(5 * t + 20, 6)
        assert facts.ev_stop == (None if t == 0 else t)
    assert rows[19].best_action == "draw" and rows[20].best_action == "stop"


def test_lesson_2_refuses_totals_for_a_card_game():
    from pushluck_teach.games.base import RulesError
    from pushluck_teach.ui.lessons.when_to_stop import stop_table_by_total

    with pytest.raises(RulesError, match="turn total"):
        stop_table_by_total("hit-list", totals=range(2, 12))


def test_lesson_6_optimal_against_itself_wins_half_in_both_seats():
    from pushluck_teach.games.base import get_game
    from pushluck_teach.solve.whole_game import pig
    from pushluck_teach.ui.lessons.winning_the_game import both_seats, rules_against_optimal

    piglet = get_game("pig").presets["piglet"]
    first, second, average = both_seats(pig.evaluate_match, piglet, "optimal")
    # The same policy in both seats: the first seat's edge cancels out exactly.
    assert first == pytest.approx(1 - second) and average == pytest.approx(0.5)
    view = rules_against_optimal(pig.evaluate_match, piglet, ["hold:2", "optimal"])
    assert view.values["optimal"] == pytest.approx(0.5)
    assert view.values["hold:2"] <= 0.5 + 1e-12 and len(view.lines) == 2
