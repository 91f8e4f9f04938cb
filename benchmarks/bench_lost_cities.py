"""Lost Cities bots, each against each on mirrored deals; prints the strength table.

    PYTHONPATH=. python benchmarks/bench_lost_cities.py            # 500 deal pairs a pairing
    PYTHONPATH=. python benchmarks/bench_lost_cities.py --pairs 20 # a quick look

Each deal (one match, seed = deal number) is played twice with the seats swapped, so the luck
of the deal cancels within a pair.  Also prints each bot's mean CPU time per decision (CPU, not
wall-clock: the machine is shared).  The full run takes about 11 CPU-minutes.
"""

from __future__ import annotations

import argparse
import itertools
import time

from pushluck_teach.games import get_game
from pushluck_teach.games.lost_cities import LostCitiesEngine, LostCitiesVariant
from pushluck_teach.games.lost_cities.bots import BOTS
from pushluck_teach.sim.duel import duel


def time_per_move(name: str, matches: int = 3) -> float:
    """Mean CPU seconds per decision of bot ``name`` playing itself."""
    spent, moves = 0.0, 0
    for seed in range(matches):
        engine = LostCitiesEngine(LostCitiesVariant(matches=1), 2, 10_000 + seed)
        bots = (BOTS[name](seed), BOTS[name](seed + 1))
        while not engine.is_over:
            start = time.process_time()
            action = bots[engine.current_player].choose(engine)
            spent += time.process_time() - start
            moves += 1
            engine.act(action)
    return spent / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500, help="deal pairs per pairing")
    parser.add_argument("--bots", default=",".join(BOTS), help="bots to compare")
    args = parser.parse_args()
    names = args.bots.split(",")
    for name in names:
        print(f"{name:>7}: {1000 * time_per_move(name):.1f} ms CPU per decision", flush=True)
    print()
    print("| A vs B | deal pairs | mean points A - B per match | 95 % CI | A's win rate | "
          "sd of one match | CPU time |")
    print("|---|---|---|---|---|---|---|")
    for a, b in itertools.combinations(names[::-1], 2):
        start = time.process_time()
        result = duel(get_game("lost-cities"), LostCitiesVariant(matches=1), BOTS[a], BOTS[b],
                      args.pairs)
        low, high = result.interval
        print(f"| {a} vs {b} | {result.pairs} | {result.mean_difference:+.1f} | "
              f"[{low:+.1f}, {high:+.1f}] | {result.win_rate:.1%} | "
              f"{result.match_sd:.1f} | "
              f"{time.process_time() - start:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
