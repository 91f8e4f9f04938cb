"""High-Stakes Hit List: from-turn-start (full deck, empty job) optimal solve time in float and
exact mode, states solved, and the time of a repeated query (the analysis of every position one
draw away, in the already-solved job), for the main variants.

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Run:  .venv/bin/python benchmarks/bench_hit_list.py
"""

from __future__ import annotations

from typing import Any

from bench_turn_solvers import bench_game

from pushluck_teach.games import get_game
from pushluck_teach.games.hit_list import HitListVariant

VARIANTS = {
    "standard": HitListVariant(),
    "soft-aces": HitListVariant(soft_aces=True),
    "silent-assassin": HitListVariant(silent_assassin=True),
    "long-haul": HitListVariant(long_haul=True),
}


def bench_variant(variant: HitListVariant) -> dict[str, Any]:
    return bench_game(get_game("hit-list"), variant)


def bench() -> dict[str, dict[str, Any]]:
    """Figures per variant: ``float_s``, ``exact_s``, ``*_states``, ``*_repeat_ms``."""
    return {name: bench_variant(v) for name, v in VARIANTS.items()}


def main() -> None:
    rows = bench()
    print(f"{'hit-list variant':<18}{'float s':>9}{'exact s':>9}{'states':>9}"
          f"{'repeat ms (float/exact)':>26}{'EV':>9}")
    for name, r in rows.items():
        print(f"{name:<18}{r['float_s']:>9.3f}{r['exact_s']:>9.3f}{r['float_states']:>9}"
              f"{r['float_repeat_ms']:>13.3f} / {r['exact_repeat_ms']:.3f}"
              f"{r['exact_ev_optimal']:>11.4f}")
    print("targets: float <= 1 s, exact <= 10 s, repeated query <= 10 ms")


if __name__ == "__main__":
    main()
