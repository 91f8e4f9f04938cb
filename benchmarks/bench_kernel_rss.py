"""The memory of a kernel that has played every game for a while (issue 9: under 400 MB).

One process plays, through the real tables (``bench_ui_kernel.bench_game``: a human seat
clicking the optimal action, optimal bots, charts and the worker thread), every registered
game with its default rules and then the heavier option sets (Captain Seven with relics,
Incan Gold with five explorers, Lands Uncharted with every option), and prints the resident
memory after each (``VmRSS``), its peak (``ru_maxrss``) and the states the shared solver cache
holds (bounded by ``solve.turn.DEFAULT_MAX_STATES``).
Run:  .venv/bin/python benchmarks/bench_kernel_rss.py [--clicks N]
"""

from __future__ import annotations

import gc
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ui_kernel import bench_game  # noqa: E402

from pushluck_teach.games import all_games  # noqa: E402
from pushluck_teach.solve import turn  # noqa: E402

HEAVIER: list[tuple[str, dict[str, Any], int]] = [
    ("captain-seven", {"relics": True}, 2),
    ("incan-gold", {}, 5),
    ("lands-uncharted", {"buried_treasure": True, "double_or_nothing": True,
                         "cursed_idol": ("spades", "clubs", "hearts", "diamonds")}, 2),
]


def rss_mb() -> float:
    """The resident set size now (Linux ``/proc/self/status``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str]) -> None:
    clicks = int(argv[argv.index("--clicks") + 1]) if "--clicks" in argv else 60
    print(f"start: RSS {rss_mb():.0f} MB")
    plays: list[tuple[str, dict[str, Any], int | None]] = [
        (spec.name, {}, None) for spec in all_games()]
    plays += HEAVIER
    for name, options, players in plays:
        started = time.perf_counter()
        row = bench_game(name, max_clicks=clicks, options=options, players=players)
        gc.collect()
        print(f"{name:<16}{str(options or 'default')[:46]:<48} clicks {row['clicks']:>4}  "
              f"{time.perf_counter() - started:6.1f} s  RSS {rss_mb():5.0f} MB  "
              f"peak {peak_mb():5.0f} MB  cached states {turn._SHARED.states():>9,}",
              flush=True)
    print(f"end: RSS {rss_mb():.0f} MB, peak {peak_mb():.0f} MB (target < 400 MB)")


if __name__ == "__main__":
    main(sys.argv[1:])
