"""Lesson 7: investing under uncertainty.  Widgets over a game's own odds report and over bot
duels on mirrored deals.

* :class:`OddsExplorer`: one text box per position flag of the game (``GameSpec.position_flags``),
  the game's report (``GameSpec.odds``) with its headline, lines and every chart it offers
  (``chart_bars()``), figures rewritten in place;
* :func:`bet_table`: several positions side by side, columns picked from the reports' JSON;
* :class:`LuckVersusSkill`: two of the game's bots on mirrored deals, a batch at a time in a
  worker thread: the edge per match with its interval, the spread of a single match, how often
  the weaker bot wins one match, and how many matches it takes to tell the two apart.

Nothing here names a game: the notebook passes the game, its example positions and its bots.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.base import GameSpec, RulesError, Variant, get_game
from pushluck_teach.sim.duel import DuelResult, duel, matches_needed
from pushluck_teach.ui.background import LatestOnly
from pushluck_teach.ui.figures import (
    TWO_LINE_TITLE_MARGIN,
    base_layout,
    live_figure,
    sync_widget_state,
    wrapped_title,
)
from pushluck_teach.ui.lessons.common import LessonView
from pushluck_teach.ui.projector import add_projector_switch, chart_row
from pushluck_teach.ui.theme import OKABE_ITO

CHART_COLOURS = (OKABE_ITO["blue"], OKABE_ITO["bluish_green"], OKABE_ITO["orange"])
#: Fewer deal pairs than this give no interval and no "matches to tell apart" (the standard
#: deviation of a handful of matches is itself too uncertain to build on).
MIN_PAIRS_FOR_INTERVAL = 10


def _json_path(data: Mapping[str, Any], path: str) -> Any:
    value: Any = data
    for part in path.split("."):
        value = None if value is None else value.get(part)
    return value


def _number_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str) and "/" in value:
        return f"{float(Fraction(value)):.3f}"
    return f"{float(value):.3f}" if isinstance(value, (int, float, str)) else str(value)


def bet_table(spec: GameSpec, variant: Variant, positions: Mapping[str, Mapping[str, str]],
              columns: Mapping[str, str]) -> LessonView:
    """One line per position (``{label: flags}``) with the columns ``{title: JSON path}`` of
    the game's report (``"plan.mean"``); ``values[label][title]`` are the exact fractions."""
    if spec.odds is None:
        raise RulesError(f"{spec.name} has no report of its own")
    lines = ["  ".join([f"{'position':<28}"] + [f"{title:>14}" for title in columns])]
    values: dict[str, dict[str, Any]] = {}
    for label, flags in positions.items():
        data = spec.odds(variant, dict(flags)).as_json(exact=True)
        row = {title: _json_path(data, path) for title, path in columns.items()}
        values[label] = {k: (Fraction(v) if isinstance(v, str) else v) for k, v in row.items()}
        lines.append("  ".join([f"{label:<28}"] + [f"{_number_text(v):>14}"
                                                    for v in row.values()]))
    return LessonView(tuple(lines), (), values)


class OddsExplorer(widgets.VBox):
    """Type a position (one box per flag of the game); the game's report and charts follow."""

    def __init__(self, game: str, flags: Mapping[str, str], *,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.spec = get_game(game)
        if self.spec.odds is None:
            raise RulesError(f"{game} has no report of its own")
        self.variant = self.spec.variant(dict(options or {}))
        self.boxes = {
            flag.name: widgets.Text(value=str(flags.get(flag.name, "")), description=flag.name,
                                    placeholder=flag.help, continuous_update=False,
                                    style={"description_width": "initial"})
            for flag in self.spec.position_flags if not flag.positional}
        for box in self.boxes.values():
            box.observe(lambda _: self.update(), names="value")
        self.message = widgets.HTML()
        self.headline = widgets.HTML()
        self.lines = widgets.HTML()
        self.figures: list[Any] = []
        self.figure_box = chart_row()
        self.children = [widgets.VBox(list(self.boxes.values())), self.message, self.headline,
                         self.figure_box, self.lines]
        # projector mode: the charts side by side, the report's lines folded away
        self.projector_switch = add_projector_switch(self, folded=(self.lines,))
        self.report: Any = None
        self.update()

    def flags(self) -> dict[str, str]:
        return {name: box.value for name, box in self.boxes.items() if box.value.strip()}

    def update(self) -> None:
        try:
            report = self.spec.odds(self.variant, self.flags())
        except (RulesError, ValueError) as exc:
            self.message.value = (f'<div class="pushluck-message pushluck-message-error">'
                                  f"{escape(str(exc))}</div>")
            return
        self.report = report
        self.message.value = ""
        self.headline.value = (f'<div class="pushluck-headline">'
                               f"{escape(getattr(report, 'headline', ''))}</div>")
        self.lines.value = ('<div class="pushluck-numbers">' + "<br>".join(
            escape(line) for line in report.text_lines()) + "</div>")
        charts = report.chart_bars() if hasattr(report, "chart_bars") else ()
        while len(self.figures) < len(charts):
            colour = CHART_COLOURS[len(self.figures) % len(CHART_COLOURS)]
            self.figures.append(live_figure(
                [go.Bar(x=[], y=[], text=[], textposition="outside", marker={"color": colour})],
                base_layout("", margin=TWO_LINE_TITLE_MARGIN), carry_bundle=not self.figures))
            self.projector_switch.add_charts(self.figures[-1])
        for fig, chart in zip(self.figures, charts, strict=False):
            with fig.batch_update():
                fig.data[0].x = list(chart.labels)
                fig.data[0].y = [float(v) for v in chart.values]
                fig.data[0].text = list(chart.texts)
                fig.layout.title.text = wrapped_title(chart.title)
                fig.layout.xaxis.title.text = chart.x_title
                fig.layout.yaxis.title.text = chart.y_title
                fig.layout.xaxis.type = "category"
        if self.figures:
            sync_widget_state(*self.figures)
        self.figure_box.children = tuple(self.figures[:len(charts)])


class LuckVersusSkill(widgets.VBox):
    """Bot ``strong`` against bot ``weak`` on mirrored deals: ``first_batch`` deal pairs at
    once, then ``batch`` more per press (in a worker thread unless ``background=False``)."""

    def __init__(self, game: str, strong: str, weak: str, *, options: Mapping[str, Any] | None
                 = None, batch: int = 10, first_seed: int = 0, background: bool = True,
                 start: bool = True, first_batch: int = 2,
                 decision_worth: float | None = None) -> None:
        super().__init__()
        self.spec = get_game(game)
        for name in (strong, weak):
            if name not in self.spec.bots:
                raise RulesError(f"unknown bot {name!r} (bots: {', '.join(self.spec.bots)})")
        self.variant = self.spec.variant(dict(options or {}))
        self.strong, self.weak, self.batch = strong, weak, batch
        self.decision_worth = decision_worth
        self.next_seed = first_seed
        self.background = background
        self.result: DuelResult | None = None
        self._worker: LatestOnly[DuelResult] = LatestOnly("pushluck-duel")
        self.button = widgets.Button(description=f"Play {batch} more deal pairs",
                                     button_style="primary",
                                     layout=widgets.Layout(width="max-content"))
        self.button.on_click(lambda _: self.play_batch())
        self.summary = widgets.HTML("<i>No matches played yet.</i>")
        self.figure = live_figure(
            [go.Histogram(x=[], xbins={"size": 10}, marker={"color": OKABE_ITO["blue"]})],
            base_layout(f"{strong} minus {weak}, one match at a time",
                        xaxis={"title": "points difference in one match"},
                        yaxis={"title": "matches"}))
        self.children = [self.button, self.summary, self.figure]
        if start:   # a small first batch at once, so the page never shows an empty chart
            self._add(duel(self.spec, self.variant, self._make(strong), self._make(weak),
                           first_batch, first_seed=self.next_seed))
            self.next_seed += first_batch

    def _make(self, name: str) -> Any:
        return lambda seed: self.spec.bots[name]()

    def play_batch(self) -> None:
        seed = self.next_seed
        self.next_seed += self.batch

        def work() -> DuelResult:
            return duel(self.spec, self.variant, self._make(self.strong), self._make(self.weak),
                        self.batch, first_seed=seed)

        if not self.background:
            self._add(work())
            return
        self.button.disabled = True
        self.summary.value += " <i class='pushluck-pending'>(playing…)</i>"

        def done(future: Future[DuelResult]) -> None:
            self.button.disabled = False
            try:
                self._add(future.result())
            except RulesError as exc:
                self.summary.value = escape(str(exc))

        self._worker.submit(work, done)

    def _add(self, result: DuelResult) -> None:
        self.result = result if self.result is None else self.result.merged(result)
        r = self.result
        low, high = r.interval
        need = r.matches_to_tell_apart()
        weak_wins = (r.b_wins + r.ties / 2) / len(r.differences)
        if r.pairs < MIN_PAIRS_FOR_INTERVAL:
            self.summary.value = (
                f"<p>{r.pairs} deal{'s' if r.pairs != 1 else ''} played twice (seats swapped): "
                f"<b>{self.strong}</b> scores <b>{r.mean_difference:+.1f}</b> points a match "
                f"more than <b>{self.weak}</b> so far. That is too few deals for an interval or "
                f"for a count of matches: play at least {MIN_PAIRS_FOR_INTERVAL} deal pairs "
                "(press the button).</p>")
        else:
            self.summary.value = (
                f"<p>{r.pairs} deals played twice (seats swapped): <b>{self.strong}</b> scores "
                f"<b>{r.mean_difference:+.1f}</b> points a match more than <b>{self.weak}</b> "
                f"(95 % interval {low:+.1f} to {high:+.1f}).</p>"
                f"<p>The luck of one match: its difference has a standard deviation of "
                f"<b>{r.match_sd:.1f}</b> points, so {self.weak} still wins "
                f"<b>{weak_wins:.0%}</b> of single matches.</p>"
                f"<p>To tell the better player from a luckier one (the mean edge two standard "
                f"errors from 0) takes about <b>{need if need is not None else '—'}</b> "
                f"ordinary matches: (1.96 × {r.match_sd:.1f} / {r.mean_difference:.1f})².</p>")
        if self.decision_worth and r.pairs >= MIN_PAIRS_FOR_INTERVAL:
            worth = self.decision_worth
            alone = matches_needed(worth, r.match_sd)
            self.summary.value += (
                f"<p>One good decision worth <b>{worth:.1f}</b> points a match, with the same "
                f"luck, would take about <b>{alone}</b> matches to show: "
                f"(1.96 × {r.match_sd:.1f} / {worth:.1f})².</p>")
        with self.figure.batch_update():
            self.figure.data[0].x = list(r.differences)
        sync_widget_state(self.figure)

    def wait(self) -> None:
        self._worker.wait()


def answer_from_report(spec: GameSpec, variant: Variant, flags: Mapping[str, str],
                       path: str) -> Fraction:
    """An exact number from the game's report (``"plan.p_positive"``), for a check-yourself
    question."""
    if spec.odds is None:
        raise RulesError(f"{spec.name} has no report of its own")
    value = _json_path(spec.odds(variant, dict(flags)).as_json(exact=True), path)
    if value is None:
        raise RulesError(f"the report has no {path!r}")
    return Fraction(value)


__all__ = ["LuckVersusSkill", "OddsExplorer", "answer_from_report", "bet_table"]
