"""Per game: from-turn-start optimal solve time in float and exact mode, states solved, and the
time of a repeated query (a fresh position in an already-solved turn).

Targets on the 2-core development machine: float ≤ 1 s, exact ≤ 10 s, repeated query ≤ 10 ms.
Run:  .venv/bin/python benchmarks/bench_turn_solvers.py [GAME ...]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.games.base import DRAW, GameSpec, TurnModel
from pushluck_teach.solve.turn import TurnSolver


def bench_position(model: TurnModel[Any], state: Any) -> dict[str, Any]:
    """Float and exact solve of one position (wall and CPU seconds, states, the optimal value)
    and the mean time of a repeated query: the analysis of every position one draw away, in
    the already-solved turn.  Every per-game benchmark script measures through this."""
    figures: dict[str, Any] = {}
    for mode, exact in (("float", False), ("exact", True)):
        solver = TurnSolver(model, exact=exact)
        start, cpu = time.perf_counter(), time.process_time()
        analysis = solver.analyse(state)
        figures[f"{mode}_s"] = figures[f"{mode}_wall_s"] = time.perf_counter() - start
        figures[f"{mode}_cpu_s"] = time.process_time() - cpu
        figures[f"{mode}_states"] = solver.states_solved()
        figures[f"{mode}_ev_optimal"] = float(analysis.ev_optimal)
        nexts = [s for _, s in model.transitions(state, DRAW) if model.actions(s)]
        start = time.perf_counter()
        for nxt in nexts:
            solver.analyse(nxt)
        figures[f"{mode}_repeat_ms"] = (time.perf_counter() - start) / max(1, len(nexts)) * 1000
    figures["ev_optimal"] = figures["exact_ev_optimal"]
    return figures


def bench_game(spec: GameSpec, variant: Any = None) -> dict[str, Any]:
    model, state = spec.position(variant or spec.variant_cls())
    return {"game": spec.name, **bench_position(model, state)}


def bench(names: list[str] | None = None) -> list[dict[str, Any]]:
    specs = [get_game(n) for n in names] if names else list(turn_games())
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
