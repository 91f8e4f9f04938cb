"""Lesson numbers against references written from the rules alone (``tests/lessons_reference.py``)
where the lesson tests compared a number with itself or only counted pages: Lesson 6's two
seats, Lesson 3's chains for the card games, and the list of lesson pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lessons_reference import (  # pytest puts tests/ on the path
    captain_seven_turn,
    hit_list_turn,
    pig_optimal_hold,
    pig_seat_wins,
)

from pushluck_teach.games.base import get_game
from pushluck_teach.solve.whole_game import pig
from pushluck_teach.ui.lessons.common import lesson_position
from pushluck_teach.ui.lessons.markov_chain import lesson_chain
from pushluck_teach.ui.lessons.winning_the_game import both_seats

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

# The lessons, named here (not globbed): a missing or renamed page fails.
LESSONS = (
    "Lesson_1_Next_Card.ipynb",
    "Lesson_2_When_To_Stop.ipynb",
    "Lesson_3_Turn_As_Markov_Chain.ipynb",
    "Lesson_4_Exact_vs_Simulation.ipynb",
    "Lesson_5_Rule_Variants.ipynb",
    "Lesson_6_Winning_The_Game.ipynb",
    "Lesson_7_Investing_Under_Uncertainty.ipynb",
    "Lesson_8_Luck_Or_Skill.ipynb",
)


def test_the_lessons_exist_and_the_start_page_links_each() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("Lesson_*.ipynb")) == list(LESSONS)
    start = (NOTEBOOKS / "00_Start_Here.ipynb").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert lesson in start, f"the start page does not link {lesson}"
        cells = json.loads((NOTEBOOKS / lesson).read_text(encoding="utf-8"))["cells"]
        assert "".join(cells[0]["source"]).lstrip().startswith("#"), f"{lesson} has no title"


@pytest.mark.parametrize("rule", ["optimal", "hold:2"])
def test_lesson_6_both_seats_in_piglet_each_seat_computed_for_itself(rule: str) -> None:
    """Piglet (a two-sided die, target 4): the chance that the rule wins moving first, and
    moving second, each from a match walk for that seat (not 1 - the other seat's)."""
    piglet = get_game("pig").presets["piglet"]
    target, sides = piglet.target, piglet.die_sides
    optimal = pig_optimal_hold(target, sides)
    mine = optimal if rule == "optimal" else (lambda i, j, k: k >= 2 or i + k >= target)
    first_seat = pig_seat_wins(mine, optimal, 0, target, sides)
    second_seat = pig_seat_wins(optimal, mine, 1, target, sides)
    first, second, average = both_seats(pig.evaluate_match, piglet, rule)
    assert first == pytest.approx(first_seat, abs=1e-9)
    assert second == pytest.approx(second_seat, abs=1e-9)
    assert average == pytest.approx((first_seat + second_seat) / 2, abs=1e-9)
    if rule == "optimal":  # moving first is an advantage: the seats differ, the average is 1/2
        assert first_seat > 0.5 > second_seat
        assert average == pytest.approx(0.5, abs=1e-9)


@pytest.mark.parametrize(("game", "drawn", "reference"), [
    ("hit-list", "5h 9s", lambda: hit_list_turn(["5", "9"])),
    pytest.param("captain-seven", "Kh Tc 5d", lambda: captain_seven_turn(["K", "T", "5"]),
                 marks=pytest.mark.slow),  # the walk takes about 15 s
], ids=["hit-list", "captain-seven"])
def test_lesson_3_chains_of_the_card_games(game: str, drawn: str, reference) -> None:
    """Lesson 3's examples for the card games under optimal play: the expected number of
    draws, the chance to bust and the result's distribution."""
    value, draws, distribution, bust = reference()
    facts = lesson_chain(lesson_position(game, drawn), None)
    assert facts.expected_draws == draws
    assert facts.p_bust == bust
    assert {r: p for r, p in facts.distribution.items() if p} == distribution
    assert sum(r * p for r, p in facts.distribution.items()) == value
