"""Captain Seven's Doubloons: from-turn-start optimal solve time (float and exact), states
solved, the time of a repeated query, and the threshold-table pass for whole-game analysis.

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Times are process CPU seconds (the machine is shared) and wall seconds.
Run:  .venv/bin/python benchmarks/bench_captain_seven.py
"""

from __future__ import annotations

import time
from typing import Any

from pushluck_teach.games.base import DRAW
from pushluck_teach.games.captain_seven import (
    CaptainSevenVariant,
    captain_seven_position,
    threshold_outcome_distributions,
)
from pushluck_teach.solve.turn import TurnSolver


def _timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def bench() -> dict[str, Any]:
    model, state = captain_seven_position(CaptainSevenVariant())
    figures: dict[str, Any] = {}
    for mode, exact in (("float", False), ("exact", True)):
        solver = TurnSolver(model, exact=exact)
        _, cpu, wall = _timed(lambda s=solver: s.analyse(state))
        figures[f"{mode}_cpu_s"], figures[f"{mode}_wall_s"] = cpu, wall
        figures[f"{mode}_states"] = solver.states_solved()
        # Repeated queries: every position one draw and two draws away, in the solved turn.
        nexts = [s for _, s in model.transitions(state, DRAW) if model.actions(s)]
        nexts += [t for s in nexts for _, t in model.transitions(s, DRAW) if model.actions(t)]
        _, cpu, _ = _timed(lambda s=solver, n=nexts: [s.analyse(x) for x in n])
        figures[f"{mode}_repeat_ms"] = 1000 * cpu / len(nexts)
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
