"""Lands Uncharted: from-turn-start optimal solve time in float and exact mode, states solved,
and the time of a repeated query (a fresh position one draw away, in the already-solved turn),
for the default variant, each cursed queen alone, and every option on.

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Run:  .venv/bin/python benchmarks/bench_lands_uncharted.py [PRESET ...]
"""

from __future__ import annotations

import sys
from typing import Any

from bench_turn_solvers import bench_game

from pushluck_teach.games import get_game
from pushluck_teach.games.lands_uncharted import LandsUnchartedVariant

CASES: dict[str, LandsUnchartedVariant] = {
    "standard": LandsUnchartedVariant(),
    "buried-treasure": LandsUnchartedVariant(buried_treasure=True),
    "cursed-hearts": LandsUnchartedVariant(cursed_idol="hearts"),
    "cursed-clubs": LandsUnchartedVariant(cursed_idol="clubs"),
    "cursed-diamonds": LandsUnchartedVariant(cursed_idol="diamonds"),
    "cursed-spades": LandsUnchartedVariant(cursed_idol="spades"),
    "all-options": LandsUnchartedVariant(buried_treasure=True, double_or_nothing=True,
                                         cursed_idol="all"),
}


def bench_variant(name: str, variant: LandsUnchartedVariant) -> dict[str, Any]:
    return {"case": name, **bench_game(get_game("lands-uncharted"), variant)}


def bench(names: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Figures per case (default: every case), keyed by case name."""
    chosen = names or list(CASES)
    return {name: bench_variant(name, CASES[name]) for name in chosen}


def main() -> None:
    rows = bench(sys.argv[1:] or None)
    print(f"{'case':<17}{'float s':>9}{'(cpu)':>8}{'exact s':>9}{'(cpu)':>8}{'states':>9}"
          f"{'repeat ms (float/exact)':>26}")
    for r in rows.values():
        print(f"{r['case']:<17}{r['float_s']:>9.3f}{r['float_cpu_s']:>8.3f}{r['exact_s']:>9.3f}"
              f"{r['exact_cpu_s']:>8.3f}{r['float_states']:>9}"
              f"{r['float_repeat_ms']:>13.3f} / {r['exact_repeat_ms']:.3f}")
    print("targets: float <= 1 s, exact <= 10 s, repeated query <= 10 ms"
          " (wall clock; cpu = this process)")


if __name__ == "__main__":
    main()
