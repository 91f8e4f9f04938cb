"""Lesson 4: exact vs simulation.  Seeded batches of simulated turns (optimal play, the real
engine) and their running mean with a ±2 standard-error band close in on the solver's exact
expected value; simulation only illustrates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.base import get_game
from pushluck_teach.sim import OptimalTurnBot, simulate_turns
from pushluck_teach.ui.figures import sync_widget_state
from pushluck_teach.ui.lessons.answers import CheckAnswer
from pushluck_teach.ui.lessons.common import (
    BAD_INPUT,
    as_widget,
    figures_of,
    game_choices,
    lesson_layout,
    lesson_position,
    message_html,
    pick,
    replace_figure,
)
from pushluck_teach.ui.projector import add_projector_switch
from pushluck_teach.ui.theme import OPTIMAL_COLOUR, THRESHOLD_COLOUR


@dataclass(frozen=True)
class RunningMean:
    """Running mean and standard error after ``n[i]`` samples (downsampled for charts)."""

    n: tuple[int, ...]
    mean: tuple[float, ...]
    stderr: tuple[float, ...]


def running_mean(samples: Sequence[float], points: int = 400) -> RunningMean:
    """Welford's running mean and variance, reported at up to ``points`` sample counts."""
    total = len(samples)
    if total == 0:
        return RunningMean((), (), ())
    step = max(1, total // points)
    ns, means, ses = [], [], []
    mean = m2 = 0.0
    for k, x in enumerate(samples, start=1):
        delta = x - mean
        mean += delta / k
        m2 += delta * (x - mean)
        if k % step == 0 or k == total:
            var = m2 / (k - 1) if k > 1 else 0.0
            ns.append(k)
            means.append(mean)
            ses.append(math.sqrt(var / k))
    return RunningMean(tuple(ns), tuple(means), tuple(ses))


def simulation_figure(run: RunningMean, exact: float, title: str) -> go.Figure:
    """The running mean with a ±2 SE band, and the exact value as a line."""
    upper = [m + 2 * s for m, s in zip(run.mean, run.stderr, strict=True)]
    lower = [m - 2 * s for m, s in zip(run.mean, run.stderr, strict=True)]
    xs = list(run.n)
    fig = go.Figure([
        go.Scatter(x=xs, y=upper, mode="lines", line={"width": 0}, showlegend=False,
                   hoverinfo="skip", name="+2 SE"),
        go.Scatter(x=xs, y=lower, mode="lines", line={"width": 0}, fill="tonexty",
                   fillcolor="rgba(230,159,0,0.25)", name="±2 standard errors",
                   hoverinfo="skip"),
        go.Scatter(x=xs, y=list(run.mean), mode="lines", name="simulated running mean",
                   line={"color": THRESHOLD_COLOUR, "width": 2},
                   hovertemplate="after %{x} turns: %{y:.4f}<extra></extra>"),
        go.Scatter(x=[xs[0] if xs else 0, xs[-1] if xs else 1], y=[exact, exact], mode="lines",
                   name="exact (solver)", line={"color": OPTIMAL_COLOUR, "width": 3,
                                                 "dash": "dash"},
                   hovertemplate="exact %{y:.6f}<extra></extra>"),
    ])
    fig.update_layout(**lesson_layout(title, height=380,
                                xaxis={"title": "simulated turns", "type": "log"},
                                yaxis={"title": "mean points per turn"}))
    return fig


class SimulationLesson(widgets.VBox):
    """Lesson 4: add seeded batches of simulated turns; watch the running mean close in."""

    def __init__(self, game: str | None = None, *, seed: int = 2024, batch: int = 1000,
                 games: Iterable[str] | None = None) -> None:
        """``game``: the game shown first; ``games``: the games offered (default: ``game``
        alone, or every registered game when no game is given: solving a big game's turn from
        its start can take a while, so the notebook lists the quick ones)."""
        offered = games if games is not None else ([game] if game is not None else None)
        choices = game_choices(offered)
        self.game = widgets.Dropdown(options=choices, value=pick(game, choices),
                                     description="Game:")
        self.seed = widgets.Text(continuous_update=False, value=str(seed), description="Seed:",
                                 layout=widgets.Layout(width="160px"))
        self.batch = batch
        self.add_button = widgets.Button(description=f"Add {batch} simulations",
                                         button_style="primary")
        self.add_button.add_class("pushluck-lesson-add")
        self.reset_button = widgets.Button(description="Start again")
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.summary.add_class("pushluck-lesson-sim")
        self.samples: list[float] = []
        self.batches = 0
        self.exact: Fraction | None = None
        self.figure = as_widget(simulation_figure(RunningMean((), (), ()), 0.0, ""),
                                 "exact_vs_simulation")
        self.question = CheckAnswer(
            "What is the exact expected number of points of one turn under optimal play? "
            "(two decimals, or the exact fraction)", placeholder="e.g. 8.14")
        self.add_button.on_click(lambda _: self.add())
        self.reset_button.on_click(lambda _: self.reset())
        self.game.observe(lambda _: self.reset(), "value")
        self.seed.observe(lambda _: self.reset(), "value")
        super().__init__([widgets.HBox([self.game, self.seed]),
                          widgets.HBox([self.add_button, self.reset_button]), self.message,
                          self.figure, self.summary, self.question])
        self.add_class("pushluck-lesson")
        self.projector_switch = add_projector_switch(self, figures_of(self))
        self.reset()
        sync_widget_state(*figures_of(self))

    def _seed(self) -> int:
        text = self.seed.value.strip()
        if not text.lstrip("-").isdigit():
            raise ValueError(f"bad seed {text!r}: type a whole number")
        return int(text)

    def reset(self) -> None:
        self.samples = []
        self.batches = 0
        try:
            pos = lesson_position(self.game.value)
        except BAD_INPUT as exc:
            self.message.value = message_html(str(exc), error=True)
            return
        self.exact = Fraction(pos.solver.value(pos.state))
        self.question.set_answer(self.exact)
        self._draw(pos.title)
        self.message.value = message_html("Click the button to simulate turns (optimal play).")

    def add(self, batches: int = 1) -> None:
        try:
            seed = self._seed()
        except ValueError as exc:
            self.message.value = message_html(str(exc), error=True)
            return
        spec = get_game(self.game.value)
        for _ in range(batches):
            run = simulate_turns(spec, OptimalTurnBot(), self.batch,
                                 seed * 1_000_003 + self.batches)
            self.samples.extend(run.samples)
            self.batches += 1
        self.message.value = message_html(f"{len(self.samples)} simulated turns so far.")
        self._draw(spec.title)

    def _draw(self, title: str) -> None:
        exact = float(self.exact or 0)
        run = running_mean(self.samples)
        replace_figure(self.figure, simulation_figure(run, exact, f"{title}: simulation vs exact"))
        if run.n:
            mean, se = run.mean[-1], run.stderr[-1]
            inside = abs(mean - exact) <= 2 * se
            self.summary.value = (
                f"<p>After <b>{run.n[-1]}</b> turns: mean {mean:.4f} ± {2 * se:.4f} (2 SE). "
                f"Exact value (solver): <b>{exact:.6f}</b>; it is "
                f"{'inside' if inside else 'outside'} the ±2 SE band. The band shrinks like "
                "1/√n: four times the turns halves it.</p>"
            )
        else:
            self.summary.value = "<p>No simulations yet.</p>"


