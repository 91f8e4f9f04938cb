"""The figures table of docs/app.md ("Current figures"), measured afresh on this machine.

Each row is measured in this process, one after another, with cold solvers: every game's turn
start in float and in exact mode (``bench_turn_solvers.bench_position``), a repeated query in
an already-solved turn, the two solo modes, and the whole-game answers of ``pushluck solve``
for Pig and Captain Seven (their defaults ship precomputed).  Times are CPU seconds of this
process (on a shared machine wall time measures the neighbours too).  The browser, kernel
memory and site figures need a browser or minutes of play; their own scripts print them
(``bench_browser.py``, ``bench_kernel_rss.py``, ``bench_site.py``).

Run:  .venv/bin/python benchmarks/figures.py            # prints the Markdown table
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from typing import Any

from bench_turn_solvers import bench_position

from pushluck_teach.games import get_game, turn_games
from pushluck_teach.solve.whole_game import solver_for
from pushluck_teach.solve.whole_game.solo import solo_result

Row = tuple[str, str, str, str]


def _cpu(work: Callable[[], Any]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def turn_rows() -> list[Row]:
    """One row per game with a draw/stop turn: its default rules' turn start."""
    rows = []
    for spec in turn_games():
        model, state = spec.position(spec.variant_cls())
        f = bench_position(model, state)
        rows.append((f"{spec.title}: turn start, default rules",
                     f"{f['float_cpu_s']:.3f} / {f['exact_cpu_s']:.3f}",
                     f"{f['float_states']:,}",
                     f"repeated query {f['float_repeat_ms']:.2f} ms (float)"))
    return rows


def solo_rows() -> list[Row]:
    rows = []
    for game, policy in (("lands-uncharted", "threshold:20"), ("hit-list", "optimal-turn")):
        seconds = _cpu(lambda g=game, p=policy: solo_result(g, None, p))
        mode = get_game(game).solo
        rows.append((f"{get_game(game).title}: {mode.title if mode else 'solo'}, {policy}",
                     f"{seconds:.3f}", "", "whole-game distribution (fresh-deck model)"))
    return rows


def whole_game_rows() -> list[Row]:
    rows = []
    for game in ("pig", "captain-seven"):
        spec = get_game(game)
        seconds = _cpu(lambda s=spec: solver_for(s.name).report(s.variant_cls(), 2, []))
        rows.append((f"{spec.title}: `pushluck solve {game}`", f"{seconds:.3f}", "",
                     "optimal against optimal, shipped default"))
    return rows


def table(rows: list[Row]) -> str:
    head = ("| what | CPU s (float / exact) | states stored | note |\n"
            "|---|---:|---:|---|\n")
    return head + "".join(f"| {a} | {b} | {c} | {d} |\n" for a, b, c, d in rows)


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    rows = turn_rows() + solo_rows() + whole_game_rows()
    print(table(rows), end="")
    print(f"\nMeasured by `benchmarks/figures.py` (Python {platform.python_version()}, "
          f"{platform.machine()}).")


if __name__ == "__main__":
    main()
