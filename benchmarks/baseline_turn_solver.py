"""Today's turn solver, kept verbatim as the benchmark baseline: a plain memoised
recursion, one Python call per state.  ``benchmarks/bench_worst_positions.py`` times it side by
side with :mod:`pushluck_teach.solve.turn`; tests compare the two solvers' answers.  Do not use
it in the package: it recurses (deep positions hit the recursion limit) and its caches are
unbounded.

"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Generic, TypeVar

from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel

try:  # gmpy2's rationals are an order of magnitude faster than fractions.Fraction
    from gmpy2 import mpq as _rational
except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
    _rational = Fraction

S = TypeVar("S", bound=Hashable)
Number = float | Fraction
Policy = Callable[[Any], str]

_FLOAT_TIE = 1e-12
_RECURSION_LIMIT = 20_000


def _to_fraction(value: Any) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(int(value.numerator), int(value.denominator))


@dataclass(frozen=True)
class NextOutcome:
    """One outcome of a single draw: its probability, a label, and what it leads to."""

    probability: Number
    label: str
    busted: bool
    total_after: Number
    state: Any


@dataclass(frozen=True)
class PositionAnalysis:
    """The solver's answers for one decision state."""

    p_bust_next: Number | None
    ev_stop: Number | None
    ev_draw_once: Number | None
    ev_optimal: Number
    best_action: str
    action_values: Mapping[str, Number]
    turn_total: Number

    def as_dict(self) -> dict[str, Any]:
        return {
            "p_bust_next": self.p_bust_next,
            "ev_stop": self.ev_stop,
            "ev_draw_once": self.ev_draw_once,
            "ev_optimal": self.ev_optimal,
            "best_action": self.best_action,
        }


class TurnSolver(Generic[S]):
    """Memoised exact solver for one turn model.  Reuse one instance for many queries."""

    def __init__(self, model: TurnModel[S], *, exact: bool = False) -> None:
        self.model = model
        self.exact = exact
        self._values: dict[S, Any] = {}
        self._best: dict[S, str] = {}
        self._bust: dict[S, Any] = {}
        self._draw_once: dict[S, Any] = {}
        self._zero: Any = _rational(0) if exact else 0.0
        self._orders: dict[tuple[str, ...], tuple[str, ...]] = {}

    # ---- number helpers -------------------------------------------------------------------
    def _num(self, value: Any) -> Any:
        if self.exact:
            return _rational(value) if not isinstance(value, Fraction) else _rational(
                value.numerator, value.denominator
            )
        return float(value)

    def _out(self, value: Any) -> Number:
        return _to_fraction(value) if self.exact else float(value)

    def _greater(self, a: Any, b: Any) -> bool:
        if self.exact:
            return a > b
        return a > b + _FLOAT_TIE * max(1.0, abs(a), abs(b))

    def _expect(self, pairs: Any, value_of: Callable[[Any], Any]) -> Any:
        total_weight = 0
        acc = self._zero
        for weight, nxt in pairs:
            total_weight += weight
            acc += weight * value_of(nxt)
        if total_weight <= 0:
            raise PositionError("a chance node with no outcomes")
        return acc / total_weight

    # ---- optimal values -------------------------------------------------------------------
    def _ordered(self, actions: tuple[str, ...]) -> tuple[str, ...]:
        """``stop`` first (it wins ties), then the model's order; cached per actions tuple."""
        ordered = self._orders.get(actions)
        if ordered is None:
            ordered = (STOP, *[a for a in actions if a != STOP]) if STOP in actions else actions
            self._orders[actions] = ordered
        return ordered

    def _value(self, state: S) -> Any:
        cached = self._values.get(state)
        if cached is not None:
            return cached
        model = self.model
        actions = model.actions(state)
        if not actions:
            value = self._num(model.payoff(state))
            self._values[state] = value
            return value
        ordered = self._ordered(actions)
        best_action, value = ordered[0], self._q(state, ordered[0])
        if len(ordered) > 1 and not (best_action == STOP and model.stop_is_optimal(state)):
            greater = self._greater
            for action in ordered[1:]:
                q = self._q(state, action)
                if greater(q, value):
                    best_action, value = action, q
        self._values[state] = value
        self._best[state] = best_action
        return value

    def _q(self, state: S, action: str) -> Any:
        if action == STOP:
            payoff = self.model.stop_payoff(state)
            if payoff is not None:
                return self._num(payoff)
        # The hot loop of every solve: _expect inlined, memo looked up before recursing.
        values, value_of = self._values, self._value
        total_weight = 0
        acc = self._zero
        for weight, nxt in self.model.transitions(state, action):
            v = values.get(nxt)
            if v is None:
                v = value_of(nxt)
            acc += weight * v
            total_weight += weight
        if total_weight <= 0:
            raise PositionError("a chance node with no outcomes")
        return acc / total_weight

    def _run(self, fn: Callable[[], Any]) -> Any:
        old = sys.getrecursionlimit()
        if old < _RECURSION_LIMIT:
            sys.setrecursionlimit(_RECURSION_LIMIT)
        try:
            return fn()
        finally:
            if old < _RECURSION_LIMIT:
                sys.setrecursionlimit(old)

    def value(self, state: S | None = None) -> Number:
        """``V(state)`` under optimal play (default: the model's start)."""
        state = self.model.start if state is None else state
        return self._out(self._run(lambda: self._value(state)))

    def action_value(self, state: S, action: str) -> Number:
        self._check_action(state, action)
        return self._out(self._run(lambda: self._q(state, action)))

    def best_action(self, state: S | None = None) -> str:
        state = self.model.start if state is None else state
        if not self.model.actions(state):
            raise PositionError("the turn is over: there is no action to choose")
        self._run(lambda: self._value(state))
        return self._best[state]

    def policy(self) -> Policy:
        """The optimal policy as a callable ``state -> action``."""
        return self.best_action

    def threshold_policy(self, threshold: Number) -> Policy:
        """Stop once the turn total reaches ``threshold`` (where stopping is legal); draw
        otherwise; any other choice (an ace's value, say) is made optimally."""

        def choose(state: S) -> str:
            actions = self.model.actions(state)
            if STOP in actions and self.model.turn_total(state) >= threshold:
                return STOP
            if DRAW in actions:
                return DRAW
            if STOP in actions:
                return STOP
            return self.best_action(state)

        return choose

    def _check_action(self, state: S, action: str) -> None:
        if action not in self.model.actions(state):
            raise PositionError(f"action {action!r} is not legal here")

    # ---- one more draw --------------------------------------------------------------------
    def _follow_bust(self, state: S) -> Any:
        """P(bust) when continuing only through forced draws and non-draw/stop choices."""
        cached = self._bust.get(state)
        if cached is not None:
            return cached
        model = self.model
        actions = model.actions(state)
        if not actions:
            result = self._num(1 if model.is_bust(state) else 0)
        elif model.is_forced(state) and DRAW in actions:
            result = self._expect(model.transitions(state, DRAW), self._follow_bust)
        elif STOP in actions or DRAW in actions:
            result = self._num(0)
        else:
            self._value(state)
            result = self._expect(model.transitions(state, self._best[state]), self._follow_bust)
        self._bust[state] = result
        return result

    def _stop_asap(self, state: S) -> Any:
        """Value of stopping at the first state where stopping is legal."""
        cached = self._draw_once.get(state)
        if cached is not None:
            return cached
        model = self.model
        actions = model.actions(state)
        if not actions:
            result = self._num(model.payoff(state))
        elif STOP in actions:
            result = self._q(state, STOP)
        elif DRAW in actions:
            result = self._expect(model.transitions(state, DRAW), self._stop_asap)
        else:
            self._value(state)
            result = self._expect(model.transitions(state, self._best[state]), self._stop_asap)
        self._draw_once[state] = result
        return result

    def p_bust_next(self, state: S | None = None) -> Number | None:
        state = self.model.start if state is None else state
        if DRAW not in self.model.actions(state):
            return None
        return self._out(self._run(
            lambda: self._expect(self.model.transitions(state, DRAW), self._follow_bust)
        ))

    def next_outcomes(self, state: S | None = None) -> tuple[NextOutcome, ...]:
        """Every outcome of one draw from ``state`` with its exact probability, merged by label."""
        state = self.model.start if state is None else state
        model = self.model
        if DRAW not in model.actions(state):
            return ()
        pairs = model.transitions(state, DRAW)
        total = sum(w for w, _ in pairs)
        merged: dict[tuple[str, bool], list[Any]] = {}
        for weight, nxt in pairs:
            busted = self._run(lambda n=nxt: self._follow_bust(n)) == 1
            key = (model.outcome_label(state, nxt), busted)
            if key in merged:
                merged[key][0] += weight
            else:
                after = 0 if busted else model.turn_total(nxt)
                merged[key] = [weight, after, nxt]
        return tuple(
            NextOutcome(self._out(self._num(Fraction(w, total))), label, busted,
                        self._out(self._num(after)), nxt)
            for (label, busted), (w, after, nxt) in merged.items()
        )

    # ---- everything at once ---------------------------------------------------------------
    def analyse(self, state: S | None = None) -> PositionAnalysis:
        state = self.model.start if state is None else state
        model = self.model
        actions = model.actions(state)
        if not actions:
            raise PositionError("the turn is over: nothing to analyse")

        def compute() -> PositionAnalysis:
            value = self._value(state)
            action_values = {a: self._out(self._q(state, a)) for a in actions}
            draw_once = None
            if DRAW in actions:
                draw_once = self._out(
                    self._expect(model.transitions(state, DRAW), self._stop_asap)
                )
            return PositionAnalysis(
                p_bust_next=self.p_bust_next(state),
                ev_stop=action_values.get(STOP),
                ev_draw_once=draw_once,
                ev_optimal=self._out(value),
                best_action=self._best[state],
                action_values=action_values,
                turn_total=self._out(self._num(model.turn_total(state))),
            )

        return self._run(compute)

    # ---- distributions --------------------------------------------------------------------
    def distribution(self, state: S | None = None, policy: Policy | None = None, *,
                     max_states: int | None = None) -> dict[Number, Number]:
        """The distribution of this turn's result (``payoff``) from ``state`` under ``policy``
        (default: optimal), as ``{result: probability}`` sorted by result.  With ``max_states``
        a :class:`PositionError` is raised once more states than that are reachable (a caller
        with a time budget, such as a live chart, can then skip it)."""
        state = self.model.start if state is None else state
        choose = policy or self.best_action
        model = self.model
        graph = policy_graph(model, state, choose, max_states=max_states)
        edges = {node: pairs for node, (_, pairs) in graph.moves.items()}
        order = graph.order
        mass: dict[S, Any] = {state: self._num(1)}
        result: dict[Any, Any] = {}
        for node in order:
            p = mass.pop(node, None)
            if p is None:
                continue
            pairs = edges.get(node)
            if pairs is None:
                key = self._num(model.payoff(node))
                result[key] = result.get(key, self._num(0)) + p
                continue
            total = sum(w for w, _ in pairs)
            for weight, nxt in pairs:
                share = p * weight / total
                mass[nxt] = mass.get(nxt, self._num(0)) + share
        return {self._out(k): self._out(result[k]) for k in sorted(result)}

    def states_solved(self) -> int:
        return len(self._values)


class TooManyStates(PositionError):
    """More states are reachable than a caller's budget allows."""


@dataclass(frozen=True)
class PolicyGraph:
    """The states a policy reaches from a start, in topological order (every state before the
    states it leads to), with the action chosen and its outcomes at each decision state."""

    order: tuple[Any, ...]
    moves: Mapping[Any, tuple[str, tuple[tuple[int, Any], ...]]]

    @property
    def terminals(self) -> tuple[Any, ...]:
        return tuple(s for s in self.order if s not in self.moves)


def policy_graph(model: TurnModel[Any], start: Any, choose: Policy, *,
                 max_states: int | None = None) -> PolicyGraph:
    """Every state reachable from ``start`` when ``choose`` picks the actions.

    A depth-first search; the reverse of its post-order is a topological order of the acyclic
    turn.  With ``max_states`` a :class:`PositionError` is raised once more states than that
    are reachable (:class:`TooManyStates`; a caller with a time budget can skip the work).
    """
    post: list[Any] = []
    moves: dict[Any, tuple[str, tuple[tuple[int, Any], ...]]] = {}
    seen: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(start, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        if max_states is not None and len(seen) > max_states:
            raise TooManyStates(f"more than {max_states} states are reachable from here")
        stack.append((node, True))
        if model.actions(node):
            action = choose(node)
            if action not in model.actions(node):
                raise PositionError(f"the policy chose {action!r}, which is not legal here")
            pairs = tuple(model.transitions(node, action))
            moves[node] = (action, pairs)
            stack.extend((nxt, False) for _, nxt in pairs if nxt not in seen)
    return PolicyGraph(tuple(reversed(post)), moves)


@lru_cache(maxsize=64)
def cached_solver(model: TurnModel[Any], exact: bool = False) -> TurnSolver[Any]:
    """One memoised solver per (model, mode), shared by bots and live charts: models are
    hashable value objects, so a turn asked about again is answered from memory."""
    return TurnSolver(model, exact=exact)


def expectation(distribution: Mapping[Number, Number]) -> Number:
    """The mean of a ``{value: probability}`` distribution."""
    return sum((v * p for v, p in distribution.items()), type(next(iter(distribution.values())))(0))
