"""Whole-game solver figures: Pig to 100 solved from scratch (target ≤ 10 s on 2 cores), a
fixed-policy match, the solitaire chain, and warm cache loads (target ≤ 0.5 s).

Run: ``.venv/bin/python benchmarks/bench_whole_game.py``.  Captain Seven's whole game
(:func:`bench_captain_seven`: to 100 in <= 60 s, warm load <= 0.5 s, and what the best fixed
rules give away) and the solo chains (:func:`bench_solo`) follow the Pig figures.
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


def bench_captain_seven() -> dict[str, float]:
    """Captain Seven's Doubloons: the exact turn table, the optimised policy for the sheet's
    lengths (target: to 100 in <= 60 s), warm loads (<= 0.5 s), a match, the gauge, and what
    the best fixed rules give away (from the shipped data)."""
    from pushluck_teach.games.captain_seven import CaptainSevenVariant, captain_seven_position
    from pushluck_teach.solve import cache
    from pushluck_teach.solve.whole_game import captain_seven as c7

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get(cache.ENV_VAR)
        os.environ[cache.ENV_VAR] = tmp
        try:
            seconds, _ = _timed(c7._turn_start_table)
            figures["c7_turn_table_s"] = seconds
            for g in c7.SHIPPED_TARGETS:
                seconds, solution = _timed(lambda g=g: c7.solve_optimal(CaptainSevenVariant(
                    target=g)))
                figures[f"c7_{g}_solve_s"] = seconds
                figures[f"c7_{g}_p_win_first"] = solution.p_win_first
            # cold = compute the turn table and its threshold matrix, then solve (the solve
            # above used the shipped table through the in-memory cache)
            seconds, table = _timed(lambda: c7._turn_start_table().threshold_matrix())
            figures["c7_threshold_matrix_compute_s"] = seconds
            figures["c7_100_cold_total_s"] = seconds + figures["c7_100_solve_s"]
            figures["c7_100_solve_cpu_s"] = _cpu(
                lambda: c7.solve_optimal(CaptainSevenVariant()))
            seconds, match = _timed(lambda: c7.evaluate_match_uncached(
                CaptainSevenVariant(), "threshold:20", "threshold:30"))
            figures["c7_100_match_threshold20_vs_30_s"] = seconds

            # warm loads: clear the in-memory caches to imitate a fresh process
            for fn in (c7.turn_start_table, c7.threshold_matrix, c7.final_turn_table,
                       c7._optimal_cached):
                fn.cache_clear()
            seconds, _ = _timed(lambda: c7.optimal_solution(CaptainSevenVariant()))
            figures["c7_100_shipped_load_s"] = seconds
            other = CaptainSevenVariant(target=120)  # not shipped: solve once into the cache
            c7.optimal_solution(other)
            for fn in (c7.turn_start_table, c7.threshold_matrix, c7.final_turn_table,
                       c7._optimal_cached):
                fn.cache_clear()
            seconds, _ = _timed(lambda: c7.optimal_solution(other))
            figures["c7_120_user_cache_load_s"] = seconds
            variant = CaptainSevenVariant()
            model, state = captain_seven_position(variant, drawn="9h 5c Kd")
            seconds, _ = _timed(lambda: c7.captain_seven_win_probability(
                variant, 30, 55, state=state, model=model))
            figures["c7_gauge_within_turn_s"] = seconds
            for g in c7.SHIPPED_TARGETS:
                away = c7.threshold_give_away(CaptainSevenVariant(target=g))
                for kind in ("threshold", "chase"):
                    name, chance = away.best[kind]
                    figures[f"c7_{g}_best_{kind}_T"] = float(name.split(":")[1])
                    figures[f"c7_{g}_best_{kind}_gives_away"] = 0.5 - chance
        finally:
            if old is None:
                os.environ.pop(cache.ENV_VAR, None)
            else:
                os.environ[cache.ENV_VAR] = old
    return figures


def bench_solo() -> dict[str, float]:
    """The solo chains (Lands Uncharted 10 turns, Hit List's Lone Gunman)."""
    from pushluck_teach.solve.whole_game import solo

    figures: dict[str, float] = {}
    for game, policy in (("lands-uncharted", "threshold:20"), ("lands-uncharted", "optimal-turn"),
                         ("hit-list", "threshold:17"), ("hit-list", "optimal-turn")):
        seconds, result = _timed(lambda g=game, p=policy: solo.solo_result(g, None, p))
        tag = f"solo_{game.split('-')[0]}_{policy.replace(':', '')}"
        figures[f"{tag}_s"] = seconds
        figures[f"{tag}_mean"] = result.mean
    return figures


def main() -> None:
    for name, value in {**bench(), **bench_captain_seven(), **bench_solo()}.items():
        print(f"{name:<40} {value:12.6g}")


if __name__ == "__main__":
    main()
