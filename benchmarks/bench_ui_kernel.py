"""Kernel-side timing of the game tables: click → charts updated, for every registered game.

For each game a table is built (one human seat, the rest optimal-turn bots) with a fixed seed,
and the human's buttons are clicked as the optimal policy says until the game ends (or
``max_clicks``).  Per click it records the synchronous handler time (engine action, bot moves,
three charts, the headline with the exact ``p_bust_next``) and the time until the fourth chart
(the outcome distributions, computed in a worker thread) is updated.  The target is ≤ 150 ms
in the kernel.  Run: ``.venv/bin/python benchmarks/bench_ui_kernel.py [game ...]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.sim.bots import make_bot
from pushluck_teach.ui import GameTable


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "median_ms": round(statistics.median(ordered), 1),
        "p90_ms": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def bench_game(name: str, *, seed: int = 7, max_clicks: int = 120,
               options: dict[str, Any] | None = None, players: int | None = None
               ) -> dict[str, Any]:
    """Play one game through its table and time every click (``options``: rule options;
    ``players``: seats, default two where the game allows it)."""
    spec = get_game(name)
    if players is None:
        players = max(2, spec.min_players) if spec.max_players >= 2 else 1
    seats = ("human",) + ("optimal",) * (players - 1)
    started = time.perf_counter()
    table = GameTable(name, seats=seats, seed=seed, options=options)
    table.panel.wait(timeout=600)
    table.wait_for_bots(timeout=600)
    build_ms = 1000 * (time.perf_counter() - started)
    chooser = make_bot("optimal")
    click_ms: list[float] = []
    with_dist_ms: list[float] = []
    dist_ms: list[float] = []
    errors = 0
    skipped = 0
    clicks = 0
    while table.engine is not None and not table.engine.is_over and clicks < max_clicks:
        action = chooser.choose(table.engine)
        button = table.action_buttons[action]
        started = time.perf_counter()
        button.click()
        click_ms.append(1000 * (time.perf_counter() - started))
        table.panel.wait(timeout=600)
        with_dist_ms.append(1000 * (time.perf_counter() - started))
        # the bots move off the click path: the next human choice reads the engine only once
        # they are done (else it would read a bot's turn in progress)
        table.wait_for_bots(timeout=600)
        if "Not drawn yet" in table.panel.text_dist.value:
            skipped += 1
        else:
            dist_ms.append(table.panel.last_distribution_ms)
        errors += table._message_is_error
        clicks += 1
    return {
        "game": name,
        "build_ms": round(build_ms, 1),
        "clicks": clicks,
        "errors": errors,
        "finished": bool(table.engine is not None and table.engine.is_over),
        "click_to_three_charts": _summary(click_ms),
        "click_to_all_four_charts": _summary(with_dist_ms),
        "distribution_only": _summary(dist_ms),
        "distributions_skipped_too_many_states": skipped,
    }


def bench_card_game(name: str, *, seed: int = 7, max_clicks: int = 120,
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play a game without a draw/stop turn (Lost Cities) through its card table: the human
    seat clicks what the game's ``odds`` bot would play, against the ``search`` bot (the
    heaviest), which moves off the click path as on the page."""
    from pushluck_teach.ui.card_table import CardTable
    from pushluck_teach.ui.table import action_class

    spec = get_game(name)
    started = time.perf_counter()
    table = CardTable(name, seats=("human", "search"), seed=seed, options=options)
    table.wait_for_bots(600)
    build_ms = 1000 * (time.perf_counter() - started)
    chooser = spec.bots["odds"]()
    click_ms: list[float] = []
    clicks = 0
    while not table.engine.is_over and clicks < max_clicks:
        shown = {c: b for row in table.actions_box.children for b in row.children
                 for c in b._dom_classes if c.startswith("pushluck-action-")}
        started = time.perf_counter()
        shown[action_class(chooser.choose(table.engine))].click()
        click_ms.append(1000 * (time.perf_counter() - started))
        table.wait_for_bots(600)  # the bot's reply, computed in the table's worker
        clicks += 1
    return {"game": name, "build_ms": round(build_ms, 1), "clicks": clicks,
            "finished": table.engine.is_over, "click": _summary(click_ms)}


def bench(games: list[str] | None = None, *, seed: int = 7, max_clicks: int = 120,
          report: bool = False) -> dict[str, Any]:
    """Timings for every game (or the named ones), keyed by game name."""
    names = games or [spec.name for spec in turn_games()]
    results = {}
    for name in names:
        results[name] = row = bench_game(name, seed=seed, max_clicks=max_clicks)
        if report:
            print(f"{name}: {json.dumps({k: v for k, v in row.items() if k != 'game'})}",
                  flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="registered game names (default: every game)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    bench(args.games or None, report=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
