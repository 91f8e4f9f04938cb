"""Lesson 8: luck or skill?  Reading a game's review, and how much luck decides a game.

The lesson's numbers come from the whole-game solvers, passed in by the notebook (nothing here
names a game or imports a game's solver), as in :mod:`.winning_the_game`:

* :func:`decision_cost`: what one decision cost in chance to win, from the solver's ``roll`` and
  ``hold`` arrays (the chance to win on each choice at a position);
* :func:`luck_in_a_match`: a rule against the optimal player in both seats, and how many games it
  takes before the better player's edge shows (two standard errors).

The games the students play and review are the Play table's own (its game record and review,
:mod:`pushluck_teach.ui.recording` and :mod:`pushluck_teach.ui.review_panel`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from pushluck_teach.games.base import Variant
from pushluck_teach.ui.lessons.winning_the_game import (
    MatchFunction,
    ShownAfterAnswer,
    both_seats,
    chance_question,
    percent_text,
)

ROLL = "roll"
HOLD = "hold"


@dataclass(frozen=True)
class DecisionCost:
    """One decision as a review lists it: the chance to win after each choice, the best choice
    and what the choice made cost (0 when it was the best)."""

    my_score: int
    opp_score: int
    turn_total: int
    chosen: str
    roll_chance: float
    hold_chance: float

    @property
    def best(self) -> str:
        return HOLD if self.hold_chance >= self.roll_chance else ROLL

    @property
    def cost(self) -> float:
        chosen = self.roll_chance if self.chosen == ROLL else self.hold_chance
        return max(self.roll_chance, self.hold_chance) - chosen

    def review_line(self) -> str:
        """The decision as one line of a review (HTML)."""
        return (f"Your score <b>{self.my_score}</b>, opponent <b>{self.opp_score}</b>, turn "
                f"total <b>{self.turn_total}</b>: you chose <b>{self.chosen}</b>; "
                f"best choice: <b>{self.best}</b>.")

    def explanation(self) -> str:
        return (f"<p>Rolling wins {percent_text(self.roll_chance)} of games from here, "
                f"holding {percent_text(self.hold_chance)}: the {self.chosen} cost "
                f"{100 * self.cost:.2f} percentage points of the chance to win. Small as it "
                "looks, a few such decisions add up over a game.</p>")


def decision_cost(roll: Any, hold: Any, my_score: int, opp_score: int, turn_total: int,
                  chosen: str) -> DecisionCost:
    """The review's numbers for ``chosen`` (``roll`` or ``hold``) at a position, from the
    solver's arrays ``roll[k, i, j]`` and ``hold[k, i, j]``."""
    if chosen not in (ROLL, HOLD):
        raise ValueError(f"a choice is {ROLL!r} or {HOLD!r}, not {chosen!r}")
    return DecisionCost(my_score, opp_score, turn_total, chosen,
                        float(roll[turn_total, my_score, opp_score]),
                        float(hold[turn_total, my_score, opp_score]))


def cost_question(cost: DecisionCost) -> Any:
    """Check yourself: what did this decision cost in chance to win?"""
    return chance_question(
        "<div class='pushluck-lesson-review-line'>" + cost.review_line() + "</div>"
        "How much did this choice cost in <b>chance to win</b>? (Type it as a percentage: "
        "2.5% for two and a half points of chance.)",
        cost.cost, explanation=cost.explanation())


@dataclass(frozen=True)
class LuckInAMatch:
    """A rule against the optimal player, both seats: its chance moving first and second, the
    average, and the games needed before the optimal player's edge is two standard errors."""

    rule: str
    label: str
    first: float
    second: float
    average: float

    @property
    def optimal_average(self) -> float:
        return 1 - self.average

    @property
    def games_to_tell(self) -> int:
        """Smallest n with ``p - 1/2 >= 2 sqrt(p (1 - p) / n)`` for the optimal player's ``p``."""
        p = self.optimal_average
        edge = p - 0.5
        if edge <= 0:
            raise ValueError("the optimal player has no edge here")
        return math.ceil(4 * p * (1 - p) / edge ** 2)

    def lines(self) -> str:
        """The answer's working (HTML)."""
        return (
            f"<p>Against the optimal player, <b>{escape(self.label)}</b> wins "
            f"{percent_text(self.first)} of games when it moves first and "
            f"{percent_text(self.second)} when it moves second: <b>"
            f"{percent_text(self.average)}</b> on average. The optimal player wins "
            f"{percent_text(self.optimal_average)}.</p>"
            f"<p>So the weaker player still wins almost one game in two: one game says little "
            f"about skill. For the better player's edge to stand out (two standard errors) "
            f"the class would need about <b>{self.games_to_tell}</b> games.</p>")


def luck_in_a_match(evaluate_match: MatchFunction, variant: Variant, rule: str,
                    label: str) -> LuckInAMatch:
    """``rule`` (the solver's name for it; ``label`` in words) against the optimal player in
    both seats (exact whole-game evaluation)."""
    first, second, average = both_seats(evaluate_match, variant, rule)
    return LuckInAMatch(rule, label, first, second, average)


def luck_question(match: LuckInAMatch) -> Any:
    """Check yourself: how often does the rule of thumb still beat the optimal player?"""
    return chance_question(
        f"A player who follows the rule <b>{escape(match.label)}</b> plays the optimal "
        f"player, many games, taking turns to move first. In what share of the games does "
        f"the {escape(match.label)} player win?", match.average, explanation=match.lines())


__all__ = [
    "DecisionCost", "LuckInAMatch", "ShownAfterAnswer", "cost_question", "decision_cost",
    "luck_in_a_match", "luck_question",
]
