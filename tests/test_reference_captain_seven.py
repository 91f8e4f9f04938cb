"""Captain Seven's whole game against a second solver written from the rules alone
(``tests/captain_seven_reference.py``, which imports nothing of the package).

Fast: one turn's outcome distribution under every threshold up to 40, the last turn's best
chances, and the Bellman equation of the package's target-100 solution (the one Lesson 6 and
``pushluck solve`` show: 54.13 %, a threshold of 31 at 0-0) at the states whose best threshold
the short walk covers.  Slow: the whole game to 15 solved from scratch (every win chance, the
thresholds, and what fixed rules give away in both seats)."""

from __future__ import annotations

import numpy as np
import pytest
from captain_seven_reference import (  # pytest puts tests/ on the path
    chase_rule,
    final_turn_value,
    first_player_value,
    optimal_rule,
    solve,
    threshold_rule,
    turn_masses,
)

from pushluck_teach.games.captain_seven import CaptainSevenVariant
from pushluck_teach.solve.whole_game import captain_seven as package

SHORT_WALK = 40  # thresholds 1..40: about two seconds


@pytest.fixture(scope="module")
def short_walk():
    return turn_masses(SHORT_WALK)


def test_one_turn_under_every_threshold(short_walk) -> None:
    for t in range(1, SHORT_WALK + 1):
        mine = short_walk.distribution(t)
        theirs = package.turn_distribution(t)
        assert set(theirs) <= set(mine), t
        for x, p in mine.items():
            assert theirs.get(x, 0.0) == pytest.approx(p, abs=1e-13), (t, x)
    # by hand: stashing at 1 is caught only by a first joker (2/54, total 0) followed by a
    # catcher (four 7s, one joker: 5/53) or a 7-ending total (a 7 can't be: 0 + 7 is a 7 card)
    assert short_walk.distribution(1)[0] == pytest.approx(2 / 54 * 5 / 53, abs=1e-15)


def test_the_last_turn_s_best_chances(short_walk) -> None:
    final_value, _ = package.final_turn_table()
    for d in range(1, SHORT_WALK - 1):  # a last turn needs no threshold above d + 1
        best = max(final_turn_value(short_walk.distribution(t), d)
                   for t in range(1, SHORT_WALK + 1))
        assert final_value[d] == pytest.approx(best, abs=1e-13), d


def test_the_published_target_100_solution_satisfies_the_rules_bellman_equation(
        short_walk) -> None:
    """W(a, b) = max over T of the turn's outcomes, each worth 1 - the opponent's chance
    afterwards (caught: 1 - W(b, a); a stash below 100: 1 - W(b, a + x); reaching 100: 1 - the
    opponent's best last turn).  No threshold up to 40 may do better than the package's value,
    and where the package's threshold is at most 40 it must reach it."""
    solution = package.optimal_solution(CaptainSevenVariant())
    assert round(100 * solution.p_win_first, 2) == 54.13  # Lesson 6's figure
    assert solution.threshold(0, 0) == 31  # "at 0-0 it stashes once the turn total reaches 31"
    g, w = 100, solution.start
    final, _ = package.final_turn_table()
    dists = {t: short_walk.distribution(t) for t in range(1, SHORT_WALK + 1)}
    rng = np.random.default_rng(7)
    states = [(0, 0), (50, 50), (90, 95), (99, 0), (0, 99)] + [
        tuple(int(v) for v in rng.integers(0, g, 2)) for _ in range(60)]
    reached = 0
    for a, b in states:
        def worth(dist: dict[int, float], a: int = a, b: int = b) -> float:
            total = dist.get(0, 0.0) * (1 - w[b, a])
            for x, p in dist.items():
                if x:
                    total += p * (1 - (final[a + x - b] if a + x >= g else w[b, a + x]))
            return total

        best = max(worth(dist) for dist in dists.values())
        assert best <= w[a, b] + 1e-12, (a, b, best, w[a, b])
        t = solution.threshold(a, b)
        if t <= SHORT_WALK:
            reached += 1
            assert worth(dists[t]) == pytest.approx(w[a, b], abs=1e-12), (a, b, t)
    assert reached >= len(states) // 2


@pytest.mark.slow
def test_the_whole_game_to_15_from_scratch() -> None:
    """Thresholds up to 90 walked (a couple of minutes): the game to 15 solved from the rules,
    every start-of-turn chance and each threshold the package picks, and both seats of fixed
    rules against the optimal player (what a rule gives away)."""
    target = 15
    masses = turn_masses(90)
    mine = solve(target, masses)
    variant = CaptainSevenVariant(target=target)
    theirs = package.optimal_solution(variant)
    for a in range(target):
        for b in range(target):
            assert theirs.start[a, b] == pytest.approx(mine.win[(a, b)], abs=1e-12), (a, b)
            t_theirs, t_mine = theirs.threshold(a, b), mine.threshold[(a, b)]
            # two thresholds are the same rule when no stash lies between them (a total
            # ending in 7 is never stashed): compare what they stash
            same = masses.distribution(t_theirs) == pytest.approx(masses.distribution(t_mine),
                                                                   abs=1e-14)
            assert same, (a, b, t_theirs, t_mine)
    optimal = optimal_rule(mine)
    give_away = package.threshold_give_away(variant)
    rules = {"threshold:10": threshold_rule(10), "chase:12": chase_rule(12, mine),
             "threshold:35": threshold_rule(35)}
    for kind in ("threshold", "chase"):
        label = give_away.best[kind][0]
        t = int(label.partition(":")[2])
        rules[label] = threshold_rule(t) if kind == "threshold" else chase_rule(t, mine)
    for label, rule in rules.items():
        first = first_player_value(target, masses, rule, optimal)
        second = 1 - first_player_value(target, masses, optimal, rule)
        assert package.evaluate_match(variant, label, "optimal").p_win_first == \
            pytest.approx(first, abs=1e-12), label
        assert 1 - package.evaluate_match(variant, "optimal", label).p_win_first == \
            pytest.approx(second, abs=1e-12), label
        if label in give_away.labels:
            shown = give_away.chances[give_away.labels.index(label)]
            assert shown == pytest.approx((first + second) / 2, abs=1e-12), label
