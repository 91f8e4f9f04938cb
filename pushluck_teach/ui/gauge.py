"""The live "chance to win from here" gauge of a two-player table (Pig, Captain Seven).

The number comes from the exact whole-game solutions (``pushluck_teach.solve.whole_game``);
it is computed in a worker thread from a snapshot of the position, so a click returns at once
and the gauge follows a moment later.
"""

from __future__ import annotations

import contextlib
from concurrent.futures import CancelledError, Executor, Future
from html import escape
from typing import Any

import ipywidgets as widgets

from pushluck_teach.games.base import Engine
from pushluck_teach.solve.whole_game import win_chance_task
from pushluck_teach.ui.background import worker_executor
from pushluck_teach.ui.pyodide_site import missing_message
from pushluck_teach.ui.whole_game import win_gauge_html

NOTE = ("Exact whole-game solution: both players play the optimal policy from here "
        "(Pig: Neller and Presser; Captain Seven: the best threshold per pair of stashes).")


class WinChanceGauge(widgets.HTML):
    """Shows the player to move's chance to win, or nothing where no solution applies."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("pushluck-win-chance")
        self._generation = 0
        self._future: Future[float] | None = None
        self._executor: Executor | None = None
        self.probability: float | None = None

    def clear(self) -> None:
        self._generation += 1
        self.probability = None
        self.value = ""

    def show(self, engine: Engine, who: str) -> None:
        """Start computing the gauge for the engine's current position."""
        self._generation += 1
        generation = self._generation
        try:
            task = win_chance_task(engine)
        except ImportError as exc:  # the static site's Pyodide has no NumPy/SciPy
            self.probability = None
            self.value = (f"<div class='pushluck-win-gauge'>{escape(who)}: chance to win "
                          f"from here: {escape(missing_message(exc))}</div>")
            return
        if task is None:
            self.probability = None
            self.value = ""
            return
        label = f"{who}: chance to win from here"
        self.value = f"<div class='pushluck-win-gauge'>{escape(label)}: computing…</div>"
        if self._executor is None:
            self._executor = worker_executor("pushluck-win")
        if self._future is not None:
            self._future.cancel()
        future = self._executor.submit(task)
        self._future = future
        future.add_done_callback(lambda done: self._done(done, generation, label))

    def _done(self, done: Future[float], generation: int, label: str) -> None:
        if generation != self._generation or done.cancelled():
            return
        try:
            probability = float(done.result())
        except Exception as exc:  # never a traceback on the page
            self.probability = None
            self.value = (f"<div class='pushluck-win-gauge'>{escape(label)}: not available "
                          f"({escape(str(exc))})</div>")
            return
        self.probability = probability
        self.value = win_gauge_html(probability, label=label) + (
            f"<div class='pushluck-note' style='font-size:85%'>{escape(NOTE)}</div>")

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the gauge shows the latest position (tests)."""
        future = self._future
        if future is not None:
            with contextlib.suppress(CancelledError):
                future.exception(timeout=timeout)
