"""The generic exact solver, on Pig (published answers) and on small hand-made turn models."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel
from pushluck_teach.games.pig import PigTurnModel, PigVariant
from pushluck_teach.solve.turn import TurnSolver, expectation

# Neller & Presser: the turn outcome distribution of "hold at 20" in Pig, six decimals.
HOLD_AT_20 = {0: 0.624541, 20: 0.099713, 21: 0.094991, 22: 0.074189, 23: 0.054196,
              24: 0.035198, 25: 0.017173}


@pytest.mark.parametrize("exact", [False, True])
def test_pig_hold_at_20_distribution_matches_the_published_table(exact: bool) -> None:
    solver = TurnSolver(PigTurnModel(PigVariant()), exact=exact)
    dist = solver.distribution(policy=solver.threshold_policy(20))
    assert {int(k): round(float(v), 6) for k, v in dist.items()} == HOLD_AT_20
    assert sum(dist.values()) == (1 if exact else pytest.approx(1.0, abs=1e-12))


def test_pig_optimal_turn_is_hold_at_20_and_values_agree() -> None:
    solver = TurnSolver(PigTurnModel(PigVariant()), exact=True)
    optimal = solver.distribution()
    assert optimal == solver.distribution(policy=solver.threshold_policy(20))
    assert expectation(optimal) == solver.value()
    # Hand check: from total 18 one more roll is worth (0 + 20 + 21 + ... + 24) / 6, and
    # drawing from 18 or 19 is better than holding, as "hold at 20" says.
    assert solver.action_value(("turn", 18), DRAW) == Fraction(sum(18 + k for k in range(2, 7)), 6)
    analysis = solver.analyse(("turn", 18))
    assert analysis.ev_stop == 18
    assert analysis.ev_draw_once == Fraction(sum(18 + k for k in range(2, 7)), 6)
    assert analysis.p_bust_next == Fraction(1, 6)
    assert analysis.best_action == DRAW


def test_tie_prefers_stop() -> None:
    analysis = TurnSolver(PigTurnModel(PigVariant()), exact=True).analyse(("turn", 20))
    assert analysis.ev_stop == analysis.ev_draw_once == 20
    assert analysis.best_action == STOP
    float_analysis = TurnSolver(PigTurnModel(PigVariant())).analyse(("turn", 20))
    assert float_analysis.best_action == STOP


def test_nothing_drawn_means_no_stop_value() -> None:
    analysis = TurnSolver(PigTurnModel(PigVariant())).analyse()
    assert analysis.ev_stop is None
    assert analysis.ev_draw_once == pytest.approx(20 / 6)


def test_terminal_positions_are_rejected() -> None:
    solver = TurnSolver(PigTurnModel(PigVariant()))
    with pytest.raises(PositionError, match="turn is over"):
        solver.analyse(("end", 0, True))


@dataclass(frozen=True)
class Urn(TurnModel[tuple]):
    """A toy turn: an urn of ``good`` cards worth 1 and ``bad`` cards that bust.

    A "bonus" card forces one more draw (``is_forced``), and a "choice" card lets the player
    take 5 points or 0 (a non-draw decision).  Small enough to check by hand.
    """

    good: int = 2
    bad: int = 1
    bonus: int = 0
    choice: int = 0

    @property
    def start(self) -> tuple:
        return ("go", 0, self.good, self.bad, self.bonus, self.choice, False, False)

    def actions(self, s: tuple) -> tuple[str, ...]:
        if s[0] == "end":
            return ()
        if s[0] == "pick":
            return ("take5", "take0")
        if s[7]:
            return (DRAW,)
        return (DRAW, STOP) if s[6] else (DRAW,)

    def transitions(self, s: tuple, action: str) -> list[tuple[int, tuple]]:
        _, total, good, bad, bonus, choice, _drawn, _forced = s
        if action == STOP:
            return [(1, ("end", total, False))]
        if action in ("take5", "take0"):
            gain = 5 if action == "take5" else 0
            return [(1, ("go", total + gain, good, bad, bonus, choice, True, False))]
        out = []
        if good:
            out.append((good, ("go", total + 1, good - 1, bad, bonus, choice, True, False)))
        if bad:
            out.append((bad, ("end", 0, True)))
        if bonus:
            out.append((bonus, ("go", total, good, bad, bonus - 1, choice, True, True)))
        if choice:
            out.append((choice, ("pick", total, good, bad, bonus, choice - 1, True, False)))
        if not out:
            return [(1, ("end", total, False))]
        return out

    def payoff(self, s: tuple) -> int:
        return s[1]

    def is_bust(self, s: tuple) -> bool:
        return bool(s[2])

    def turn_total(self, s: tuple) -> int:
        return s[1]

    def is_forced(self, s: tuple) -> bool:
        return s[0] == "go" and s[7]


def test_urn_by_hand() -> None:
    # Two good, one bad.  From the start: draw (must).  After one good (total 1, urn: 1 good, 1
    # bad): stop = 1, draw = 1/2 * (2 then stop or draw->bust) = 1/2 * 2 = 1: tie, stop.
    solver = TurnSolver(Urn(), exact=True)
    assert solver.value() == Fraction(2, 3) * 1
    after_one = ("go", 1, 1, 1, 0, 0, True, False)
    assert solver.best_action(after_one) == STOP
    assert solver.analyse(after_one).ev_draw_once == 1
    assert solver.p_bust_next() == Fraction(1, 3)
    dist = solver.distribution()
    assert dist == {0: Fraction(1, 3), 1: Fraction(2, 3)}


def test_forced_draws_count_towards_the_next_draws_bust_chance() -> None:
    # One good, one bad, one bonus (forces a further draw).  P(bust on the next draw) =
    # 1/3 (bad) + 1/3 * (bonus then bad: 1/2) = 1/2.
    solver = TurnSolver(Urn(good=1, bad=1, bonus=1), exact=True)
    assert solver.p_bust_next() == Fraction(1, 2)
    labels = {o.label for o in solver.next_outcomes()}
    assert len(labels) == 3


def test_other_choices_are_made_optimally_and_never_count_as_busts() -> None:
    solver = TurnSolver(Urn(good=0, bad=1, choice=1), exact=True)
    pick = ("pick", 0, 0, 1, 0, 0, True, False)
    assert solver.best_action(pick) == "take5"
    assert solver.p_bust_next() == Fraction(1, 2)
    # Draw once then stop: 1/2 * bust + 1/2 * (take 5, then stop) = 5/2.
    assert solver.analyse().ev_draw_once == Fraction(5, 2)
    assert solver.value() == Fraction(5, 2)


def test_float_and_exact_modes_agree_on_the_urn() -> None:
    model = Urn(good=3, bad=2, bonus=1, choice=1)
    exact, approx = TurnSolver(model, exact=True), TurnSolver(model)
    a, b = exact.analyse(), approx.analyse()
    for name in ("p_bust_next", "ev_draw_once", "ev_optimal"):
        assert float(getattr(a, name)) == pytest.approx(getattr(b, name), abs=1e-9)
    assert a.best_action == b.best_action
