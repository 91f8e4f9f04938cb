"""Incan Gold: exact solve times of the solo round model (and the group model).

Prints, for the from-round-start position of round 1 (and two later-round decks for scale):
optimal solve time in float and exact mode, states solved, and the time of a repeated query
(the analysis of every position one flip away, in the already-solved round).
Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Run:  .venv/bin/python benchmarks/bench_incan_gold.py [--later] [--group]
"""

from __future__ import annotations

import sys
from typing import Any

from bench_turn_solvers import bench_position

from pushluck_teach.games.incan_gold import IncanGoldVariant, incan_gold_position

ROUND_ONE = {"label": "round 1 start"}
LATER = [
    {"label": "round 2 start, 5s gone", "removed": "5s", "round": 2},
    {"label": "round 3 start, 5s 9s gone", "removed": "5s 9s", "round": 3},
]
GROUP = [
    {"label": "round 1, others leave at 0", "others": "0"},
    {"label": "round 1, other never leaves", "others": "1000"},
    {"label": "round 1, others 5,10", "others": "5,10"},
]


def bench_case(label: str, **position: Any) -> dict[str, Any]:
    model, state = incan_gold_position(IncanGoldVariant(), **position)
    return {"position": label, **bench_position(model, state)}


def bench(later: bool = False, group: bool = False) -> dict[str, Any]:
    """Figures for round 1 (``rows[0]``) and, on request, later rounds and the group model."""
    cases = [ROUND_ONE, *(LATER if later else []), *(GROUP if group else [])]
    rows = [bench_case(**case) for case in cases]
    return {"game": "incan-gold", "rows": rows, **{k: v for k, v in rows[0].items()
                                                   if k != "position"}}


def main() -> None:
    result = bench(later="--later" in sys.argv, group="--group" in sys.argv)
    print(f"{'position':<30}{'EV':>9}{'float s':>9}{'exact s':>9}{'states':>10}"
          f"{'repeat ms (float/exact)':>26}")
    for r in result["rows"]:
        print(f"{r['position']:<30}{r['ev_optimal']:>9.4f}{r['float_s']:>9.3f}{r['exact_s']:>9.3f}"
              f"{r['float_states']:>10}{r['float_repeat_ms']:>13.2f} / {r['exact_repeat_ms']:.2f}")
    print("targets: float <= 1 s, exact <= 10 s, repeated query <= 10 ms")


if __name__ == "__main__":
    main()
