"""Lesson 8 ("Luck or skill?"): its two check-yourself answers against Pig solved again from the
rules alone (``tests/pig_by_hand.py``, which imports nothing of the package), and the lesson's
widgets as a student uses them (the answer hidden until tried, one marking rule)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pig_by_hand
import pytest

from pushluck_teach.games.pig import PigVariant
from pushluck_teach.solve.whole_game import pig
from pushluck_teach.ui.lessons.luck_or_skill import (
    cost_question,
    decision_cost,
    luck_in_a_match,
    luck_question,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "Lesson_8_Luck_Or_Skill.ipynb"


@cache
def by_hand() -> tuple[np.ndarray, np.ndarray]:
    """Optimal Pig to 100 by value iteration, written from the rules: (start, hold mask)."""
    return pig_by_hand.optimal(100)


def roll_and_hold_by_hand(i: int, j: int, k: int) -> tuple[float, float]:
    """The mover's chance to win on rolling and on holding at (i, j, k), from the start values:
    a 1 hands the opponent (j, i); 2-6 add to the turn total; holding hands over (j, i + k)."""
    start, _hold = by_hand()
    value = pig_by_hand._turn_values(None, start, 100)
    rolling = (1 - start[j, i]) / 6 + sum(value[k + face, i, j] for face in range(2, 7)) / 6
    holding = 1.0 if i + k >= 100 else 1 - start[j, i + k]
    return float(rolling), float(holding)


def test_the_review_line_question_matches_pig_solved_by_hand() -> None:
    solution = pig.optimal_solution(PigVariant())
    held = decision_cost(solution.roll_values, solution.hold_values, 40, 80, 20, "hold")
    rolling, holding = roll_and_hold_by_hand(40, 80, 20)
    assert held.best == "roll"
    assert held.cost == pytest.approx(rolling - holding, abs=1e-9)
    assert 0.02 < held.cost < 0.04  # about three percentage points: visible, not huge
    rolled = decision_cost(solution.roll_values, solution.hold_values, 40, 80, 20, "roll")
    assert rolled.cost == 0


@pytest.mark.slow
def test_hold_at_20_against_optimal_matches_pig_solved_by_hand() -> None:
    _start, optimal = by_hand()
    hold_20 = pig_by_hand.hold_at(20)
    first = pig_by_hand.first_player_wins(hold_20, optimal)
    second = 1 - pig_by_hand.first_player_wins(optimal, hold_20)
    match = luck_in_a_match(pig.evaluate_match, PigVariant(), "hold:20", "hold at 20")
    assert match.first == pytest.approx(first, abs=1e-9)
    assert match.second == pytest.approx(second, abs=1e-9)
    assert match.average == pytest.approx((first + second) / 2, abs=1e-9)
    # two standard errors of the optimal player's share p over n games: by hand from p
    p = 1 - (first + second) / 2
    n = match.games_to_tell
    assert p - 0.5 >= 2 * (p * (1 - p) / n) ** 0.5  # n games are enough...
    assert p - 0.5 < 2 * (p * (1 - p) / (n - 1)) ** 0.5  # ...and one fewer is not


def test_luck_question_hides_the_answer_until_tried() -> None:
    match = luck_in_a_match(pig.evaluate_match, PigVariant(), "hold:20", "hold at 20")
    question = luck_question(match)
    shown = f"{100 * match.average:.2f}%"
    assert shown not in question.question.value and not question.feedback.value
    question.text.value = "30%"
    assert "✘" in question.feedback.value and shown not in question.feedback.value
    question.text.value = f"{100 * match.average:.1f}%"
    assert "✔" in question.feedback.value and shown in question.feedback.value
    assert str(match.games_to_tell) in question.feedback.value
    assert question.revealed


def test_cost_question_marks_a_percentage_and_states_the_rule() -> None:
    solution = pig.optimal_solution(PigVariant())
    question = cost_question(decision_cost(solution.roll_values, solution.hold_values,
                                           40, 80, 20, "hold"))
    assert "40" in question.question.value and "80" in question.question.value
    assert "±0.2 percentage points" in question.rule_line.value
    question.text.value = "10%"
    assert "✘" in question.feedback.value
    question.show_button.click()
    assert "2.93%" in question.feedback.value and question.revealed


def test_bad_choice_is_one_line() -> None:
    solution = pig.optimal_solution(PigVariant())
    with pytest.raises(ValueError, match="^a choice is 'roll' or 'hold'"):
        decision_cost(solution.roll_values, solution.hold_values, 0, 0, 5, "bank")


def test_notebook_is_thin_and_starts_with_its_title() -> None:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    assert "".join(cells[0]["source"]).startswith("# Lesson 8")
    for cell in cells:
        if cell["cell_type"] == "code":
            assert len(cell["source"]) <= 12, "a lesson's code cell stays a few calls"
    start = (ROOT / "notebooks" / "00_Start_Here.ipynb").read_text(encoding="utf-8")
    assert "Lesson_8_Luck_Or_Skill.ipynb" in start


LESSON_CELLS = """
    import json
    cells = [c for c in json.load(open("notebooks/Lesson_8_Luck_Or_Skill.ipynb"))["cells"]
             if c["cell_type"] == "code"]
    scope = {}
    for cell in cells:
        exec("".join(cell["source"]), scope)
    print(scope["held_at_20"], scope["hold_20"])
"""


def test_the_lesson_without_numpy_gives_the_same_numbers() -> None:
    """The static site runs Lesson 8 without NumPy (the shipped tables read in plain Python):
    both answers equal the Voilà app's."""
    import subprocess
    import sys
    import textwrap

    from test_site_support import run_without_numeric

    blocked = run_without_numeric(LESSON_CELLS)
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(LESSON_CELLS)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600, check=True).stdout
    assert blocked == normal and "roll_chance=0.2314" in normal
