"""Sweeps: the same 20-point sweeps serially, on a local process pool and on a dask
``LocalCluster``; prints the wall times and checks the three give the same numbers.

1. Captain Seven's target 50, 60, ..., 240, whole game (the first player's win chance with both
   players optimal), with the disk cache off so every point is solved.
2. A built game's bank minimum 0, 2, ..., 38 (Lands Uncharted from parts), turn analysis
   (value, stop rule, bust risk from the turn start).
3. Built games against their hand-written models: one float solve from the turn start each.

Usage: ``PYTHONPATH=. python benchmarks/bench_sweep.py [--workers N] [--skip-cluster]``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("PUSHLUCK_CACHE", "off")  # solve every point (before the imports)

from pushluck_teach.games import get_game  # noqa: E402
from pushluck_teach.games.custom import (  # noqa: E402
    BUILT_GAMES,
    LANDS_UNCHARTED_RULES,
    SPEC,
    custom_position,
)
from pushluck_teach.solve.sweep import SweepResult, run_sweep  # noqa: E402
from pushluck_teach.solve.turn import TurnSolver  # noqa: E402


def _numbers(result: SweepResult) -> list[tuple[object, ...]]:
    return [(p.value, p.turn_value, p.threshold, p.bust_risk, p.win_chance, p.error)
            for p in result.points]


def _bench(name: str, run: object, workers: int, skip_cluster: bool) -> None:
    rows = []
    started = time.perf_counter()
    serial = run()
    rows.append(("serial", time.perf_counter() - started))
    started = time.perf_counter()
    pooled = run(workers=workers)
    rows.append((f"process pool ({workers} workers)", time.perf_counter() - started))
    assert _numbers(pooled) == _numbers(serial), "process pool numbers differ"
    if not skip_cluster:
        import dask
        from distributed import LocalCluster

        # dask's default worker environment (MALLOC_TRIM_THRESHOLD_=65536, OMP_NUM_THREADS=1)
        # made each whole-game point about 3x slower here; workers keep the usual environment.
        dask.config.set({"distributed.nanny.pre-spawn-environ": {},
                         "distributed.nanny.environ": {}})

        started = time.perf_counter()
        # no memory limit: a paused worker (the default limit) would look like slowness
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None, memory_limit=0) as cluster:
            ready = time.perf_counter() - started
            clustered = run(scheduler=cluster.scheduler_address)
        rows.append((f"dask LocalCluster ({workers} workers; start {ready:.1f} s)",
                     time.perf_counter() - started))
        assert _numbers(clustered) == _numbers(serial), "cluster numbers differ"
    print(f"\n{name}: {len(serial.points)} points")
    for label, seconds in rows:
        print(f"  {label:45s} {seconds:7.2f} s")
    worst = max(serial.points, key=lambda p: p.seconds)
    print(f"  slowest point (serial): {worst.value} in {worst.seconds:.2f} s")
    return serial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-cluster", action="store_true")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, workers: {args.workers}")

    captain = get_game("captain-seven")
    targets = list(range(50, 241, 10))
    serial = _bench("Captain Seven target 50..240, whole game",
                    lambda **kw: run_sweep(captain, captain.variant_cls(), "target", targets,
                                           turn=False, whole_game=True, **kw),
                    args.workers, args.skip_cluster)
    print("  win chance of the first player: " + ", ".join(
        f"{p.value}: {p.win_chance:.4f}" for p in serial.points[::4]))

    serial = _bench("built Lands Uncharted bank_minimum 0..38:2, turn analysis",
                    lambda **kw: run_sweep(SPEC, LANDS_UNCHARTED_RULES, "bank_minimum",
                                           range(0, 39, 2), **kw),
                    args.workers, args.skip_cluster)
    print("  turn value: " + ", ".join(f"{p.value}: {p.turn_value:.3f}"
                                       for p in serial.points[::4]))

    print("\nbuilt vs hand-written, one float solve from the turn start:")
    for name, rules in BUILT_GAMES.items():
        spec = get_game(name)
        flags = {"removed": "As Ah Ad Ac"} if name == "hit-list" else {}
        timings = []
        for model, state in (spec.position(spec.variant_cls(), **flags),
                             custom_position(rules, **flags)):
            started = time.perf_counter()
            solver = TurnSolver(model)
            solver.value(state)
            timings.append((time.perf_counter() - started, solver.states_solved()))
        (hand, hand_n), (built, built_n) = timings
        print(f"  {name:16s} hand-written {hand:6.2f} s ({hand_n:,} states)   "
              f"built {built:6.2f} s ({built_n:,} states)")


if __name__ == "__main__":
    main()
