"""Lesson 6: winning the game, not the turn.  Views over the whole-game solvers' answers.

Each view runs the loops of one step of the lesson (rules against the optimal player in both
seats, turns to reach the target alone, what fixed rules give away, how it changes with the
target, the solo model against the real game) and returns a :class:`LessonView`: the lines it
prints and the charts it shows, built by :mod:`pushluck_teach.ui.whole_game`.

Nothing here names a game or imports a game's solver: the notebook passes the solver's
functions (``evaluate_match``, ``solitaire_turns``, ``threshold_give_away``...) and the
variants, so every number is the solver's own.  A chance "against the optimal player (both
seats)" is the average of the rule's chance moving first and moving second; a shared win counts
as half a win (the solvers' convention).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from pushluck_teach.games.base import Variant

if TYPE_CHECKING:  # the explorer's arrays; Lesson 8 imports this module where NumPy is missing
    import numpy as np
from pushluck_teach.ui.background import LatestOnly
from pushluck_teach.ui.figures import page_chart, sync_widget_state
from pushluck_teach.ui.lessons.answers import CHANCE, CheckAnswer
from pushluck_teach.ui.lessons.common import LessonView
from pushluck_teach.ui.whole_game import (
    expected_turns_chart,
    policy_comparison_chart,
    roll_hold_chart,
    solo_distribution_chart,
    threshold_rule_chart,
    turns_distribution_chart,
    update_win_gauge,
    win_gauge,
)

#: ``evaluate_match(variant, first, second)``: a match result with ``p_win_first``.
MatchFunction = Callable[[Variant, Any, Any], Any]


def both_seats(evaluate_match: MatchFunction, variant: Variant, rule: Any,
               against: Any = "optimal") -> tuple[float, float, float]:
    """``rule``'s chance to win against ``against``: moving first, moving second, and their
    average (both seats)."""
    first = float(evaluate_match(variant, rule, against).p_win_first)
    second = 1 - float(evaluate_match(variant, against, rule).p_win_first)
    return first, second, (first + second) / 2


def rules_against_optimal(evaluate_match: MatchFunction, variant: Variant, rules: Sequence[str],
                          *, against: str = "optimal",
                          title: str = "Chance to beat the optimal player (both seats)"
                          ) -> LessonView:
    """Each rule against ``against`` in both seats: a line per rule and a bar chart of the
    averages (``values``: rule -> average)."""
    labels, chances, lines = [], [], []
    values: dict[str, Any] = {}
    for rule in rules:
        first, second, average = both_seats(evaluate_match, variant, rule, against)
        labels.append(f"{rule} vs {against}")
        chances.append(average)
        values[rule] = average
        lines.append(f"{rule:>10}: wins {first:.4f} moving first, {second:.4f} moving second, "
                     f"{average:.4f} on average")
    chart = page_chart(policy_comparison_chart(labels, chances, title=title))
    return LessonView(tuple(lines), (chart,), values)


def turns_alone(solitaire_turns: Callable[[Variant, int], Any], variant: Variant, hold_at: int,
                *, shown: int = 40) -> LessonView:
    """Turns needed to reach the target alone holding at ``hold_at``: the mean, the standard
    deviation and the distribution of the first ``shown`` turn counts."""
    alone = solitaire_turns(variant, hold_at)
    line = f"Holding at {hold_at}: {alone.expected:.3f} turns on average (sd {alone.sd:.3f})"
    chart = page_chart(turns_distribution_chart(alone.distribution[:shown], mean=alone.expected))
    return LessonView((line,), (chart,), {"expected": alone.expected, "sd": alone.sd})


def turns_by_hold_total(solitaire_turns: Callable[[Variant, int], Any], variant: Variant,
                        hold_totals: Iterable[int]) -> LessonView:
    """Expected turns to reach the target alone (± one standard deviation) for each hold
    total."""
    totals = list(hold_totals)
    runs = [solitaire_turns(variant, n) for n in totals]
    chart = page_chart(expected_turns_chart(totals, [r.expected for r in runs],
                                            sd=[r.sd for r in runs]))
    return LessonView((), (chart,), {"expected": [r.expected for r in runs]})


def rules_give_away(threshold_give_away: Callable[[Variant], Any], variant: Variant
                    ) -> LessonView:
    """Every fixed rule of each kind against the optimal player (both seats): the best of each
    kind, what it gives away (1/2 minus its chance), and the chart of every rule."""
    away = threshold_give_away(variant)
    thresholds, chances = away.series()
    lines = tuple(f"best {kind:>9} rule: {rule:<13} wins {chance:.4f}, gives away "
                  f"{0.5 - chance:.4f}" for kind, (rule, chance) in away.best.items())
    chart = page_chart(threshold_rule_chart(thresholds, chances))
    return LessonView(lines, (chart,), {"best": away.best})


def give_away_by_target(optimal_solution: Callable[[Variant], Any],
                        threshold_give_away: Callable[[Variant], Any], variant: Variant,
                        targets: Iterable[int]) -> LessonView:
    """For each target: the first player's chance under optimal play and what the best single
    threshold and the best chase rule give away."""
    lines = []
    for target in targets:
        game = dataclasses.replace(variant, target=target)
        away = threshold_give_away(game)
        lines.append(f"to {target:>3}: first player {optimal_solution(game).p_win_first:.4f}; "
                     f"best single threshold gives away {away.give_away('threshold'):.4f}, "
                     f"best chase rule {away.give_away('chase'):.4f}")
    return LessonView(tuple(lines))


class SoloModelVsGame(widgets.VBox):
    """A solo mode's exact final-score distribution (the fresh-deck model of
    :mod:`pushluck_teach.solve.whole_game.solo`), shown at once, against ``games`` real games
    played by the engine (the deck carried over), simulated off the page's opening path: its
    line says so while they are played, then gives both means; the chart then gains the
    simulated frequencies and mean.  ``out_word`` names the model's chance of ending early
    ("executed"), shown when given.  ``background=False`` simulates before returning."""

    def __init__(self, game: str, policy: str, *, games: int, seed: int, label: str,
                 title: str, out_word: str | None = None, background: bool = True) -> None:
        from pushluck_teach.sim.solo_checks import compare, simulate_real_game
        from pushluck_teach.solve.whole_game.solo import solo_result

        super().__init__()
        self.label, self.title = label, title
        self.model = solo_result(game, None, policy)
        self.comparison: Any = None
        out = f" ({out_word} {self.model.p_out:.2%})" if out_word else ""
        self._model_text = f"{label}: model mean {self.model.mean:.2f}{out}"
        self.line = widgets.HTML(
            f"<div class='pushluck-numbers pushluck-pending'>{escape(self._model_text)}; the "
            f"real game: playing {games} games with the engine…</div>")
        self.chart = page_chart(solo_distribution_chart(
            self.model.scores, self.model.probabilities, (), (), mean=self.model.mean,
            title=title))
        self.children = [self.line, self.chart]
        self._worker: LatestOnly[Any] = LatestOnly("pushluck-solo-check")
        model = self.model

        def work() -> Any:
            return compare(model, simulate_real_game(game, model.variant, policy, games, seed))

        if background:
            self._worker.submit(work, self._show)
        else:
            self._show_comparison(work())

    def _show(self, done: Future[Any]) -> None:
        try:
            self._show_comparison(done.result())
        except Exception as exc:  # never a traceback from the worker
            self.line.value = (f"<div class='pushluck-numbers'>{escape(self._model_text)}; the "
                               f"real game could not be simulated here: "
                               f"{escape(str(exc) or type(exc).__name__)}</div>")

    def _show_comparison(self, comparison: Any) -> None:
        self.comparison = comparison
        simulated = comparison.simulated
        self.line.value = (f"<div class='pushluck-numbers'>{escape(self._model_text)}, real game "
                           f"{simulated.mean:.2f} ± {comparison.stderr:.2f} ({simulated.n} "
                           "games)</div>")
        full = solo_distribution_chart(
            self.model.scores, self.model.probabilities, comparison.sim_scores,
            comparison.sim_probabilities, mean=self.model.mean, sim_mean=simulated.mean,
            title=self.title)
        with self.chart.batch_update():
            self.chart.data[1].x = full.data[1].x
            self.chart.data[1].y = full.data[1].y
            self.chart.layout.shapes = full.layout.shapes
            self.chart.layout.annotations = full.layout.annotations
        sync_widget_state(self.chart)

    @property
    def values(self) -> dict[str, float]:
        """The model's mean and, once played, the simulated games' mean."""
        values = {"model_mean": self.model.mean}
        if self.comparison is not None:
            values["simulated_mean"] = self.comparison.simulated.mean
        return values

    def wait(self, timeout: float | None = 120.0) -> None:
        """Block until the simulated games are shown (tests)."""
        self._worker.wait(timeout)


# ---------------------------------------------------------------------------------------------
# explore a position; check yourself


class PositionExplorer(widgets.VBox):
    """Sliders for my score and the opponent's: a gauge of the chance to win at the start of the
    turn, and the chance to win on rolling and on holding at each turn total.

    ``start[i, j]``, ``roll[k, i, j]`` and ``hold[k, i, j]`` as a whole-game solver gives them;
    turn totals from ``min_total`` (the smallest total a turn can reach) are charted.  The
    figures are built with the first position's data and their synced state is refreshed after
    every change, so a view opened at any time draws the current position.
    """

    def __init__(self, start: np.ndarray, roll: np.ndarray, hold: np.ndarray, *, target: int,
                 my_score: int = 0, opp_score: int = 0, min_total: int = 1) -> None:
        self.start, self.roll, self.hold = start, roll, hold
        self.target, self.min_total = target, min_total
        self.mine = widgets.IntSlider(value=my_score, min=0, max=target - 1,
                                      description="Your score", continuous_update=False)
        self.theirs = widgets.IntSlider(value=opp_score, min=0, max=target - 1,
                                        description="Opponent", continuous_update=False)
        totals, rolls, holds = self._series(my_score, opp_score)
        self.gauge = page_chart(win_gauge(float(start[my_score, opp_score]),
                                          title="Chance to win (start of turn)"))
        self.chart = page_chart(roll_hold_chart(totals, rolls, holds))
        self.advice = widgets.HTML(self._advice(my_score, opp_score, totals, rolls, holds))
        self.advice.add_class("pushluck-lesson-advice")
        self.mine.observe(lambda _: self.refresh(), "value")
        self.theirs.observe(lambda _: self.refresh(), "value")
        super().__init__([widgets.HBox([self.mine, self.theirs]), self.advice,
                          widgets.HBox([self.gauge, self.chart])])
        self.add_class("pushluck-lesson")

    def _series(self, i: int, j: int) -> tuple[list[int], list[float], list[float]]:
        top = self.target - i
        totals = list(range(self.min_total, top))  # one position at a time: plain tables too
        return (totals, [float(self.roll[k, i, j]) for k in totals],
                [float(self.hold[k, i, j]) for k in totals])

    @staticmethod
    def _advice(i: int, j: int, totals: Sequence[int], rolls: Sequence[float],
                holds: Sequence[float]) -> str:
        best_hold = [h >= r for r, h in zip(rolls, holds, strict=True)]
        if any(best_hold):
            first = best_hold.index(True)
            text = f"holding is best from a turn total of <b>{totals[first]}</b>"
            if not all(best_hold[first:]):
                again = totals[first + best_hold[first:].index(False)]
                text += f" (but from {again} on, rolling for the goal is better again)"
        else:
            text = "roll until you can hold at the goal"
        return f"<p>With {i} against {j}: {text}.</p>"

    def refresh(self) -> None:
        i, j = self.mine.value, self.theirs.value
        totals, rolls, holds = self._series(i, j)
        update_win_gauge(self.gauge, float(self.start[i, j]))
        with self.chart.batch_update():
            self.chart.data[0].x = self.chart.data[1].x = totals
            self.chart.data[0].y, self.chart.data[1].y = rolls, holds
        sync_widget_state(self.gauge, self.chart)
        self.advice.value = self._advice(i, j, totals, rolls, holds)


def percent_text(value: float) -> str:
    """A chance as a percentage with two decimals: ``53.06%``."""
    return f"{100 * float(value):.2f}%"


def chance_question(question: str, chance: float, explanation: str = "") -> CheckAnswer:
    """A typed check-yourself question whose answer is a whole-game chance: a decimal, a
    percentage or a fraction within ±0.5 percentage points (:data:`CHANCE`); Show answer gives
    it as a percentage and the ``explanation`` (HTML)."""
    return CheckAnswer(question, chance, rule=CHANCE, answer_text=percent_text,
                       explanation=explanation)


class ShownAfterAnswer(widgets.VBox):
    """Charts (or any widgets) that give a check-yourself answer away, left off the page until
    ``question`` is answered or its answer shown; a note says where they will appear."""

    def __init__(self, question: CheckAnswer, *items: Any, note: str) -> None:
        self.items = items
        self.note = widgets.HTML(f'<p class="pushluck-lesson-hidden"><i>{escape(note)}</i></p>')
        self.question = question
        super().__init__([self.note])
        question.observe(lambda _: self._show(), "revealed")
        self._show()

    def _show(self) -> None:
        shown = self.question.revealed
        self.children = tuple(self.items) if shown else (self.note,)


def heatmap_chart(figure: Any, *, size: int = 560, carry_bundle: bool = False) -> widgets.Box:
    """A score-by-score heatmap drawn square and large, its colour bar beside it: the chart in a
    box about as wide as the plot is tall (the page's full width would leave the colour bar far
    to the right of a square plot)."""
    figure.update_layout(height=size + 90)
    chart = page_chart(figure, carry_bundle=carry_bundle)
    return widgets.Box([chart], layout=widgets.Layout(width=f"{size + 190}px",
                                                      max_width="100%"))


__all__ = [
    "LessonView", "PositionExplorer", "ShownAfterAnswer", "both_seats", "chance_question",
    "give_away_by_target", "heatmap_chart",
    "SoloModelVsGame", "page_chart", "percent_text", "rules_against_optimal", "rules_give_away",
    "turns_alone", "turns_by_hold_total",
]
