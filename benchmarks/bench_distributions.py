"""A turn's result distribution (the Play page's result chart): pushed forward on the level
graph's arrays against the recursion's walk of the policy's graph, side by side.

Per position: the CPU seconds of the float solve, then of the optimal policy's distribution and
of the threshold policy's (stop at 10), each on arrays and (with ``--walk``) walked state by
state, with the states the walk visits.  The positions are Incan Gold round starts and first
decisions in company (a variant nothing ships, so every value is solved here): the page's
largest result charts.

    python benchmarks/bench_distributions.py [--walk]
"""

from __future__ import annotations

import argparse
import time

from pushluck_teach.games import get_game
from pushluck_teach.solve.turn import TurnSolver, policy_graph

CASES = [
    ("round 2 start, one other at 10, sprung traps stay", ["remove_sprung_trap=false"],
     {"round": 2, "others": (10,)}),
    ("round 1 start, others at 10, 10, 30, sprung traps stay", ["remove_sprung_trap=false"],
     {"round": 1, "others": (10, 10, 30)}),
    ("round 3 start, others at 2, 5, 8", [], {"round": 3, "others": (2, 5, 8)}),
]


def cpu(call):  # noqa: ANN001, ANN201 - a thunk and its result
    started = time.process_time()
    result = call()
    return result, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walk", action="store_true",
                        help="also walk each distribution state by state (minutes each)")
    args = parser.parse_args()
    spec = get_game("incan-gold")
    print(f"{'position':<56} {'solve':>7} {'optimal':>9} {'walked':>9} {'stop@10':>9} "
          f"{'walked':>9} {'states walked':>14}")
    for label, options, position in CASES:
        model, state = spec.position(spec.variant(options), **position)
        solver = TurnSolver(model)
        _, solve = cpu(lambda s=solver, st=state: s.value(st))
        optimal, on_arrays = cpu(lambda s=solver, st=state: s.distribution(st))
        threshold = solver.threshold_policy(10)
        _, stop_at = cpu(lambda s=solver, st=state, p=threshold: s.distribution(st, p))
        walked = walked_threshold = states = "-"
        if args.walk:
            graph, seconds = cpu(lambda s=solver, st=state: policy_graph(
                s.model, st, s.best_action))
            walked, states = f"{seconds:.2f}", f"{len(graph.order):,}"
            _, seconds = cpu(lambda s=solver, st=state, p=threshold: s.distribution(
                st, lambda x: p(x)))
            walked_threshold = f"{seconds:.2f}"
        mean = sum(r * p for r, p in optimal.items())
        assert abs(mean - solver.value(state)) <= 1e-9 * max(1.0, mean)
        print(f"{label:<56} {solve:7.2f} {on_arrays:9.2f} {walked:>9} {stop_at:9.2f} "
              f"{walked_threshold:>9} {states:>14}")
    print("(CPU seconds; 'walked' times the optimal policy's graph walk alone, without the "
          "pass of probability mass over it)")


if __name__ == "__main__":
    main()
