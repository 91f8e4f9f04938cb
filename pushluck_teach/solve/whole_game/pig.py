r"""Pig as a whole game: the chance of winning, optimal play, rules of thumb, game length.

**The game as a Markov decision process** (Neller and Presser, "Optimal Play of the Dice Game
Pig", UMAP Journal 25(1), 2004).  Two players race to the goal :math:`G` (``target``).  The die
has :math:`s` faces (``die_sides``); a 1 busts (the turn total is lost and the turn passes), a
face :math:`f \ge 2` adds :math:`f` to the turn total.  Let :math:`P(i, j, k)` be the probability
that the player to move wins, with score :math:`i`, opponent's score :math:`j` and turn total
:math:`k`, both playing optimally.  With :math:`V(i, j) = P(i, j, 0)` (the start of a turn):

.. math::

    P_\text{hold}(i, j, k) &= 1 - V(j, i + k) \quad (= 1 \text{ when } i + k \ge G), \\
    P_\text{roll}(i, j, k) &= \tfrac{1}{s}\bigl(1 - V(j, i)\bigr)
                              + \tfrac{1}{s}\textstyle\sum_{f=2}^{s} P(i, j, k + f), \\
    P(i, j, k) &= \max\bigl(P_\text{roll}, P_\text{hold}\bigr) \quad (k \ge 1), \qquad
    P(i, j, 0) = P_\text{roll}(i, j, 0),

and :math:`P(i, j, k) = 1` once :math:`i + k \ge G` (holding wins at once; every policy here
holds then).  **A turn starts with a roll** (docs/rules.md; the engine has no "hold" before the
first roll): holding at :math:`k = 0` would only pass the turn, and we do not allow it.  In
Neller and Presser's formulation it is allowed but never chosen in the published games, so the
values agree: the published Piglet values are reproduced exactly, and the tests check that for
Pig to 100 rolling at :math:`k = 0` is at least as good as passing in every :math:`(i, j)`.

**Value iteration, vectorised.**  The table ``P[k, i, j]`` is a numpy float64 array of shape
``(G + s, G, G)`` (rows :math:`k \ge G` are all 1).  One *sweep* holds :math:`V` fixed and runs
:math:`k = G-1, \dots, 0`, computing the whole :math:`G \times G` slice ``P[k]`` at once from the
slices above it (so within a turn the recursion is exact: Gauss-Seidel along :math:`k`) and
from :math:`V` (Jacobi across turns); the new :math:`V` is ``P[0]``.  Sweeps repeat from
:math:`V = 0` until no value changes by more than ``tol`` (default ``1e-13``); the result agrees
with the exact fractions to about ``1e-12`` (tested).  Ties :math:`P_\text{hold} \ge
P_\text{roll} - 10^{-12}` are resolved as *hold*, like the turn solver.  The optimal policy is
read off the converged table; it is the same policy for both players (the game is symmetric
apart from who moves).

**Exact fractions** (small goals, :data:`EXACT_MAX_TARGET`).  Scores never fall, so the states
split into partitions by the score sum :math:`i + j`: holding moves to a larger sum, busting
swaps to :math:`(j, i)` with the same sum.  From the largest sum down, for each pair
:math:`x = V(i, j)`, :math:`y = V(j, i)` the turn from :math:`k = 0` under a fixed policy gives
:math:`x = a_x + b_x (1 - y)` by backward induction over :math:`k` (:math:`b_x` the chance of
busting, :math:`a_x` the value of the holds), and likewise :math:`y`; the 2×2 linear system is
solved exactly (gmpy2 rationals).  For optimal play the pair's policies are improved (best
response to the current :math:`y`, :math:`x`) and re-solved until they no longer change, so the
final values satisfy the Bellman equations exactly.

**Fixed policies against each other.**  A policy is a hold mask ``H[k, i, j]`` (hold with turn
total :math:`k`, own score :math:`i`, opponent's :math:`j`).  Replacing the max above by the mask
gives a linear system in :math:`W_A` and :math:`W_B`, the win probabilities of the first and of
the second player when each is to move; bust and hold values of one refer to the other's
:math:`W`.  It is solved by the same sweeps (alternating A and B) to the same tolerance.
Policies (``--policy``):

* ``optimal``: Neller and Presser's optimal policy (the self-play optimum above; against a fixed
  rule it is *not* re-optimised as a best response);
* ``hold:N``: hold once the turn total reaches :math:`N` or holding would reach the goal;
* ``keep-pace`` ("keep pace and end race", Neller and Presser): if either player has
  :math:`R = 71` or more, roll until holding wins; otherwise hold at
  :math:`21 + \operatorname{round}((j - i)/8)`, halves rounded up, at least 1.  For other goals
  the race line is scaled, :math:`R = \operatorname{round}(71\,G/100)`; 21 and 8 are kept (they
  are about the die, not the goal).

**Solitaire: turns to reach the goal** under ``hold:N``.  One turn from score :math:`i` ends
with a bust (score unchanged) or a hold of some total :math:`t \ge \min(N, G - i)`; its exact
distribution comes from a forward pass over :math:`k`.  The scores :math:`0..G-1` are the
transient states of an absorbing Markov chain with turn-to-turn matrix :math:`Q`; with the
fundamental matrix :math:`N = (I - Q)^{-1}` the expected numbers of turns are :math:`m = N
\mathbf 1` and the second moments :math:`(2N - I)m`, computed by sparse solves
(``scipy.sparse.linalg.spsolve``).  The distribution of the number of turns :math:`T` from 0 is
:math:`P(T = n) = e_0^\top Q^{n-1} r` (:math:`r` the one-turn absorption probabilities), by
repeated sparse products until less than ``1e-12`` of the mass is left (reported as the tail).

**Storage.**  The cache (:mod:`pushluck_teach.solve.cache`) keeps only :math:`V` (``G×G``
float64, 80 KB for Pig to 100) for an optimal solution: one sweep rebuilds the whole table from
it (milliseconds).  A match keeps :math:`W_A`, :math:`W_B` (float64).  Goals up to
:data:`MAX_TARGET` are solved (memory grows as :math:`G^3`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from pushluck_teach.games.base import DRAW, STOP, Engine, RulesError
from pushluck_teach.games.pig import PigVariant
from pushluck_teach.numbers import fraction_text
from pushluck_teach.solve import cache
from pushluck_teach.solve.whole_game import PolicyChooser, WholeGameReport
from pushluck_teach.solve.whole_game.pig_chances import (
    CHANCES,
    DESCRIPTION,
    GAME,
    MAX_SWEEPS,
    MAX_TURNS,
    POLICY_HELP,
    TAIL_MASS,
    TIE,
    TOLERANCE,
    PigModel,
    PigPolicy,
    match_key,
    optimal_key,
)
from pushluck_teach.solve.whole_game.pig_chances import check_position as _check_position

try:
    from gmpy2 import mpq as _rational
except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
    _rational = Fraction

#: Largest goal the exact-fraction solvers accept.
EXACT_MAX_TARGET = 30


# --------------------------------------------------------------------------------------------
# The game's chance structure


ModelLike = PigModel | PigVariant


def as_model(game: ModelLike) -> PigModel:
    return game if isinstance(game, PigModel) else PigModel.from_variant(game)


# --------------------------------------------------------------------------------------------
# Vectorised sweeps


def _win_mask(model: PigModel) -> np.ndarray:
    """``[k, i, j]``: holding wins (``i + k >= G``), shape ``(G, G, G)``."""
    g = model.target
    k = np.arange(g)[:, None, None]
    i = np.arange(g)[None, :, None]
    return np.broadcast_to(i + k >= g, (g, g, g))


def _new_table(model: PigModel) -> np.ndarray:
    return np.ones((model.depth, model.target, model.target))


def _sweep(model: PigModel, v_opp: np.ndarray, hold: np.ndarray | None,
           table: np.ndarray) -> None:
    """One sweep for the player to move, in place: ``table[k, i, j]`` for ``k = G-1 .. 0``.

    ``v_opp[j, i]`` is the opponent's chance of winning when it is to move at the start of a
    turn (its score first).  ``hold`` is a fixed policy's hold mask, or None for the max.
    """
    g = model.target
    padded = np.zeros((g + model.depth, g))
    padded[:g] = v_opp.T  # padded[m, j] = v_opp[j, m]; 0 once m >= G (holding wins)
    bust = model.p_bust * (1.0 - v_opp.T)
    scale = 1.0 / model.sides
    acc = np.empty((g, g))
    for k in range(g - 1, -1, -1):
        np.copyto(acc, table[k + model.faces[0]])
        for face in model.faces[1:]:
            acc += table[k + face]
        acc *= scale
        acc += bust
        if k == 0:
            table[0] = acc
        elif hold is None:
            np.maximum(acc, 1.0 - padded[k:k + g], out=table[k])
        else:
            table[k] = np.where(hold[k], 1.0 - padded[k:k + g], acc)


def _roll_hold_values(model: PigModel, table: np.ndarray, v_opp: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """``(roll, hold)`` win probabilities for every ``[k, i, j]`` with ``k < G``."""
    g = model.target
    roll = sum(table[f:f + g] for f in model.faces) / model.sides
    roll = roll + model.p_bust * (1.0 - v_opp.T)[None]
    padded = np.zeros((2 * g, g))
    padded[:g] = v_opp.T
    idx = np.arange(g)[:, None] + np.arange(g)[None, :]  # [k, i] -> i + k
    hold = 1.0 - padded[idx]
    return roll, hold


# --------------------------------------------------------------------------------------------
# Optimal play


@dataclass(frozen=True, eq=False)
class PigSolution:
    """Optimal play of two-player Pig: ``table[k, i, j] = P(i, j, k)``."""

    model: PigModel
    table: np.ndarray
    sweeps: int
    residual: float

    @property
    def start(self) -> np.ndarray:
        """``V[i, j] = P(i, j, 0)``: the mover's chance to win at the start of a turn."""
        return self.table[0]

    @property
    def p_win_first(self) -> float:
        """The first player's chance to win from 0-0."""
        return float(self.table[0, 0, 0])

    def win_probability(self, my_score: int, opp_score: int, turn_total: int = 0) -> float:
        i, j, k = _check_position(self.model, my_score, opp_score, turn_total)
        if i + k >= self.model.target:
            return 1.0
        return float(self.table[k, i, j])

    @cached_property
    def _roll_hold(self) -> tuple[np.ndarray, np.ndarray]:
        return _roll_hold_values(self.model, self.table, self.start)

    @property
    def roll_values(self) -> np.ndarray:
        """``[k, i, j]``: the chance to win if the mover rolls now (then plays optimally)."""
        return self._roll_hold[0]

    @property
    def hold_values(self) -> np.ndarray:
        """``[k, i, j]``: the chance to win if the mover holds now (1 if that reaches G)."""
        return self._roll_hold[1]

    @cached_property
    def hold_mask(self) -> np.ndarray:
        """``[k, i, j]``: the optimal policy holds (ties go to hold; never at ``k = 0``)."""
        roll, hold = self._roll_hold
        mask = hold >= roll - TIE
        mask[0] = False
        mask |= _win_mask(self.model)
        mask.flags.writeable = False
        return mask

    @cached_property
    def hold_boundary(self) -> np.ndarray:
        """``[i, j]``: the smallest reachable turn total at which the optimal player holds
        (``G - i`` when it rolls on until holding wins)."""
        reach = self.model.reachable_totals()
        mask = self.hold_mask & reach[:, None, None]
        mask[0] = False
        first = np.argmax(mask, axis=0)
        never = self.model.target - np.arange(self.model.target)[:, None]
        return np.where(mask.any(axis=0), first, never).astype(np.int64)

    def is_threshold_policy(self) -> bool:
        """Whether in every ``(i, j)`` the optimal player holds at every reachable total from
        the hold boundary on (the policy is "hold at h(i, j)")."""
        reach = self.model.reachable_totals()
        k = np.arange(self.model.target)[:, None, None]
        above = (k >= self.hold_boundary[None]) & reach[:, None, None]
        return bool(np.all(self.hold_mask[above]))


def solve_optimal(game: ModelLike, *, tol: float = TOLERANCE) -> PigSolution:
    """Value iteration from scratch (no cache): see the module docstring."""
    model = as_model(game)
    table = _new_table(model)
    v = np.zeros((model.target, model.target))
    for sweep in range(1, MAX_SWEEPS + 1):
        _sweep(model, v, None, table)
        delta = float(np.max(np.abs(table[0] - v)))
        v = table[0].copy()
        if delta <= tol:
            return PigSolution(model, table, sweep, delta)
    raise RuntimeError(f"Pig value iteration did not converge in {MAX_SWEEPS} sweeps")


def _solution_from_start(model: PigModel, v: np.ndarray, sweeps: int, residual: float
                         ) -> PigSolution:
    table = _new_table(model)
    _sweep(model, v, None, table)
    return PigSolution(model, table, sweeps, residual)


def _optimal_arrays(model: PigModel) -> dict[str, np.ndarray]:
    solution = solve_optimal(model)
    return {"start": solution.start, "sweeps": np.array(solution.sweeps),
            "residual": np.array(solution.residual)}


@lru_cache(maxsize=8)
def _stored_arrays(model: PigModel) -> dict[str, np.ndarray]:
    return cache.cached_arrays(optimal_key(model), lambda: _optimal_arrays(model))


def stored_start(model: PigModel) -> np.ndarray:
    """``V`` as stored (shipped, from the disk cache, or solved now): the optimal solution's
    table is one sweep from it, and so are the gauge's positions
    (:mod:`~pushluck_teach.solve.whole_game.pig_chances`)."""
    return _stored_arrays(model)["start"]


@lru_cache(maxsize=8)
def _optimal_cached(model: PigModel) -> PigSolution:
    arrays = _stored_arrays(model)
    return _solution_from_start(model, arrays["start"], int(arrays["sweeps"]),
                                float(arrays["residual"]))


def optimal_solution(game: ModelLike) -> PigSolution:
    """The optimal solution, from memory, the shipped data or the disk cache, else solved."""
    return _optimal_cached(as_model(game))


def pig_win_probability(variant: PigVariant, my_score: int, opp_score: int,
                        turn_total: int = 0) -> float:
    """The chance that the player to move wins two-player Pig from here, both playing optimally
    (``turn_total`` = this turn's points so far, 0 before the first roll)."""
    return optimal_solution(variant).win_probability(my_score, opp_score, turn_total)


def pig_action_win_probabilities(variant: PigVariant, my_score: int, opp_score: int,
                                 turn_total: int = 0) -> dict[str, float | None]:
    """The mover's chance to win if it rolls (``"draw"``) or holds (``"stop"``; None before the
    first roll) now, playing optimally afterwards."""
    solution = optimal_solution(variant)
    i, j, k = _check_position(solution.model, my_score, opp_score, turn_total)
    if i + k >= solution.model.target:
        model = solution.model
        roll_on = model.p_bust * (1.0 - solution.start[j, i]) + len(model.faces) / model.sides
        return {DRAW: float(roll_on), STOP: 1.0}
    # one position of :func:`_roll_hold_values`, the same sums in the same order (the live
    # gauge asks at every click; the whole arrays would hold 16 MB per solution)
    model, start = solution.model, solution.start
    roll = sum(solution.table[k + face, i, j] for face in model.faces) / model.sides
    roll = roll + model.p_bust * (1.0 - start[j, i])
    return {DRAW: float(roll), STOP: None if k == 0 else float(1.0 - start[j, i + k])}


# --------------------------------------------------------------------------------------------
# Fixed policies


def race_line(model: PigModel) -> int:
    """Keep pace and end race's race line: 71 for goal 100, ``round(71 G / 100)`` otherwise."""
    return (71 * model.target + 50) // 100


def keep_pace_threshold(model: PigModel, my_score: int, opp_score: int) -> int | None:
    """The turn total at which keep pace and end race holds (None: roll until holding wins)."""
    if max(my_score, opp_score) >= race_line(model):
        return None
    return max(1, 21 + (opp_score - my_score + 4) // 8)


@lru_cache(maxsize=32)
def _policy_mask(policy: PigPolicy, model: PigModel) -> np.ndarray:
    g = model.target
    k = np.arange(g)[:, None, None]
    if policy.kind == "optimal":
        mask = optimal_solution(model).hold_mask.copy()
    elif policy.kind == "hold":
        mask = np.broadcast_to(k >= policy.hold_at, (g, g, g)).copy()
    else:
        i = np.arange(g)[:, None]
        j = np.arange(g)[None, :]
        threshold = np.maximum(1, 21 + (j - i + 4) // 8)
        race = np.maximum(i, j) >= race_line(model)
        threshold = np.where(race, g + 1, threshold)
        mask = k >= threshold[None]
    mask |= _win_mask(model)
    mask[0] = False
    mask.flags.writeable = False
    return mask


@dataclass(frozen=True, eq=False)
class PigMatch:
    """Two fixed policies against each other (``first`` moves first).

    ``first_start[i, j]``: the first player's chance to win when it is to move at the start of a
    turn with score ``i`` against ``j``; ``second_start[i, j]`` likewise for the second player
    (its own score first).
    """

    model: PigModel
    first: PigPolicy
    second: PigPolicy
    first_start: np.ndarray
    second_start: np.ndarray
    sweeps: int
    residual: float

    @property
    def p_win_first(self) -> float:
        return float(self.first_start[0, 0])

    @property
    def p_win_second(self) -> float:
        return 1.0 - self.p_win_first


def evaluate_match_uncached(game: ModelLike, first: str | PigPolicy, second: str | PigPolicy,
                            *, tol: float = TOLERANCE) -> PigMatch:
    """Policy evaluation by sweeps to convergence (no cache): see the module docstring."""
    model = as_model(game)
    a, b = PigPolicy.parse(first), PigPolicy.parse(second)
    mask_a, mask_b = a.hold_mask(model), b.hold_mask(model)
    table_a, table_b = _new_table(model), _new_table(model)
    g = model.target
    v_a, v_b = np.zeros((g, g)), np.zeros((g, g))
    for sweep in range(1, MAX_SWEEPS + 1):
        _sweep(model, v_b, mask_a, table_a)
        _sweep(model, table_a[0], mask_b, table_b)
        delta = max(float(np.max(np.abs(table_a[0] - v_a))),
                    float(np.max(np.abs(table_b[0] - v_b))))
        v_a, v_b = table_a[0].copy(), table_b[0].copy()
        if delta <= tol:
            return PigMatch(model, a, b, v_a, v_b, sweep, delta)
    raise RuntimeError(f"Pig policy evaluation did not converge in {MAX_SWEEPS} sweeps")


@lru_cache(maxsize=32)
def _match_cached(model: PigModel, first: PigPolicy, second: PigPolicy) -> PigMatch:
    key = match_key(model, first, second)

    def compute() -> dict[str, np.ndarray]:
        match = evaluate_match_uncached(model, first, second)
        return {"first_start": match.first_start, "second_start": match.second_start,
                "sweeps": np.array(match.sweeps), "residual": np.array(match.residual)}

    arrays = cache.cached_arrays(key, compute)
    return PigMatch(model, first, second, arrays["first_start"], arrays["second_start"],
                    int(arrays["sweeps"]), float(arrays["residual"]))


def evaluate_match(game: ModelLike, first: str | PigPolicy, second: str | PigPolicy
                   ) -> PigMatch:
    """``first`` against ``second`` (first moves first), cached like the optimal solution."""
    return _match_cached(as_model(game), PigPolicy.parse(first), PigPolicy.parse(second))


# --------------------------------------------------------------------------------------------
# Exact fractions (small goals)


def _exact_chain(model: PigModel, i: int, hold_value: Sequence[Any],
                 policy: Sequence[bool] | None, beta: Any) -> tuple[Any, Any, list[bool]]:
    """One turn from score ``i`` as ``value(k) = A(k) + B(k) * beta`` (``beta`` = the value of
    busting).  ``policy[k]`` says hold; None chooses the best action against ``beta`` (ties to
    hold).  Returns the lists ``A``, ``B`` and ``holds`` indexed by ``k``."""
    g = model.target
    top = g - i  # totals k >= top win on holding
    size = top + max(model.faces)
    a = [_rational(1)] * size
    b = [_rational(0)] * size
    holds = [True] * size
    scale = _rational(1, model.sides)
    p_bust = _rational(model.sides - len(model.faces), model.sides)
    for k in range(top - 1, -1, -1):
        a_roll = sum((a[k + f] for f in model.faces), _rational(0)) * scale
        b_roll = p_bust + sum((b[k + f] for f in model.faces), _rational(0)) * scale
        if k == 0:
            hold = False
        elif policy is not None:
            hold = policy[k]
        else:
            hold = hold_value[k] >= a_roll + b_roll * beta
        holds[k] = hold
        if hold:
            a[k], b[k] = hold_value[k], _rational(0)
        else:
            a[k], b[k] = a_roll, b_roll
    return a, b, holds


def _solve_pair(ax: Any, bx: Any, ay: Any, by: Any) -> tuple[Any, Any]:
    """``x = ax + bx (1 - y)``, ``y = ay + by (1 - x)``."""
    x = (ax + bx * (1 - ay - by)) / (1 - bx * by)
    return x, ay + by * (1 - x)


@dataclass(frozen=True)
class ExactPig:
    """Exact values: ``values[(i, j, k)]`` for every reachable state with ``i + k < G``, and the
    turn-start values of each role (``first``/``second`` are equal for optimal self-play)."""

    model: PigModel
    values: dict[tuple[int, int, int], Fraction]
    first_start: dict[tuple[int, int], Fraction]
    second_start: dict[tuple[int, int], Fraction]
    holds: dict[tuple[int, int, int], bool] = field(default_factory=dict)

    @property
    def p_win_first(self) -> Fraction:
        return self.first_start[(0, 0)]


def _check_exact(model: PigModel) -> None:
    if model.target > EXACT_MAX_TARGET:
        raise RulesError(
            f"exact fractions only for target <= {EXACT_MAX_TARGET}, not {model.target}"
        )


def _hold_values(model: PigModel, i: int, j: int, v_opp: dict[tuple[int, int], Any]
                 ) -> list[Any]:
    """``1 - v_opp(j, i + k)`` for each ``k < G - i`` (index 0 unused)."""
    return [_rational(1)] + [1 - v_opp[(j, i + k)] for k in range(1, model.target - i)]


def exact_optimal(game: ModelLike) -> ExactPig:
    """Optimal self-play in exact fractions, partition by partition (module docstring)."""
    model = as_model(game)
    _check_exact(model)
    g = model.target
    v: dict[tuple[int, int], Any] = {}
    values: dict[tuple[int, int, int], Fraction] = {}
    holds: dict[tuple[int, int, int], bool] = {}
    reach = model.reachable_totals()
    for s in range(2 * g - 2, -1, -1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            if i > j:
                continue
            hx, hy = _hold_values(model, i, j, v), _hold_values(model, j, i, v)
            x = y = _rational(1, 2)
            policies: tuple[Any, Any] = (None, None)
            for _ in range(200):
                _, _, px = _exact_chain(model, i, hx, None, 1 - y)
                _, _, py = _exact_chain(model, j, hy, None, 1 - x)
                if (px, py) == policies:
                    break
                policies = (px, py)
                ax, bx, _ = _exact_chain(model, i, hx, px, 0)
                ay, by, _ = _exact_chain(model, j, hy, py, 0)
                if i == j:
                    x = y = (ax[0] + bx[0]) / (1 + bx[0])
                else:
                    x, y = _solve_pair(ax[0], bx[0], ay[0], by[0])
            else:  # pragma: no cover - never seen
                raise RuntimeError(f"exact Pig policy iteration did not settle at {(i, j)}")
            v[(i, j)], v[(j, i)] = x, y
            for (me, opp, a, b, pol, beta) in ((i, j, ax, bx, px, 1 - y),
                                               (j, i, ay, by, py, 1 - x)):
                for k in range(g - me):
                    if reach[k]:
                        values[(me, opp, k)] = Fraction(_frac(a[k] + b[k] * beta))
                        holds[(me, opp, k)] = pol[k]
    start = {key: Fraction(_frac(val)) for key, val in v.items()}
    return ExactPig(model, values, start, start, holds)


def exact_match(game: ModelLike, first: str | PigPolicy, second: str | PigPolicy) -> ExactPig:
    """Two fixed policies against each other in exact fractions.  ``optimal`` is the exact
    optimal policy of :func:`exact_optimal`."""
    model = as_model(game)
    _check_exact(model)
    g = model.target
    pols = (PigPolicy.parse(first), PigPolicy.parse(second))
    optimal = exact_optimal(model) if any(p.kind == "optimal" for p in pols) else None

    def policy_row(policy: PigPolicy, i: int, j: int) -> list[bool]:
        size = g - i
        if policy.kind == "optimal":
            assert optimal is not None
            return [bool(optimal.holds.get((i, j, k), False)) for k in range(size)]
        mask = policy.hold_mask(model)
        return [bool(mask[k, i, j]) for k in range(size)]

    va: dict[tuple[int, int], Any] = {}
    vb: dict[tuple[int, int], Any] = {}
    values: dict[tuple[int, int, int], Fraction] = {}
    for s in range(2 * g - 2, -1, -1):
        for i in range(max(0, s - g + 1), min(s, g - 1) + 1):
            j = s - i
            ax, bx, _ = _exact_chain(model, i, _hold_values(model, i, j, vb),
                                     policy_row(pols[0], i, j), 0)
            ay, by, _ = _exact_chain(model, j, _hold_values(model, j, i, va),
                                     policy_row(pols[1], j, i), 0)
            x, y = _solve_pair(ax[0], bx[0], ay[0], by[0])
            va[(i, j)], vb[(j, i)] = x, y
            if (i, j) == (0, 0):
                for k in range(g):
                    values[(0, 0, k)] = Fraction(_frac(ax[k] + bx[k] * (1 - y)))
    return ExactPig(model, values, {k: Fraction(_frac(v)) for k, v in va.items()},
                    {k: Fraction(_frac(v)) for k, v in vb.items()})


def _frac(value: Any) -> Fraction:
    if isinstance(value, Fraction):
        return value
    return Fraction(int(value.numerator), int(value.denominator))


# --------------------------------------------------------------------------------------------
# Solitaire: turns to reach the goal


@dataclass(frozen=True, eq=False)
class SolitaireTurns:
    """Number of turns to reach the goal alone, holding at ``hold_at``.

    ``distribution[n - 1] = P(T = n)`` for ``n = 1 .. len``; ``tail`` is the mass beyond.
    ``expected_from[i]`` is the expected number of turns from score ``i``.
    """

    model: PigModel
    hold_at: int
    expected: float
    variance: float
    expected_from: np.ndarray
    distribution: np.ndarray
    tail: float

    @property
    def sd(self) -> float:
        return math.sqrt(max(self.variance, 0.0))


def turn_outcomes(model: PigModel, hold_at: int) -> tuple[np.ndarray, np.ndarray]:
    """One turn from each score ``i`` under hold-at-``hold_at``: ``(bust[i], held[i, t])``,
    the chance of busting and of holding exactly ``t`` (``t < G + max face``)."""
    g = model.target
    depth = model.depth
    stop = np.minimum(hold_at, g - np.arange(g))  # hold once k >= stop (holding wins at G - i)
    mass = np.zeros((depth + g, g))
    mass[0] = 1.0
    held = np.zeros((g, depth))
    bust = np.zeros(g)
    scale = 1.0 / model.sides
    for k in range(depth):
        here = mass[k]
        if not here.any():
            continue
        holding = (k >= stop) & (k > 0)
        held[:, k] = np.where(holding, here, 0.0)
        rolling = np.where(holding, 0.0, here)
        bust += model.p_bust * rolling
        for face in model.faces:
            mass[k + face] += scale * rolling
    return bust, held


def solitaire_turns(game: ModelLike, hold_at: int) -> SolitaireTurns:
    """The absorbing chain of the module docstring (SciPy sparse)."""
    model = as_model(game)
    if hold_at < 1:
        raise RulesError(f"bad policy hold:{hold_at}: N must be at least 1")
    g = model.target
    bust, held = turn_outcomes(model, hold_at)
    rows, cols, vals = [], [], []
    absorb = np.zeros(g)
    for i in range(g):
        rows.append(i)
        cols.append(i)
        vals.append(bust[i])
        for t in np.nonzero(held[i])[0]:
            if i + t >= g:
                absorb[i] += held[i, t]
            else:
                rows.append(i)
                cols.append(i + int(t))
                vals.append(held[i, t])
    q = sp.csr_matrix((vals, (rows, cols)), shape=(g, g))
    lhs = (sp.identity(g, format="csc") - q).tocsc()
    ones = np.ones(g)
    expected = np.asarray(spsolve(lhs, ones))
    second = 2.0 * np.asarray(spsolve(lhs, expected)) - expected
    variance = float(second[0] - expected[0] ** 2)
    qt = q.T.tocsr()
    dist: list[float] = []
    state = np.zeros(g)
    state[0] = 1.0
    left = 1.0
    while left > TAIL_MASS and len(dist) < MAX_TURNS:
        p_now = float(state @ absorb)
        dist.append(p_now)
        state = qt @ state
        left = float(state.sum())
    return SolitaireTurns(model, hold_at, float(expected[0]), variance, expected,
                          np.array(dist), max(left, 0.0))


def exact_expected_turns(game: ModelLike, hold_at: int) -> Fraction:
    """The expected number of turns from 0 in exact fractions (back substitution)."""
    model = as_model(game)
    _check_exact(model)
    g = model.target
    scale = _rational(1, model.sides)
    p_bust = _rational(model.sides - len(model.faces), model.sides)
    m: dict[int, Any] = {}
    for i in range(g - 1, -1, -1):
        stop = min(hold_at, g - i)
        mass = {0: _rational(1)}
        bust = _rational(0)
        acc = _rational(1)  # 1 turn + sum over holds of P(hold t) * m(i + t)
        for k in range(stop + max(model.faces)):
            here = mass.pop(k, None)
            if here is None:
                continue
            if k >= stop and k > 0:
                if i + k < g:
                    acc += here * m[i + k]
                continue
            bust += here * p_bust
            for face in model.faces:
                mass[k + face] = mass.get(k + face, _rational(0)) + here * scale
        m[i] = acc / (1 - bust)
    return _frac(m[0])


# --------------------------------------------------------------------------------------------
# The registry entry (``pushluck solve pig``)


def _float(value: float) -> float:
    return float(f"{value:.15g}")


class PigWholeGame:
    """``pushluck solve pig``: 2 players (win probabilities) or 1 (turns to the goal)."""

    game = GAME
    policy_help = POLICY_HELP
    description = DESCRIPTION
    # the gauge and the win coach: plain Python from the stored table (the static site too)
    win_chance = staticmethod(CHANCES.win_chance)
    action_win_chances = staticmethod(CHANCES.action_win_chances)

    def policy_chooser(self, policy: Any) -> PolicyChooser:
        """A :class:`PigPolicy` in a Pig engine (two players, or one with opponent score 0):
        hold once the turn reaches the target, else as the policy's hold mask says."""
        rule = PigPolicy.parse(policy)

        def choose(engine: Engine) -> str:
            model = PigModel.from_variant(engine.variant)  # type: ignore[arg-type]
            scores = engine.scores()
            me = engine.current_player
            i = int(scores[me])
            j = int(max((s for p, s in enumerate(scores) if p != me), default=0))
            k = int(engine.view().turn_total)
            if i + k >= model.target:
                return STOP
            return STOP if rule.hold_mask(model)[k, i, j] else DRAW

        return PolicyChooser(rule.name, choose)

    def report(self, variant: Any, players: int, policies: Sequence[str], *,
               exact: bool = False) -> WholeGameReport:
        model = PigModel.from_variant(variant)
        base: dict[str, Any] = {"game": GAME, "variant": variant.options(), "players": players}
        if players == 2:
            texts = list(policies) or ["optimal", "optimal"]
            if len(texts) != 2:
                raise RulesError(f"give one --policy per player: 2 players, {len(texts)} given")
            first, second = (PigPolicy.parse(t) for t in texts)
            both_optimal = first.kind == second.kind == "optimal"
            if both_optimal:
                found: PigSolution | PigMatch = optimal_solution(model)
                method = "value iteration (Neller and Presser), vectorised sweeps"
            else:
                found = evaluate_match(model, first, second)
                method = "policy evaluation by vectorised sweeps to convergence"
            base.update({
                "policies": [first.name, second.name],
                "p_win_first": _float(found.p_win_first),
                "p_win_second": _float(1.0 - found.p_win_first),
                "method": method,
                "tolerance": TOLERANCE,
                "sweeps": found.sweeps,
            })
            if exact:
                p = (exact_optimal(model) if both_optimal
                     else exact_match(model, first, second)).p_win_first
                base["p_win_first_exact"] = fraction_text(p)
            return WholeGameReport.of(base)
        if players == 1:
            texts = list(policies) or [f"hold:{variant.hold_threshold}"]
            if len(texts) != 1:
                raise RulesError(f"give one --policy per player: 1 player, {len(texts)} given")
            policy = PigPolicy.parse(texts[0])
            if policy.kind != "hold":
                raise RulesError("solitaire Pig is solved for hold:N policies only")
            turns = solitaire_turns(model, policy.hold_at or 1)
            base.update({
                "policies": [policy.name],
                "expected_turns": _float(turns.expected),
                "sd_turns": _float(turns.sd),
                "distribution": {str(n + 1): _float(p) for n, p in enumerate(turns.distribution)
                                 if p >= 1e-12},
                "tail_mass": turns.tail,
                "method": "absorbing Markov chain, sparse fundamental-matrix solves",
            })
            if exact:
                m = exact_expected_turns(model, policy.hold_at or 1)
                base["expected_turns_exact"] = fraction_text(m)
            return WholeGameReport.of(base)
        raise RulesError(f"the Pig whole-game solver handles 1 or 2 players, not {players}")

    def build_shipped(self, directory: Path) -> list[Path]:
        written = []
        for variant in SHIPPED_VARIANTS:
            model = PigModel.from_variant(variant)
            path = cache.save(optimal_key(model), _optimal_arrays(model), directory)
            if path:
                written.append(path)
        model = PigModel.from_variant(PigVariant())
        for first, second in SHIPPED_MATCHES:
            a, b = PigPolicy.parse(first), PigPolicy.parse(second)
            key = match_key(model, a, b)
            match = evaluate_match_uncached(model, a, b)
            path = cache.save(key, {
                "first_start": match.first_start, "second_start": match.second_start,
                "sweeps": np.array(match.sweeps), "residual": np.array(match.residual)},
                directory)
            if path:
                written.append(path)
        return written


#: Variants whose optimal solution ships precomputed.
SHIPPED_VARIANTS = (PigVariant(), PigVariant(target=50))
#: Matches (first, second) of Pig to 100 that ship precomputed (Lesson 6 uses them).
SHIPPED_MATCHES = (
    ("optimal", "hold:20"), ("hold:20", "optimal"),
    ("optimal", "keep-pace"), ("keep-pace", "optimal"),
    ("optimal", "hold:25"), ("hold:25", "optimal"),
    ("hold:20", "hold:20"), ("keep-pace", "hold:20"), ("hold:20", "keep-pace"),
)

SOLVER = PigWholeGame()
