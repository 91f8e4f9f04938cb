"""What a screen reader and a keyboard need from every page, in Voilà and on the static site.

:class:`PageAccessibility` is a hidden widget every page carries (inside its
:class:`~pushluck_teach.ui.projector.ProjectorSwitch`).  In the browser it keeps the page's
parts that ipywidgets and plotly draw themselves readable, as the page changes:

* the notebook's container is the page's ``main`` landmark (the Voilà template makes it a
  ``<main>`` element; the static site's template has a plain ``div``, which gets the role);
* a slider's handle and a text box without a name of their own are named by the words the
  widget shows beside them (its description);
* a box that scrolls (a game log, a long number table) can be reached with Tab and says what
  it holds;
* every chart is a labelled figure (its title), described by its number table: the table
  :func:`describe_chart` pairs with it, else a "Numbers for this chart" table written from the
  chart's own data (read by a screen reader right after the chart; it takes no room on the
  screen).

Nothing here computes a number: the tables show the numbers the charts were given.
"""

from __future__ import annotations

import anywidget
import ipywidgets as widgets

#: class of a chart paired with its number table (``pl-chart-<id>`` names the pair)
_CHART_PREFIX = "pl-chart-"
_NUMBERS_PREFIX = "pl-numbers-for-"

PAGE_ACCESSIBILITY_ESM = r"""
const FIXED = "data-pl-a11y";

function words(el) {
  return el ? (el.textContent || "").replace(/\s+/g, " ").trim() : "";
}

let serial = 0;
function idOf(el) {
  if (!el.id) { serial += 1; el.id = "pl-a11y-" + serial; }
  return el.id;
}

function mainLandmark() {
  const cells = document.getElementById("rendered_cells");
  if (!cells) { return; }
  if (!cells.closest("main, [role=main]") && !document.querySelector("main, [role=main]")) {
    cells.setAttribute("role", "main");
  }
}

function widgetLabel(el) {
  const box = el.closest(".widget-inline-hbox, .widget-hslider, .widget-vslider");
  if (!box) { return null; }
  const label = box.querySelector(":scope > .widget-label, :scope > label");
  return label && words(label) ? label : null;
}

function hasName(el) {
  return el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") ||
    (el.labels && [...el.labels].some((l) => words(l))) || el.getAttribute("title");
}

function nameControls() {
  const controls = document.querySelectorAll(
    "[role=slider], input:not([type=hidden]), select, textarea");
  for (const el of controls) {
    if (hasName(el)) { continue; }
    const label = widgetLabel(el);
    if (label) {
      el.setAttribute("aria-labelledby", idOf(label));
    } else if (el.getAttribute("placeholder")) {
      el.setAttribute("aria-label", el.getAttribute("placeholder"));
    }
  }
}

function scrollRegions() {
  const boxes = document.querySelectorAll(
    "#rendered_cells .pushluck-log, #rendered_cells .pushluck-numbers, " +
    "#rendered_cells .widget-html-content > div, #rendered_cells .widget-box");
  for (const el of boxes) {
    if (el.hasAttribute("tabindex")) { continue; }
    const style = getComputedStyle(el);
    const scrolls = ["auto", "scroll"].includes(style.overflowY) ||
                    ["auto", "scroll"].includes(style.overflowX);
    if (!scrolls || (el.scrollHeight <= el.clientHeight + 1 &&
                     el.scrollWidth <= el.clientWidth + 1)) { continue; }
    el.setAttribute("tabindex", "0");
    if (!el.getAttribute("role")) { el.setAttribute("role", "region"); }
    if (!hasName(el)) {
      const caption = el.querySelector("caption, h1, h2, h3, h4, b, strong");
      const name = el.classList.contains("pushluck-log") ? "Game log"
        : (words(caption) || "Scrolling numbers").slice(0, 80);
      el.setAttribute("aria-label", name + " (scrolls)");
    }
  }
}

function chartTitle(plot) {
  const title = plot.querySelector(".gtitle");
  return words(title) || "Chart";
}

function cellText(value) {
  if (value === null || value === undefined) { return ""; }
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : String(+value.toPrecision(4));
  }
  return String(value).replace(/<[^>]*>/g, " ");
}

const TYPED = { f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
  i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array, u1c: Uint8ClampedArray };

function asArray(values) {
  if (!values) { return []; }
  if (Array.isArray(values)) { return values; }
  if (ArrayBuffer.isView(values)) { return Array.from(values); }
  if (typeof values.bdata === "string" && TYPED[values.dtype]) {  /* plotly's typed array */
    const bytes = Uint8Array.from(atob(values.bdata), (c) => c.charCodeAt(0));
    return Array.from(new TYPED[values.dtype](bytes.buffer));
  }
  return [];
}

/* A table of a chart's own data: one row per x (or label), one column per trace. */
function dataTable(plot) {
  /* traces shown and read (a graph's edges, drawn without hover text, are left out) */
  const traces = (plot.data || []).filter((t) => t.visible !== false &&
    t.visible !== "legendonly" && t.hoverinfo !== "skip");
  const table = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = "Numbers for this chart: " + chartTitle(plot);
  table.appendChild(caption);
  const indicators = traces.filter((t) => t.type === "indicator");
  if (indicators.length) {
    for (const t of indicators) {
      const row = table.insertRow();
      row.insertCell().textContent = words(plot.querySelector(".gtitle")) ||
        cellText(t.title && t.title.text) || "value";
      row.insertCell().textContent = cellText(t.value) + (t.number && t.number.suffix || "");
    }
    return table;
  }
  const horizontal = (t) => t.orientation === "h";
  const keys = [];
  const columns = traces.map((t) => {
    const along = asArray(horizontal(t) ? t.y : t.x);
    const value = asArray(horizontal(t) ? t.x : t.y);
    const map = new Map();
    if (t.type === "histogram") {  /* raw samples: how many fall on each value */
      for (const sample of asArray(horizontal(t) ? t.y : t.x)) {
        if (sample === null || sample === undefined) { continue; }
        const key = cellText(sample);
        if (!map.has(key)) { keys.push(key); }
        map.set(key, String(Number(map.get(key) || 0) + 1));
      }
      return map;
    }
    value.forEach((v, i) => {
      if (v === null || v === undefined || (along.length && along[i] == null)) { return; }
      const key = cellText(along.length ? along[i] : i + 1);
      if (!map.has(key)) { keys.push(key); }
      map.set(key, cellText(v));
    });
    return map;
  });
  const unique = [...new Set(keys)].slice(0, 80);
  const head = table.createTHead().insertRow();
  const title = plot.layout && plot.layout.xaxis && plot.layout.xaxis.title;
  const th0 = document.createElement("th");
  th0.scope = "col";
  th0.textContent = cellText(typeof title === "string" ? title : title && title.text) || "x";
  head.appendChild(th0);
  traces.forEach((t, i) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = cellText(t.name) || "value " + (i + 1);
    head.appendChild(th);
  });
  const body = table.createTBody();
  for (const key of unique) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = key || "(none)";
    row.appendChild(th);
    for (const column of columns) { row.insertCell().textContent = column.get(key) || ""; }
  }
  return table;
}

function pairedNumbers(plot) {
  const chart = plot.closest("[class*='" + "pl-chart-" + "']");
  if (!chart) { return null; }
  const key = [...chart.classList].find((c) => c.startsWith("pl-chart-"));
  if (!key) { return null; }
  return document.querySelector("." + "pl-numbers-for-" + key.slice("pl-chart-".length));
}

function describeCharts() {
  for (const plot of document.querySelectorAll("#rendered_cells .js-plotly-plot")) {
    if (!plot.querySelector(".main-svg")) { continue; }
    const title = chartTitle(plot);
    plot.setAttribute("role", "figure");
    plot.setAttribute("aria-label", title);
    const paired = pairedNumbers(plot);
    if (paired) {
      plot.setAttribute("aria-describedby", idOf(paired));
      continue;
    }
    /* no table of its own: one written from the chart's data, for screen readers, inside
       the chart's box (it takes no room on the screen) */
    const holder = plot.closest(".pl-chart") || plot.parentElement;
    let numbers = holder.querySelector(":scope > .pl-chart-numbers");
    if (!numbers) {
      numbers = document.createElement("div");
      numbers.className = "pl-chart-numbers";
      numbers.style.cssText = "position:absolute;width:1px;height:1px;overflow:hidden;" +
        "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;";
      holder.appendChild(numbers);
    }
    const signature = JSON.stringify((plot.data || []).map((t) => [t.name, t.x, t.y, t.value]));
    if (numbers.dataset.signature !== signature || numbers.dataset.title !== title) {
      numbers.dataset.signature = signature;
      numbers.dataset.title = title;
      numbers.replaceChildren(dataTable(plot));
    }
    plot.setAttribute("aria-describedby", idOf(numbers));
  }
}

function fixPage() {
  mainLandmark();
  nameControls();
  scrollRegions();
  describeCharts();
}

function render({ el }) {
  el.setAttribute(FIXED, "");
  if (window.__pushluckAccessibility) { return; }
  window.__pushluckAccessibility = true;
  let pending = null;
  const later = () => {
    if (pending !== null) { return; }
    pending = setTimeout(() => { pending = null; fixPage(); }, 300);
  };
  new MutationObserver(later).observe(document.body,
    { childList: true, subtree: true, attributes: true, attributeFilter: ["class", "style"] });
  window.addEventListener("resize", later);
  later();
}
export default { render };
"""


class PageAccessibility(anywidget.AnyWidget):
    """A hidden widget that keeps the page's landmarks, control names, scroll regions and
    chart descriptions in place as the page changes (see the module docstring)."""

    _esm = PAGE_ACCESSIBILITY_ESM

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.layout.display = "none"


def describe_chart(chart: widgets.DOMWidget, numbers: widgets.DOMWidget) -> None:
    """Pair ``chart`` with ``numbers``, the widget holding its number table: the chart is then
    described by that table (``aria-describedby``) instead of a table made from its data."""
    key = chart.model_id
    chart.add_class(f"{_CHART_PREFIX}{key}")
    numbers.add_class(f"{_NUMBERS_PREFIX}{key}")


__all__ = ["PAGE_ACCESSIBILITY_ESM", "PageAccessibility", "describe_chart"]
