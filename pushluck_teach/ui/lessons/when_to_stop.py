"""Lesson 2: when to stop.  A position's three values (stop now, draw once then stop, optimal
play), and one game's three values across every turn total its turns can reach.

The chart across turn totals needs a game whose positions are fixed by the turn total (a dice
game such as Pig); its notebook names that game (``totals_game``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.base import DRAW, RulesError, Variant, get_game
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui.figures import sync_widget_state, value_text
from pushluck_teach.ui.lessons.answers import EXPECTED_VALUE, CheckAnswer
from pushluck_teach.ui.lessons.common import (
    BAD_INPUT,
    LessonPosition,
    StopFacts,
    as_widget,
    example_drawn,
    figures_of,
    game_choices,
    lesson_layout,
    lesson_position,
    lesson_when_to_stop,
    message_html,
    pick,
    replace_figure,
    stop_facts,
)
from pushluck_teach.ui.projector import add_projector_switch
from pushluck_teach.ui.theme import DRAW_ONCE_COLOUR, OPTIMAL_COLOUR, STOP_COLOUR


def stop_table_by_total(game: str, variant: Variant | None = None,
                        totals: Sequence[int] = range(0, 31)) -> list[tuple[int, StopFacts]]:
    """The three values at each turn total in ``totals`` that a turn of ``game`` can reach (from
    the start, drawing), for a game whose decision positions are fixed by the turn total.

    Raises RulesError when two reachable positions share a turn total (a card game: the cards
    drawn matter, not only their total).
    """
    spec = get_game(game)
    model, start = spec.position(variant or spec.variant_cls())
    wanted, top = set(totals), max(totals, default=-1)
    by_total: dict[int, Any] = {}
    frontier, seen = [start], {start}
    while frontier:
        state = frontier.pop()
        actions = model.actions(state)
        if not actions:
            continue
        total = model.turn_total(state)
        if total in wanted and by_total.setdefault(total, state) != state:
            raise RulesError(f"{spec.title}: several positions have turn total {total}; "
                             "the chart across turn totals needs a game whose positions "
                             "are fixed by their total")
        if DRAW not in actions:
            continue
        for _, nxt in model.transitions(state, DRAW):
            if nxt not in seen and (not model.actions(nxt) or model.turn_total(nxt) <= top):
                seen.add(nxt)
                frontier.append(nxt)
    solver = TurnSolver(model, exact=True)
    return [(t, stop_facts(solver, model, by_total[t])) for t in sorted(by_total)]



def stop_values_figure(rows: Sequence[tuple[Any, StopFacts]], xtitle: str,
                       title: str = "Stop, draw once, or play on?", *,
                       hidden_at: Any = None) -> go.Figure:
    """Three lines over positions: EV of stopping, of one more draw then stop, of optimal play.

    ``hidden_at``: the position whose draw-once and optimal values are left out (the one the
    check-yourself question asks about, until it is answered)."""
    xs = [str(x) for x, _ in rows]

    def ys(get: Callable[[StopFacts], Fraction | None], hide: bool = True
           ) -> list[float | None]:
        return [None if get(f) is None or (hide and str(x) == str(hidden_at))
                else float(get(f)) for x, f in rows]

    fig = go.Figure([
        go.Scatter(x=xs, y=ys(lambda f: f.ev_stop, hide=False), name="stop now",
                   mode="lines+markers",
                   line={"color": STOP_COLOUR, "width": 3}),
        go.Scatter(x=xs, y=ys(lambda f: f.ev_draw_once), name="draw once, then stop",
                   mode="lines+markers", line={"color": DRAW_ONCE_COLOUR, "width": 3,
                                                "dash": "dash"}),
        go.Scatter(x=xs, y=ys(lambda f: f.ev_optimal), name="optimal play",
                   mode="lines+markers", line={"color": OPTIMAL_COLOUR, "width": 3,
                                                "dash": "dot"}),
    ])
    fig.update_layout(**lesson_layout(title, xaxis={"title": xtitle},
                                yaxis={"title": "expected points this turn"}))
    return fig


def choice_bars_figure(facts: StopFacts | None, title: str = "This position", *,
                       answered: bool = True) -> go.Figure:
    """The three values as bars; before the question is answered (``answered`` False) only
    "stop now" (the other two read "? (answer first)")."""
    names = ["stop now", "draw once, then stop", "optimal play"]
    values = [None, None, None] if facts is None else [facts.ev_stop, facts.ev_draw_once,
                                                      facts.ev_optimal]
    texts = ["not allowed" if v is None else value_text(v) for v in values]
    heights = [None if v is None else float(v) for v in values]
    if not answered and facts is not None:  # a "?" on the floor where each bar will stand
        heights[1:] = [0.0, 0.0]
        texts[1:] = ["? (answer first)", "? (answer first)"]
    fig = go.Figure(go.Bar(
        x=names, y=heights,
        text=texts,
        textposition="outside", cliponaxis=False,
        marker={"color": [STOP_COLOUR, DRAW_ONCE_COLOUR, OPTIMAL_COLOUR]},
        hovertemplate="%{x}: %{text}<extra></extra>", name="expected value",
    ))
    fig.update_layout(**lesson_layout(title, yaxis={"title": "expected points"}))
    return fig


class WhenToStopLesson(widgets.VBox):
    """Lesson 2: a position's three values, plus one game's values across every turn total."""

    def __init__(self, game: str | None = None, drawn: str = "", *,
                 games: Iterable[str] | None = None, totals_game: str | None = None,
                 totals_variant: Variant | None = None) -> None:
        """``game``/``drawn``: the position shown first; ``games``: the games offered (default:
        every registered game); ``totals_game``: the game of the chart across turn totals
        (none when None), under ``totals_variant`` (its default rules when None)."""
        choices = game_choices(games)
        self.game = widgets.Dropdown(options=choices, value=pick(game, choices),
                                     description="Game:")
        self.drawn = widgets.Text(continuous_update=False, value=drawn,
                                  description="Cards (or rolls) drawn:",
                                  style={"description_width": "initial"})
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.bars = as_widget(choice_bars_figure(None), "stop_or_draw")
        charts: list[widgets.Widget] = []
        self.totals_game = totals_game
        self.totals_rows: list[tuple[int, StopFacts]] = []
        if totals_game is not None:
            self.totals_rows = stop_table_by_total(totals_game, totals_variant)
            self.totals_title = f"{get_game(totals_game).title} turn total"
            self.totals_fig = as_widget(stop_values_figure(self.totals_rows, self.totals_title),
                                        f"{totals_game}_stop_values")
            charts.append(self.totals_fig)
        self.question = CheckAnswer(
            "What is the expected value of drawing exactly one more time and then stopping?",
            rule=EXPECTED_VALUE)
        self._shown: tuple[LessonPosition, StopFacts] | None = None
        self.question.observe(lambda _: self._show(), "revealed")
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(self._new_game, "value")
        # the note on what is hidden sits below the row (beside the bars it squeezes them)
        self.hidden = widgets.HTML()
        super().__init__([widgets.HBox([self.game, self.drawn]), self.message,
                          widgets.HBox([self.bars, self.summary]), self.hidden, self.question,
                          *charts])
        self.add_class("pushluck-lesson")
        self.projector_switch = add_projector_switch(self, figures_of(self), columns=True)
        self.refresh()
        sync_widget_state(*figures_of(self))

    def refresh(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
            facts = lesson_when_to_stop(pos)
        except BAD_INPUT as exc:
            self.show_error(str(exc))
            return
        self.message.value = message_html(f"Position: {facts.description}.")
        self._shown = (pos, facts)
        self.question.set_answer(facts.ev_draw_once)
        self._show()

    def _show(self) -> None:
        """The bars, the table and the chart across turn totals: "stop now" at once, the other
        two values of this position once the question is answered (or Show answer pressed)."""
        if self._shown is None:
            return
        pos, facts = self._shown
        answered = self.question.revealed or facts.ev_draw_once is None
        replace_figure(self.bars, choice_bars_figure(facts, f"{pos.title}: this position",
                                                     answered=answered))
        if self.totals_game is not None:
            hidden_at = (None if answered or pos.game != self.totals_game
                         else str(pos.model.turn_total(pos.state)))
            replace_figure(self.totals_fig, stop_values_figure(
                self.totals_rows, self.totals_title, hidden_at=hidden_at))
        stop = f"<tr><td>stop now</td><td>{escape(value_text(facts.ev_stop))}</td></tr>"
        if not answered:
            self.summary.value = (
                f"<table class='pushluck-lesson-values'>{stop}"
                "<tr><td>draw once, then stop</td><td>?</td></tr>"
                "<tr><td>optimal play</td><td>?</td></tr></table>")
            self.hidden.value = (
                "<p class='pushluck-lesson-hidden'><i>The other two values, and what the "
                "one-step lookahead and the optimal policy say, appear once you have answered "
                "the question below or pressed Show answer.</i></p>")
            return
        self.hidden.value = ""
        agree = ("agree" if (facts.lookahead_action == "stop") == (facts.best_action == "stop")
                 else "<b>disagree</b>")
        self.summary.value = (
            f"<table class='pushluck-lesson-values'>{stop}"
            f"<tr><td>draw once, then stop</td><td>{escape(value_text(facts.ev_draw_once))}"
            "</td></tr>"
            f"<tr><td>optimal play</td><td>{escape(value_text(facts.ev_optimal))}</td></tr>"
            "</table>"
            f"<p>One-step lookahead says <b>{escape(facts.lookahead_action)}</b>; the optimal "
            f"policy says <b>{escape(facts.best_action)}</b>: they {agree}.</p>"
        )

    def _new_game(self, _change: Any = None) -> None:
        """Another game: start from its example position (cards do not carry over to dice)."""
        example = example_drawn(self.game.value)
        if self.drawn.value == example:
            self.refresh()
        else:
            self.drawn.value = example  # the observer refreshes

    def show_error(self, text: str) -> None:
        """A bad position: the error line, and no bars, values or answer of an older one."""
        self.message.value = message_html(text, error=True)
        replace_figure(self.bars, choice_bars_figure(None))
        self.summary.value = self.hidden.value = ""
        self._shown = None
        self.question.set_answer(None, no_answer="Fix the position first: " + text)


