"""Lesson 5: rule variants.  One position under two rule sets (the game's presets) side by
side: the bust risk, the three values, the best action and this turn's result distribution
under optimal play.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games import turn_games
from pushluck_teach.games.base import RulesError, get_game
from pushluck_teach.ui.background import threads_available
from pushluck_teach.ui.figures import probability_text, sync_widget_state, value_text
from pushluck_teach.ui.lessons.answers import EXPECTED_VALUE, CheckAnswer
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


def _facts_html(name: str, facts: StopFacts, p_bust: Fraction | None, *,
                answered: bool = True) -> str:
    """One rule set's numbers; optimal play and the best action only once ``answered``."""
    optimal = escape(value_text(facts.ev_optimal)) if answered else "?"
    best = f"<b>{escape(facts.best_action)}</b>" if answered else "?"
    return (
        f"<table class='pushluck-lesson-variant'><caption><b>{escape(name)}</b></caption>"
        f"<tr><td>P(next draw busts)</td><td>{escape(probability_text(p_bust))}</td></tr>"
        f"<tr><td>stop now</td><td>{escape(value_text(facts.ev_stop))}</td></tr>"
        f"<tr><td>draw once, then stop</td><td>{escape(value_text(facts.ev_draw_once))}</td></tr>"
        f"<tr><td>optimal play</td><td>{optimal}</td></tr>"
        f"<tr><td>best action</td><td>{best}</td></tr></table>"
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
        titled = [(spec.preset_title(name), name) for name in presets]
        self.left = widgets.Dropdown(options=titled,
                                     value=left if left in presets else presets[0],
                                     description="Rules A:")
        self.right = widgets.Dropdown(options=titled,
                                      value=right if right in presets else presets[-1],
                                      description="Rules B:")
        self.message = widgets.HTML()
        self.left_html = widgets.HTML()
        self.right_html = widgets.HTML()
        self.figure = as_widget(distribution_pair_figure({}, {}, ("A", "B")), "rule_variants")
        self.question = CheckAnswer(
            "By how much does the expected value under optimal play change from rules A to "
            "rules B (B minus A)?", rule=EXPECTED_VALUE)
        self.hidden = widgets.HTML()
        self._sides: list[Any] | None = None
        self.question.observe(lambda _: self._show(), "revealed")
        self.drawn.observe(lambda _: self.refresh(), "value")
        for control in (self.left, self.right):
            control.observe(lambda _: self.refresh(), "value")
        # the two rule sets' numbers and their chart in one row (the chart takes the width
        # left; on a narrow screen it wraps below)
        self.row = widgets.HBox([self.left_html, self.right_html, self.figure])
        super().__init__([widgets.HTML(f"<h2>{escape(spec.title)}</h2>"), self.drawn,
                          widgets.HBox([self.left, self.right]), self.message, self.row,
                          self.hidden, self.question])
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
            self.left_html.value = self.right_html.value = self.hidden.value = ""
            self._sides = None
            replace_figure(self.figure, distribution_pair_figure({}, {}, ("A", "B")))
            self.question.set_answer(None, no_answer="Fix the position first: " + str(exc))
            return
        self.message.value = message_html(f"Position: {sides[0][1].description}.")
        self._sides = sides
        self.question.set_answer(sides[1][1].ev_optimal - sides[0][1].ev_optimal)
        self._show()

    def _show(self) -> None:
        """The two rule sets' numbers; optimal play, the best action and the chart of this
        turn's results under optimal play (whose means are the two values) once the question
        is answered or Show answer pressed."""
        if self._sides is None:
            return
        (ln, lf, lp, ld), (rn, rf, rp, rd) = self._sides
        answered = self.question.revealed
        a, b = (f"A: {self.spec.preset_title(ln)}", f"B: {self.spec.preset_title(rn)}")
        self.left_html.value = _facts_html(a, lf, lp, answered=answered)
        self.right_html.value = _facts_html(b, rf, rp, answered=answered)
        replace_figure(self.figure, distribution_pair_figure(ld, rd, (a, b)))
        if answered:
            self.row.children = (self.left_html, self.right_html, self.figure)
            self.hidden.value = ""
        else:  # the chart's results give optimal play's values away: left off the page
            self.row.children = (self.left_html, self.right_html)
            self.hidden.value = (
                "<p class='pushluck-lesson-hidden'><i>Optimal play's values, the best action "
                "and the chart of this turn's results under optimal play appear once you have "
                "answered the question below or pressed Show answer.</i></p>")


class WholeTurnComparison(widgets.VBox):
    """The variant lab's side-by-side comparison of two rule sets over a whole turn, with the
    options named in words (their labels; the explanation on hover) and a line that counts the
    seconds while the exact numbers are computed (that can take a minute on a busy machine)."""

    def __init__(self, game: str, variants: tuple[str, str], *, tick: float = 1.0) -> None:
        from pushluck_teach.ui.variant_lab import SideBySide

        self.tick = tick
        self.progress = widgets.HTML()
        self.progress.add_class("pushluck-lesson-progress")
        self.comparison = SideBySide(game=game, variants=variants)
        self._label_options()
        self.comparison.game.observe(lambda _: self._label_options(), "value")
        self.comparison.observe(lambda _: self._watch(), "status")
        super().__init__([self.progress, self.comparison])
        self._watch()

    def _label_options(self) -> None:
        """Each option's control: its label in words, its one-line explanation on hover."""
        cls = self.comparison.spec.variant_cls
        for editor in (self.comparison.a, self.comparison.b):
            for name, control in editor.controls.items():
                info = cls.option_info(name)
                control.description = info.label
                control.description_allow_html = False
                if hasattr(control, "tooltip"):
                    control.tooltip = info.help

    def _watch(self) -> None:
        """Start the seconds counter while the comparison computes (where threads exist)."""
        if not self.comparison.status.startswith("Computing"):
            self.progress.value = ""
            return
        self.progress.value = self._progress_html(0)
        if threads_available():
            threading.Thread(target=self._count, daemon=True,
                             name="pushluck-lesson-progress").start()

    def _count(self) -> None:
        started = time.monotonic()
        while self.comparison.status.startswith("Computing"):
            time.sleep(self.tick)
            if self.comparison.status.startswith("Computing"):
                self.progress.value = self._progress_html(time.monotonic() - started)
        self.progress.value = ""

    @staticmethod
    def _progress_html(seconds: float) -> str:
        return ("<p><b>Computing both rule sets exactly, over every position of a turn…</b> "
                f"{seconds:.0f} s so far (it can take a minute or two when the machine is "
                "busy; the numbers and charts below fill in when it is done).</p>")
