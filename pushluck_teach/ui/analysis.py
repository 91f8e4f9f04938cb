"""The live analysis panel: four exact charts of the current decision, updated after every card.

:func:`analyse_position` asks the one generic solver (:mod:`pushluck_teach.solve.turn`) about a
turn position ``(model, state)``; :class:`AnalysisPanel` shows the answer in four Plotly
``FigureWidget`` objects built once and then updated in place (see
:mod:`pushluck_teach.ui.figures`), each with its numbers as text beside it.

Number modes.  Probabilities of the next draw, ``p_bust_next`` and (by default) the expected
values are computed with the exact solver and shown as fractions; the two outcome distributions
use the float solver (their fractions have unwieldy denominators, and they are only drawn and
listed as decimals).  Solvers are memoised per turn model
(:func:`pushluck_teach.solve.turn.cached_solver`), so a click usually re-reads cached values.

What the model knows.  The position comes from ``Engine.turn_position()``: the turn as the
player to move knows it (this turn's cards, and whatever else the game's model counts as known,
such as a discard pile).  The charts describe *this turn's* result only, not the whole game.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
from traitlets import Bool, Enum, Float, Int, Unicode, observe

from pushluck_teach.games.base import (
    DRAW,
    STOP,
    OutsideChoice,
    PositionError,
    RulesError,
    TurnModel,
)
from pushluck_teach.solve import speedups
from pushluck_teach.solve.turn import Cancelled, cached_solver, watching
from pushluck_teach.ui import figures as F
from pushluck_teach.ui.accessibility import describe_chart
from pushluck_teach.ui.background import LatestOnly
from pushluck_teach.ui.projector import PROJECTOR_CHART_FONT, PROJECTOR_CHART_HEIGHT
from pushluck_teach.ui.theme import STYLESHEET

COACH_MODES = ("off", "after", "always")
Number = Fraction | float | int

#: what a student reads where a position is too large to work out on the page (the command
#: prints the technical detail: state counts and the solver's budget)
TOO_LARGE_HERE = ("This position can go on in too many ways to work out here in good time; "
                  "the chance of busting is exact.")
#: what the coach says while the expected values are worked out in the worker
COMPUTING_NOTE = "This position takes a while to work out — computing…"
#: the result chart is skipped up front for a turn whose solve stores more states than this
#: (its walk over every reachable position would take minutes), unless the solver pushes the
#: distribution forward on arrays (``TurnSolver.distributions_on_arrays``)
DISTRIBUTION_ESTIMATE_LIMIT = 600_000
#: ... and given up after this long (it then says so in plain words)
DISTRIBUTION_SECONDS = 40.0
_JARGON = ("state", "budget", "solver", "max_states", "memo", "Error", "float mode",
           "exact mode")


def plain_words(exc: BaseException | str) -> str:
    """A refusal or failure as a student reads it: no state counts, budgets, solver or Python
    names (the command line keeps those details)."""
    text = str(exc).strip()
    if not text or any(word in text for word in _JARGON) or "(" in text.split(" ")[0]:
        return TOO_LARGE_HERE
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


@dataclass(frozen=True)
class OutsideWindow:
    """A decision outside the turn model (another player's king relic): ``decider`` chooses
    during ``owner``'s turn, right after ``owner`` drew ``card``; ``choices`` say where each
    choice leaves ``owner``'s turn (:class:`~pushluck_teach.games.base.OutsideChoice`).  The
    coach recommends the choice that leaves ``owner``'s turn worth the least."""

    decider: str
    owner: str
    card: str
    choices: tuple[OutsideChoice, ...]


@dataclass(frozen=True)
class PositionNumbers:
    """Everything the panel shows about one decision, straight from the solver."""

    p_bust: Number | None
    outcomes: tuple[F.OutcomeBar, ...]
    choices: tuple[F.ChoiceBar, ...]
    best_action: str
    best_label: str
    best_key: str
    ev_optimal: Number
    turn_total: Number
    dist_optimal: dict[Number, Number] = field(default_factory=dict)
    dist_threshold: dict[Number, Number] = field(default_factory=dict)
    threshold: int = 0
    description: str = ""
    exact_values: bool = True
    pending: str = ""  # why the expected values are not here yet ("" when they are)
    #: with ``pending``: a quick guide's recommendation meanwhile ("" when there is none)
    guide: str = ""
    #: the decision outside the turn model these numbers compare (a king window), if any
    window: OutsideWindow | None = None

    @property
    def computing(self) -> bool:
        """The expected values are still being worked out (``pending`` is not a refusal)."""
        return self.pending == COMPUTING_NOTE


def _default_label(action: str) -> str:
    return {DRAW: "Draw", STOP: "Stop"}.get(action, action)


def threshold_distribution(model: TurnModel[Any], state: Any, threshold: int, *,
                           max_states: int | None = None) -> dict[Number, Number]:
    """This turn's result distribution when stopping once the turn total reaches ``threshold``."""
    solver = cached_solver(model, False)
    return solver.distribution(state, solver.threshold_policy(threshold), max_states=max_states)


def turn_distributions(model: TurnModel[Any], state: Any, threshold: int, *,
                       max_states: int | None = None
                       ) -> tuple[dict[Number, Number], dict[Number, Number]]:
    """This turn's result distribution from ``state``: optimal play, and stop at ``threshold``
    (float solver: a forward pass of probability mass over the policy's reachable states;
    PositionError when more than ``max_states`` states are reachable)."""
    optimal = cached_solver(model, False).distribution(state, max_states=max_states)
    return optimal, threshold_distribution(model, state, threshold, max_states=max_states)


def analyse_position(model: TurnModel[Any], state: Any, *, threshold: int,
                     action_label: Callable[[str], str] | None = None,
                     exact_values: bool | None = None, exact_state_limit: int = 20_000,
                     distributions: bool = True) -> PositionNumbers:
    """The solver's numbers for a decision state (raises PositionError for a finished turn).

    Probabilities (``p_bust_next``, every outcome of the next draw) are always exact.  Expected
    values are exact when ``exact_values`` is True, floats when False, and with None exact only
    when the turn from here has at most ``exact_state_limit`` states (the model's estimate, else
    the states the float solver needed; a shipped table's states do not count) (an exact
    solve of a big turn costs seconds; the CLI's ``--exact`` gives those fractions).
    ``distributions=False`` leaves the two distributions empty (the panel computes them
    separately, off the click's critical path).
    """
    label = action_label or _default_label
    actions = model.actions(state)
    if not actions:
        raise PositionError("the turn is over: nothing to analyse")
    floats = cached_solver(model, False)
    analysis = floats.analyse(state)
    if exact_values is None:  # the turn's size from here: the model's estimate, or the solve
        size = speedups.estimated_states(model, state)
        if size is None:
            size = floats.states_solved() - floats.states_seeded()
        exact_values = size <= exact_state_limit
    exact = cached_solver(model, True)
    if exact_values:
        analysis = exact.analyse(state)
    outcomes = tuple(
        F.OutcomeBar(o.label, o.probability, o.busted, o.total_after)
        for o in exact.next_outcomes(state)
    )
    p_bust = exact.p_bust_next(state)
    choices = [
        F.ChoiceBar("stop", f"stop now ({label(STOP)})", analysis.ev_stop),
        F.ChoiceBar("draw_once", draw_once_label(model, state, label), analysis.ev_draw_once),
        F.ChoiceBar("optimal", "optimal play", analysis.ev_optimal),
    ]
    choices.extend(
        F.ChoiceBar(f"action:{a}", label(a), analysis.action_values[a])
        for a in actions if a not in (DRAW, STOP)
    )
    best = analysis.best_action
    best_key = {STOP: "stop", DRAW: "optimal"}.get(best, f"action:{best}")
    dist_optimal: dict[Number, Number] = {}
    dist_threshold: dict[Number, Number] = {}
    if distributions:
        dist_optimal, dist_threshold = turn_distributions(model, state, threshold)
    return PositionNumbers(
        p_bust=p_bust,
        outcomes=outcomes,
        choices=tuple(choices),
        best_action=best,
        best_label=label(best),
        best_key=best_key,
        ev_optimal=analysis.ev_optimal,
        turn_total=analysis.turn_total,
        dist_optimal=dist_optimal,
        dist_threshold=dist_threshold,
        threshold=threshold,
        description=model.describe(state),
        exact_values=bool(exact_values),
    )


def draw_once_label(model: TurnModel[Any], state: Any, label: Callable[[str], str]) -> str:
    """"Draw once, then stop", or "... stop as soon as allowed" where some card of the next
    draw leaves a position in which stopping is not allowed (Hit List below 15, an ace's value
    to choose): the value shown is that of stopping at the first chance."""
    if DRAW not in model.actions(state):
        return f"{label(DRAW)} once, then stop"
    for _weight, nxt in model.transitions(state, DRAW):
        actions = model.actions(nxt)
        if actions and STOP not in actions:
            return f"{label(DRAW)}, then stop as soon as allowed"
    return f"{label(DRAW)} once, then stop"


def quick_guide(model: TurnModel[Any], state: Any) -> str | None:
    """The cheap recommendation where the expected values of optimal play cannot be worked
    out here: stopping now against one more card then stopping as soon as allowed (both exact
    and quick); None where there is no such choice."""
    actions = model.actions(state)
    if DRAW not in actions:
        return None
    if STOP not in actions:
        return DRAW
    solver = cached_solver(model, False)
    draw_once = solver.then_stop_asap_value(state, DRAW)
    stop_now = model.stop_payoff(state)
    if stop_now is None:  # leaving does not bank at once (other explorers still inside)
        stop_now = solver.then_stop_asap_value(state, STOP)
    return DRAW if float(draw_once) > float(stop_now) else STOP


def window_quick_guide(model: TurnModel[Any], window: OutsideWindow) -> str:
    """The cheap recommendation at a decision outside the turn model while its values are not
    here: the choice after which the owner's turn, stopped as soon as allowed, is worth the
    least (exact and quick)."""
    solver = cached_solver(model, False)

    def quick(choice: OutsideChoice) -> float:
        if choice.then is None:
            return float(solver.stop_asap_value(choice.state))
        return float(solver.then_stop_asap_value(choice.state, choice.then))

    return min(window.choices, key=quick).action


def next_draw_numbers(model: TurnModel[Any], state: Any
                      ) -> tuple[Number | None, tuple[F.OutcomeBar, ...]]:
    """The cheap part of an analysis (within 100 ms whatever the rest costs): the
    bust chance of the next draw and its outcomes, exact."""
    exact = cached_solver(model, True)
    outcomes = tuple(F.OutcomeBar(o.label, o.probability, o.busted, o.total_after)
                     for o in exact.next_outcomes(state))
    return exact.p_bust_next(state), outcomes


def percent_text(value: Number | None) -> str:
    """``value`` (already in percent) for people: ``100 %``, ``88.2 %``, ``0 %``; ``n/a`` for
    None."""
    if value is None:
        return "n/a"
    shown = f"{float(value):.1f}"
    return f"{shown[:-2] if shown.endswith('.0') else shown} %"


def separating_percents(values: list[Number | None]) -> list[str]:
    """``values`` (in percent) as :func:`percent_text` would show them, but with as many
    decimals as it takes (up to six) for different values to read differently: ``82.81 %`` and
    ``82.84 %``, never ``82.8 %`` twice."""
    shown = [float(v) for v in values if v is not None]
    decimals = 1
    while decimals < 6:
        texts = {f"{v:.{decimals}f}" for v in shown}
        if len(texts) == len(set(shown)):
            break
        decimals += 1
    if decimals == 1:
        return [percent_text(v) for v in values]
    return ["n/a" if v is None else f"{float(v):.{decimals}f} %" for v in values]


def p_bust_span(p_bust: Number | None) -> str:
    """The DOM hook the browser test reads: the exact ``p_bust_next`` as ``data-exact``."""
    exact = F.fraction_text(p_bust)
    shown = F.probability_text(p_bust) if p_bust is not None else "n/a (drawing is not legal)"
    return f'<span class="pushluck-p-bust" data-exact="{exact}">{escape(shown)}</span>'


def numbers_hook(numbers: PositionNumbers | None) -> str:
    """The DOM hook the browser test reads: every number the panel states about the decision,
    as data attributes of a hidden span (``data-p-bust``, ``data-ev-stop``,
    ``data-ev-draw-once``, ``data-ev-optimal`` as exact fractions, or as floats when
    ``data-exact-values`` is ``"false"``; ``data-best`` the best action; "none" when absent)."""
    if numbers is None:
        return '<span class="pushluck-numbers-hook" hidden data-best="none"></span>'
    values = {choice.key: choice.value for choice in numbers.choices}

    def shown(value: Number | None) -> str:
        if value is None:
            return "none"
        return F.fraction_text(value) if numbers.exact_values else repr(float(value))

    attributes = {
        "p-bust": F.fraction_text(numbers.p_bust) if numbers.p_bust is not None else "none",
        "ev-stop": shown(values.get("stop")),
        "ev-draw-once": shown(values.get("draw_once")),
        "ev-optimal": shown(numbers.ev_optimal),
        "best": numbers.best_action,
        "exact-values": "true" if numbers.exact_values else "false",
    }
    data = " ".join(f'data-{k}="{escape(str(v), quote=True)}"' for k, v in attributes.items())
    return f'<span class="pushluck-numbers-hook" hidden {data}></span>'


class AnalysisPanel(widgets.VBox):
    """Four exact charts of one decision, updated in place.

    Public traits: ``coach`` ("off" hides the panel; "after" and "always" show it — which
    position is shown is the table's choice), ``threshold`` (T of the threshold policy),
    ``exact_values`` ("auto": exact expected values for turns of at most ``exact_state_limit``
    states, else floats; probabilities are always exact), ``background`` (compute the outcome
    distributions in a worker thread so a click returns at once; the chart follows when ready),
    ``distribution_state_limit`` (the distributions are skipped, with a note, while more states
    than this are reachable: early in an Incan Gold round, say), ``p_bust_exact`` (the fraction
    in the ``pushluck-p-bust`` span), ``last_update_ms`` (kernel time of the last click's
    synchronous update) and ``last_distribution_ms``.
    """

    coach = Enum(COACH_MODES, default_value="always")
    threshold = Int(20)
    exact_values = Enum(("auto", "exact", "float"), default_value="auto")
    exact_state_limit = Int(5_000)
    background = Bool(True)
    distribution_state_limit = Int(300_000)
    p_bust_exact = Unicode("n/a")
    #: the action the coach recommends now ("draw", "stop", ...) and for which objective
    recommended = Unicode("")
    objective_shown = Unicode("points")
    last_update_ms = Float(0.0)
    last_distribution_ms = Float(0.0)
    click_budget_ms = Float(150.0)
    computing = Bool(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("pushluck-analysis")
        # One figure brings plotly's 5 MB widget bundle to the page; the others share it.
        self.fig_next = F.make_next_card_figure()
        self.fig_bust = F.make_bust_line_figure(carry_bundle=False)
        self.fig_choice = F.make_choice_figure(carry_bundle=False)
        self.fig_dist = F.make_distribution_figure(carry_bundle=False)
        self.text_next = widgets.HTML()
        self.text_bust = widgets.HTML()
        self.text_choice = widgets.HTML()
        self.text_dist = widgets.HTML()
        self.headline = widgets.HTML()
        self.threshold_slider = widgets.IntSlider(
            value=self.threshold, min=0, max=60, step=1, continuous_update=False,
            description="Stop at T =", style={"description_width": "initial"},
            layout=widgets.Layout(width="auto", max_width="420px"),
        )
        widgets.link((self.threshold_slider, "value"), (self, "threshold"))
        self._model: TurnModel[Any] | None = None
        self._state: Any = None
        self._label: Callable[[str], str] = _default_label
        self._window: OutsideWindow | None = None
        #: results already worked out: optimal by (model, state), by T by (model, state, T)
        self._dist_cache: dict[Any, dict[Number, Number]] = {}
        self._turn_key: Hashable = None
        self._history: list[tuple[str, Number | None]] = []
        self._history_states: list[Any] = []
        self._dist_lock = threading.RLock()
        self._task: LatestOnly[Any] = LatestOnly("pushluck-distribution")
        self._pending_values: tuple[Any, ...] | None = None
        self.progress = widgets.FloatProgress(value=0.0, min=0.0, max=1.0,
                                              description="Working", bar_style="info")
        self.progress_text = widgets.HTML()
        self.progress_box = widgets.HBox([self.progress, self.progress_text],
                                         layout=widgets.Layout(display="none"))
        self.progress_box.add_class("pl-progress")

        def cell(fig: widgets.DOMWidget, text: widgets.HTML, key: str, *extra: widgets.Widget
                 ) -> widgets.VBox:
            holder = widgets.Box([fig], layout=widgets.Layout(min_height=f"{F.FIGURE_HEIGHT}px"))
            holder.add_class("pl-figure-holder")
            text.add_class("pl-numbers-text")
            describe_chart(fig, text)
            box = widgets.VBox([holder, *extra, text], layout=widgets.Layout(margin="4px"))
            box.add_class("pl-cell")
            box.add_class(f"pl-cell-{key}")
            return box

        grid = self.grid = widgets.HBox(
            [cell(self.fig_next, self.text_next, "main"),
             cell(self.fig_bust, self.text_bust, "extra"),
             cell(self.fig_choice, self.text_choice, "main"),
             cell(self.fig_dist, self.text_dist, "extra", self.threshold_slider)],
            # as wide as its holder (a flex row, where it would shrink to its cells' minimum)
            layout=widgets.Layout(width="100%"),
        )
        grid.add_class("pl-grid")  # a CSS grid: as many columns as fit (theme.PAGE_CSS)
        # the page's CSS shows the grid whatever its own display says: its holder folds away
        self.grid_box = widgets.Box([grid], layout=widgets.Layout(width="100%"))
        self.details_toggle = widgets.ToggleButton(
            value=False, description="Show every chart and number table",
            tooltip="Projector mode folds the bust-risk and distribution charts and the number "
                    "tables away; this opens them",
            layout=widgets.Layout(width="auto"))
        self.details_toggle.add_class("pl-details-toggle")
        self.details_toggle.observe(self._on_details, names="value")
        self.children = [widgets.HTML(STYLESHEET), self.headline, self.progress_box,
                         self.details_toggle, self.grid_box]
        self.show_nothing("No decision to analyse yet.")
        self._apply_coach()

    # ---- projector mode -------------------------------------------------------------------
    def set_projector(self, on: bool) -> None:
        """Projector mode: the next-draw and value-of-the-choice charts side by side, as wide
        as the screen allows, in the projector's chart height and type size
        (:mod:`pushluck_teach.ui.projector`); the other charts and the number tables fold away
        (one click on ``details_toggle`` opens them)."""
        height, font = ((PROJECTOR_CHART_HEIGHT, PROJECTOR_CHART_FONT) if on
                        else (F.FIGURE_HEIGHT, F.FIGURE_FONT))
        for fig in self.figures:
            with fig.batch_update():
                fig.layout.height = height
                fig.layout.font.size = font
        self._publish(*self.figures)
        if on:
            self.add_class("pl-projector")
        else:
            self.remove_class("pl-projector")
        self._on_details({"new": self.details_toggle.value})

    def _on_details(self, change: Any) -> None:
        if change["new"]:
            self.add_class("pl-details-open")
        else:
            self.remove_class("pl-details-open")

    # ---- visibility -----------------------------------------------------------------------
    @observe("coach")
    def _coach_changed(self, _change: Any) -> None:
        self._apply_coach()

    def _apply_coach(self) -> None:
        self.layout.display = "none" if self.coach == "off" else "flex"

    @property
    def figures(self) -> tuple[Any, ...]:
        return (self.fig_next, self.fig_bust, self.fig_choice, self.fig_dist)

    # ---- updates --------------------------------------------------------------------------
    def reset_turn(self) -> None:
        """Forget this turn's bust-risk history (a new game)."""
        self._turn_key = None
        self._history = []
        self._history_states = []

    def show_nothing(self, text: str) -> None:
        """Empty charts and a one-line explanation (game over, a bot to move, coach waiting)."""
        self._task.supersede()
        self._pending_values = None
        self._hide_progress()
        self._model = None
        self._state = None
        self.p_bust_exact = "n/a"
        self.recommended = ""
        # No "n/a" beside empty charts: the charts fold away until there is a decision; the
        # p-bust hook stays in the page, empty and hidden.
        self.headline.value = (f"<div class='pushluck-headline'>{escape(text)} "
                               '<span class="pushluck-p-bust" data-exact="n/a" hidden></span>'
                               f"{numbers_hook(None)}"
                               "</div>")
        self.grid.layout.display = "none"
        self.grid_box.layout.display = "none"
        self.details_toggle.layout.display = "none"
        F.update_next_card(self.fig_next, (), None)
        F.update_bust_line(self.fig_bust, self._history)
        F.update_choice(self.fig_choice, (), None, "Value of the choice")
        self._publish(self.fig_next, self.fig_bust, self.fig_choice)
        with self._dist_lock:
            F.update_distribution(self.fig_dist, {}, {}, self.threshold)
            self._publish(self.fig_dist)
        for text_widget in (self.text_next, self.text_choice, self.text_dist):
            text_widget.value = ""
        self.text_bust.value = F.bust_line_html(self._history) if self._history else ""

    def show(self, model: TurnModel[Any], state: Any, *, turn_key: Hashable = None,
             who: str = "", step_label: str | None = None, decided: str | None = None,
             action_label: Callable[[str], str] | None = None,
             win_chances: Mapping[str, float | None] | None = None,
             window: OutsideWindow | None = None) -> PositionNumbers:
        """Analyse ``(model, state)`` and update every chart in place.

        ``window``: the decision is outside the turn model (another player's king relic on
        this turn): the charts describe ``window.owner``'s turn and the coach compares the
        choices of ``window`` by what they leave that turn worth (win chances are ignored).

        ``turn_key`` identifies the turn (a new key starts a new bust-risk line); ``decided``
        is the label of the action just taken (coach "after"): the headline then compares it
        with the recommendation.  ``win_chances`` (``{"draw": p, "stop": p or None}``, from the
        whole-game solution) switches the coach to the best chance to win: the recommendation,
        the value-of-the-choice chart and the headline then compare the chances to win; the
        next-draw, bust-risk and distribution charts still describe this turn.

        Never frozen: the next draw's outcomes and bust chance are shown at once.
        With ``background`` on, the expected values get ``click_budget_ms`` on the click path;
        if they need longer they continue in the worker thread with a progress bar (the
        returned numbers then have ``pending`` set), and a newer click or position cancels
        that computation (the solver stops at its next checkpoint).  A position over the
        solver's budget shows the cheap numbers and the refusal.
        """
        started = time.perf_counter()
        self._label = action_label or _default_label
        generation = self._task.supersede()
        self._model, self._state = model, state
        self.grid.layout.display = "flex"  # explicit: a null display does not reach the static site
        self.grid_box.layout.display = "flex"
        self.details_toggle.layout.display = "flex"
        self._window = window
        self.text_dist.value = ("<div class='pushluck-numbers pushluck-pending'>This turn's "
                                "result chart follows the expected values.</div>")
        self._pending_values = None
        self._hide_progress()
        try:
            p_bust, outcomes = next_draw_numbers(model, state)
        except PositionError as exc:  # even the next draw is over the solver's budget
            self.show_nothing(plain_words(exc))
            return self._waiting(model, state, None, (), plain_words(exc))
        if window is not None:
            win_chances = None
        self._render_next_draw(state, p_bust, outcomes, turn_key, step_label)
        try:
            if self.background:
                deadline = started + self.click_budget_ms / 1000

                def on_the_clock(_solved: int) -> None:
                    if time.perf_counter() > deadline:
                        raise Cancelled("the click's time is up")

                with watching(on_the_clock):
                    numbers = self._analyse(model, state, window)
            else:
                numbers = self._analyse(model, state, window)
        except Cancelled:
            numbers = self._waiting(model, state, p_bust, outcomes, COMPUTING_NOTE, window)
            self._render_values(numbers, who, decided)
            self._start_values(model, state, generation, who, decided, win_chances)
        except PositionError as exc:
            numbers = self._waiting(model, state, p_bust, outcomes, plain_words(exc), window)
            self._render_values(numbers, who, decided)
            self._too_big(generation, exc)
        else:
            self._render_values(numbers, who, decided, win_chances)
            self._start_distributions()
        self.last_update_ms = 1000 * (time.perf_counter() - started)
        return numbers

    def _analyse(self, model: TurnModel[Any], state: Any,
                 window: OutsideWindow | None = None) -> PositionNumbers:
        mode = {"auto": None, "exact": True, "float": False}[self.exact_values]
        numbers = analyse_position(model, state, threshold=self.threshold,
                                   action_label=self._label, exact_values=mode,
                                   exact_state_limit=self.exact_state_limit,
                                   distributions=False)
        if window is None:
            return numbers
        return self._window_numbers(model, numbers, window)

    def _window_numbers(self, model: TurnModel[Any], numbers: PositionNumbers,
                        window: OutsideWindow) -> PositionNumbers:
        """The choices of a decision outside the turn model, valued by what each leaves the
        owner's turn worth (the least is recommended: it is another player's turn)."""
        solver = cached_solver(model, numbers.exact_values)
        bars = []
        for choice in window.choices:
            analysis = solver.analyse(choice.state)
            value = (analysis.ev_optimal if choice.then is None
                     else analysis.action_values[choice.then])
            bars.append(F.ChoiceBar(f"action:{choice.action}",
                                    f"{self._label(choice.action)}", value))
        best = min(bars, key=lambda bar: float(bar.value))  # the first on a tie
        action = best.key.removeprefix("action:")
        return dataclasses.replace(numbers, choices=tuple(bars), best_action=action,
                                   best_label=self._label(action), best_key=best.key,
                                   window=window)

    def _waiting(self, model: TurnModel[Any], state: Any, p_bust: Number | None,
                 outcomes: tuple[F.OutcomeBar, ...], why: str,
                 window: OutsideWindow | None = None) -> PositionNumbers:
        """The numbers of a position whose expected values are not here (yet), with a quick
        guide's recommendation meanwhile."""
        try:
            guide = (quick_guide(model, state) or "" if window is None
                     else window_quick_guide(model, window))
        except (RulesError, Cancelled):  # a guide is a help: never fail the update for it
            guide = ""
        return PositionNumbers(
            p_bust=p_bust, outcomes=outcomes, choices=(), best_action="", best_label="",
            best_key="", ev_optimal=math.nan, turn_total=model.turn_total(state),
            threshold=self.threshold, description=model.describe(state), pending=why,
            guide=guide, window=window,
        )

    def _render_next_draw(self, state: Any, p_bust: Number | None,
                          outcomes: tuple[F.OutcomeBar, ...], turn_key: Hashable,
                          step_label: str | None) -> None:
        self._record(state, p_bust, turn_key, step_label)
        F.update_next_card(self.fig_next, outcomes, p_bust)
        F.update_bust_line(self.fig_bust, self._history)
        self._publish(self.fig_next, self.fig_bust)
        total = self._model.turn_total(state) if self._model is not None else None
        self.text_next.value = F.next_card_html(outcomes, p_bust, total)
        self.text_bust.value = F.bust_line_html(self._history)
        self.p_bust_exact = F.fraction_text(p_bust)

    def _render_values(self, numbers: PositionNumbers, who: str, decided: str | None,
                       win_chances: Mapping[str, float | None] | None = None) -> None:
        if numbers.pending:
            F.update_choice(self.fig_choice, (), None, "Value of the choice")
            # only numbers still being worked out are marked so (a refusal is final)
            marks = " pushluck-pending" if numbers.computing else ""
            self.text_choice.value = (f"<div class='pushluck-numbers{marks}'>"
                                      f"{escape(numbers.pending)}</div>")
            self._publish(self.fig_choice)
            self.headline.value = self._headline(numbers, who, decided)
            self.recommended = numbers.guide
            return
        window = numbers.window
        F.update_choice(self.fig_choice, numbers.choices, numbers.best_key,
                        f"Value of the choice: best is {numbers.best_label}" if window is None
                        else f"{window.owner}'s turn is worth: least after {numbers.best_label}")
        self.fig_choice.layout.yaxis.title.text = (
            "expected result of the turn" if window is None
            else f"expected result of {window.owner}'s turn")
        self._publish(self.fig_choice)
        self.text_choice.value = F.choice_html(numbers.choices, numbers.best_label,
                                               exact=numbers.exact_values)
        self.headline.value = self._headline(numbers, who, decided)
        self.recommended = numbers.best_action
        self.objective_shown = "points"
        if win_chances is not None:
            self._show_win_objective(numbers, win_chances, who, decided)

    # ---- expected values in the worker thread (positions that take long) -----------------
    def _start_values(self, model: TurnModel[Any], state: Any, generation: int, who: str,
                      decided: str | None,
                      win_chances: Mapping[str, float | None] | None = None) -> None:
        self._pending_values = (model, state, who, decided, win_chances)
        threshold = self.threshold
        window = self._window
        try:  # what the float solver will store (a level solve stores no inline choices)
            estimate = cached_solver(model, False).estimated_states(state)
        except Exception:  # an estimate only sizes the bar
            estimate = None
        begun = time.perf_counter()
        shown = [begun]
        most = [0]  # the bar only grows (a later step, the distribution's walk, counts anew)
        self._show_progress(0, estimate, 0.0)

        def check(solved: int) -> None:
            if not self._task.is_latest(generation):
                raise Cancelled("a newer position was asked for")
            most[0] = max(most[0], solved)
            now = time.perf_counter()
            if now - shown[0] >= 0.25:
                shown[0] = now
                with self._dist_lock:  # never a bar over a newer position's numbers
                    if self._task.is_latest(generation):
                        self._show_progress(most[0], estimate, now - begun)

        def work() -> tuple[PositionNumbers, Any]:
            with watching(check):
                numbers = self._analyse(model, state, window)
            try:
                dists: Any = self._timed_distributions(model, state, threshold, generation)
            except (PositionError, Cancelled) as exc:
                dists = exc
            return numbers, dists

        self._task.submit(work, lambda done: self._values_done(done, generation, threshold,
                                                               who, decided, win_chances))

    def _values_done(self, done: Future[Any], generation: int, threshold: int, who: str,
                     decided: str | None,
                     win_chances: Mapping[str, float | None] | None = None) -> None:
        try:
            numbers, dists = done.result()
        except Cancelled:
            return
        except Exception as exc:  # a refusal, or never a traceback from the worker
            with self._dist_lock:
                if self._task.is_latest(generation):
                    self._hide_progress()
                    pending = self._pending_values
                    self._pending_values = None
                    if pending is not None:
                        model, state = pending[0], pending[1]
                        waiting = self._waiting(model, state, self._last_p_bust(),
                                                (), plain_words(exc), self._window)
                        self._render_values(waiting, who, decided)
                    self.text_dist.value = (f"<div class='pushluck-numbers'>"
                                            f"{escape(plain_words(exc))}</div>")
            return
        with self._dist_lock:
            if not self._task.is_latest(generation):
                return
            self._hide_progress()
            self._pending_values = None
            self._render_values(numbers, who, decided, win_chances)
        if isinstance(dists, Cancelled):
            self._distribution_stopped(generation, dists)
        elif isinstance(dists, PositionError):
            self._too_big(generation, dists)
        else:
            self._finish_distributions(generation, threshold, *dists)

    def _last_p_bust(self) -> Number | None:
        return self._history[-1][1] if self._history else None

    def _show_progress(self, solved: int, estimate: int | None, elapsed: float) -> None:
        if estimate:
            self.progress.value = min(0.99, solved / estimate)
            done = f"{100 * self.progress.value:.0f} %, "
        else:
            self.progress.value = (elapsed % 2.0) / 2.0  # no estimate: a moving bar
            done = ""
        self.progress_text.value = (f"<span class='pushluck-progress'>This position takes a "
                                    f"while to work out — computing… {done}{elapsed:.1f} s"
                                    "</span>")
        self.progress_box.layout.display = "flex"
        self.computing = True

    def _hide_progress(self) -> None:
        self.progress_box.layout.display = "none"
        self.computing = False

    # ---- distributions (possibly in a worker thread) -------------------------------------
    def _start_distributions(self) -> None:
        model, state, threshold, generation = (self._model, self._state, self.threshold,
                                               self._task.generation)
        if model is None:
            return
        if not self.background:
            try:
                result = self._timed_distributions(model, state, threshold)
            except PositionError as exc:
                self._too_big(generation, exc)
                return
            self._finish_distributions(generation, threshold, *result)
            return
        self.text_dist.value = ("<div class='pushluck-numbers pushluck-pending'>Working out "
                                "this turn's possible results…</div>")
        self._task.submit(lambda: self._timed_distributions(model, state, threshold, generation),
                          lambda done: self._distribution_done(done, generation, threshold))

    def _timed_distributions(self, model: TurnModel[Any], state: Any, threshold: int,
                             generation: int | None = None
                             ) -> tuple[dict[Number, Number], dict[Number, Number], float]:
        """Both distributions (each remembered for this panel: the optimal one by position,
        the threshold one by position and T); in the worker (``generation`` given) the walk
        shows its progress, stops once a newer position is asked for, and gives up after
        :data:`DISTRIBUTION_SECONDS`; a turn too large to walk in good time is refused at once
        (:class:`PositionError`)."""
        started = time.perf_counter()
        optimal = self._dist_cache.get((model, state))
        by_threshold = self._dist_cache.get((model, state, threshold))
        if optimal is not None and by_threshold is not None:
            return optimal, by_threshold, 1000 * (time.perf_counter() - started)
        solver = cached_solver(model, False)
        estimate = solver.estimated_states(state)
        if (estimate is not None and estimate > DISTRIBUTION_ESTIMATE_LIMIT
                and not solver.distributions_on_arrays(state)):
            raise PositionError(f"about {estimate:,} states: over the chart's limit")
        limit = self.distribution_state_limit
        shown = [started]

        def check(_reached: int) -> None:
            if generation is None:
                return
            if not self._task.is_latest(generation):
                raise Cancelled("a newer position was asked for")
            now = time.perf_counter()
            if now - started > DISTRIBUTION_SECONDS:
                raise Cancelled("too long")
            if now - shown[0] >= 0.5:
                shown[0] = now
                with self._dist_lock:  # never over a newer position's chart or note
                    if self._task.is_latest(generation):
                        self.text_dist.value = (
                            "<div class='pushluck-numbers pushluck-pending'>Working out this "
                            f"turn's possible results… {now - started:.0f} s (it can take up "
                            f"to {DISTRIBUTION_SECONDS:.0f} s)</div>")

        with watching(check):
            if optimal is None and by_threshold is None:
                optimal, by_threshold = turn_distributions(model, state, threshold,
                                                           max_states=limit)
            elif optimal is None:
                optimal = cached_solver(model, False).distribution(state, max_states=limit)
            else:
                by_threshold = threshold_distribution(model, state, threshold, max_states=limit)
        for key, value in (((model, state), optimal), ((model, state, threshold), by_threshold)):
            if len(self._dist_cache) >= 32:
                self._dist_cache.pop(next(iter(self._dist_cache)))
            self._dist_cache[key] = value
        return optimal, by_threshold, 1000 * (time.perf_counter() - started)

    def _distribution_done(self, done: Future[Any], generation: int, threshold: int) -> None:
        try:
            try:
                optimal, by_threshold, elapsed = done.result()
            except PositionError as exc:
                self._too_big(generation, exc)
                return
            except Cancelled as exc:
                self._distribution_stopped(generation, exc)
                return
            self._finish_distributions(generation, threshold, optimal, by_threshold, elapsed)
        except Exception:  # never a traceback from the worker, nor "working out…" for ever
            if self._task.is_latest(generation):
                self.text_dist.value = ("<div class='pushluck-numbers'>This turn's result "
                                        "chart could not be drawn for this position.</div>")

    def _distribution_stopped(self, generation: int, _exc: Exception) -> None:
        """The walk was given up (too long) or superseded (then nothing is shown)."""
        with self._dist_lock:
            if not self._task.is_latest(generation):
                return
            F.update_distribution(self.fig_dist, {}, {}, self.threshold)
            self._publish(self.fig_dist)
            self.text_dist.value = (
                "<div class='pushluck-numbers'>This turn's result chart is not drawn here: "
                f"listing every way the turn can end from here took over "
                f"{DISTRIBUTION_SECONDS:.0f} s. It appears after a card or two.</div>")

    def _too_big(self, generation: int, exc: Exception) -> None:
        with self._dist_lock:
            if not self._task.is_latest(generation):
                return
            F.update_distribution(self.fig_dist, {}, {}, self.threshold)
            self._publish(self.fig_dist)
            self.text_dist.value = (
                "<div class='pushluck-numbers'>This turn's result chart is not drawn here: "
                "from this position the turn can end in too many ways to list them in good "
                "time. It appears after a card or two.</div>")

    def _finish_distributions(self, generation: int, threshold: int,
                              optimal: dict[Number, Number], by_threshold: dict[Number, Number],
                              elapsed: float) -> None:
        with self._dist_lock:
            if not self._task.is_latest(generation) or threshold != self.threshold:
                return  # a newer position or threshold is on its way
            F.update_distribution(self.fig_dist, optimal, by_threshold, threshold)
            self._publish(self.fig_dist)
            self.text_dist.value = F.distribution_html(optimal, by_threshold, threshold)
            self.last_distribution_ms = elapsed
            self._widen_threshold(optimal)

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the distribution chart is up to date (tests, benchmarks)."""
        if self._task.future is not None:
            self._task.wait(timeout)  # the done-callback shows any error
            # add_done_callback may run just after result() returns in another thread
            deadline = time.perf_counter() + 5
            while not self._dist_current() and time.perf_counter() < deadline:
                time.sleep(0.001)

    def _dist_current(self) -> bool:
        future = self._task.future
        return future is None or (future.done() and not self._lock_busy())

    def _lock_busy(self) -> bool:
        acquired = self._dist_lock.acquire(blocking=False)
        if acquired:
            self._dist_lock.release()
        return not acquired

    def close(self) -> None:
        self._task.close()
        super().close()

    def _publish(self, *figs: Any) -> None:
        """Put each figure's current state in its synced traits (see :mod:`.figures`): a view
        opened later, or one that missed an edit message, draws the current data."""
        F.sync_widget_state(*figs)

    def _widen_threshold(self, dist: dict[Number, Number]) -> None:
        if dist:
            top = math.ceil(max(float(k) for k in dist)) + 5
            if top > self.threshold_slider.max:
                self.threshold_slider.max = top

    def _record(self, state: Any, p_bust: Number | None, turn_key: Hashable,
                step_label: str | None) -> None:
        if turn_key != self._turn_key or turn_key is None:
            self._turn_key = turn_key
            self._history = []
            self._history_states = []
        if self._history_states and self._history_states[-1] == state:
            return
        label = step_label
        if label is None and self._history_states and self._model is not None:
            try:
                label = self._model.outcome_label(self._history_states[-1], state)
            except Exception:  # a label is decoration: never fail an update for it
                label = None
        label = label or ("start" if not self._history else "next")
        self._history.append((f"{len(self._history) + 1}. {label}", p_bust))
        self._history_states.append(state)

    def _show_win_objective(self, numbers: PositionNumbers,
                            chances: Mapping[str, float | None], who: str,
                            decided: str | None) -> None:
        """The coach for the best chance to win: recommendation, choice chart and headline."""
        draw, stop = chances.get(DRAW), chances.get(STOP)
        best = STOP if stop is not None and (draw is None or stop >= draw) else DRAW
        label = self._label
        bars = [
            F.ChoiceBar("stop", f"{label(STOP)} now", None if stop is None else 100 * stop),
            F.ChoiceBar("optimal", f"{label(DRAW)}, then play to win",
                        None if draw is None else 100 * draw),
        ]
        best_key = "stop" if best == STOP else "optimal"
        F.update_choice(self.fig_choice, bars, best_key,
                        f"Chance to win (%): best is {label(best)}")
        self.fig_choice.layout.yaxis.title.text = "chance to win the game (%)"
        texts = separating_percents([b.value for b in bars])
        self.fig_choice.data[0].text = [t for b, t in zip(bars, texts, strict=True)
                                        if b.value is not None]
        self._publish(self.fig_choice)
        rows = "".join(
            f"<tr><td>{escape(b.label)}</td><td>{escape(t)}</td></tr>"
            for b, t in zip(bars, texts, strict=True))
        self.text_choice.value = (
            "<div class='pushluck-numbers'><table><caption>Chance to win the game</caption>"
            "<thead><tr><th scope='col'>choice</th><th scope='col'>chance to win</th></tr>"
            f"</thead><tbody>{rows}</tbody></table><p>Recommended for the best chance to win: "
            f"<strong>{escape(label(best))}</strong></p></div>")
        parts = []
        if decided is not None:
            verdict = ("the best choice" if decided == label(best)
                       else f"the best was {label(best)}")
            parts.append(f"{escape(who)} chose <strong>{escape(decided)}</strong>: "
                         f"{escape(verdict)} for winning the game.")
        elif who:
            parts.append(f"{escape(who)}: {escape(numbers.description)}.")
        parts.append(f"Chance that the next draw busts: {p_bust_span(numbers.p_bust)}.")
        chances_text = "; ".join(f"{b.label}: {t}" for b, t in zip(bars, texts, strict=True)
                                 if b.value is not None)
        parts.append(f"Chance to win the game — {escape(chances_text)}.")
        if decided is None:
            parts.append(f"Recommended for the best chance to win: "
                         f"<strong>{escape(label(best))}</strong>.")
        hook = (f'<span class="pushluck-numbers-hook" hidden data-objective="win" '
                f'data-p-bust="{F.fraction_text(numbers.p_bust, "none")}" '
                f'data-best="{escape(str(best), quote=True)}"></span>')
        self.headline.value = ("<div class='pushluck-headline' data-objective='win'>"
                               + " ".join(parts) + hook + "</div>")
        self.recommended = best
        self.objective_shown = "win"

    def _window_lead(self, numbers: PositionNumbers) -> str:
        """Who decides what, on whose turn (a decision outside the turn model)."""
        window = numbers.window
        assert window is not None
        card = f" drew {escape(window.card)}" if window.card else " drew a card"
        return (f"{escape(window.decider)} decides during {escape(window.owner)}'s turn: "
                f"{escape(window.owner)}{card} ({escape(numbers.description)}). Chance that "
                f"{escape(window.owner)}'s next draw busts: {p_bust_span(numbers.p_bust)}.")

    def _headline(self, numbers: PositionNumbers, who: str, decided: str | None) -> str:
        parts = []
        window = numbers.window
        if numbers.pending:
            if window is not None:
                lead = self._window_lead(numbers)
                if numbers.guide:
                    when = " for now" if numbers.computing else ""
                    return (f"<div class='pushluck-headline'>{lead} "
                            f"{escape(numbers.pending)} Recommended{when} by a quick guide "
                            f"(what each choice leaves {escape(window.owner)}'s turn worth if "
                            "it stops as soon as allowed): "
                            f"<strong>{escape(self._label(numbers.guide))}</strong>.</div>")
            else:
                lead = (f"{escape(who)}: {escape(numbers.description)}." if who else
                        f"{escape(numbers.description)}.")
                lead += f" Chance that the next draw busts: {p_bust_span(numbers.p_bust)}."
            guide = ""
            if numbers.guide:
                when = " for now" if numbers.computing else ""
                guide = (f" Recommended{when} by a quick guide (stopping now against one more "
                         "card and then stopping): "
                         f"<strong>{escape(self._label(numbers.guide))}</strong>.")
            return (f"<div class='pushluck-headline'>{lead} {escape(numbers.pending)}{guide}"
                    "</div>")
        if window is not None:
            parts.append(self._window_lead(numbers))
            worth = "; ".join(f"after {b.label}: {F.value_text(b.value)}"
                              for b in numbers.choices)
            parts.append(f"{escape(window.owner)}'s turn is worth on average — "
                         f"{escape(worth)}.")
            if decided is not None:
                verdict = ("the best choice" if decided == numbers.best_label
                           else f"the best was {numbers.best_label}")
                parts.append(f"{escape(window.decider)} chose <strong>{escape(decided)}</strong>:"
                             f" {escape(verdict)}.")
            else:
                parts.append(f"Recommended: <strong>{escape(numbers.best_label)}</strong> (it "
                             f"leaves {escape(window.owner)}'s turn worth the least; what the "
                             "relic could do later is not counted).")
            return ("<div class='pushluck-headline'>" + " ".join(parts)
                    + numbers_hook(numbers) + "</div>")
        if decided is not None:
            verdict = ("the best choice" if decided == numbers.best_label
                       else f"the best was {numbers.best_label}")
            parts.append(f"{escape(who)} chose <strong>{escape(decided)}</strong>: "
                         f"{escape(verdict)}.")
            parts.append(f"At that decision ({escape(numbers.description)}):")
        else:
            parts.append(f"{escape(who)}: {escape(numbers.description)}." if who else
                         f"{escape(numbers.description)}.")
        parts.append(f"Chance that the next draw busts: {p_bust_span(numbers.p_bust)}.")
        parts.append(f"Expected result of the turn with optimal play: "
                     f"{escape(F.value_text(numbers.ev_optimal))}.")
        if decided is None:
            parts.append(f"Recommended: <strong>{escape(numbers.best_label)}</strong>.")
        return ("<div class='pushluck-headline'>" + " ".join(parts) + numbers_hook(numbers)
                + "</div>")

    @observe("threshold")
    def _threshold_changed(self, _change: Any) -> None:
        if self._model is not None:
            generation = self._task.supersede()
            if self._pending_values is not None:  # the values are still being computed
                model, state, who, decided, win_chances = self._pending_values
                self._start_values(model, state, generation, who, decided, win_chances)
            else:
                self._start_distributions()
