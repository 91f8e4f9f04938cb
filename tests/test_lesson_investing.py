"""Lesson 7 (investing under uncertainty): its widgets and its check-yourself answer."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pushluck_teach.games import get_game
from pushluck_teach.games.base import RulesError
from pushluck_teach.sim.duel import matches_needed
from pushluck_teach.ui.lessons.investing import (
    LuckVersusSkill,
    OddsExplorer,
    answer_from_report,
    bet_table,
)

GAME = get_game("lost-cities")


def test_the_check_yourself_answer_by_hand() -> None:
    """Deck 3, R2-R5 on the expedition, R6 in hand, nothing else red seen: 11 unseen cards
    (3 in the deck, 8 with the opponent); one of your draws comes in time.  The expedition
    ends above 0 exactly when that draw is R7, R8, R9 or R10: 4 cards of 11."""
    question = {"colour": "R", "hand": "R6", "expedition": "2 3 4 5", "deck_left": "3"}
    assert answer_from_report(GAME, GAME.variant(), question, "plan.p_positive") == \
        Fraction(4, 11)
    with pytest.raises(RulesError, match="no 'plan.nothing'"):
        answer_from_report(GAME, GAME.variant(), question, "plan.nothing")


def test_the_explorer_follows_the_boxes_and_refuses_bad_input() -> None:
    explorer = OddsExplorer("lost-cities", {"colour": "R", "hand": "R4 R6 R9", "deck_left": "30"})
    figures = list(explorer.figures)
    assert len(figures) == 3 and "Open red" in explorer.headline.value
    explorer.boxes["deck_left"].value = "1"          # one turn left: R4 alone, -16
    assert explorer.figures == figures                # rewritten in place
    assert list(figures[0].data[0].x) == ["-16"] and list(figures[0].data[0].y) == [1.0]
    explorer.boxes["hand"].value = "R4 R4"
    assert "named 2 times" in explorer.message.value
    assert list(figures[0].data[0].x) == ["-16"]      # the last good report stays
    with pytest.raises(RulesError, match="no report of its own"):
        OddsExplorer("pig", {})


def test_bet_table_columns_are_the_reports_numbers() -> None:
    view = bet_table(GAME, GAME.variant(), {
        "three reds": {"colour": "R", "hand": "R4 R6 R9", "deck_left": "30"},
        "with a handshake": {"colour": "R", "hand": "RH R4 R6 R9", "deck_left": "30"},
    }, {"mean": "plan.mean", "+1": "extra_handshake.mean"})
    assert view.values["three reds"]["+1"] == view.values["with a handshake"]["mean"]
    assert len(view.lines) == 3


def test_matches_needed() -> None:
    # (1.96 x 42.3 / 3.6)^2 = 530.4...: 531 matches
    assert matches_needed(3.6, 42.3) == 531
    assert matches_needed(40, 10) == 1
    with pytest.raises(ValueError):
        matches_needed(0, 10)


def test_luck_versus_skill_between_identical_bots() -> None:
    widget = LuckVersusSkill("lost-cities", "simple", "simple", options={"matches": 1},
                             batch=8, first_batch=3, background=False, decision_worth=3.6)
    assert widget.result is not None and widget.result.pairs == 3
    assert widget.result.mean_difference == 0            # mirrored: the luck cancels exactly
    # three deal pairs: no interval, no count of matches, and the page says why
    assert "interval" not in widget.summary.value.replace("too few deals for an interval", "")
    assert "too few deals" in widget.summary.value and "One good decision" not in \
        widget.summary.value
    widget.button.click()
    assert widget.result.pairs == 11 and len(widget.figure.data[0].x) == 22
    assert "95 % interval" in widget.summary.value
    assert "—" in widget.summary.value and "One good decision" in widget.summary.value
    with pytest.raises(RulesError, match="unknown bot"):
        LuckVersusSkill("lost-cities", "oracle", "simple", start=False)


@pytest.mark.slow
def test_luck_versus_skill_in_the_background() -> None:
    widget = LuckVersusSkill("lost-cities", "odds", "simple", options={"matches": 1}, batch=8)
    assert widget.result is not None and widget.result.pairs == 2      # the first batch
    assert "too few deals" in widget.summary.value
    lines: list[str] = []
    widget.summary.observe(lambda change: lines.append(change["new"]), "value")
    widget.play_batch()
    widget.wait()
    assert widget.result.pairs == 10
    assert "ordinary matches" in widget.summary.value
    # while the deals are played the line says so, marked as work in progress
    assert "pushluck-pending" in lines[0] and "(playing…)" in lines[0], lines
    assert "pushluck-pending" not in widget.summary.value
