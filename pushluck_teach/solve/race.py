r"""Racing alone to a target: the expected number of turns, exactly.

Assume every turn starts from the same position (the deck reshuffled each turn, or dice), as in
Captain Seven, Pig and built games with ``reshuffle_each_turn``.  A player with score ``s``
below the target ``G`` plays the rule "stop once the turn total reaches ``min(T, G - s)``"
(a threshold ``T``, but never more than what is missing).  Let ``p_L(x)`` be the distribution
of one turn's result under the threshold ``L`` (:meth:`TurnSolver.distribution`).  The
expected number of turns ``E(s)`` to reach ``G`` from ``s`` satisfies

.. math::

    E(s) = 1 + p_L(0)\, E(s) + \sum_{x > 0,\ s + x < G} p_L(x)\, E(s + x),
    \qquad L = \min(T, G - s),

so, solved backwards from ``s = G - 1``,
:math:`E(s) = \bigl(1 + \sum_{x>0,\,s+x<G} p_L(x) E(s+x)\bigr) / (1 - p_L(0))`.  Results below
zero (a bust that loses points) would make the chain go back down; those games are refused.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import PositionError, RulesError, TurnModel
from pushluck_teach.solve.turn import Number, PolicyGraph, TurnSolver

MAX_TARGET = 5000


def expected_turns_to_target(model: TurnModel[Any], target: int, threshold: int | None, *,
                             start: Any = None, exact: bool = False,
                             solver: TurnSolver[Any] | None = None,
                             graph: PolicyGraph | None = None) -> Number:
    """``E(0)`` of the module docstring: turns to reach ``target`` alone from a score of 0.

    ``threshold=None``: each turn plays the turn-optimal policy, except that it stops as soon
    as the turn total covers what is missing (``min(∞, G - s)``); ``graph``: the optimal
    policy's graph from ``start`` (``solver.optimal_graph``), when the caller has it."""
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET:
        raise RulesError(f"target must be a whole number 1-{MAX_TARGET}, not {target!r}")
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int)
                                  or threshold < 1):
        raise RulesError(f"threshold must be a whole number of at least 1, not {threshold!r}")
    start = model.start if start is None else start
    solver = solver or TurnSolver(model, exact=exact)
    levels: dict[int, dict[Any, Any]] = {}
    one = Fraction(1) if solver.exact else 1.0
    expected: dict[int, Any] = {}
    top = threshold
    if threshold is None:
        graph = graph or solver.optimal_graph(start)
        top = int(max(model.turn_total(s) for s in graph.order)) + 1
        levels = solver.capped_distributions(
            start, sorted({min(top, target - score) for score in range(target)}), graph=graph)
    for score in range(target - 1, -1, -1):
        level = min(top, target - score)
        dist = levels.get(level)
        if dist is None:
            dist = levels[level] = solver.distribution(start, solver.threshold_policy(level))
        if any(x < 0 for x in dist):
            raise RulesError("expected turns: a bust here loses points, so a score can go "
                             "down; this race is not computed")
        stay = dist.get(0, 0 * one)
        if stay >= 1:
            raise PositionError("expected turns: a turn can never score here")
        acc = one
        for result, p in dist.items():
            if result > 0 and score + result < target:
                acc += p * expected[score + int(result)]
        expected[score] = acc / (1 - stay)
    return expected[0]


__all__ = ["expected_turns_to_target"]
