r"""One exact solver for the turn model of every game.

A turn model (:class:`~pushluck_teach.games.base.TurnModel`) is a finite, acyclic Markov
decision process: from a decision state ``s`` each legal action ``a`` leads to next states
``s'`` with probabilities ``w(s, a, s') / W(s, a)`` (integer weights: exact).  The turn ends in
a terminal state ``t`` with payoff ``r(t)``.  The optimal value is the Bellman recursion

.. math::

    V(t) = r(t), \qquad
    V(s) = \max_a Q(s, a), \qquad
    Q(s, a) = \sum_{s'} \frac{w(s, a, s')}{W(s, a)} \, V(s').

Because every turn draws from a finite deck (or, for Pig, stops at a proved threshold) the
recursion reaches terminal states, and memoising ``V`` makes each state cost one evaluation.
The solver prefers ``stop`` on a tie, then the model's action order.

No Python recursion limit: the recursion nests at most ``_MAX_DEPTH`` states, and a
deeper turn (Pig with 200 die sides) continues on an explicit stack, in the same arithmetic
order, so the numbers are those of the plain recursion.  A solver works within a state budget
(``max_states``, default :data:`DEFAULT_MAX_STATES`): a position whose model estimates more
states (:func:`~pushluck_teach.solve.speedups.estimated_states`) is refused up front with
:class:`TooManyStates`, naming the estimate and a way to proceed; a solve that outgrows the
budget anyway stops there.  :func:`cached_solver` shares solvers within the same budget.

Derived quantities at a decision state ``s``:

* ``ev_stop`` = ``Q(s, stop)``; ``None`` where stopping is not legal;
* ``ev_draw_once``: draw now, then stop at the first state where stopping is legal (drawing
  while it is not; other choices, such as an ace's value, made optimally);
* ``p_bust_next``: the probability that one more draw (with any draws a rule forces after it,
  and any choice it brings made optimally) ends the turn in a bust;
* the distribution of the turn's final result under a policy, by one forward pass of
  probability mass over the policy's reachable states in topological order.

Two number modes: ``exact=True`` computes every value as a rational (``gmpy2.mpq`` when
installed, else :class:`fractions.Fraction`) and returns :class:`~fractions.Fraction`;
``exact=False`` uses floats.  Float ties are decided with a relative tolerance of ``1e-12`` so
both modes choose the same action.

Models may declare states where stopping is *provably* optimal
(:meth:`~pushluck_teach.games.base.TurnModel.stop_is_optimal`); the solver does not expand
them.  That is the only pruning, and each model proves its rule in its docstring.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel
from pushluck_teach.solve import speedups
from pushluck_teach.solve.cache import MemorySolverCache, release_memory

try:  # gmpy2's rationals are an order of magnitude faster than fractions.Fraction
    from gmpy2 import mpq as _rational
except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
    _rational = Fraction

S = TypeVar("S", bound=Hashable)
Number = float | Fraction
Policy = Callable[[Any], str]

FLOAT_TIE = 1e-12
# About what one solved state costs on the 2-core development machine (CPU time:
# 3-9 µs in float mode depending on the model, 1.3-1.5x that exact); only words estimates.
SECONDS_PER_STATE = {False: 5e-6, True: 7e-6}
# The default state budget of a solver: 170-400 MB of memo (float to exact, by model).  Every
# position of the app's default rules fits; a position whose model estimates more is refused
# up front (:class:`TooManyStates`), one that turns out larger is stopped at the budget.
DEFAULT_MAX_STATES = 1_200_000
# A model without an estimate is stopped only once its memo holds this many times the budget:
# real games reach turns larger than the budget (an Incan Gold round with two traps gone and
# four artifacts in: 1.8 million states), and a bot must still be able to play them.
BACKSTOP_FACTOR = 4


def estimate_seconds(states: int, exact: bool) -> float:
    """About how long solving ``states`` states takes (an estimate to show, not a promise)."""
    return states * SECONDS_PER_STATE[exact]


# The recursive fast path nests at most this many states, then continues with an explicit
# stack: far below Python's default recursion limit (1000) whatever the caller's depth.
_MAX_DEPTH = 400


# Every 4096 newly solved states a solve calls the checkpoint of its thread (:func:`watching`).
_CHECK_EVERY = 4095
_WATCH = threading.local()


class Cancelled(Exception):  # noqa: N818 - reads as "the computation was cancelled"
    """A computation stopped because its result is no longer wanted (a newer click) or its
    time on the click path is up.  What the solver solved so far stays in its memo."""


def _checkpoint(solved: int) -> None:
    check = getattr(_WATCH, "check", None)
    if check is not None:
        check(solved)


@contextmanager
def watching(check: Callable[[int], None]) -> Iterator[None]:
    """Within this block, on this thread, every solve calls ``check(states in its memo)``
    about every 4096 newly solved states: to report progress, or to stop the solve by raising
    (:class:`Cancelled`, say).  The memo stays consistent: only finished states are stored."""
    previous = getattr(_WATCH, "check", None)
    _WATCH.check = check
    try:
        yield
    finally:
        _WATCH.check = previous


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
    """Memoised exact solver for one turn model.  Reuse one instance for many queries.

    The Bellman recursion is evaluated without Python recursion: an explicit depth-first stack
    expands a state, pushes its unsolved successors, and evaluates the state once they are all
    solved (so no legal position meets the recursion limit, however deep the turn).  The
    transitions of a waiting state are kept on the side, so the model is asked once per state.

    ``max_states`` is the state budget (default :data:`DEFAULT_MAX_STATES`; ``None``: none).  A
    position whose model estimates more states (:func:`.speedups.estimated_states`) is refused
    up front with :class:`TooManyStates`, a :class:`PositionError` naming the estimate and a way
    to proceed; a solve without an estimate stops with it once its memo holds
    :data:`BACKSTOP_FACTOR` times the budget (``memo_limit``).

    ``shipped`` (float mode): start from the model's shipped table of values, if it has one
    (:mod:`pushluck_teach.solve.turn_tables`; the same numbers a solve computes).
    ``seed`` (float mode, instead of a shipped table): values of states taken as solved, e.g.
    to check a table's entry against its successors' entries.
    """

    def __init__(self, model: TurnModel[S], *, exact: bool = False,
                 max_states: int | None = DEFAULT_MAX_STATES, shipped: bool = True,
                 levels: bool = True, seed: Mapping[S, float] | None = None) -> None:
        self.model = model
        self.exact = exact
        self.max_states = max_states
        self.memo_limit = None if max_states is None else BACKSTOP_FACTOR * max_states
        self._values: Any = {}
        self._best: Any = {}
        # Float mode solves large positions level by level with NumPy when the model offers a
        # level graph (:mod:`.levels`); its budget is larger (arrays: ~17 bytes a state).
        self._graph: Any = None
        self.level_max_states: int | None = max_states
        if levels and not exact:
            from pushluck_teach.solve import levels as level_solver

            self._graph = level_solver.level_graph(model)
            if self._graph is not None and max_states == DEFAULT_MAX_STATES:
                self.level_max_states = level_solver.graph_budget(self._graph)
        self._bust: dict[S, Any] = {}
        self._draw_once: dict[S, Any] = {}
        self._zero: Any = _rational(0) if exact else 0.0
        self._orders: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._seeded = 0
        self._open: frozenset[Any] = frozenset()
        # One level-by-level solve at a time per solver: the UI asks from its kernel thread and
        # a worker (a bot's choice, the panel's expected values) at once.
        self._level_lock = threading.Lock()
        if shipped and not exact:
            from pushluck_teach.solve import turn_tables  # numpy is optional

            table = turn_tables.shipped_values(model)
            starts = None if table else turn_tables.shipped_start_values(model)
            if starts:
                # Values whose successors are not shipped: a question that needs those
                # successors solves the state level by level first (:meth:`_q`).
                self._open = frozenset(starts.states.tolist())
                table = starts
            if table:
                self._values = table  # shared with every solver of this state space
                self._seeded = len(table)
        if seed is not None and not exact:
            self._values = seed
            self._seeded = len(seed)

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
        return a > b + FLOAT_TIE * max(1.0, abs(a), abs(b))

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

    def _too_many(self, estimate: int | None = None, limit: int | None = None) -> TooManyStates:
        mode = "exact" if self.exact else "float"
        budget = self.max_states if limit is None else limit
        if limit is None or self._graph is None:
            def cost(states: int) -> float:
                return estimate_seconds(states, self.exact)
        else:  # the level solver's rate (solve/levels.py)
            from pushluck_teach.solve.levels import LEVEL_SECONDS_PER_STATE

            def cost(states: int) -> float:
                return states * LEVEL_SECONDS_PER_STATE
        if estimate is None:
            backstop = self.memo_limit if limit is None else limit
            size = f"more than {backstop:,} solver states"
            seconds = f"over {cost(backstop or 0):.0f} s"
        else:
            size = f"about {estimate:,} solver states (the budget is {budget:,})"
            seconds = f"about {cost(estimate):.0f} s"
        return TooManyStates(
            f"this position needs {size}: {seconds} in {mode} mode and too much memory; "
            "ask about a position later in the turn (more drawn), or solve without the budget "
            "(TurnSolver(model, max_states=None))"
        )

    def _level_path(self, estimate: int | None) -> bool:
        """Whether a solve with the model's ``estimate`` goes level by level: a level graph,
        and no estimate or one of at least ``LEVEL_MIN_STATES`` (below, the recursion is
        faster)."""
        if self._graph is None:
            return False
        from pushluck_teach.solve.levels import LEVEL_MIN_STATES

        return estimate is None or estimate >= LEVEL_MIN_STATES

    def estimated_states(self, state: S) -> int | None:
        """About how many states this solver stores solving ``state``: on the level path what
        the graph estimates a level solve stores (``graph.estimated_states``, where it has one:
        inline states are not stored), else the model's estimate."""
        return self._estimate(state)[1]

    def _estimate(self, state: S) -> tuple[bool, int | None]:
        """``(level path?, estimated states stored)``."""
        estimate = speedups.estimated_states(self.model, state)
        arrays = self._level_path(estimate)
        if arrays and hasattr(self._graph, "estimated_states"):
            estimate = self._graph.estimated_states(state)
        return arrays, estimate

    def _check_budget(self, state: S) -> bool:
        """Refuse up front a position whose estimate (:meth:`estimated_states`) is over the
        budget of its path; True when it is solved level by level (:meth:`_level_path`)."""
        if state in self._values:
            return False
        arrays, refusal = self._over_budget(state)
        if refusal is not None:
            raise refusal
        return arrays

    def _over_budget(self, state: S) -> tuple[bool, TooManyStates | None]:
        """``(level path?, the refusal if the estimate is over that path's budget)``."""
        arrays, estimate = self._estimate(state)
        limit = self.level_max_states if arrays else self.max_states
        if limit is not None and estimate is not None and estimate > limit:
            return arrays, self._too_many(estimate, limit)
        return arrays, None

    def _settled(self, state: S) -> bool:
        """A turn's end or a proved stop: valued at once by the recursion.  A level table never
        stores them (its solve values them on the fly), so asking for one must not start a
        level solve of its own."""
        actions = self.model.actions(state)
        return not actions or (STOP in actions and self.model.stop_is_optimal(state))

    def _solve_levels(self, state: S, *, again: bool = False) -> bool:
        """Solve ``state`` level by level into the memo; False when its graph has no code for
        it (the recursion then solves it).  ``again``: solve it even though its value is
        known (a shipped start value whose successors are not), unless a level table holds it
        (and so all it leads to)."""
        from pushluck_teach.solve import levels as level_solver

        graph = self._graph
        code = graph.code(state)
        if code is None:
            return False
        lock = self._level_lock
        # Wait for another thread's level solve of this solver (it may be solving this very
        # state), still passing this thread's checkpoint so a newer click can cancel the wait.
        while not lock.acquire(timeout=0.05):
            _checkpoint(len(self._values))
        solving = False
        try:
            if self._in_level_table(state) if again else state in self._values:
                return True
            solving = True
            limit = self.level_max_states
            # Room in the shared cache first: the solve's table and its passing arrays.
            estimate = self.estimated_states(state)
            if estimate:
                _SHARED.make_room(estimate * level_solver.LEVEL_PEAK_BYTES_PER_STATE, keep=self)
            table = level_solver.solve_levels(
                graph, code, max_states=limit,
                too_many=lambda: self._too_many(None, limit), checkpoint=_checkpoint)
            memo = self._values
            if isinstance(memo, level_solver.LevelMemo):
                memo.add(table)
            else:
                # Published whole, best actions first: a reader on another thread never sees
                # values without their best actions, nor a memo without the table.
                memo = level_solver.LevelMemo(graph, memo)
                memo.add(table)
                self._best = level_solver.LevelBest(memo, self._best)
                self._values = memo
            return True
        finally:
            lock.release()
            # The solve's transient arrays are gone (done, refused or cancelled) and its table
            # may have taken the shared cache over its budget: evict there, and give the freed
            # heap back to the system.
            if solving and not _SHARED.shrink():
                release_memory()

    def _value(self, state: S, depth: int = 0) -> Any:
        """``V(state)``: a memoised recursion of bounded depth (the fast path: CPython calls are
        cheaper than stack bookkeeping); past ``_MAX_DEPTH`` nested states it hands the subtree
        to :meth:`_value_stack`, so the recursion limit is never reached."""
        values = self._values
        cached = values.get(state)
        if cached is not None:
            return cached
        if depth == 0:
            # (a turn's end or a proved stop is valued at once: no estimate, no level solve)
            if (not self._settled(state) and self._check_budget(state)
                    and self._solve_levels(state)):
                return self._values[state]
        elif depth >= _MAX_DEPTH:
            return self._value_stack(state)
        model = self.model
        actions = model.actions(state)
        if not actions:
            value = self._num(model.payoff(state))
            values[state] = value
            return value
        ordered = self._ordered(actions)
        if len(ordered) > 1 and not (ordered[0] == STOP and model.stop_is_optimal(state)):
            todo = ordered
        else:
            todo = ordered[:1]
        # The hot loop of every solve: Q(state, action) inlined, memo looked up before recursing.
        exact = self.exact
        value_of = self._value
        deeper = depth + 1
        best_action = None
        value = zero = self._zero
        for action in todo:
            banked = model.stop_payoff(state) if action == STOP else None
            if banked is not None:
                q = self._num(banked)
            else:
                total_weight = 0
                acc = zero
                for weight, nxt in model.transitions(state, action):
                    v = values.get(nxt)
                    if v is None:
                        v = value_of(nxt, deeper)
                    acc += weight * v
                    total_weight += weight
                if total_weight <= 0:
                    raise PositionError("a chance node with no outcomes")
                q = acc / total_weight
            if best_action is None or (
                q > value if exact else q > value + FLOAT_TIE * max(1.0, abs(q), abs(value))
            ):
                best_action, value = action, q
        values[state] = value
        self._best[state] = best_action
        solved = len(values)
        if not solved & _CHECK_EVERY:
            _checkpoint(solved)
        limit = self.memo_limit
        if limit is not None and solved > limit:
            raise self._too_many()
        return value

    def _value_stack(self, root: S) -> Any:
        """``V(root)``: the Bellman recursion evaluated with an explicit stack (no recursion).

        Arithmetic is done in exactly the order of the plain recursion (actions ``stop`` first
        then the model's order, outcomes in the model's order), so the numbers are identical.
        """
        values = self._values
        cached = values.get(root)
        if cached is not None:
            return cached
        best = self._best
        model = self.model
        actions_of, transitions = model.actions, model.transitions
        payoff, stop_payoff = model.payoff, model.stop_payoff
        stop_is_optimal = model.stop_is_optimal
        num, ordered_of, greater = self._num, self._ordered, self._greater
        zero = self._zero
        limit = self.memo_limit
        waiting: dict[S, list[tuple[str, Any, Any]]] = {}
        stack: list[S] = [root]
        push = stack.append
        while stack:
            state = stack[-1]
            if state in values:
                stack.pop()
                continue
            moves = waiting.pop(state, None)
            if moves is None:
                actions = actions_of(state)
                if not actions:
                    values[state] = num(payoff(state))
                    stack.pop()
                    continue
                ordered = ordered_of(actions)
                if len(ordered) > 1 and not (ordered[0] == STOP and stop_is_optimal(state)):
                    todo = ordered
                else:
                    todo = ordered[:1]
                moves = []
                depth = len(stack)
                for action in todo:
                    if action == STOP:
                        banked = stop_payoff(state)
                        if banked is not None:
                            moves.append((action, None, num(banked)))
                            continue
                    pairs = transitions(state, action)
                    moves.append((action, pairs, None))
                    for _, nxt in pairs:
                        if nxt not in values:
                            push(nxt)
                if len(stack) > depth:
                    waiting[state] = moves
                    continue
            # every successor is solved: evaluate the state
            stack.pop()
            best_action = None
            value = zero
            for action, pairs, banked in moves:
                if pairs is not None:
                    total_weight = 0
                    acc = zero
                    for weight, nxt in pairs:
                        acc += weight * values[nxt]
                        total_weight += weight
                    if total_weight <= 0:
                        raise PositionError("a chance node with no outcomes")
                    q = acc / total_weight
                else:
                    q = banked
                if best_action is None or greater(q, value):
                    best_action, value = action, q
            values[state] = value
            best[state] = best_action  # type: ignore[assignment]
            solved = len(values)
            if not solved & _CHECK_EVERY:
                _checkpoint(solved)
            if limit is not None and solved > limit:
                raise self._too_many()
        return values[root]

    def _in_level_table(self, state: S) -> bool:
        memo = self._values
        find = getattr(memo, "find", None)  # a LevelMemo's tables (solve/levels.py)
        return find is not None and find(state) is not None

    def _solve_open(self, state: S) -> None:
        """Solve a shipped start value's successors (:mod:`.turn_tables`) from ``state``, level
        by level, instead of one by one under the recursion; refused up front like any solve."""
        arrays, refusal = self._over_budget(state)
        if refusal is not None:
            raise refusal
        if arrays:
            self._solve_levels(state, again=True)

    def _successors_known(self, state: S) -> bool:
        """Whether every successor of ``state`` that needs solving has its value here."""
        model, values = self.model, self._values
        return all(nxt in values or self._settled(nxt)
                   for action in model.actions(state) if action != STOP
                   for _, nxt in model.transitions(state, action))

    def _q(self, state: S, action: str, depth: int = 0) -> Any:
        if action == STOP:
            payoff = self.model.stop_payoff(state)
            if payoff is not None:
                return self._num(payoff)
        if state in self._open and not self._successors_known(state):
            self._solve_open(state)
        pairs = self.model.transitions(state, action)
        values, value_of = self._values, self._value
        total_weight = 0
        acc = self._zero
        deeper = depth + 1
        for weight, nxt in pairs:
            v = values.get(nxt)
            if v is None:
                v = value_of(nxt, deeper)
            acc += weight * v
            total_weight += weight
        if total_weight <= 0:
            raise PositionError("a chance node with no outcomes")
        return acc / total_weight

    def value(self, state: S | None = None) -> Number:
        """``V(state)`` under optimal play (default: the model's start)."""
        state = self.model.start if state is None else state
        return self._out(self._value(state))

    def action_value(self, state: S, action: str) -> Number:
        self._check_action(state, action)
        return self._out(self._q(state, action))

    def best_action(self, state: S | None = None) -> str:
        state = self.model.start if state is None else state
        if not self.model.actions(state):
            raise PositionError("the turn is over: there is no action to choose")
        return self._best_of(state)

    def _best_of(self, state: S) -> str:
        """The optimal action at a decision state (solving it if needed).  A state whose value
        came from a shipped table has no recorded action: it is chosen again from its
        successors' values by the solve's own rule (stop first on a tie, then the model's
        order; a proved stop is not compared)."""
        best = self._best.get(state)
        if best is not None:
            return best
        self._value(state)
        best = self._best.get(state)
        if best is None:
            model = self.model
            ordered = self._ordered(model.actions(state))
            if len(ordered) > 1 and not (ordered[0] == STOP and model.stop_is_optimal(state)):
                todo = ordered
            else:
                todo = ordered[:1]
            value = None
            if len(todo) == 1:
                best = todo[0]
                todo = ()
            for action in todo:
                q = self._q(state, action)
                if best is None or self._greater(q, value):
                    best, value = action, q
            assert best is not None
            self._best[state] = best
        return best

    def policy(self) -> Policy:
        """The optimal policy as a callable ``state -> action``."""
        return self.best_action

    def threshold_policy(self, threshold: Number) -> ThresholdPolicy:
        """Stop once the turn total reaches ``threshold`` (where stopping is legal); draw
        otherwise; any other choice (an ace's value, say) is made optimally."""
        return ThresholdPolicy(self, threshold)

    def _check_action(self, state: S, action: str) -> None:
        if action not in self.model.actions(state):
            raise PositionError(f"action {action!r} is not legal here")

    def _chain_expect(self, root: S, memo: dict[S, Any],
                      step: Callable[[S], tuple[Any, Any]]) -> Any:
        """A memoised expectation over a chain, evaluated with an explicit stack.

        ``step(state)`` returns ``(value, None)`` for a state whose value is known at once, or
        ``(None, pairs)``: the state's value is the weighted mean of its successors' values.
        """
        stack: list[S] = [root]
        waiting: dict[S, Any] = {}
        zero = self._zero
        while stack:
            state = stack[-1]
            if state in memo:
                stack.pop()
                continue
            pairs = waiting.pop(state, None)
            if pairs is None:
                known, pairs = step(state)
                if pairs is None:
                    memo[state] = known
                    stack.pop()
                    continue
                depth = len(stack)
                for _, nxt in pairs:
                    if nxt not in memo:
                        stack.append(nxt)
                if len(stack) > depth:
                    waiting[state] = pairs
                    continue
            stack.pop()
            total_weight = 0
            acc = zero
            for weight, nxt in pairs:
                total_weight += weight
                acc += weight * memo[nxt]
            if total_weight <= 0:
                raise PositionError("a chance node with no outcomes")
            memo[state] = acc / total_weight
        return memo[root]

    # ---- one more draw --------------------------------------------------------------------
    def _bust_step(self, state: S) -> tuple[Any, Any]:
        model = self.model
        actions = model.actions(state)
        if not actions:
            return self._num(1 if model.is_bust(state) else 0), None
        if model.is_forced(state) and DRAW in actions:
            return None, model.transitions(state, DRAW)
        if STOP in actions or DRAW in actions:
            return self._num(0), None
        same = self._same_bust(state, actions)
        if same is not None:
            return same, None
        return None, model.transitions(state, self._cheap_choice(state, actions))

    def _same_bust(self, state: S, actions: tuple[str, ...]) -> Any:
        """The bust chance at a choice state when every action ends the draw at once (each
        outcome a terminal or a draw/stop decision) with the same bust chance, so the choice
        does not matter for it; else ``None``."""
        model = self.model
        found = None
        for action in actions:
            total_weight, busts = 0, 0
            for weight, nxt in model.transitions(state, action):
                nxt_actions = model.actions(nxt)
                if not nxt_actions:
                    busts += weight if model.is_bust(nxt) else 0
                elif model.is_forced(nxt) or not (STOP in nxt_actions or DRAW in nxt_actions):
                    return None
                total_weight += weight
            if total_weight <= 0:
                return None
            chance = Fraction(busts, total_weight)
            if found is not None and chance != found:
                return None
            found = chance
        return None if found is None else self._num(found)

    def _lower_bound(self, state: S) -> Any:
        """A lower bound on ``V(state)`` known without solving (``None``: none known): the
        payoff of a terminal, the solved value, or what stopping banks where it is legal."""
        cached = self._values.get(state)
        if cached is not None:
            return cached
        model = self.model
        actions = model.actions(state)
        if not actions:
            return self._num(model.payoff(state))
        if STOP in actions:
            return self._q(state, STOP)
        return None

    def _cheap_choice(self, state: S, actions: tuple[str, ...]) -> str:
        """The optimal action at a choice state (no draw, no stop), without solving the turn
        when one action provably wins: its outcomes' lower bounds beat every other action's
        outcomes, all terminal (their exact value).  Else the solved best action.  This keeps
        the next draw's outcomes and bust chance cheap (a queen or jack choice after a draw)."""
        known = self._best.get(state)
        if known is not None:
            return known
        model = self.model
        low: dict[str, Any] = {}
        exact: dict[str, Any] = {}
        for action in actions:
            pairs = model.transitions(state, action)
            bounds = [self._lower_bound(nxt) for _, nxt in pairs]
            if all(b is not None for b in bounds):
                total = sum(w for w, _ in pairs)
                low[action] = sum((w * b for (w, _), b in zip(pairs, bounds, strict=True)),
                                  self._zero) / total
                if all(not model.actions(nxt) for _, nxt in pairs):
                    exact[action] = low[action]
        for action, bound in low.items():
            others = [a for a in actions if a != action]
            if all(a in exact and self._greater(bound, exact[a]) for a in others):
                return action
        return self._best_of(state)

    def _follow_bust(self, state: S) -> Any:
        """P(bust) when continuing only through forced draws and non-draw/stop choices."""
        cached = self._bust.get(state)
        if cached is not None:
            return cached
        return self._chain_expect(state, self._bust, self._bust_step)

    def _stop_asap_step(self, state: S) -> tuple[Any, Any]:
        model = self.model
        actions = model.actions(state)
        if not actions:
            return self._num(model.payoff(state)), None
        if STOP in actions:
            return self._q(state, STOP), None
        if DRAW in actions:
            return None, model.transitions(state, DRAW)
        return None, model.transitions(state, self._best_of(state))

    def _stop_asap(self, state: S) -> Any:
        """Value of stopping at the first state where stopping is legal."""
        cached = self._draw_once.get(state)
        if cached is not None:
            return cached
        return self._chain_expect(state, self._draw_once, self._stop_asap_step)

    def p_bust_next(self, state: S | None = None) -> Number | None:
        state = self.model.start if state is None else state
        if DRAW not in self.model.actions(state):
            return None
        return self._out(self._expect(self.model.transitions(state, DRAW), self._follow_bust))

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
            busted = self._follow_bust(nxt) == 1
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

        value = self._value(state)
        if len(actions) == 1:  # its value is that action's (it may come from a start table)
            action_values = {actions[0]: self._out(value)}
        else:
            action_values = {a: self._out(self._q(state, a)) for a in actions}
        draw_once = None
        if DRAW in actions:
            draw_once = self._out(self._expect(model.transitions(state, DRAW), self._stop_asap))
        return PositionAnalysis(
            p_bust_next=self.p_bust_next(state),
            ev_stop=action_values.get(STOP),
            ev_draw_once=draw_once,
            ev_optimal=self._out(value),
            best_action=self._best_of(state),
            action_values=action_values,
            turn_total=self._out(self._num(model.turn_total(state))),
        )

    # ---- distributions --------------------------------------------------------------------
    def distribution(self, state: S | None = None, policy: Policy | None = None, *,
                     max_states: int | None = None,
                     outcome: Callable[[S, S, str], Hashable] | None = None
                     ) -> dict[Any, Number]:
        """The distribution of this turn's result (``payoff``) from ``state`` under ``policy``
        (default: optimal), as ``{result: probability}`` sorted by result.  With ``max_states``
        a :class:`PositionError` is raised once more states than that are reachable (a caller
        with a time budget, such as a live chart, can then skip it).

        With ``outcome``, each way of ending the turn is labelled ``outcome(last decision
        state, terminal state, last action)`` instead of by its payoff (a solo game's turn
        outcome may hold more than the payoff: the allies kept, say); the result is then
        ``{label: probability}`` in the order first reached."""
        state = self.model.start if state is None else state
        if policy is None and state in self._open:  # the whole turn from here, in one solve
            self._solve_open(state)  # (refused up front like the check below)
        elif max_states is not None and policy is None:
            # over the solver's budget (its value from a start table): the optimal policy
            # would need the whole turn solved
            refusal = self._over_budget(state)[1]
            if refusal is not None:
                raise refusal
        if outcome is None:
            on_arrays = self._level_distribution(state, policy, max_states)
            if on_arrays is not None:
                return on_arrays
        choose = policy or self.best_action
        model = self.model
        graph = policy_graph(model, state, choose, max_states=max_states)
        if outcome is not None:
            return self._labelled_distribution(graph, state, outcome)
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

    def _level_distribution(self, state: S, policy: Policy | None, max_states: int | None
                            ) -> dict[Any, Number] | None:
        """:meth:`distribution` pushed forward on the model's level graph
        (:func:`.levels.level_distribution`): the optimal policy from a state a level table
        holds, or a threshold policy; ``None`` where the arrays do not apply (exact mode, no
        graph, a small turn the recursion solved, another policy).  A budget given is the
        array path's own (:func:`.levels.graph_budget`), as for a solve."""
        graph = self._graph
        if self.exact or graph is None or not (policy is None
                                               or isinstance(policy, ThresholdPolicy)):
            return None
        code = graph.code(state)
        if code is None or (policy is not None and not hasattr(graph, "turn_total")):
            return None
        from pushluck_teach.solve import levels as level_solver

        table = None
        if policy is None:
            estimate = speedups.estimated_states(self.model, state)
            if self._settled(state) or not self._level_path(estimate):
                return None
            self.value(state)
            table = self._level_table_holding(code)
            if table is None:
                return None
        limit = None if max_states is None else max(max_states,
                                                    level_solver.graph_budget(graph))
        try:
            return level_solver.level_distribution(
                graph, code, table=table,
                stop_at=None if policy is None else policy.threshold, max_states=limit,
                too_many=lambda: TooManyStates(
                    f"more than {limit} states are reachable from here"),
                checkpoint=_checkpoint)
        except level_solver.NotOnArrays:
            return None

    def distributions_on_arrays(self, state: S) -> bool:
        """Whether :meth:`distribution` from ``state`` (optimal play, or a threshold policy)
        is pushed forward on arrays: seconds where a walk of the same turn takes minutes, so a
        live chart may ask about larger turns."""
        graph = self._graph
        return (not self.exact and graph is not None and hasattr(graph, "turn_total")
                and not self._settled(state) and graph.code(state) is not None
                and self._level_path(speedups.estimated_states(self.model, state)))

    def level_table(self, state: S) -> Any:
        """The level table (:class:`~.levels.LevelTable`) this solver solved ``state``'s turn
        into, or ``None`` (not solved level by level)."""
        code = None if self._graph is None else self._graph.code(state)
        return None if code is None else self._level_table_holding(code)

    def _level_table_holding(self, code: int) -> Any:
        """The level table of this solver that holds ``code`` (and so every state it leads
        to), or ``None``."""
        memo = self._values
        for table in reversed(getattr(memo, "tables", [])):
            if table.holds(self._graph, code):
                return table
        return None

    def capped_distributions(self, state: S | None, caps: Iterable[int], *,
                             graph: PolicyGraph | None = None) -> dict[int, dict[Any, Number]]:
        """For each cap ``c`` of ``caps``: :meth:`distribution` from ``state`` under the
        optimal policy changed to stop as soon as stopping is legal and the turn total is at
        least ``c``.

        Capping only turns a draw into a stop, so every capped policy reaches a subset of the
        optimal policy's states: the optimal policy's graph is walked once, each state's
        stopping outcomes are asked once, and each cap is one forward pass of probability mass
        over that graph in topological order (instead of a new walk of the turn per cap).
        ``graph``: that graph (:meth:`optimal_graph`), when the caller already has it."""
        state = self.model.start if state is None else state
        model = self.model
        graph = graph or self.optimal_graph(state)
        one = self._num(1)
        # the decision states in topological order, named by their place in it
        nodes = [node for node in graph.order if node in graph.moves]
        index = {node: k for k, node in enumerate(nodes)}

        def edges(pairs: tuple[tuple[int, S], ...]) -> tuple[tuple[Any, int, Any], ...]:
            """``(share, place of the next decision state or -1, payoff when the turn
            ends)``."""
            total = sum(w for w, _ in pairs)
            return tuple((one * w / total, index[nxt], None) if model.actions(nxt) else
                         (one * w / total, -1, self._num(model.payoff(nxt)))
                         for w, nxt in pairs)

        # per decision state: its turn total where stopping is legal and the optimal policy
        # draws (None where a cap changes nothing), the stop's and the policy's outcomes
        plan: list[tuple[Any, tuple[Any, ...], tuple[Any, ...]]] = []
        for node in nodes:
            action, pairs = graph.moves[node]
            cappable = action != STOP and STOP in model.actions(node)
            plan.append(((model.turn_total(node) if cappable else None),
                         edges(tuple(model.transitions(node, STOP))) if cappable else (),
                         edges(pairs)))
        # a cap above every cappable total changes nothing: the optimal policy's distribution
        highest = max((t for t, _, _ in plan if t is not None), default=None)
        computed: dict[Any, dict[Any, Number]] = {}
        result: dict[int, dict[Any, Number]] = {}
        for cap in caps:
            key = cap if highest is not None and cap <= highest else None
            if key not in computed:
                computed[key] = (self._capped_pass(plan, key, one) if nodes else
                                 {self._out(self._num(model.payoff(state))): self._out(one)})
            result[cap] = computed[key]
        return result

    def optimal_graph(self, state: S | None = None) -> PolicyGraph:
        """The states optimal play reaches from ``state``, with its moves
        (:func:`policy_graph`): one walk a caller can hand to several computations."""
        return policy_graph(self.model, self.model.start if state is None else state,
                            self.best_action)

    def _capped_pass(self, plan: list[tuple[Any, tuple[Any, ...], tuple[Any, ...]]],
                     cap: Any, one: Any) -> dict[Any, Number]:
        """One forward pass of :meth:`capped_distributions` (``cap`` None: no cap) from the
        first decision state of ``plan`` (its states in topological order), skipping the states
        no probability reaches."""
        ends: dict[Any, Any] = {}
        mass: list[Any] = [None] * len(plan)
        mass[0] = one
        zero = 0 * one
        for place, p in enumerate(mass):
            if p is None:
                continue
            stop_total, stop_edges, draw_edges = plan[place]
            capped = cap is not None and stop_total is not None and stop_total >= cap
            for share, nxt, payoff in (stop_edges if capped else draw_edges):
                if nxt < 0:
                    ends[payoff] = ends.get(payoff, zero) + p * share
                elif mass[nxt] is None:
                    mass[nxt] = p * share
                else:
                    mass[nxt] += p * share
        return {self._out(k): self._out(ends[k]) for k in sorted(ends)}

    def _labelled_distribution(self, graph: PolicyGraph, state: S,
                               outcome: Callable[[S, S, str], Hashable]) -> dict[Any, Number]:
        """:meth:`distribution` with labelled endings: one forward pass of probability mass in
        topological order, each ending's mass added to its label as it is reached."""
        model = self.model
        edges = graph.moves
        mass: dict[S, Any] = {state: self._num(1)}
        result: dict[Any, Any] = {}
        for node in graph.order:
            if node not in edges:
                continue
            p = mass.pop(node, None)
            if p is None:
                continue
            action, pairs = edges[node]
            total = sum(w for w, _ in pairs)
            for weight, nxt in pairs:
                share = p * weight / total
                if model.actions(nxt):
                    mass[nxt] = mass.get(nxt, self._num(0)) + share
                else:
                    key = outcome(node, nxt, action)
                    result[key] = result.get(key, self._num(0)) + share
        return {key: self._out(value) for key, value in result.items()}

    def solved_values(self) -> Mapping[S, Any]:
        """The memo, state -> value of optimal play (read it, don't change it): what a shipped
        table of this model holds once the start is solved."""
        return self._values

    def stop_asap_value(self, state: S) -> Number:
        """The value of stopping at the first state from ``state`` on where stopping is allowed
        (exact and quick: no search over policies)."""
        return self._out(self._stop_asap(state))

    def then_stop_asap_value(self, state: S, action: str) -> Number:
        """The value of ``action`` at ``state``, then stopping as soon as allowed."""
        return self._out(self._expect(self.model.transitions(state, action), self._stop_asap))

    def states_solved(self) -> int:
        """States in the memo (those seeded from a shipped table included)."""
        return len(self._values)

    def states_seeded(self) -> int:
        """States whose values came from a shipped table (:mod:`.turn_tables`) when this
        solver started: the table and what other solvers of the same state space added."""
        return self._seeded


@dataclass(frozen=True)
class ThresholdPolicy:
    """Stop once the turn total reaches ``threshold`` (where stopping is legal); draw
    otherwise; any other choice is ``solver``'s best action.  A policy (state → action) that
    a solver also recognises, to push a distribution forward on arrays."""

    solver: TurnSolver[Any]
    threshold: Number

    def __call__(self, state: Any) -> str:
        model = self.solver.model
        actions = model.actions(state)
        if STOP in actions and model.turn_total(state) >= self.threshold:
            return STOP
        if DRAW in actions:
            return DRAW
        if STOP in actions:
            return STOP
        return self.solver.best_action(state)


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
        if not len(seen) & _CHECK_EVERY:  # a newer click may cancel a long walk
            _checkpoint(len(seen))
        stack.append((node, True))
        if model.actions(node):
            action = choose(node)
            if action not in model.actions(node):
                raise PositionError(f"the policy chose {action!r}, which is not legal here")
            pairs = tuple(model.transitions(node, action))
            moves[node] = (action, pairs)
            stack.extend((nxt, False) for _, nxt in pairs if nxt not in seen)
    return PolicyGraph(tuple(reversed(post)), moves)


# Solvers shared by bots and live charts, bounded by the bytes their memos hold
# (:class:`~pushluck_teach.solve.cache.MemorySolverCache`: a kernel that plays every
# game stays small).
_SHARED = MemorySolverCache(TurnSolver)


def cached_solver(model: TurnModel[Any], exact: bool = False) -> TurnSolver[Any]:
    """One memoised solver per (model, mode), shared by bots and live charts: models are
    hashable value objects, so a turn asked about again is answered from memory.  The cache
    keeps the most recently used solvers while their memos hold at most
    :data:`~pushluck_teach.solve.cache.DEFAULT_MAX_BYTES` bytes together."""
    return _SHARED.get(model, exact)


def clear_solver_cache() -> None:
    """Forget every shared solver (tests and benchmarks that need a cold solver)."""
    _SHARED.clear()


def expectation(distribution: Mapping[Number, Number]) -> Number:
    """The mean of a ``{value: probability}`` distribution."""
    return sum((v * p for v, p in distribution.items()), type(next(iter(distribution.values())))(0))
