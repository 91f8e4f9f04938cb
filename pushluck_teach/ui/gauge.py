"""The live "chance to win from here" gauge of a two-player table (every game with a
whole-game solver: ``GameSpec.whole_game``).

The number comes from the exact whole-game solution; it is computed in a worker thread from a
snapshot of the position (:class:`~pushluck_teach.ui.background.LatestOnly`), so a click returns
at once and the gauge follows a moment later.  The note under it is the solver's own
description of what it computes.
"""

from __future__ import annotations

from concurrent.futures import Future
from html import escape
from typing import Any

import ipywidgets as widgets

from pushluck_teach.games.base import Engine
from pushluck_teach.pyodide_site import elsewhere_message
from pushluck_teach.solve.turn import Cancelled
from pushluck_teach.solve.whole_game import chances_for
from pushluck_teach.solve.whole_game.engine_chances import win_chance_task
from pushluck_teach.ui.analysis import plain_words
from pushluck_teach.ui.background import LatestOnly
from pushluck_teach.ui.whole_game import win_gauge_html


def gauge_note(game: str) -> str:
    """What the gauge's number means, from the game's whole-game solver."""
    return ("Exact whole-game solution: both players play the optimal policy from here "
            f"({chances_for(game).description}).")


class WinChanceGauge(widgets.HTML):
    """Shows the player to move's chance to win, or nothing where no solution applies."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("pushluck-win-chance")
        self._task: LatestOnly[float] = LatestOnly("pushluck-win")
        self.probability: float | None = None

    def clear(self) -> None:
        self._task.supersede()
        self.probability = None
        self.value = ""

    def show(self, engine: Engine, who: str) -> None:
        """Start computing the gauge for the engine's current position."""
        self._task.supersede()
        try:
            task = win_chance_task(engine)
        except ImportError as exc:  # the static site: no NumPy, and no table shipped for these
            self.probability = None  # rules (or no NumPy-free reader for this game)
            self.value = (f"<div class='pushluck-win-gauge'>{escape(who)}: chance to win "
                          f"from here: {escape(elsewhere_message(exc))}</div>")
            return
        if task is None:
            self.probability = None
            self.value = ""
            return
        label = f"{who}: chance to win from here"
        note = gauge_note(engine.game)
        self.value = (f"<div class='pushluck-win-gauge pushluck-pending'>{escape(label)}: "
                      "computing…</div>")
        self._task.submit(task, lambda done: self._done(done, label, note))

    def _done(self, done: Future[float], label: str, note: str) -> None:
        try:
            probability = float(done.result())
        except Exception as exc:  # never a traceback on the page
            self.probability = None
            why = "" if isinstance(exc, Cancelled) else f" ({plain_words(exc)})"
            self.value = (f"<div class='pushluck-win-gauge'>{escape(label)}: not available "
                          f"for this position{escape(why)}</div>")
            return
        self.probability = probability
        self.value = win_gauge_html(probability, label=label) + (
            f"<div class='pushluck-note' style='font-size:85%'>{escape(note)}</div>")

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the gauge shows the latest position (tests)."""
        self._task.wait(timeout)

    def close(self) -> None:
        self._task.close()
        super().close()
