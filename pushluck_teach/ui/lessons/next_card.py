"""Lesson 1: the next card.  Type or draw this turn's cards; the chance of each outcome of one
more draw, and the bust risk before each card, follow (exact, counted from the cards left).

The lesson offers the games whose turn draws cards (their :class:`GameSpec` names a deck), or
the list its notebook passes; the cards left are the game's deck minus this turn's cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.base import DRAW, Variant
from pushluck_teach.ui.figures import (
    fraction_text,
    probability_text,
    short_fraction,
    sync_widget_state,
)
from pushluck_teach.ui.lessons.answers import COUNTED_PROBABILITY, CheckAnswer, hidden_note
from pushluck_teach.ui.lessons.common import (
    BAD_INPUT,
    LessonPosition,
    as_widget,
    draws_cards,
    figures_of,
    game_choices,
    lesson_layout,
    lesson_position,
    message_html,
    pick,
    remaining_cards,
    replace_figure,
)
from pushluck_teach.ui.projector import add_projector_switch
from pushluck_teach.ui.theme import BUST_COLOUR, GAIN_COLOUR


@dataclass(frozen=True)
class NextCardFacts:
    """One position's next-draw outcomes (exact) and the counts behind them."""

    labels: tuple[str, ...]
    probabilities: tuple[Fraction, ...]
    busted: tuple[bool, ...]
    p_bust: Fraction | None
    description: str


def lesson_next_card(position: LessonPosition) -> NextCardFacts:
    outcomes = position.solver.next_outcomes(position.state)
    return NextCardFacts(
        labels=tuple(o.label for o in outcomes),
        probabilities=tuple(Fraction(o.probability) for o in outcomes),
        busted=tuple(o.busted for o in outcomes),
        p_bust=None if not outcomes else Fraction(position.solver.p_bust_next(position.state)),
        description=position.model.describe(position.state),
    )


def bust_path(game: str, cards: Sequence[str], variant: Variant | None = None
              ) -> list[tuple[str, Fraction | None]]:
    """``p_bust_next`` before each card of ``cards`` is drawn and after the last one."""
    points: list[tuple[str, Fraction | None]] = []
    for k in range(len(cards) + 1):
        pos = lesson_position(game, " ".join(cards[:k]), variant)
        p = pos.solver.p_bust_next(pos.state)
        points.append((" ".join(cards[:k]) or "start", None if p is None else Fraction(p)))
    return points


def next_card_figure(facts: NextCardFacts | None, title: str = "The next card", *,
                     cards_left: int | None = None) -> go.Figure:
    """Bars: the probability of each outcome of one more draw; bust outcomes in vermillion,
    hatched.

    With ``cards_left`` the bars count cards instead (how many of the ``cards_left`` cards give
    each outcome): the chart before the question is answered, which shows the counts to divide
    but not the probabilities."""
    labels = list(facts.labels) if facts else []
    probs = list(facts.probabilities) if facts else []
    busted = list(facts.busted) if facts else []
    # bust bars hatched as on the Play pages' chart: not told by colour alone
    marker = {"color": [BUST_COLOUR if b else GAIN_COLOUR for b in busted],
              "pattern": {"shape": ["x" if b else "" for b in busted], "fgcolor": "#FFFFFF"}}
    if cards_left is not None:
        counts = [int(p * cards_left) for p in probs]
        bars = go.Bar(x=labels, y=counts, marker=marker,
                      text=[str(c) for c in counts], textposition="outside", cliponaxis=False,
                      customdata=[f"{c} of the {cards_left} cards left" for c in counts],
                      hovertemplate="%{x}<br>%{customdata}<extra></extra>", name="next draw")
        ytitle = "cards left"
    else:
        bars = go.Bar(x=labels, y=[float(p) for p in probs], marker=marker,
                      text=[short_fraction(p) for p in probs], textposition="outside",
                      cliponaxis=False, customdata=[probability_text(p) for p in probs],
                      hovertemplate="%{x}<br>%{customdata}<extra></extra>", name="next draw")
        ytitle = "probability"
    yaxis: dict[str, object] = {"title": ytitle, "rangemode": "tozero"}
    if cards_left is not None:
        # counts: the axis is not a probability's, so the figure it replaces in place (the
        # probabilities, clipped to [0, 1]) must not leave its clip behind
        yaxis["autorangeoptions"] = {"clipmin": 0, "clipmax": max(cards_left, 1)}
    fig = go.Figure(bars)
    fig.update_layout(**lesson_layout(title, yaxis=yaxis,
                                xaxis={"title": "outcome of one more draw", "type": "category"}))
    return fig


def cards_giving_each_outcome(facts: NextCardFacts, cards_left: int) -> bool:
    """Whether every outcome's probability is a whole number of the ``cards_left`` cards (so
    the chart can count cards before it shows probabilities)."""
    return cards_left > 0 and all((p * cards_left).denominator == 1
                                  for p in facts.probabilities)


def bust_path_figure(points: Sequence[tuple[str, Fraction | None]]) -> go.Figure:
    """A line: P(next draw busts) before each card of the turn."""
    xs = [str(i) for i in range(len(points))]
    ys = [None if p is None else float(p) for _, p in points]
    text = ["turn over" if p is None else short_fraction(p) for _, p in points]
    fig = go.Figure(go.Scatter(
        x=xs, y=ys, mode="lines+markers+text", text=text, textposition="top center",
        cliponaxis=False,  # the last point's label sits above the plot's top edge
        line={"color": BUST_COLOUR, "width": 3}, name="P(bust next)",
        customdata=[label for label, _ in points],
        hovertemplate="after: %{customdata}<br>P(bust next) %{text}<extra></extra>",
    ))
    fig.update_layout(**lesson_layout("Bust risk as cards leave the deck",
                                xaxis={"title": "cards drawn this turn"},
                                yaxis={"title": "P(next draw busts)", "rangemode": "tozero"}))
    return fig


class NextCardLesson(widgets.VBox):
    """Lesson 1: type or draw cards; the next-card chart and the bust-risk line follow."""

    def __init__(self, game: str | None = None, drawn: str = "", *, seed: int = 1,
                 games: Iterable[str] | None = None) -> None:
        """``game``: the game shown first (default: the first offered); ``games``: the games the
        dropdown offers, in order (default: every registered game whose turn draws cards)."""
        self.rng = random.Random(seed)
        choices = game_choices(games, draws_cards)
        self.game = widgets.Dropdown(options=choices, value=pick(game, choices),
                                     description="Game:")
        self.drawn = widgets.Text(continuous_update=False, value=drawn, description="Cards drawn:",
                                  placeholder="e.g. 5h 9s",
                                  style={"description_width": "initial"})
        self.draw_button = widgets.Button(description="Draw a random card",
                                          tooltip="Draw one card from what is left (seeded)")
        self.reset_button = widgets.Button(description="Empty the turn")
        self.message = widgets.HTML()
        self.counts = widgets.HTML()
        self.counts.add_class("pushluck-lesson-counts")
        self.outcome_fig = as_widget(next_card_figure(None), "next_card")
        self.path_fig = as_widget(bust_path_figure([]), "bust_risk")
        self.question = CheckAnswer("What is the probability that the next draw busts?",
                                    rule=COUNTED_PROBABILITY)
        self.hidden = hidden_note("")
        self._shown: tuple[LessonPosition, NextCardFacts, list[tuple[str, Fraction | None]],
                           int] | None = None
        self.question.observe(lambda _: self._show(), "revealed")
        self.draw_button.on_click(lambda _: self.draw_random())
        self.reset_button.on_click(lambda _: self.set_drawn(""))
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(lambda _: self.set_drawn(""), "value")
        super().__init__([
            widgets.HBox([self.game, self.drawn]),
            widgets.HBox([self.draw_button, self.reset_button]), self.message, self.counts,
            widgets.HBox([self.outcome_fig, self.path_fig]), self.hidden, self.question,
        ])
        self.add_class("pushluck-lesson")
        self.projector_switch = add_projector_switch(self, figures_of(self))
        self.refresh()
        sync_widget_state(*figures_of(self))

    def set_drawn(self, text: str) -> None:
        if self.drawn.value == text:
            self.refresh()
        else:
            self.drawn.value = text  # the observer refreshes

    def draw_random(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
        except BAD_INPUT as exc:
            self.message.value = message_html(str(exc), error=True)
            return
        if DRAW not in pos.model.actions(pos.state):
            self.message.value = message_html("This turn is over: empty the turn to start again.")
            return
        codes = remaining_cards(self.game.value, self.drawn.value)
        if not codes:
            self.message.value = message_html("No cards are left to draw.")
            return
        card = self.rng.choice(codes)
        trial = f"{self.drawn.value} {card}".strip()
        try:
            lesson_position(self.game.value, trial)
        except BAD_INPUT as exc:  # the card ended the turn: say so, keep the position
            self.message.value = message_html(f"You drew {card}: {exc}")
            return
        self.set_drawn(trial)

    def refresh(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
            facts = lesson_next_card(pos)
            cards = self.drawn.value.split()
            points = bust_path(self.game.value, cards)
            cards_left = len(remaining_cards(self.game.value, self.drawn.value))
        except BAD_INPUT as exc:
            self.show_error(str(exc))
            return
        self.message.value = message_html(f"Position: {facts.description}.")
        self._shown = (pos, facts, points, cards_left)
        self.question.set_answer(facts.p_bust)
        self._show()

    def _show(self) -> None:
        """The charts and the table: counts only until the question is answered (or Show
        answer pressed), then every probability."""
        if self._shown is None:
            return
        pos, facts, points, cards_left = self._shown
        answered = self.question.revealed or facts.p_bust is None
        countable = cards_giving_each_outcome(facts, cards_left)
        if answered:
            outcome = next_card_figure(facts, f"The next card: {pos.title}")
            path = bust_path_figure(points)
            self.hidden.value = ""
        else:
            outcome = next_card_figure(facts, f"{pos.title}: the next card, counted",
                                       cards_left=cards_left if countable else None)
            if not countable:
                outcome = next_card_figure(None, f"{pos.title}: the next card")
            path = bust_path_figure(points[:-1])
            self.hidden.value = (
                "<p class='pushluck-lesson-hidden'><i>The left chart counts the cards left "
                f"({cards_left} of them) that give each outcome; the probabilities, and the "
                "bust risk now (the right chart's last point), appear once you have answered "
                "or pressed Show answer.</i></p>")
        replace_figure(self.outcome_fig, outcome)
        replace_figure(self.path_fig, path)
        if answered:
            rows = "".join(
                f"<tr><td>{escape(label)}</td><td>{escape(probability_text(p))}</td>"
                f"<td>{'bust' if b else ''}</td></tr>"
                for label, p, b in zip(facts.labels, facts.probabilities, facts.busted,
                                       strict=True))
            total = probability_text(facts.p_bust) if facts.p_bust is not None else "n/a"
            exact = fraction_text(facts.p_bust, missing="")
            self.counts.value = (
                f"<p>P(next draw busts) = <b data-exact='{exact}' "
                f"class='pushluck-lesson-pbust'>{escape(total)}</b></p>"
                f"<details><summary>Every outcome as a fraction</summary><table>{rows}</table>"
                "</details>"
            )
        else:
            rows = "".join(
                f"<tr><td>{escape(label)}</td><td>{int(p * cards_left)}</td>"
                f"<td>{'bust' if b else ''}</td></tr>"
                for label, p, b in zip(facts.labels, facts.probabilities, facts.busted,
                                       strict=True)) if countable else ""
            self.counts.value = (
                f"<details><summary>Every outcome: how many of the {cards_left} cards left give "
                f"it</summary><table><tr><th>outcome</th><th>cards</th><th></th></tr>{rows}"
                "</table></details>" if rows else "")

    def show_error(self, text: str) -> None:
        """A bad position: the error line, and no chart, table or answer of an older one."""
        self.message.value = message_html(text, error=True)
        replace_figure(self.outcome_fig, next_card_figure(None))
        replace_figure(self.path_fig, bust_path_figure([]))
        self.counts.value = ""
        self.hidden.value = ""
        self._shown = None
        self.question.set_answer(None, no_answer="Fix the cards drawn first: " + text)
