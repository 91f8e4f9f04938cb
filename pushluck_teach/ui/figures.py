"""Pure builders and updaters for the four analysis charts, and the text shown beside them.

Each ``make_*`` function builds one :class:`plotly.graph_objects.FigureWidget` with its traces
in a fixed order; each ``update_*`` function rewrites that figure's data in place inside
``fig.batch_update()`` (the figure object is never replaced).  The
``*_html`` functions render the same numbers as text, so nothing is shown only as a bar.
Nothing here holds state or computes a probability: the numbers come in from the solver.

Charts (trace order):

* next card: ``data[0]`` bust outcomes (vermillion, hatched), ``data[1]`` gains (blue); ``y``
  is each outcome's probability of one more draw, exact fractions as bar text and hover;
* bust risk: ``data[0]``, ``p_bust_next`` at each decision of this turn, as a line;
* value of the choice: ``data[0]``, one bar per choice (stop now, draw once then stop,
  optimal play, and any other legal action such as an ace's value), the best outlined;
* outcome distribution: ``data[0]`` under the optimal policy, ``data[1]`` under "stop once the
  turn total reaches T".

Browser views.  plotly 6/7's ``FigureWidget`` is an anywidget whose ``_esm`` is plotly's whole
5 MB widget bundle (plotly.js and plotly's widget code).  anywidget 0.11's front end gives a
model 2 s from its creation to import its ``_esm``; past that it marks the model failed
("[anywidget] Failed to initialize model.") and from then on drops *every* message the kernel
sends to it.  A Play page creates four such models at once, so on a busy machine some or all of
its charts froze after the first draw.  :class:`LiveFigureWidget` replaces that module: its
``_esm`` is a tiny loader that finishes at once and imports the package's plotly bundle after
that deadline-bound step, once per page (``carry_bundle``).  The bundle is plotly.js with only
the trace types the package draws (``pushluck_teach/ui/static/plotly-pushluck.min.js``, 1.8 MB,
built by ``scripts/build_plotly_bundle.sh``): Chromium evaluates it in about a quarter of the
time plotly's widget bundle takes.  Its views draw the synced ``_widget_data``/``_widget_layout``
with ``Plotly.react``, at once and whenever they change, and :func:`sync_widget_state` assigns
those after every update (a :class:`LiveFigureWidget` does it itself where plotly would send an
edit message); plotly's own widget code, which applied edit messages, is not run.

Under the app's server the bundle does not travel in the widget state at all: the server serves
it as a file and names its URL in ``$PUSHLUCK_PLOTLY_BUNDLE_URL`` (``pushluck_teach.kernel_pool``),
the page's template preloads it (fetched and compiled while the server still runs the notebook),
and every figure carries only the URL (``_plotly_esm_url``), which the loader imports.

PNG download: the modebar's camera button saves a PNG; the options go in the figure's
``_config`` trait (``toImageButtonOptions``), which the views pass to ``Plotly.react``.
"""

from __future__ import annotations

import functools
import os
import re
import textwrap
from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from traitlets import Unicode, default

from pushluck_teach.numbers import fraction_text as plain_fraction
from pushluck_teach.ui.theme import (
    BEST_OUTLINE,
    BUST_COLOUR,
    DRAW_ONCE_COLOUR,
    FONT_STACK,
    GAIN_COLOUR,
    OPTIMAL_COLOUR,
    OTHER_ACTION_COLOUR,
    STOP_COLOUR,
    THRESHOLD_COLOUR,
)

Number = Fraction | float | int

#: the charts' height (px) and type size; their width follows their box on the page
FIGURE_HEIGHT = 360
FIGURE_FONT = 13
#: Fractions with denominators above this are shown as decimals only (they would not fit).
MAX_SHOWN_DENOMINATOR = 10**7


@dataclass(frozen=True)
class OutcomeBar:
    """One outcome of one more draw, as charted."""

    label: str
    probability: Number
    busted: bool
    total_after: Number


@dataclass(frozen=True)
class ChoiceBar:
    """One bar of the value-of-the-choice chart: ``key`` is ``stop``, ``draw_once``,
    ``optimal`` or ``action:<name>``; ``value`` is None when the choice is not available."""

    key: str
    label: str
    value: Number | None


# --------------------------------------------------------------------------------------------
# number formatting


def fraction_text(value: Number | None, missing: str = "n/a") -> str:
    """``"p/q"`` for a rational (reduced; ``0/1`` and ``1/1`` included), ``missing`` for None:
    the base layer's :func:`pushluck_teach.numbers.fraction_text` (the CLI's), floats taken
    exactly."""
    return plain_fraction(value if value is None or isinstance(value, Fraction | int)
                          else Fraction(value), missing)


def short_fraction(value: Number) -> str:
    """Chart text: the exact fraction (a whole number as such) when the denominator is at most
    10 000, else four decimals."""
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    if frac.denominator <= 10**4:
        return fraction_text(frac)
    return f"{float(frac):.4f}"


def probability_text(value: Number | None) -> str:
    """A probability as an exact fraction when it fits, with its decimal: ``1/6 ≈ 0.1667``;
    ``0 (impossible)`` and ``1 (certain)`` for the two ends."""
    if value is None:
        return "n/a"
    if value == 0:
        return "0 (impossible)"
    if value == 1:
        return "1 (certain)"
    if isinstance(value, Fraction | int) and Fraction(value).denominator <= MAX_SHOWN_DENOMINATOR:
        return f"{fraction_text(value)} ≈ {float(value):.4f}"
    return f"{float(value):.4f}"


def short_probability(value: Number) -> str:
    """Bar text: the exact fraction when it fits, else a percentage."""
    if isinstance(value, Fraction | int) and Fraction(value).denominator <= 10**4:
        return fraction_text(value)
    return f"{100 * float(value):.1f}%"


def value_text(value: Number | None) -> str:
    """An expected value: ``7``, ``8.333 (= 25/3)``, or a decimal when the fraction is huge."""
    if value is None:
        return "n/a"
    if isinstance(value, Fraction | int):
        frac = Fraction(value)
        if frac.denominator == 1:
            return str(frac.numerator)
        if frac.denominator <= MAX_SHOWN_DENOMINATOR:
            return f"{float(frac):.3f} (= {frac.numerator}/{frac.denominator})"
    if float(value).is_integer():  # a whole number needs no decimals
        return str(int(value))
    return f"{float(value):.3f}"


def short_value(value: Number | None) -> str:
    """Bar text for an expected value: a whole number, or three decimals."""
    if value is None:
        return "n/a"
    if isinstance(value, Fraction | int) and Fraction(value).denominator == 1:
        return str(Fraction(value).numerator)
    if float(value).is_integer():
        return str(int(value))
    return f"{float(value):.3f}"


def wrapped_title(text: str, width: int = 40) -> str:
    """A chart title broken into lines of at most ``width`` characters (Plotly does not wrap
    titles, and a chart as wide as half a projector screen cuts a long one off)."""
    return "<br>".join(textwrap.wrap(text, width)) if len(text) > width else text


def _num(value: Number | None) -> float | None:
    return None if value is None else float(value)


# --------------------------------------------------------------------------------------------
# construction


def png_config(filename: str) -> dict[str, Any]:
    """Plotly config: a modebar with the PNG download (camera) button, shown while the pointer
    is over the chart (a narrow chart's title runs under it), no plotly logo."""
    return {
        "displaylogo": False,
        "displayModeBar": "hover",  # over a chart only: elsewhere it would cover the title
        "responsive": True,
        "toImageButtonOptions": {"format": "png", "filename": filename, "scale": 2},
        "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
    }


#: A y-axis title that names a probability (the axis stays inside [0, 1]) or a chance (a
#: probability too, or a percentage when the title says "%": inside [0, 100]).
PROBABILITY_TITLE = re.compile(r"probabilit|(^|\W)P\(|chance", re.IGNORECASE)


def _axis_title_text(axis: Mapping[str, Any]) -> str:
    title = axis.get("title")
    if isinstance(title, Mapping):
        title = title.get("text")
    return title if isinstance(title, str) else ""


def probability_limits(title: str) -> tuple[float, float] | None:
    """The range an axis titled ``title`` may show: ``(0, 1)`` for a probability, ``(0, 100)``
    for a chance in percent, None for anything else."""
    if not PROBABILITY_TITLE.search(title):
        return None
    return (0.0, 100.0) if "%" in title else (0.0, 1.0)


def probability_axis(title: str | Mapping[str, Any] = "probability", **extra: Any
                     ) -> dict[str, Any]:
    """A y-axis for a probability (a chance in percent when the title says "%"): scaled to its
    data from 0, never outside [0, 1] (or [0, 100]); a ``range`` given is cut to those bounds.
    :func:`base_layout` and :func:`live_figure` apply it to every axis whose title names a
    probability or a chance, and the browser view checks it again on every draw."""
    axis: dict[str, Any] = {"title": title, "rangemode": "tozero", **extra}
    low, high = probability_limits(_axis_title_text(axis)) or (0.0, 1.0)
    shown = axis.get("range")
    if shown is not None:
        start, end = shown
        axis["range"] = [low if start is None else max(low, start),
                         high if end is None else min(high, end)]
    else:
        axis["autorangeoptions"] = {"clipmin": low, "clipmax": high}
    return axis


def bound_probability_axes(layout: dict[str, Any]) -> dict[str, Any]:
    """``layout`` with every y-axis whose title names a probability made a
    :func:`probability_axis`."""
    for key, axis in list(layout.items()):
        if re.fullmatch(r"yaxis\d*", key) and isinstance(axis, Mapping) \
                and probability_limits(_axis_title_text(axis)):
            layout[key] = probability_axis(**dict(axis))
    return layout


def base_layout(title: str, **extra: Any) -> dict[str, Any]:
    """The charts' common Plotly layout; ``extra`` keys replace the defaults.  A y-axis whose
    title names a probability is a :func:`probability_axis`.  The browser view (``LAZY_ESM``)
    wraps the chart title to the chart's width, starts it where the plot starts (clear of the
    y-axis title), wraps the y-axis title to the plot's height, and in projector mode draws no
    type under 16 px."""
    layout: dict[str, Any] = {
        "title": {"text": title, "font": {"size": 16}},
        "height": FIGURE_HEIGHT,
        "margin": {"l": 55, "r": 15, "t": 55, "b": 95},
        "font": {"family": FONT_STACK, "size": FIGURE_FONT},
        "template": "plotly_white",
        "legend": {"orientation": "h", "y": -0.32, "x": 0},
    }
    layout.update(extra)
    return bound_probability_axes(layout)


#: Room at the top of a chart for a title of two lines (:func:`wrapped_title`).
TWO_LINE_TITLE_MARGIN = {"l": 55, "r": 15, "t": 75, "b": 95}


#: The anywidget module of :class:`LiveFigureWidget`: it returns at once (anywidget's 2 s
#: deadline) and imports the plotly bundle once per page: from the import the page's template
#: started early (``window.__pushluckPlotlyPreload``), else from the URL a model names in
#: ``_plotly_esm_url``, else from the source a model carries in ``_plotly_esm`` (the next one is
#: tried when one fails).  Its views draw the synced ``_widget_data``/``_widget_layout`` with
#: ``Plotly.react``, at once and after every change.
LAZY_ESM = r"""
const KEY = "__pushluckPlotlyWidget";
function shared() {
  let slot = globalThis[KEY];
  if (!slot) {
    slot = { sources: [], busy: false, done: false };
    slot.promise = new Promise((resolve) => { slot.resolve = resolve; });
    const early = globalThis.__pushluckPlotlyPreload;
    if (early) {
      slot.sources.push(() => early.then((mod) => mod || Promise.reject(new Error("preload"))));
    }
    globalThis[KEY] = slot;
  }
  return slot;
}
function fromSource(source) {
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  return import(url).finally(() => URL.revokeObjectURL(url));
}
function next(slot) {
  if (slot.busy || slot.done || slot.sources.length === 0) return;
  slot.busy = true;
  slot.sources.shift()().then(
    (mod) => {
      const Plotly = (mod && mod.default && mod.default.react) ? mod.default : globalThis.Plotly;
      if (!Plotly || !Plotly.react) throw new Error("the module holds no plotly.js");
      slot.done = true;
      slot.resolve(Plotly);
    }).catch(
    (error) => { console.warn("plotly bundle:", error); slot.busy = false; next(slot); });
}
function load(model) {
  const slot = shared();
  const url = model.get("_plotly_esm_url");
  const source = model.get("_plotly_esm");
  // a blob: module resolves no path of its own: make the URL absolute against the page
  if (url) slot.sources.push(() => import(new URL(url, document.baseURI).href));
  if (source) slot.sources.push(() => fromSource(source));
  next(slot);
  return slot.promise;
}
const PROJECTOR_TEXT = 16;  // px: the least type size of a chart in projector mode
const PROJECTOR_PLOT = 110;  // px: the least plot height a chart keeps for long labels on end
const NORMAL_TEXT = 12;     // px: the least size of tick labels, bar and heatmap-cell text
const PROBABILITY = /probabilit|(^|\W)P\(|chance/i;  // as PROBABILITY_TITLE in Python
const TEXT_TRACES = ["bar", "heatmap", "scatter", "histogram", "contour"];
function projectorOn() { return !!document.querySelector(".pl-projector-on"); }
function watchMode(slot, redraw) {
  // One observer per page: every chart is drawn again when projector mode changes.
  if (!slot.views) {
    slot.views = new Set();
    slot.projector = projectorOn();
    new MutationObserver(() => {
      const now = projectorOn();
      if (now === slot.projector) return;
      slot.projector = now;
      for (const view of slot.views) view(true);
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class"] });
  }
  slot.views.add(redraw);
  return () => slot.views.delete(redraw);
}
function atLeast(font, size, inherited = 0) {
  // font with a size of at least size px (a font without a size of its own has inherited)
  const out = { ...(font || {}) };
  const now = typeof out.size === "number" ? out.size : inherited;
  if (!(now >= size)) out.size = size;
  return out;
}
function wrapWords(text, maxChars) {
  // plain text (line breaks allowed) broken into lines of at most maxChars characters
  if (typeof text !== "string" || /<(?!br\s*\/?>)/i.test(text)) return text;
  const lines = [];
  let line = "";
  for (const word of text.split(/<br\s*\/?>|\s+/i).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) { lines.push(line); line = word; }
    else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("<br>");
}
function titleOf(value) {
  if (value === undefined || value === null) return {};
  return typeof value === "string" ? { text: value } : { ...value };
}
// The layout and data a view draws: titles wrapped to the chart's width (the chart title starts
// where the plot does, so it never runs into the y-axis title in the left margin, and the top
// margin grows with its lines), y-axis titles wrapped to the plot's height, and in projector
// mode no type under 16 px (axes, legend, bar and heatmap text, colour bars, annotations).
function present(layout, data, width, projector) {
  const least = projector ? PROJECTOR_TEXT : 0;
  const base = Math.max((layout.font && layout.font.size) || 12, least);
  layout.font = { ...(layout.font || {}), size: base };
  const margin = { l: 55, r: 15, t: 55, b: 95, ...(layout.margin || {}) };
  const legend = layout.legend || {};
  if (projector) layout.legend = { ...legend, font: atLeast(legend.font, least, base) };
  const named = data.filter((trace) => trace.showlegend !== false && trace.name);
  const legendShown = layout.showlegend !== false && named.length > 1;
  if (projector && legendShown && legend.orientation === "h" && (legend.y ?? 0) < 0) {
    // a legend below the plot runs into the x-axis title in large type: above the plot
    layout.legend = { ...layout.legend, y: 1, yanchor: "bottom", x: 1, xanchor: "right" };
    margin.b = Math.min(margin.b, 64);  // the axes' automargin grows it where labels need it
  }
  let legendRows = 0;
  if (legendShown && (layout.legend || {}).orientation === "h" && (layout.legend.y ?? 0) >= 1) {
    const itemsWidth = named.reduce((sum, trace) => sum + 46 + 0.6 * base *
                                    String(trace.name).length, 0);
    legendRows = Math.ceil(itemsWidth / Math.max(200, (width || 400) - margin.l - margin.r));
  }
  const title = titleOf(layout.title);
  let titleHeight = 0;
  if (title.text) {
    const size = Math.max((title.font && title.font.size) || base + 3, projector ? 19 : 0);
    // the title starts where the plot does: after a left margin the axis may still widen
    const room = Math.max(160, (width || 400) - Math.max(margin.l, 70) - 8);
    title.text = wrapWords(title.text, Math.max(12, Math.floor(room / (0.55 * size))));
    titleHeight = title.text.split("<br>").length * size * 1.3;
    // plotly anchors a title of several lines by its first line (yanchor "top" puts the
    // lines after the first above the chart): the first line's foot 6 px + one line down
    Object.assign(title, { font: { ...(title.font || {}), size }, x: 0, xref: "paper",
                           xanchor: "left", y: 1 - (6 + 0.9 * size) / (layout.height || 360),
                           yref: "container", yanchor: "bottom" });
    layout.title = title;
  }
  if (titleHeight || legendRows) {
    margin.t = Math.max(margin.t, Math.ceil(16 + titleHeight + legendRows * (base * 1.5 + 4)));
  }
  if (projector) {
    // long category labels stand on end below the plot in large type: the chart grows by what
    // they need beyond the usual margin, less what its plot can spare (it keeps at least
    // PROJECTOR_PLOT px), so a 1280x720 screen still holds the whole chart
    const labels = data.flatMap((trace) => (trace.type === "bar" ? trace.x || [] : []));
    const longest = Math.max(0, ...labels.map((label) => String(label).split("<br>")
        .reduce((most, line) => Math.max(most, line.length), 0)));
    const slotWidth = ((width || 400) - margin.l - margin.r) / Math.max(1, new Set(labels).size);
    if (longest * 0.5 * base > 1.1 * slotWidth) {  // plotly turns them
      const spare = Math.max(0, (layout.height || 360) - margin.t - margin.b - PROJECTOR_PLOT);
      layout.height = (layout.height || 360) +
          Math.max(0, Math.round(longest * 0.55 * base) - 70 - spare);
    }
  }
  const plotHeight = Math.max(80, (layout.height || 360) - margin.t - margin.b);
  for (const key of Object.keys(layout)) {
    if (!/^[xy]axis\d*$/.test(key) || !layout[key]) continue;
    const axis = { ...layout[key], automargin: true };
    const axisTitle = titleOf(axis.title);
    if (key.startsWith("y") && PROBABILITY.test(axisTitle.text || "")) {
      // a probability stays inside [0, 1] (a chance in percent inside [0, 100]); an empty
      // chart shows all of it (plotly's range for no data is -1 to 4)
      const high = axisTitle.text.includes("%") ? 100 : 1;
      const empty = data.every((trace) => !(trace.y || []).length && !(trace.x || []).length);
      if (empty) {
        axis.range = [0, high];
        axis.autorange = false;
      } else if (Array.isArray(axis.range)) {
        axis.range = [Math.max(0, axis.range[0] ?? 0), Math.min(high, axis.range[1] ?? high)];
      } else {
        axis.autorangeoptions = { ...(axis.autorangeoptions || {}), clipmin: 0, clipmax: high };
      }
    }
    if (axisTitle.text) {
      const size = Math.max((axisTitle.font && axisTitle.font.size) || base, least);
      if (key.startsWith("y")) {
        axisTitle.text = wrapWords(axisTitle.text, Math.max(8, Math.floor(plotHeight /
                                                                           (0.5 * size))));
      }
      if (projector) axisTitle.font = { ...(axisTitle.font || {}), size };
      axis.title = axisTitle;
    }
    axis.tickfont = atLeast(axis.tickfont, Math.max(least, NORMAL_TEXT), base);
    // a log axis labels the digits between powers of ten smaller: powers of ten only
    if (axis.type === "log" && axis.dtick === undefined) axis.dtick = 1;
    layout[key] = axis;
  }
  layout.margin = margin;
  // Bar text is never shrunk below the least size: a label too wide for its bar stands on
  // end, and one that does not fit even so is left out (hover and the page's tables carry it).
  const textSize = Math.max(least, NORMAL_TEXT, base);
  layout.uniformtext = { mode: "show", minsize: Math.max(least, NORMAL_TEXT) };
  const bars = data.filter((trace) => trace.type === "bar" && Array.isArray(trace.text) &&
                                      trace.text.length && trace.orientation !== "h");
  const slots = new Set(bars.flatMap((trace) => (trace.x || []).map(String))).size;
  const perSlot = layout.barmode === "group" ? Math.max(1, bars.length) : 1;
  const slot = ((width || 400) - margin.l - margin.r) / Math.max(1, slots) / perSlot;
  const longest = Math.max(0, ...bars.flatMap((trace) => trace.text.map(
      (label) => String(label ?? "").replace(/<br>/g, "\n").split("\n")
          .reduce((most, line) => Math.max(most, line.length), 0))));
  const tooWide = bars.length > 0 && longest * 0.6 * textSize > 0.9 * slot;
  const standOnEnd = tooWide && slot >= 1.1 * textSize;
  const leaveOut = tooWide && !standOnEnd;
  if (projector && Array.isArray(layout.annotations)) {
    layout.annotations = layout.annotations.map((note) => ({
      ...note, font: atLeast(note.font, least, base) }));
  }
  const colorbar = (bar) => ({ ...bar, tickfont: atLeast(bar.tickfont, least, base),
                                title: { ...titleOf(bar.title),
                                         font: atLeast(titleOf(bar.title).font, least, base) } });
  if (projector && layout.coloraxis && layout.coloraxis.colorbar) {
    layout.coloraxis = { ...layout.coloraxis, colorbar: colorbar(layout.coloraxis.colorbar) };
  }
  return data.map((trace) => {
    const out = { ...trace };
    const hasText = out.text !== undefined || out.texttemplate !== undefined;
    if (hasText && TEXT_TRACES.includes(out.type || "scatter")) {
      // heatmap text without a size is fitted to its cells (down to 9 px): it gets one
      out.textfont = atLeast(out.textfont, Math.max(least, NORMAL_TEXT),
                             out.type === "heatmap" ? 0 : base);
    }
    if (standOnEnd && bars.includes(trace) && out.textangle === undefined) {
      // on end: inside a bar tall enough for it (plotly picks a contrasting colour), else
      // above it (plotly's own choice keeps a label of the least size inside, cut)
      out.textangle = -90;
      const high = Math.max(...bars.flatMap((bar) => (bar.y || []).map(Number)), 1e-12);
      const plotPx = Math.max(80, (layout.height || 360) - margin.t - margin.b);
      out.textposition = (out.y || []).map((value, i) => {
        const label = String((out.text || [])[i] ?? "").length * 0.6 * textSize + 8;
        return Number(value) / high * 0.9 * plotPx >= label ? "inside" : "outside";
      });
    } else if (leaveOut && bars.includes(trace)) {
      out.textposition = "none";  // the text stays in the hover
    }
    if (projector && out.colorbar) out.colorbar = colorbar(out.colorbar);
    if (projector && out.contours && out.contours.showlabels) {
      out.contours = { ...out.contours, labelfont: atLeast(out.contours.labelfont, least, base) };
    }
    return out;
  });
}
export default () => {
  let ready = null;
  return {
    initialize({ model }) {
      ready = load(model);
    },
    async render({ model, el }) {
      const Plotly = await ready;
      // The plot follows its box: it is drawn again whenever its drawn width differs from its
      // box's (a wider window, projector mode, a tab shown), not only on window resize, so its
      // titles are wrapped for the width it has.  The drawn width is compared, not the last box
      // width seen: a box that changed before the first draw finished must still be followed
      // once the plot exists.  No chart has a width of its own: a width in the synced layout is
      // only an echo of an earlier box, so it is never kept.
      const fit = () => {
        const now = Math.round(el.getBoundingClientRect().width);
        if (disposed || now === 0 || !el._fullLayout) return;
        if (Math.abs(now - drawnFor) >= 2) {
          redraw();  // a new width: titles wrapped again
        } else if (Math.abs(el._fullLayout.width - now) >= 2) {
          // drawn for this width but not at it: re-size only (never a loop of redraws).
          // Plots.resize leaves a plot alone whose layout has a width and a height.
          if (el.layout) delete el.layout.width;
          Promise.resolve(Plotly.Plots.resize(el)).catch(() => {});
        }
      };
      let drawnFor = -1;
      let queued = false;
      let disposed = false;
      const redraw = (modeChanged = false) => {
        if (modeChanged === true && el.offsetParent === null) {
          drawnFor = -1;  // hidden (folded away): drawn again once it is shown
          return;
        }
        if (queued) return;
        queued = true;
        setTimeout(() => {
          queued = false;
          if (disposed) return;
          const layout = structuredClone(model.get("_widget_layout"));
          delete layout.width;
          layout.autosize = true;
          if (!layout.height) layout.height = 360;
          const width = Math.round(el.getBoundingClientRect().width);
          drawnFor = width;
          const data = present(layout, structuredClone(model.get("_widget_data")), width,
                               projectorOn());
          const config = { ...model.get("_config"), editSelection: false };
          Promise.resolve(Plotly.react(el, data, layout, config)).then(() => fit(), () => {});
        }, 0);
      };
      model.on("change:_widget_data", redraw);
      model.on("change:_widget_layout", redraw);
      const unwatch = watchMode(shared(), redraw);
      redraw();
      const observer = new ResizeObserver(fit);
      for (const delay of [250, 1000, 3000, 6000, 10000]) setTimeout(fit, delay);
      observer.observe(el);
      return () => {
        disposed = true;
        unwatch();
        observer.disconnect();
        model.off("change:_widget_data", redraw);
        model.off("change:_widget_layout", redraw);
        Plotly.purge(el);
      };
    },
  };
};
"""

#: Set by the app's server (``pushluck_teach.kernel_pool``, which names it too) in every kernel
#: it starts: the URL at which it serves the plotly bundle.
BUNDLE_URL_ENV = "PUSHLUCK_PLOTLY_BUNDLE_URL"
#: plotly.js with only the trace types the package draws, one ES module (1.8 MB against plotly's
#: 5 MB widget bundle), built by ``scripts/build_plotly_bundle.sh``.
PLOTLY_BUNDLE_FILE = Path(__file__).parent / "static" / "plotly-pushluck.min.js"


@functools.cache
def plotly_bundle_source() -> str:
    """The bundle's text, read once: every figure of a kernel shares the one 1.8 MB string
    (read per figure, every Play table held about 4 MB more)."""
    return PLOTLY_BUNDLE_FILE.read_text(encoding="utf-8")


class LiveFigureWidget(go.FigureWidget):
    """A ``FigureWidget`` whose browser views draw its synced state (see the module docstring):
    a small loader as ``_esm``, the plotly bundle in ``_plotly_esm`` — or, in a kernel of the
    app's server (``$PUSHLUCK_PLOTLY_BUNDLE_URL`` set), only the URL the server serves the
    bundle at, in ``_plotly_esm_url``.

    Its views draw ``_widget_data``/``_widget_layout`` only (plotly's own widget code, which
    applied edit messages, does not run in the browser), so where plotly would send an edit
    message (``_py2js_*``: after a ``batch_update``, or a property set outside one) the figure
    copies its data and layout into those traits instead (:func:`sync_widget_state`).
    """

    _esm = LAZY_ESM
    _plotly_esm = Unicode().tag(sync=True)
    _plotly_esm_url = Unicode().tag(sync=True)

    def _sync_instead_of_edit_message(self, *_args: Any, **_kwargs: Any) -> None:
        sync_widget_state(self)

    @property
    def config(self) -> dict[str, Any]:
        """The chart's Plotly config (mode bar, the PNG download's name).  plotly's widget
        keeps it in its synced trait ``_config`` and has no public setter."""
        return self._config

    @config.setter
    def config(self, value: dict[str, Any]) -> None:
        self._config = value

    _send_addTraces_msg = _sync_instead_of_edit_message
    _send_moveTraces_msg = _sync_instead_of_edit_message
    _send_deleteTraces_msg = _sync_instead_of_edit_message
    _send_restyle_msg = _sync_instead_of_edit_message
    _send_relayout_msg = _sync_instead_of_edit_message
    _send_update_msg = _sync_instead_of_edit_message
    _send_animate_msg = _sync_instead_of_edit_message

    @default("_plotly_esm_url")
    def _served_bundle_url(self) -> str:
        return os.environ.get(BUNDLE_URL_ENV, "")

    @default("_plotly_esm")
    def _bundle_source(self) -> str:
        return "" if self._plotly_esm_url else plotly_bundle_source()


class BundleSharingFigureWidget(LiveFigureWidget):
    """A :class:`LiveFigureWidget` without its own copy of the bundle: it waits for a
    :class:`LiveFigureWidget` shown on the same page to bring it."""

    @default("_plotly_esm")
    def _bundle_source(self) -> str:
        return ""


def live_figure(data: list[Any] | None = None, layout: Any = None, *,
                carry_bundle: bool = True) -> LiveFigureWidget:
    """A :class:`LiveFigureWidget`; ``carry_bundle=False`` leaves plotly's bundle to another
    figure displayed on the same page."""
    cls = LiveFigureWidget if carry_bundle else BundleSharingFigureWidget
    fig = cls(data=data, layout=layout)
    given = fig.layout.to_plotly_json()
    for key, axis in bound_probability_axes(dict(given)).items():
        if axis is not given.get(key):  # a probability axis, now bounded
            fig.layout[key].update(axis)
    fig.layout.width = None  # the width follows the chart's box (see LAZY_ESM and PAGE_CSS)
    fig.add_class("pl-chart")
    return fig


def page_chart(figure: go.Figure, *, carry_bundle: bool = False) -> LiveFigureWidget:
    """A chart for a page: ``figure`` (a plain plotly figure) as a live figure widget.

    A plain plotly figure shown as a notebook output goes to Voilà's jupyterlab-plotly renderer,
    which draws it but throws "r.setData is not a function" in the browser for every figure;
    figure widgets draw with the plotly bundle the page already holds.  One chart
    per page carries that bundle (``carry_bundle=True``: the first one shown); the others share
    it.
    """
    return live_figure(list(figure.data), figure.layout, carry_bundle=carry_bundle)


def _widget(data: list[Any], layout: dict[str, Any], filename: str, carry_bundle: bool = True
            ) -> LiveFigureWidget:
    fig = live_figure(data, layout, carry_bundle=carry_bundle)
    fig.config = png_config(filename)
    return fig


def make_next_card_figure(*, carry_bundle: bool = True) -> go.FigureWidget:
    hover = ("%{x}<br>probability %{customdata[0]}<br>≈ %{y:.4f}"
             "<br>turn total after: %{customdata[1]}<extra></extra>")
    bars = [
        go.Bar(name="bust", x=[], y=[], marker={"color": BUST_COLOUR,
                                                 "pattern": {"shape": "x", "fgcolor": "#FFFFFF"}},
               textposition="outside", cliponaxis=False, hovertemplate=hover),
        go.Bar(name="gain", x=[], y=[], marker={"color": GAIN_COLOUR},
               textposition="outside", cliponaxis=False, hovertemplate=hover),
    ]
    # The legend sits above the bars, right, below the title (the margin of a two-line title):
    # below the bars it would hide the outcomes' labels.
    layout = base_layout(
        "Next draw", barmode="overlay", xaxis={"type": "category", "title": None},
        yaxis={"title": "probability", "rangemode": "tozero"}, margin=TWO_LINE_TITLE_MARGIN,
        legend={"orientation": "h", "x": 1, "xanchor": "right", "y": 1, "yanchor": "bottom"},
    )
    return _widget(bars, layout, "pushluck-next-draw", carry_bundle)


def make_bust_line_figure(*, carry_bundle: bool = True) -> go.FigureWidget:
    line = go.Scatter(
        name="P(next draw busts)", x=[], y=[], mode="lines+markers+text",
        line={"color": BUST_COLOUR, "width": 3}, marker={"size": 10, "symbol": "diamond"},
        textposition="top center", cliponaxis=False,
        hovertemplate="%{x}<br>P(bust) %{text}<br>≈ %{y:.4f}<extra></extra>",
    )
    layout = base_layout(
        "Bust risk so far this turn", showlegend=False,
        xaxis={"type": "category", "title": "decision"},
        yaxis={"title": "P(next draw busts)", "range": [0, 1], "tickformat": ".0%"},
    )
    return _widget([line], layout, "pushluck-bust-risk", carry_bundle)


def make_choice_figure(*, carry_bundle: bool = True) -> go.FigureWidget:
    bar = go.Bar(
        name="expected result", x=[], y=[], textposition="outside", cliponaxis=False,
        marker={"color": [], "line": {"color": BEST_OUTLINE, "width": []}},
        hovertemplate="%{x}<br>expected result %{text}<extra></extra>",
    )
    layout = base_layout(
        "Value of the choice", showlegend=False, xaxis={"type": "category", "title": None},
        yaxis={"title": "expected result of the turn"},
    )
    return _widget([bar], layout, "pushluck-value-of-choice", carry_bundle)


def make_distribution_figure(*, carry_bundle: bool = True) -> go.FigureWidget:
    hover = "result %{x}<br>probability ≈ %{y:.4f}<extra>%{fullData.name}</extra>"
    bars = [
        go.Bar(name="optimal play", x=[], y=[], marker={"color": OPTIMAL_COLOUR},
               hovertemplate=hover),
        go.Bar(name="stop at T", x=[], y=[], marker={"color": THRESHOLD_COLOUR,
                                                      "pattern": {"shape": "/"}},
               hovertemplate=hover),
    ]
    layout = base_layout(
        "This turn's result from here", barmode="group",
        xaxis={"title": "result of the turn"}, yaxis={"title": "probability"},
    )
    return _widget(bars, layout, "pushluck-turn-distribution", carry_bundle)


def sync_widget_state(*figs: go.FigureWidget) -> None:
    """Copy each figure's current data and layout into its synced widget state.

    The synced ``_widget_data``/``_widget_layout`` traits are what a :class:`LiveFigureWidget`'s
    views draw (a view created later, too: a page opened after the kernel ran the notebook, a
    re-attached view).  A :class:`LiveFigureWidget` calls this itself after every edit, so a
    call after an update only makes sure (assigning an unchanged value sends nothing); for a
    plain ``FigureWidget``, whose views apply edit messages, it keeps later views current.
    """
    for fig in figs:
        fig._widget_data = deepcopy(fig._data)
        fig._widget_layout = deepcopy(fig._layout_obj._props)


# --------------------------------------------------------------------------------------------
# updates (in place)


def _unique_labels(outcomes: Sequence[OutcomeBar]) -> list[str]:
    seen: set[str] = set()
    labels = []
    for outcome in outcomes:
        label = outcome.label
        while label in seen:
            label += " (bust)" if outcome.busted else " "
        seen.add(label)
        labels.append(label)
    return labels


def update_next_card(fig: go.FigureWidget, outcomes: Sequence[OutcomeBar],
                     p_bust: Number | None, title: str = "Next draw") -> None:
    """Show every outcome of one more draw; ``p_bust`` goes in the title."""
    labels = _unique_labels(outcomes)
    groups = ([i for i, o in enumerate(outcomes) if o.busted],
              [i for i, o in enumerate(outcomes) if not o.busted])
    with fig.batch_update():
        for trace, idx in zip(fig.data, groups, strict=True):
            trace.x = [labels[i] for i in idx]
            trace.y = [float(outcomes[i].probability) for i in idx]
            trace.text = [short_probability(outcomes[i].probability) for i in idx]
            trace.customdata = [
                [probability_text(outcomes[i].probability), value_text(outcomes[i].total_after)]
                for i in idx
            ]
        suffix = "" if p_bust is None else (
            ": no card busts you" if p_bust == 0 else f": chance to bust {fraction_text(p_bust)}")
        fig.layout.title.text = f"{title}{suffix}" if outcomes else f"{title}: drawing not legal"


def update_bust_line(fig: go.FigureWidget, points: Sequence[tuple[str, Number | None]]) -> None:
    """``points`` are ``(label, p_bust_next)`` for this turn's decisions so far."""
    shown = [(label, p) for label, p in points if p is not None]
    with fig.batch_update():
        trace = fig.data[0]
        trace.x = [label for label, _ in shown]
        trace.y = [float(p) for _, p in shown]
        trace.text = [short_probability(p) for _, p in shown]


def update_choice(fig: go.FigureWidget, bars: Sequence[ChoiceBar], best_key: str | None,
                  title: str) -> None:
    """One bar per available choice; the bar of ``best_key`` outlined."""
    colours = {"stop": STOP_COLOUR, "draw_once": DRAW_ONCE_COLOUR, "optimal": OPTIMAL_COLOUR}
    shown = [b for b in bars if b.value is not None]
    with fig.batch_update():
        trace = fig.data[0]
        trace.x = [b.label.replace(" (", "<br>(").replace(", then", ",<br>then") for b in shown]
        trace.y = [float(b.value) for b in shown if b.value is not None]
        trace.text = [short_value(b.value) for b in shown]
        trace.marker.color = [colours.get(b.key, OTHER_ACTION_COLOUR) for b in shown]
        trace.marker.line.width = [4 if b.key == best_key else 0 for b in shown]
        fig.layout.title.text = title


def update_distribution(fig: go.FigureWidget, optimal: Mapping[Number, Number],
                        threshold: Mapping[Number, Number], threshold_value: int) -> None:
    """The distribution of this turn's result under both policies."""
    with fig.batch_update():
        for trace, dist in zip(fig.data, (optimal, threshold), strict=True):
            trace.x = [float(k) for k in dist]
            trace.y = [float(v) for v in dist.values()]
        fig.data[1].name = f"stop at {threshold_value}"


# --------------------------------------------------------------------------------------------
# text beside the charts


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> str:
    head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return (f"<table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table>")


def next_card_html(outcomes: Sequence[OutcomeBar], p_bust: Number | None,
                   total: Number | None = None) -> str:
    """The next draw's outcomes as a table; with this turn's ``total`` an outcome that adds
    nothing (a card a relic sends back, say) reads "no gain", not "gain"."""
    if not outcomes:
        return "<div class='pushluck-numbers'>Drawing is not legal here.</div>"

    def kind(o: OutcomeBar) -> str:
        if o.busted:
            return "bust"
        return "no gain" if total is not None and o.total_after <= total else "gain"

    rows = [
        (o.label, kind(o), probability_text(o.probability), value_text(o.total_after))
        for o in outcomes
    ]
    table = _table(("outcome", "kind", "probability", "turn total after"), rows,
                   "One more draw: every outcome")
    return (f"<div class='pushluck-numbers'>{table}<p>P(next draw busts) = "
            f"{escape(probability_text(p_bust))}</p></div>")


def bust_line_html(points: Sequence[tuple[str, Number | None]]) -> str:
    rows = [(label, probability_text(p)) for label, p in points]
    return ("<div class='pushluck-numbers'>"
            + _table(("decision", "P(next draw busts)"), rows, "Bust risk so far this turn")
            + "</div>")


def _separated_value_texts(values: Sequence[Number | None]) -> list[str]:
    """:func:`value_text` of each value, with more decimals (up to eight) where two different
    decimal values would otherwise read the same."""
    texts = [value_text(v) for v in values]
    shown = [float(v) for v in values if v is not None]
    if len(set(texts)) == len(set(map(repr, values))) or len(set(shown)) < 2:
        return texts
    for decimals in range(4, 9):
        if len({f"{v:.{decimals}f}" for v in shown}) == len(set(shown)):
            break
    return [t if v is None or "/" in t or float(v).is_integer() else f"{float(v):.{decimals}f}"
            for v, t in zip(values, texts, strict=True)]


def choice_html(bars: Sequence[ChoiceBar], best_label: str, *, exact: bool = True) -> str:
    texts = _separated_value_texts([b.value for b in bars])
    rows = [(b.label, text) for b, text in zip(bars, texts, strict=True)]
    table = _table(("choice", "expected result"), rows, "Value of the choice")
    note = "" if exact else (
        "<p>Decimals (this turn can go on in so many ways that exact fractions take long); "
        "<code>pushluck odds … --json --exact</code> prints the exact fractions.</p>")
    return (f"<div class='pushluck-numbers'>{table}<p>Recommended: "
            f"<strong>{escape(best_label)}</strong></p>{note}</div>")


def distribution_html(optimal: Mapping[Number, Number], threshold: Mapping[Number, Number],
                      threshold_value: int) -> str:
    results = sorted(set(optimal) | set(threshold), key=float)
    rows = [
        (value_text(r), probability_text(optimal.get(r, 0)), probability_text(threshold.get(r, 0)))
        for r in results
    ]

    def mean(dist: Mapping[Number, Number]) -> str:
        return f"{sum(float(k) * float(v) for k, v in dist.items()):.3f}" if dist else "n/a"

    table = _table(("result", "optimal play", f"stop at {threshold_value}"), rows,
                   "This turn's result from here")
    return (f"<div class='pushluck-numbers'><p>Mean result: optimal play {mean(optimal)}, "
            f"stop at {threshold_value} {mean(threshold)}</p>{table}</div>")
