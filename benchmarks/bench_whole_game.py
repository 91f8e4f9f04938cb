"""Whole-game solver figures: Pig to 100 solved from scratch (target ≤ 10 s on 2 cores), a
fixed-policy match, the solitaire chain, and warm cache loads (target ≤ 0.5 s).

Run: ``.venv/bin/python benchmarks/bench_whole_game.py``.  Captain Seven's whole game adds its
figures to :func:`bench` when its solver is registered.
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any


def _timed(fn: Any) -> tuple[float, Any]:
    """Wall-clock seconds (the machine may be shared: see also the ``*_cpu_s`` figures)."""
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def _cpu(fn: Any) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def bench() -> dict[str, float]:
    """The figures, in seconds unless named otherwise."""
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve import cache
    from pushluck_teach.solve.whole_game import pig

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get(cache.ENV_VAR)
        os.environ[cache.ENV_VAR] = tmp
        try:
            variant = PigVariant()
            seconds, solution = _timed(lambda: pig.solve_optimal(variant))
            figures["pig100_solve_s"] = seconds
            figures["pig100_sweeps"] = float(solution.sweeps)
            figures["pig100_p_win_first"] = solution.p_win_first
            figures["pig100_solve_cpu_s"] = _cpu(lambda: pig.solve_optimal(variant))
            seconds, match = _timed(
                lambda: pig.evaluate_match_uncached(variant, "keep-pace", "hold:20"))
            figures["pig100_match_keep_pace_vs_hold20_s"] = seconds
            figures["pig100_match_sweeps"] = float(match.sweeps)
            seconds, _ = _timed(lambda: pig.solitaire_turns(variant, 20))
            figures["pig100_solitaire_hold20_s"] = seconds
            seconds, _ = _timed(lambda: pig.exact_optimal(PigVariant(target=30)))
            figures["pig30_exact_fractions_s"] = seconds

            # warm loads: a fresh process has empty in-memory caches; clear them to imitate it
            pig._optimal_cached.cache_clear()
            seconds, _ = _timed(lambda: pig.optimal_solution(variant))
            figures["pig100_shipped_load_s"] = seconds
            pig._match_cached.cache_clear()
            seconds, _ = _timed(lambda: pig.evaluate_match(variant, "optimal", "hold:20"))
            figures["pig100_shipped_match_load_s"] = seconds
            short = PigVariant(target=60)  # not shipped: solve once into the user cache
            pig.optimal_solution(short)
            pig._optimal_cached.cache_clear()
            seconds, _ = _timed(lambda: pig.optimal_solution(short))
            figures["pig60_user_cache_load_s"] = seconds
            seconds, _ = _timed(lambda: pig.pig_win_probability(variant, 40, 55, 12))
            figures["pig_win_probability_memory_s"] = seconds
        finally:
            if old is None:
                os.environ.pop(cache.ENV_VAR, None)
            else:
                os.environ[cache.ENV_VAR] = old
    shipped = sum(p.stat().st_size for p in cache.DATA_DIR.glob("*.npz"))
    figures["shipped_data_kib"] = shipped / 1024
    return figures


def main() -> None:
    for name, value in bench().items():
        print(f"{name:<40} {value:12.6g}")


if __name__ == "__main__":
    main()
