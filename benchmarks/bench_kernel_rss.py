"""The memory of a kernel that has played every game for a while (under 400 MB).

One process plays, through the real Play-page tables (``bench_ui_kernel.bench_game``: a human
seat clicking the optimal action, optimal bots, the charts and the worker thread), every
registered game with its default rules (Lost Cities, which has no draw/stop turn, through
its card table against the ``search`` bot: ``bench_ui_kernel.bench_card_game``) and then the
heavier option sets (Captain Seven with
relics, Incan Gold with five explorers over several rounds, Lands Uncharted with every option
and allies, Hit List's long haul with high stakes, a d20 Pig, the variant lab's built Captain
Seven), and prints after each: the resident memory (``VmRSS``), its peak so far
(``ru_maxrss``), and the states and estimated bytes (``solve.cache.memo_bytes``) the shared
solver cache holds.  At the end: the peak and the final RSS.

``--bounded``: put the byte-bounded cache (``solve.cache.MemorySolverCache``, budget
``DEFAULT_MAX_BYTES``) in place of the shared solver cache first, if ``solve.turn`` does not
already use it (the bound is measured before it is wired in).  ``--clicks N``: clicks per
game (Incan Gold gets three times as many, so it plays several rounds).
``--skip a,b``: leave those games out (to measure the others alone; ``relic-turns``: the
last step, which analyses Captain Seven's heaviest relic turns, :data:`RELIC_TURNS`).
``--breakdown``: at the end, the RSS again after closing every widget, after emptying the solver
cache and after clearing the package's function caches (where the end figure is held).
The app's kernels run with ``MALLOC_ARENA_MAX=2`` (``WarmKernelPool.malloc_arena_max``), so the
script re-starts itself with it unless the environment sets it; ``--default-arenas`` measures
glibc's default (8 arenas per core) instead, for a side-by-side figure.
Run:  .venv/bin/python benchmarks/bench_kernel_rss.py [--clicks N] [--bounded] [--skip GAMES]
      [--default-arenas] [--breakdown]
"""

from __future__ import annotations

import gc
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ui_kernel import bench_card_game, bench_game  # noqa: E402

from pushluck_teach.games import all_games, get_game  # noqa: E402
from pushluck_teach.solve import cache, turn  # noqa: E402

HEAVIER: list[tuple[str, dict[str, Any], int]] = [
    ("captain-seven", {"relics": True}, 2),
    ("incan-gold", {}, 5),
    ("lands-uncharted", {"buried_treasure": True, "double_or_nothing": True,
                         "cursed_idol": ("spades", "clubs", "hearts", "diamonds")}, 2),
    ("lands-uncharted", {"cursed_idol": ("spades", "diamonds"), "target": 40,
                         "double_or_nothing": True}, 3),
    ("hit-list", {"long_haul": True, "silent_assassin": True, "ghost": True,
                  "rival_interference": True, "one_last_job": True, "bad_life": True}, 2),
    ("pig", {"die_sides": 20}, 2),
    ("custom", {"preset": "captain-seven"}, 2),
]


def rss_mb() -> float:
    """The resident set size now (Linux ``/proc/self/status``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cached_mb() -> float:
    """Estimated megabytes of the shared solver cache's memos."""
    solvers = list(getattr(turn._SHARED, "_solvers", {}).values())
    return sum(cache.memo_bytes(s) for s in solvers) / 2**20


def main(argv: list[str]) -> None:
    if "MALLOC_ARENA_MAX" not in os.environ and "--default-arenas" not in argv:
        # glibc reads it at start-up: run again as the app's kernels run
        os.execve(sys.executable, [sys.executable, *sys.argv],
                  {**os.environ, "MALLOC_ARENA_MAX": "2"})
    clicks = int(argv[argv.index("--clicks") + 1]) if "--clicks" in argv else 60
    if "--bounded" in argv and not isinstance(turn._SHARED, cache.MemorySolverCache):
        turn._SHARED = cache.MemorySolverCache(turn.TurnSolver)
    bound = type(turn._SHARED).__name__
    print(f"start: RSS {rss_mb():.0f} MB; shared cache {bound}; load average "
          f"{os.getloadavg()[0]:.1f}; MALLOC_ARENA_MAX "
          f"{os.environ.get('MALLOC_ARENA_MAX', 'unset (glibc default)')}", flush=True)
    plays: list[tuple[str, dict[str, Any], int | None]] = [
        (spec.name, {}, None) for spec in all_games()]
    plays += HEAVIER
    skip = set(argv[argv.index("--skip") + 1].split(",")) if "--skip" in argv else set()
    plays = [play for play in plays if play[0] not in skip]
    for name, options, players in plays:
        started, cpu = time.perf_counter(), time.process_time()
        options = dict(options)
        if name == "custom" and "preset" in options:
            options = get_game("custom").presets[options.pop("preset")].changed_options()
        many = clicks * 3 if name == "incan-gold" else clicks
        try:
            if get_game(name).has_turn_model:
                row = bench_game(name, max_clicks=many, options=options or None,
                                 players=players)
            else:  # a card-play game (Lost Cities): its card table
                row = bench_card_game(name, max_clicks=many, options=options or None)
            played = f"clicks {row['clicks']:>4}"
        except Exception as error:  # noqa: BLE001 - report and go on measuring
            played = f"failed: {type(error).__name__} {str(error)[:40]}"
        gc.collect()
        label = str(options or "default").replace("'", "")[:44]
        if name == "custom" and options:
            label = str(options.get("name", "built game"))
        print(f"{name:<16}{label:<46}{played}  {time.process_time() - cpu:6.1f} s cpu "
              f"{time.perf_counter() - started:6.1f} s wall  "
              f"RSS {rss_mb():5.0f} MB  peak {peak_mb():5.0f} MB  cached "
              f"{turn._SHARED.states():>9,} states {cached_mb():6.0f} MB", flush=True)
    if "relic-turns" not in skip:
        relic_turns()
    print(f"end: RSS {rss_mb():.0f} MB, peak {peak_mb():.0f} MB (target < 400 MB); load "
          f"average {os.getloadavg()[0]:.1f}")
    if "--breakdown" in argv:
        breakdown()


# The heaviest Captain Seven turns the page answers (bots never keep relics, so the plays above
# meet them only by chance): the jack's positions to the first card ship and the queen's to
# the third, so the queen after four cards it keeps and the jack after two cards.  Each: a
# position, then the actions taken from it (the first outcome that is not the turn's end each
# time), every position analysed.
RELIC_TURNS = (("queen relic after 7h Ah 2h 3h, kept", {"relic": "Q", "drawn": "7h Ah 2h 3h"},
                ("no-queen",)),
               ("jack relic after 5h, then a card", {"relic": "J", "drawn": "5h"}, ("draw",)))


def relic_turns() -> None:
    """Analyse each of :data:`RELIC_TURNS` along its actions through the shared solver cache,
    as the Play page's analysis does."""
    spec = get_game("captain-seven")
    variant = spec.variant_cls(relics=True)
    for label, position, actions in RELIC_TURNS:
        started, cpu = time.perf_counter(), time.process_time()
        model, state = spec.position(variant, **position)
        solver = turn.cached_solver(model)
        solver.analyse(state)
        for action in actions:
            state = next(n for _, n in model.transitions(state, action) if model.actions(n))
            solver.analyse(state)
        gc.collect()
        print(f"{'captain-seven':<16}{label:<46}analysed   {time.process_time() - cpu:6.1f} s "
              f"cpu {time.perf_counter() - started:6.1f} s wall  RSS {rss_mb():5.0f} MB  peak "
              f"{peak_mb():5.0f} MB  cached {turn._SHARED.states():>9,} states "
              f"{cached_mb():6.0f} MB", flush=True)


def breakdown() -> None:
    """Where the end figure is held: the RSS after closing every widget the tables built
    (a real page keeps one table, not fourteen), then after emptying the shared solver
    cache, then after dropping the whole-game solutions' caches; the heap trimmed each time."""
    import ipywidgets

    def settle() -> float:
        gc.collect()
        cache.release_memory()
        return rss_mb()

    print(f"breakdown: trimmed {settle():.0f} MB", flush=True)
    ipywidgets.Widget.close_all()
    print(f"breakdown: every widget closed {settle():.0f} MB", flush=True)
    for key in list(getattr(turn._SHARED, "_solvers", {})):
        turn._SHARED._solvers.pop(key, None)
    print(f"breakdown: solver cache emptied {settle():.0f} MB", flush=True)
    cleared = 0
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if not name.startswith("pushluck_teach"):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
                cleared += 1
    print(f"breakdown: {cleared} function caches of the package cleared {settle():.0f} MB",
          flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
