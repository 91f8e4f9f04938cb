r"""A turn played with a fixed policy, as an absorbing Markov chain.

Fix a policy :math:`\pi` (a function ``state -> action``: the solver's optimal
``best_action``, or a threshold rule).  A turn model (:class:`~pushluck_teach.games.base.TurnModel`)
then becomes a Markov chain on the states the policy can reach from the start: from a decision
state :math:`s` the chain moves to :math:`s'` with probability
:math:`P_{ss'} = w(s, \pi(s), s') / W(s, \pi(s))` (exact integer weights).  Terminal states
(the turn is over: banked, or bust) have no action; they are *absorbing* (:math:`P_{tt} = 1`).
Every other reachable state is *transient*: a turn never returns to a state, because every draw
removes a card from the deck or raises the turn total.

Order the states transient first.  The transition matrix has the canonical block form

.. math::

    P = \begin{pmatrix} Q & R \\ 0 & I \end{pmatrix},

with :math:`Q` the transient-to-transient and :math:`R` the transient-to-absorbing
probabilities.  The **fundamental matrix**

.. math::

    N = (I - Q)^{-1} = I + Q + Q^2 + \cdots

counts visits: :math:`N_{ij}` is the expected number of times a chain started in :math:`i` is in
transient state :math:`j` before it is absorbed (the series is finite here, as :math:`Q` is
nilpotent on an acyclic chain).  Hence

* expected number of steps before absorption: :math:`t = N \mathbf 1`;
* expected number of **draws**: :math:`N d`, where :math:`d_j = 1` when the policy draws in
  :math:`j` (a "stop" step, or an ace's value, is a step but not a draw);
* absorption probabilities: :math:`B = N R`, where :math:`B_{ik}` is the probability that the
  turn started in :math:`i` ends in absorbing state :math:`k`.  Grouping absorbing states by
  their payoff gives the distribution of the turn's result, which must equal
  :meth:`~pushluck_teach.solve.turn.TurnSolver.distribution` under the same policy.

Computation.  :func:`absorbing_analysis` builds :math:`I - Q` as a ``scipy.sparse`` matrix,
factorises it once (sparse LU) and solves :math:`(I - Q) t = \mathbf 1`, :math:`(I-Q) x = d`
and, for the start row, :math:`(I - Q)^\top y = e_{\text{start}}` (so :math:`y^\top = e^\top N`
and the start's absorption probabilities are :math:`y^\top R`).  The full :math:`N` and
:math:`B` are formed only for small chains.  :func:`absorbing_analysis_exact` does the same in
exact rationals by back substitution: the states are stored in a topological order, so
:math:`I - Q` is upper triangular with unit diagonal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pushluck_teach.games.base import DRAW, PositionError, TurnModel
from pushluck_teach.solve.turn import TooManyStates, TurnSolver, policy_graph

if TYPE_CHECKING:  # NumPy/SciPy load only for the float analysis (the static site has neither)
    import numpy as np
    import scipy.sparse as sp

Policy = Callable[[Any], str]

#: Chains larger than this are refused (a lesson chart could not show them anyway).
MAX_STATES = 200_000
#: The dense ``N`` and ``B`` (float) are formed only up to this many transient states.
DENSE_LIMIT = 2_000
#: The exact ``N`` is formed only up to this many transient states.
EXACT_MATRIX_LIMIT = 300


@dataclass(frozen=True)
class TurnChain:
    """The Markov chain of one turn under a fixed policy (the model, as data).

    ``states[:n_transient]`` are transient, in a topological order with the start first;
    ``states[n_transient:]`` are absorbing.  ``edges`` lists ``(i, j, p)`` with exact ``p``
    (:class:`~fractions.Fraction`) for every transient ``i``; ``actions[i]`` is the policy's
    action in transient state ``i``.  ``results``/``busted`` describe the absorbing states.
    """

    states: tuple[Hashable, ...]
    n_transient: int
    edges: tuple[tuple[int, int, Fraction], ...]
    actions: tuple[str, ...]
    results: tuple[Fraction, ...]
    busted: tuple[bool, ...]
    labels: tuple[str, ...]
    totals: tuple[Fraction, ...]

    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_absorbing(self) -> int:
        return self.n_states - self.n_transient

    @property
    def start(self) -> int:
        return 0

    def index(self, state: Hashable) -> int:
        try:
            return self.states.index(state)
        except ValueError:
            raise PositionError(f"state {state!r} is not reachable in this chain") from None

    def transition_matrix(self) -> sp.csr_matrix:
        """The full ``P`` (float, ``scipy.sparse`` CSR), absorbing states with ``P[k, k] = 1``."""
        import scipy.sparse as sp

        n = self.n_states
        rows = [i for i, _, _ in self.edges] + list(range(self.n_transient, n))
        cols = [j for _, j, _ in self.edges] + list(range(self.n_transient, n))
        vals = [float(p) for _, _, p in self.edges] + [1.0] * self.n_absorbing
        return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))

    def blocks(self) -> tuple[sp.csr_matrix, sp.csr_matrix]:
        """``(Q, R)``: transient-to-transient and transient-to-absorbing blocks of ``P``."""
        P = self.transition_matrix()
        t = self.n_transient
        return P[:t, :t].tocsr(), P[:t, t:].tocsr()

    def exact_matrix(self) -> list[list[Fraction]]:
        """The full ``P`` as exact fractions (small chains only)."""
        if self.n_states > EXACT_MATRIX_LIMIT:
            raise PositionError(
                f"the chain has {self.n_states} states: too many for an exact matrix "
                f"(limit {EXACT_MATRIX_LIMIT})"
            )
        n = self.n_states
        P = [[Fraction(0)] * n for _ in range(n)]
        for i, j, p in self.edges:
            P[i][j] += p
        for k in range(self.n_transient, n):
            P[k][k] = Fraction(1)
        return P

    def draw_vector(self) -> np.ndarray:
        """``d``: 1 where the policy draws, 0 elsewhere (transient states)."""
        import numpy as np

        return np.array([1.0 if a == DRAW else 0.0 for a in self.actions])


def build_chain(model: TurnModel[Any], policy: Policy | None = None,
                state: Hashable | None = None, *, max_states: int = MAX_STATES) -> TurnChain:
    """The chain of ``model``'s turn from ``state`` (default: the model's start) under
    ``policy`` (default: the exact solver's optimal policy)."""
    start = model.start if state is None else state
    if not model.actions(start):
        raise PositionError("the turn is over: there is no chain to build")
    choose = policy or TurnSolver(model).best_action
    try:
        graph = policy_graph(model, start, choose, max_states=max_states)
    except TooManyStates:
        raise PositionError(
            f"the chain has more than {max_states} states: too large to build"
        ) from None
    moves = graph.moves
    terminals = list(graph.terminals)
    transient = _readable_topological_order(
        [s for s in graph.order if s in moves], moves, model
    )
    absorbing = sorted(terminals, key=lambda t: (Fraction(model.payoff(t)), repr(t)))
    states = (*transient, *absorbing)
    index = {s: i for i, s in enumerate(states)}
    edges: list[tuple[int, int, Fraction]] = []
    for s in transient:
        _, pairs = moves[s]
        total = sum(w for w, _ in pairs)
        merged: dict[int, int] = {}
        for w, nxt in pairs:
            merged[index[nxt]] = merged.get(index[nxt], 0) + w
        edges.extend((index[s], j, Fraction(w, total)) for j, w in sorted(merged.items()))
    return TurnChain(
        states=states,
        n_transient=len(transient),
        edges=tuple(edges),
        actions=tuple(moves[s][0] for s in transient),
        results=tuple(Fraction(model.payoff(t)) for t in absorbing),
        busted=tuple(bool(model.is_bust(t)) for t in absorbing),
        labels=tuple(model.describe(s) for s in states),
        totals=tuple(Fraction(model.turn_total(s)) if s in moves else Fraction(model.payoff(s))
                     for s in states),
    )


def _readable_topological_order(order: list[Hashable], moves: Mapping[Hashable, Any],
                                model: TurnModel[Any]) -> list[Hashable]:
    """A topological order that lists states by turn total where the edges allow it (Kahn's
    algorithm with a heap keyed by turn total, then DFS position), so matrices read in order."""
    import heapq

    position = {s: i for i, s in enumerate(order)}
    indegree = dict.fromkeys(order, 0)
    for s in order:
        for nxt in {n for _, n in moves[s][1] if n in indegree}:
            indegree[nxt] += 1
    heap = [(Fraction(model.turn_total(s)), position[s]) for s in order if indegree[s] == 0]
    heapq.heapify(heap)
    out: list[Hashable] = []
    while heap:
        _, i = heapq.heappop(heap)
        s = order[i]
        out.append(s)
        for nxt in {n for _, n in moves[s][1] if n in indegree}:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(heap, (Fraction(model.turn_total(nxt)), position[nxt]))
    return out


def _group(results: tuple[Fraction, ...], probs: Any, zero: Any) -> dict[Fraction, Any]:
    out: dict[Fraction, Any] = {}
    for r, p in zip(results, probs, strict=True):
        out[r] = out.get(r, zero) + p
    return {k: out[k] for k in sorted(out)}


@dataclass(frozen=True)
class Absorption:
    """Float results from the fundamental matrix (SciPy's sparse LU, or the same back
    substitution as :func:`absorbing_analysis_exact` in floats where SciPy is missing).
    Vectors are over transient states (``expected_*``) or absorbing states
    (``absorption_from_start``); ``solver`` names what computed them."""

    chain: TurnChain
    expected_steps: Sequence[float]
    expected_draws: Sequence[float]
    visits_from_start: Sequence[float]
    absorption_from_start: Sequence[float]
    fundamental: Any
    absorption: Any
    solver: str = "SciPy"

    @property
    def distribution(self) -> dict[Fraction, float]:
        """``{result: probability}`` of the turn from the start (compare
        :meth:`TurnSolver.distribution`)."""
        return {k: float(v) for k, v in
                _group(self.chain.results, self.absorption_from_start, 0.0).items()}

    @property
    def p_bust(self) -> float:
        return float(sum(p for p, b in zip(self.absorption_from_start, self.chain.busted,
                                            strict=True) if b))

    @property
    def expected_result(self) -> float:
        return float(sum(float(r) * p for r, p in zip(self.chain.results,
                                                      self.absorption_from_start, strict=True)))


def absorbing_analysis(chain: TurnChain, *, dense_limit: int = DENSE_LIMIT) -> Absorption:
    """Expected steps and draws, and absorption probabilities, by sparse LU of ``I - Q``
    (:func:`absorbing_analysis_floats` where SciPy is not installed, as in the static site)."""
    try:
        import numpy as np
        import scipy.sparse as sp
        from scipy.sparse.linalg import splu
    except ImportError:
        return absorbing_analysis_floats(chain, dense_limit=dense_limit)

    Q, R = chain.blocks()
    t = chain.n_transient
    lu = splu(sp.csc_matrix(sp.identity(t, format="csc") - Q))
    steps = lu.solve(np.ones(t))
    draws = lu.solve(chain.draw_vector())
    e = np.zeros(t)
    e[chain.start] = 1.0
    visits = lu.solve(e, trans="T")
    from_start = np.asarray(R.T @ visits).ravel()
    N = B = None
    if t <= dense_limit:
        N = lu.solve(np.eye(t))
        B = np.asarray(R.T @ N.T).T if R.shape[1] else np.zeros((t, 0))
    return Absorption(chain, steps, draws, visits, from_start, N, B)


def _back_substitution(chain: TurnChain, one: Any, zero: Any, matrix_limit: int
                       ) -> tuple[list[Any], list[Any], list[Any], list[list[Any]] | None]:
    """``(N·1, N·d, e_start^T N [Q R] (visits, then absorption), N or None)`` in the number
    type of ``one``/``zero``: every edge runs forward in the chain's topological order, so
    ``x = c + Q x`` is solved from the last transient state back to the first, and the start's
    row of ``N`` by forward mass propagation."""
    t = chain.n_transient
    out: list[list[tuple[int, Any]]] = [[] for _ in range(t)]
    for i, j, p in chain.edges:
        out[i].append((j, one * p))
    steps = [zero] * t
    draws = [zero] * t
    for i in range(t - 1, -1, -1):
        s = one
        d = one if chain.actions[i] == DRAW else zero
        for j, p in out[i]:
            if j < t:
                s += p * steps[j]
                d += p * draws[j]
        steps[i], draws[i] = s, d
    mass = [zero] * chain.n_states
    mass[chain.start] = one
    for i in range(t):
        for j, p in out[i]:
            mass[j] += mass[i] * p
    fundamental = None
    if t <= matrix_limit:
        rows: list[list[Any]] = [[]] * t
        for i in range(t - 1, -1, -1):
            row = [zero] * t
            row[i] = one
            for j, p in out[i]:
                if j < t:
                    for k in range(j, t):
                        if rows[j][k]:
                            row[k] += p * rows[j][k]
            rows[i] = row
        fundamental = rows
    return steps, draws, mass, fundamental


def absorbing_analysis_floats(chain: TurnChain, *,
                              dense_limit: int = DENSE_LIMIT) -> Absorption:
    """:func:`absorbing_analysis` in plain Python floats (no NumPy/SciPy): the back
    substitution of :func:`absorbing_analysis_exact` with floats; ``N`` and ``B = N R`` (lists
    of rows) only up to ``dense_limit`` transient states."""
    t = chain.n_transient
    steps, draws, mass, rows = _back_substitution(chain, 1.0, 0.0, dense_limit)
    absorption = None
    if rows is not None:
        into: list[list[tuple[int, float]]] = [[] for _ in range(t)]
        for i, j, p in chain.edges:
            if j >= t:
                into[i].append((j - t, float(p)))
        absorption = [[0.0] * chain.n_absorbing for _ in range(t)]
        for i in range(t):
            for m in range(t):
                if rows[i][m]:
                    for k, p in into[m]:
                        absorption[i][k] += rows[i][m] * p
    return Absorption(chain, tuple(steps), tuple(draws), tuple(mass[:t]), tuple(mass[t:]),
                      rows, absorption, solver="Python floats")


@dataclass(frozen=True)
class ExactAbsorption:
    """The same quantities as :class:`Absorption` in exact fractions (by back substitution)."""

    chain: TurnChain
    expected_steps: tuple[Fraction, ...]
    expected_draws: tuple[Fraction, ...]
    absorption_from_start: tuple[Fraction, ...]
    fundamental: tuple[tuple[Fraction, ...], ...] | None

    @property
    def distribution(self) -> dict[Fraction, Fraction]:
        return _group(self.chain.results, self.absorption_from_start, Fraction(0))

    @property
    def p_bust(self) -> Fraction:
        return sum((p for p, b in zip(self.absorption_from_start, self.chain.busted,
                                      strict=True) if b), Fraction(0))

    @property
    def expected_result(self) -> Fraction:
        return sum((r * p for r, p in zip(self.chain.results, self.absorption_from_start,
                                          strict=True)), Fraction(0))


def absorbing_analysis_exact(chain: TurnChain, *,
                             matrix_limit: int = EXACT_MATRIX_LIMIT) -> ExactAbsorption:
    """Exact :math:`N\\mathbf 1`, :math:`Nd`, :math:`e^\\top N R` (and :math:`N` when small).

    In topological order every edge goes forward, so ``x = c + Q x`` is solved from the last
    transient state back to the first; forward mass propagation gives the start's row of ``N``.
    """
    t = chain.n_transient
    steps, draws, mass, rows = _back_substitution(chain, Fraction(1), Fraction(0), matrix_limit)
    fundamental = None if rows is None else tuple(tuple(row) for row in rows)
    return ExactAbsorption(chain, tuple(steps), tuple(draws), tuple(mass[t:]), fundamental)


def threshold_policy(model: TurnModel[Any], threshold: int | Fraction) -> Policy:
    """Stop once the turn total reaches ``threshold``: :meth:`TurnSolver.threshold_policy`."""
    return TurnSolver(model).threshold_policy(threshold)


def chain_summary(result: Absorption | ExactAbsorption) -> Mapping[str, Any]:
    """A small dict for display: sizes, expected draws and P(bust) from the start."""
    chain = result.chain
    return {
        "transient states": chain.n_transient,
        "absorbing states": chain.n_absorbing,
        "expected draws": result.expected_draws[chain.start],
        "expected steps": result.expected_steps[chain.start],
        "P(bust)": result.p_bust,
        "expected result": result.expected_result,
    }
