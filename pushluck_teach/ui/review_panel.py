"""The review of a finished (or stopped) game: every decision of every seat, what it cost, each
seat's skill and luck, and a chart of the chance to win over the game.

The numbers are :func:`pushluck_teach.solve.review.review_game`'s, formatted as
``pushluck review`` prints them (points with 2 decimals, chances in percent with 1 decimal), so
the page and the command agree.  The review is computed off the click path
(:class:`~pushluck_teach.ui.background.LatestOnly`) with a progress bar; a new click (Review
again, Stop, a new game) cancels the one in progress.  The words are a student's: a decision's
"cost" is what it gave away against the best choice, "skill" a seat's total cost, "luck" what the
game gave beyond what the decisions deserved.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from pushluck_teach.games.record import GameRecord
from pushluck_teach.solve.review import (
    GameReview,
    ReviewCancelled,
    percent_text,
    points_text,
    review_game,
    signed_percent,
    signed_points,
)
from pushluck_teach.ui.background import LatestOnly, let_the_page_in
from pushluck_teach.ui.figures import base_layout, live_figure, sync_widget_state
from pushluck_teach.ui.projector import fold
from pushluck_teach.ui.theme import OKABE_ITO

#: the decision rows shown at once (a long game's first rows; the download has them all)
ROWS_SHOWN = 400


def seats_table(review: GameReview) -> str:
    """Each seat's totals (HTML), in ``pushluck review``'s formats."""
    win = any(seat.win_start is not None for seat in review.seats)
    head = ("<tr><th>player</th><th>decisions</th><th>costly</th><th>points scored</th>"
            "<th>points expected</th><th>skill cost (points)</th><th>luck (points)</th>"
            + ("<th>chance to win at the start</th><th>result (or chance now)</th>"
               "<th>skill cost (chance to win)</th><th>the others' costs</th>"
               "<th>luck (chance to win)</th>" if win else "") + "</tr>")
    rows = []
    for seat in review.seats:
        cells = [escape(seat.seat), str(seat.decisions), str(seat.costly),
                 points_text(seat.result), points_text(seat.expected), points_text(seat.skill),
                 signed_points(seat.luck)]
        if win and seat.win_start is not None and seat.win_result is not None:
            cells += [percent_text(seat.win_start), _result_text(seat.win_result),
                      percent_text(seat.win_skill or 0.0), percent_text(seat.win_gifts or 0.0),
                      signed_percent(seat.win_luck or 0.0)]
        elif win:
            cells += ["–"] * 5
        rows.append(f'<tr class="pushluck-review-seat" data-player="{seat.player}">'
                    + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return f'<table class="pushluck-review-seats">{head}{"".join(rows)}</table>'


def _result_text(value: float) -> str:
    words = {1.0: "won", 0.0: "lost", 0.5: "shared the win"}.get(float(value))
    return f"{words} ({percent_text(value)})" if words else percent_text(value)


def decisions_table(review: GameReview, rows: int = ROWS_SHOWN) -> str:
    """Every decision (the first ``rows``) as a table (HTML); costly ones marked."""
    win = bool(review.win_series)
    head = ("<tr><th>move</th><th>player</th><th>turn</th><th>position</th><th>choice</th>"
            "<th>best for points this turn</th><th>cost (points this turn)</th>"
            + ("<th>best to win</th><th>cost (chance to win)</th>" if win else "")
            + "<th>note</th></tr>")
    lines = []
    for d in review.decisions[:rows]:
        css = "pushluck-review-decision" + (" pushluck-review-costly" if d.costly else "")
        notes = (["costly"] if d.costly else []) + (
            [f"approximate: {d.approximate}"] if d.approximate else [])
        cells = [str(d.move + 1), escape(d.seat), str(d.turn), escape(d.position),
                 escape(d.choice_label), escape(d.best_label) if d.scored else "–",
                 points_text(d.cost) if d.scored else "–"]
        if win:
            cells += [escape(d.win_best_label) if d.win_best_label else "–",
                      percent_text(d.win_cost) if d.win_cost is not None else "–"]
        cells.append(escape("; ".join(notes)))
        lines.append(f'<tr class="{css}" data-move="{d.move}" data-player="{d.player}">'
                     + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    more = (f"<p>The first {rows} of {len(review.decisions)} decisions are shown; the "
            "downloaded record's review (<code>pushluck review</code>) lists them all.</p>"
            if len(review.decisions) > rows else "")
    return (f'<div class="pushluck-review-scroll" tabindex="0" role="region" '
            f'style="max-height:420px;overflow-y:auto;font-size:14px" '
            f'aria-label="every decision of the game"><table class="pushluck-review-decisions">'
            f'{head}{"".join(lines)}</table></div>{more}')


def win_chart_data(review: GameReview) -> tuple[list[int], list[float], list[int], list[float]]:
    """Player 1's chance to win after each number of moves played (0: the start), and the
    costly decisions' points, each drawn just after its move (where the fall shows) so that
    the chart's move numbers are the decision table's."""
    xs = [p.move for p in review.win_series]
    ys = [float(p.chance) for p in review.win_series]
    after = dict(zip(xs, ys, strict=True))
    marked = [(p.move + 1, after[p.move + 1]) for p in review.win_series
              if p.costly_player is not None and p.move + 1 in after]
    return xs, ys, [m for m, _ in marked], [c for _, c in marked]


def win_chart() -> Any:
    """The chart of Player 1's chance to win over the game, with the costly decisions."""
    chart = live_figure(
        [go.Scatter(x=[], y=[], mode="lines", name="chance to win",
                    line={"color": OKABE_ITO["blue"], "width": 2}),
         go.Scatter(x=[], y=[], mode="markers", name="costly decision",
                    marker={"color": OKABE_ITO["vermillion"], "size": 10, "symbol": "x"})],
        base_layout("Player 1's chance to win over the game",
                    xaxis={"title": {"text": "moves played"}},
                    yaxis={"title": {"text": "chance to win"}, "range": [0, 1],
                           "tickformat": ".0%"},
                    showlegend=True, height=320),
        carry_bundle=False)
    chart.add_class("pushluck-review-chart")
    return chart


class ReviewPanel(widgets.VBox):
    """"Review this game" and what it shows (see the module docstring).  ``source`` gives the
    record to review (a table's :class:`~pushluck_teach.ui.recording.RecordingArea`)."""

    def __init__(self, source: Any, *, background: bool = True,
                 review: Callable[..., GameReview] | None = None) -> None:
        """``review``: the function that reviews a record (default
        :func:`pushluck_teach.solve.review.review_game`)."""
        self.source = source
        self.background = background
        self._review = review
        self._jobs: LatestOnly[GameReview] = LatestOnly("pushluck-review")
        self._cancel = threading.Event()
        # The worker delivers a review while a click may start a new game: the check that the
        # review is still wanted and its drawing happen under this lock, as do stop and clear.
        self._showing = threading.RLock()
        self.result: GameReview | None = None
        self.button = widgets.Button(description="Review this game", button_style="info",
                                     tooltip="Every decision of the game so far: what it cost")
        self.button.add_class("pushluck-review-button")
        self.stop_button = widgets.Button(description="Stop",
                                          tooltip="Stop working out the review")
        self.stop_button.add_class("pushluck-review-stop")
        self.stop_button.layout.display = "none"
        self.progress = widgets.FloatProgress(value=0.0, min=0.0, max=1.0,
                                              layout=widgets.Layout(width="200px",
                                                                    display="none"))
        self.progress.add_class("pushluck-review-progress")
        self.status = widgets.HTML()
        self.status.add_class("pushluck-review-status")
        self.seats_html = widgets.HTML()
        self.seats_html.add_class("pushluck-review-summary")
        self.decisions_html = widgets.HTML()
        self.notes_html = widgets.HTML()
        self.chart: Any = None  # drawn at the first review with a chance to win (no empty
        # chart on the page before: a hidden figure would sit among the table's charts)
        self.chart_box = widgets.Box(layout=widgets.Layout(display="none"))
        self.button.on_click(lambda _: self.start())
        self.stop_button.on_click(lambda _: self.stop("Stopped: press Review this game to "
                                                      "start again."))
        super().__init__([
            widgets.HBox([self.button, self.stop_button, self.progress, self.status],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.seats_html, self.chart_box, self.decisions_html, self.notes_html])
        self.add_class("pushluck-review")
        fold(self)  # projector mode: folded away with the number tables (one click opens)

    # ---- work -------------------------------------------------------------------------
    def start(self) -> None:
        """Review the source's record now (off the click path); a review in progress stops."""
        self._cancel.set()
        self._jobs.supersede()
        record = self.source.current_record()
        if record is None:
            self._say("There is no recorded game to review yet.", error=True)
            return
        if not record.moves:
            self._say("No decision has been made yet: play first, then review.", error=True)
            return
        self._cancel = cancel = threading.Event()
        self.clear()
        self.progress.value = 0.0
        self.progress.layout.display = ""
        self.stop_button.layout.display = ""
        self._say(f"Working out the review of {len(record.moves)} moves…")
        if not self.background:
            self._finish(self._compute(record, cancel))
            return
        generation = self._jobs.generation
        self._jobs.submit(lambda: self._compute(record, cancel),
                          lambda done: self._delivered(generation, done))

    def _compute(self, record: GameRecord, cancel: threading.Event) -> GameReview | None:
        def progress(done: int, total: int) -> None:
            if total:
                self.progress.value = done / total
            let_the_page_in()  # the static site: the bar moves, a newer click is heard

        try:
            return (self._review or review_game)(record, progress=progress,
                                                 cancel=cancel.is_set)
        except ReviewCancelled:
            return None

    def _delivered(self, generation: int, done: Any) -> None:
        with self._showing:
            if not self._jobs.is_latest(generation):
                return
            try:
                result = done.result()
            except Exception as exc:  # never a traceback on the page
                detail = str(exc).strip()
                self._idle()
                self._say("The review could not be worked out"
                          + (f" ({detail})" if detail else "") + ".", error=True)
                return
            self._finish(result)

    def _finish(self, result: GameReview | None) -> None:
        self._idle()
        if result is None:
            return  # cancelled: the click that cancelled it says what happens now
        self.show(result)

    def _idle(self) -> None:
        self.progress.layout.display = "none"
        self.stop_button.layout.display = "none"

    def stop(self, text: str = "") -> None:
        """Cancel a review in progress (a new game, the Stop button)."""
        with self._showing:
            self._cancel.set()
            self._jobs.supersede()
            self._idle()
            if text:
                self._say(text)

    def wait(self, timeout: float = 300.0) -> None:
        """Block until the latest review is shown (tests)."""
        self._jobs.wait(timeout)

    # ---- showing ----------------------------------------------------------------------
    def _say(self, text: str, *, error: bool = False) -> None:
        css = "pushluck-message pushluck-message-error" if error else "pushluck-message"
        self.status.value = f'<span class="{css}" role="status">{escape(text)}</span>'

    def clear(self) -> None:
        with self._showing:
            self.result = None
            self.seats_html.value = self.decisions_html.value = self.notes_html.value = ""
            self.chart_box.layout.display = "none"
            self.status.value = ""

    def show(self, review: GameReview) -> None:
        """Show a computed review."""
        self.result = review
        record = review.record
        state = "finished" if record.finished else "stopped"
        moves = len(record.moves)
        self._say(f"Review of the {state} game (seed {record.seed}, {moves} "
                  f"move{'s' if moves != 1 else ''}): "
                  "a best choice costs 0; costly decisions are marked.")
        self.seats_html.value = (
            "<p><b>Each player's skill and luck.</b> Skill cost: the sum of what each decision "
            "gave away against the best choice. Luck: what the game gave beyond what the "
            "decisions deserved.</p>" + seats_table(review))
        xs, ys, mx, my = win_chart_data(review)
        if xs:
            if self.chart is None:
                self.chart = win_chart()
                self.chart_box.children = (self.chart,)
            with self.chart.batch_update():
                self.chart.data[0].x, self.chart.data[0].y = xs, ys
                self.chart.data[1].x, self.chart.data[1].y = mx, my
            sync_widget_state(self.chart)
            self.chart_box.layout.display = ""
        else:
            self.chart_box.layout.display = "none"
        self.decisions_html.value = "<p><b>Every decision.</b></p>" + decisions_table(review)
        self.notes_html.value = "".join(f"<p class='pl-note'>{escape(note)}</p>"
                                        for note in review.notes)


__all__ = ["ReviewPanel", "decisions_table", "seats_table", "win_chart_data"]
