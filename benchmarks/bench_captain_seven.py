"""Captain Seven's Doubloons: from-turn-start optimal solve time (float and exact), states
solved, the time of a repeated query, and the threshold-table pass for whole-game analysis.

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Times are process CPU seconds (the machine is shared) and wall seconds.
Run:  .venv/bin/python benchmarks/bench_captain_seven.py
"""

from __future__ import annotations

import time
from typing import Any

from bench_turn_solvers import bench_position

from pushluck_teach.games.captain_seven import (
    CaptainSevenVariant,
    captain_seven_position,
)
from pushluck_teach.solve.whole_game.captain_seven import threshold_outcome_distributions


def _timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def bench() -> dict[str, Any]:
    model, state = captain_seven_position(CaptainSevenVariant())
    figures = bench_position(model, state)
    _, cpu, wall = _timed(lambda: threshold_outcome_distributions(range(0, 51)))
    figures["thresholds_0_50_exact_cpu_s"], figures["thresholds_0_50_exact_wall_s"] = cpu, wall
    return figures


def main() -> None:
    f = bench()
    print("Captain Seven's Doubloons, from the turn start (default rules)")
    for mode in ("float", "exact"):
        print(f"  {mode:<6} solve {f[f'{mode}_cpu_s']:7.3f} s cpu "
              f"({f[f'{mode}_wall_s']:.3f} s wall)  states {f[f'{mode}_states']:>8}"
              "  repeated query "
              f"{f[f'{mode}_repeat_ms']:.3f} ms")
    print(f"  threshold tables T = 0..50, exact: {f['thresholds_0_50_exact_cpu_s']:.3f} s cpu "
          f"({f['thresholds_0_50_exact_wall_s']:.3f} s wall)")
    print("targets: float <= 1 s, exact <= 10 s, repeated query <= 10 ms")


if __name__ == "__main__":
    main()
