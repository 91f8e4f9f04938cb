"""Lesson widgets: the check-yourself answers come from the solver; bad input never raises."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui import lessons as L
from pushluck_teach.ui.lessons.answers import (
    CHANCE,
    COUNTED_PROBABILITY,
    EXPECTED_VALUE,
    check_answer,
)

# The lessons name no game: these are the games and positions their notebooks pass.
CHAIN_EXAMPLES = {"pig": ("", 20), "hit-list": ("5h 9s", None), "captain-seven": ("Kh Tc 5d", None)}


@pytest.mark.parametrize(("text", "ok"), [
    ("3/25", True), ("6/50", True), ("0.12", True), ("12%", True), ("0.120", True),
    ("0.1215", True), ("12.1 %", True), ("0,12", True), (".12", True),
    ("0.1", False), ("0.123", False), ("12.3%", False), ("13%", False), ("1/8", False),
    ("0.13", False),
    ("12", False), ("abc", False), ("1/0", False), ("", False), ("3/x", False),
])
def test_check_answer(text, ok):
    """A counted probability (3/25): fractions exactly, decimals and percentages within ±0.2
    percentage points."""
    assert L.check_answer(text, Fraction(3, 25))[0] is ok


def test_one_rule_for_a_whole_game_chance():
    """The Lesson 6 complaint, 0.53 right but 53% wrong: now a decimal and a percentage of one
    size get one mark (within ±0.2 percentage points of 0.534698); a fraction is held to the
    same tolerance (the chance is not a countable fraction); no message asks for an exact
    fraction; optimal play's 53.06%, shown on the page, is not the answer."""
    for typed in ("0.535", "53.5%", "53.47%", "0.5347", "53.6%", "0.5333", "8/15"):
        ok, message = check_answer(typed, 0.534698, CHANCE)
        assert ok, (typed, message)
    for typed in ("0.53", "53%", "0.52", "54%", "53.06%", "1/2"):
        ok, message = check_answer(typed, 0.534698, CHANCE)
        assert not ok and "exact fraction" not in message, typed


def test_one_rule_for_an_expected_value():
    """Expected values: the fraction exactly, a decimal within ±0.01; a percentage refused."""
    answer = Fraction(453, 50)  # 9.06
    for typed, ok in (("453/50", True), ("906/100", True), ("9.06", True), ("9.07", True),
                      ("9.1", False), ("9", False), ("9/1", False), ("906%", False)):
        assert check_answer(typed, answer, EXPECTED_VALUE)[0] is ok, typed
    assert "not a percentage" in check_answer("906%", answer, EXPECTED_VALUE)[1]


@given(st.fractions(min_value=0, max_value=1, max_denominator=60),
       st.integers(min_value=3, max_value=4))
def test_any_decimal_or_percentage_near_a_probability_is_right(answer, places):
    """The answer rounded to 3-4 decimals, as a decimal or as a percentage, is always right;
    the same number moved by more than 0.2 percentage points never is."""
    rounded = round(float(answer), places)
    assert check_answer(f"{rounded:.{places}f}", answer)[0]
    assert check_answer(f"{100 * rounded:.{places - 2}f}%", answer)[0]
    far = float(answer) + 0.00201 if answer < Fraction(1, 2) else float(answer) - 0.00201
    assert not check_answer(f"{far:.6f}", answer)[0]
    assert not check_answer(f"{100 * far:.4f}%", answer)[0]


@given(st.fractions(min_value=0, max_value=1, max_denominator=60), st.integers(1, 9))
def test_a_counted_probability_takes_every_equal_fraction_and_no_other(answer, scale):
    typed = f"{answer.numerator * scale}/{answer.denominator * scale}"
    assert check_answer(typed, answer)[0]
    other = answer + Fraction(1, 1000)
    assert not check_answer(f"{other.numerator}/{other.denominator}", answer)[0]


@given(st.fractions(min_value=0, max_value=1, max_denominator=60))
def test_the_placeholder_never_carries_the_answer(answer):
    """The answer box's hint shows a fraction at least 0.1 away from the answer."""
    for rule in (COUNTED_PROBABILITY, CHANCE):
        hint = rule.placeholder(answer)
        example = Fraction(hint.split("like ")[1].split(",")[0])
        assert abs(example - answer) >= Fraction(1, 10)


def test_every_answer_box_states_the_rule_and_reveals_on_a_right_answer_or_show():
    question = L.CheckAnswer("How likely?", Fraction(3, 25))
    assert "percentage points" in question.rule_line.value and not question.revealed
    question.text.value = "0.2"
    assert not question.revealed and "✘" in question.feedback.value
    question.text.value = "12%"
    assert question.revealed and "3/25" in question.feedback.value
    question.set_answer(Fraction(1, 17))  # the position changed: hidden again, the box empty
    assert not question.revealed and question.text.value == "" and question.feedback.value == ""
    question.reveal()
    assert question.revealed and "1/17" in question.feedback.value


def test_lesson_1_answer_is_the_counted_bust_probability():
    lesson = L.NextCardLesson(game="lands-uncharted", drawn="5h 9s")
    # Three 5s and three 9s are left among 50 cards.
    assert lesson.question.answer == Fraction(6, 50)
    lesson.question.text.value = "3/25"
    assert lesson.question.check()
    for _ in range(2):
        before = lesson.drawn.value.split()
        lesson.draw_random()
        after = lesson.drawn.value.split()
        if after == before:  # the card ended the turn: the position stays, the message says so
            assert "You drew" in lesson.message.value
        else:  # one card more, and the page shows the new position (not an error line)
            assert after[:-1] == before and "Position:" in lesson.message.value
            assert lesson.question.answer == _lands_bust_by_hand(after)
        assert ERROR_COLOUR not in lesson.message.value


ERROR_COLOUR = "#A63F00"  # the lessons write error lines in a dark vermillion (6.3:1 on white)


def _lands_bust_by_hand(drawn: list[str]) -> Fraction:
    """Lands Uncharted, P(next draw busts), counted from the rules: an ally held stops any bust;
    else the cards left whose number is in the haul, plus every threat left once the haul holds
    one, out of the cards left."""
    ranks = {code[0] for code in drawn if code[0] in "23456789T"}
    threat = any(code[0] in "JQK" for code in drawn)
    if any(code[0] == "A" for code in drawn):
        return Fraction(0)
    left = 52 - len(drawn)
    dangerous = 3 * len(ranks) + (12 - sum(code[0] in "JQK" for code in drawn) if threat else 0)
    return Fraction(dangerous, left)


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
    # the page opens with one batch under its seed (its chart is never empty)
    first.add()
    second.add()
    assert first.samples == second.samples and len(first.samples) == 2000
    pos = L.lesson_position("pig")
    assert first.question.answer == TurnSolver(pos.model, exact=True).value()
    first.add()
    # a bad seed: one line, and the 3,000 simulations stay (the chart too)
    first.seed.value = "x1"
    assert "Bad seed 'x1'" in first.message.value.replace("&#x27;", "'")
    assert len(first.samples) == 3000 and first.figure.data[2].y
    first.add()
    assert len(first.samples) == 3000 and "Bad seed" in first.message.value
    first.seed.value = "8"  # a good seed starts again under it
    assert len(first.samples) == 1000 and "seed 8" in first.message.value


def test_lesson_4_hides_the_exact_value_until_answered():
    lesson = L.SimulationLesson(game="pig", seed=7)
    exact = f"{float(lesson.question.answer):.4f}"[:-1]
    assert not lesson.figure.data[3].y and exact not in lesson.summary.value
    lesson.question.text.value = "8.14"
    assert lesson.question.revealed and lesson.figure.data[3].y
    assert exact in lesson.summary.value


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


def test_lesson_6_optimal_against_itself_wins_half():
    from pushluck_teach.games.base import get_game
    from pushluck_teach.solve.whole_game import pig
    from pushluck_teach.ui.lessons.winning_the_game import rules_against_optimal

    piglet = get_game("pig").presets["piglet"]
    view = rules_against_optimal(pig.evaluate_match, piglet, ["hold:2", "optimal"])
    assert view.values["optimal"] == pytest.approx(0.5)
    assert view.values["hold:2"] <= 0.5 + 1e-12 and len(view.lines) == 2


def test_lessons_1_and_2_clear_an_old_position_after_an_input_error():
    first = L.NextCardLesson(game="lands-uncharted", drawn="5h 9s")
    assert first.outcome_fig.data[0].x  # the old position's bars
    first.set_drawn("5h 5h")
    assert ERROR_COLOUR in first.message.value and "5h" in first.message.value
    assert not first.outcome_fig.data[0].x and not first.path_fig.data[0].x
    assert first.counts.value == "" and first.question.answer is None
    first.question.text.value = "3/25"
    assert not first.question.check() and "Fix the cards" in first.question.feedback.value
    first.set_drawn("5h 9s")  # a good position brings everything back
    assert first.question.answer == Fraction(3, 25) and first.outcome_fig.data[0].x

    second = L.WhenToStopLesson(game="hit-list", drawn="9h 6c")
    assert second.bars.data[0].y[0] == 15
    second.drawn.value = "9h Zz"
    assert ERROR_COLOUR in second.message.value and "Zz" in second.message.value
    assert all(y is None for y in second.bars.data[0].y)
    assert second.summary.value == "" and second.question.answer is None


def test_lesson_6_explorer_holds_its_data_before_any_view():
    import numpy as np

    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game import pig
    from pushluck_teach.ui.lessons.winning_the_game import PositionExplorer

    solution = pig.optimal_solution(PigVariant())
    explorer = PositionExplorer(solution.start, solution.roll_values, solution.hold_values,
                                target=100, min_total=2)
    # What a browser view draws when it opens: the synced state, not an empty chart.
    roll, hold = explorer.chart._widget_data[0], explorer.chart._widget_data[1]
    assert list(roll["x"]) == list(range(2, 100))
    assert np.allclose(roll["y"], solution.roll_values[2:100, 0, 0])
    assert np.allclose(hold["y"], solution.hold_values[2:100, 0, 0])
    assert explorer.gauge._widget_data[0]["value"] == pytest.approx(100 * solution.start[0, 0])
    explorer.mine.value, explorer.theirs.value = 77, 10
    roll = explorer.chart._widget_data[0]
    assert list(roll["x"]) == list(range(2, 23))  # a turn total of 23 reaches 100
    assert np.allclose(roll["y"], solution.roll_values[2:23, 77, 10])
    assert "With 77 against 10" in explorer.advice.value


@pytest.mark.slow
@pytest.mark.parametrize(("game", "policy", "games", "label", "out_word", "line"), [
    ("lands-uncharted", "threshold:20", 400, "Lands Uncharted solo, bank at 20", None,
     "Lands Uncharted solo, bank at 20: model mean 120.80, real game 124.11 ± 1.70 "
     "(400 games)"),
    ("hit-list", "threshold:17", 150, "Lone Gunman, execute from 17", "executed",
     "Lone Gunman, execute from 17: model mean 53.32 (executed 20.81%), real game 52.56 ± 2.36 "
     "(150 games)"),
])
def test_lesson_6_solo_check_shows_the_model_at_once_and_the_real_games_later(
        game, policy, games, label, out_word, line):
    """Lesson 6's solo checks, as the page builds them: the model's line and bars first, marked
    as still working while the engine plays the real games; then the line the lesson printed
    (these seeds' games) and the simulated frequencies, which sum to one, with their mean."""
    from html import unescape

    from pushluck_teach.ui.lessons.winning_the_game import SoloModelVsGame

    view = SoloModelVsGame(game, policy, games=games, seed=1, label=label, out_word=out_word,
                           title="t")
    first = unescape(view.line.value)  # the games take a second or more: still being played
    assert line.split(", real game")[0] in first and "pushluck-pending" in first
    assert f"playing {games} games" in first and len(view.chart.data[1].x) == 0
    view.wait()
    shown = unescape(view.line.value)
    assert line in shown and "pushluck-pending" not in shown
    model_bars, simulated = view.chart.data
    assert sum(model_bars.y) == pytest.approx(1.0, abs=1e-9)
    assert sum(simulated.y) == pytest.approx(1.0, abs=1e-9)
    assert len(view.chart.layout.shapes) == 2  # the model's mean and the simulated mean
    assert view.values["simulated_mean"] == pytest.approx(float(line.split("real game ")[1]
                                                                .split(" ")[0]), abs=5e-3)


def test_lesson_6_questions_are_typed():
    from pushluck_teach.ui.lessons.winning_the_game import chance_question

    question = chance_question("What is the chance?", 0.534698, explanation="<p>why</p>")
    for typed, ok in (("0.535", True), ("53.5%", True), ("53%", False), ("0.53", False),
                      ("0.6", False), ("abc", False)):
        question.text.value = typed
        assert question.check() is ok, typed
    question.reveal()
    assert "53.47%" in question.feedback.value and "why" in question.feedback.value


def test_lesson_2_switching_game_starts_from_its_example_not_a_dead_end():
    lesson = L.WhenToStopLesson(game="hit-list", drawn="9h 6c")
    lesson.game.value = "pig"  # "9h 6c" are not rolls: the game's example position comes instead
    assert lesson.drawn.value == "3 5" and ERROR_COLOUR not in lesson.message.value
    # Pig from a turn total of 8: one roll then hold is worth (5*8 + 20)/6 = 10 by hand.
    assert lesson.question.answer == 10


def test_lessons_3_and_5_clear_an_old_position_after_an_input_error():
    chain = L.MarkovChainLesson(game="pig", threshold=20, examples=CHAIN_EXAMPLES)
    assert chain.graph.data[1].x and chain.question.answer is not None
    chain.drawn.value = "1"
    assert ERROR_COLOUR in chain.message.value
    assert not chain.graph.data[1].x and chain.summary.value == ""
    assert chain.question.answer is None

    variants = L.RuleVariantsLesson(game="lands-uncharted", drawn="5h 9s 7c", left="standard",
                                    right="buried-treasure")
    assert variants.question.answer == 5
    variants.drawn.value = "5h 5h"
    assert ERROR_COLOUR in variants.message.value and "5h" in variants.message.value
    assert variants.left_html.value == variants.right_html.value == ""
    assert not variants.figure.data[0].x and variants.question.answer is None


def test_lesson_5_hides_optimal_play_until_answered():
    lesson = L.RuleVariantsLesson(game="lands-uncharted", drawn="5h 9s 7c", left="standard",
                                  right="buried-treasure")
    assert lesson.left.label == "standard rules" and lesson.right.label == "Buried treasure"
    assert lesson.figure not in lesson.row.children  # its results' means are the two values
    assert "<td>optimal play</td><td>?</td>" in lesson.left_html.value
    assert "<td>stop now</td><td>26</td>" in lesson.right_html.value
    lesson.question.text.value = "4"
    assert not lesson.question.revealed and lesson.figure not in lesson.row.children
    lesson.question.reveal()
    assert lesson.figure in lesson.row.children and lesson.hidden.value == ""
    assert "<td>optimal play</td><td>26</td>" in lesson.right_html.value


def test_lesson_5_whole_turn_comparison_counts_seconds_and_names_options():
    import time

    from pushluck_teach.ui.lessons.rule_variants import WholeTurnComparison

    # the lesson's own comparison: it takes seconds (Pig's is over before the first look)
    comparison = WholeTurnComparison("lands-uncharted", ("standard", "buried-treasure"),
                                     tick=0.05)
    assert "Computing both rule sets" in comparison.progress.value
    spec_cls = comparison.comparison.spec.variant_cls
    for name, control in comparison.comparison.a.controls.items():
        assert control.description == spec_cls.option_info(name).label != name
    deadline = time.monotonic() + 120
    while comparison.comparison.status.startswith("Computing") and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    assert comparison.progress.value == "" and "computed" in comparison.comparison.status
