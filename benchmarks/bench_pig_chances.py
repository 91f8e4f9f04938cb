"""Pig's chances in plain Python (the static site's gauge, coach and Lesson 8): reading the
shipped table without NumPy, one gauge position, one coach position, and the plain value
iteration of the largest target the site solves itself (CPython; Pyodide is slower).

Run: ``.venv/bin/python benchmarks/bench_pig_chances.py``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any


def _median_ms(fn: Callable[[], Any], repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def bench() -> dict[str, float]:
    """The figures, in milliseconds."""
    os.environ.setdefault("PUSHLUCK_CACHE", "off")  # the shipped tables only, as on the site
    from pushluck_teach.solve import cache
    from pushluck_teach.solve.plain_arrays import read_npz
    from pushluck_teach.solve.whole_game.pig_chances import (
        PLAIN_SOLVE_MAX_TARGET,
        PigModel,
        action_chances,
        optimal_key,
        shipped_start,
        solve_start_plain,
        win_chance,
    )

    model = PigModel(100)
    path = cache.DATA_DIR / optimal_key(model).filename
    start = shipped_start(model)
    return {
        "read_pig_100_table_ms": _median_ms(lambda: read_npz(path)),
        "gauge_position_ms": _median_ms(lambda: win_chance(model, start, 30, 40, 12)),
        "coach_position_ms": _median_ms(lambda: action_chances(model, start, 30, 40, 12)),
        "plain_solve_target_20_d6_ms": _median_ms(
            lambda: solve_start_plain(PigModel(PLAIN_SOLVE_MAX_TARGET)), repeat=3),
        "plain_solve_target_20_d2_ms": _median_ms(
            lambda: solve_start_plain(PigModel(PLAIN_SOLVE_MAX_TARGET, 2, (2,))), repeat=3),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:32s} {value:10.2f}")
