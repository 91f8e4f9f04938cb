"""Captain Seven's chances in plain Python (the static site's gauge, coach and Lesson 6): a
turn-start position (a table read), a position within a turn (the turn's table rebuilt from the
cards left: the expensive part), the same position's coach, and the NumPy solver's gauge for
the same position (the Voilà app), in CPython; Pyodide is a few times slower.

Run: ``.venv/bin/python benchmarks/bench_captain_seven_chances.py``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any


def _median_ms(fn: Callable[[], Any], repeat: int = 5,
               before: Callable[[], Any] | None = None) -> float:
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def bench() -> dict[str, float]:
    """The figures, in milliseconds."""
    os.environ.setdefault("PUSHLUCK_CACHE", "off")  # the shipped tables only, as on the site
    from pushluck_teach.games.captain_seven import CaptainSevenVariant, captain_seven_position
    from pushluck_teach.solve.whole_game import captain_seven as c7
    from pushluck_teach.solve.whole_game import captain_seven_chances as plain

    variant = CaptainSevenVariant()
    opening = captain_seven_position(variant)
    model, state = captain_seven_position(variant, drawn="9h 5c Kd")

    def cold() -> None:  # a new position: no table of its cards kept
        plain._table_after.cache_clear()
        plain._valid_weight_sums.cache_clear()

    plain.win_chance(variant, 30, 55, *opening)  # the shipped tables read once
    return {
        "turn_start_gauge_ms": _median_ms(lambda: plain.win_chance(variant, 30, 55, *opening),
                                          repeat=20),
        "within_turn_gauge_ms": _median_ms(lambda: plain.win_chance(variant, 30, 55, model,
                                                                    state), before=cold),
        "within_turn_coach_after_gauge_ms": _median_ms(
            lambda: plain.action_chances(variant, 30, 55, model, state)),
        "numpy_within_turn_gauge_ms": _median_ms(
            lambda: c7.captain_seven_win_probability(variant, 30, 55, state=state,
                                                     model=model)),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:36s} {value:10.2f}")
