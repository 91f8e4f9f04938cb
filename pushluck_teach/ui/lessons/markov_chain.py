"""Lesson 3: the turn as a Markov chain.  A position and a policy (optimal, or stop at T) give
an absorbing chain; the lesson draws its transition matrix and its graph, and reads the
expected number of draws and the result distribution off the fundamental matrix N (exact
fractions, with SciPy's floats beside them).

Only small chains can be drawn: the notebook passes, per game, a position whose chain is small
enough (``examples``); the dropdown offers those games.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.base import RulesError
from pushluck_teach.solve.markov import (
    TurnChain,
    absorbing_analysis,
    absorbing_analysis_exact,
    build_chain,
)
from pushluck_teach.ui.figures import (
    probability_text,
    short_fraction,
    sync_widget_state,
    value_text,
)
from pushluck_teach.ui.lessons.answers import EXPECTED_VALUE, CheckAnswer
from pushluck_teach.ui.lessons.common import (
    BAD_INPUT,
    LessonPosition,
    as_widget,
    example_drawn,
    figures_of,
    game_choices,
    lesson_layout,
    lesson_position,
    message_html,
    pick,
    replace_figure,
    replace_figure_and_shapes,
)
from pushluck_teach.ui.projector import add_projector_switch
from pushluck_teach.ui.theme import BUST_COLOUR, GAIN_COLOUR, OKABE_ITO, STOP_COLOUR

#: Lesson 3 draws the chain only up to this many states (a heatmap larger than this is noise).
CHAIN_DISPLAY_LIMIT = 120
#: A chain example: the cards (or rolls) drawn so far, and the policy's T (None: optimal play).
ChainExample = tuple[str, int | None]


def chain_heatmap_figure(chain: TurnChain) -> go.Figure:
    """The transition matrix ``P`` as a heatmap (hover: exact probabilities)."""
    n = chain.n_states
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    text = [[""] * n for _ in range(n)]
    for i, j, p in chain.edges:
        z[i][j] = float(p)
        text[i][j] = short_fraction(p)
    for k in range(chain.n_transient, n):
        z[k][k] = 1.0
        text[k][k] = "1"
    names = [f"{i}: {label}" for i, label in enumerate(chain.labels)]
    fig = go.Figure(go.Heatmap(
        z=z, x=names, y=names, text=text, colorscale="Blues", zmin=0, zmax=1,
        hovertemplate="from %{y}<br>to %{x}<br>P = %{text}<extra></extra>",
        colorbar={"title": "P"},
    ))
    t = chain.n_transient
    line = {"color": OKABE_ITO["orange"], "width": 2, "dash": "dash"}
    fig.add_shape(type="line", x0=t - 0.5, x1=t - 0.5, y0=-0.5, y1=n - 0.5, line=line)
    fig.add_shape(type="line", y0=t - 0.5, y1=t - 0.5, x0=-0.5, x1=n - 0.5, line=line)
    fig.update_layout(**lesson_layout(
        f"Transition matrix P ({t} transient | {n - t} absorbing)", height=520,
        xaxis={"title": "to state", "showticklabels": n <= 40, "tickfont": {"size": 9}},
        yaxis={"title": "from state", "autorange": "reversed", "showticklabels": n <= 40,
               "tickfont": {"size": 9}},
        margin={"l": 60, "r": 20, "t": 55, "b": 60},
    ))
    return fig


def chain_graph_figure(chain: TurnChain) -> go.Figure:
    """The chain as a graph: x = turn total, rows by depth; absorbing states on the right."""
    depth = [0] * chain.n_states
    for i, j, _ in chain.edges:  # edges run forward in topological order
        depth[j] = max(depth[j], depth[i] + 1)
    xs = [float(total) for total in chain.totals]
    ys = [-float(d) for d in depth]
    max_depth = max(depth) if depth else 0
    for k in range(chain.n_transient, chain.n_states):
        ys[k] = -float(max_depth + 1)
    ex: list[float | None] = []
    ey: list[float | None] = []
    for i, j, _ in chain.edges:
        ex += [xs[i], xs[j], None]
        ey += [ys[i], ys[j], None]
    t = chain.n_transient
    colour = ([GAIN_COLOUR] * t
              + [BUST_COLOUR if b else STOP_COLOUR for b in chain.busted])
    symbol = ["circle"] * t + ["x" if b else "square" for b in chain.busted]
    fig = go.Figure([
        go.Scatter(x=ex, y=ey, mode="lines", line={"color": "#BBBBBB", "width": 1},
                   hoverinfo="skip", name="transition"),
        go.Scatter(x=xs, y=ys, mode="markers", name="state",
                   marker={"color": colour, "symbol": symbol, "size": 11,
                           "line": {"color": "#333", "width": 1}},
                   text=[f"{i}: {label}" for i, label in enumerate(chain.labels)],
                   hovertemplate="%{text}<extra></extra>"),
    ])
    fig.update_layout(**lesson_layout(
        "The turn as a graph (● transient, ■ banked, × bust)",
        height=520, showlegend=False,
        xaxis={"title": "turn total"}, yaxis={"title": "draws so far (ends at the bottom)",
                                              "showticklabels": False},
    ))
    return fig


@dataclass(frozen=True)
class ChainFacts:
    chain: TurnChain
    expected_draws: Fraction
    expected_steps: Fraction
    p_bust: Fraction
    distribution: Mapping[Fraction, Fraction]
    scipy_expected_draws: float
    scipy_distribution: Mapping[Fraction, float]
    #: what computed the float columns: "SciPy", or "Python floats" where SciPy is missing
    float_solver: str = "SciPy"


def lesson_chain(position: LessonPosition, threshold: int | None = None,
                 max_states: int = 20_000) -> ChainFacts:
    """The chain of a position under optimal play (``threshold`` None) or "stop at T"."""
    policy = (position.solver.best_action if threshold is None
              else position.solver.threshold_policy(threshold))
    chain = build_chain(position.model, policy, position.state, max_states=max_states)
    exact = absorbing_analysis_exact(chain, matrix_limit=0)
    floats = absorbing_analysis(chain, dense_limit=0)
    return ChainFacts(chain, exact.expected_draws[0], exact.expected_steps[0], exact.p_bust,
                      exact.distribution, float(floats.expected_draws[0]), floats.distribution,
                      floats.solver)

class MarkovChainLesson(widgets.VBox):
    """Lesson 3: pick a position and a policy; see P as a heatmap and a graph, and N's answers."""

    def __init__(self, game: str | None = None, drawn: str = "", threshold: int | None = 20, *,
                 examples: Mapping[str, ChainExample] | None = None) -> None:
        """``game``/``drawn``/``threshold``: the chain shown first; ``examples``: game -> the
        position (and T) shown when the student picks that game; the dropdown offers those
        games (every registered game, from its spec's example position, when None)."""
        self.examples: dict[str, ChainExample] = dict(examples or {})
        choices = game_choices(list(self.examples) if examples is not None else None)
        self.game = widgets.Dropdown(options=choices, value=pick(game, choices),
                                     description="Game:")
        self.drawn = widgets.Text(continuous_update=False, value=drawn, description="Drawn so far:",
                                  style={"description_width": "initial"})
        self.policy = widgets.ToggleButtons(options=[("optimal", "optimal"),
                                                     ("stop at T", "threshold")],
                                            value="optimal" if threshold is None else "threshold",
                                            description="Policy:")
        self.threshold = widgets.IntSlider(value=threshold or 20, min=1, max=40,
                                           description="T:", continuous_update=False)
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.summary.add_class("pushluck-lesson-chain")
        self.heatmap = as_widget(chain_heatmap_figure(_empty_chain()), "transition_matrix")
        self.graph = as_widget(chain_graph_figure(_empty_chain()), "turn_graph")
        self.question = CheckAnswer(
            "How many draws does this turn make on average (the expected number of draws)?",
            rule=EXPECTED_VALUE)
        self._facts: ChainFacts | None = None
        self.question.observe(lambda _: self._show_summary(), "revealed")
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(self._new_game, "value")
        for control in (self.policy, self.threshold):
            control.observe(lambda _: self.refresh(), "value")
        super().__init__([widgets.HBox([self.game, self.drawn]),
                          widgets.HBox([self.policy, self.threshold]), self.message,
                          widgets.HBox([self.heatmap, self.graph]), self.summary,
                          self.question])
        self.add_class("pushluck-lesson")
        # projector mode: the two charts side by side; the absorption table folds away
        self.projector_switch = add_projector_switch(self, figures_of(self),
                                                     tables=(self.summary,),
                                                     projector_height=400)
        self.refresh()
        sync_widget_state(*figures_of(self))

    def _new_game(self, _change: Any = None) -> None:
        self.drawn.value, threshold = self.examples.get(
            self.game.value, (example_drawn(self.game.value), None))
        self.policy.value = "optimal" if threshold is None else "threshold"
        self.threshold.value = threshold or self.threshold.value
        self.refresh()

    def refresh(self) -> None:
        threshold = self.threshold.value if self.policy.value == "threshold" else None
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
            if not pos.model.actions(pos.state):
                raise RulesError("this turn is already over")
            facts = lesson_chain(pos, threshold, max_states=CHAIN_DISPLAY_LIMIT)
        except BAD_INPUT as exc:
            text = str(exc)
            if "too large" in text:
                text += " Draw a few cards (or lower T) to get a chain small enough to draw."
            self.message.value = message_html(text, error=True)
            replace_figure_and_shapes(self.heatmap, chain_heatmap_figure(_empty_chain()))
            replace_figure(self.graph, chain_graph_figure(_empty_chain()))
            self.summary.value = ""
            self._facts = None
            self.question.set_answer(None, no_answer="Pick a chain small enough to draw first.")
            return
        chain = facts.chain
        self.message.value = message_html(
            f"{chain.n_transient} transient and {chain.n_absorbing} absorbing states.")
        replace_figure_and_shapes(self.heatmap, chain_heatmap_figure(chain))
        replace_figure(self.graph, chain_graph_figure(chain))
        self._facts = facts
        self.question.set_answer(facts.expected_draws)
        self._show_summary()

    def _show_summary(self) -> None:
        """N's answers: the absorption probabilities at once, the expected numbers of draws and
        steps once the question is answered (or Show answer pressed)."""
        facts = self._facts
        if facts is None:
            return
        rows = "".join(
            f"<tr><td>{escape(str(r))}</td><td>{escape(probability_text(p))}</td>"
            f"<td>{facts.scipy_distribution[r]:.6f}</td></tr>"
            for r, p in facts.distribution.items()
        )
        if self.question.revealed:
            draws = (
                "<p>Expected draws before absorption (N·d): "
                f"<b>{escape(value_text(facts.expected_draws))}</b> "
                f"({escape(facts.float_solver)}: {facts.scipy_expected_draws:.6f}); "
                "expected steps (N·1): "
                f"{escape(value_text(facts.expected_steps))}; ")
        else:
            draws = ("<p class='pushluck-lesson-hidden'><i>Expected draws (N·d) and expected "
                     "steps (N·1) appear once you have answered the question below or pressed "
                     "Show answer.</i></p><p>")
        self.summary.value = (
            f"{draws}P(bust) = <b>{escape(probability_text(facts.p_bust))}</b>.</p>"
            "<table><tr><th>result</th><th>absorption probability (exact)</th>"
            f"<th>{escape(facts.float_solver)}</th></tr>{rows}</table>"
        )




def _empty_chain() -> TurnChain:
    return TurnChain((), 0, (), (), (), (), (), ())
