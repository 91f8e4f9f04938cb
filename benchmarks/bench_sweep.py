"""Sweeps (issue 11): the same 20-point sweeps serially, on a local process pool and on a dask
``LocalCluster``; prints the wall times and checks the three give the same numbers.

1. Captain Seven's target 50, 60, ..., 240, whole game (the first player's win chance with both
   players optimal), with the disk cache off so every point is solved.
2. A built game's bank minimum 2 ... 21 (Hit List from parts, aces removed), turn analysis
   (value, stop rule, bust risk from the turn start).

Usage: ``PYTHONPATH=. python benchmarks/bench_sweep.py [--workers N] [--skip-cluster]``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("PUSHLUCK_CACHE", "off")  # solve every point (before the imports)

from pushluck_teach.games import get_game  # noqa: E402
from pushluck_teach.games.custom import HIT_LIST_RULES, SPEC  # noqa: E402
from pushluck_teach.solve.sweep import SweepResult, run_sweep  # noqa: E402


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
        from distributed import LocalCluster

        started = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
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

    built = HIT_LIST_RULES.replace(remove_ranks=("A",))
    serial = _bench("built Hit List (no aces) bank_minimum 2..21, turn analysis",
                    lambda **kw: run_sweep(SPEC, built, "bank_minimum", range(2, 22), **kw),
                    args.workers, args.skip_cluster)
    print("  turn value: " + ", ".join(f"{p.value}: {p.turn_value:.3f}"
                                       for p in serial.points[::4]))


if __name__ == "__main__":
    main()
