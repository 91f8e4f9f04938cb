r"""Captain Seven's Doubloons as a whole game: the chance of winning and the best stash rule.

**One turn, exactly** (docs/rules.md; every turn starts from the full 54-card deck).  Write a card
class by its value: the non-catching values ``1 2 3 4 5 6 8 9`` (4 cards each), the tens
(10 J Q K, 16 cards), and the *catchers* (four 7s, two jokers).  After the first card a 7 or a
joker catches you, and so does any card that makes the turn total end in 7.

*The ordering trick.*  A ten never changes the last digit of the total, so it can only catch
you when the total already ends in 7, which happens only right after a first 7.  Hence the
cards drawn in a turn (a multiset ``N`` of non-tens with ``n = |N|``, ``s = tot(N)``, and
``k`` tens) are reached in a valid order exactly when the non-tens come in an order whose
prefix totals never end in 7, with the tens interleaved anywhere (after a first 7: anywhere
after the first non-ten).  Every order of the same cards has the same probability
:math:`\prod_c (\text{cap}_c)_{N_c}\,(16)_k / (D)_{n+k}` (falling factorials, ``D`` the
deck), so the chance of reaching the state is

.. math::

    p(N, k) = \pi \cdot V(N)\, w(N) \cdot I(n, k)\, \frac{(16)_k}{(D)_{n+k}}, \qquad
    w(N) = \prod_c (\text{cap}_c)_{N_c},

with :math:`V(N)` the number of valid orders of the non-tens, :math:`I(n, k) = \binom{n+k}{k}`
(after a first 7: :math:`\binom{n-1+k}{k}`) and :math:`\pi` the chance of the first-card case
(a non-catching first card, a first joker: total 0, or a first 7: total 7, one catcher fewer).
:math:`V w` satisfies :math:`(Vw)(N) = [\text{tot}(N) + o \not\equiv 7]\sum_c
(\text{cap}_c - N_c + 1)(Vw)(N - e_c)`, a dynamic programme over the :math:`5^8 = 390{,}625`
multisets of non-tens, done on a dense numpy array.  Grouping by ``(n, s)`` (and by the class
drawn next) gives every *edge mass* :math:`M[x, y]`: the probability that the turn passes from
a state of total ``y`` to one of total ``x`` (``y = -1`` for the turn start), and the mass
``lost[y]`` caught from a state of total ``y``.  No approximation: the same numbers as walking
the millions of card-class states one by one, in a second or two.

*Any threshold at once.*  Under "stash once the turn total reaches ``T``" a state is reached
with its unrestricted probability whenever every earlier total is below ``T``; totals only grow
after the first card, so that is whenever its parent's total is below ``T``.  So

.. math::

    P_T(\text{stash } x) = \sum_{y < T} M[x, y] \quad (x \ge T), \qquad
    P_T(\text{caught}) = \sum_{y < T} \text{lost}[y],

for every ``T`` from one table (:class:`TurnTable`; tested against the exact rational forward
pass of :func:`threshold_outcome_distributions`).  The same
construction from any state within a turn gives the exact distribution from there
(:func:`turn_table_from_state`).  Thresholds ``T = 1 .. 320`` cover every distinct rule (no turn
total can exceed 319: all 48 non-catchers after a first 7).

**The whole game** (2 players, target ``G``).  Stashes never fall.  Let :math:`W(a, b)` be the
mover's *win value*, P(win) + P(tie)/2, at the start of a turn with stash ``a`` against ``b``
(both below ``G``).  A turn ending with stash ``a + x``:

* caught (``x = 0``): the opponent moves at ``(b, a)``: worth :math:`1 - W(b, a)`;
* ``a + x < G``: worth :math:`1 - W(b, a + x)`;
* ``a + x \ge G`` triggers the final round: the opponent (stash ``b < G``) gets one last turn and
  must pass ``d = a + x - b``; worth :math:`1 - F(d)`, where :math:`F(d)` is the final-turn win
  value, P(x > d) + P(x = d)/2.

The game is symmetric: whoever triggers, the other player gets one more turn, so one table
serves both seats.  **Ties** count one half: every number called ``p_win`` here is
P(win) + P(tie)/2; evaluations also report P(first wins), P(tie) and P(second wins) separately.

**The policy class optimised** ("optimal" below).  At the start of each turn the mover chooses
a threshold ``T`` from ``1 .. 320`` as a function of *both stashes* and stashes as soon as the
turn total reaches ``T`` (the choice is fixed for the whole turn; it does not look at which
cards came).  On a final turn (the opponent has triggered) the best member of the class is
"beat or tie": ``T = d`` or ``T = d + 1``, whichever is better, and the optimiser considers
every ``T``, so it finds it.  The optimum is the equilibrium of the class: each player's
threshold table is a best response to the other's (both use the same table).  It is *not* the
optimum over all policies: a stop rule that also looks at the cards drawn this turn (the 7s
still in the deck, say) could do a little better.

*The solver.*  States split into layers by the stash sum ``a + b``: a stashed turn moves to a
higher layer, a caught turn swaps ``(a, b) → (b, a)`` in the same layer.  Layers are solved from
the top down.  Within a layer, with :math:`C_T` the value of the turns that stash and
:math:`q_T = P_T(\text{caught})`, each pair satisfies :math:`W(a, b) = \max_T C_T(a, b) + q_T (1
- W(b, a))`: this 2-cycle is solved by policy iteration (evaluate the pair exactly, the
2×2 linear system; improve each side's ``T``; repeat until no threshold changes, in a few
rounds), vectorised over the whole layer (numpy float64).  This is value iteration in
Gauss-Seidel order along the layers, with each layer's cycle solved exactly, so there is no
convergence tolerance across layers; the result satisfies the Bellman equations to ~1e-15
(:attr:`CaptainSevenSolution.residual`).

**Policies evaluated** (``--policy``):

* ``optimal``: the table above (needs both stashes: not with ``secret_stash``);
* ``threshold:T``: stash once the turn total reaches ``T``, every turn, the final turn included
  (what :class:`~pushluck_teach.sim.bots.ThresholdBot` plays);
* ``chase:T``: threshold ``T`` in ordinary turns, and on a final turn the best "beat or tie"
  threshold (a table player who knows what to beat);
* ``optimal-turn``: each turn maximises the doubloons expected from it (the turn solver's
  optimal policy, blind to the stashes; :class:`~pushluck_teach.sim.bots.OptimalTurnBot`).

A pair of fixed policies is evaluated by the same layer recursion with the maximum replaced by
each policy's choice (a linear 2×2 solve per pair), once for the win value and once for the
probability of a tie.  *Give-away*: a rule's chance to win against the optimal player averaged
over both seats, against the 1/2 that the optimal player gets against itself.

**The gauge** (:func:`captain_seven_win_probability`).  At the start of a turn it is
:math:`W(a, b)` (or :math:`F(d)` on a final turn).  Within a turn, the turn total alone does not
determine the future (the cards already drawn are out of the deck), so the chance is computed
exactly from the turn's cards: the turn table from the current state under the threshold the
optimal policy chose for this turn, combined with the values after the turn.

**Storage.**  The per-turn table (edge masses, 320 × 321 floats), the turn-optimal policy's
distribution, each target's solution (``W`` and the threshold table; ``F`` is rebuilt from the
turn table in milliseconds) and the give-away comparison are cached
(:mod:`pushluck_teach.solve.cache`); the sheet's lengths 75/100/150/200 ship precomputed.
Targets up to :data:`MAX_TARGET` (the sheet's 1000 is beyond it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Engine,
    OptionError,
    PositionError,
    RulesError,
)
from pushluck_teach.games.captain_seven import (
    CLASS_CAPS,
    RELIC_JACK,
    RELIC_QUEEN,
    SEVEN,
    STARTED,
    TEN,
    CaptainSevenTurnModel,
    CaptainSevenVariant,
    captain_seven_position,
)
from pushluck_teach.games.captain_seven.levels import _TOTAL_SHIFT
from pushluck_teach.games.captain_seven.turn import _rational
from pushluck_teach.games.policies import (
    CHASE,
    THRESHOLD,
    TURN_OPTIMAL,
    WIN_OPTIMAL,
    Policy,
    parse_policy,
    unknown_policy,
)
from pushluck_teach.solve import cache
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.solve.whole_game import PolicyChooser, WholeGameReport
from pushluck_teach.solve.whole_game.captain_seven_chances import (
    DESCRIPTION,
    GAME,
    GIVE_AWAY_KINDS,
    GIVE_AWAY_THRESHOLDS,
    MAX_TARGET,
    MAX_THRESHOLD,
    MAX_TOTAL,
    SHIPPED_TARGETS,
    SOLVER_VERSION,
    TIE,
    GiveAway,
    check_stashes,
    give_away_key,
    solution_key,
    table_key,
)

MAX_POLICY_ROUNDS = 200

_NONTEN_VALUES = np.array([1, 2, 3, 4, 5, 6, 8, 9])
_NONTEN_CAPS = CLASS_CAPS[:8]
_TENS = CLASS_CAPS[TEN]
_CATCHERS = CLASS_CAPS[SEVEN] + CLASS_CAPS[SEVEN + 1]
_DECK = sum(CLASS_CAPS)
_SIZE = MAX_TOTAL + 1  # totals 0 .. MAX_TOTAL


# --------------------------------------------------------------------------------------------
# One turn: edge masses from the ordering trick


@lru_cache(maxsize=1)
def _lattice() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counts per non-ten class of every multiset (shape (8, 5**8)), its size and total.  The
    counts (0-4) are int8: 3 MB kept instead of 24 MB; every sum and product with them
    is int64 or float64, so the numbers are the same."""
    counts = np.indices((5,) * 8, dtype=np.int8).reshape(8, -1)
    size = counts.sum(axis=0)
    total = (_NONTEN_VALUES[:, None] * counts).sum(axis=0)
    return counts, size, total


def _valid_weights(caps: Sequence[int], offset: int) -> np.ndarray:
    """``V(N) w(N)`` over the dense lattice for a deck with ``caps`` non-tens per class and
    totals offset by ``offset`` (module docstring)."""
    counts, size, total = _lattice()
    shape = (5,) * 8
    valid = ((total + offset) % 10 != 7).reshape(shape)
    factors = []
    for c in range(8):
        f = np.clip(caps[c] - counts[c] + 1, 0, None).astype(float).reshape(shape)
        factors.append(f)
    vw = np.zeros(shape)
    origin = (0,) * 8
    vw[origin] = 1.0
    depth = int(sum(caps))
    for _ in range(depth):  # after i rounds every multiset of size <= i is right
        new = np.zeros(shape)
        for c in range(8):
            head = [slice(None)] * 8
            tail = [slice(None)] * 8
            head[c] = slice(1, None)
            tail[c] = slice(None, -1)
            new[tuple(head)] += factors[c][tuple(head)] * vw[tuple(tail)]
        new *= valid
        new[origin] = 1.0
        vw = new
    return vw.reshape(-1)


def _falling(n: int, k: int) -> float:
    out = 1.0
    for i in range(k):
        out *= n - i
    return out


def _add_run(m: np.ndarray, lost: np.ndarray, *, caps: Sequence[int], tens: int,
             catchers: int, deck: int, offset: int, prob: float, skip_root: bool) -> None:
    """Add the edge masses of every state reached from one root (``prob`` its probability,
    ``offset`` its total) to ``m[x, y + 1]`` and ``lost[y + 1]``."""
    counts, size, total = _lattice()
    vw = _valid_weights(caps, offset)
    seven_rule = offset % 10 == 7  # tens catch until the first non-ten
    n_max, s_max = int(sum(caps)), int(np.dot(_NONTEN_VALUES, caps))
    key = size * (s_max + 1) + total
    keep = (vw != 0) & (size <= n_max) & (total <= s_max)
    bins = (n_max + 1) * (s_max + 1)
    a = np.bincount(key[keep], vw[keep], bins).reshape(n_max + 1, s_max + 1)
    b = np.stack([
        np.bincount(key[keep], (vw * np.clip(caps[c] - counts[c], 0, None))[keep],
                    bins).reshape(n_max + 1, s_max + 1)
        for c in range(8)
    ])
    s = np.arange(s_max + 1)
    digit_ok = [(offset + s + int(v)) % 10 != 7 for v in _NONTEN_VALUES]
    for n in range(n_max + 1):
        if not a[n].any():
            continue
        for k in range(tens + 1):
            if n == 0 and k > 0 and seven_rule:
                continue
            if skip_root and n == 0 and k == 0:
                continue
            left = deck - n - k
            if left <= 0:
                continue
            inter = math.comb(n - 1 + k, k) if seven_rule and n > 0 else math.comb(n + k, k)
            g = prob * inter * _falling(tens, k) / _falling(deck, n + k) / left
            y = offset + s + 10 * k
            row = a[n] * g
            live = row != 0
            if not live.any():
                continue
            yi = y[live] + 1
            lost[yi] += row[live] * catchers
            if tens - k:
                if n == 0 and seven_rule:
                    lost[yi] += row[live] * (tens - k)
                else:
                    m[y[live] + 10, yi] += row[live] * (tens - k)
            for c in range(8):
                col = b[c, n][live] * g
                ok = digit_ok[c][live] & (col != 0)
                bad = ~digit_ok[c][live] & (col != 0)
                m[y[live][ok] + int(_NONTEN_VALUES[c]), yi[ok]] += col[ok]
                lost[yi[bad]] += col[bad]


# --------------------------------------------------------------------------------------------
# One turn's outcome distributions (from the turn start)


def turn_outcome_distribution(variant: CaptainSevenVariant | None = None,
                              policy: str | int | Callable[[Any], str] = "optimal", *,
                              relic: str | None = None, exact: bool = True
                              ) -> dict[int, Any]:
    """The exact distribution ``{doubloons stashed: probability}`` of one turn from its start.

    ``policy``: ``"optimal"`` (the turn's optimal policy), an int ``T`` ("stop once the turn
    total reaches T"; other choices optimal), or a callable ``state -> action`` over
    :class:`CaptainSevenTurnModel` states.  Fractions when ``exact`` (the default), else floats.
    """
    model = CaptainSevenTurnModel(variant or CaptainSevenVariant(), relic)
    solver = TurnSolver(model, exact=exact)
    if policy == "optimal":
        choose = None
    elif isinstance(policy, int) and not isinstance(policy, bool):
        choose = solver.threshold_policy(policy)
    elif callable(policy):
        choose = policy
    else:
        raise OptionError(f"bad policy {policy!r}: use 'optimal', a threshold T, or a callable")
    return {int(k): v for k, v in solver.distribution(model.start, choose).items()}


def threshold_outcome_distributions(thresholds: Iterable[int],
                                    variant: CaptainSevenVariant | None = None, *,
                                    relic: str | None = None
                                    ) -> dict[int, dict[int, Fraction]]:
    """``{T: {doubloons stashed: probability}}`` for "stop once the turn total reaches T", for
    every ``T`` at once, exactly (one forward pass; module docstring).  ``relic`` may be
    ``None``, ``"K"`` or ``"A"`` (the jack and queen bring choices a threshold does not fix:
    use :func:`turn_outcome_distribution`)."""
    wanted = sorted(set(thresholds))
    if not wanted:
        return {}
    model = CaptainSevenTurnModel(variant or CaptainSevenVariant(), relic)
    if model.relic_code in (RELIC_JACK, RELIC_QUEEN):
        raise PositionError("threshold tables cover no relic, the king or the ace only")
    top = wanted[-1]
    one = _rational(1)
    reach: dict[int, Any] = {model.start: one}
    # stop_mass[x][y]: mass entering a live state of total x from a state of total y
    # (y = -1 from the turn start); lost_mass[p][y]: mass caught with p saved.
    stop_mass: dict[int, dict[int, Any]] = {}
    lost_mass: dict[int, dict[int, Any]] = {}
    buckets: dict[int, list[int]] = {0: [model.start]}
    level = 0
    while buckets:
        level = min(buckets)
        for state in buckets.pop(level):
            p = reach.pop(state)
            parent = state >> _TOTAL_SHIFT if state & STARTED else -1
            pairs = model.transitions(state, DRAW)
            weight = sum(w for w, _ in pairs)
            for w, nxt in pairs:
                share = p * w / weight
                if nxt < 0:
                    table = lost_mass.setdefault(model.payoff(nxt), {})
                    table[parent] = table.get(parent, 0) + share
                    continue
                x = nxt >> _TOTAL_SHIFT
                row = stop_mass.setdefault(x, {})
                row[parent] = row.get(parent, 0) + share
                if x < top:
                    if nxt not in reach:
                        reach[nxt] = share
                        buckets.setdefault(x, []).append(nxt)
                    else:
                        reach[nxt] += share
    result: dict[int, dict[int, Fraction]] = {}
    for threshold in wanted:
        dist: dict[int, Any] = {}
        for x, row in stop_mass.items():
            if x >= threshold:
                mass = sum((m for y, m in row.items() if y < threshold), _rational(0))
                if mass:
                    dist[x] = dist.get(x, 0) + mass
        for saved, row in lost_mass.items():
            mass = sum((m for y, m in row.items() if y < threshold), _rational(0))
            if mass:
                dist[saved] = dist.get(saved, 0) + mass
        result[threshold] = {
            k: Fraction(int(v.numerator), int(v.denominator)) for k, v in sorted(dist.items())
        }
    return result


@dataclass(frozen=True, eq=False)
class TurnTable:
    """Edge masses of one turn from a root state: ``edges[x, y + 1]`` is the probability of
    passing from a state of total ``y`` to one of total ``x`` (``y = -1``: the turn start),
    ``lost[y + 1]`` the probability of being caught from a state of total ``y``.
    ``root_total``/``started`` describe the root (a started root may stash at once)."""

    edges: np.ndarray
    lost: np.ndarray
    root_total: int = -1
    started: bool = False

    def threshold_matrix(self, top: int = MAX_THRESHOLD) -> np.ndarray:
        """``D[T, x]`` for ``T = 0 .. top``: the distribution of the doubloons stashed under
        "stash once the turn total reaches T" (``x = 0``: caught).  Row 0 is unused (zero)."""
        cum_edges = np.cumsum(self.edges, axis=1)  # [x, j] = sum over y + 1 <= j
        cum_lost = np.cumsum(self.lost)
        out = np.zeros((top + 1, _SIZE))
        x = np.arange(_SIZE)
        for t in range(1, top + 1):
            if self.started and self.root_total >= t:
                out[t, self.root_total] = 1.0
                continue
            j = min(t, _SIZE)  # parents y < t  <=>  y + 1 <= t
            row = np.where(x >= t, cum_edges[:, j], 0.0)
            row[0] = cum_lost[j]  # x = 0 < t: caught (a total of 0 never stashes)
            out[t] = row
        return out

    def distribution(self, threshold: int) -> dict[int, float]:
        """``{doubloons stashed: probability}`` (0: caught) under one threshold."""
        row = self.threshold_matrix(max(1, min(threshold, MAX_THRESHOLD)))[-1]
        return {int(x): float(p) for x, p in enumerate(row) if p > 0}


def _turn_start_table() -> TurnTable:
    edges = np.zeros((_SIZE, _SIZE + 1))
    lost = np.zeros(_SIZE + 1)
    # The turn start (y = -1): the first card never catches.
    for value, cap in zip(_NONTEN_VALUES, _NONTEN_CAPS, strict=True):
        edges[int(value), 0] += cap / _DECK
    edges[10, 0] += _TENS / _DECK
    edges[7, 0] += CLASS_CAPS[SEVEN] / _DECK
    edges[0, 0] += CLASS_CAPS[SEVEN + 1] / _DECK
    base = dict(caps=_NONTEN_CAPS, tens=_TENS)
    # a non-catching first card: its state is part of the run (skip the start itself)
    _add_run(edges, lost, **base, catchers=_CATCHERS, deck=_DECK, offset=0, prob=1.0,
             skip_root=True)
    # a first joker: total 0, one joker fewer
    _add_run(edges, lost, **base, catchers=_CATCHERS - 1, deck=_DECK - 1, offset=0,
             prob=CLASS_CAPS[SEVEN + 1] / _DECK, skip_root=False)
    # a first 7: total 7, one 7 fewer
    _add_run(edges, lost, **base, catchers=_CATCHERS - 1, deck=_DECK - 1, offset=7,
             prob=CLASS_CAPS[SEVEN] / _DECK, skip_root=False)
    return TurnTable(edges, lost)


@lru_cache(maxsize=1)
def turn_start_table() -> TurnTable:
    """The turn table from the start of a turn (full deck), cached on disk and shipped."""

    def compute() -> dict[str, np.ndarray]:
        table = _turn_start_table()
        return {"edges": table.edges, "lost": table.lost}

    arrays = cache.cached_arrays(table_key(), compute)
    return TurnTable(arrays["edges"], arrays["lost"])


@lru_cache(maxsize=1)
def threshold_matrix() -> np.ndarray:
    """``D[T, x]`` from the turn start for ``T = 0 .. MAX_THRESHOLD`` (row 0 unused)."""
    matrix = turn_start_table().threshold_matrix()
    matrix.flags.writeable = False
    return matrix


def turn_distribution(threshold: int) -> dict[int, float]:
    """The exact distribution of one turn's stash under "stash once the total reaches T"."""
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise RulesError(f"a threshold is a whole number >= 1, not {threshold!r}")
    row = threshold_matrix()[min(threshold, MAX_THRESHOLD)]
    return {int(x): float(p) for x, p in enumerate(row) if p > 0}


def _check_model(model: CaptainSevenTurnModel) -> None:
    if model.variant.relics or model.relic is not None:
        raise PositionError("the whole-game analysis covers captain-seven without relics")


def turn_table_from_state(model: CaptainSevenTurnModel, state: int) -> TurnTable:
    """The exact turn table from a decision state of a turn (no relics)."""
    _check_model(model)
    if state < 0:
        raise PositionError("the turn is over: nothing to analyse")
    if not state & STARTED:
        if any(model.out):  # pragma: no cover - only relics take cards out at the start
            raise PositionError("the whole-game analysis covers captain-seven without relics")
        return turn_start_table()
    left = model.deck_counts(state)
    total = int(model.turn_total(state))
    edges = np.zeros((_SIZE, _SIZE + 1))
    lost = np.zeros(_SIZE + 1)
    _add_run(edges, lost, caps=left[:8], tens=left[TEN],
             catchers=left[SEVEN] + left[SEVEN + 1], deck=sum(left), offset=total, prob=1.0,
             skip_root=False)
    return TurnTable(edges, lost, total, True)


# --------------------------------------------------------------------------------------------
# Policies


@dataclass(frozen=True)
class C7Policy:
    """A whole-game policy: ``optimal``, ``threshold`` (T), ``chase`` (T) or ``optimal-turn``."""

    kind: str
    threshold: int | None = None

    KINDS = ("optimal", "threshold", "chase", "optimal-turn")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise RulesError(f"unknown captain-seven policy {self.kind!r} ({POLICY_HELP})")
        needs = self.kind in ("threshold", "chase")
        if needs != (self.threshold is not None):
            raise RulesError(f"{self.kind} needs a turn total: {self.kind}:T")
        if self.threshold is not None and not 1 <= self.threshold <= MAX_THRESHOLD:
            raise RulesError(
                f"bad policy {self.kind}:{self.threshold}: T must be from 1 to {MAX_THRESHOLD}"
            )

    @property
    def name(self) -> str:
        return self.kind if self.threshold is None else f"{self.kind}:{self.threshold}"

    @classmethod
    def parse(cls, text: str | C7Policy | Policy) -> C7Policy:
        """From the shared vocabulary (:func:`~pushluck_teach.games.policies.parse_policy`;
        ``optimal`` is ``win-optimal`` here)."""
        if isinstance(text, C7Policy):
            return text
        policy = parse_policy(text, optimal=WIN_OPTIMAL, who="captain-seven", names=POLICY_HELP)
        kind = _C7_KINDS.get(policy.kind)
        if kind is None:
            raise unknown_policy(policy.name, "captain-seven", POLICY_HELP)
        return cls(kind, policy.number)


POLICY_HELP = "policies: win-optimal (or optimal), threshold:T, chase:T, turn-optimal"
#: The shared vocabulary's kinds -> this solver's.
_C7_KINDS = {WIN_OPTIMAL: "optimal", THRESHOLD: "threshold", CHASE: "chase",
             TURN_OPTIMAL: "optimal-turn"}


def _check_variant(variant: CaptainSevenVariant) -> int:
    if not isinstance(variant, CaptainSevenVariant):
        raise OptionError(f"not a captain-seven variant: {type(variant).__name__}")
    if variant.relics:
        raise RulesError("the captain-seven whole-game solver covers the game without relics")
    if variant.target > MAX_TARGET:
        raise RulesError(
            f"target {variant.target} is too large for the whole-game solver (at most "
            f"{MAX_TARGET})"
        )
    return variant.target


# --------------------------------------------------------------------------------------------
# Final turns


def _final_values(rows: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """For each distribution row, ``(win value, tie probability)`` of a final turn that must
    pass ``d = 0 .. span - 1``: P(x > d) + P(x = d)/2 and P(x = d)."""
    width = rows.shape[1]
    tail = np.cumsum(rows[:, ::-1], axis=1)[:, ::-1]  # tail[:, d] = P(x >= d)
    win = np.zeros((rows.shape[0], span))
    tie = np.zeros((rows.shape[0], span))
    d = min(span, width)
    greater = np.zeros_like(rows)
    greater[:, :-1] = tail[:, 1:]
    win[:, :d] = greater[:, :d] + 0.5 * rows[:, :d]
    tie[:, :d] = rows[:, :d]
    return win, tie


@lru_cache(maxsize=1)
def final_turn_table() -> tuple[np.ndarray, np.ndarray]:
    """``(F[d], T_F[d])`` for ``d = 0 .. 2 * _SIZE``: the best final-turn win value when the
    last player must pass ``d`` more doubloons than they have, and the threshold achieving it
    (the smallest one within :data:`TIE`); ``d = 0`` is unused."""
    matrix = threshold_matrix()
    win, _ = _final_values(matrix[1:], 2 * _SIZE + 1)
    best = win.max(axis=0)
    choice = np.argmax(win >= best[None, :] - TIE, axis=0) + 1
    best.flags.writeable = False
    choice.flags.writeable = False
    return best, choice


# --------------------------------------------------------------------------------------------
# The layer recursion


def _layer(g: int, s: int) -> np.ndarray:
    """Mover stashes of the states with stash sum ``s`` (the other stash is ``s - a``)."""
    return np.arange(max(0, s - g + 1), min(s, g - 1) + 1)


def _extend(g: int, values: np.ndarray, final: np.ndarray) -> np.ndarray:
    """``P[b, y]``: ``values[b, y]`` for ``y < G``, else ``final[y - b]`` (the final turn of the
    player with stash ``b`` after the other reached ``y``)."""
    width = g + _SIZE + 1
    out = np.zeros((g, width))
    out[:, :g] = values
    y = np.arange(g, width)
    b = np.arange(g)[:, None]
    idx = np.clip(y[None, :] - b, 0, final.size - 1)
    out[:, g:] = final[idx]
    return out


def _after_turn(ext: np.ndarray, a: np.ndarray, b: np.ndarray, complement: bool) -> np.ndarray:
    """``R[k, x]`` for ``x = 0 .. MAX_TOTAL``: the value to the mover of ending the turn with
    ``x`` more (``x = 0`` entries are ignored): ``1 - P[b, a + x]`` or ``P[b, a + x]``."""
    x = np.arange(_SIZE)
    vals = ext[b[:, None], a[:, None] + x[None, :]]
    return 1.0 - vals if complement else vals


@dataclass(frozen=True, eq=False)
class CaptainSevenSolution:
    """The optimised stash-dependent threshold policy (module docstring) for one target.

    ``start[a, b]``: the mover's win value (P(win) + P(tie)/2) at the start of a turn with stash
    ``a`` against ``b``; ``thresholds[a, b]``: the threshold chosen there; ``final_value[d]`` and
    ``final_threshold[d]``: the last player's best final turn when behind by ``d``.
    """

    target: int
    start: np.ndarray
    thresholds: np.ndarray
    final_value: np.ndarray
    final_threshold: np.ndarray
    residual: float
    rounds: int

    @property
    def p_win_first(self) -> float:
        return float(self.start[0, 0])

    def win_probability(self, my_stash: int, opp_stash: int) -> float:
        """The mover's win value at the start of a turn (a final turn if ``opp_stash`` has
        reached the target)."""
        a, b = check_stashes(self.target, my_stash, opp_stash)
        if b >= self.target:
            return float(self.final_value[min(b - a, self.final_value.size - 1)])
        return float(self.start[a, b])

    def threshold(self, my_stash: int, opp_stash: int) -> int:
        a, b = check_stashes(self.target, my_stash, opp_stash)
        if b >= self.target:
            return int(self.final_threshold[min(b - a, self.final_threshold.size - 1)])
        return int(self.thresholds[a, b])


def solve_optimal(variant: CaptainSevenVariant | None = None) -> CaptainSevenSolution:
    """Solve the optimised threshold policy from scratch (no cache): module docstring."""
    variant = variant or CaptainSevenVariant()
    g = _check_variant(variant)
    matrix = threshold_matrix()
    ts = np.arange(1, MAX_THRESHOLD + 1)
    q = matrix[1:, 0]  # caught, per T
    band = np.zeros((MAX_THRESHOLD, 10))
    for j in range(10):
        cols = ts + j
        ok = cols < _SIZE
        band[ok, j] = matrix[ts[ok], cols[ok]]
    final, final_threshold = final_turn_table()
    w = np.zeros((g, g))
    pick = np.zeros((g, g), dtype=np.int16)
    ext = _extend(g, w, final)
    rounds = 0
    for s in range(2 * g - 2, -1, -1):
        a = _layer(g, s)
        b = s - a
        c = _threshold_values(ext, a, b, band)
        swap = a.size - 1 - np.arange(a.size)
        idx = np.argmax(c + 0.5 * q[None, :], axis=1)
        for rounds_here in range(1, MAX_POLICY_ROUNDS + 1):  # noqa: B007 (used below)
            ck, qk = c[np.arange(a.size), idx], q[idx]
            value = (ck + qk * (1.0 - ck[swap] - qk[swap])) / (1.0 - qk * qk[swap])
            scores = c + q[None, :] * (1.0 - value[swap])[:, None]
            best = scores.max(axis=1)
            current = scores[np.arange(a.size), idx]
            better = current < best - TIE
            if not better.any():
                break
            idx = np.where(better, np.argmax(scores, axis=1), idx)
        else:  # pragma: no cover - never seen
            raise RuntimeError(f"captain-seven policy iteration did not settle in layer {s}")
        rounds = max(rounds, rounds_here)
        w[a, b] = value
        ext[a, b] = value
        pick[a, b] = idx + 1
    residual = _bellman_residual(g, w, final, matrix, band, q)
    return CaptainSevenSolution(g, w, pick, np.asarray(final),
                                np.asarray(final_threshold), residual, rounds)


def _threshold_values(ext: np.ndarray, a: np.ndarray, b: np.ndarray, band: np.ndarray
                      ) -> np.ndarray:
    """``C[k, T]``: for the stash pairs ``(a[k], b[k])`` of one layer, the mover's value of a
    turn played to threshold ``T`` that is not caught (the banded turn table against the
    values after the turn)."""
    pad = np.zeros((a.size, _SIZE + 10))
    pad[:, :_SIZE] = _after_turn(ext, a, b, True)
    windows = sliding_window_view(pad[:, 1:], 10, axis=1)[:, :MAX_THRESHOLD, :]
    return np.einsum("ktj,tj->kt", windows, band)


def _bellman_residual(g: int, w: np.ndarray, final: np.ndarray, matrix: np.ndarray,
                      band: np.ndarray, q: np.ndarray) -> float:
    """max |W - max_T (C_T + q_T (1 - W^T))| over every state (a check on the solve)."""
    ext = _extend(g, w, final)
    worst = 0.0
    for s in range(2 * g - 2, -1, -1):
        a = _layer(g, s)
        b = s - a
        c = _threshold_values(ext, a, b, band)
        rhs = (c + q[None, :] * (1.0 - w[b, a])[:, None]).max(axis=1)
        worst = max(worst, float(np.max(np.abs(rhs - w[a, b]))))
    return worst


def _solution_arrays(solution: CaptainSevenSolution) -> dict[str, np.ndarray]:
    return {"start": solution.start, "thresholds": solution.thresholds,
            "residual": np.array(solution.residual), "rounds": np.array(solution.rounds)}


@lru_cache(maxsize=8)
def _optimal_cached(g: int) -> CaptainSevenSolution:
    variant = CaptainSevenVariant(target=g)
    arrays = cache.cached_arrays(solution_key(g),
                                 lambda: _solution_arrays(solve_optimal(variant)))
    final_value, final_threshold = final_turn_table()
    return CaptainSevenSolution(g, arrays["start"], arrays["thresholds"],
                                np.asarray(final_value), np.asarray(final_threshold),
                                float(arrays["residual"]), int(arrays["rounds"]))


def optimal_solution(variant: CaptainSevenVariant | None = None) -> CaptainSevenSolution:
    """The optimised policy, from memory, the shipped data or the disk cache, else solved."""
    variant = variant or CaptainSevenVariant()
    return _optimal_cached(_check_variant(variant))


# --------------------------------------------------------------------------------------------
# Fixed policies against each other


def _optimal_turn_key() -> cache.CacheKey:
    return cache.CacheKey(GAME, "turn-optimal", {"relics": False}, {}, SOLVER_VERSION)


@lru_cache(maxsize=1)
def optimal_turn_row() -> np.ndarray:
    """The stash distribution of one turn under the turn's EV-optimal policy (turn solver,
    floats; about 13 s once, then cached and shipped)."""

    def compute() -> dict[str, np.ndarray]:
        dist = turn_outcome_distribution(CaptainSevenVariant(), "optimal", exact=False)
        row = np.zeros(_SIZE)
        for x, p in dist.items():
            row[int(x)] += float(p)
        return {"row": row}

    row = cache.cached_arrays(_optimal_turn_key(), compute)["row"]
    row.flags.writeable = False
    return row


@dataclass(frozen=True)
class _Plan:
    """A policy as distribution-row indices: ``normal[a, b]`` and ``final[d]``."""

    normal: np.ndarray
    final: np.ndarray


def _rows(with_optimal_turn: bool) -> np.ndarray:
    """Rows 1..MAX_THRESHOLD: thresholds; row MAX_THRESHOLD + 1: the optimal turn (or zeros
    when no policy uses it)."""
    matrix = threshold_matrix()
    extra = optimal_turn_row() if with_optimal_turn else np.zeros(_SIZE)
    return np.vstack([matrix, extra[None, :]])


def _plan(policy: C7Policy, g: int) -> _Plan:
    span = 2 * _SIZE + 1
    _, best_final = final_turn_table()
    if policy.kind == "optimal":
        solution = optimal_solution(CaptainSevenVariant(target=g))
        return _Plan(solution.thresholds.astype(np.int64), np.asarray(best_final))
    if policy.kind == "optimal-turn":
        row = MAX_THRESHOLD + 1
        return _Plan(np.full((g, g), row), np.full(span, row))
    t = int(policy.threshold or 1)
    final = np.asarray(best_final) if policy.kind == "chase" else np.full(span, t)
    return _Plan(np.full((g, g), t), final)


@dataclass(frozen=True, eq=False)
class CaptainSevenMatch:
    """Two policies against each other (``first`` moves first).

    ``p_first``, ``p_tie``, ``p_second``: P(first wins), P(tie: equal stashes share the win),
    P(second wins); ``p_win_first = p_first + p_tie / 2``.  ``first_start[a, b]``: the first
    player's win value when it is to move with ``a`` against ``b``; ``second_start`` likewise.
    """

    target: int
    first: C7Policy
    second: C7Policy
    p_win_first: float
    p_tie: float
    first_start: np.ndarray
    second_start: np.ndarray

    @property
    def p_first(self) -> float:
        return self.p_win_first - self.p_tie / 2

    @property
    def p_second(self) -> float:
        return 1.0 - self.p_first - self.p_tie

    @property
    def p_win_second(self) -> float:
        return 1.0 - self.p_win_first


def evaluate_match_uncached(variant: CaptainSevenVariant, first: str | C7Policy,
                            second: str | C7Policy) -> CaptainSevenMatch:
    """Exact evaluation of two fixed policies (module docstring), no cache."""
    g = _check_variant(variant)
    pa, pb = C7Policy.parse(first), C7Policy.parse(second)
    if variant.secret_stash and "optimal" in (pa.kind, pb.kind):
        raise RulesError("with secret_stash the stashes are hidden: the optimal policy needs "
                         "them (use threshold:T, chase:T or optimal-turn)")
    rows = _rows("optimal-turn" in (pa.kind, pb.kind))
    plans = (_plan(pa, g), _plan(pb, g))
    finals = []
    for plan in plans:
        win, tie = _final_values(rows, 2 * _SIZE + 1)
        d = np.arange(plan.final.size)
        finals.append((win[plan.final, d], tie[plan.final, d]))
    values = [np.zeros((g, g)), np.zeros((g, g))]
    ties = [np.zeros((g, g)), np.zeros((g, g))]
    exts = [_extend(g, values[i], finals[i][0]) for i in range(2)]
    tie_exts = [_extend(g, ties[i], finals[i][1]) for i in range(2)]
    for s in range(2 * g - 2, -1, -1):
        a = _layer(g, s)
        b = s - a
        swap = a.size - 1 - np.arange(a.size)
        c, q, z = [], [], []
        for me in range(2):
            other = 1 - me
            chosen = rows[plans[me].normal[a, b]]  # (K, _SIZE)
            r = _after_turn(exts[other], a, b, True)
            rt = _after_turn(tie_exts[other], a, b, False)
            c.append(np.einsum("kx,kx->k", chosen[:, 1:], r[:, 1:]))
            z.append(np.einsum("kx,kx->k", chosen[:, 1:], rt[:, 1:]))
            q.append(chosen[:, 0])
        for me in range(2):
            other = 1 - me
            cm, qm = c[me], q[me]
            co, qo = c[other][swap], q[other][swap]
            value = (cm + qm * (1.0 - co - qo)) / (1.0 - qm * qo)
            tie = (z[me] + qm * z[other][swap]) / (1.0 - qm * qo)
            values[me][a, b] = value
            exts[me][a, b] = value
            ties[me][a, b] = tie
            tie_exts[me][a, b] = tie
    return CaptainSevenMatch(g, pa, pb, float(values[0][0, 0]), float(ties[0][0, 0]),
                             values[0], values[1])


@lru_cache(maxsize=64)
def _match_cached(g: int, secret: bool, first: C7Policy, second: C7Policy) -> CaptainSevenMatch:
    return evaluate_match_uncached(CaptainSevenVariant(target=g, secret_stash=secret),
                                   first, second)


def evaluate_match(variant: CaptainSevenVariant, first: str | C7Policy,
                   second: str | C7Policy) -> CaptainSevenMatch:
    """``first`` against ``second`` (first moves first), memoised."""
    g = _check_variant(variant)
    return _match_cached(g, variant.secret_stash, C7Policy.parse(first),
                         C7Policy.parse(second))


def _give_away_uncached(variant: CaptainSevenVariant, thresholds: Sequence[int],
                        kinds: Sequence[str]) -> dict[str, np.ndarray]:
    chances = np.zeros((len(kinds), len(thresholds)))
    for i, kind in enumerate(kinds):
        for j, t in enumerate(thresholds):
            rule = C7Policy(kind, int(t))
            first = evaluate_match(variant, rule, "optimal").p_win_first
            second = 1.0 - evaluate_match(variant, "optimal", rule).p_win_first
            chances[i, j] = (first + second) / 2
    return {"chances": chances}


def threshold_give_away(variant: CaptainSevenVariant | None = None,
                        thresholds: Sequence[int] = GIVE_AWAY_THRESHOLDS,
                        kinds: Sequence[str] = GIVE_AWAY_KINDS) -> GiveAway:
    """Every ``kind:T`` rule against the optimal policy (both seats), and the best of each
    kind; cached on disk (the defaults ship for the sheet's lengths)."""
    variant = variant or CaptainSevenVariant()
    g = _check_variant(variant)
    thresholds, kinds = tuple(int(t) for t in thresholds), tuple(kinds)
    for kind in kinds:
        if kind not in ("threshold", "chase"):
            raise RulesError(f"give-away compares threshold or chase rules, not {kind!r}")
    plain = CaptainSevenVariant(target=g)
    arrays = cache.cached_arrays(give_away_key(g, thresholds, kinds),
                                 lambda: _give_away_uncached(plain, thresholds, kinds))
    return GiveAway.from_table(g, thresholds, kinds, arrays["chances"])


# --------------------------------------------------------------------------------------------
# The gauge


def _value_after(solution: CaptainSevenSolution, a: int, b: int, row: np.ndarray,
                 final: bool) -> float:
    """The mover's win value of a turn whose stash is distributed as ``row``."""
    x = np.arange(row.size)
    if final:
        d = b - a
        return float(np.sum(row * ((x > d) + 0.5 * (x == d))))
    g = solution.target
    ext = _extend(g, solution.start, solution.final_value)
    after = 1.0 - ext[b, np.minimum(a + x, ext.shape[1] - 1)]
    after[0] = 1.0 - solution.start[b, a]
    return float(np.sum(row * after))


def captain_seven_win_probability(variant: CaptainSevenVariant, my_stash: int, opp_stash: int,
                                  turn_total: int = 0, *, drawn: Any = None,
                                  state: int | None = None,
                                  model: CaptainSevenTurnModel | None = None) -> float:
    """The mover's chance to win from here (P(win) + P(tie)/2, two players), both playing the
    optimised threshold policy (module docstring).

    At the start of a turn (``turn_total`` 0 and no cards) this is ``W(my, opp)``, or the
    final-turn value when ``opp_stash`` has reached the target.  Within a turn the turn total is
    not enough (the cards drawn are out of the deck): give the turn's cards as ``drawn`` (or a
    turn-model ``state`` with its ``model``, e.g. from ``engine.turn_position()``); the value is
    exact, continuing with the threshold the optimal policy chose for this turn.
    """
    solution = optimal_solution(variant)
    a, b = check_stashes(solution.target, my_stash, opp_stash)
    final = b >= solution.target
    if state is None and drawn is not None:
        model, state = captain_seven_position(variant, drawn=drawn)
    if state is None:
        if turn_total:
            raise PositionError(
                "within a turn the turn total is not enough for an exact chance: give the "
                "turn's cards (drawn=...)"
            )
        return solution.win_probability(a, b)
    if model is None:
        model = CaptainSevenTurnModel(variant)
    if turn_total and int(model.turn_total(state)) != int(turn_total):
        raise PositionError(
            f"turn total {turn_total} does not match the cards drawn "
            f"({model.turn_total(state)})"
        )
    if not state & STARTED:
        return solution.win_probability(a, b)
    table = turn_table_from_state(model, state)
    threshold = solution.threshold(a, b)
    row = table.threshold_matrix(threshold)[threshold]
    return _value_after(solution, a, b, row, final)


def captain_seven_action_win_chances(variant: CaptainSevenVariant, my_stash: int,
                                     opp_stash: int, model: CaptainSevenTurnModel, state: int
                                     ) -> dict[str, float | None]:
    """The mover's chance to win (P(win) + P(tie)/2) if it stashes now, and if it draws on and
    then stashes at the best threshold above the turn total (the class of rules the solver
    optimises), both playing the optimised policy afterwards."""
    solution = optimal_solution(variant)
    a, b = check_stashes(solution.target, my_stash, opp_stash)
    final = b >= solution.target
    table = turn_table_from_state(model, state)
    matrix = table.threshold_matrix()
    total = int(model.turn_total(state)) if state & STARTED else 0
    stash: float | None = None
    if state & STARTED and STOP in model.actions(state):
        point = np.zeros(matrix.shape[1])
        point[min(total, point.size - 1)] = 1.0
        stash = _value_after(solution, a, b, point, final)
    draw = max(_value_after(solution, a, b, matrix[t], final)
               for t in range(max(total + 1, 1), matrix.shape[0]))
    return {DRAW: draw, STOP: stash}


# --------------------------------------------------------------------------------------------
# The registry entry (``pushluck solve captain-seven``)


def _float(value: float) -> float:
    return float(f"{value:.15g}")


CONVENTION = ("equal stashes share the win: p_win_first = P(first wins) + P(tie)/2; "
              "p_first_wins + p_tie + p_second_wins = 1")


class CaptainSevenWholeGame:
    """``pushluck solve captain-seven``: two players, exact win probabilities."""

    game = GAME
    policy_help = POLICY_HELP
    description = DESCRIPTION

    def policy_chooser(self, policy: Any) -> PolicyChooser:
        """A :class:`C7Policy` in a two-player Captain Seven engine (no relics): stash once
        the turn reaches the policy's threshold for these stashes (``optimal-turn``: the turn
        solver's choice)."""
        rule = C7Policy.parse(policy)

        def choose(engine: Engine) -> str | None:
            variant = engine.variant
            me = engine.current_player
            stashes = engine.scores()
            a, b = int(stashes[me]), int(stashes[1 - me])
            final = b >= variant.target  # type: ignore[attr-defined]
            if rule.kind == "optimal-turn":
                return None
            if rule.kind == "optimal":
                t = optimal_solution(variant).threshold(a, b)
            elif final and rule.kind == "chase":
                t = int(final_turn_table()[1][min(b - a, 2 * (MAX_TOTAL + 1))])
            else:
                t = int(rule.threshold or 1)
            return STOP if engine.view().turn_total >= t else DRAW

        return PolicyChooser(rule.name, choose)

    def win_chance(self, variant: Any, my_score: int, opp_score: int, model: Any, state: Any
                   ) -> Callable[[], float] | None:
        """The gauge (``None`` with relics: the solution covers the game without them)."""
        if (not isinstance(variant, CaptainSevenVariant) or variant.relics
                or variant.target > MAX_TARGET):
            return None
        return lambda: captain_seven_win_probability(variant, my_score, opp_score, state=state,
                                                     model=model)

    def action_win_chances(self, variant: Any, my_score: int, opp_score: int, model: Any,
                           state: Any) -> Callable[[], dict[str, float | None]] | None:
        """The win coach: the chance to win if the mover stashes now or draws on."""
        if (not isinstance(variant, CaptainSevenVariant) or variant.relics
                or variant.target > MAX_TARGET):
            return None
        return lambda: captain_seven_action_win_chances(variant, my_score, opp_score, model,
                                                        state)

    def report(self, variant: Any, players: int, policies: Sequence[str], *,
               exact: bool = False) -> WholeGameReport:
        _check_variant(variant)
        if players != 2:
            raise RulesError(f"the captain-seven whole-game solver handles 2 players, not "
                             f"{players}")
        if exact:
            raise RulesError("--exact is not available for captain-seven (float64 solver; the "
                             "per-turn tables are exact to rounding)")
        texts = list(policies) or ["optimal", "optimal"]
        if len(texts) != 2:
            raise RulesError(f"give one --policy per player: 2 players, {len(texts)} given")
        first, second = (C7Policy.parse(t) for t in texts)
        match = evaluate_match(variant, first, second)
        out: dict[str, Any] = {
            "game": GAME, "variant": variant.options(), "players": players,
            "policies": [first.name, second.name],
            "p_win_first": _float(match.p_win_first),
            "p_win_second": _float(match.p_win_second),
            "p_first_wins": _float(match.p_first),
            "p_tie": _float(match.p_tie),
            "p_second_wins": _float(match.p_second),
            "convention": CONVENTION,
            "method": "layered value iteration over (stash, stash), policy iteration within "
                      "each layer; exact per-turn threshold tables",
        }
        if "optimal" in (first.kind, second.kind):
            out["optimal_policy_class"] = (
                "a threshold T chosen at each turn start from both stashes; stash once the "
                "turn total reaches T")
            out["first_threshold"] = (optimal_solution(variant).threshold(0, 0)
                                      if first.kind == "optimal" else None)
        return WholeGameReport.of(out)

    def build_shipped(self, directory: Path) -> list[Path]:
        written = []
        table = _turn_start_table()
        path = cache.save(table_key(), {"edges": table.edges, "lost": table.lost}, directory)
        if path:
            written.append(path)
        dist = turn_outcome_distribution(CaptainSevenVariant(), "optimal", exact=False)
        row = np.zeros(_SIZE)
        for x, p in dist.items():
            row[int(x)] += float(p)
        path = cache.save(_optimal_turn_key(), {"row": row}, directory)
        if path:
            written.append(path)
        for g in SHIPPED_TARGETS:
            solution = solve_optimal(CaptainSevenVariant(target=g))
            path = cache.save(solution_key(g), _solution_arrays(solution), directory)
            if path:
                written.append(path)
        for g in SHIPPED_TARGETS:
            arrays = _give_away_uncached(CaptainSevenVariant(target=g), GIVE_AWAY_THRESHOLDS,
                                         GIVE_AWAY_KINDS)
            path = cache.save(give_away_key(g, GIVE_AWAY_THRESHOLDS, GIVE_AWAY_KINDS), arrays,
                              directory)
            if path:
                written.append(path)
        return written


SOLVER = CaptainSevenWholeGame()
