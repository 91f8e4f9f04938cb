"""Views of the whole game: who is winning, when to hold, and what rules of thumb cost.

Pure builders: every function takes numbers or numpy arrays computed by a whole-game solver
(:mod:`pushluck_teach.solve.whole_game`) and returns a Plotly figure (``widget=True`` gives a
:class:`plotly.graph_objects.FigureWidget` that can be updated in place) or an HTML string.
Nothing here computes a probability, so any game whose solver produces the same arrays (Pig,
Captain Seven's Doubloons...) reuses them.

Colour: heatmaps use Cividis (readable with every common colour-vision deficiency and in
greyscale); lines and bars use the Okabe-Ito palette and also differ in dash or carry their
numbers as text, so nothing relies on colour alone.

* :func:`win_probability_heatmap`: ``values[i, j]``, the mover's chance to win with score ``i``
  against ``j`` at the start of a turn;
* :func:`hold_boundary_heatmap` / :func:`hold_boundary_surface`: ``boundary[i, j]``, the turn
  total at which the optimal player holds;
* :func:`win_gauge` (+ :func:`update_win_gauge`) and :func:`win_gauge_html`: the live "chance
  to win from here" gauge of a game table;
* :func:`roll_hold_chart`: the chance to win on rolling and on holding, against the turn total;
* :func:`policy_comparison_chart`, :func:`turns_distribution_chart`;
* :func:`position_explorer`: sliders (my score, opponent's score) driving a gauge and the
  roll/hold chart, from the solver's ``start``, ``roll`` and ``hold`` arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import plotly.graph_objects as go

from pushluck_teach.ui.figures import live_figure
from pushluck_teach.ui.theme import OKABE_ITO

if TYPE_CHECKING:
    import numpy as np

HEATMAP_SCALE = "Cividis"
BOUNDARY_SCALE = "Viridis"
ROLL_COLOUR = OKABE_ITO["blue"]
HOLD_COLOUR = OKABE_ITO["orange"]
REFERENCE_COLOUR = OKABE_ITO["black"]
GAUGE_COLOUR = OKABE_ITO["blue"]
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif"


def _figure(data: Sequence[Any], layout: dict[str, Any], widget: bool) -> go.Figure:
    layout = {"font": {"family": FONT}, "template": "plotly_white", **layout}
    if widget:
        # A live figure: plotly's bundle loads once per page (see ui.figures.LiveFigureWidget).
        return live_figure(list(data), layout)
    return go.Figure(data=list(data), layout=layout)


def _grid(values: Any) -> list[list[float]]:
    """A two-dimensional table as rows of floats: a NumPy array, a stored table read without
    NumPy (:class:`~pushluck_teach.solve.plain_arrays.PlainArray`) or nested lists."""
    rows = values.tolist() if hasattr(values, "tolist") else values
    return [[float(v) for v in row] for row in rows]


def win_probability_heatmap(values: np.ndarray, *,
                            title: str = "Chance to win at the start of your turn",
                            x_label: str = "Opponent's score", y_label: str = "Your score",
                            widget: bool = False) -> go.Figure:
    """Heatmap of ``values[i, j]`` (rows: my score ``i``; columns: opponent's score ``j``)."""
    values = _grid(values)
    rows, cols = len(values), len(values[0])
    trace = go.Heatmap(
        z=values, x=list(range(cols)), y=list(range(rows)), zmin=0.0, zmax=1.0,
        colorscale=HEATMAP_SCALE, colorbar={"title": {"text": "P(win)"}, "tickformat": ".0%"},
        hovertemplate=(f"{y_label} %{{y}}<br>{x_label} %{{x}}<br>"
                       "chance to win %{z:.4f}<extra></extra>"),
    )
    contour = go.Contour(
        z=values, x=list(range(cols)), y=list(range(rows)), showscale=False,
        contours={"start": 0.5, "end": 0.5, "size": 1, "coloring": "none",
                  "showlabels": True, "labelfont": {"color": "white"}},
        line={"color": "white", "width": 2, "dash": "dash"}, hoverinfo="skip", name="50%",
    )
    return _figure([trace, contour], {
        "title": {"text": title}, "height": 500,
        "xaxis": {"title": {"text": x_label}, "constrain": "domain"},
        "yaxis": {"title": {"text": y_label}, "scaleanchor": "x"},
    }, widget)


def hold_boundary_heatmap(boundary: np.ndarray, *,
                          title: str = "Optimal play: hold once the turn total reaches…",
                          x_label: str = "Opponent's score", y_label: str = "Your score",
                          zmax: float | None = None, widget: bool = False) -> go.Figure:
    """Heatmap of ``boundary[i, j]``, the turn total at which the optimal player holds;
    colours stop at ``zmax`` if given (the hover always shows the true total)."""
    boundary = _grid(boundary)
    rows, cols = len(boundary), len(boundary[0])
    trace = go.Heatmap(
        z=boundary, x=list(range(cols)), y=list(range(rows)), colorscale=BOUNDARY_SCALE,
        zmin=None if zmax is None else min(min(row) for row in boundary), zmax=zmax,
        colorbar={"title": {"text": "hold at"}},
        hovertemplate=(f"{y_label} %{{y}}<br>{x_label} %{{x}}<br>"
                       "hold at a turn total of %{z:.0f}<extra></extra>"),
    )
    return _figure([trace], {
        "title": {"text": title}, "height": 500,
        "xaxis": {"title": {"text": x_label}, "constrain": "domain"},
        "yaxis": {"title": {"text": y_label}, "scaleanchor": "x"},
    }, widget)


def hold_boundary_surface(boundary: np.ndarray, *,
                          title: str = "The roll/hold boundary",
                          x_label: str = "Opponent's score", y_label: str = "Your score",
                          widget: bool = False) -> go.Figure:
    """The hold boundary as a 3-D surface (below it: roll; on and above it: hold)."""
    boundary = _grid(boundary)
    rows, cols = len(boundary), len(boundary[0])
    trace = go.Surface(
        z=boundary, x=list(range(cols)), y=list(range(rows)), colorscale=BOUNDARY_SCALE,
        colorbar={"title": {"text": "hold at"}},
        hovertemplate=(f"{y_label} %{{y}}<br>{x_label} %{{x}}<br>"
                       "hold at %{z:.0f}<extra></extra>"),
    )
    return _figure([trace], {
        "title": {"text": title}, "height": 560,
        "scene": {"xaxis": {"title": {"text": x_label}}, "yaxis": {"title": {"text": y_label}},
                  "zaxis": {"title": {"text": "turn total"}}},
    }, widget)


def win_gauge(probability: float, *, title: str = "Chance to win from here",
              reference: float | None = None, widget: bool = False) -> go.Figure:
    """A gauge of ``probability`` (0-1), shown in percent; ``reference`` adds a delta (e.g.
    the chance at the start of the turn)."""
    indicator = go.Indicator(
        mode="gauge+number" + ("+delta" if reference is not None else ""),
        value=100.0 * float(probability),
        number={"suffix": "%", "valueformat": ".1f"},
        delta=None if reference is None else {
            "reference": 100.0 * float(reference), "valueformat": ".1f", "suffix": " pts",
            "increasing": {"color": OKABE_ITO["blue"]},
            "decreasing": {"color": OKABE_ITO["vermillion"]}},
        title={"text": title},
        gauge={"axis": {"range": [0, 100], "ticksuffix": "%"},
               "bar": {"color": GAUGE_COLOUR},
               "threshold": {"line": {"color": REFERENCE_COLOUR, "width": 3},
                             "thickness": 0.8, "value": 50}},
    )
    return _figure([indicator], {"height": 240,
                                 "margin": {"l": 40, "r": 50, "t": 60, "b": 10}}, widget)


def update_win_gauge(fig: go.Figure, probability: float, reference: float | None = None,
                     title: str | None = None) -> None:
    """Rewrite a :func:`win_gauge` figure in place."""
    with fig.batch_update():
        indicator = fig.data[0]
        indicator.value = 100.0 * float(probability)
        if reference is not None:
            indicator.delta.reference = 100.0 * float(reference)
        if title is not None:
            indicator.title.text = title


def win_gauge_html(probability: float | None, *, label: str = "Chance to win from here"
                   ) -> str:
    """The gauge as a small self-contained HTML meter (for tables built from HTML)."""
    if probability is None:
        return (f'<div class="pushluck-win-gauge"><span>{escape(label)}:</span> '
                "<b>n/a</b></div>")
    pct = 100.0 * float(probability)
    return (
        f'<div class="pushluck-win-gauge" role="meter" aria-valuemin="0" aria-valuemax="100" '
        f'aria-valuenow="{pct:.1f}" aria-label="{escape(label)}">'
        f"<span>{escape(label)}: <b>{pct:.1f}%</b></span>"
        '<div style="width:220px;height:14px;border:1px solid #444;border-radius:7px;'
        'background:#eee;overflow:hidden">'
        f'<div style="width:{pct:.1f}%;height:100%;background:{GAUGE_COLOUR}"></div></div>'
        "</div>"
    )


def roll_hold_chart(turn_totals: Sequence[int], roll: Sequence[float],
                    hold: Sequence[float], *, current: int | None = None,
                    title: str = "Chance to win: roll or hold?",
                    widget: bool = False) -> go.Figure:
    """The mover's chance to win on rolling (``data[0]``) and on holding (``data[1]``) at each
    turn total; ``current`` marks this turn's total."""
    x = list(turn_totals)
    traces = [
        go.Scatter(x=x, y=list(roll), mode="lines+markers", name="roll",
                   line={"color": ROLL_COLOUR, "width": 3},
                   hovertemplate="turn total %{x}: roll → %{y:.4f}<extra></extra>"),
        go.Scatter(x=x, y=list(hold), mode="lines+markers", name="hold",
                   line={"color": HOLD_COLOUR, "width": 3, "dash": "dash"},
                   marker={"symbol": "square"},
                   hovertemplate="turn total %{x}: hold → %{y:.4f}<extra></extra>"),
    ]
    layout: dict[str, Any] = {
        "title": {"text": title}, "height": 360,
        "xaxis": {"title": {"text": "turn total"}},
        "yaxis": {"title": {"text": "chance to win"}, "tickformat": ".0%"},
        "legend": {"orientation": "h", "y": -0.2},
    }
    if current is not None:
        layout["shapes"] = [{"type": "line", "x0": current, "x1": current, "yref": "paper",
                             "y0": 0, "y1": 1, "line": {"color": REFERENCE_COLOUR,
                                                        "dash": "dot"}}]
    return _figure(traces, layout, widget)


def policy_comparison_chart(labels: Sequence[str], probabilities: Sequence[float], *,
                            reference: float | None = 0.5,
                            title: str = "Chance to win", widget: bool = False) -> go.Figure:
    """Horizontal bars of win probabilities, each labelled with its value; ``reference`` draws
    a dotted line (a fair game: 50%)."""
    probs = [float(p) for p in probabilities]
    trace = go.Bar(
        y=list(labels), x=probs, orientation="h", marker={"color": ROLL_COLOUR},
        text=[f"{100 * p:.2f}%" for p in probs], textposition="auto",
        hovertemplate="%{y}: %{x:.4f}<extra></extra>",
    )
    layout: dict[str, Any] = {
        "title": {"text": title}, "height": 120 + 40 * len(probs),
        "xaxis": {"range": [0, 1], "tickformat": ".0%"},
        "yaxis": {"autorange": "reversed"}, "margin": {"l": 260},
    }
    if reference is not None:
        layout["shapes"] = [{"type": "line", "x0": reference, "x1": reference, "yref": "paper",
                             "y0": 0, "y1": 1, "line": {"color": REFERENCE_COLOUR,
                                                        "dash": "dot"}}]
    return _figure([trace], layout, widget)


def turns_distribution_chart(probabilities: Sequence[float], *, first: int = 1,
                             mean: float | None = None,
                             title: str = "How many turns to reach the goal?",
                             widget: bool = False) -> go.Figure:
    """Bars of ``P(T = n)`` for ``n = first, first + 1, ...``; ``mean`` is marked."""
    probs = [float(p) for p in probabilities]
    turns = list(range(first, first + len(probs)))
    trace = go.Bar(x=turns, y=probs, marker={"color": ROLL_COLOUR},
                   hovertemplate="%{x} turns: %{y:.5f}<extra></extra>", name="P(T = n)")
    layout: dict[str, Any] = {
        "title": {"text": title}, "height": 360,
        "xaxis": {"title": {"text": "number of turns"}},
        "yaxis": {"title": {"text": "probability"}},
    }
    if mean is not None:
        layout["shapes"] = [{"type": "line", "x0": mean, "x1": mean, "yref": "paper", "y0": 0,
                             "y1": 1, "line": {"color": HOLD_COLOUR, "dash": "dash",
                                               "width": 3}}]
        layout["annotations"] = [{"x": mean, "y": 1, "yref": "paper", "showarrow": False,
                                  "text": f"mean {mean:.2f}", "xanchor": "left"}]
    return _figure([trace], layout, widget)


def position_explorer(start: np.ndarray, roll: np.ndarray, hold: np.ndarray, *,
                      target: int, my_score: int = 0, opp_score: int = 0,
                      min_total: int = 1) -> Any:
    """Sliders for my score and the opponent's score, driving a gauge (chance to win at the
    start of the turn) and the roll/hold chart over the turn totals.

    ``start[i, j]``; ``roll[k, i, j]`` and ``hold[k, i, j]`` as a whole-game solver gives them;
    turn totals from ``min_total`` (Pig: 2, the smallest scoring face) are charted.
    """
    import ipywidgets as widgets
    import numpy as np  # here, not at import: the static site's Pyodide has none

    mine = widgets.IntSlider(value=my_score, min=0, max=target - 1, description="Your score")
    theirs = widgets.IntSlider(value=opp_score, min=0, max=target - 1,
                               description="Opponent")
    gauge = win_gauge(float(start[my_score, opp_score]), widget=True,
                      title="Chance to win (start of turn)")
    chart = roll_hold_chart([], [], [], widget=True)
    advice = widgets.HTML()

    def refresh(_change: Any = None) -> None:
        i, j = mine.value, theirs.value
        totals = np.arange(min_total, target - i)
        rolls, holds = roll[min_total:target - i, i, j], hold[min_total:target - i, i, j]
        update_win_gauge(gauge, float(start[i, j]))
        with chart.batch_update():
            chart.data[0].x = chart.data[1].x = totals
            chart.data[0].y, chart.data[1].y = rolls, holds
        best_hold = holds >= rolls
        if best_hold.any():
            first = int(np.argmax(best_hold))
            text = f"holding is best from a turn total of <b>{totals[first]}</b>"
            if not best_hold[first:].all():
                again = totals[first + int(np.argmin(best_hold[first:]))]
                text += f" (but from {again} on, rolling for the goal is better again)"
        else:
            text = "roll until you can hold at the goal"
        advice.value = f"<p>With {i} against {j}: {text}.</p>"

    mine.observe(refresh, names="value")
    theirs.observe(refresh, names="value")
    refresh()
    return widgets.VBox([widgets.HBox([mine, theirs]), advice, widgets.HBox([gauge, chart])])


def expected_turns_chart(hold_at: Sequence[int], expected: Sequence[float], *,
                         sd: Sequence[float] | None = None,
                         title: str = "Playing alone: expected turns to reach the goal",
                         widget: bool = False) -> go.Figure:
    """Expected number of turns (with ±1 standard deviation bars) against the hold total."""
    trace = go.Scatter(
        x=list(hold_at), y=[float(e) for e in expected], mode="lines+markers",
        line={"color": ROLL_COLOUR, "width": 3},
        error_y=None if sd is None else {"type": "data", "array": [float(s) for s in sd],
                                         "color": HOLD_COLOUR},
        hovertemplate="hold at %{x}: %{y:.3f} turns<extra></extra>", name="expected turns",
    )
    return _figure([trace], {
        "title": {"text": title}, "height": 360,
        "xaxis": {"title": {"text": "hold at (turn total)"}},
        "yaxis": {"title": {"text": "expected number of turns"}},
    }, widget)


def answer_reveal(answer_html: str, *, label: str = "Show the answer") -> Any:
    """A button that reveals ``answer_html`` (a check-yourself question's computed answer)."""
    import ipywidgets as widgets

    button = widgets.Button(description=label, button_style="info")
    shown = widgets.HTML()

    def reveal(_button: Any) -> None:
        shown.value = answer_html
        button.disabled = True

    button.on_click(reveal)
    return widgets.VBox([button, shown])


# --------------------------------------------------------------------------------------------
# Captain Seven's rules of thumb and the solo modes (additive)


def threshold_rule_chart(thresholds: Sequence[int], chances: dict[str, Sequence[float]], *,
                         reference: float = 0.5,
                         title: str = "Fixed rules against the optimal player (both seats)",
                         widget: bool = False) -> go.Figure:
    """One line per kind of rule (``{"threshold": [...], "chase": [...]}``): each rule's chance
    to win against the optimal player at each threshold ``T``; the dotted line is what the
    optimal player gets against itself (1/2).  Lines differ in dash and marker, not only in
    colour."""
    colours = [ROLL_COLOUR, HOLD_COLOUR, OKABE_ITO["bluish_green"], OKABE_ITO["vermillion"]]
    dashes = ["solid", "dash", "dot", "dashdot"]
    symbols = ["circle", "square", "diamond", "triangle-up"]
    traces = []
    for i, (name, values) in enumerate(chances.items()):
        traces.append(go.Scatter(
            x=list(thresholds), y=[float(v) for v in values], mode="lines+markers", name=name,
            line={"color": colours[i % 4], "width": 3, "dash": dashes[i % 4]},
            marker={"symbol": symbols[i % 4]},
            hovertemplate=f"{name}:%{{x}} → %{{y:.4f}}<extra></extra>",
        ))
    layout: dict[str, Any] = {
        "title": {"text": title}, "height": 380,
        "xaxis": {"title": {"text": "threshold T (stash once the turn total reaches T)"}},
        "yaxis": {"title": {"text": "chance to win"}, "tickformat": ".0%"},
        "legend": {"orientation": "h", "y": -0.25},
        "shapes": [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": reference,
                    "y1": reference, "line": {"color": REFERENCE_COLOUR, "dash": "dot"}}],
    }
    return _figure(traces, layout, widget)


def solo_distribution_chart(scores: Sequence[int], probabilities: Sequence[float],
                            sim_scores: Sequence[int] | None = None,
                            sim_probabilities: Sequence[float] | None = None, *,
                            mean: float | None = None, sim_mean: float | None = None,
                            model_label: str = "model (exact)",
                            sim_label: str = "real game (simulated)",
                            title: str = "Final score", widget: bool = False) -> go.Figure:
    """The final-score distribution: bars for the model (``data[0]``), and markers for the
    simulated real game (``data[1]``, when given); dashed/dotted lines mark the means."""
    traces = [go.Bar(x=list(scores), y=[float(p) for p in probabilities], name=model_label,
                     marker={"color": ROLL_COLOUR},
                     hovertemplate="score %{x}: %{y:.5f}<extra>model</extra>")]
    if sim_scores is not None and sim_probabilities is not None:
        traces.append(go.Scatter(
            x=list(sim_scores), y=[float(p) for p in sim_probabilities], mode="markers",
            name=sim_label, marker={"color": HOLD_COLOUR, "symbol": "diamond", "size": 7},
            hovertemplate="score %{x}: %{y:.5f}<extra>simulated</extra>"))
    shapes, notes = [], []
    for value, colour, dash, label in ((mean, REFERENCE_COLOUR, "dash", "model mean"),
                                       (sim_mean, HOLD_COLOUR, "dot", "simulated mean")):
        if value is None:
            continue
        shapes.append({"type": "line", "x0": value, "x1": value, "yref": "paper", "y0": 0,
                       "y1": 1, "line": {"color": colour, "dash": dash, "width": 2}})
        notes.append({"x": value, "y": 1.0 if not notes else 0.92, "yref": "paper",
                      "showarrow": False, "xanchor": "left",
                      "text": f"{label} {value:.1f}"})
    return _figure(traces, {
        "title": {"text": title}, "height": 380, "bargap": 0.05,
        "xaxis": {"title": {"text": "final score"}},
        "yaxis": {"title": {"text": "probability"}},
        "legend": {"orientation": "h", "y": -0.22}, "shapes": shapes, "annotations": notes,
    }, widget)
