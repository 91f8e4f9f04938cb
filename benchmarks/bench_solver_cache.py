"""What asking the shared solver cache costs, side by side with the previous way of asking.

The cache (:class:`pushluck_teach.solve.cache.MemorySolverCache`) is asked at every click and
at every decision of a simulated turn.  It used to estimate every cached solver's memo again
at each ask (O(solvers) per ask); now it looks again only at the solver asked for and the one
asked for before it, and keeps the sum.  Both run here on the same cache contents: Pig solvers
(16 dice x 4 targets, each analysed, so 64 are cached), asked alternately for the newest two.

    .venv/bin/python benchmarks/bench_solver_cache.py [--asks 5000]
"""

from __future__ import annotations

import argparse
import time

from pushluck_teach.games.pig import PigTurnModel, PigVariant
from pushluck_teach.solve.cache import MemorySolverCache
from pushluck_teach.solve.turn import TurnSolver


class EstimateEverythingEachAsk(MemorySolverCache):
    """The previous behaviour: every ask looks at every cached solver's estimate again."""

    def get(self, model, exact=False):  # noqa: ANN001, ANN201 - same signature as the parent
        solver = super().get(model, exact)
        with self._lock:
            self._refresh_all()
            self._trim(keep=(model, exact))
        return solver


def per_ask_microseconds(cache: MemorySolverCache, asks: int) -> float:
    models = [PigTurnModel(PigVariant(die_sides=sides, target=target))
              for sides in range(2, 18) for target in (20, 30, 40, 50)]
    for model in models:
        cache.get(model).analyse()
    start = time.perf_counter()
    for i in range(asks):
        cache.get(models[-1 - i % 2])
    return (time.perf_counter() - start) / asks * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=5000)
    asks = parser.parse_args().asks
    factory = lambda model, exact: TurnSolver(model, exact=exact, shipped=False)  # noqa: E731
    for name, cls in (("previous: estimate every solver each ask", EstimateEverythingEachAsk),
                      ("now: the asked one and the one before it", MemorySolverCache)):
        cache = cls(factory)
        micro = per_ask_microseconds(cache, asks)
        print(f"{name:45s} {micro:8.1f} us per ask ({len(cache)} solvers cached)")


if __name__ == "__main__":
    main()
