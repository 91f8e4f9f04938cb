r"""Solving a turn level by level with NumPy arrays: the Bellman recursion of
:mod:`.turn`, evaluated on whole levels of states at once instead of one Python call per state.

The protocol.  A model opts in by defining ``level_graph()``
(:class:`~pushluck_teach.solve.speedups.OffersLevelGraph`), which returns ``None`` (also
whenever NumPy is missing: the pure-Python recursion stays complete) or a *level graph*:

* ``actions``: every action name in **tie order**: ``stop`` first (if the model has it), then an
  order consistent with every state's ``model.actions(state)``; the legal actions of a state,
  taken in this order, are the order :class:`~.turn.TurnSolver` compares them in;
* ``code(state)``: the state's ``int64`` code (``None``: not in this graph);
* ``level(codes)``: a non-negative integer per decision code that strictly grows along every
  transition to a non-terminal state (Captain Seven: twice the cards out, plus one unless the
  state is a queen choice); it must also accept a plain ``int`` (the memo's look-ups; on a
  terminal code it may return anything but must not fail);
* ``is_terminal(codes)``, ``payoff(codes)`` (terminal codes, ``float64``);
* ``stop_value(codes)``: what stopping banks where ``stop`` is legal, NaN elsewhere;
* ``stop_is_optimal(codes)``: the model's proved stopping rule (read where ``stop`` is legal);
* optionally ``turn_total(codes)``: the model's ``turn_total`` where ``stop`` is legal (read only
  there): a threshold policy's distribution is then pushed forward on arrays
  (:func:`level_distribution`);
* ``transitions(codes, action)`` for every other action: ``(legal[n], weights[n, K],
  successors[n, K])``; where legal, the slots of positive weight read left to right are exactly
  ``model.transitions(state, action)`` (slots of weight 0 are padding);
* optionally ``max_states``: the graph's own budget in stored states, in place of
  :data:`LEVEL_MAX_STATES` (a graph whose states are cheap in time and memory, or whose
  positions a page must answer, may take more);
* optionally *inline* states, valued where they occur as successors, like proved stops, and
  never stored (a root is always stored; a :class:`LevelMemo` values one from its tables):
  ``inline(codes)``, their ``bool`` mask; ``inline_successors(codes)``, every code their values
  read (the solve stores those that are not turn ends, proved stops or inline); and
  ``inline_values(codes, context)``, their values as the recursion's best action in tie order
  gives them, read through an :class:`InlineContext` (values of codes, chance means, the tie
  rule).  It suits the small choices right after a draw, whose value is the best of a few
  others' (Captain Seven's queen and jack choices: most of a relic turn's states).

All arrays are NumPy ``int64`` (``bool``/``float64`` where said).  A successor where stopping
is legal and provably optimal is valued at its stop value at once (as the recursion does) and
never stored, so ``stop_is_optimal`` should be exact and cheap.

The algorithm.  *Forward*: from the root's level, pop the lowest pending level, deduplicate its
codes (one sort; codes arrive as nearly sorted runs, one per outcome slot, so a stable sort is a
merge), expand it (every legal action except at proved stops) and file the non-terminal
successors under their levels (an inline successor's successors in its place).  Terminals
are never stored: they are valued by ``payoff``.
*Backward*: from the highest level down, expand the level again (recomputing is cheaper in memory
than keeping ``n·K`` successors), look the successors' values up (``searchsorted`` in their
level's sorted codes; an inline successor is valued there by the graph from codes of higher
levels), and take the best action in tie order:

.. math::

    Q(s, a) = \Big(\sum_k w_k\,V(s'_k)\Big) \Big/ \sum_k w_k, \qquad
    V(s) = Q(s, a^*),

the sum taken slot by slot from ``0.0`` (the recursion's order, so the floats are bit for bit the
recursion's when the slots follow ``model.transitions``), ``a*`` the first action in tie order
whose ``Q`` no later action beats by more than ``1e-12`` relative (the solver's tie rule; a state
where stopping is legal and provably optimal only stops).  Between levels the thread's checkpoint
(:func:`.turn.watching`) is called, so a newer click cancels a stale solve; nothing is stored
until the whole solve is done.

The result, a :class:`LevelTable` (per level: sorted codes, values, best action indices: 17 bytes
a state), seeds the solver's float memo through :class:`LevelMemo`, a mapping that looks a state
up by its level and a binary search and keeps the recursion's own writes in a dict (a dict of
the same states would cost 100-200 bytes each and seconds to build: measured).
Exact mode never uses this module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from pushluck_teach.games.base import DRAW, STOP, PositionError, TurnModel
from pushluck_teach.solve.speedups import offered_level_graph

# The budget of a float solve on the array path, in stored states (17 bytes each once solved,
# a few times that at the peak of a level): a position whose model estimates more is refused up
# front, a solve that stores more is stopped there (about 3-5 s of CPU and 350 MB at most on the
# 2-core machine).  Captain Seven's queen relic from the turn start (2.06 million stored, its
# queen choices inline) fits; its jack relic from the turn start (12.4 million stored, more
# than 60 million without inline choices) does not: its value ships (``solve.turn_tables``).
LEVEL_MAX_STATES = 5_000_000
# About what a level solve holds at its peak per state it stores (the table's 17 bytes, the
# codes of the forward pass and a chunk's outcome arrays; Captain Seven's relic turns: 25-40
# bytes): the shared cache makes that much room before the solve.
LEVEL_PEAK_BYTES_PER_STATE = 32
# About what one stored state costs on the array path (CPU, 2-core machine: 1-1.5 µs without a
# jack, about 5 µs with an unspent jack); only words estimates in refusals.
LEVEL_SECONDS_PER_STATE = 3e-6
# Below this estimate the recursion is faster than NumPy's fixed cost per level.
LEVEL_MIN_STATES = 20_000
# States expanded at once: bounds the memory of a wide level's outcome arrays (Incan Gold's
# group positions hold about 2.5 times the peak at 1 << 16) and how long a cancelled solve runs
# on.  At 1 << 12 a level's arrays stay in the CPU's caches, so it is also the fastest size:
# larger and smaller chunks are both slower (benchmarks/bench_worst_positions.py).
CHUNK = 1 << 12
_TIE = 1e-12


def graph_budget(graph: Any) -> int:
    """The budget of a level solve of ``graph``: its own ``max_states`` or
    :data:`LEVEL_MAX_STATES`."""
    return int(getattr(graph, "max_states", LEVEL_MAX_STATES))


def level_graph(model: TurnModel[Any]) -> Any:
    """The model's level graph, or ``None`` (none offered, or NumPy missing)."""
    try:
        import numpy  # noqa: F401 - only whether it imports
    except ImportError:  # pragma: no cover - the in-browser build may lack NumPy
        return None
    return offered_level_graph(model)


@dataclass(frozen=True)
class LevelTable:
    """A solved level graph: per level, the sorted codes, their values and the index (in
    ``actions``) of the best action."""

    actions: tuple[str, ...]
    levels: dict[int, tuple[Any, Any, Any]]

    @property
    def size(self) -> int:
        return sum(len(codes) for codes, _, _ in self.levels.values())

    def holds(self, graph: Any, code: int) -> bool:
        """Whether ``code`` is one of this table's states."""
        import numpy as np

        codes = np.array([code], dtype=np.int64)
        return bool(_in_levels(graph, codes, self.levels, 1, np.float64, np.nan)[1][0])

    def answers(self, graph: Any, codes: Any) -> tuple[Any, Any]:
        """``(values, best action indices)`` of many decision codes at once, as the solve that
        made this table answers them: a stored code from the table, any other (a proved stop,
        an inline choice) from the stored codes it reads, by the solve's own rules.  Every
        code must be one the solve reached."""
        import numpy as np

        codes = np.asarray(codes, dtype=np.int64)
        values, found = _in_levels(graph, codes, self.levels, 1, np.float64, np.nan)
        best, _ = _in_levels(graph, codes, self.levels, 2, np.int8, -1)
        if not found.all():
            solved = {level: (known, known_values)
                      for level, (known, known_values, _) in self.levels.items()}
            rest = codes[~found]
            values[~found] = _values_of(graph, rest, lambda part: _looked_up(graph, part, solved),
                                        lambda part: _stored(graph, part, solved))
            best[~found] = _best(graph, rest, solved)[1]
        return values, best


def _unique(parts: list[Any]) -> Any:
    """The sorted distinct codes of ``parts`` (nearly sorted runs: a stable sort merges them)."""
    import numpy as np

    codes = np.concatenate(parts) if len(parts) > 1 else parts[0]
    codes = np.sort(codes, kind="stable")
    if len(codes) < 2:
        return codes
    keep = np.empty(len(codes), dtype=bool)
    keep[0] = True
    np.not_equal(codes[1:], codes[:-1], out=keep[1:])
    return codes[keep]


def _expanded(graph: Any, codes: Any) -> tuple[Any, Any, Any]:
    """``(stop values, stop legal, expand)``: a state is expanded unless stopping is legal and
    provably optimal there."""
    import numpy as np

    stop = graph.stop_value(codes)
    legal = ~np.isnan(stop)
    expand = ~(legal & graph.stop_is_optimal(codes))
    return stop, legal, expand


def _by_level(at: Any) -> Iterator[tuple[int, Any]]:
    """``(level, mask)`` for every level in ``at`` (levels span a few values: one pass each)."""
    low, high = int(at.min()), int(at.max())
    if low == high:
        yield low, slice(None)
        return
    for target in range(low, high + 1):
        mask = at == target
        if mask.any():
            yield target, mask


def _proved_stops(graph: Any, codes: Any) -> tuple[Any, Any]:
    """``(mask, stop values)``: the decision codes where stopping is legal and provably
    optimal.  Such a successor is valued at once, like a terminal, and never stored."""
    import numpy as np

    stop = graph.stop_value(codes)
    legal = ~np.isnan(stop)
    return legal & graph.stop_is_optimal(codes), stop


def inline_mask(graph: Any, codes: Any) -> Any:
    """The codes the graph values on the fly (``graph.inline``; ``None``: the graph has none)."""
    inline = getattr(graph, "inline", None)
    return None if inline is None else inline(codes)


def is_inline(graph: Any, code: int) -> bool:
    """Whether the decision code ``code`` is one the graph values on the fly."""
    import numpy as np

    mask = inline_mask(graph, np.array([code], dtype=np.int64))
    return mask is not None and bool(mask[0])


def _stored_successors(graph: Any, codes: Any) -> Any:
    """The distinct successors of ``codes`` (all legal actions) that a solve stores
    (:func:`_to_store`)."""
    import numpy as np

    found = []
    for action in graph.actions:
        if action == STOP:
            continue
        legal, weights, successors = graph.transitions(codes, action)
        if not legal.any():
            continue
        # Slot by slot: each outcome slot is a nearly sorted run of codes.
        keep = (weights > 0) & legal[:, None]
        column = successors.T[keep.T]
        column = column[~graph.is_terminal(column)]
        if len(column):
            found.append(column)
    if not found:
        return np.empty(0, dtype=np.int64)
    return _to_store(graph, _unique(found))


def _to_store(graph: Any, codes: Any) -> Any:
    """The distinct codes a solve stores among ``codes`` (sorted, distinct, none terminal):
    not proved stops, and not inline (an inline code's ``inline_successors`` instead)."""
    codes = codes[~_proved_stops(graph, codes)[0]]
    inline = inline_mask(graph, codes)
    if inline is None or not inline.any():
        return codes
    behind = graph.inline_successors(codes[inline])
    behind = _unique([behind[~graph.is_terminal(behind)]])
    return _unique([codes[~inline], _to_store(graph, behind)])


def _successor_codes(graph: Any, codes: Any) -> Iterator[tuple[int, Any]]:
    """The stored successors of ``codes`` (:func:`_stored_successors`), by level."""
    successors = _stored_successors(graph, codes)
    if not len(successors):
        return
    at = graph.level(successors)
    for target, mask in _by_level(at):
        yield target, successors[mask]


def _forward(graph: Any, root: int, max_states: int | None,
             too_many: Callable[[], Exception], checkpoint: Callable[[int], None]
             ) -> list[tuple[int, Any]]:
    import numpy as np

    pending: dict[int, list[Any]] = {int(graph.level(root)): [np.array([root], dtype=np.int64)]}
    levels: list[tuple[int, Any]] = []
    count = 0
    while pending:
        level = min(pending)
        codes = _unique(pending.pop(level))
        levels.append((level, codes))
        count += len(codes)
        if max_states is not None and count > max_states:
            raise too_many()
        checkpoint(count)
        _, _, expand = _expanded(graph, codes)
        inner = codes[expand]
        for start in range(0, len(inner), CHUNK):
            if start:
                checkpoint(count)
            for target, found in _successor_codes(graph, inner[start:start + CHUNK]):
                parts = pending.setdefault(target, [])
                parts.append(found)
                if len(parts) > 8:  # bound the memory of a level still filling
                    pending[target] = [_unique(parts)]
    return levels


class InlineContext:
    """What a graph's ``inline_values`` may use while it values inline codes: the value of any
    successor code (a turn's end, a proved stop or a stored state), ``lookup`` for codes known
    to be stored (neither turn ends, proved stops nor inline), a chance node's mean, and the
    solver's tie rule."""

    def __init__(self, graph: Any, lookup: Callable[[Any], Any],
                 stored: Callable[[Any], tuple[Any, Any]] | None = None) -> None:
        self.graph = graph
        self.lookup = lookup
        self.stored = stored

    def value_of(self, codes: Any) -> Any:
        """``V`` of each code (``int64`` array)."""
        return _values_of(self.graph, codes, self.lookup, self.stored)

    def expect(self, weights: Any, successors: Any) -> Any:
        """``Q`` of a chance node per row: ``(n, K)`` weights and successors, as
        ``transitions`` gives them (slot by slot from 0.0, as the recursion adds)."""
        return _mean(weights, _successor_values(self.graph, weights, successors, self.lookup,
                                                self.stored))

    @staticmethod
    def better(q: Any, value: Any) -> Any:
        """Where ``q``, an action later in tie order, beats ``value`` (the solver's rule)."""
        import numpy as np

        return q > value + _TIE * np.maximum(np.maximum(1.0, np.abs(q)), np.abs(value))


def _values_of(graph: Any, codes: Any, lookup: Callable[[Any], Any],
               stored: Callable[[Any], tuple[Any, Any]] | None = None) -> Any:
    """``V`` of successor codes: turn ends by ``payoff``, proved stops by their stop value,
    inline codes by ``graph.inline_values``, the rest by ``lookup`` (stored states).
    ``stored(codes)``, where given, is ``(values, found)`` of the codes a solve stored: those
    are looked up first, and only the others are tested for proved stops and inline (a solve
    stores exactly the codes that are neither, so the values are the same, and most successors
    skip the graph's stopping rule)."""
    import numpy as np

    found = np.empty(len(codes), dtype=np.float64)
    terminal = graph.is_terminal(codes)
    inner = np.flatnonzero(~terminal)  # where ``codes`` (below: the codes left) are written
    if len(inner) < len(found):
        found[terminal] = graph.payoff(codes[terminal])
        codes = codes[inner]
    if len(codes) and stored is not None:
        values, known = stored(codes)
        if known.any():
            found[inner[known]] = values[known]
            inner, codes = inner[~known], codes[~known]
    if len(codes):
        leaf, stop = _proved_stops(graph, codes)
        inner_found = np.empty(len(codes), dtype=np.float64)
        inner_found[leaf] = stop[leaf]
        rest = ~leaf
        inline = inline_mask(graph, codes)
        if inline is not None and inline.any():
            inline &= rest
            rest &= ~inline
            inner_found[inline] = graph.inline_values(codes[inline],
                                                      InlineContext(graph, lookup, stored))
        if rest.any():
            inner_found[rest] = lookup(codes[rest])
        found[inner] = inner_found
    return found


def _successor_values(graph: Any, weights: Any, successors: Any,
                      lookup: Callable[[Any], Any],
                      stored: Callable[[Any], tuple[Any, Any]] | None = None) -> Any:
    """``V`` of every slot of positive weight (0.0 in padding slots), slot-major: ``(K, n)``
    (each slot's successors of sorted states are a nearly sorted run: cache-friendly look-ups).
    """
    import numpy as np

    successors = successors.T
    used = weights.T > 0
    values = np.zeros(successors.shape, dtype=np.float64)
    values[used] = _values_of(graph, successors[used], lookup, stored)
    return values


def _stored(graph: Any, codes: Any, solved: dict[int, tuple[Any, Any]]) -> tuple[Any, Any]:
    """``(values, found)``: the solved values of the codes held in ``solved`` (each looked up
    in its level's sorted codes; a level not solved holds none of them)."""
    import numpy as np

    return _in_levels(graph, codes, solved, 1, np.float64, 0.0)


def _in_levels(graph: Any, codes: Any, levels: dict[int, tuple[Any, ...]], column: int,
               dtype: Any, missing: Any) -> tuple[Any, Any]:
    """``(column of each code, found)``: each code looked up in its level's sorted codes
    (``levels[level][0]``), the entry read from ``levels[level][column]`` (``missing`` where
    the code is not there)."""
    import numpy as np

    out = np.full(len(codes), missing, dtype=dtype)
    found = np.zeros(len(codes), dtype=bool)
    if len(codes):
        at = graph.level(codes)
        for target, mask in _by_level(at):
            known = levels.get(target)
            if known is None:
                continue
            known_codes = known[0]
            part = codes[mask]
            index = np.minimum(np.searchsorted(known_codes, part), len(known_codes) - 1)
            hit = known_codes[index] == part
            out[mask] = np.where(hit, known[column][index], missing)
            found[mask] = hit
    return out, found


def _looked_up(graph: Any, codes: Any, solved: dict[int, tuple[Any, Any]]) -> Any:
    """The solved values of decision codes (each in its level's sorted codes)."""
    import numpy as np

    if len(codes):
        at = graph.level(codes)
        inner_found = np.empty(len(codes), dtype=np.float64)
        for target, mask in _by_level(at):
            known, known_values = solved[target]
            part = codes[mask]
            inner_found[mask] = known_values[np.searchsorted(known, part)]
        return inner_found
    return np.empty(0, dtype=np.float64)


def _mean(weights: Any, values: Any) -> Any:
    """Slot by slot from 0.0, as the recursion adds ``weight * value``; then one division
    (``values`` slot-major, ``(K, n)``)."""
    import numpy as np

    weights = weights.T
    acc = np.zeros(weights.shape[1], dtype=np.float64)
    for k in range(weights.shape[0]):
        acc += weights[k] * values[k]
    total = weights.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return acc / total


def _best(graph: Any, codes: Any, solved: dict[int, tuple[Any, Any]]) -> tuple[Any, Any]:
    """``(V, index of the best action)`` of ``codes``, their successors solved."""
    import numpy as np

    n = len(codes)
    stop, stop_legal, expand = _expanded(graph, codes)
    inner = codes[expand]
    value = np.zeros(n, dtype=np.float64)
    best = np.full(n, -1, dtype=np.int8)
    for index, action in enumerate(graph.actions):
        if action == STOP:
            legal, q = stop_legal, stop
        else:
            if not len(inner):
                continue
            legal_inner, weights, successors = graph.transitions(inner, action)
            if not legal_inner.any():
                continue
            weights = np.where(legal_inner[:, None], weights, 0)  # ignore illegal rows
            legal = np.zeros(n, dtype=bool)
            legal[expand] = legal_inner
            q = np.zeros(n, dtype=np.float64)
            q[expand] = _mean(weights, _successor_values(
                graph, weights, successors, lambda codes: _looked_up(graph, codes, solved),
                lambda codes: _stored(graph, codes, solved)))
        unset = best < 0
        with np.errstate(invalid="ignore"):
            better = q > value + _TIE * np.maximum(np.maximum(1.0, np.abs(q)), np.abs(value))
        take = legal & (unset | better)
        value[take] = q[take]
        best[take] = index
    if (best < 0).any():
        from pushluck_teach.games.base import PositionError

        raise PositionError("a decision state with no legal action")
    return value, best


def _backward(graph: Any, levels: list[tuple[int, Any]],
              checkpoint: Callable[[int], None]) -> LevelTable:
    import numpy as np

    solved: dict[int, tuple[Any, Any]] = {}
    table: dict[int, tuple[Any, Any, Any]] = {}
    count = 0
    for level, codes in reversed(levels):
        value = np.empty(len(codes), dtype=np.float64)
        best = np.empty(len(codes), dtype=np.int8)
        for start in range(0, len(codes), CHUNK):
            if start:
                checkpoint(count + start)
            part = slice(start, start + CHUNK)
            value[part], best[part] = _best(graph, codes[part], solved)
        solved[level] = (codes, value)
        table[level] = (codes, value, best)
        count += len(codes)
        checkpoint(count)
    return LevelTable(tuple(graph.actions), table)


def solve_levels(graph: Any, root: int, *, max_states: int | None = None,
                 too_many: Callable[[], Exception] | None = None,
                 checkpoint: Callable[[int], None] | None = None) -> LevelTable:
    """Every state reachable from ``root`` (a decision code) solved in float mode, level by
    level.  ``max_states``: stop with ``too_many()`` once more states are reached;
    ``checkpoint(states so far)`` is called between levels (it may raise to cancel): half
    the states found so far, then half of all found plus half of those solved backward."""

    def refuse() -> Exception:
        if too_many is not None:
            return too_many()
        from pushluck_teach.games.base import PositionError

        return PositionError(f"more than {max_states:,} states are reachable from here")

    check = checkpoint or (lambda _: None)
    # Progress as states solved, one half of a state's work in each pass, so it only grows
    # and ends at the number of states stored.
    levels = _forward(graph, root, max_states, refuse, lambda count: check(count // 2))
    found = sum(len(codes) for _, codes in levels)
    return _backward(graph, levels, lambda count: check((found + count) // 2))


class NotOnArrays(LookupError):
    """A distribution the arrays cannot give (a choice the policy leaves to values no table
    holds): the recursion's walk gives it."""


def _table_best(table: LevelTable, graph: Any, codes: Any) -> tuple[Any, Any]:
    """``(best action index, found)`` of decision codes in ``table``."""
    import numpy as np

    return _in_levels(graph, codes, table.levels, 2, np.int8, -1)


def level_distribution(graph: Any, root: int, *, table: LevelTable | None = None,
                       stop_at: float | None = None, max_states: int | None = None,
                       too_many: Callable[[], Exception] | None = None,
                       checkpoint: Callable[[int], None] | None = None) -> dict[float, float]:
    r"""The distribution of the turn's result (``payoff``) from ``root``, as
    ``{result: probability}`` sorted by result: probability mass pushed forward level by level.

    The policy: with ``stop_at``, stop where stopping is legal once the turn total
    (``graph.turn_total``) is at least ``stop_at``, else draw; without, the optimal policy of
    ``table`` (a level solve holding ``root``): its best action where it stores the code, stop
    at a proved stop, and the best action by the tie rule (:func:`_best`, from the table's
    values) at an inline code.  A level's mass :math:`m` reaches each outcome :math:`s'_k` of
    the action taken as :math:`m\,w_k/\sum_j w_j`; a stop or a turn's end files :math:`m`
    under its result.  The same distribution as the recursion's walk of the policy's graph
    (:meth:`.turn.TurnSolver.distribution`), up to the order of the float sums.
    ``max_states``: stop with ``too_many()`` once more decision codes are reached;
    ``checkpoint(codes so far)`` between levels and chunks.  :class:`NotOnArrays` where a
    threshold policy meets a choice other than draw or stop."""
    import numpy as np

    check = checkpoint or (lambda _: None)
    stop_index = graph.actions.index(STOP) if STOP in graph.actions else None
    solved = None if table is None else {
        level: (codes, values) for level, (codes, values, _) in table.levels.items()}
    pending: dict[int, list[tuple[Any, Any]]] = {
        int(graph.level(root)): [(np.array([root], dtype=np.int64), np.ones(1))]}
    results: list[tuple[Any, Any]] = []
    count = 0
    while pending:
        level = min(pending)
        codes, mass = _merged(pending.pop(level))
        count += len(codes)
        if max_states is not None and count > max_states:
            raise too_many() if too_many is not None else PositionError(
                f"more than {max_states:,} states are reachable from here")
        check(count)
        for start in range(0, len(codes), CHUNK * 16):
            if start:
                check(count)
            part = slice(start, start + CHUNK * 16)
            for found_codes, found_mass, result in _push(
                    graph, codes[part], mass[part], _choices(graph, codes[part], table, solved,
                                                             stop_at, stop_index)):
                if not len(found_codes):
                    continue
                if result:
                    results.append((found_codes, found_mass))
                    continue
                for target, mask in _by_level(graph.level(found_codes)):
                    parts = pending.setdefault(target, [])
                    parts.append((found_codes[mask], found_mass[mask]))
                    if len(parts) > 8:  # bound the memory of a level still filling
                        pending[target] = [_merged(parts)]
    if not results:
        return {}
    values, inverse = np.unique(np.concatenate([v for v, _ in results]), return_inverse=True)
    chance = np.bincount(inverse, weights=np.concatenate([m for _, m in results]))
    return {float(v): float(p) for v, p in zip(values.tolist(), chance.tolist(), strict=True)
            if p > 0}


def _merged(parts: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    """The distinct codes of ``parts`` (sorted) and the mass each holds in all of them (the
    codes arrive as nearly sorted runs: a stable sort merges them)."""
    import numpy as np

    codes = np.concatenate([c for c, _ in parts]) if len(parts) > 1 else parts[0][0]
    mass = np.concatenate([m for _, m in parts]) if len(parts) > 1 else parts[0][1]
    order = np.argsort(codes, kind="stable")
    codes, mass = codes[order], mass[order]
    if len(codes) < 2:
        return codes, mass
    first = np.empty(len(codes), dtype=bool)
    first[0] = True
    np.not_equal(codes[1:], codes[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return codes[starts], np.add.reduceat(mass, starts)


def _choices(graph: Any, codes: Any, table: LevelTable | None, solved: Any,
             stop_at: float | None, stop_index: int | None) -> Any:
    """The index (in ``graph.actions``) of the action the policy takes at each code."""
    import numpy as np

    _, stop_legal, expand = _expanded(graph, codes)
    if stop_at is not None:
        draw = graph.actions.index(DRAW)
        choice = np.full(len(codes), draw, dtype=np.int8)
        if stop_index is not None:
            choice[stop_legal & (graph.turn_total(codes) >= stop_at)] = stop_index
        return choice
    assert table is not None
    choice, found = _table_best(table, graph, codes)
    if stop_index is not None:
        choice[~expand] = stop_index  # a proved stop only stops
    rest = expand & ~found
    if rest.any():
        choice[rest] = _best(graph, codes[rest], solved)[1]
    return choice


def _push(graph: Any, codes: Any, mass: Any, choice: Any) -> Iterator[tuple[Any, Any, bool]]:
    """``(codes, mass, is a result)`` pushed one step from ``codes`` by their ``choice``:
    results (a stop's bank, a turn's end) keyed by their value, decisions by their code."""
    import numpy as np

    for index, action in enumerate(graph.actions):
        chosen = choice == index
        if not chosen.any():
            continue
        if action == STOP:
            yield graph.stop_value(codes[chosen]), mass[chosen], True
            continue
        from_codes, from_mass = codes[chosen], mass[chosen]
        legal, weights, successors = graph.transitions(from_codes, action)
        if not legal.all():
            # a threshold policy's draw where drawing is illegal: stop there if it may
            stop = graph.stop_value(from_codes[~legal])
            if np.isnan(stop).any():
                raise NotOnArrays(f"no {action!r} at a code the policy chose it for")
            yield stop, from_mass[~legal], True
            from_codes, from_mass = from_codes[legal], from_mass[legal]
            weights, successors = weights[legal], successors[legal]
        used = weights > 0
        share = (from_mass / weights.sum(axis=1))[:, None] * weights
        reached, reached_mass = successors[used], share[used]
        end = graph.is_terminal(reached)
        if end.any():
            yield graph.payoff(reached[end]), reached_mass[end], True
        yield reached[~end], reached_mass[~end], False


class _NotStored(LookupError):
    """A code an inline state needs is in no table."""


class OverlayMemo(MutableMapping[Any, Any]):
    """A float memo held in read-only arrays (:meth:`find_value`), with a dict (``base``) for
    every write, looked up first.  A found value is never ``None``, so ``get`` tells a miss."""

    base: Any

    def find_value(self, state: Any) -> float | None:
        """The arrays' value of ``state``, or ``None``."""
        raise NotImplementedError

    def get(self, state: Any, default: Any = None) -> Any:
        value = self.base.get(state)
        if value is not None:
            return value
        found = self.find_value(state)
        return default if found is None else found

    def __getitem__(self, state: Any) -> Any:
        value = self.get(state)
        if value is None:
            raise KeyError(state)
        return value

    def __contains__(self, state: object) -> bool:
        return self.get(state) is not None

    def __setitem__(self, state: Any, value: Any) -> None:
        self.base[state] = value

    def __delitem__(self, state: Any) -> None:
        del self.base[state]  # the arrays' states are read-only


class LevelMemo(OverlayMemo):
    """A float memo backed by solved level tables, with a dict for every other write.

    Look-up: the dict, then each table (level of the code, then a binary search).  Writes go
    to the dict (``base``: a shipped table stays shared).  ``best`` gives the recorded
    best actions of the tables (:class:`LevelBest`)."""

    def __init__(self, graph: Any, base: MutableMapping[Any, Any] | None = None) -> None:
        self.graph = graph
        self.base: Any = {} if base is None else base
        self.tables: list[LevelTable] = []
        self._table_states = 0

    def add(self, table: LevelTable) -> None:
        self.tables.append(table)
        self._table_states += table.size

    def find(self, state: Any) -> tuple[float, str] | None:
        """``(value, best action)`` of ``state`` in the tables, or ``None``."""
        if not self.tables:
            return None
        code = self.graph.code(state)
        return None if code is None else self._find_code(code)

    def _find_code(self, code: int) -> tuple[float, str] | None:
        """``(value, best action)`` of a code in the tables, or ``None``."""
        import numpy as np

        level = int(self.graph.level(code))
        for table in reversed(self.tables):
            found = table.levels.get(level)
            if found is None:
                continue
            codes, values, best = found
            i = int(np.searchsorted(codes, code))
            if i < len(codes) and int(codes[i]) == code:
                return float(values[i]), table.actions[int(best[i])]
        return None

    def find_value(self, state: Any) -> float | None:
        found = self.find(state)
        if found is not None:
            return found[0]
        if not self.tables:
            return None
        code = self.graph.code(state)
        if code is None or not is_inline(self.graph, code):
            return None
        # An inline state is valued from the tables, as a solve values it, if they hold what
        # it needs (a position the player reached inside a solved turn).
        import numpy as np

        try:
            return float(_values_of(self.graph, np.array([code], dtype=np.int64),
                                    self._stored_values)[0])
        except _NotStored:
            return None

    def _stored_values(self, codes: Any) -> Any:
        import numpy as np

        values = np.empty(len(codes), dtype=np.float64)
        for i, code in enumerate(codes.tolist()):
            found = self._find_code(code)
            if found is None:
                raise _NotStored
            values[i] = found[0]
        return values

    def __iter__(self) -> Iterator[Any]:
        """The dict's states only (the tables' codes are not model states in general)."""
        return iter(self.base)

    def __len__(self) -> int:
        """States held: the dict's and the tables' (a state in both counts twice)."""
        return len(self.base) + self._table_states


class LevelBest(MutableMapping[Any, str]):
    """Best actions: the solver's dict first, then the tables of a :class:`LevelMemo`."""

    def __init__(self, memo: LevelMemo, base: dict[Any, str]) -> None:
        self.memo = memo
        self.base = base

    def get(self, state: Any, default: Any = None) -> Any:
        best = self.base.get(state)
        if best is not None:
            return best
        found = self.memo.find(state)
        return default if found is None else found[1]

    def __getitem__(self, state: Any) -> str:
        best = self.get(state)
        if best is None:
            raise KeyError(state)
        return best

    def __setitem__(self, state: Any, best: str) -> None:
        self.base[state] = best

    def __delitem__(self, state: Any) -> None:
        del self.base[state]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)
