"""Lesson 5: rule variants.  One position under two rule sets (the game's presets) side by
side: the bust risk, the three values, the best action and this turn's result distribution
under optimal play.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games import turn_games
from pushluck_teach.games.base import RulesError, get_game
from pushluck_teach.ui.figures import probability_text, sync_widget_state, value_text
from pushluck_teach.ui.lessons.answers import CheckAnswer
from pushluck_teach.ui.lessons.common import (
    BAD_INPUT,
    StopFacts,
    as_widget,
    figures_of,
    lesson_layout,
    lesson_position,
    lesson_when_to_stop,
    message_html,
    replace_figure,
)
from pushluck_teach.ui.projector import add_projector_switch
from pushluck_teach.ui.theme import OPTIMAL_COLOUR, THRESHOLD_COLOUR


def distribution_pair_figure(left: Mapping[Fraction, Fraction], right: Mapping[Fraction, Fraction],
                             names: tuple[str, str]) -> go.Figure:
    """Two result distributions (optimal play) as grouped bars."""
    keys = sorted(set(left) | set(right))
    xs = [str(k) for k in keys]
    fig = go.Figure([
        go.Bar(x=xs, y=[float(left.get(k, 0)) for k in keys], name=names[0],
               marker={"color": OPTIMAL_COLOUR},
               customdata=[probability_text(left.get(k, Fraction(0))) for k in keys],
               hovertemplate="result %{x}: %{customdata}<extra>" + escape(names[0]) + "</extra>"),
        go.Bar(x=xs, y=[float(right.get(k, 0)) for k in keys], name=names[1],
               marker={"color": THRESHOLD_COLOUR, "pattern": {"shape": "/"}},
               customdata=[probability_text(right.get(k, Fraction(0))) for k in keys],
               hovertemplate="result %{x}: %{customdata}<extra>" + escape(names[1]) + "</extra>"),
    ])
    fig.update_layout(**lesson_layout("This turn's result under optimal play",
                                barmode="group", xaxis={"title": "points banked this turn",
                                                        "type": "category"},
                                yaxis={"title": "probability"}))
    return fig


def _facts_html(name: str, facts: StopFacts, p_bust: Fraction | None) -> str:
    return (
        f"<table class='pushluck-lesson-variant'><caption><b>{escape(name)}</b></caption>"
        f"<tr><td>P(next draw busts)</td><td>{escape(probability_text(p_bust))}</td></tr>"
        f"<tr><td>stop now</td><td>{escape(value_text(facts.ev_stop))}</td></tr>"
        f"<tr><td>draw once, then stop</td><td>{escape(value_text(facts.ev_draw_once))}</td></tr>"
        f"<tr><td>optimal play</td><td>{escape(value_text(facts.ev_optimal))}</td></tr>"
        f"<tr><td>best action</td><td><b>{escape(facts.best_action)}</b></td></tr></table>"
    )


class RuleVariantsLesson(widgets.VBox):
    """Lesson 5: one position, two rule sets (presets) side by side."""

    def __init__(self, game: str | None = None, drawn: str = "", left: str | None = None,
                 right: str | None = None) -> None:
        """``game``: the game (default: the first registered game with two presets or more);
        ``drawn``: the position; ``left``/``right``: the presets compared (default: the first
        and the last)."""
        if game is None:
            game = next((s.name for s in turn_games() if len(s.presets) > 1), None)
            if game is None:
                raise RulesError("no registered game has two rule presets to compare")
        spec = get_game(game)
        presets = list(spec.presets)
        self.spec = spec
        self.drawn = widgets.Text(continuous_update=False, value=drawn, description="Drawn so far:",
                                  style={"description_width": "initial"})
        self.left = widgets.Dropdown(options=presets,
                                     value=left if left in presets else presets[0],
                                     description="Rules A:")
        self.right = widgets.Dropdown(options=presets,
                                      value=right if right in presets else presets[-1],
                                      description="Rules B:")
        self.message = widgets.HTML()
        self.left_html = widgets.HTML()
        self.right_html = widgets.HTML()
        self.figure = as_widget(distribution_pair_figure({}, {}, ("A", "B")), "rule_variants")
        self.question = CheckAnswer(
            "By how much does the expected value under optimal play change from rules A to "
            "rules B (B minus A)?")
        self.drawn.observe(lambda _: self.refresh(), "value")
        for control in (self.left, self.right):
            control.observe(lambda _: self.refresh(), "value")
        # the two rule sets' numbers and their chart in one row (the chart takes the width
        # left; on a narrow screen it wraps below)
        super().__init__([widgets.HTML(f"<h3>{escape(spec.title)}</h3>"), self.drawn,
                          widgets.HBox([self.left, self.right]), self.message,
                          widgets.HBox([self.left_html, self.right_html, self.figure]),
                          self.question])
        self.add_class("pushluck-lesson")
        self.projector_switch = add_projector_switch(self, figures_of(self))
        self.refresh()
        sync_widget_state(*figures_of(self))

    def refresh(self) -> None:
        try:
            sides = []
            for preset in (self.left.value, self.right.value):
                pos = lesson_position(self.spec.name, self.drawn.value, preset)
                if not pos.model.actions(pos.state):
                    raise RulesError("this turn is already over")
                facts = lesson_when_to_stop(pos)
                p = pos.solver.p_bust_next(pos.state)
                dist = {Fraction(k): Fraction(v)
                        for k, v in pos.solver.distribution(pos.state).items()}
                sides.append((preset, facts, None if p is None else Fraction(p), dist))
        except BAD_INPUT as exc:
            self.message.value = message_html(str(exc), error=True)
            self.left_html.value = self.right_html.value = ""
            replace_figure(self.figure, distribution_pair_figure({}, {}, ("A", "B")))
            self.question.set_answer(None, no_answer="Fix the position first: " + str(exc))
            return
        (ln, lf, lp, ld), (rn, rf, rp, rd) = sides
        self.message.value = message_html(f"Position: {lf.description}.")
        self.left_html.value = _facts_html(f"A: {ln}", lf, lp)
        self.right_html.value = _facts_html(f"B: {rn}", rf, rp)
        replace_figure(self.figure, distribution_pair_figure(ld, rd, (f"A: {ln}", f"B: {rn}")))
        self.question.set_answer(rf.ev_optimal - lf.ev_optimal)
