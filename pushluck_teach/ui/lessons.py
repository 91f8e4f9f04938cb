"""Small widgets and figure builders for the lesson notebooks (``notebooks/Lesson_*``).

Every number a lesson shows comes from the exact solver (:mod:`pushluck_teach.solve.turn`) or
the Markov-chain tools (:mod:`pushluck_teach.solve.markov`); simulation (Lesson 4) only
illustrates.  Layout: pure data/figure functions first (``lesson_*`` / ``*_figure``: no widget
state), then thin widget classes that hold :class:`plotly.graph_objects.FigureWidget` objects and
rewrite them in place with ``batch_update`` when the student changes something.

A check-yourself question (:class:`CheckAnswer`) takes a typed answer (``3/25``, ``0.12``,
``12%``) and compares it with the tool's exact answer: a fraction must be equal exactly; a
decimal or a percentage must agree to the digits typed (at least two significant ones).
Bad input, an impossible position or a bad seed leave a one-line message, never a traceback.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import DRAW, RulesError, TurnModel, Variant, get_game
from pushluck_teach.sim import OptimalTurnBot, simulate_turns
from pushluck_teach.solve.markov import (
    TurnChain,
    absorbing_analysis,
    absorbing_analysis_exact,
    build_chain,
)
from pushluck_teach.solve.turn import TurnSolver
from pushluck_teach.ui.figures import (
    base_layout,
    live_figure,
    png_config,
    probability_text,
    value_text,
)
from pushluck_teach.ui.theme import (
    BUST_COLOUR,
    DRAW_ONCE_COLOUR,
    GAIN_COLOUR,
    OKABE_ITO,
    OPTIMAL_COLOUR,
    STOP_COLOUR,
    THRESHOLD_COLOUR,
)

Number = Fraction | float | int
BAD_INPUT = (RulesError, CardError, ValueError)

#: Lesson 3 draws the chain only up to this many states (a heatmap larger than this is noise).
CHAIN_DISPLAY_LIMIT = 120
#: Games whose turn is a draw from a deck of cards (Lesson 1 counts cards).
CARD_GAMES = ("lands-uncharted", "captain-seven", "hit-list")


# ---------------------------------------------------------------------------------------------
# answers


def parse_answer(text: str) -> tuple[Fraction, Fraction]:
    """``(value, tolerance)`` of a typed answer: ``3/25`` (exact, tolerance 0), ``0.12`` or
    ``12%`` (half a unit in the last digit typed).  Raises ValueError with a one-line message."""
    raw = text.strip().replace(" ", "").replace(",", ".")
    if not raw:
        raise ValueError("type an answer first, e.g. 3/25 or 0.12")
    percent = raw.endswith("%")
    body = raw[:-1] if percent else raw
    if "/" in body:
        num, _, den = body.partition("/")
        try:
            value = Fraction(int(num), int(den))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{text.strip()!r} is not a fraction like 3/25") from None
        return (value / 100 if percent else value), Fraction(0)
    try:
        dec = Decimal(body)
    except InvalidOperation:
        raise ValueError(f"{text.strip()!r} is not a number: type 3/25, 0.12 or 12%") from None
    if not dec.is_finite():
        raise ValueError(f"{text.strip()!r} is not a number")
    exponent = dec.as_tuple().exponent
    assert isinstance(exponent, int)
    value = Fraction(dec)
    tolerance = Fraction(1, 2) * Fraction(10) ** exponent if exponent < 0 else Fraction(0)
    if percent:
        value, tolerance = value / 100, tolerance / 100
    return value, tolerance


def check_answer(text: str, answer: Number) -> tuple[bool, str]:
    """Whether ``text`` is the exact ``answer`` (or agrees with it to the digits typed)."""
    try:
        value, tolerance = parse_answer(text)
    except ValueError as exc:
        return False, str(exc)
    exact = Fraction(answer)
    if tolerance == 0:
        if value == exact:
            return True, f"Right: exactly {value_text(exact)}."
        return False, "Not quite. Count again (a fraction must be exactly equal)."
    if abs(value - exact) <= tolerance:
        if 2 * tolerance > abs(exact) / 10:
            return False, "Give at least two significant digits (or the exact fraction)."
        return True, f"Right: the exact value is {value_text(exact)}."
    return False, "Not quite: try again, or type the exact fraction."


class CheckAnswer(widgets.VBox):
    """A question, a text box, a Check button and a Show-answer button.  ``set_answer`` changes
    the question's exact answer (it follows the position on screen)."""

    def __init__(self, question: str, answer: Number | None = None, *,
                 placeholder: str = "e.g. 3/25 or 0.12") -> None:
        self.answer: Number | None = answer
        self.question = widgets.HTML(f"<b>Check yourself.</b> {question}")
        self.text = widgets.Text(continuous_update=False, placeholder=placeholder,
                                 description="Your answer:",
                                 style={"description_width": "initial"})
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           tooltip="Check your answer against the exact solver")
        self.show_button = widgets.Button(description="Show answer")
        self.feedback = widgets.HTML("")
        self.check_button.add_class("pushluck-lesson-check")
        self.feedback.add_class("pushluck-lesson-feedback")
        self.check_button.on_click(lambda _: self.check())
        self.show_button.on_click(lambda _: self.reveal())
        self.text.observe(lambda _: self.text.value.strip() and self.check(), "value")
        super().__init__([self.question,
                          widgets.HBox([self.text, self.check_button, self.show_button]),
                          self.feedback])
        self.add_class("pushluck-lesson-question")

    def set_answer(self, answer: Number | None, question: str | None = None) -> None:
        self.answer = answer
        if question is not None:
            self.question.value = f"<b>Check yourself.</b> {question}"
        self.feedback.value = ""

    def check(self) -> bool:
        if self.answer is None:
            self.feedback.value = "There is no answer for this position (the turn is over)."
            return False
        ok, message = check_answer(self.text.value, self.answer)
        mark = "✔" if ok else "✘"
        colour = OKABE_ITO["bluish_green"] if ok else OKABE_ITO["vermillion"]
        self.feedback.value = (f'<span style="color:{colour};font-weight:700">{mark}</span> '
                               f"{escape(message)}")
        return ok

    def reveal(self) -> None:
        shown = "n/a" if self.answer is None else value_text(Fraction(self.answer))
        self.feedback.value = f"The exact answer: <b>{escape(shown)}</b>"


# ---------------------------------------------------------------------------------------------
# shared helpers


def _layout(title: str, *, width: int = 520, height: int = 340, **extra: Any) -> dict[str, Any]:
    """The table charts' layout, sized for a lesson (a closer legend, less bottom margin)."""
    lesson = {"margin": {"l": 60, "r": 20, "t": 55, "b": 60},
              "legend": {"orientation": "h", "y": -0.22, "x": 0}}
    return base_layout(title, width=width, height=height, **{**lesson, **extra})


def _as_widget(fig: go.Figure, filename: str) -> go.FigureWidget:
    # A LiveFigureWidget, not a plain FigureWidget: see pushluck_teach.ui.figures (Browser views).
    widget = live_figure(fig)
    widget._config = png_config(filename)
    return widget


def _replace(target: go.FigureWidget, source: go.Figure) -> None:
    """Rewrite ``target``'s traces and layout from ``source`` in place (same trace count)."""
    with target.batch_update():
        for old, new in zip(target.data, source.data, strict=True):
            old.update(new.to_plotly_json(), overwrite=True)
        target.layout.update(_layout_changes(source), overwrite=False)


def _sync_initial_state(*figures: go.FigureWidget) -> None:
    """Copy each figure's current data and layout into its synced widget state.

    A FigureWidget sends in-place updates as messages to the browser views that exist; one built
    and updated before any view exists (inside a parent widget, or in a Voilà pre-heated kernel
    that runs the notebook before the page is opened) would show its construction-time state.
    Call this after the first refresh, before the widget is displayed.
    """
    for fig in figures:
        fig._widget_data = deepcopy(fig._data)
        fig._widget_layout = deepcopy(fig._layout_obj._props)


def _figures_of(owner: Any) -> list[go.FigureWidget]:
    return [v for v in vars(owner).values() if isinstance(v, go.FigureWidget)]


def _layout_changes(source: go.Figure) -> dict[str, Any]:
    """The parts of a layout an update may change (the template is set once, at creation)."""
    layout = source.layout.to_plotly_json()
    layout.pop("template", None)
    return layout


def _short_fraction(value: Number) -> str:
    frac = Fraction(value)
    if frac.denominator <= 10**4:
        return f"{frac.numerator}/{frac.denominator}" if frac.denominator != 1 else str(frac)
    return f"{float(frac):.4f}"


def _message(text: str, error: bool = False) -> str:
    colour = OKABE_ITO["vermillion"] if error else "#333"
    return f'<div class="pushluck-lesson-message" style="color:{colour}">{escape(text)}</div>'


@dataclass(frozen=True)
class LessonPosition:
    """A solved position: the game's model and state and the exact solver for it."""

    game: str
    variant: Variant
    model: TurnModel[Any]
    state: Any
    solver: TurnSolver[Any]
    drawn: str

    @property
    def title(self) -> str:
        return get_game(self.game).title


def lesson_position(game: str, drawn: str = "", variant: Variant | str | None = None
                    ) -> LessonPosition:
    """Build and solve (exactly) ``game``'s position after ``drawn`` under ``variant`` (a preset
    name or a :class:`Variant`; default rules when None)."""
    spec = get_game(game)
    if isinstance(variant, str):
        if variant not in spec.presets:
            raise RulesError(f"unknown preset {variant!r} (presets: {', '.join(spec.presets)})")
        variant = spec.presets[variant]
    variant = variant or spec.variant_cls()
    kwargs = {"drawn": drawn} if drawn.strip() else {}
    model, state = spec.position(variant, **kwargs)
    return LessonPosition(game, variant, model, state, TurnSolver(model, exact=True), drawn)


# ---------------------------------------------------------------------------------------------
# Lesson 1: the next card


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


def next_card_figure(facts: NextCardFacts | None, title: str = "The next card") -> go.Figure:
    """Bars: the probability of each outcome of one more draw; bust outcomes in vermillion."""
    labels = list(facts.labels) if facts else []
    probs = list(facts.probabilities) if facts else []
    colours = [BUST_COLOUR if b else GAIN_COLOUR for b in (facts.busted if facts else ())]
    fig = go.Figure(go.Bar(
        x=labels, y=[float(p) for p in probs], marker={"color": colours},
        text=[_short_fraction(p) for p in probs], textposition="outside", cliponaxis=False,
        customdata=[probability_text(p) for p in probs],
        hovertemplate="%{x}<br>%{customdata}<extra></extra>", name="next draw",
    ))
    fig.update_layout(**_layout(title, yaxis={"title": "probability", "rangemode": "tozero"},
                                xaxis={"title": "outcome of one more draw", "type": "category"}))
    return fig


def bust_path_figure(points: Sequence[tuple[str, Fraction | None]]) -> go.Figure:
    """A line: P(next draw busts) before each card of the turn."""
    xs = [str(i) for i in range(len(points))]
    ys = [None if p is None else float(p) for _, p in points]
    text = ["turn over" if p is None else _short_fraction(p) for _, p in points]
    fig = go.Figure(go.Scatter(
        x=xs, y=ys, mode="lines+markers+text", text=text, textposition="top center",
        line={"color": BUST_COLOUR, "width": 3}, name="P(bust next)",
        customdata=[label for label, _ in points],
        hovertemplate="after: %{customdata}<br>P(bust next) %{text}<extra></extra>",
    ))
    fig.update_layout(**_layout("Bust risk as cards leave the deck",
                                xaxis={"title": "cards drawn this turn"},
                                yaxis={"title": "P(next draw busts)", "rangemode": "tozero"}))
    return fig


class NextCardLesson(widgets.VBox):
    """Lesson 1: type or draw cards; the next-card chart and the bust-risk line follow."""

    def __init__(self, game: str = "lands-uncharted", drawn: str = "5h 9s", *,
                 seed: int = 1) -> None:
        self.rng = random.Random(seed)
        names = [g for g in CARD_GAMES if _registered(g)] or ["pig"]
        self.game = widgets.Dropdown(options=[(get_game(g).title, g) for g in names],
                                     value=game if game in names else names[0],
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
        self.outcome_fig = _as_widget(next_card_figure(None), "next_card")
        self.path_fig = _as_widget(bust_path_figure([]), "bust_risk")
        self.question = CheckAnswer("What is the probability that the next draw busts?")
        self.draw_button.on_click(lambda _: self.draw_random())
        self.reset_button.on_click(lambda _: self.set_drawn(""))
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(lambda _: self.set_drawn(""), "value")
        super().__init__([
            widgets.HBox([self.game, self.drawn]),
            widgets.HBox([self.draw_button, self.reset_button]), self.message, self.counts,
            widgets.HBox([self.outcome_fig, self.path_fig]), self.question,
        ])
        self.add_class("pushluck-lesson")
        self.refresh()
        _sync_initial_state(*_figures_of(self))

    def set_drawn(self, text: str) -> None:
        if self.drawn.value == text:
            self.refresh()
        else:
            self.drawn.value = text  # the observer refreshes

    def draw_random(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
        except BAD_INPUT as exc:
            self.message.value = _message(str(exc), error=True)
            return
        if DRAW not in pos.model.actions(pos.state):
            self.message.value = _message("This turn is over: empty the turn to start again.")
            return
        codes = remaining_cards(self.game.value, self.drawn.value)
        if not codes:
            self.message.value = _message("No cards are left to draw.")
            return
        card = self.rng.choice(codes)
        trial = f"{self.drawn.value} {card}".strip()
        try:
            lesson_position(self.game.value, trial)
        except BAD_INPUT as exc:  # the card ended the turn: say so, keep the position
            self.message.value = _message(f"You drew {card}: {exc}")
            return
        self.set_drawn(trial)

    def refresh(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
            facts = lesson_next_card(pos)
            cards = self.drawn.value.split()
            points = bust_path(self.game.value, cards)
        except BAD_INPUT as exc:
            self.message.value = _message(str(exc), error=True)
            return
        self.message.value = _message(f"Position: {facts.description}.")
        _replace(self.outcome_fig, next_card_figure(facts, f"The next card: {pos.title}"))
        _replace(self.path_fig, bust_path_figure(points))
        rows = "".join(
            f"<tr><td>{escape(label)}</td><td>{escape(probability_text(p))}</td>"
            f"<td>{'bust' if b else ''}</td></tr>"
            for label, p, b in zip(facts.labels, facts.probabilities, facts.busted, strict=True)
        )
        total = probability_text(facts.p_bust) if facts.p_bust is not None else "n/a"
        self.counts.value = (
            f"<p>P(next draw busts) = <b data-exact='{_exact_attr(facts.p_bust)}' "
            f"class='pushluck-lesson-pbust'>{escape(total)}</b></p>"
            f"<details><summary>Every outcome as a fraction</summary><table>{rows}</table>"
            "</details>"
        )
        self.question.set_answer(facts.p_bust)


def _exact_attr(value: Number | None) -> str:
    if value is None:
        return ""
    frac = Fraction(value)
    return f"{frac.numerator}/{frac.denominator}"


def _registered(game: str) -> bool:
    try:
        get_game(game)
    except RulesError:
        return False
    return True


#: Jokers in each card game's deck (RULES.md); the others use one standard 52-card deck.
JOKERS = {"captain-seven": 2}


def remaining_cards(game: str, drawn: str) -> list[str]:
    """The codes of the cards not yet drawn this turn (with repeats), in a fixed order."""
    from pushluck_teach.cards import Deck, parse_cards

    deck = Deck.standard(jokers=JOKERS.get(game, 0))
    return [card.code for card in deck.remove(parse_cards(drawn)).cards()]


# ---------------------------------------------------------------------------------------------
# Lesson 2: when to stop


@dataclass(frozen=True)
class StopFacts:
    """Stop now, draw once then stop, and optimal play at one position (exact)."""

    ev_stop: Fraction | None
    ev_draw_once: Fraction | None
    ev_optimal: Fraction
    best_action: str
    lookahead_action: str
    description: str


def lesson_when_to_stop(position: LessonPosition) -> StopFacts:
    a = position.solver.analyse(position.state)
    stop = None if a.ev_stop is None else Fraction(a.ev_stop)
    once = None if a.ev_draw_once is None else Fraction(a.ev_draw_once)
    if stop is None:
        look = DRAW
    elif once is None:
        look = "stop"
    else:
        look = DRAW if once > stop else "stop"
    return StopFacts(stop, once, Fraction(a.ev_optimal), a.best_action, look,
                     position.model.describe(position.state))


def pig_stop_table(die_sides: int = 6, totals: Sequence[int] = range(0, 31)
                   ) -> list[tuple[int, StopFacts]]:
    """Pig's three values at every turn total (a turn that has already rolled)."""
    from pushluck_teach.games.pig import PigTurnModel, PigVariant

    model = PigTurnModel(PigVariant(die_sides=die_sides))
    solver = TurnSolver(model, exact=True)
    rows = []
    for t in totals:
        state = ("turn", t)
        pos = LessonPosition("pig", model.variant, model, state, solver, "")
        rows.append((t, lesson_when_to_stop(pos)))
    return rows


def stop_values_figure(rows: Sequence[tuple[Any, StopFacts]], xtitle: str,
                       title: str = "Stop, draw once, or play on?") -> go.Figure:
    """Three lines over positions: EV of stopping, of one more draw then stop, of optimal play."""
    xs = [str(x) for x, _ in rows]

    def ys(get: Callable[[StopFacts], Fraction | None]) -> list[float | None]:
        return [None if get(f) is None else float(get(f)) for _, f in rows]

    fig = go.Figure([
        go.Scatter(x=xs, y=ys(lambda f: f.ev_stop), name="stop now", mode="lines+markers",
                   line={"color": STOP_COLOUR, "width": 3}),
        go.Scatter(x=xs, y=ys(lambda f: f.ev_draw_once), name="draw once, then stop",
                   mode="lines+markers", line={"color": DRAW_ONCE_COLOUR, "width": 3,
                                                "dash": "dash"}),
        go.Scatter(x=xs, y=ys(lambda f: f.ev_optimal), name="optimal play",
                   mode="lines+markers", line={"color": OPTIMAL_COLOUR, "width": 3,
                                                "dash": "dot"}),
    ])
    fig.update_layout(**_layout(title, width=620, xaxis={"title": xtitle},
                                yaxis={"title": "expected points this turn"}))
    return fig


def choice_bars_figure(facts: StopFacts | None, title: str = "This position") -> go.Figure:
    names = ["stop now", "draw once, then stop", "optimal play"]
    values = [None, None, None] if facts is None else [facts.ev_stop, facts.ev_draw_once,
                                                      facts.ev_optimal]
    fig = go.Figure(go.Bar(
        x=names, y=[None if v is None else float(v) for v in values],
        text=["not allowed" if v is None else value_text(v) for v in values],
        textposition="outside", cliponaxis=False,
        marker={"color": [STOP_COLOUR, DRAW_ONCE_COLOUR, OPTIMAL_COLOUR]},
        hovertemplate="%{x}: %{text}<extra></extra>", name="expected value",
    ))
    fig.update_layout(**_layout(title, width=480, yaxis={"title": "expected points"}))
    return fig


class WhenToStopLesson(widgets.VBox):
    """Lesson 2: a position's three values, plus Pig's values across every turn total."""

    def __init__(self, game: str = "hit-list", drawn: str = "9h 6c", *,
                 pig_sides: int = 6) -> None:
        names = [g for g in ("pig", *CARD_GAMES) if _registered(g)]
        self.game = widgets.Dropdown(options=[(get_game(g).title, g) for g in names],
                                     value=game if game in names else "pig", description="Game:")
        self.drawn = widgets.Text(continuous_update=False, value=drawn,
                                  description="Cards (or rolls) drawn:",
                                  style={"description_width": "initial"})
        self.message = widgets.HTML()
        self.summary = widgets.HTML()
        self.bars = _as_widget(choice_bars_figure(None), "stop_or_draw")
        rows = pig_stop_table(pig_sides)
        self.pig_fig = _as_widget(stop_values_figure(rows, "Pig turn total"), "pig_stop_values")
        self.question = CheckAnswer(
            "What is the expected value of drawing exactly one more time and then stopping?")
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(lambda _: self.refresh(), "value")
        super().__init__([widgets.HBox([self.game, self.drawn]), self.message,
                          widgets.HBox([self.bars, self.summary]), self.question, self.pig_fig])
        self.add_class("pushluck-lesson")
        self.refresh()
        _sync_initial_state(*_figures_of(self))

    def refresh(self) -> None:
        try:
            pos = lesson_position(self.game.value, self.drawn.value)
            facts = lesson_when_to_stop(pos)
        except BAD_INPUT as exc:
            self.message.value = _message(str(exc), error=True)
            return
        self.message.value = _message(f"Position: {facts.description}.")
        _replace(self.bars, choice_bars_figure(facts, f"{pos.title}: this position"))
        agree = ("agree" if (facts.lookahead_action == "stop") == (facts.best_action == "stop")
                 else "<b>disagree</b>")
        self.summary.value = (
            "<table class='pushluck-lesson-values'>"
            f"<tr><td>stop now</td><td>{escape(value_text(facts.ev_stop))}</td></tr>"
            f"<tr><td>draw once, then stop</td><td>{escape(value_text(facts.ev_draw_once))}"
            "</td></tr>"
            f"<tr><td>optimal play</td><td>{escape(value_text(facts.ev_optimal))}</td></tr>"
            "</table>"
            f"<p>One-step lookahead says <b>{escape(facts.lookahead_action)}</b>; the optimal "
            f"policy says <b>{escape(facts.best_action)}</b>: they {agree}.</p>"
        )
        self.question.set_answer(facts.ev_draw_once)


# ---------------------------------------------------------------------------------------------
# Lesson 3: the turn as a Markov chain


def chain_heatmap_figure(chain: TurnChain) -> go.Figure:
    """The transition matrix ``P`` as a heatmap (hover: exact probabilities)."""
    n = chain.n_states
    z: list[list[float | None]] = [[None] * n for _ in range(n)]
    text = [[""] * n for _ in range(n)]
    for i, j, p in chain.edges:
        z[i][j] = float(p)
        text[i][j] = _short_fraction(p)
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
    fig.update_layout(**_layout(
        f"Transition matrix P ({t} transient | {n - t} absorbing)", width=560, height=520,
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
    fig.update_layout(**_layout(
        "The turn as a graph (● transient, ■ banked, × bust)",
        width=560, height=520, showlegend=False,
        xaxis={"title": "turn total"}, yaxis={"title": "draws so far (absorbing at the bottom)",
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


def lesson_chain(position: LessonPosition, threshold: int | None = None,
                 max_states: int = 20_000) -> ChainFacts:
    """The chain of a position under optimal play (``threshold`` None) or "stop at T"."""
    policy = (position.solver.best_action if threshold is None
              else position.solver.threshold_policy(threshold))
    chain = build_chain(position.model, policy, position.state, max_states=max_states)
    exact = absorbing_analysis_exact(chain, matrix_limit=0)
    floats = absorbing_analysis(chain, dense_limit=0)
    return ChainFacts(chain, exact.expected_draws[0], exact.expected_steps[0], exact.p_bust,
                      exact.distribution, float(floats.expected_draws[0]), floats.distribution)


#: Positions whose chains are small enough to draw: game -> (cards drawn, threshold or None).
CHAIN_EXAMPLES: dict[str, tuple[str, int | None]] = {
    "pig": ("", 20),
    "hit-list": ("5h 9s", None),
    "captain-seven": ("Kh Tc 5d", None),
}


class MarkovChainLesson(widgets.VBox):
    """Lesson 3: pick a position and a policy; see P as a heatmap and a graph, and N's answers."""

    def __init__(self, game: str = "pig", drawn: str = "", threshold: int | None = 20) -> None:
        names = [g for g in CHAIN_EXAMPLES if _registered(g)]
        self.game = widgets.Dropdown(options=[(get_game(g).title, g) for g in names],
                                     value=game if game in names else "pig", description="Game:")
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
        self.heatmap = _as_widget(go.Figure(go.Heatmap(z=[[0]])), "transition_matrix")
        self.graph = _as_widget(chain_graph_figure(_empty_chain()), "turn_graph")
        self.question = CheckAnswer(
            "How many draws does this turn make on average (the expected number of draws)?")
        self.drawn.observe(lambda _: self.refresh(), "value")
        self.game.observe(self._new_game, "value")
        for control in (self.policy, self.threshold):
            control.observe(lambda _: self.refresh(), "value")
        super().__init__([widgets.HBox([self.game, self.drawn]),
                          widgets.HBox([self.policy, self.threshold]), self.message,
                          widgets.HBox([self.heatmap, self.graph]), self.summary,
                          self.question])
        self.add_class("pushluck-lesson")
        self.refresh()
        _sync_initial_state(*_figures_of(self))

    def _new_game(self, _change: Any = None) -> None:
        self.drawn.value, threshold = CHAIN_EXAMPLES.get(self.game.value, ("", None))
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
            self.message.value = _message(text, error=True)
            return
        chain = facts.chain
        self.message.value = _message(
            f"{chain.n_transient} transient and {chain.n_absorbing} absorbing states.")
        _replace_all(self.heatmap, chain_heatmap_figure(chain))
        _replace(self.graph, chain_graph_figure(chain))
        rows = "".join(
            f"<tr><td>{escape(str(r))}</td><td>{escape(probability_text(p))}</td>"
            f"<td>{facts.scipy_distribution[r]:.6f}</td></tr>"
            for r, p in facts.distribution.items()
        )
        self.summary.value = (
            "<p>Expected draws before absorption (N·d): "
            f"<b>{escape(value_text(facts.expected_draws))}</b> "
            f"(SciPy: {facts.scipy_expected_draws:.6f}); expected steps (N·1): "
            f"{escape(value_text(facts.expected_steps))}; P(bust) = "
            f"<b>{escape(probability_text(facts.p_bust))}</b>.</p>"
            "<table><tr><th>result</th><th>absorption probability (exact)</th>"
            f"<th>SciPy</th></tr>{rows}</table>"
        )
        self.question.set_answer(facts.expected_draws)


def _replace_all(target: go.FigureWidget, source: go.Figure) -> None:
    with target.batch_update():
        target.data[0].update(source.data[0].to_plotly_json(), overwrite=True)
        target.layout.shapes = source.layout.shapes
        target.layout.update(_layout_changes(source), overwrite=False)


def _empty_chain() -> TurnChain:
    return TurnChain((), 0, (), (), (), (), (), ())


# ---------------------------------------------------------------------------------------------
# Lesson 4: exact vs simulation


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
    fig.update_layout(**_layout(title, width=700, height=380,
                                xaxis={"title": "simulated turns", "type": "log"},
                                yaxis={"title": "mean points per turn"}))
    return fig


class SimulationLesson(widgets.VBox):
    """Lesson 4: add seeded batches of simulated turns; watch the running mean close in."""

    def __init__(self, game: str = "pig", *, seed: int = 2024, batch: int = 1000) -> None:
        names = [g for g in ("pig", "hit-list", "lands-uncharted") if _registered(g)]
        self.game = widgets.Dropdown(options=[(get_game(g).title, g) for g in names],
                                     value=game if game in names else "pig", description="Game:")
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
        self.figure = _as_widget(simulation_figure(RunningMean((), (), ()), 0.0, ""),
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
        self.reset()
        _sync_initial_state(*_figures_of(self))

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
            self.message.value = _message(str(exc), error=True)
            return
        self.exact = Fraction(pos.solver.value(pos.state))
        self.question.set_answer(self.exact)
        self._draw(pos.title)
        self.message.value = _message("Click the button to simulate turns (optimal play).")

    def add(self, batches: int = 1) -> None:
        try:
            seed = self._seed()
        except ValueError as exc:
            self.message.value = _message(str(exc), error=True)
            return
        spec = get_game(self.game.value)
        for _ in range(batches):
            run = simulate_turns(spec, OptimalTurnBot(), self.batch,
                                 seed * 1_000_003 + self.batches)
            self.samples.extend(run.samples)
            self.batches += 1
        self.message.value = _message(f"{len(self.samples)} simulated turns so far.")
        self._draw(spec.title)

    def _draw(self, title: str) -> None:
        exact = float(self.exact or 0)
        run = running_mean(self.samples)
        _replace(self.figure, simulation_figure(run, exact, f"{title}: simulation vs exact"))
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


# ---------------------------------------------------------------------------------------------
# Lesson 5: rule variants


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
    fig.update_layout(**_layout("This turn's result under optimal play", width=700,
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

    def __init__(self, game: str = "lands-uncharted", drawn: str = "5h 9s 7c",
                 left: str = "standard", right: str = "buried-treasure") -> None:
        if not _registered(game):
            game, drawn, left, right = "pig", "6 6 5", "standard", "standard"
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
        self.figure = _as_widget(distribution_pair_figure({}, {}, ("A", "B")), "rule_variants")
        self.question = CheckAnswer(
            "By how much does the expected value under optimal play change from rules A to "
            "rules B (B minus A)?")
        self.drawn.observe(lambda _: self.refresh(), "value")
        for control in (self.left, self.right):
            control.observe(lambda _: self.refresh(), "value")
        super().__init__([widgets.HTML(f"<h3>{escape(spec.title)}</h3>"), self.drawn,
                          widgets.HBox([self.left, self.right]), self.message,
                          widgets.HBox([self.left_html, self.right_html]), self.figure,
                          self.question])
        self.add_class("pushluck-lesson")
        self.refresh()
        _sync_initial_state(*_figures_of(self))

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
            self.message.value = _message(str(exc), error=True)
            return
        (ln, lf, lp, ld), (rn, rf, rp, rd) = sides
        self.message.value = _message(f"Position: {lf.description}.")
        self.left_html.value = _facts_html(f"A: {ln}", lf, lp)
        self.right_html.value = _facts_html(f"B: {rn}", rf, rp)
        _replace(self.figure, distribution_pair_figure(ld, rd, (f"A: {ln}", f"B: {rn}")))
        self.question.set_answer(rf.ev_optimal - lf.ev_optimal)
