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
from pushluck_teach.ui.lessons.answers import EXPECTED_VALUE, CheckAnswer
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


def simulation_figure(run: RunningMean, exact: float | None, title: str) -> go.Figure:
    """The running mean with a ±2 SE band, and the exact value as a line (no line while
    ``exact`` is None: the check-yourself question asks for it)."""
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
        go.Scatter(x=[] if exact is None else [xs[0] if xs else 0, xs[-1] if xs else 1],
                   y=[] if exact is None else [exact, exact], mode="lines",
                   name="exact (solver)" if exact is not None else "exact (once answered)",
                   line={"color": OPTIMAL_COLOUR, "width": 3, "dash": "dash"},
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
        self.figure = as_widget(simulation_figure(RunningMean((), (), ()), None, ""),
                                 "exact_vs_simulation")
        self.question = CheckAnswer(
            "What is the exact expected number of points of one turn under optimal play? "
            "(the simulation gives an estimate; the exact value is the solver's)",
            rule=EXPECTED_VALUE)
        self.add_button.on_click(lambda _: self.add())
        self.reset_button.on_click(lambda _: self.start_again())
        self.game.observe(lambda _: self.start_again(), "value")
        self.seed.observe(lambda _: self._new_seed(), "value")
        self.question.observe(lambda _: self._draw(get_game(self.game.value).title), "revealed")
        super().__init__([widgets.HBox([self.game, self.seed]),
                          widgets.HBox([self.add_button, self.reset_button]), self.message,
                          self.figure, self.summary, self.question])
        self.add_class("pushluck-lesson")
        self.projector_switch = add_projector_switch(self, figures_of(self))
        self.start_again()
        sync_widget_state(*figures_of(self))

    def _seed(self) -> int:
        text = self.seed.value.strip()
        if not text.lstrip("-").isdigit():
            raise ValueError(f"Bad seed {text!r}: type a whole number (the simulations so far "
                             "are kept).")
        return int(text)

    def _new_seed(self) -> None:
        """A new seed starts again with one batch under it; a bad one leaves a one-line message
        and keeps every simulation so far."""
        try:
            self._seed()
        except ValueError as exc:
            self.message.value = message_html(str(exc), error=True)
            return
        self.start_again()

    def start_again(self) -> None:
        """Drop the simulations and play a first batch (the seed's), so the chart has a line."""
        self.reset()
        if self.exact is not None and self._valid_seed():
            self.add()

    def _valid_seed(self) -> bool:
        try:
            self._seed()
        except ValueError as exc:
            self.message.value = message_html(str(exc), error=True)
            return False
        return True

    def reset(self) -> None:
        self.samples = []
        self.batches = 0
        try:
            pos = lesson_position(self.game.value)
        except BAD_INPUT as exc:
            self.message.value = message_html(str(exc), error=True)
            self.exact = None
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
        self.message.value = message_html(
            f"{len(self.samples)} simulated turns so far (seed {seed}).")
        self._draw(spec.title)

    def _draw(self, title: str) -> None:
        """The chart and the summary; the exact value (its line and number) only once the
        question is answered or Show answer pressed."""
        answered = self.question.revealed
        exact = float(self.exact) if self.exact is not None and answered else None
        run = running_mean(self.samples)
        replace_figure(self.figure, simulation_figure(run, exact, f"{title}: simulation vs exact"))
        if not run.n:
            self.summary.value = "<p>No simulations yet.</p>"
            return
        mean, se = run.mean[-1], run.stderr[-1]
        estimate = (f"<p>After <b>{run.n[-1]}</b> turns: mean {mean:.4f} ± {2 * se:.4f} "
                    "(2 SE). ")
        if exact is None:
            self.summary.value = estimate + (
                "The band shrinks like 1/√n: four times the turns halves it.</p>"
                "<p class='pushluck-lesson-hidden'><i>The exact value (its number and its "
                "dashed line) appears once you have answered the question below or pressed "
                "Show answer.</i></p>")
            return
        inside = abs(mean - exact) <= 2 * se
        self.summary.value = estimate + (
            f"Exact value (solver): <b>{exact:.6f}</b>; it is "
            f"{'inside' if inside else 'outside'} the ±2 SE band. The band shrinks like "
            "1/√n: four times the turns halves it.</p>"
        )
