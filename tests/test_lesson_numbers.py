"""Every check-yourself answer of the lessons, and the numbers their texts state, against an
independent computation: a hand count, a published value, a second solver written from the
rules alone (``scripts/teaching_answers.py``, ``tests/pig_by_hand.py``: neither imports the
package), or a simulation of the real engine within 4 standard errors (fixed seeds).

Each lesson's page is built by running its notebook's own cells (:mod:`notebook_cells`), so
the numbers checked are those of the page's example, not of arguments copied from it.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from teaching_answers_script import TA  # the lessons' answers by hand

from pushluck_teach.ui import lessons as L
from pushluck_teach.ui.lessons.markov_chain import lesson_chain

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))
import pig_by_hand  # noqa: E402  (the tests' own independent Pig solver)
from notebook_cells import code_cells, run_notebook, shown_by  # noqa: E402  (a notebook's own cells)

LESSON_7 = "Lesson_7_Investing_Under_Uncertainty.ipynb"




CHAIN_EXAMPLES = {"pig": ("", 20), "hit-list": ("5h 9s", None), "captain-seven": ("Kh Tc 5d", None)}


# ---- Lesson 1 -----------------------------------------------------------------------------


def test_lesson_1_answer_is_the_hand_count():
    lesson = shown_by("Lesson_1_Next_Card.ipynb")
    assert lesson.question.answer == TA.lesson1() == Fraction(3, 25)
    # before the question is answered the page counts cards (6 bust cards of 50), no 3/25
    assert "3/25" not in lesson.counts.value and "0.12" not in lesson.counts.value
    assert list(lesson.outcome_fig.data[0].y).count(6) == 1  # the bust bar: 3 fives, 3 nines
    assert "3/25" not in lesson.path_fig.data[0].text
    lesson.question.reveal()
    assert "data-exact='3/25'" in lesson.counts.value
    assert "3/25" in lesson.path_fig.data[0].text


def test_lesson_1_think_about_it_an_ace_makes_the_risk_fall_to_zero():
    # "Why can the bust risk fall after a draw?": an ace is an ally that stops the next bust,
    # so after 5h 9s Ah no card can end the turn (hand count: 0 dangerous cards).
    lesson = L.NextCardLesson(game="lands-uncharted", drawn="5h 9s Ah")
    assert lesson.question.answer == 0
    lesson.question.reveal()
    bust_line = lesson.path_fig.data[0].y
    assert bust_line[2] == pytest.approx(3 / 25) and bust_line[3] == 0


# ---- Lesson 2 -----------------------------------------------------------------------------


def test_lesson_2_answer_is_453_over_50_by_hand():
    lesson = shown_by("Lesson_2_When_To_Stop.ipynb")
    assert lesson.question.answer == TA.lesson2() == Fraction(453, 50)
    assert "453/50" not in lesson.summary.value and "9.06" not in lesson.summary.value
    assert "9.06" not in str(lesson.bars.data[0].text)
    lesson.question.text.value = "9.06"
    assert lesson.question.revealed and "453/50" in lesson.summary.value


def test_lesson_2_text_lands_uncharted_draw_once_by_hand():
    lesson = L.WhenToStopLesson(game="lands-uncharted", drawn="5h 9s")
    # By hand (docs/teaching.md, Lesson 2), 50 cards left: 12 threats and 4 aces keep the 14;
    # the six 5s and 9s bust (0); the 28 cards of ranks 2 3 4 6 7 8 10 bank 14 + their rank,
    # 4 of each: (16*14 + 28*14 + 4*(2+3+4+6+7+8+10)) / 50 = 776/50.
    assert lesson.question.answer == Fraction(776, 50)


# ---- Lesson 3 -----------------------------------------------------------------------------


def test_lesson_3_answer_and_distribution_by_a_second_solver():
    lesson = shown_by("Lesson_3_Turn_As_Markov_Chain.ipynb")
    rolls, points = TA.pig_turn(20)
    assert lesson.question.answer == rolls
    position = L.lesson_position("pig")
    facts = lesson_chain(position, 20)
    by_hand = TA.pig_turn_distribution(20)
    assert {int(k): v for k, v in facts.distribution.items()} == by_hand
    assert facts.p_bust == by_hand[0]
    assert sum(k * p for k, p in facts.distribution.items()) == points


# ---- Lesson 4 -----------------------------------------------------------------------------


def test_lesson_4_answer_by_a_second_solver():
    lesson = shown_by("Lesson_4_Exact_vs_Simulation.ipynb")
    assert lesson.question.answer == TA.pig_turn(None)[1] == Fraction(492303203, 60466176)


# ---- Lesson 5 -----------------------------------------------------------------------------


def test_lesson_5_answer_by_a_second_solver():
    lesson = shown_by("Lesson_5_Rule_Variants.ipynb")
    by_hand = (TA.lands_uncharted_turn([5, 9, 7], True)
               - TA.lands_uncharted_turn([5, 9, 7], False))
    assert lesson.question.answer == by_hand == 5


@pytest.mark.slow
def test_lesson_5_try_question_by_a_second_solver():
    # "Try: remove the 7♣ ... By how much does the optimal value change, and why is it less
    # than 5?"  (the second solver is slow on this haul)
    lesson = L.RuleVariantsLesson(game="lands-uncharted", drawn="5h 9s", left="standard",
                                  right="buried-treasure")
    by_hand = TA.lands_uncharted_turn([5, 9], True) - TA.lands_uncharted_turn([5, 9], False)
    assert lesson.question.answer == by_hand
    assert 0 < by_hand < 5


# ---- Lesson 6: Pig ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pig_optimal():
    return pig_by_hand.optimal()


def test_lesson_6_first_player_wins_53_06_percent(pig_optimal):
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game import pig

    start, _hold = pig_optimal
    shown = pig.optimal_solution(PigVariant()).p_win_first
    # Published: Neller and Presser (2004), the first player wins 53.06% under optimal play.
    assert round(100 * shown, 2) == 53.06
    assert shown == pytest.approx(start[0, 0], abs=1e-9)


def test_lesson_6_rules_of_thumb_by_a_second_solver(pig_optimal):
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game import pig
    from pushluck_teach.ui.lessons.winning_the_game import rules_against_optimal

    _start, optimal = pig_optimal
    shown = rules_against_optimal(pig.evaluate_match, PigVariant(),
                                  ["hold:20", "hold:25", "keep-pace"]).values
    for rule, mask in (("hold:20", pig_by_hand.hold_at(20)), ("hold:25", pig_by_hand.hold_at(25)),
                       ("keep-pace", pig_by_hand.keep_pace())):
        first = pig_by_hand.first_player_wins(mask, optimal)
        second = 1 - pig_by_hand.first_player_wins(optimal, mask)
        assert shown[rule] == pytest.approx((first + second) / 2, abs=1e-9), rule
    # The text: keep pace "comes within a percentage point of optimal play"; hold at 20
    # "gives away several points of winning chance".
    assert 0.5 - shown["keep-pace"] < 0.01
    assert 0.5 - shown["hold:20"] > 0.03


def test_lesson_6_check_yourself_both_hold_at_20():
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game import pig
    from pushluck_teach.ui.lessons.winning_the_game import chance_question

    answer = pig.evaluate_match(PigVariant(), "hold:20", "hold:20").p_win_first
    assert answer == pytest.approx(TA.pig_match_hold(20, 20), abs=1e-9)
    question = chance_question("Both hold at 20?", answer)
    question.text.value = f"{100 * TA.pig_match_hold(20, 20):.1f}%"
    assert question.check()
    question.text.value = "53.06%"  # optimal play's number is not the answer
    assert not question.check()


# ---- Lesson 6: Captain Seven (simulation of the real engine) --------------------------------


def _both_seats_by_simulation(rule: str, games: int, seed: int) -> tuple[float, float]:
    """(mean, standard error) of ``rule``'s chance against the optimised rule, both seats."""
    from pushluck_teach.games.base import get_game
    from pushluck_teach.sim.policy_bots import WholeGamePolicyBot, policy_bot
    from pushluck_teach.sim.run import simulate_games

    spec = get_game("captain-seven")

    def bot(text: str) -> WholeGamePolicyBot:
        return policy_bot("captain-seven", text)

    def score(winners: tuple[int, ...], seat: int) -> float:
        return 0.0 if seat not in winners else 1.0 / len(winners)

    first = [score(w, 0) for w, _ in simulate_games(spec, [bot(rule), bot("optimal")], games,
                                                    seed)]
    second = [score(w, 1) for w, _ in simulate_games(spec, [bot("optimal"), bot(rule)], games,
                                                     seed + 1)]
    samples = [(a + b) / 2 for a, b in zip(first, second, strict=True)]
    mean = sum(samples) / games
    var = sum((x - mean) ** 2 for x in samples) / (games - 1)
    return mean, (var / games) ** 0.5


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "seed"), [("threshold:35", 35), ("chase:27", 27),
                                            ("threshold:31", 31), ("chase:25", 25)])
def test_lesson_6_captain_seven_rules_against_the_engine(rule, seed):
    from pushluck_teach.games.captain_seven import CaptainSevenVariant
    from pushluck_teach.solve.whole_game import captain_seven as c7
    from pushluck_teach.ui.lessons.winning_the_game import both_seats

    shown = both_seats(c7.evaluate_match, CaptainSevenVariant(), rule)[2]
    mean, stderr = _both_seats_by_simulation(rule, 6000, seed)
    assert abs(mean - shown) <= 4 * stderr, (rule, mean, stderr, shown)


def test_lesson_6_give_away_text_matches_the_best_rules():
    from pushluck_teach.games.captain_seven import CaptainSevenVariant
    from pushluck_teach.solve.whole_game import captain_seven as c7
    from pushluck_teach.ui.lessons.winning_the_game import both_seats, rules_give_away

    view = rules_give_away(c7.threshold_give_away, CaptainSevenVariant())
    for _kind, (rule, chance) in view.values["best"].items():
        # the best rule's chance is the same two matches the lesson's duels compute
        assert chance == pytest.approx(both_seats(c7.evaluate_match, CaptainSevenVariant(),
                                                  rule)[2], abs=1e-12)
    best = view.values["best"]
    # The text: a final turn played right (chase) is worth far more than the exact threshold.
    assert 0.5 - best["chase"][1] < (0.5 - best["threshold"][1]) / 2


# ---- Lesson 7 -----------------------------------------------------------------------------


def test_lesson_7_check_yourself_answer_is_the_count_of_orders():
    """The page's question (its notebook's last cell; the luck-versus-skill simulation cell is
    not needed) against counting the orders of the 11 unseen cards by hand."""
    cells = len(code_cells(LESSON_7))
    question = run_notebook(LESSON_7, skip=(cells - 2,)).shown[-1]
    assert question.answer == TA.lost_cities_check() == Fraction(4, 11)
