"""Lost Cities' odds report (``pushluck odds lost-cities``, Lesson 7's explorer and bet table)
against a walk written from the rules alone (``tests/lost_cities_reference.py``: its own
scoring, its own plan, exact fractions).  The positions with 30 cards in the deck (Lesson 7's
table) are slow: the walk goes through fourteen draws."""

from __future__ import annotations

from fractions import Fraction

import pytest
from lost_cities_reference import colour_cards, expedition_score, odds  # tests/ is on the path

from pushluck_teach.games import get_game

GAME = get_game("lost-cities")

# Lesson 7's bet table (notebooks/Lesson_7_Investing_Under_Uncertainty.ipynb), its explorer's
# opening position, its check-yourself question, and positions with an expedition and seen cards.
POSITIONS = {
    "R4 R6 R9, deck 30": {"colour": "R", "hand": "R4 R6 R9", "deck_left": "30"},
    "R4 R6 R9, deck 10": {"colour": "R", "hand": "R4 R6 R9", "deck_left": "10"},
    "R7 R9 R10, deck 30": {"colour": "R", "hand": "R7 R9 R10", "deck_left": "30"},
    "R2 R3 R5, deck 10": {"colour": "R", "hand": "R2 R3 R5", "deck_left": "10"},
    "RH R4 R6 R9, deck 30": {"colour": "R", "hand": "RH R4 R6 R9", "deck_left": "30"},
    "explorer": {"colour": "R", "hand": "R4 R6 R9 B2 B3 G7 W5 Y8", "deck_left": "30"},
    "check yourself": {"colour": "R", "hand": "R6", "expedition": "2 3 4 5", "deck_left": "3"},
    "blue, seen cards": {"colour": "B", "hand": "BH B3 B8", "expedition": "H",
                         "seen": "B4 B5 BH", "deck_left": "13"},
    "handshakes only": {"colour": "G", "hand": "GH GH", "deck_left": "7"},
}


def reference(flags: dict[str, str], extra_handshake: bool = False):
    colour = flags["colour"]
    hand = colour_cards(flags.get("hand", ""), colour)
    if extra_handshake:
        hand.append(0)
    return odds(hand, colour_cards(flags.get("expedition", ""), colour),
                colour_cards(flags.get("seen", ""), colour), int(flags["deck_left"]))


def test_the_rules_scoring_checks() -> None:
    assert expedition_score([2, 3, 7, 8, 10]) == 10
    assert expedition_score([0, 0, 4, 5, 6, 7, 8, 10]) == 80
    assert expedition_score([0, 4, 6, 7]) == -6


@pytest.mark.parametrize("label", [
    pytest.param(label, marks=[pytest.mark.slow] if flags["deck_left"] == "30" else [])
    for label, flags in POSITIONS.items()])  # deck 30: fifteen turns, tens of seconds each
def test_the_report_is_the_rules_walk(label: str) -> None:
    flags = POSITIONS[label]
    report = GAME.odds(GAME.variant(), dict(flags)).as_json(exact=True)
    mine = reference(flags)
    shown = {score: Fraction(p) for score, p in report["plan"]["distribution"]}
    assert shown == {s: p for s, p in mine.distribution.items() if p}, label
    assert Fraction(report["plan"]["mean"]) == mine.mean
    assert Fraction(report["plan"]["p_positive"]) == mine.p_positive
    deck = int(flags["deck_left"])
    pool = deck + 8
    for row in report["missing"]:
        assert Fraction(row["p_drawn_in_time"]) == Fraction((deck + 1) // 2 - 1, pool)
        assert Fraction(row["p_opponent_holds"]) == Fraction(8, pool)
    if report.get("extra_handshake"):
        plus = reference(flags, extra_handshake=True)
        assert Fraction(report["extra_handshake"]["mean"]) == plus.mean, label
        assert Fraction(report["extra_handshake"]["p_positive"]) == plus.p_positive, label


def test_lesson_7_check_yourself_by_the_walk() -> None:
    # R2-R5 played, R6 in hand, deck 3: two turns, one draw in time from 11 unseen
    assert reference(POSITIONS["check yourself"]).p_positive == Fraction(4, 11)
