"""Shipped float solutions of whole turns (issue 9): a turn asked about again and again — such
as Captain Seven's, which always starts from the full deck — is solved once, and its values are
shipped in ``pushluck_teach/data/`` so a cold solver answers at once.

A model opts in through :meth:`~pushluck_teach.games.base.TurnModel.shared_table_key`: a string
naming its state space and the model's version (two models with the same key have the same
states and values).  The file is found and checked by :mod:`.cache` (its key holds the table
key, ``TABLE_VERSION`` and the solver's tie tolerance, so a changed model or solver never reads
a stale file); on loading, the Bellman equation is checked again at the table's start state
with the model's own transitions (bit for bit), so a state encoding that changed without a
version bump is caught too.  Only float values are shipped (exact fractions of a whole turn
are far larger); exact mode always solves.

Without NumPy (the in-browser build may lack it) nothing is loaded and the solver solves.
Build the tables with ``python -m pushluck_teach.solve.turn_tables``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from pushluck_teach.games.base import TurnModel
from pushluck_teach.solve.levels import OverlayMemo

TABLE_VERSION = 1


def _cache_key(model: TurnModel[Any], key: str) -> Any:
    from pushluck_teach.solve.cache import CacheKey
    from pushluck_teach.solve.turn import _FLOAT_TIE

    return CacheKey(game=model.game, kind="turn-values", variant={"table": key},
                    params={"float_tie": _FLOAT_TIE}, version=TABLE_VERSION)


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


@lru_cache(maxsize=4)
def _load(game: str, key: str, model: TurnModel[Any]) -> ShippedTable | None:
    try:
        from pushluck_teach.solve import cache
    except ImportError:  # no NumPy: solve instead
        return None
    found = cache.locate(_cache_key(model, key))
    if found is None:
        return None
    arrays = found[1]
    table = ShippedTable(arrays["states"], arrays["values"])
    if not _bellman_holds(model, int(arrays["start"]), table):
        return None
    return table


def _bellman_holds(model: TurnModel[Any], start: Any, table: ShippedTable) -> bool:
    """The shipped value of ``start`` is, bit for bit, the best action's mean of its
    successors' shipped values under the model's transitions (the solver's arithmetic)."""
    from pushluck_teach.solve.turn import TurnSolver

    shipped = table.get(start)
    if shipped is None:
        return False
    probe = TurnSolver(model, exact=False, max_states=None, shipped=False, levels=False)
    probe._values = table.without(start)  # noqa: SLF001 - the table itself, without its start
    try:
        return probe._value(start) == shipped  # noqa: SLF001
    except Exception:  # a state the table lacks, an encoding that changed...
        return False


def shipped_values(model: TurnModel[Any]) -> ShippedTable | None:
    """The shipped float values for ``model``'s turn, or None.  One table per state space,
    shared by every solver of a model with that key (they share the states and their values,
    so what one solver adds is right for all; nothing is copied)."""
    key = model.shared_table_key()
    if key is None:
        return None
    return _load(model.game, key, model.table_model())


def build(model: TurnModel[Any]) -> dict[str, Any]:
    """Solve ``model`` from its start in float mode: the arrays of a shipped table."""
    import numpy as np

    from pushluck_teach.solve.turn import TurnSolver

    solver = TurnSolver(model, exact=False, max_states=None, shipped=False, levels=False)
    start = model.start
    solver.analyse(start)
    states = list(solver._values)  # noqa: SLF001
    return {"states": np.array(states, dtype=np.int64),
            "values": np.array([solver._values[s] for s in states], dtype=np.float64),  # noqa: SLF001
            "start": np.array(start, dtype=np.int64)}


def main(argv: list[str]) -> None:
    """Write the table of every registered game's model that offers one to the package data."""
    from pushluck_teach.games import all_games
    from pushluck_teach.solve import cache

    for spec in all_games():
        model, _ = spec.position(spec.variant_cls())
        key = model.shared_table_key()
        if key is None:
            continue
        model = model.table_model()
        path = cache.save(_cache_key(model, key), build(model), directory=cache.DATA_DIR)
        print(f"{spec.name}: {key} -> {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
