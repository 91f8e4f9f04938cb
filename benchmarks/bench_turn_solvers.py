"""Per game: from-turn-start optimal solve time in float and exact mode, states solved, and the
time of a repeated query (a fresh position in an already-solved turn).

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Run:  .venv/bin/python benchmarks/bench_turn_solvers.py [GAME ...]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from pushluck_teach.games import all_games, get_game
from pushluck_teach.games.base import DRAW, GameSpec
from pushluck_teach.solve.turn import TurnSolver


def bench_game(spec: GameSpec, variant: Any = None) -> dict[str, Any]:
    model, state = spec.position(variant or spec.variant_cls())
    figures: dict[str, Any] = {"game": spec.name}
    for mode, exact in (("float", False), ("exact", True)):
        solver = TurnSolver(model, exact=exact)
        start = time.perf_counter()
        solver.analyse(state)
        figures[f"{mode}_s"] = time.perf_counter() - start
        figures[f"{mode}_states"] = solver.states_solved()
        # Repeated queries: the analysis of every position one draw away, in the solved turn.
        nexts = [s for _, s in model.transitions(state, DRAW) if model.actions(s)]
        start = time.perf_counter()
        for nxt in nexts:
            solver.analyse(nxt)
        per_query = (time.perf_counter() - start) / max(1, len(nexts))
        figures[f"{mode}_repeat_ms"] = per_query * 1000
    return figures


def bench(names: list[str] | None = None) -> list[dict[str, Any]]:
    specs = [get_game(n) for n in names] if names else list(all_games())
    return [bench_game(spec) for spec in specs]


def main() -> None:
    rows = bench(sys.argv[1:] or None)
    print(f"{'game':<16}{'float s':>9}{'exact s':>9}{'states':>9}{'repeat ms (float/exact)':>26}")
    for r in rows:
        print(f"{r['game']:<16}{r['float_s']:>9.3f}{r['exact_s']:>9.3f}{r['float_states']:>9}"
              f"{r['float_repeat_ms']:>13.2f} / {r['exact_repeat_ms']:.2f}")
    print("targets: float <= 1 s, exact <= 10 s, repeated query <= 10 ms")


if __name__ == "__main__":
    main()
