"""Shipped float solutions of whole turns: a turn asked about again and again — such
as Captain Seven's, which always starts from the full deck — is solved once, and its values are
shipped in ``pushluck_teach/data/`` so a cold solver answers at once.

A model opts in through ``shared_table_key()``
(:class:`~pushluck_teach.solve.speedups.ShipsTurnTable`): a string naming its state space and
the model's version (two models with the same key have the same states and values). The file is
found and checked by :mod:`.cache` (its key holds the table key, ``TABLE_VERSION`` and the
solver's tie tolerance, so a changed model or solver never reads a stale file); on loading, the
Bellman equation is checked again at the table's start state with the model's own transitions
(bit for bit), so a state encoding that changed without a version bump is caught too. Only float
values are shipped (exact fractions of a whole turn are far larger); exact mode always solves.

A family of turn starts too large to solve at a click (Captain Seven's jack relic: 12.4 million
stored states a start; its queen: 2.06 million, 3 s) ships the starts' values alone, with
the few states a start's analysis reads (:func:`opening_states`)
(:func:`.speedups.start_values_key`, one table per family of
:class:`~pushluck_teach.solve.speedups.ShipsStartValues`); on loading, a small
position of the family is solved again and must give its shipped value bit for bit.

Without NumPy (the in-browser build may lack it) nothing is loaded and the solver solves.
Build the tables with ``python -m pushluck_teach.solve.turn_tables`` (``--starts-only``: the
start-values tables alone; ``--only=KEY``: only the start-values table ``KEY``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from pushluck_teach.games.base import TurnModel
from pushluck_teach.solve import speedups
from pushluck_teach.solve.levels import OverlayMemo

TABLE_VERSION = 1


def _cache_key(model: TurnModel[Any], key: str) -> Any:
    from pushluck_teach.solve.cache import CacheKey
    from pushluck_teach.solve.turn import FLOAT_TIE

    return CacheKey(game=model.game, kind="turn-values", variant={"table": key},
                    params={"float_tie": FLOAT_TIE}, version=TABLE_VERSION)


class ShippedTable(OverlayMemo):
    """A shipped table's float values as two sorted arrays (16 bytes a state, against about
    110 for a dict entry of an int and a float: Captain Seven's 361,864 states hold 6 MB
    instead of 39 MB), with a dict (``base``) for the states solvers add.  Shared by every
    solver of its state space, like the dict it replaces; a look-up is a binary search."""

    def __init__(self, states: Any, values: Any) -> None:
        import numpy as np

        order = np.argsort(states, kind="stable")
        self.states = np.ascontiguousarray(states[order], dtype=np.int64)
        self.values = np.ascontiguousarray(values[order], dtype=np.float64)
        self.base: dict[Any, float] = {}

    @property
    def nbytes(self) -> int:
        """Bytes of the two arrays (the dict is counted apart, as any memo's)."""
        return int(self.states.nbytes + self.values.nbytes)

    def find_value(self, state: Any) -> float | None:
        if type(state) is not int:
            return None
        states = self.states
        i = int(states.searchsorted(state))
        if i < len(states) and int(states[i]) == state:
            return float(self.values[i])
        return None

    def __iter__(self) -> Iterator[Any]:
        yield from self.states.tolist()
        yield from self.base

    def __len__(self) -> int:
        return len(self.states) + len(self.base)

    def without(self, state: Any) -> ShippedTable:
        """A copy of the shipped states less ``state`` (for the check on loading)."""
        keep = self.states != state
        return ShippedTable(self.states[keep], self.values[keep])


def _located(model: TurnModel[Any], key: str) -> Any:
    """The shipped arrays of table ``key`` of ``model``'s game, or None (none, or no NumPy:
    the solver then solves)."""
    try:
        from pushluck_teach.solve import cache
    except ImportError:
        return None
    found = cache.locate(_cache_key(model, key))
    return None if found is None else found[1]


@lru_cache(maxsize=4)
def _load(game: str, key: str, model: TurnModel[Any]) -> ShippedTable | None:
    arrays = _located(model, key)
    if arrays is None:
        return None
    table = ShippedTable(arrays["states"], arrays["values"])
    if not _bellman_holds(model, int(arrays["start"]), table):
        return None
    return table


def _bellman_holds(model: TurnModel[Any], start: Any, table: ShippedTable) -> bool:
    """The shipped value of ``start`` is, bit for bit, the best action's mean of its
    successors' shipped values under the model's transitions (the solver's arithmetic)."""
    from pushluck_teach.solve.turn import Cancelled, TurnSolver

    shipped = table.get(start)
    if shipped is None:
        return False
    probe = TurnSolver(model, exact=False, max_states=None, shipped=False, levels=False,
                       seed=table.without(start))  # the table itself, without its start
    try:
        return probe.value(start) == shipped
    except Cancelled:  # a newer click, or the click's time is up: not an answer to remember
        raise
    except Exception:  # a state the table lacks, an encoding that changed...
        return False


def shipped_values(model: TurnModel[Any]) -> ShippedTable | None:
    """The shipped float values for ``model``'s turn, or None.  One table per state space,
    shared by every solver of a model with that key (they share the states and their values,
    so what one solver adds is right for all; nothing is copied)."""
    key = speedups.shared_table_key(model)
    if key is None:
        return None
    return _load(model.game, key, speedups.shipped_values_model(model))


@lru_cache(maxsize=4)
def _load_starts(key: str, check_model: TurnModel[Any], check_state: Any
                 ) -> ShippedTable | None:
    arrays = _located(check_model, key)
    if arrays is None:
        return None
    if int(arrays["check_state"]) != check_state or not _solves_to(
            check_model, check_state, float(arrays["check_value"])):
        return None
    return ShippedTable(arrays["states"], arrays["values"])


def _solves_to(model: TurnModel[Any], state: Any, value: float) -> bool:
    """Whether a cold float solve of ``state`` gives ``value`` bit for bit."""
    from pushluck_teach.solve.turn import Cancelled, TurnSolver

    try:
        return TurnSolver(model, max_states=None, shipped=False).value(state) == value
    except Cancelled:  # a newer click, or the click's time is up: not an answer to remember
        raise
    except Exception:  # an encoding that changed...
        return False


def shipped_start_values(model: TurnModel[Any]) -> ShippedTable | None:
    """The shipped float values of the turn starts of ``model``'s family
    (:func:`.speedups.start_values_key`), or None.  Only the starts'
    values ship, with what their analysis reads (:func:`opening_states`; their turns are too
    large to ship whole: a solver asked for more solves a shipped state's successors level by
    level); on loading, the family's check position is solved again and must give its
    shipped value bit for bit."""
    key = speedups.start_values_key(model)
    check = speedups.start_values_check(model)
    if key is None or check is None:
        return None
    return _load_starts(key, *check)


def opening_states(model: TurnModel[Any]) -> list[Any]:
    """What the analysis of the start and of every position within
    ``start_values_draws(model) - 1`` draws of it reads: the outcomes of each action but
    stopping, and behind an outcome that is a choice (neither drawing nor stopping: Captain
    Seven's queen, to double the card or not; the jack's, after a catching card) where each of
    its actions leads.  Those outcomes are the positions of the next draw."""
    from pushluck_teach.games.base import DRAW, STOP

    found: dict[Any, None] = {model.start: None}
    positions = [model.start]
    for _ in range(speedups.start_values_draws(model)):
        reached: list[Any] = []
        for position in positions:
            for action in model.actions(position):
                if action == STOP:
                    continue
                for _, nxt in model.transitions(position, action):
                    choices = model.actions(nxt)
                    if not choices:
                        continue
                    reached.append(nxt)
                    if STOP not in choices and DRAW not in choices:
                        reached.extend(after for choice in choices
                                       for _, after in model.transitions(nxt, choice)
                                       if model.actions(after))
        positions = [state for state in dict.fromkeys(reached) if state not in found]
        found.update(dict.fromkeys(positions))
    return list(found)


def build_starts(model: TurnModel[Any]) -> dict[str, Any]:
    """Solve each of ``model``'s family of starts (``start_value_models``), without a
    budget, and the check position: the arrays of a start-values table."""
    import numpy as np

    from pushluck_teach.solve.turn import TurnSolver

    states, values = [], []
    for member in speedups.start_value_models(model):
        solver = TurnSolver(member, max_states=None, shipped=False)
        for state in opening_states(member):
            states.append(state)
            values.append(solver.value(state))
        del solver
    check = speedups.start_values_check(model)
    assert check is not None
    check_model, check_state = check
    check_value = TurnSolver(check_model, max_states=None, shipped=False).value(check_state)
    return {"states": np.array(states, dtype=np.int64),
            "values": np.array(values, dtype=np.float64),
            "check_state": np.array(check_state, dtype=np.int64),
            "check_value": np.array(check_value, dtype=np.float64)}


def build(model: TurnModel[Any]) -> dict[str, Any]:
    """Solve ``model`` from its start in float mode: the arrays of a shipped table."""
    import numpy as np

    from pushluck_teach.solve.turn import TurnSolver

    solver = TurnSolver(model, exact=False, max_states=None, shipped=False, levels=False)
    start = model.start
    solver.analyse(start)
    values = solver.solved_values()
    states = list(values)
    return {"states": np.array(states, dtype=np.int64),
            "values": np.array([values[s] for s in states], dtype=np.float64),
            "start": np.array(start, dtype=np.int64)}


def main(argv: list[str]) -> None:
    """Write the table of every registered game's model that offers one to the package data."""
    from pushluck_teach.games import all_games
    from pushluck_teach.solve import cache

    for spec in all_games():
        if not spec.has_turn_model:  # Lost Cities: no draw/stop turn
            continue
        model, _ = spec.position(spec.variant_cls())
        key = speedups.shared_table_key(model)
        if key is not None and "--starts-only" not in argv:
            model = speedups.shipped_values_model(model)
            path = cache.save(_cache_key(model, key), build(model), directory=cache.DATA_DIR)
            print(f"{spec.name}: {key} -> {path}")
        wanted = [a.removeprefix("--only=") for a in argv if a.startswith("--only=")]
        for family in speedups.start_value_families(model):
            starts = speedups.start_values_key(family)
            assert starts is not None
            if wanted and starts not in wanted:
                continue
            path = cache.save(_cache_key(family, starts), build_starts(family),
                              directory=cache.DATA_DIR)
            members = len(speedups.start_value_models(family))
            print(f"{spec.name}: {starts} ({members} starts) -> {path}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
